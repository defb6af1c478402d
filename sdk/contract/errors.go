package contract

import (
	"errors"
	"fmt"
)

// ErrorCode is the stable, enumerated failure code. Clients match on it, never on prose.
type ErrorCode string

// The complete ErrorCode enum, exactly as the spec lists it.
const (
	PreconditionFailed ErrorCode = "PRECONDITION_FAILED"
	ResourceNotFound   ErrorCode = "RESOURCE_NOT_FOUND"
	ValidationError    ErrorCode = "VALIDATION_ERROR"
	BridgeDisconnected ErrorCode = "BRIDGE_DISCONNECTED"
	Timeout            ErrorCode = "TIMEOUT"
	InternalError      ErrorCode = "INTERNAL_ERROR"
	ApprovalDenied     ErrorCode = "APPROVAL_DENIED"
	PeerReplaced       ErrorCode = "PEER_REPLACED"
)

// Codes lists every ErrorCode in spec order.
var Codes = []ErrorCode{
	PreconditionFailed, ResourceNotFound, ValidationError, BridgeDisconnected,
	Timeout, InternalError, ApprovalDenied, PeerReplaced,
}

// Valid reports whether c is one of the enumerated codes.
func (c ErrorCode) Valid() bool {
	for _, k := range Codes {
		if c == k {
			return true
		}
	}
	return false
}

// Error is a structured failure an agent can act on: a stable Code, a Hint
// that says what to do next, and for PRECONDITION_FAILED the
// machine-checkable name of what is Required. It implements error; its
// JSON members are the envelope's (error, hint, required).
type Error struct {
	Code     ErrorCode `json:"error"`
	Hint     string    `json:"hint"`
	Required string    `json:"required,omitempty"`
}

func (e *Error) Error() string {
	if e.Required != "" {
		return fmt.Sprintf("%s (required: %s): %s", e.Code, e.Required, e.Hint)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Hint)
}

// Errorf builds an *Error with a formatted hint.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Hint: fmt.Sprintf(format, args...)}
}

// Precondition builds a PRECONDITION_FAILED error naming what is required.
func Precondition(required, hint string) *Error {
	return &Error{Code: PreconditionFailed, Hint: hint, Required: required}
}

// AsError extracts an *Error from err's chain; any other error becomes
// INTERNAL_ERROR. (sdk.AsError, for toolsets, also checks the code and
// turns a deadline into TIMEOUT.)
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: InternalError, Hint: "godot-mcp failed internally: " + err.Error() + ". Retry; if it persists, check the server log (stderr)."}
}

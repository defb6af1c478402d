package sdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ErrorCode is the stable, enumerated failure code an agent matches on:
// contract.ErrorCode (the spec's ErrorCode enum), the host's and the
// editor's too, so that an error crosses from a toolset to the host and the
// agent unchanged. Valid reports whether a code is one of the enum.
type ErrorCode = contract.ErrorCode

// The complete ErrorCode enum, in spec order (contract's codes under the
// SDK's names).
const (
	CodePreconditionFailed = contract.PreconditionFailed
	CodeResourceNotFound   = contract.ResourceNotFound
	CodeValidationError    = contract.ValidationError
	CodeBridgeDisconnected = contract.BridgeDisconnected
	CodeTimeout            = contract.Timeout
	CodeInternalError      = contract.InternalError
	CodeApprovalDenied     = contract.ApprovalDenied
	CodePeerReplaced       = contract.PeerReplaced
)

// Codes lists every ErrorCode in spec order (contract.Codes).
var Codes = contract.Codes

// Names of preconditions, for ToolOptions.Preconditions and Error.Required
// (contract's names). The host checks bridge_connected and project_dir
// before it calls the tool; the editor command checks the others.
const (
	RequireActiveScene     = contract.RequireActiveScene
	RequireConfirm         = contract.RequireConfirm
	RequireBridgeConnected = contract.RequireBridgeConnected
	RequireRuntimeProbe    = contract.RequireRuntimeProbe
	RequireGameNotBreaked  = contract.RequireGameNotBreaked
	RequireGodotVersion    = contract.RequireGodotVersion
	RequireProjectDir      = contract.RequireProjectDir
	// RequireGodotBinary: the tool starts a separate Godot process (a
	// headless run) and refuses with it when no Godot binary is found
	// (GODOT_BIN, else godot on PATH); godot_get_server_info lists the tool
	// as unavailable then.
	RequireGodotBinary = contract.RequireGodotBinary
	// RequireExportTemplates: a whole-game export lacks the platform's
	// export templates for this Godot version (the hint names the files
	// and the directory). A tool answers it; it is not declarable.
	RequireExportTemplates = contract.RequireExportTemplates
)

// PreconditionNames returns the names ToolOptions.Preconditions accepts
// (contract.Preconditions).
func PreconditionNames() []string { return append([]string(nil), contract.Preconditions...) }

// Error is a structured failure an agent can act on: a stable Code, a Hint
// that says what to do next, and for PRECONDITION_FAILED the machine-checkable
// name of what is Required. Return it (or wrap it) from a tool function;
// Host.Send returns it when the editor answers ok:false. It is
// contract.Error, the host's and the editor's error too (fields Code, Hint,
// Required; its Error method reads "CODE (required: x): hint"), so the host
// passes it on as is.
type Error = contract.Error

// Errorf builds an *Error with a formatted hint.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Hint: fmt.Sprintf(format, args...)}
}

// PreconditionFailed reports that something named by required (for example
// RequireActiveScene) must hold first; hint says how to make it hold.
func PreconditionFailed(required, hint string) *Error {
	return &Error{Code: CodePreconditionFailed, Hint: hint, Required: required}
}

// NotFound reports that a node, file or resource the call names does not exist.
func NotFound(hint string) *Error { return &Error{Code: CodeResourceNotFound, Hint: hint} }

// Validation reports arguments that are well-formed JSON but wrong.
func Validation(hint string) *Error { return &Error{Code: CodeValidationError, Hint: hint} }

// Internal reports a failure that is nobody's input's fault.
func Internal(hint string) *Error { return &Error{Code: CodeInternalError, Hint: hint} }

// Timeout reports that something did not finish in time.
func Timeout(hint string) *Error { return &Error{Code: CodeTimeout, Hint: hint} }

// ApprovalDenied reports that a user or policy refused the action.
func ApprovalDenied(hint string) *Error { return &Error{Code: CodeApprovalDenied, Hint: hint} }

// BridgeDisconnected reports that no editor is connected.
func BridgeDisconnected(hint string) *Error {
	return &Error{Code: CodeBridgeDisconnected, Hint: hint}
}

// AsError returns the *Error in err's chain. Any other error becomes
// INTERNAL_ERROR (TIMEOUT for context.DeadlineExceeded) with err's text in
// the hint. It returns nil for a nil err.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) && e != nil {
		if !e.Code.Valid() {
			return &Error{Code: CodeInternalError, Hint: fmt.Sprintf("the toolset used an unknown error code %q (hint: %s); this is a bug in the toolset", e.Code, e.Hint)}
		}
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Hint: err.Error() + ". Retry; if the editor is busy, give it more time."}
	}
	return &Error{Code: CodeInternalError, Hint: err.Error() + ". Retry; if it persists, check the godot-mcp server log (stderr)."}
}

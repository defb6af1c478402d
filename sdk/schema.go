package sdk

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/godot-mcp/godot-mcp/internal/schema"
)

// The SDK and the host share one schema engine (internal/schema): the same
// generator and tag dialect for toolset tools and the host's core tools,
// and the one validator the host runs on every call before anything else.

func generateSchema(t reflect.Type) (*schema.Schema, error)      { return schema.For(t) }
func generateInputSchema(t reflect.Type) (*schema.Schema, error) { return schema.ForInput(t) }

// validateArguments validates raw against s as the host does before it
// calls a tool, and returns the arguments with defaults applied. A refusal
// is VALIDATION_ERROR naming each bad field.
func validateArguments(s *schema.Schema, raw json.RawMessage) (json.RawMessage, *Error) {
	out, _, err := schema.Validate(s, raw)
	if err != nil {
		var ae *schema.ArgumentError
		if errors.As(err, &ae) {
			return nil, Validation(ae.Hint)
		}
		return nil, Internal(err.Error())
	}
	return out, nil
}

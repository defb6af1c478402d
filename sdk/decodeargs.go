package sdk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/godot-mcp/godot-mcp/internal/schema"
)

// argSchemas caches, per input type, the input schema DecodeArgs validates
// against (or the error generating it).
var argSchemas sync.Map // reflect.Type -> argSchema

type argSchema struct {
	s   *schema.Schema
	err error
}

func inputSchemaOf(t reflect.Type) (*schema.Schema, error) {
	if c, ok := argSchemas.Load(t); ok {
		return c.(argSchema).s, c.(argSchema).err
	}
	s, err := generateInputSchema(t)
	argSchemas.Store(t, argSchema{s, err})
	return s, err
}

// DecodeArgs validates args against the input schema NewTool generates for
// In, with the engine and the words the host uses on a tool call's
// arguments, and decodes them into In with declared defaults filled in.
// It is for arguments a tool receives inside its own input and hands to
// the code of another tool, such as the steps of a batch
// ({"tool": "create_node", "args": {...}}): a step is then held to exactly
// what a single call of that tool is held to.
//
// A refusal is VALIDATION_ERROR naming every bad field ("arguments.type:
// must be one of ..."), as the host answers a single call. Empty or null
// args are {}. The reserved arguments dry_run and confirm are not part of
// In's schema, so they are refused like any unknown field. An In that
// NewTool would refuse is an INTERNAL_ERROR.
func DecodeArgs[In any](args json.RawMessage) (In, error) {
	var in In
	s, err := inputSchemaOf(reflect.TypeFor[In]())
	if err != nil {
		return in, Internal(fmt.Sprintf("arguments of %s: %v; this is a bug in the toolset", reflect.TypeFor[In](), err))
	}
	valid, verr := validateArguments(s, args)
	if verr != nil {
		return in, verr
	}
	if err := Unmarshal(valid, &in); err != nil {
		var zero In
		return zero, Validation(fmt.Sprintf("arguments do not fit %s: %v", reflect.TypeFor[In](), err))
	}
	return in, nil
}

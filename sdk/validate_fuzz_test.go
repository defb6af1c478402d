package sdk

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// FuzzValidateArguments feeds arbitrary bytes to a tool: the dispatcher must
// never panic, and anything it lets through must decode into the input type.
func FuzzValidateArguments(f *testing.F) {
	for _, seed := range []string{
		`{"node":"/a","to":{"x":1,"y":2}}`, `{"node":"/a","to":{"x":1,"y":2},"steps":2.0,"tags":["a"],"offset":null}`,
		`{}`, `[]`, `null`, ``, `{"node":`, `{"to":{"x":1e400,"y":-0}}`, `{"steps":1e999999999}`,
		`{"node":"\ud800","to":{"x":1,"y":2}}`, `{"mode":"global","node":"x","to":{"x":0,"y":0},"mode":"local"}`,
	} {
		f.Add([]byte(seed))
	}
	tree, err := generateSchema(reflect.TypeFor[TreeNode]())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := testToolset(t)
		res := r.call(context.Background(), plugmodel.CallRequest{Tool: "move", Arguments: data}, &fakeBackend{})
		if res.Err == nil && !json.Valid(res.Structured) {
			t.Fatalf("accepted %q but produced %q", data, res.Structured)
		}
		if args, verr := validateArguments(tree, data); verr == nil {
			var v TreeNode
			if err := json.Unmarshal(args, &v); err != nil {
				t.Fatalf("validated %q but it does not decode: %v", data, err)
			}
		}
	})
}

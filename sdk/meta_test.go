package sdk

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testing/filled"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Every tool attribute the host is told (contract.ToolMeta) is declared by
// a ToolOptions field of the same name and reaches the host as declared,
// but DryRun and Confirm, which the SDK also derives from the class.
// Adding an attribute to contract.ToolMeta without its option, or an
// option without carrying it in toolDef.meta, fails here.
func TestEveryToolAttributeIsDeclaredAndSent(t *testing.T) {
	derived := []string{"DryRun", "Confirm"}
	opts := reflect.TypeFor[ToolOptions]()
	for _, name := range filled.Fields[contract.ToolMeta]() {
		if slices.Contains(derived, name) {
			continue
		}
		f, ok := opts.FieldByName(name)
		mf, _ := reflect.TypeFor[contract.ToolMeta]().FieldByName(name)
		if !ok || f.Type != mf.Type {
			t.Errorf("contract.ToolMeta.%s has no ToolOptions.%s of type %s", name, name, mf.Type)
			continue
		}
		o := ToolOptions{Safety: Mutating, Description: "d"}
		v := reflect.ValueOf(&o).Elem().FieldByName(name)
		want := reflect.ValueOf(filled.Value[contract.ToolMeta]()).FieldByName(name)
		if name == "Safety" {
			want = reflect.ValueOf(Destructive)
		}
		if name == "DestructiveWhen" {
			want = reflect.ValueOf([]string{"overwrite"})
		}
		if name == "Preconditions" {
			want = reflect.ValueOf([]string{RequireActiveScene})
		}
		v.Set(want)
		d := NewTool("t", o, func(context.Context, *Call, struct {
			Overwrite bool `json:"overwrite,omitempty"`
		}) (struct{}, error) {
			return struct{}{}, nil
		}).def()
		got := reflect.ValueOf(d.meta()).FieldByName(name)
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("ToolOptions.%s = %v reaches the host as %v", name, want, got)
		}
	}
	// The derived two: a destructive tool takes dry_run and needs confirm.
	m := NewTool("t", ToolOptions{Safety: Destructive, Description: "d"}, func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil }).def().meta()
	if !m.DryRun || !m.Confirm {
		t.Errorf("a destructive tool's meta: %+v", m)
	}
}

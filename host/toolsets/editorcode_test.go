package toolsets

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

type fakeEditorCode struct {
	refuse  *contract.Error
	ensured []string
	removed []string
	note    string
}

func (f *fakeEditorCode) Ensure(_ context.Context, info plugmodel.ToolsetInfo) *contract.Error {
	f.ensured = append(f.ensured, info.Name+"@"+info.EditorVersion)
	if f.refuse != nil {
		e := *f.refuse
		return &e
	}
	return nil
}

func (f *fakeEditorCode) Remove(_ context.Context, info plugmodel.ToolsetInfo) string {
	f.removed = append(f.removed, info.Name)
	return f.note
}

// A toolset that ships editor code has it ensured on enable and before
// each call (a refusal stops the call before the plugin runs it), listed
// in its status, and removed on disable.
func TestEditorCodeHook(t *testing.T) {
	l := &fakeLauncher{}
	calls := 0
	l.call = func(_ *fakePlugin, _ context.Context, req plugmodel.CallRequest) plugmodel.CallResult {
		calls++
		return plugmodel.CallResult{Structured: json.RawMessage(`{}`)}
	}
	ec := &fakeEditorCode{}
	m := New(Options{
		Specs: []pluginhost.Spec{{Name: "hello", Path: "/plugins/hello"}, {Name: "plain", Path: "/plugins/plain"}},
		Launch: func(ctx context.Context, spec pluginhost.Spec) (Plugin, error) {
			p, err := l.launch(ctx, spec)
			if err == nil && spec.Name == "hello" {
				p.(*fakePlugin).info.EditorFiles = []plugmodel.EditorFile{{Path: "handlers.gd", Content: []byte("@tool")}}
				p.(*fakePlugin).info.EditorVersion = "v1"
			}
			return p, err
		},
		EditorCode: ec,
	})
	defer m.Close()
	out, err := m.Enable(context.Background(), "hello", "")
	if err != nil || strings.Join(ec.ensured, ",") != "hello@v1" {
		t.Fatalf("enable: %v %v", err, ec.ensured)
	}
	st, _ := m.Status("hello")
	if st.EditorCode == nil || st.EditorCode.Folder != "res://addons/godot_mcp_ext/hello/" || st.EditorCode.Version != "v1" || strings.Join(st.EditorCode.Files, ",") != "handlers.gd" {
		t.Fatalf("status editor code = %+v", st.EditorCode)
	}
	exec := out.Tools[0].Exec
	if res := exec(context.Background(), mcpserver.Call{Tool: "godot_hello_do", Arguments: json.RawMessage(`{}`)}); res.Err != nil || calls != 1 {
		t.Fatalf("call: %+v %d", res.Err, calls)
	}
	ec.refuse = contract.Precondition("toolset_editor_code", "stale.")
	res := exec(context.Background(), mcpserver.Call{Tool: "godot_hello_do", Arguments: json.RawMessage(`{}`)})
	if res.Err == nil || res.Err.Required != "toolset_editor_code" || !strings.Contains(res.Err.Hint, "godot_hello_do was not run: stale.") || calls != 1 {
		t.Fatalf("stale call: %+v (plugin calls %d)", res.Err, calls)
	}
	ec.note = "kept files you changed"
	dis, err := m.Disable(context.Background(), "hello")
	if err != nil || strings.Join(ec.removed, ",") != "hello" || len(dis.Notes) != 1 {
		t.Fatalf("disable: %+v %v %v", dis, err, ec.removed)
	}
	// Refused at enable: not enabled, and the hint says so.
	if _, err := m.Enable(context.Background(), "hello", ""); err == nil || !strings.Contains(err.Hint, `Toolset "hello" was not enabled: stale.`) {
		t.Fatalf("refused enable: %+v", err)
	}
	if st, _ := m.Status("hello"); st.Enabled {
		t.Fatal("enabled after a refusal")
	}
	// A toolset without editor code never reaches the hook.
	ec.ensured = nil
	if _, err := m.Enable(context.Background(), "plain", ""); err != nil || ec.ensured != nil {
		t.Fatalf("plain: %v %v", err, ec.ensured)
	}
	if st, _ := m.Status("plain"); st.EditorCode != nil {
		t.Fatal("plain lists editor code")
	}
}

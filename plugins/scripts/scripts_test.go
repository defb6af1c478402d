package scripts

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, Toolset())
}

func TestToolSurface(t *testing.T) {
	h := start(t)
	want := map[string]sdk.Safety{
		"list": sdk.ReadOnly, "read": sdk.ReadOnly, "write": sdk.Mutating, "patch": sdk.Mutating,
		"validate": sdk.ReadOnly, "attach": sdk.Mutating, "detach": sdk.Mutating, "get_symbols": sdk.ReadOnly,
	}
	tools := h.Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		if s, ok := want[tool.Name]; !ok || s != tool.Safety {
			t.Errorf("%s: safety %s", tool.Name, tool.Safety)
		}
		scene := tool.Name == "attach" || tool.Name == "detach"
		hasScene := strings.Contains(strings.Join(tool.Preconditions, ","), sdk.RequireActiveScene)
		if scene != hasScene {
			t.Errorf("%s: preconditions %v", tool.Name, tool.Preconditions)
		}
	}
}

var okErrors = []any{}

func TestCommandsAndResults(t *testing.T) {
	cases := []struct {
		name, tool string
		args       any
		opts       []sdktest.CallOption
		command    string
		params     string
		answer     any
		want       string
	}{
		{"list", "list", map[string]any{"extends": "Node2D", "only_classes": true}, nil, "cmd_scripts_list",
			`{"path":"res://","recursive":true,"glob":"","class_name":"","extends":"Node2D","only_classes":true,"offset":0,"limit":500}`,
			map[string]any{"scripts": []any{map[string]any{"path": "res://player.gd", "class_name": "E2EPlayer", "extends": "Node2D", "language": "GDScript"}}, "next_offset": 0},
			`{"scripts":[{"path":"res://player.gd","class_name":"E2EPlayer","extends":"Node2D","language":"GDScript"}],"truncated":false,"scanning":false}`},
		{"list says which links it skipped", "list", nil, nil, "cmd_scripts_list",
			`{"path":"res://","recursive":true,"glob":"","class_name":"","extends":"","only_classes":false,"offset":0,"limit":500}`,
			map[string]any{"scripts": []any{}, "next_offset": 0, "links_skipped": 1, "skipped_links": []string{"res://out"}},
			`{"scripts":[],"truncated":false,"scanning":false,"links_skipped":1,"skipped_links":["res://out"]}`},
		{"read range", "read", map[string]any{"path": "res://player.gd", "start_line": 2, "end_line": 3}, nil, "cmd_scripts_read",
			`{"path":"res://player.gd","start_line":2,"end_line":3}`,
			map[string]any{"path": "res://player.gd", "source": "a\nb\n", "start_line": 2, "end_line": 3, "line_count": 9, "sha256": "ab"},
			`{"path":"res://player.gd","source":"a\nb\n","start_line":2,"end_line":3,"line_count":9,"sha256":"ab"}`},
		{"write validated in the editor", "write", map[string]any{"path": "res://enemy.gd", "source": "class_name Enemy\nextends Node2D\n"}, nil, "cmd_scripts_write",
			`{"path":"res://enemy.gd","source":"class_name Enemy\nextends Node2D\n","overwrite":false,"if_sha256":"","dry_run":false}`,
			map[string]any{"path": "res://enemy.gd", "created": true, "bytes": 31, "valid": true, "errors": okErrors, "validated": true, "class_name": "Enemy", "uid": "uid://e", "persisted": true, "undoable": true, "undo_history": "global", "ready": true, "written": []string{"res://enemy.gd"}},
			`{"path":"res://enemy.gd","created":true,"bytes":31,"valid":true,"errors":[],"checked":true,"class_name":"Enemy","uid":"uid://e","persisted":true,"undoable":true,"undo_history":"global","rescan_pending":false}`},
		{"write with errors", "write", map[string]any{"path": "res://b.gd", "source": "x +\n", "overwrite": true}, []sdktest.CallOption{sdktest.Confirm()}, "cmd_scripts_write",
			`{"path":"res://b.gd","source":"x +\n","overwrite":true,"if_sha256":"","dry_run":false}`,
			map[string]any{"path": "res://b.gd", "valid": false, "validated": true, "errors": []any{map[string]any{"path": "res://b.gd", "line": 1, "column": 1, "message": "Unexpected \"+\"", "kind": "parse"}}, "persisted": true, "ready": true},
			`{"path":"res://b.gd","created":false,"bytes":0,"valid":false,"errors":[{"path":"res://b.gd","line":1,"column":1,"message":"Unexpected \"+\"","kind":"parse"}],"checked":true,"persisted":true,"undoable":false,"rescan_pending":false}`},
		{"validate a file", "validate", map[string]any{"path": "res://b.gd"}, nil, "cmd_scripts_validate",
			`{"items":[{"path":"res://b.gd"}],"timeout_ms":60000}`,
			map[string]any{"results": []any{map[string]any{"path": "res://b.gd", "valid": false, "errors": []any{map[string]any{"path": "res://b.gd", "line": 5, "column": 2, "message": "Expected expression after \"+\" operator.", "kind": "parse"}}}}, "checked": 1},
			`{"valid":false,"checked":1,"invalid_files":["res://b.gd"],"errors":[{"path":"res://b.gd","line":5,"column":2,"message":"Expected expression after \"+\" operator.","kind":"parse"}],"truncated":false}`},
		{"validate a source with its path", "validate", map[string]any{"path": "res://c.gd", "source": "extends Node\n"}, nil, "cmd_scripts_validate",
			`{"items":[{"path":"res://c.gd","source":"extends Node\n"}],"timeout_ms":60000}`,
			map[string]any{"results": []any{map[string]any{"path": "res://c.gd", "valid": true}}, "checked": 1},
			`{"valid":true,"checked":1,"invalid_files":[],"errors":[],"truncated":false}`},
		{"validate a source without a path", "validate", map[string]any{"source": ""}, nil, "cmd_scripts_validate",
			`{"items":[{"path":"res://_godot_mcp_unsaved.gd","source":""}],"timeout_ms":60000}`,
			map[string]any{"results": []any{map[string]any{"path": "res://_godot_mcp_unsaved.gd", "valid": true}}, "checked": 1},
			`{"valid":true,"checked":1,"invalid_files":[],"errors":[],"truncated":false}`},
		{"validate the project", "validate", map[string]any{"all": true, "folder": "res://src", "timeout_ms": 90000}, nil, "cmd_scripts_validate",
			`{"all":true,"folder":"res://src","limit":2000,"timeout_ms":90000}`,
			map[string]any{"results": []any{map[string]any{"path": "res://src/a.gd", "valid": true}, map[string]any{"path": "res://src/b.gd", "valid": false, "errors": []any{map[string]any{"path": "res://src/b.gd", "line": 2, "column": 1, "message": "m", "kind": "compile"}}}}, "checked": 2, "truncated": true},
			`{"valid":false,"checked":2,"invalid_files":["res://src/b.gd"],"errors":[{"path":"res://src/b.gd","line":2,"column":1,"message":"m","kind":"compile"}],"truncated":true}`},
		{"attach by class_name", "attach", map[string]any{"node": "Player", "script": "Enemy"}, nil, "cmd_scripts_attach",
			`{"node":"Player","script":"Enemy","dry_run":false}`,
			map[string]any{"node": "Player", "node_type": "Node2D", "script": "res://enemy.gd", "class_name": "Enemy", "previous_script": "res://player.gd", "scene": "res://main.tscn", "scene_dirty": true, "persisted": true, "undoable": true, "undo_history": "scene", "ready": true},
			`{"node":"Player","node_type":"Node2D","script":"res://enemy.gd","class_name":"Enemy","previous_script":"res://player.gd","created":false,"scene":"res://main.tscn","scene_dirty":true,"persisted":true,"undoable":true,"undo_history":"scene","errors":[],"rescan_pending":false}`},
		{"attach a new script", "attach", map[string]any{"node": ".", "script": "res://main.gd", "source": ""}, nil, "cmd_scripts_attach",
			`{"node":".","script":"res://main.gd","source":"","dry_run":false}`,
			map[string]any{"node": ".", "script": "res://main.gd", "created": true, "ready": true, "written": []string{"res://main.gd"}},
			`{"node":".","node_type":"","script":"res://main.gd","previous_script":"","created":true,"scene":"","scene_dirty":false,"persisted":false,"reason":"the editor gave no reason (an older addon: update it with godot-mcp addon install)","undoable":false,"errors":[],"rescan_pending":false}`},
		{"detach", "detach", map[string]any{"node": "Player"}, nil, "cmd_scripts_detach",
			`{"node":"Player","dry_run":false}`,
			map[string]any{"node": "Player", "node_type": "Node2D", "detached": true, "previous_script": "res://player.gd", "scene": "res://main.tscn", "scene_dirty": true, "persisted": true, "undoable": true, "undo_history": "scene"},
			`{"node":"Player","node_type":"Node2D","detached":true,"previous_script":"res://player.gd","scene":"res://main.tscn","scene_dirty":true,"persisted":true,"undoable":true,"undo_history":"scene"}`},
		{"get_symbols", "get_symbols", map[string]any{"path": "res://player.gd"}, nil, "cmd_scripts_get_symbols",
			`{"path":"res://player.gd"}`,
			map[string]any{"path": "res://player.gd", "valid": true, "class_name": "E2EPlayer", "extends": "Node2D", "functions": []any{map[string]any{"name": "take_hit", "args": []any{map[string]any{"name": "damage", "type": "int"}}, "return_type": "void", "static": false, "line": 19}}},
			`{"path":"res://player.gd","valid":true,"errors":[],"class_name":"E2EPlayer","extends":"Node2D","tool":false,"functions":[{"name":"take_hit","args":[{"name":"damage","type":"int"}],"return_type":"void","static":false,"line":19}],"signals":[],"variables":[],"constants":[],"enums":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult(tc.command, tc.answer)
			res := h.MustCall(t, tc.tool, tc.args, tc.opts...)
			if res.Err != nil {
				t.Fatalf("tool failed: %v", res.Err)
			}
			got := h.Addon().Received()
			if len(got) != 1 || got[0].Command != tc.command {
				t.Fatalf("editor received %v, want one %s", h.Commands(), tc.command)
			}
			sdktest.AssertJSON(t, got[0].Params, tc.params)
			sdktest.AssertJSON(t, res.Structured, tc.want)
		})
	}
}

func TestArgumentErrors(t *testing.T) {
	cases := []struct {
		name, tool string
		args       any
		hint       string
	}{
		{"write outside", "write", map[string]any{"path": "res://../x.gd", "source": ""}, ".."},
		{"write absolute", "write", map[string]any{"path": "/tmp/x.gd", "source": ""}, "res://"},
		{"write hidden", "write", map[string]any{"path": "res://.godot/x.gd", "source": ""}, "hidden"},
		{"write not gdscript", "write", map[string]any{"path": "res://x.txt", "source": ""}, "not a GDScript file"},
		{"patch no edits", "patch", map[string]any{"path": "res://x.gd", "edits": []any{}}, "edits"},
		{"patch outside", "patch", map[string]any{"path": "user://x.gd", "edits": []any{map[string]any{"old": "a", "new": "b"}}}, "res://"},
		{"validate nothing", "validate", map[string]any{}, "say what to check"},
		{"validate all with path", "validate", map[string]any{"all": true, "path": "res://a.gd"}, "leave path and source out"},
		{"validate folder without all", "validate", map[string]any{"path": "res://a.gd", "folder": "res://x"}, "folder only applies"},
		{"validate bad folder", "validate", map[string]any{"all": true, "folder": "res://../"}, ".."},
		{"read inverted range", "read", map[string]any{"path": "res://a.gd", "start_line": 5, "end_line": 2}, "after end_line"},
		{"attach absolute node", "attach", map[string]any{"node": "/root/Main/Player", "script": "Enemy"}, "relative"},
		{"attach no node", "attach", map[string]any{"node": " ", "script": "Enemy"}, "node is required"},
		{"attach odd script ref", "attach", map[string]any{"node": "P", "script": "my script.gd"}, "neither"},
		{"attach source with a class_name", "attach", map[string]any{"node": "P", "script": "Enemy", "source": "x"}, "res://….gd path"},
		{"attach escaping path", "attach", map[string]any{"node": "P", "script": "res://../e.gd"}, ".."},
		{"symbols not gd", "get_symbols", map[string]any{"path": "res://a.tscn"}, "not a GDScript file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			res := h.MustCall(t, tc.tool, tc.args)
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("got %+v, want VALIDATION_ERROR mentioning %q", res.Err, tc.hint)
			}
			if n := len(h.Addon().Received()); n != 0 {
				t.Fatalf("editor received %v", h.Commands())
			}
		})
	}
}

func TestEditorErrorsPassThrough(t *testing.T) {
	cases := []struct {
		tool, command string
		args          any
		e             sdk.Error
	}{
		{"write", "cmd_scripts_write", map[string]any{"path": "res://p.gd", "source": "x"}, sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "'res://p.gd' is open in the script editor with unsaved changes; nothing was written."}},
		{"read", "cmd_scripts_read", map[string]any{"path": "res://plyer.gd"}, sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No script at 'res://plyer.gd'. Did you mean res://player.gd?"}},
		{"validate", "cmd_scripts_validate", map[string]any{"all": true}, sdk.Error{Code: sdk.CodeTimeout, Hint: "Godot's check of 900 script(s) did not finish within 60 s"}},
		{"attach", "cmd_scripts_attach", map[string]any{"node": "Camera2D", "script": "res://sprite.gd"}, sdk.Error{Code: sdk.CodeValidationError, Hint: "'res://sprite.gd' extends Sprite2D, but 'Camera2D' is a Camera2D"}},
		{"attach", "cmd_scripts_attach", map[string]any{"node": "Nope", "script": "res://sprite.gd"}, sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No node at 'Nope'. Did you mean 'Node'?"}},
		{"attach", "cmd_scripts_attach", map[string]any{"node": "P", "script": "Enemy"}, sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "No scene is open", Required: "active_scene"}},
		{"get_symbols", "cmd_scripts_get_symbols", map[string]any{"path": "res://x.gd"}, sdk.Error{Code: sdk.CodeInternalError, Hint: "Could not start a headless Godot"}},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"/"+string(tc.e.Code), func(t *testing.T) {
			h := start(t)
			e := tc.e
			h.Addon().HandleError(tc.command, &e)
			res := h.MustCall(t, tc.tool, tc.args)
			if res.Err == nil || string(res.Err.Code) != string(e.Code) || res.Err.Hint != e.Hint || res.Err.Required != e.Required {
				t.Fatalf("got %+v, want %+v", res.Err, e)
			}
		})
	}
}

// When the editor has not caught up by the time it answers, write waits for
// its filesystem and then asks Godot's verdict separately.
func TestWriteWaitsThenValidates(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scripts_write", map[string]any{
		"path": "res://enemy.gd", "created": true, "validated": false, "persisted": true, "undoable": true,
		"ready": false, "written": []string{"res://enemy.gd"}, "removed": []string{},
	})
	var polls atomic.Int32
	h.Addon().Handle("cmd_filesystem_sync", func(context.Context, json.RawMessage) (any, *sdk.Error) {
		return map[string]any{"scanning": false, "ready": polls.Add(1) >= 2, "pending": []string{"res://enemy.gd"}}, nil
	})
	h.Addon().HandleResult("cmd_scripts_validate", map[string]any{"results": []any{map[string]any{
		"path": "res://enemy.gd", "valid": false, "class_name": "Enemy",
		"errors": []any{map[string]any{"path": "res://enemy.gd", "line": 3, "column": 2, "message": "Identifier \"foo\" not declared in the current scope.", "kind": "parse"}},
	}}, "checked": 1})
	res := h.MustCall(t, "write", map[string]any{"path": "res://enemy.gd", "source": "class_name Enemy\nfunc f():\n\tfoo\n"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := strings.Join(h.Commands(), ","); got != "cmd_scripts_write,cmd_filesystem_sync,cmd_filesystem_sync,cmd_scripts_validate" {
		t.Fatalf("editor received %s", got)
	}
	sdktest.AssertJSON(t, h.Addon().Received()[1].Params, `{"written":["res://enemy.gd"],"removed":[]}`)
	sdktest.AssertJSON(t, h.Addon().Received()[3].Params, `{"items":[{"path":"res://enemy.gd"}]}`)
	var out WriteOut
	res.Decode(&out)
	if out.Valid || len(out.Errors) != 1 || out.Errors[0].Line != 3 || out.ClassName != "Enemy" || out.RescanPending {
		t.Fatalf("result %s", res.Structured)
	}
}

// A write whose check cannot run still reports the write, and says that
// Godot did not check it instead of claiming a verdict.
func TestWriteWhenTheCheckCannotRun(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scripts_write", map[string]any{"path": "res://a.gd", "validated": false, "persisted": true, "undoable": true, "ready": true, "written": []string{"res://a.gd"}})
	h.Addon().HandleError("cmd_scripts_validate", &sdk.Error{Code: sdk.CodeInternalError, Hint: "Could not start a headless Godot (/bin/godot) to check the scripts."})
	res := h.MustCall(t, "write", map[string]any{"path": "res://a.gd", "source": "extends Node\n"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out WriteOut
	res.Decode(&out)
	if !out.Persisted || out.Checked || out.Valid || !strings.Contains(out.CheckError, "headless Godot") {
		t.Fatalf("result %s", res.Structured)
	}
}

func TestWriteDryRun(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scripts_write", map[string]any{"path": "res://a.gd", "created": true, "valid": true, "validated": true, "persisted": true, "ready": false})
	res := h.MustCall(t, "write", map[string]any{"path": "res://a.gd", "source": "extends Node\n"}, sdktest.DryRun())
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := h.Commands(); len(got) != 1 {
		t.Fatalf("editor received %v", got)
	}
	if !strings.Contains(string(h.Addon().Received()[0].Params), `"dry_run":true`) {
		t.Fatalf("params %s", h.Addon().Received()[0].Params)
	}
	var out WriteOut
	res.Decode(&out)
	if !out.DryRun || out.Persisted || !out.Valid {
		t.Fatalf("result %s", res.Structured)
	}
}

// patch reads the file, applies the edits in Go keeping tabs and CRLF, and
// writes only if the file is unchanged since the read (if_sha256).
func TestPatchFlow(t *testing.T) {
	h := start(t)
	src := "extends Node\r\n\r\nfunc _ready() -> void:\r\n\tprint(1)\r\n"
	h.Addon().HandleResult("cmd_scripts_read", map[string]any{"path": "res://a.gd", "source": src, "start_line": 1, "end_line": 4, "line_count": 4, "sha256": "abc123"})
	h.Addon().HandleResult("cmd_scripts_write", map[string]any{"path": "res://a.gd", "bytes": 60, "valid": true, "validated": true, "persisted": true, "undoable": true, "undo_history": "global", "ready": true})
	res := h.MustCall(t, "patch", map[string]any{"path": "res://a.gd", "edits": []any{
		map[string]any{"old": "    print(1)\n", "new": "    if true:\n        print(2)\n"},
	}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	got := h.Addon().Received()
	if len(got) != 2 || got[0].Command != "cmd_scripts_read" || got[1].Command != "cmd_scripts_write" {
		t.Fatalf("editor received %v", h.Commands())
	}
	sdktest.AssertJSON(t, got[0].Params, `{"path":"res://a.gd","start_line":0,"end_line":0}`)
	sdktest.AssertJSON(t, got[1].Params, `{"path":"res://a.gd","source":"extends Node\r\n\r\nfunc _ready() -> void:\r\n\tif true:\r\n\t\tprint(2)\r\n","overwrite":false,"if_sha256":"abc123","dry_run":false}`)
	var out PatchOut
	res.Decode(&out)
	if out.Indent != "tabs" || out.LineEnding != "crlf" || len(out.Applied) != 1 || out.Applied[0].Line != 4 || !out.Applied[0].IndentConverted || !out.Valid {
		t.Fatalf("result %s", res.Structured)
	}
}

func TestPatchAnchorRefusedBeforeWriting(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scripts_read", map[string]any{"path": "res://a.gd", "source": "func a():\n\tpass\nfunc b():\n\tpass\n", "sha256": "x"})
	res := h.MustCall(t, "patch", map[string]any{"path": "res://a.gd", "edits": []any{map[string]any{"old": "\tpass", "new": "\treturn"}}})
	if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, "matches 2 times") {
		t.Fatalf("got %+v", res.Err)
	}
	if got := h.Commands(); len(got) != 1 {
		t.Fatalf("editor received %v; nothing may be written", got)
	}
}

// The server-side guard against a file changed between read and write.
func TestPatchRefusedWhenTheFileChanged(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scripts_read", map[string]any{"path": "res://a.gd", "source": "a\n", "sha256": "old"})
	h.Addon().HandleError("cmd_scripts_write", &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "'res://a.gd' changed on disk since it was read"})
	res := h.MustCall(t, "patch", map[string]any{"path": "res://a.gd", "edits": []any{map[string]any{"old": "a", "new": "b"}}})
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed {
		t.Fatalf("got %+v", res.Err)
	}
}

// A long whole-project check sends progress notifications while it runs.
func TestValidateHeartbeat(t *testing.T) {
	old := heartbeat
	heartbeat = 20 * time.Millisecond
	t.Cleanup(func() { heartbeat = old })
	h := start(t)
	h.Addon().Handle("cmd_scripts_validate", func(ctx context.Context, _ json.RawMessage) (any, *sdk.Error) {
		select {
		case <-time.After(150 * time.Millisecond):
		case <-ctx.Done():
		}
		return map[string]any{"results": []any{}, "checked": 0}, nil
	})
	res := h.MustCall(t, "validate", map[string]any{"all": true}, sdktest.ProgressToken("p"))
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	pr := h.Progress()
	if len(pr) == 0 || pr[0].Token != "p" || !strings.Contains(pr[0].Message, "checking") {
		t.Fatalf("progress %+v", pr)
	}
}

func TestAttachDetachDryRun(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scripts_attach", map[string]any{"node": "P", "script": "res://e.gd", "persisted": true, "undoable": true, "ready": false})
	h.Addon().HandleResult("cmd_scripts_detach", map[string]any{"node": "P", "detached": false, "undoable": true})
	for tool, args := range map[string]any{
		"attach": map[string]any{"node": "P", "script": "Enemy"},
		"detach": map[string]any{"node": "P"},
	} {
		res := h.MustCall(t, tool, args, sdktest.DryRun())
		if res.Err != nil {
			t.Fatalf("%s: %v", tool, res.Err)
		}
		var out map[string]any
		json.Unmarshal(res.Structured, &out)
		if out["dry_run"] != true || out["persisted"] == true || out["undoable"] == true || out["reason"] != "dry run: nothing changed" {
			t.Fatalf("%s: %s", tool, res.Structured)
		}
	}
	for _, c := range h.Addon().Received() {
		if !strings.Contains(string(c.Params), `"dry_run":true`) {
			t.Fatalf("%s params %s", c.Command, c.Params)
		}
	}
	if len(h.Addon().Received()) != 2 {
		t.Fatalf("editor received %v", h.Commands())
	}
}

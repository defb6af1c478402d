package resources

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/resfs"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// fastWait shortens the filesystem wait's pauses for the test.
func fastWait(t *testing.T) {
	t.Helper()
	t.Cleanup(resfs.ShortenWaitsForTest(5*time.Millisecond, 0))
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, Toolset())
}

func commands(h *sdktest.Harness) []string {
	var out []string
	for _, c := range h.Addon().Received() {
		out = append(out, c.Command)
	}
	return out
}

func TestToolSurface(t *testing.T) {
	h := start(t)
	want := map[string]sdk.Safety{
		"list": sdk.ReadOnly, "search": sdk.ReadOnly, "read": sdk.ReadOnly, "create": sdk.Mutating,
		"set_properties": sdk.Mutating, "move": sdk.Mutating, "delete": sdk.Destructive,
		"get_dependencies": sdk.ReadOnly, "resolve_uid": sdk.ReadOnly, "rescan": sdk.ReadOnly, "reimport": sdk.Mutating,
		"make_image": sdk.Mutating,
	}
	tools := h.Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		s, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if tool.Safety != s {
			t.Errorf("%s: safety %s, want %s", tool.Name, tool.Safety, s)
		}
		if tool.Confirm != (s == sdk.Destructive) || tool.DryRun != (s != sdk.ReadOnly) {
			t.Errorf("%s: dry_run=%v confirm=%v", tool.Name, tool.DryRun, tool.Confirm)
		}
		if len(tool.Preconditions) == 0 || tool.Preconditions[0] != sdk.RequireBridgeConnected {
			t.Errorf("%s: preconditions %v", tool.Name, tool.Preconditions)
		}
		if !strings.Contains(string(tool.OutputSchema), `"properties"`) || tool.Description == "" {
			t.Errorf("%s: empty output schema or description", tool.Name)
		}
	}
}

// Each tool sends exactly one command with exactly these params when the
// editor answers ready, and shapes the answer.
func TestCommandsAndResults(t *testing.T) {
	cases := []struct {
		name, tool string
		args       any
		opts       []sdktest.CallOption
		command    string
		params     string
		answer     any
		want       string // the structured result
	}{
		{"list defaults", "list", nil, nil, "cmd_resources_list",
			`{"path":"res://","recursive":true,"types":[],"glob":"","offset":0,"limit":500}`,
			map[string]any{"entries": []any{map[string]any{"path": "res://a.tres", "kind": "file", "type": "Gradient", "uid": "uid://x"}}, "next_offset": 0, "scanning": false},
			`{"path":"res://","entries":[{"path":"res://a.tres","kind":"file","type":"Gradient","uid":"uid://x"}],"truncated":false,"scanning":false}`},
		{"list filtered, not recursive", "list", map[string]any{"path": "res://art/", "recursive": false, "types": []string{"Texture2D"}, "glob": "*.png", "limit": 10}, nil, "cmd_resources_list",
			`{"path":"res://art","recursive":false,"types":["Texture2D"],"glob":"*.png","offset":0,"limit":10}`,
			map[string]any{"entries": nil, "next_offset": 0, "scanning": true},
			`{"path":"res://art","entries":[],"truncated":false,"scanning":true}`},
		{"list says which links it skipped", "list", nil, nil, "cmd_resources_list",
			`{"path":"res://","recursive":true,"types":[],"glob":"","offset":0,"limit":500}`,
			map[string]any{"entries": []any{}, "next_offset": 0, "scanning": false, "links_skipped": 2, "skipped_links": []string{"res://out", "res://leak.gd"}},
			`{"path":"res://","entries":[],"truncated":false,"scanning":false,"links_skipped":2,"skipped_links":["res://out","res://leak.gd"]}`},
		{"search says which links it skipped", "search", map[string]any{"query": "x"}, nil, "cmd_resources_search",
			`{"query":"x","regex":false,"case_sensitive":false,"path":"res://","glob":"","max_results":100,"offset":0,"skip":0,"budget_ms":3000}`,
			map[string]any{"matches": []any{}, "files_searched": 1, "files_skipped": 0, "next_offset": -1, "next_skip": 0, "reason": "", "links_skipped": 1, "skipped_links": []string{"res://out"}},
			`{"matches":[],"files_searched":1,"files_skipped":0,"truncated":false,"links_skipped":1,"skipped_links":["res://out"]}`},
		{"search", "search", map[string]any{"query": "speed", "regex": true, "glob": "*.gd"}, nil, "cmd_resources_search",
			`{"query":"speed","regex":true,"case_sensitive":false,"path":"res://","glob":"*.gd","max_results":100,"offset":0,"skip":0,"budget_ms":3000}`,
			map[string]any{"matches": []any{map[string]any{"path": "res://p.gd", "line": 3, "column": 5, "text": "var speed"}}, "files_searched": 4, "files_skipped": 1, "next_offset": -1, "next_skip": 0, "reason": ""},
			`{"matches":[{"path":"res://p.gd","line":3,"column":5,"text":"var speed"}],"files_searched":4,"files_skipped":1,"truncated":false}`},
		{"read", "read", map[string]any{"path": "res://shape.tres"}, nil, "cmd_resources_read",
			`{"path":"res://shape.tres","properties":[]}`,
			map[string]any{"path": "res://shape.tres", "type": "RectangleShape2D", "uid": "uid://s", "properties": map[string]any{"size": map[string]any{"x": 32, "y": 16}}},
			`{"path":"res://shape.tres","type":"RectangleShape2D","uid":"uid://s","properties":{"size":{"x":32,"y":16}},"sub_resources":[],"omitted":[]}`},
		{"read: a path into an embedded resource", "read", map[string]any{"path": "res://ball.tres", "properties": []string{"material:albedo_color"}}, nil, "cmd_resources_read",
			`{"path":"res://ball.tres","properties":["material:albedo_color"]}`,
			map[string]any{"path": "res://ball.tres", "type": "SphereMesh", "properties": map[string]any{"material:albedo_color": map[string]any{"r": 0, "g": 1, "b": 0, "a": 1}}},
			`{"path":"res://ball.tres","type":"SphereMesh","properties":{"material:albedo_color":{"r":0,"g":1,"b":0,"a":1}},"sub_resources":[],"omitted":[]}`},
		{"create", "create", map[string]any{"path": "res://data/box.tres", "type": "RectangleShape2D", "properties": map[string]any{"size": map[string]any{"x": 4, "y": 2}}}, nil, "cmd_resources_create",
			`{"path":"res://data/box.tres","type":"RectangleShape2D","properties":{"size":{"x":4,"y":2}},"overwrite":false,"dry_run":false}`,
			map[string]any{"path": "res://data/box.tres", "type": "RectangleShape2D", "uid": "uid://b", "created": true, "properties": map[string]any{"size": map[string]any{"x": 4, "y": 2}}, "persisted": true, "undoable": true, "undo_history": "global", "ready": true, "written": []string{"res://data/box.tres"}, "removed": []string{}},
			`{"path":"res://data/box.tres","type":"RectangleShape2D","uid":"uid://b","created":true,"properties":{"size":{"x":4,"y":2}},"persisted":true,"undoable":true,"undo_history":"global","rescan_pending":false}`},
		{"set_properties", "set_properties", map[string]any{"path": "res://shape.tres", "properties": map[string]any{"size": map[string]any{"x": 1, "y": 1}}}, nil, "cmd_resources_set_properties",
			`{"path":"res://shape.tres","properties":{"size":{"x":1,"y":1}},"dry_run":false}`,
			map[string]any{"path": "res://shape.tres", "type": "RectangleShape2D", "changes": []any{map[string]any{"property": "size", "old": map[string]any{"x": 32, "y": 16}, "new": map[string]any{"x": 1, "y": 1}}}, "persisted": true, "undoable": true, "undo_history": "global", "ready": true, "written": []string{"res://shape.tres"}, "used_by": []any{"res://main.tscn"}, "used_by_complete": true},
			`{"path":"res://shape.tres","type":"RectangleShape2D","changes":[{"property":"size","old":{"x":32,"y":16},"new":{"x":1,"y":1}}],"persisted":true,"undoable":true,"undo_history":"global","rescan_pending":false,"used_by":["res://main.tscn"],"used_by_complete":true}`},
		{"set_properties: a path into an embedded resource", "set_properties", map[string]any{"path": "res://ball.tres", "properties": map[string]any{"material:albedo_color": "#ff0000"}}, nil, "cmd_resources_set_properties",
			`{"path":"res://ball.tres","properties":{"material:albedo_color":"#ff0000"},"dry_run":false}`,
			map[string]any{"path": "res://ball.tres", "type": "SphereMesh", "changes": []any{map[string]any{"property": "material:albedo_color", "old": map[string]any{"r": 1, "g": 1, "b": 1, "a": 1}, "new": map[string]any{"r": 1, "g": 0, "b": 0, "a": 1}}}, "persisted": true, "undoable": true, "undo_history": "global", "ready": true, "written": []string{"res://ball.tres"}, "used_by": []any{}, "used_by_complete": true},
			`{"path":"res://ball.tres","type":"SphereMesh","changes":[{"property":"material:albedo_color","old":{"r":1,"g":1,"b":1,"a":1},"new":{"r":1,"g":0,"b":0,"a":1}}],"persisted":true,"undoable":true,"undo_history":"global","rescan_pending":false,"used_by":[],"used_by_complete":true}`},
		{"move", "move", map[string]any{"from": "res://shape.tres", "to": "res://data/shape.tres"}, nil, "cmd_resources_move",
			`{"from":"res://shape.tres","to":"res://data/shape.tres","dry_run":false}`,
			map[string]any{"from": "res://shape.tres", "to": "res://data/shape.tres", "moved": []any{map[string]any{"from": "res://shape.tres", "to": "res://data/shape.tres"}}, "updated_refs": []any{map[string]any{"path": "res://main.tscn", "count": 1}}, "uid": "uid://s", "persisted": true, "undoable": true, "undo_history": "global", "ready": true},
			`{"from":"res://shape.tres","to":"res://data/shape.tres","moved":[{"from":"res://shape.tres","to":"res://data/shape.tres"}],"updated_refs":[{"path":"res://main.tscn","count":1}],"unchanged_refs":[],"project_settings":[],"uid":"uid://s","persisted":true,"undoable":true,"undo_history":"global","rescan_pending":false}`},
		{"delete", "delete", map[string]any{"path": "res://old", "recursive": true}, []sdktest.CallOption{sdktest.Confirm()}, "cmd_resources_delete",
			`{"path":"res://old","force":false,"recursive":true,"dry_run":false}`,
			map[string]any{"path": "res://old", "deleted": []string{"res://old/a.tres"}, "persisted": true, "undoable": true, "undo_history": "global", "ready": true},
			`{"path":"res://old","deleted":["res://old/a.tres"],"referenced_by":[],"persisted":true,"undoable":true,"undo_history":"global","rescan_pending":false}`},
		{"get_dependencies", "get_dependencies", map[string]any{"path": "res://main.tscn"}, nil, "cmd_resources_get_dependencies",
			`{"path":"res://main.tscn","dependents":true}`,
			map[string]any{"path": "res://main.tscn", "uid": "uid://m", "dependencies": []any{map[string]any{"path": "res://icon.svg", "uid": "uid://i", "type": "Texture2D", "exists": true}}, "dependents_complete": true},
			`{"path":"res://main.tscn","uid":"uid://m","dependencies":[{"path":"res://icon.svg","uid":"uid://i","type":"Texture2D","exists":true}],"dependents":[],"dependents_complete":true}`},
		{"get_dependencies without dependents", "get_dependencies", map[string]any{"path": "res://main.tscn", "dependents": false}, nil, "cmd_resources_get_dependencies",
			`{"path":"res://main.tscn","dependents":false}`,
			map[string]any{"path": "res://main.tscn"},
			`{"path":"res://main.tscn","dependencies":[],"dependents":[],"dependents_complete":false}`},
		{"resolve uid", "resolve_uid", map[string]any{"ref": " uid://abc "}, nil, "cmd_resources_resolve_uid", `{"ref":"uid://abc"}`,
			map[string]any{"uid": "uid://abc", "path": "res://icon.svg", "exists": true},
			`{"uid":"uid://abc","path":"res://icon.svg","exists":true}`},
		{"resolve path", "resolve_uid", map[string]any{"ref": "res://a//b.tres"}, nil, "cmd_resources_resolve_uid", `{"ref":"res://a/b.tres"}`,
			map[string]any{"uid": "", "path": "res://a/b.tres", "exists": true},
			`{"uid":"","path":"res://a/b.tres","exists":true}`},
		{"reimport", "reimport", map[string]any{"paths": []string{"res://icon.svg"}}, nil, "cmd_resources_reimport",
			`{"paths":["res://icon.svg"],"dry_run":false}`,
			map[string]any{"reimported": []string{"res://icon.svg"}, "ready": true, "written": []string{"res://icon.svg"}},
			`{"reimported":["res://icon.svg"],"skipped":[],"rescan_pending":false}`},
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
				t.Fatalf("editor received %v, want one %s", commands(h), tc.command)
			}
			sdktest.AssertJSON(t, got[0].Params, tc.params)
			sdktest.AssertJSON(t, res.Structured, tc.want)
		})
	}
}

// Paths that leave res:// (or hide in .godot) never reach the editor.
func TestPathsRefusedBeforeTheEditor(t *testing.T) {
	bad := []string{"/etc/passwd", "res://../outside.tres", "res://a/../../x.tres", "user://x.tres", "res://a\\b.tres", "res://.godot/x.tres", "C:/x.tres", "res:///abs.tres"}
	calls := []struct {
		tool string
		args func(p string) map[string]any
		opts []sdktest.CallOption
	}{
		{"list", func(p string) map[string]any { return map[string]any{"path": p} }, nil},
		{"search", func(p string) map[string]any { return map[string]any{"query": "x", "path": p} }, nil},
		{"read", func(p string) map[string]any { return map[string]any{"path": p} }, nil},
		{"create", func(p string) map[string]any { return map[string]any{"path": p, "type": "Gradient"} }, nil},
		{"set_properties", func(p string) map[string]any {
			return map[string]any{"path": p, "properties": map[string]any{"a": 1}}
		}, nil},
		{"move", func(p string) map[string]any { return map[string]any{"from": p, "to": "res://ok.tres"} }, nil},
		{"move", func(p string) map[string]any { return map[string]any{"from": "res://ok.tres", "to": p} }, nil},
		{"delete", func(p string) map[string]any { return map[string]any{"path": p} }, []sdktest.CallOption{sdktest.Confirm()}},
		{"get_dependencies", func(p string) map[string]any { return map[string]any{"path": p} }, nil},
		{"resolve_uid", func(p string) map[string]any { return map[string]any{"ref": p} }, nil},
		{"reimport", func(p string) map[string]any { return map[string]any{"paths": []string{"res://ok.png", p}} }, nil},
	}
	h := start(t)
	for _, c := range calls {
		for _, p := range bad {
			res := h.MustCall(t, c.tool, c.args(p), c.opts...)
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError {
				t.Errorf("%s(%q): got %+v, want VALIDATION_ERROR", c.tool, p, res.Err)
			}
		}
	}
	if n := len(h.Addon().Received()); n != 0 {
		t.Fatalf("an escaping path reached the editor: %v", commands(h))
	}
}

func TestArgumentErrors(t *testing.T) {
	cases := []struct {
		name, tool string
		args       any
		opts       []sdktest.CallOption
		hint       string
	}{
		{"create wrong extension", "create", map[string]any{"path": "res://a.png", "type": "Gradient"}, nil, ".tres"},
		{"create root", "create", map[string]any{"path": "res://", "type": "Gradient"}, nil, "not res:// itself"},
		{"create no type", "create", map[string]any{"path": "res://a.tres", "type": ""}, nil, "type"},
		{"set nothing", "set_properties", map[string]any{"path": "res://a.tres", "properties": map[string]any{}}, nil, "empty"},
		{"set missing properties", "set_properties", map[string]any{"path": "res://a.tres"}, nil, "properties"},
		{"move onto itself", "move", map[string]any{"from": "res://a.tres", "to": "res://a.tres"}, nil, "same path"},
		{"move into itself", "move", map[string]any{"from": "res://lvl", "to": "res://lvl/sub"}, nil, "into itself"},
		{"delete the project", "delete", map[string]any{"path": "res://"}, []sdktest.CallOption{sdktest.Confirm()}, "not res:// itself"},
		{"bad cursor", "list", map[string]any{"cursor": "nonsense"}, nil, "next_cursor"},
		{"search cursor used for list", "list", map[string]any{"cursor": resfs.EncodeCursor("resources_search", 3, 0)}, nil, "next_cursor"},
		{"empty query", "search", map[string]any{"query": ""}, nil, "query"},
		{"uid without id", "resolve_uid", map[string]any{"ref": "uid://"}, nil, "no id"},
		{"ref of another scheme", "resolve_uid", map[string]any{"ref": "http://x"}, nil, "uid:// or res://"},
		{"reimport nothing", "reimport", map[string]any{"paths": []string{}}, nil, "paths"},
		{"limit too large", "list", map[string]any{"limit": 100000}, nil, "limit"},
		{"unknown argument", "read", map[string]any{"path": "res://a.tres", "colour": 1}, nil, "colour"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			res := h.MustCall(t, tc.tool, tc.args, tc.opts...)
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("got %+v, want VALIDATION_ERROR mentioning %q", res.Err, tc.hint)
			}
			if n := len(h.Addon().Received()); n != 0 {
				t.Fatalf("the editor received %v", commands(h))
			}
		})
	}
}

// The editor's refusals (not found with a did-you-mean, referenced files,
// open scenes) reach the agent unchanged.
func TestEditorErrorsPassThrough(t *testing.T) {
	cases := []struct {
		tool, command string
		args          any
		opts          []sdktest.CallOption
		e             sdk.Error
	}{
		{"read", "cmd_resources_read", map[string]any{"path": "res://shpe.tres"}, nil, sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No file at 'res://shpe.tres'. Did you mean res://shape.tres?"}},
		{"delete", "cmd_resources_delete", map[string]any{"path": "res://shape.tres"}, []sdktest.CallOption{sdktest.Confirm()}, sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "'res://shape.tres' is still used by 1 file(s): res://main.tscn. Nothing was deleted."}},
		{"move", "cmd_resources_move", map[string]any{"from": "res://main.tscn", "to": "res://m.tscn"}, nil, sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "'res://main.tscn' is open in the editor as a scene"}},
		{"create", "cmd_resources_create", map[string]any{"path": "res://a.tres", "type": "Gradiant"}, nil, sdk.Error{Code: sdk.CodeValidationError, Hint: "Unknown resource class 'Gradiant'. Did you mean Gradient?"}},
		{"set_properties", "cmd_resources_set_properties", map[string]any{"path": "res://a.tres", "properties": map[string]any{"size": "big"}}, nil, sdk.Error{Code: sdk.CodeValidationError, Hint: "Nothing was changed. size: expected {x, y}"}},
		{"resolve_uid", "cmd_resources_resolve_uid", map[string]any{"ref": "uid://nope"}, nil, sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No file has the UID"}},
		{"search", "cmd_resources_search", map[string]any{"query": "(", "regex": true}, nil, sdk.Error{Code: sdk.CodeValidationError, Hint: "not a valid regular expression"}},
		{"reimport", "cmd_resources_reimport", map[string]any{"paths": []string{"res://icon.svg"}}, nil, sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "scanning"}},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			h := start(t)
			e := tc.e
			h.Addon().HandleError(tc.command, &e)
			res := h.MustCall(t, tc.tool, tc.args, tc.opts...)
			if res.Err == nil || string(res.Err.Code) != string(tc.e.Code) || res.Err.Hint != tc.e.Hint {
				t.Fatalf("got %+v, want %+v", res.Err, tc.e)
			}
			if got := commands(h); len(got) != 1 {
				t.Fatalf("editor received %v (no wait after a failure)", got)
			}
		})
	}
}

// Mutating tools honour dry_run: the editor is asked for a preview, nothing
// is waited for, and the result says nothing persisted.
func TestDryRun(t *testing.T) {
	cases := []struct {
		tool, command string
		args          any
		answer        any
	}{
		{"create", "cmd_resources_create", map[string]any{"path": "res://a.tres", "type": "Gradient"},
			map[string]any{"path": "res://a.tres", "type": "Gradient", "created": true, "persisted": true, "ready": false}},
		{"set_properties", "cmd_resources_set_properties", map[string]any{"path": "res://a.tres", "properties": map[string]any{"x": 1}},
			map[string]any{"path": "res://a.tres", "changes": []any{}, "ready": false}},
		{"move", "cmd_resources_move", map[string]any{"from": "res://a.tres", "to": "res://b.tres"},
			map[string]any{"from": "res://a.tres", "to": "res://b.tres", "updated_refs": []any{map[string]any{"path": "res://m.tscn", "count": 2}}, "ready": false}},
		{"delete", "cmd_resources_delete", map[string]any{"path": "res://a.tres"},
			map[string]any{"path": "res://a.tres", "deleted": []string{"res://a.tres"}, "ready": false}},
		{"reimport", "cmd_resources_reimport", map[string]any{"paths": []string{"res://i.png"}},
			map[string]any{"reimported": []string{"res://i.png"}, "ready": false}},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult(tc.command, tc.answer)
			res := h.MustCall(t, tc.tool, tc.args, sdktest.DryRun()) // a dry run needs no confirm
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			got := h.Addon().Received()
			if len(got) != 1 {
				t.Fatalf("editor received %v; a dry run must not wait for the filesystem", commands(h))
			}
			var p struct {
				DryRun bool `json:"dry_run"`
			}
			json.Unmarshal(got[0].Params, &p)
			if !p.DryRun {
				t.Fatalf("params %s lack dry_run: true", got[0].Params)
			}
			var out map[string]any
			json.Unmarshal(res.Structured, &out)
			if out["dry_run"] != true || out["persisted"] == true || out["rescan_pending"] == true {
				t.Fatalf("result %s", res.Structured)
			}
		})
	}
}

func TestDeleteNeedsConfirm(t *testing.T) {
	h := start(t)
	res := h.MustCall(t, "delete", map[string]any{"path": "res://a.tres"})
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || res.Err.Required != sdk.RequireConfirm {
		t.Fatalf("got %+v", res.Err)
	}
	if len(h.Addon().Received()) != 0 {
		t.Fatal("an unconfirmed delete reached the editor")
	}
}

// After a change the editor has not caught up with, the tool polls
// cmd_filesystem_sync with exactly the written and removed files until it
// is ready, telling the agent about the wait.
func TestWaitsForTheEditorFilesystem(t *testing.T) {
	fastWait(t)
	h := start(t)
	h.Addon().HandleResult("cmd_resources_move", map[string]any{
		"from": "res://a.tres", "to": "res://b.tres", "ready": false,
		"written": []string{"res://b.tres", "res://m.tscn"}, "removed": []string{"res://a.tres"},
	})
	var polls atomic.Int32
	h.Addon().Handle("cmd_filesystem_sync", func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		n := polls.Add(1)
		return map[string]any{"scanning": n < 3, "progress": 0.5, "ready": n >= 4, "pending": []string{"res://b.tres"}}, nil
	})
	res := h.MustCall(t, "move", map[string]any{"from": "res://a.tres", "to": "res://b.tres", "timeout_ms": 5000}, sdktest.ProgressToken("tok"))
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out MoveOut
	res.Decode(&out)
	if out.RescanPending {
		t.Fatalf("rescan_pending after the editor caught up: %s", res.Structured)
	}
	got := h.Addon().Received()
	if len(got) != 5 || polls.Load() != 4 {
		t.Fatalf("editor received %v", commands(h))
	}
	for _, c := range got[1:] {
		if c.Command != "cmd_filesystem_sync" {
			t.Fatalf("editor received %v", commands(h))
		}
		sdktest.AssertJSON(t, c.Params, `{"written":["res://b.tres","res://m.tscn"],"removed":["res://a.tres"]}`)
	}
	pr := h.Progress()
	if len(pr) < 3 || pr[0].Token != "tok" || !strings.Contains(pr[0].Message, "scan (50%)") || !strings.Contains(pr[len(pr)-1].Message, "up to date") {
		t.Fatalf("progress %+v", pr)
	}
}

// When the editor does not catch up in time the change is still reported,
// with rescan_pending: true — never a false success.
func TestRescanPendingWhenTheWaitEnds(t *testing.T) {
	fastWait(t)
	cases := []struct {
		name string
		sync func(h *sdktest.Harness)
	}{
		{"still scanning", func(h *sdktest.Harness) {
			h.Addon().HandleResult("cmd_filesystem_sync", map[string]any{"scanning": true, "ready": false})
		}},
		{"editor gone", func(h *sdktest.Harness) {
			h.Addon().HandleError("cmd_filesystem_sync", &sdk.Error{Code: sdk.CodeBridgeDisconnected, Hint: "gone"})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult("cmd_resources_create", map[string]any{"path": "res://a.tres", "type": "Gradient", "persisted": true, "ready": false, "written": []string{"res://a.tres"}})
			tc.sync(h)
			start := time.Now()
			res := h.MustCall(t, "create", map[string]any{"path": "res://a.tres", "type": "Gradient", "timeout_ms": 100})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			var out CreateOut
			res.Decode(&out)
			if !out.RescanPending || !out.Persisted {
				t.Fatalf("result %s, want persisted with rescan_pending", res.Structured)
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("the wait was not bounded by timeout_ms")
			}
		})
	}
}

func TestRescanWaitsForTheScan(t *testing.T) {
	fastWait(t)
	h := start(t)
	h.Addon().HandleResult("cmd_resources_rescan", map[string]any{"started": true, "scanning": true})
	var polls atomic.Int32
	h.Addon().Handle("cmd_filesystem_sync", func(context.Context, json.RawMessage) (any, *sdk.Error) {
		return map[string]any{"scanning": polls.Add(1) < 3, "ready": polls.Load() >= 3}, nil
	})
	res := h.MustCall(t, "rescan", nil)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out RescanOut
	res.Decode(&out)
	if !out.Started || out.RescanPending || polls.Load() != 3 {
		t.Fatalf("result %s after %d polls", res.Structured, polls.Load())
	}
	sdktest.AssertJSON(t, h.Addon().Received()[1].Params, `{"written":[],"removed":[]}`)
}

// Pages: next_offset becomes an opaque cursor that asks for the next page.
func TestPagination(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_resources_list", func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		var p struct{ Offset int }
		json.Unmarshal(params, &p)
		if p.Offset == 0 {
			return map[string]any{"entries": []any{map[string]any{"path": "res://1", "kind": "file"}}, "next_offset": 500}, nil
		}
		return map[string]any{"entries": []any{map[string]any{"path": "res://2", "kind": "file"}}, "next_offset": 0}, nil
	})
	var first ListOut
	if err := h.MustCall(t, "list", nil).Decode(&first); err != nil {
		t.Fatal(err)
	}
	if !first.Truncated || first.NextCursor == "" {
		t.Fatalf("first page %+v", first)
	}
	var second ListOut
	if err := h.MustCall(t, "list", map[string]any{"cursor": first.NextCursor}).Decode(&second); err != nil {
		t.Fatal(err)
	}
	if second.Truncated || second.NextCursor != "" || second.Entries[0].Path != "res://2" {
		t.Fatalf("second page %+v", second)
	}
	sdktest.AssertJSON(t, h.Addon().Received()[1].Params, `{"path":"res://","recursive":true,"types":[],"glob":"","offset":500,"limit":500}`)

	// search resumes inside a file: offset and skip.
	h2 := start(t)
	h2.Addon().HandleResult("cmd_resources_search", map[string]any{"matches": []any{}, "next_offset": 7, "next_skip": 3, "reason": "max_results"})
	var s SearchOut
	if err := h2.MustCall(t, "search", map[string]any{"query": "x"}).Decode(&s); err != nil {
		t.Fatal(err)
	}
	if !s.Truncated || s.Reason != "max_results" {
		t.Fatalf("%+v", s)
	}
	h2.MustCall(t, "search", map[string]any{"query": "x", "cursor": s.NextCursor})
	var p struct{ Offset, Skip int }
	json.Unmarshal(h2.Addon().Received()[1].Params, &p)
	if p.Offset != 7 || p.Skip != 3 {
		t.Fatalf("resumed at %+v", p)
	}
}

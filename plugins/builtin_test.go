package plugins_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Each built-in toolset serves at least one real tool end to end: the
// exact command reaches the (fake) editor and its answer comes back typed.
func TestBuiltinsServeARealTool(t *testing.T) {
	cases := []struct {
		toolset, tool string
		args          map[string]any
		command       string
		wantParams    string
		answer        any
		check         func(t *testing.T, structured json.RawMessage)
	}{
		{"scene", "list_open", nil, "cmd_scene_list_open", `{}`,
			map[string]any{"scenes": []any{map[string]any{"path": "res://main.tscn", "dirty": true, "active": true}}, "active": "res://main.tscn"},
			func(t *testing.T, s json.RawMessage) {
				var out struct {
					Scenes []struct{ Dirty bool } `json:"scenes"`
					Active string                 `json:"active"`
				}
				json.Unmarshal(s, &out)
				if len(out.Scenes) != 1 || !out.Scenes[0].Dirty || out.Active != "res://main.tscn" {
					t.Fatalf("%s", s)
				}
			}},
		{"scripts", "read", map[string]any{"path": "res://player.gd", "start_line": 2}, "cmd_scripts_read",
			`{"end_line":0,"path":"res://player.gd","start_line":2}`,
			map[string]any{"path": "res://player.gd", "source": "func _ready():\n\tpass\n", "start_line": 2, "end_line": 3, "line_count": 3},
			func(t *testing.T, s json.RawMessage) {
				var out struct {
					LineCount int `json:"line_count"`
				}
				json.Unmarshal(s, &out)
				if out.LineCount != 3 {
					t.Fatalf("%s", s)
				}
			}},
		{"resources", "resolve_uid", map[string]any{"ref": "uid://abc"}, "cmd_resources_resolve_uid", `{"ref":"uid://abc"}`,
			map[string]any{"uid": "uid://abc", "path": "res://icon.svg", "exists": true},
			func(t *testing.T, s json.RawMessage) {
				var out struct{ Path string }
				json.Unmarshal(s, &out)
				if out.Path != "res://icon.svg" {
					t.Fatalf("%s", s)
				}
			}},
		{"project", "get_settings", map[string]any{"prefix": "application/"}, "cmd_project_get_settings",
			`{"prefix":"application/","limit":200}`,
			map[string]any{"settings": map[string]any{"application/config/name": "Game"}, "truncated": false},
			func(t *testing.T, s json.RawMessage) {
				var out struct {
					Settings map[string]any `json:"settings"`
					Missing  []string       `json:"missing"`
				}
				json.Unmarshal(s, &out)
				if out.Settings["application/config/name"] != "Game" || out.Missing == nil {
					t.Fatalf("%s", s)
				}
			}},
		{"runtime", "get_status", nil, "cmd_runtime_get_status", `{}`,
			map[string]any{"playing": true, "scene": "res://main.tscn", "probe_connected": true, "paused": false},
			func(t *testing.T, s json.RawMessage) {
				var out struct{ Playing bool }
				json.Unmarshal(s, &out)
				if !out.Playing {
					t.Fatalf("%s", s)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.toolset+"/"+tc.tool, func(t *testing.T) {
			ts, ok := plugins.Lookup(tc.toolset)
			if !ok {
				t.Fatalf("no built-in %s", tc.toolset)
			}
			h := sdktest.Start(t, ts)
			h.Addon().HandleResult(tc.command, tc.answer)
			res, err := h.Call(context.Background(), tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err != nil {
				t.Fatalf("tool failed: %v", res.Err)
			}
			got := h.Addon().Received()
			if len(got) != 1 || got[0].Command != tc.command {
				t.Fatalf("editor received %+v", got)
			}
			var want, have any
			json.Unmarshal([]byte(tc.wantParams), &want)
			json.Unmarshal(got[0].Params, &have)
			wj, _ := json.Marshal(want)
			hj, _ := json.Marshal(have)
			if string(wj) != string(hj) {
				t.Fatalf("params sent %s, want %s", got[0].Params, tc.wantParams)
			}
			tc.check(t, res.Structured)
		})
	}
}

func TestEditorErrorsReachTheAgent(t *testing.T) {
	ts, _ := plugins.Lookup("scripts")
	h := sdktest.Start(t, ts)
	h.Addon().HandleError("cmd_scripts_read", &sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No file res://nope.gd; did you mean res://player.gd?"})
	res, err := h.Call(context.Background(), "read", map[string]any{"path": "res://nope.gd"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err == nil || res.Err.Code != sdk.CodeResourceNotFound || res.Err.Hint == "" {
		t.Fatalf("got %+v", res.Err)
	}
}

func TestPathEscapesRefusedBeforeTheEditor(t *testing.T) {
	ts, _ := plugins.Lookup("scripts")
	h := sdktest.Start(t, ts)
	for _, p := range []string{"/etc/passwd", "res://../outside.gd", "user://x.gd"} {
		res, err := h.Call(context.Background(), "read", map[string]any{"path": p})
		if err != nil {
			t.Fatal(err)
		}
		if res.Err == nil || res.Err.Code != sdk.CodeValidationError {
			t.Fatalf("%s: got %+v", p, res.Err)
		}
	}
	if n := len(h.Addon().Received()); n != 0 {
		t.Fatalf("an escaping path reached the editor (%d commands)", n)
	}
}

func TestBuiltinNamesAndSafety(t *testing.T) {
	seen := map[string]bool{}
	for _, ts := range plugins.Builtins() {
		if seen[ts.Name] {
			t.Fatalf("duplicate toolset %s", ts.Name)
		}
		seen[ts.Name] = true
		if ts.Description == "" || ts.Version == "" || len(ts.Tools) == 0 {
			t.Fatalf("%s: incomplete", ts.Name)
		}
	}
	for _, n := range []string{"scene", "scripts", "resources", "project", "runtime", "tilemap"} {
		if !seen[n] {
			t.Fatalf("missing built-in %s", n)
		}
	}
}

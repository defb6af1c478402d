package conformance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// newToolsetCase is one read-only tool of a newer toolset: a call the fake
// editor answers with a result shaped as the real editor's (from the
// toolset's Go result type and its e2e test), and a call it refuses.
type newToolsetCase struct {
	tool      string
	args      map[string]any
	command   string          // the editor command the tool sends ("": none, host-side)
	result    any             // the editor's answer to command
	want      string          // in the structured result the client returns
	array     string          // a top-level array field of the result
	errArgs   map[string]any  // the refused call's arguments
	refusal   *contract.Error // the editor's answer to every call after the first
	errCode   contract.ErrorCode
	errInHint string
}

// TestNewToolsetsThroughTypeScriptSDKClient: for each of the five newer
// toolsets (animation, tilemap, debugger, tests, diagnostics), one read-only
// tool called through the official TypeScript SDK v1 client against the fake
// editor, with tools/list as served by default (no outputSchema): the client
// accepts the result, the SDK's own
// validator accepts it against the full contract (godot://tool/{name}) too,
// and an editor's refusal arrives as isError with the {error, hint} text of
// docs/envelope.md.
func TestNewToolsetsThroughTypeScriptSDKClient(t *testing.T) {
	needNPM(t)
	cases := []newToolsetCase{
		{
			tool: "godot_animation_get", args: map[string]any{"animation": "walk"},
			command: "cmd_animation_get",
			result: map[string]any{
				"player": "AnimationPlayer", "animation": "walk", "library": "", "length": 1.0, "loop_mode": "linear", "step": 0.1,
				"track_count": 2, "key_count": 3, "keys_truncated": false,
				"tracks": []any{
					map[string]any{"index": 0, "type": "value", "path": "Sprite2D:position", "enabled": true, "interpolation": "linear",
						"loop_wrap": true, "update_mode": "continuous", "key_count": 2, "keys": []any{
							map[string]any{"time": 0.0, "value": map[string]any{"type": "Vector2", "x": 0, "y": 0}, "transition": 1.0},
							map[string]any{"time": 0.5, "value": map[string]any{"type": "Vector2", "x": 16, "y": 0}, "transition": 1.0},
						}},
					map[string]any{"index": 1, "type": "method", "path": ".", "enabled": true, "key_count": 1, "keys": []any{
						map[string]any{"time": 1.0, "value": map[string]any{"method": "queue_free", "args": []any{}}, "transition": 1.0},
					}},
				},
			},
			array: "tracks", want: `"Sprite2D:position"`,
			errArgs: map[string]any{"animation": "run"},
			refusal: contract.Errorf(contract.ResourceNotFound, "AnimationPlayer has no animation \"run\"; godot_animation_list lists them."),
			errCode: contract.ResourceNotFound, errInHint: "godot_animation_list",
		},
		{
			tool: "godot_tilemap_get_tileset", args: map[string]any{"layer": "Ground"},
			command: "cmd_tilemap_get_tileset",
			result: map[string]any{
				"path": "res://tiles.tres", "embedded": false, "tile_shape": "square", "tile_size": []int{16, 16},
				"sources": []any{
					map[string]any{"id": 0, "type": "atlas", "texture": "res://tiles.png", "texture_region_size": []int{16, 16},
						"grid_size": []int{4, 4}, "tiles_count": 1, "scenes": []any{}, "tiles": []any{
							map[string]any{"atlas": []int{0, 0}, "size": []int{1, 1}, "alternatives": []int{0}, "terrain_set": 0, "terrain": 0,
								"peering": map[string]int{"right_side": 0}, "collision_polygons": []int{1}, "custom_data": map[string]any{"solid": true}},
						}},
					map[string]any{"id": 1, "type": "scenes", "tiles_count": 1, "tiles": []any{}, "scenes": []any{map[string]any{"id": 0, "scene": "res://coin.tscn"}}},
				},
				"terrain_sets":       []any{map[string]any{"index": 0, "mode": "sides", "terrains": []any{map[string]any{"index": 0, "name": "grass", "color": "#00ff00"}}}},
				"physics_layers":     []any{map[string]any{"index": 0, "collision_layer": 1, "collision_mask": 1}},
				"navigation_layers":  []any{},
				"custom_data_layers": []any{map[string]any{"index": 0, "name": "solid", "type": "bool"}},
				"patterns":           0, "tiles_truncated": false,
			},
			array: "sources", want: `"res://coin.tscn"`,
			errArgs: map[string]any{"layer": "Nowhere"},
			refusal: contract.Errorf(contract.ResourceNotFound, "No node Nowhere in the edited scene: give a TileMapLayer's node path (godot_tilemap_list_layers)."),
			errCode: contract.ResourceNotFound, errInHint: "TileMapLayer",
		},
		{
			tool: "godot_debugger_get_state", args: map[string]any{},
			command: "cmd_debugger_state",
			result: map[string]any{
				"playing": true, "session_id": 0, "stopped": true, "reason": "breakpoint", "message": "",
				"location": map[string]any{"frame": 0, "file": "res://player.gd", "line": 12, "function": "_process"},
				"stack": []any{
					map[string]any{"frame": 0, "file": "res://player.gd", "line": 12, "function": "_process"},
					map[string]any{"frame": 1, "file": "res://main.gd", "line": 4, "function": "_ready"},
				},
				"can_continue": true,
			},
			array: "stack", want: `"_process"`,
			errArgs: map[string]any{},
			refusal: contract.Errorf(contract.PreconditionFailed, "The editor's debugger is not available: the game was started outside the editor. Run it with godot_run_project."),
			errCode: contract.PreconditionFailed, errInHint: "godot_run_project",
		},
		{
			tool: "godot_diagnostics_editor_log", args: map[string]any{"severity": "errors_and_warnings"},
			command: "cmd_diagnostics_editor_log",
			result: map[string]any{
				"entries": []any{
					map[string]any{"seq": 7, "severity": "error", "message": "Parse Error: Identifier \"speed\" not declared in the current scope.",
						"file": "res://player.gd", "line": 3, "text": "ERROR: res://player.gd:3 - Parse Error: Identifier \"speed\" not declared in the current scope."},
					map[string]any{"seq": 9, "severity": "error", "message": "Resource file not found: res://gone.png (expected type: Texture2D)",
						"dependency": "res://gone.png", "referenced_by": []any{map[string]any{"file": "res://main.tscn", "line": 5}},
						"source": "core/io/resource_loader.cpp:291", "text": "ERROR: Resource file not found: res://gone.png (expected type: Texture2D)"},
				},
				"next_cursor": 10, "has_more": false, "dropped": 0, "available": 10,
			},
			array: "entries", want: `"res://gone.png"`,
			errArgs: map[string]any{"since": 3},
			refusal: contract.Errorf(contract.InternalError, "The editor's Output panel could not be read; restart the editor so the diagnostics editor code captures the log."),
			errCode: contract.InternalError, errInHint: "restart the editor",
		},
		{
			// Host-side: the toolset reads the editor's project folder itself.
			tool: "godot_tests_list", args: map[string]any{},
			array: "suites", want: `"test_jump"`,
			errArgs: map[string]any{"path": "res://no_such_dir"}, errCode: contract.ResourceNotFound, errInHint: "res://no_such_dir",
		},
	}

	url := freeBridgeURL(t)
	setupErr := make(chan error, 1)
	dialWhenUp(t, url, func(a *fakeaddon.Addon) {
		setupErr <- writeGUTProject(a.ProjectDir())
		for _, c := range cases {
			if c.command == "" {
				continue
			}
			result, refusal := c.result, c.refusal
			var answered atomic.Bool
			a.Handle(c.command, func(context.Context, json.RawMessage) (any, *contract.Error) {
				if answered.Swap(true) {
					return nil, refusal
				}
				return result, nil
			})
		}
		a.HandleResult("cmd_get_editor_state", mcpserver.EditorState{ProjectDir: a.ProjectDir(), OpenScenes: []mcpserver.OpenScene{{Path: "res://main.tscn", Active: true}},
			ActiveScene: &mcpserver.ActiveScene{Path: "res://main.tscn", RootName: "Main", RootType: "Node2D"}, Selection: []string{}})
	})
	env := map[string]string{
		"GODOT_MCP_BRIDGE_URL":       url,
		"GODOT_MCP_PLUGIN_DIR":       t.TempDir(),
		"GODOT_MCP_DEFAULT_TOOLSETS": "animation,tilemap,debugger,tests,diagnostics",
		"GODOT_MCP_PROJECT_DIR":      "",
	}
	steps := []map[string]any{{"call": "godot_get_editor_state", "until_ok": true}}
	for _, c := range cases {
		// until_ok: the toolset's editor code is installed and loaded once
		// the editor is there; the first calls may precede it.
		steps = append(steps, map[string]any{"call": c.tool, "arguments": c.args, "until_ok": true, "timeout_ms": 30000})
		steps = append(steps, map[string]any{"check_contract": c.tool, "of": len(steps) - 1})
		// The same result with an array field made an object: the contract
		// refuses it (the check can fail).
		steps = append(steps, map[string]any{"check_contract": c.tool, "of": len(steps) - 2, "merge": map[string]any{c.array: map[string]any{"not": "an array"}}})
		steps = append(steps, map[string]any{"call": c.tool, "arguments": c.errArgs})
	}
	got := sdkClientRaw(t, env, steps...)
	if err := <-setupErr; err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		ok, contract, broken, refused := got.Steps[1+4*i], got.Steps[2+4*i], got.Steps[3+4*i], got.Steps[4+4*i]
		if ok.Thrown != nil || refused.Thrown != nil {
			continue // reported by sdkClientRaw: the SDK threw (an output-schema mismatch is -32602)
		}
		var res callResult
		if err := json.Unmarshal(ok.Result, &res); err != nil || res.IsError || !strings.Contains(string(res.StructuredContent), c.want) {
			t.Errorf("%s: the TypeScript SDK client returned %s, want a result with %s", c.tool, ok.Result, c.want)
		}
		var v struct {
			Valid        bool   `json:"valid"`
			ErrorMessage string `json:"errorMessage"`
		}
		if err := json.Unmarshal(contract.Result, &v); err != nil || !v.Valid {
			t.Errorf("%s: the result does not match its full contract (godot://tool/%s): %s", c.tool, c.tool, contract.Result)
		}
		if err := json.Unmarshal(broken.Result, &v); err != nil || v.Valid {
			t.Errorf("%s: the full contract accepted %s as an object (the check cannot fail): %s", c.tool, c.array, broken.Result)
		}
		var bad callResult
		if err := json.Unmarshal(refused.Result, &bad); err != nil {
			t.Fatalf("%s refused: %s", c.tool, refused.Result)
		}
		e := toolError(t, c.tool+" refused", &bad)
		if e.Code != c.errCode || !strings.Contains(e.Hint, c.errInHint) {
			t.Errorf("%s refused: %+v, want %s with %q in the hint", c.tool, e, c.errCode, c.errInHint)
		}
	}
}

// writeGUTProject puts GUT's plugin.cfg and one GUT suite into the fake
// editor's project, as godot_tests_list finds them in a real one.
func writeGUTProject(dir string) error {
	files := map[string]string{
		"addons/gut/plugin.cfg": "[plugin]\nname=\"Gut\"\nversion=\"9.4.0\"\nscript=\"gut_plugin.gd\"\n",
		"test/test_player.gd":   "extends GutTest\n\nfunc test_jump():\n\tassert_true(true)\n\nclass TestInner:\n\textends GutTest\n\n\tfunc test_land():\n\t\tpass\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestNewToolsetsSparseEditorAnswersThroughTypeScriptSDKClient: every
// read-only tool of the newer toolsets with editor code (animation, tilemap,
// debugger, diagnostics; shader, ui, audio, physics), against a fake
// editor that answers each command with {} (every field missing, as an older
// editor code might answer). Whatever the tool makes of that, a success or
// an error result, the TypeScript SDK v1 client must return it rather than
// throw -32602 on the tools/list outputSchema, and a success must match the
// tool's full contract.
func TestNewToolsetsSparseEditorAnswersThroughTypeScriptSDKClient(t *testing.T) {
	needNPM(t)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"godot_animation_list", map[string]any{}},
		{"godot_animation_get", map[string]any{"animation": "walk"}},
		{"godot_animation_seek", map[string]any{"animation": "walk", "time": 0.5}},
		{"godot_animation_tree_get", map[string]any{}},
		{"godot_tilemap_list_layers", map[string]any{}},
		{"godot_tilemap_get_cells", map[string]any{"layer": "Ground"}},
		{"godot_tilemap_get_tileset", map[string]any{"layer": "Ground"}},
		{"godot_tilemap_gridmap_get_cells", map[string]any{"gridmap": "GridMap"}},
		{"godot_debugger_list_breakpoints", map[string]any{}},
		{"godot_debugger_get_state", map[string]any{}},
		{"godot_debugger_get_variables", map[string]any{}},
		{"godot_diagnostics_editor_log", map[string]any{}},
		{"godot_shader_get_params", map[string]any{"path": "res://glow.tres"}},
		{"godot_ui_get_layout", map[string]any{}},
		{"godot_ui_theme_get", map[string]any{"path": "res://theme.tres"}},
		{"godot_audio_get_buses", map[string]any{}},
		{"godot_audio_get_import", map[string]any{"paths": []string{"res://beep.wav"}}},
		{"godot_physics_get_layers", map[string]any{}},
		{"godot_physics_check", map[string]any{}},
	}
	url := freeBridgeURL(t)
	dialWhenUp(t, url, func(a *fakeaddon.Addon) {
		for _, ts := range []string{"animation", "tilemap", "debugger", "diagnostics", "shader", "ui", "audio", "physics"} {
			for _, cmd := range []string{"list", "get", "seek", "tree_get", "list_layers", "get_cells", "get_tileset", "gridmap_get_cells",
				"breakpoints", "state", "variables", "editor_log", "get_params", "get_layout", "theme_get", "get_buses", "get_import",
				"get_layers", "check"} {
				a.HandleResult("cmd_"+ts+"_"+cmd, map[string]any{})
			}
		}
		a.HandleResult("cmd_get_editor_state", mcpserver.EditorState{ProjectDir: a.ProjectDir(), OpenScenes: []mcpserver.OpenScene{{Path: "res://main.tscn", Active: true}},
			ActiveScene: &mcpserver.ActiveScene{Path: "res://main.tscn", RootName: "Main", RootType: "Node2D"}, Selection: []string{}})
	})
	env := map[string]string{
		"GODOT_MCP_BRIDGE_URL":       url,
		"GODOT_MCP_PLUGIN_DIR":       t.TempDir(),
		"GODOT_MCP_DEFAULT_TOOLSETS": "animation,tilemap,debugger,diagnostics,shader,ui,audio,physics",
		"GODOT_MCP_PROJECT_DIR":      "",
		// The opt-in outputSchema summaries, which the client checks results against.
		"GODOT_MCP_OUTPUT_SCHEMAS": "summary",
	}
	steps := []map[string]any{{"call": "godot_get_editor_state", "until_ok": true}}
	for _, c := range calls {
		steps = append(steps, map[string]any{"call": c.tool, "arguments": c.args, "until_ok": true, "timeout_ms": 30000})
		steps = append(steps, map[string]any{"check_contract": c.tool, "of": len(steps) - 1})
	}
	got := sdkClientRaw(t, env, steps...) // reports every call the SDK threw on
	for i, c := range calls {
		call, contract := got.Steps[1+2*i], got.Steps[2+2*i]
		var res callResult
		if call.Thrown != nil || json.Unmarshal(call.Result, &res) != nil {
			continue
		}
		if res.IsError {
			t.Logf("%s: error result %s", c.tool, res.Content[0].Text)
			continue
		}
		var v struct {
			Valid        bool   `json:"valid"`
			ErrorMessage string `json:"errorMessage"`
		}
		if err := json.Unmarshal(contract.Result, &v); err != nil || !v.Valid {
			t.Errorf("%s: its result for an editor answer of {} does not match its full contract: %s\n%s", c.tool, contract.Result, res.StructuredContent)
		}
	}
}

// TestRealCheckProjectThroughTypeScriptSDKClient: a result made by a real
// Godot (GODOT_BIN, else godot on PATH, headless), not a canned one:
// godot_diagnostics_check_project over a project with a parse error and a
// missing dependency, called through the TypeScript SDK v1 client, is
// accepted by the client and matches the tool's full contract.
func TestRealCheckProjectThroughTypeScriptSDKClient(t *testing.T) {
	needNPM(t)
	godot := os.Getenv("GODOT_BIN")
	if godot == "" {
		godot = "godot"
	}
	if _, err := exec.LookPath(godot); err != nil {
		t.Skipf("no Godot binary (GODOT_BIN=%q, or godot on PATH): skipping the real check_project result", os.Getenv("GODOT_BIN"))
	}
	project := t.TempDir()
	files := map[string]string{
		"project.godot":    "config_version=5\n\n[application]\n\nconfig/name=\"check\"\n",
		"broken.gd":        "extends Node\n\nfunc _ready() -> void:\n\tprint(\"a\"\n",
		"fine.gd":          "extends Node\n\nfunc _ready() -> void:\n\tprint(\"ok\")\n",
		"missing_dep.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://gone/missing.png\" id=\"1_m\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"S\" type=\"Sprite2D\" parent=\".\"]\ntexture = ExtResource(\"1_m\")\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"GODOT_MCP_BRIDGE_URL":       "ws://127.0.0.1:0",
		"GODOT_MCP_PLUGIN_DIR":       t.TempDir(),
		"GODOT_MCP_DEFAULT_TOOLSETS": "diagnostics",
		"GODOT_MCP_PROJECT_DIR":      project,
	}
	got := sdkClientRaw(t, env,
		map[string]any{"call": "godot_diagnostics_check_project", "arguments": map[string]any{"timeout_ms": 120000}},
		map[string]any{"check_contract": "godot_diagnostics_check_project", "of": 0},
	)
	if got.Steps[0].Thrown != nil {
		return // reported by sdkClientRaw
	}
	var res callResult
	if err := json.Unmarshal(got.Steps[0].Result, &res); err != nil || res.IsError ||
		!strings.Contains(string(res.StructuredContent), `"parse_error"`) || !strings.Contains(string(res.StructuredContent), `"res://gone/missing.png"`) {
		t.Fatalf("check_project through the TypeScript SDK client = %s", got.Steps[0].Result)
	}
	var v struct {
		Valid        bool   `json:"valid"`
		ErrorMessage string `json:"errorMessage"`
	}
	if err := json.Unmarshal(got.Steps[1].Result, &v); err != nil || !v.Valid {
		t.Errorf("the real check_project result does not match its full contract: %s\n%s", got.Steps[1].Result, res.StructuredContent)
	}
	t.Logf("%s", res.StructuredContent)
}

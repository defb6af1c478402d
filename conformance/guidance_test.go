package conformance

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// rawStep is one step of sdkclient.mjs with the SDK's answer as it is.
type rawStep struct {
	Call   string          `json:"call"`
	Result json.RawMessage `json:"result"`
	Thrown *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"thrown"`
}

type sdkAnswer struct {
	Tools     []string  `json:"tools"`
	ListError string    `json:"list_error"`
	Resources []string  `json:"resources"`
	Templates []string  `json:"templates"`
	Prompts   []string  `json:"prompts"`
	Steps     []rawStep `json:"steps"`
}

// sdkClientRaw is sdkClient for plans with resource reads and prompts.
func sdkClientRaw(t *testing.T, env map[string]string, steps ...map[string]any) sdkAnswer {
	t.Helper()
	plan, _ := json.Marshal(map[string]any{"command": hostBinary(t), "env": env, "steps": steps})
	out, errOut, err := run(t, 3*time.Minute, nil, "sdkclient.sh", string(plan))
	if err != nil {
		t.Fatalf("sdkclient: %v\n%s\n%s", err, out, errOut)
	}
	var got sdkAnswer
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Steps) != len(steps) {
		t.Fatalf("sdkclient's answer is not the expected JSON (%v):\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, s := range got.Steps {
		if s.Thrown != nil {
			t.Errorf("%s: the TypeScript SDK client threw: %+v", s.Call, *s.Thrown)
		}
	}
	return got
}

// dialWhenUp connects the fake addon once the server's bridge listens and
// lets setup register its handlers; the last handler registered should be
// the one the client polls for.
func dialWhenUp(t *testing.T, url string, setup func(*fakeaddon.Addon)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *fakeaddon.Addon, 1)
	go func() {
		for ctx.Err() == nil {
			dctx, dcancel := context.WithTimeout(ctx, 2*time.Second)
			a, err := fakeaddon.Dial(dctx, url)
			dcancel()
			if err != nil {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			setup(a)
			ready <- a
			return
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case a := <-ready:
			a.CloseNow()
		default:
		}
	})
}

// TestResourcesAndPromptsReachTypeScriptSDKClient: the official TypeScript
// SDK v1 client lists the core's resources, template and prompts and reads
// them, the editor ones answered by the (fake) editor.
func TestResourcesAndPromptsReachTypeScriptSDKClient(t *testing.T) {
	needNPM(t)
	url := freeBridgeURL(t)
	dialWhenUp(t, url, func(a *fakeaddon.Addon) {
		a.HandleResult("cmd_describe_class", map[string]any{"class_name": "Node2D", "inherits": []string{"CanvasItem", "Node", "Object"}})
		a.HandleResult("cmd_get_editor_state", mcpserver.EditorState{ProjectDir: "/tmp/p", OpenScenes: []mcpserver.OpenScene{}, Selection: []string{}})
	})
	env := map[string]string{"GODOT_MCP_BRIDGE_URL": url, "GODOT_MCP_PLUGIN_DIR": t.TempDir()}
	got := sdkClientRaw(t, env,
		map[string]any{"call": "godot_get_editor_state", "until_ok": true},
		map[string]any{"read": "godot://docs/values"},
		map[string]any{"read": "godot://class/Node2D"},
		map[string]any{"read": "godot://editor/state"},
		map[string]any{"prompt": "godot_start_2d_scene", "arguments": map[string]string{"path": "res://level.tscn"}},
	)
	for _, want := range []string{"godot://docs/values", "godot://docs/runtime", "godot://editor/state"} {
		if !strings.Contains(strings.Join(got.Resources, " "), want) {
			t.Errorf("resources = %q, want %s", got.Resources, want)
		}
	}
	if strings.Join(got.Templates, " ") != "godot://class/{name} godot://tool/{name}" {
		t.Errorf("templates = %q", got.Templates)
	}
	if len(got.Prompts) != 2 {
		t.Errorf("prompts = %q", got.Prompts)
	}
	type contents struct {
		Contents []struct{ URI, Text, MimeType string } `json:"contents"`
	}
	var c contents
	values, _ := os.ReadFile("../docs/values.md")
	if json.Unmarshal(got.Steps[1].Result, &c) != nil || len(c.Contents) != 1 || strings.ReplaceAll(c.Contents[0].Text, "](godot://docs/values", "](values.md") != string(values) {
		t.Errorf("godot://docs/values = %.200s", got.Steps[1].Result)
	}
	c = contents{}
	if json.Unmarshal(got.Steps[2].Result, &c) != nil || len(c.Contents) != 1 || !strings.Contains(c.Contents[0].Text, `"class_name":"Node2D"`) {
		t.Errorf("godot://class/Node2D = %s", got.Steps[2].Result)
	}
	c = contents{}
	if json.Unmarshal(got.Steps[3].Result, &c) != nil || len(c.Contents) != 1 || !strings.Contains(c.Contents[0].Text, `"/tmp/p"`) {
		t.Errorf("godot://editor/state = %s", got.Steps[3].Result)
	}
	if !strings.Contains(string(got.Steps[4].Result), "res://level.tscn") {
		t.Errorf("prompt = %s", got.Steps[4].Result)
	}
}

// TestRefSchemasPassTypeScriptSDKValidation: a tool whose schemas use $defs
// and $ref (godot_project_set_action: the event shape in its input, the
// action state in its output) works through the TypeScript SDK v1 client:
// the call's result passes the client's check against the tools/list
// outputSchema, and the SDK's own validator accepts it against the full
// contract (godot://tool/{name}, with $defs) too, while refusing a result
// that does not fit.
func TestRefSchemasPassTypeScriptSDKValidation(t *testing.T) {
	needNPM(t)
	url := freeBridgeURL(t)
	state := map[string]any{"deadzone": 0.2, "events": []any{map[string]any{"type": "key", "keycode": "Space", "text": "Space"}}}
	dialWhenUp(t, url, func(a *fakeaddon.Addon) {
		a.HandleResult("cmd_project_set_action", map[string]any{"name": "jump", "created": true, "builtin": false, "old": nil, "new": state,
			"changed": true, "dry_run": false, "persisted": true, "undoable": true, "undo_action": "Set input action jump"})
		a.HandleResult("cmd_get_editor_state", mcpserver.EditorState{ProjectDir: "/tmp/p", OpenScenes: []mcpserver.OpenScene{}, Selection: []string{}})
	})
	env := map[string]string{"GODOT_MCP_BRIDGE_URL": url, "GODOT_MCP_PLUGIN_DIR": t.TempDir(), "GODOT_MCP_DEFAULT_TOOLSETS": "project", "GODOT_MCP_OUTPUT_SCHEMAS": "summary"}
	got := sdkClientRaw(t, env,
		map[string]any{"call": "godot_get_editor_state", "until_ok": true},
		map[string]any{"call": "godot_project_set_action", "arguments": map[string]any{"name": "jump", "events": []any{map[string]any{"type": "key", "keycode": "Space"}}}},
		map[string]any{"check_contract": "godot_project_set_action", "of": 1},
		map[string]any{"check_contract": "godot_project_set_action", "of": 1, "merge": map[string]any{"new": map[string]any{"deadzone": "far", "events": []any{}}}},
		map[string]any{"check_contract": "godot_project_set_action", "of": 1, "merge": map[string]any{"old": map[string]any{"deadzone": 0.5, "events": []any{map[string]any{"keycode": "A"}}}}},
	)
	var res callResult
	if err := json.Unmarshal(got.Steps[1].Result, &res); err != nil || res.IsError || !strings.Contains(string(res.StructuredContent), `"keycode":"Space"`) {
		t.Fatalf("set_action through the TypeScript client = %s", got.Steps[1].Result)
	}
	type verdict struct {
		Valid        bool   `json:"valid"`
		ErrorMessage string `json:"errorMessage"`
	}
	var ok, badDeadzone, badEvent verdict
	json.Unmarshal(got.Steps[2].Result, &ok)
	json.Unmarshal(got.Steps[3].Result, &badDeadzone)
	json.Unmarshal(got.Steps[4].Result, &badEvent)
	if !ok.Valid {
		t.Errorf("the result does not match the full contract with $defs: %s", ok.ErrorMessage)
	}
	if badDeadzone.Valid || badEvent.Valid {
		t.Errorf("the full contract accepted a result that does not fit (the check cannot fail): %+v %+v", badDeadzone, badEvent)
	}
	t.Logf("refused: %s; %s", badDeadzone.ErrorMessage, badEvent.ErrorMessage)
}

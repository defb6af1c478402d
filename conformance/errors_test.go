package conformance

import (
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// callResult is a tools/call result as a client receives it.
type callResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// sdkStep is one call made by tools/conformance/sdkclient.mjs.
type sdkStep struct {
	Call   string      `json:"call"`
	Result *callResult `json:"result"`
	Thrown *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"thrown"`
}

type sdkStepPlan struct {
	Call      string         `json:"call"`
	Arguments map[string]any `json:"arguments,omitempty"`
	UntilOK   bool           `json:"until_ok,omitempty"`
}

// sdkClient runs the official TypeScript SDK v1 client against the binary
// over stdio, making the calls of steps in order.
func sdkClient(t *testing.T, env map[string]string, steps ...sdkStepPlan) []sdkStep {
	t.Helper()
	plan, _ := json.Marshal(map[string]any{"command": hostBinary(t), "env": env, "steps": steps})
	out, errOut, err := run(t, 3*time.Minute, nil, "sdkclient.sh", string(plan))
	if err != nil {
		t.Fatalf("sdkclient: %v\n%s\n%s", err, out, errOut)
	}
	var got struct {
		Steps []sdkStep `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Steps) != len(steps) {
		t.Fatalf("sdkclient's answer is not the expected JSON (%v):\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	return got.Steps
}

// toolError is what an agent reads of a failed call: the JSON object in the
// result's text content. A failure carries no structuredContent (it would
// not match the tool's outputSchema, which v1 clients check).
func toolError(t *testing.T, what string, r *callResult) contract.Error {
	t.Helper()
	if r == nil {
		t.Fatalf("%s: no result", what)
	}
	if !r.IsError {
		t.Fatalf("%s: want an isError result, got %+v", what, r)
	}
	if len(r.StructuredContent) != 0 && string(r.StructuredContent) != "null" {
		t.Errorf("%s: an error result carries structuredContent %s", what, r.StructuredContent)
	}
	if len(r.Content) == 0 || r.Content[0].Type != "text" {
		t.Fatalf("%s: no text content: %+v", what, r.Content)
	}
	var e contract.Error
	if err := json.Unmarshal([]byte(r.Content[0].Text), &e); err != nil {
		t.Fatalf("%s: the text content is not the error object: %v\n%s", what, err, r.Content[0].Text)
	}
	if e.Hint == "" {
		t.Errorf("%s: the error has no hint: %s", what, r.Content[0].Text)
	}
	return e
}

func sdkResult(t *testing.T, s sdkStep) *callResult {
	t.Helper()
	if s.Thrown != nil {
		t.Fatalf("%s: the TypeScript SDK client threw instead of returning the result: %+v", s.Call, *s.Thrown)
	}
	return s.Result
}

// TestErrorsReachTypeScriptSDKClient: error results come through the
// official TypeScript SDK v1 client (which checks structured results
// against output schemas) intact, with their code, hint and required.
func TestErrorsReachTypeScriptSDKClient(t *testing.T) {
	needNPM(t)
	env := map[string]string{
		"GODOT_MCP_BRIDGE_URL":       "ws://127.0.0.1:0",
		"GODOT_MCP_PLUGIN_DIR":       t.TempDir(),
		"GODOT_MCP_DEFAULT_TOOLSETS": "scene",
		"GODOT_MCP_PROJECT_DIR":      "",
	}
	steps := sdkClient(t, env,
		sdkStepPlan{Call: "godot_get_server_info"},
		sdkStepPlan{Call: "godot_get_editor_state"},
		sdkStepPlan{Call: "godot_describe_class", Arguments: map[string]any{}},
		sdkStepPlan{Call: "godot_undo", Arguments: map[string]any{"count": "two"}},
		sdkStepPlan{Call: "godot_scene_close", Arguments: map[string]any{}},
	)
	if r := sdkResult(t, steps[0]); r.IsError || len(r.StructuredContent) == 0 {
		t.Errorf("godot_get_server_info: %+v", r)
	}

	e := toolError(t, "godot_get_editor_state without an editor", sdkResult(t, steps[1]))
	if e.Code != contract.BridgeDisconnected || e.Required != contract.RequireBridgeConnected || !strings.Contains(e.Hint, "godot-mcp addon install") {
		t.Errorf("godot_get_editor_state without an editor: %+v", e)
	}
	e = toolError(t, "godot_describe_class without class_name", sdkResult(t, steps[2]))
	if e.Code != contract.ValidationError || !strings.Contains(e.Hint, "class_name") {
		t.Errorf("godot_describe_class without class_name: %+v", e)
	}
	e = toolError(t, "godot_undo with a string count", sdkResult(t, steps[3]))
	if e.Code != contract.ValidationError || !strings.Contains(e.Hint, "count") {
		t.Errorf("godot_undo with a string count: %+v", e)
	}
	e = toolError(t, "godot_scene_close without confirm", sdkResult(t, steps[4]))
	if e.Code != contract.PreconditionFailed || e.Required != contract.RequireConfirm || !strings.Contains(e.Hint, "confirm: true") {
		t.Errorf("godot_scene_close without confirm: %+v", e)
	}
}

// freeBridgeURL is a loopback WebSocket URL on a port free a moment ago.
func freeBridgeURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return "ws://127.0.0.1:" + strconv.Itoa(port)
}

// TestEditorErrorsReachTypeScriptSDKClient: with an editor (the fake addon)
// connected, an editor-side precondition and an editor's own error reach the
// TypeScript SDK client with their code, hint and required.
func TestEditorErrorsReachTypeScriptSDKClient(t *testing.T) {
	needNPM(t)
	url := freeBridgeURL(t)
	dialWhenUp(t, url, func(a *fakeaddon.Addon) {
		// The scene command checks its own preconditions (no extra round trip).
		a.HandleError("cmd_scene_save", contract.Precondition(contract.RequireActiveScene, "No scene is open in the editor: open one with godot_scene_open."))
		a.HandleError("cmd_describe_class", contract.Errorf(contract.ResourceNotFound, "No class NoSuchNode; did you mean Node?"))
		// Registered last: once the client gets the editor state, every handler is in place.
		a.HandleResult("cmd_get_editor_state", mcpserver.EditorState{ProjectDir: "/tmp/p", OpenScenes: []mcpserver.OpenScene{}, Selection: []string{}})
	})
	env := map[string]string{
		"GODOT_MCP_BRIDGE_URL":       url,
		"GODOT_MCP_PLUGIN_DIR":       t.TempDir(),
		"GODOT_MCP_DEFAULT_TOOLSETS": "scene",
	}
	steps := sdkClient(t, env,
		sdkStepPlan{Call: "godot_get_editor_state", UntilOK: true},
		sdkStepPlan{Call: "godot_scene_save", Arguments: map[string]any{}},
		sdkStepPlan{Call: "godot_describe_class", Arguments: map[string]any{"class_name": "NoSuchNode"}},
	)
	if r := sdkResult(t, steps[0]); r.IsError {
		t.Fatalf("the fake editor never connected: %+v", r)
	}
	e := toolError(t, "godot_scene_save without an open scene", sdkResult(t, steps[1]))
	if e.Code != contract.PreconditionFailed || e.Required != contract.RequireActiveScene || !strings.Contains(e.Hint, "godot_scene_open") {
		t.Errorf("godot_scene_save without an open scene: %+v", e)
	}
	e = toolError(t, "godot_describe_class of an unknown class", sdkResult(t, steps[2]))
	if e.Code != contract.ResourceNotFound || !strings.Contains(e.Hint, "did you mean Node") {
		t.Errorf("godot_describe_class of an unknown class: %+v", e)
	}
}

// TestErrorsReachInspectorCLI: the MCP Inspector's CLI prints error results
// intact (it is built on the TypeScript SDK client too).
func TestErrorsReachInspectorCLI(t *testing.T) {
	needNPM(t)
	plugins := t.TempDir()
	var r callResult
	inspector(t, plugins, &r, "--method", "tools/call", "--tool-name", "godot_get_editor_state")
	e := toolError(t, "inspector: godot_get_editor_state without an editor", &r)
	if e.Code != contract.BridgeDisconnected || e.Required != contract.RequireBridgeConnected {
		t.Errorf("inspector: godot_get_editor_state without an editor: %+v", e)
	}

	r = callResult{}
	inspector(t, plugins, &r, "--method", "tools/call", "--tool-name", "godot_undo", "--tool-arg", "count=two")
	e = toolError(t, "inspector: godot_undo count=two", &r)
	if e.Code != contract.ValidationError || !strings.Contains(e.Hint, "count") {
		t.Errorf("inspector: godot_undo count=two: %+v", e)
	}

	r = callResult{}
	inspectorEnv(t, plugins, []string{"GODOT_MCP_DEFAULT_TOOLSETS=scene"}, &r, "--method", "tools/call", "--tool-name", "godot_scene_close")
	e = toolError(t, "inspector: godot_scene_close without confirm", &r)
	if e.Code != contract.PreconditionFailed || e.Required != contract.RequireConfirm {
		t.Errorf("inspector: godot_scene_close without confirm: %+v", e)
	}
}

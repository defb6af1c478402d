package conformance

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// TestEveryToolSchemaCompilesInTypeScriptSDK: with every built-in toolset
// enabled and an editor (the fake addon) connected, the official TypeScript
// SDK v1 client lists the tools without refusing the list (it compiles every
// outputSchema with ajv while listing; one it cannot compile makes
// listTools throw, and the client then has no tools at all), and the SDK's
// own validator compiles every tool's inputSchema and outputSchema as
// tools/list serves them and both schemas of its full contract
// (godot://tool/{name}). Each failing tool is reported by name.
func TestEveryToolSchemaCompilesInTypeScriptSDK(t *testing.T) {
	needNPM(t)
	url := freeBridgeURL(t)
	dialWhenUp(t, url, func(a *fakeaddon.Addon) {
		a.HandleResult("cmd_get_editor_state", mcpserver.EditorState{ProjectDir: a.ProjectDir(), OpenScenes: []mcpserver.OpenScene{}, Selection: []string{}})
	})
	env := map[string]string{
		"GODOT_MCP_BRIDGE_URL":       url,
		"GODOT_MCP_PLUGIN_DIR":       t.TempDir(),
		"GODOT_MCP_DEFAULT_TOOLSETS": "all",
		"GODOT_MCP_OUTPUT_SCHEMAS":   "summary", // the opt-in list form, compiled by the SDK too
	}
	// A schema the SDK cannot compile (a Go-only regular expression) is
	// compiled alongside, so the check is seen to catch one.
	got := sdkClientRaw(t, env, map[string]any{"compile_schemas": true,
		"also": map[string]any{"known_bad": map[string]any{"type": "string", "pattern": "(?i)^res://"}}})
	if got.ListError != "" {
		t.Errorf("the TypeScript SDK client refused tools/list (an agent on it gets no tools): %s", got.ListError)
	}

	// Every built-in toolset's tools are in the list the client compiled.
	listed := map[string]bool{}
	for _, n := range got.Tools {
		listed[n] = true
	}
	var missing []string
	builtin := 0
	for _, ts := range plugins.Builtins() {
		for _, tl := range ts.Tools {
			builtin++
			if name := "godot_" + ts.Name + "_" + tl.Name(); !listed[name] {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("tools/list lacks %d built-in tools (not every toolset enabled?): %s", len(missing), strings.Join(missing, ", "))
	}

	var res struct {
		Tools    int `json:"tools"`
		Failures []struct {
			Tool, Schema, Message string
		} `json:"failures"`
	}
	if err := json.Unmarshal(got.Steps[0].Result, &res); err != nil {
		t.Fatalf("compile_schemas answered %s: %v", got.Steps[0].Result, err)
	}
	if res.Tools != len(got.Tools) || res.Tools <= builtin {
		t.Errorf("compiled the schemas of %d tools, listed %d", res.Tools, len(got.Tools))
	}
	byTool := map[string][]string{}
	for _, f := range res.Failures {
		if f.Tool == "known_bad" {
			continue
		}
		byTool[f.Tool] = append(byTool[f.Tool], f.Schema+": "+f.Message)
	}
	if fs := res.Failures; len(fs) == 0 || fs[len(fs)-1].Tool != "known_bad" {
		t.Errorf("the known-bad schema compiled: the check cannot fail (failures %+v)", fs)
	}
	names := make([]string, 0, len(byTool))
	for n := range byTool {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Errorf("%s: the TypeScript SDK cannot compile its schema:\n\t%s", n, strings.Join(byTool[n], "\n\t"))
	}
	t.Logf("%d tools: inputSchema, outputSchema and the full contract's schemas compiled by the SDK's ajv", res.Tools)
}

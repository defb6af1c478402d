package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// No toolset can take a name that is not its own: a third-party toolset
// "get" with a tool server_info does not replace godot_get_server_info,
// "scene_delete" + node cannot become godot_scene_delete_node, and of two
// third-party toolsets whose names compose alike ("probe" + x_env and
// "probe_x" + env) the first enabled keeps the name. Disabling a refused
// toolset removes nothing.
func TestBinaryToolNamesCannotBeHijacked(t *testing.T) {
	dir := t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "get", "scene_delete", "probe", "probe_x"); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	p.Initialize()

	var list struct {
		Toolsets []struct {
			Name      string `json:"name"`
			LastError string `json:"last_error"`
		} `json:"toolsets"`
	}
	json.Unmarshal(call(p, "godot_list_toolsets", nil).StructuredContent, &list)
	listed := map[string]string{}
	for _, ts := range list.Toolsets {
		listed[ts.Name] = ts.LastError
	}
	if !strings.Contains(listed["get"], "godot_get_server_info") || !strings.Contains(listed["scene_delete"], "built-in") {
		t.Errorf("the listing does not say why get and scene_delete cannot be enabled: %+v", listed)
	}
	if listed["probe"] != "" || listed["probe_x"] != "" {
		t.Errorf("probe and probe_x are fine on their own: %+v", listed)
	}

	for _, name := range []string{"get", "scene_delete"} {
		r := call(p, "godot_enable_toolset", map[string]any{"name": name})
		if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "cannot be enabled") {
			t.Errorf("enable %s: %s", name, r.StructuredContent)
		}
	}
	r := call(p, "godot_get_server_info", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), `"contract_version"`) {
		t.Fatalf("godot_get_server_info is no longer the core's: %s", r.StructuredContent)
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"}); r.IsError {
		t.Fatalf("enable scene: %s", r.StructuredContent)
	}
	if r := call(p, "godot_scene_delete_node", map[string]any{"node": "Player"}); errorOf(r).Required != contract.RequireConfirm {
		t.Fatalf("godot_scene_delete_node is not the built-in's (no confirm asked): %s", r.StructuredContent)
	}

	if r := call(p, "godot_enable_toolset", map[string]any{"name": "probe"}); r.IsError {
		t.Fatalf("enable probe: %s", r.StructuredContent)
	}
	r = call(p, "godot_enable_toolset", map[string]any{"name": "probe_x"})
	if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "godot_probe_x_env") {
		t.Fatalf("enable probe_x: %s", r.StructuredContent)
	}
	r = call(p, "godot_probe_x_env", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), `"x_env"`) {
		t.Fatalf("godot_probe_x_env is no longer probe's x_env: %s", r.StructuredContent)
	}
	// Disabling the refused toolsets removes nobody's tools.
	for _, name := range []string{"get", "probe_x"} {
		call(p, "godot_disable_toolset", map[string]any{"name": name})
	}
	names := p.ToolNames()
	for _, want := range []string{"godot_get_server_info", "godot_probe_x_env", "godot_scene_delete_node"} {
		if !names[want] {
			t.Errorf("%s is gone after disabling the refused toolsets", want)
		}
	}
	p.AssertOnlyJSONRPC()
}

// #24.5, #24.10: the names "core" and "all" and the core's URI space
// (godot://tool/, class/, docs/, editor/) cannot be taken. A third-party
// toolset named core or all is not served (the plugin directory listing
// says why); a toolset whose fixed URI or template falls in the core's
// space, or overlaps another toolset's, is refused; the core's resources
// still answer, also after disabling the refused toolsets.
func TestBinaryResourcesCannotBeHijacked(t *testing.T) {
	dir := t.TempDir()
	names := []string{"core", "all", "hijack_tool", "hijack_class", "hijack_docs", "hijack_any", "overlap_tpl", "overlap_fixed", "overlap_wide"}
	if err := hosttest.BuildProbeToolset(dir, names...); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	p.Initialize()

	var list struct {
		Toolsets []struct {
			Name string `json:"name"`
		} `json:"toolsets"`
		PluginDir struct {
			Skipped []struct{ File, Reason string } `json:"skipped"`
		} `json:"plugin_dir"`
	}
	r := call(p, "godot_get_server_info", nil)
	json.Unmarshal(r.StructuredContent, &list)
	for _, ts := range list.Toolsets {
		if ts.Name == "core" || ts.Name == "all" {
			t.Errorf("a third-party toolset named %q is listed", ts.Name)
		}
	}
	skipped := map[string]string{}
	for _, s := range list.PluginDir.Skipped {
		skipped[s.File] = s.Reason
	}
	if !strings.Contains(skipped["core"], "reserved") || !strings.Contains(skipped["all"], "reserved") {
		t.Errorf("godot_get_server_info's plugin_dir does not say core and all are reserved: %s", r.StructuredContent)
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"names": []string{"core", "hijack_tool"}}); !r.IsError {
		t.Errorf("enable core: %s", r.StructuredContent)
	}

	for _, name := range []string{"hijack_tool", "hijack_class", "hijack_docs", "hijack_any"} {
		r := call(p, "godot_enable_toolset", map[string]any{"name": name})
		if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "reserved for the server's own resources") {
			t.Errorf("enable %s: %s", name, r.StructuredContent)
		}
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "overlap_tpl"}); r.IsError {
		t.Fatalf("enable overlap_tpl: %s", r.StructuredContent)
	}
	for _, name := range []string{"overlap_fixed", "overlap_wide"} {
		r := call(p, "godot_enable_toolset", map[string]any{"name": name})
		if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "probe://item/{id}") || !strings.Contains(e.Hint, "overlap_tpl") {
			t.Errorf("enable %s: %s", name, r.StructuredContent)
		}
		call(p, "godot_disable_toolset", map[string]any{"name": name})
	}
	for _, name := range []string{"hijack_tool", "hijack_class", "hijack_docs", "hijack_any"} {
		call(p, "godot_disable_toolset", map[string]any{"name": name})
	}

	read := func(uri string) string {
		res, rpcErr, _ := p.Try("resources/read", map[string]any{"uri": uri})
		return string(res) + string(rpcErr)
	}
	if got := read("godot://tool/godot_scene_delete_node"); strings.Contains(got, "served by the probe") {
		t.Errorf("godot://tool/… answered by a toolset: %s", got)
	}
	if got := read("godot://tool/godot_get_server_info"); !strings.Contains(got, "contract") && !strings.Contains(got, "godot_get_server_info") {
		t.Errorf("the core's tool contract is gone: %s", got)
	}
	if got := read("godot://docs/values"); strings.Contains(got, "served by the probe") || !strings.Contains(got, "Vector2") {
		t.Errorf("godot://docs/values is not the core's: %.300s", got)
	}
	if got := read("godot://class/Node2D"); strings.Contains(got, "served by the probe") {
		t.Errorf("godot://class/… answered by a toolset: %s", got)
	}
	if got := read("probe://item/1"); !strings.Contains(got, "served by the probe") {
		t.Errorf("overlap_tpl's template does not answer: %s", got)
	}
}

// #24.10: enabling several toolsets (or all) of which one is refused
// enables nothing and installs no editor code: the editor is not asked to
// load (then unload) the others' code, and the project is left as it was.
func TestBinaryRefusedSetInstallsNoEditorCode(t *testing.T) {
	dir := t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "hijack_tool"); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	p.Initialize()
	a := dialEditor(t, p.BridgeURL(), "")
	r := call(p, "godot_enable_toolset", map[string]any{"names": []string{"scene", "hijack_tool"}})
	if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "hijack_tool") {
		t.Fatalf("enable: %s", r.StructuredContent)
	}
	for _, c := range a.Received() {
		if strings.HasPrefix(c.Command, "cmd_ext_") {
			t.Errorf("the editor was sent %s %s for a set that was refused", c.Command, c.Params)
		}
	}
	if _, err := os.Stat(filepath.Join(a.ProjectDir(), "addons", "godot_mcp_ext")); err == nil {
		t.Error("editor code was written into the project for a set that was refused")
	}
	if names := p.ToolNames(); names["godot_scene_get_tree"] || names["godot_hijack_tool_env"] {
		t.Error("tools of the refused set are served")
	}
	// Alone, scene is enabled and its code installed.
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"}); r.IsError {
		t.Fatalf("enable scene: %s", r.StructuredContent)
	}
	if _, err := os.Stat(filepath.Join(a.ProjectDir(), "addons", "godot_mcp_ext", "scene")); err != nil {
		t.Fatal(err)
	}
}

// #25.6: a third-party executable named like a built-in toolset is not
// served (the built-in is), and godot_get_server_info's plugin_dir lists
// it as skipped, saying why.
func TestBinaryThirdPartyNamedLikeABuiltinIsListedAsSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "scene"); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	p.Initialize()
	var info struct {
		PluginDir struct {
			Skipped []struct{ File, Reason string } `json:"skipped"`
		} `json:"plugin_dir"`
	}
	r := call(p, "godot_get_server_info", nil)
	json.Unmarshal(r.StructuredContent, &info)
	if len(info.PluginDir.Skipped) != 1 || info.PluginDir.Skipped[0].File != "scene" || !strings.Contains(info.PluginDir.Skipped[0].Reason, "built-in toolset scene") {
		t.Fatalf("plugin_dir: %s", r.StructuredContent)
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"}); r.IsError {
		t.Fatalf("the built-in scene toolset: %s", r.StructuredContent)
	}
	if !p.ToolNames()["godot_scene_get_tree"] {
		t.Fatal("the built-in scene toolset's tools are not served")
	}
}

package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

func readResource(t *testing.T, c *client.Client, uri string) (string, string, error) {
	t.Helper()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.ReadResource(context.Background(), req)
	if err != nil {
		return "", "", err
	}
	if len(res.Contents) != 1 {
		t.Fatalf("%s: %d contents", uri, len(res.Contents))
	}
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok || tc.URI != uri {
		t.Fatalf("%s: contents = %#v", uri, res.Contents[0])
	}
	return tc.Text, tc.MIMEType, nil
}

// The guides an agent reads are the repository's docs pages themselves.
func TestCoreServesTheGuidesAsResources(t *testing.T) {
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}}))
	list, err := c.ListResources(context.Background(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]mcp.Resource{}
	for _, r := range list.Resources {
		listed[r.URI] = r
	}
	for _, page := range []string{"values", "scene", "scripts", "resources", "project", "runtime", "tilemap", "security"} {
		uri := "godot://docs/" + page
		r, ok := listed[uri]
		if !ok || r.Description == "" || r.MIMEType != "text/markdown" {
			t.Errorf("%s not listed with a description: %+v", uri, r)
			continue
		}
		text, mime, err := readResource(t, c, uri)
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "docs", page+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if text != servedGuide(string(want)) || mime != "text/markdown" || strings.Contains(text, ".md)") {
			t.Errorf("%s is not docs/%s.md with its links to resources (%d bytes, want %d)", uri, page, len(text), len(want))
		}
	}
	if _, ok := listed[EditorStateURI]; !ok {
		t.Errorf("%s not listed", EditorStateURI)
	}
	if _, _, err := readResource(t, c, "godot://docs/nope"); err == nil {
		t.Errorf("an unknown guide was read")
	}
}

func TestEditorStateAndClassResourcesAskTheEditor(t *testing.T) {
	b := &stubBridge{}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))

	// No editor: a clear BRIDGE_DISCONNECTED with the hint, and nothing sent.
	for _, uri := range []string{EditorStateURI, "godot://class/Node2D"} {
		_, _, err := readResource(t, c, uri)
		if err == nil || !strings.Contains(err.Error(), "BRIDGE_DISCONNECTED: No Godot editor is connected") || !strings.Contains(err.Error(), "required: bridge_connected") {
			t.Errorf("%s without an editor: %v", uri, err)
		}
	}
	if n := len(b.commands()); n != 0 {
		t.Errorf("%d commands sent without an editor", n)
	}

	b.mu.Lock()
	b.connected = true
	b.answers = map[string]envelope.Response{
		"cmd_get_editor_state": {ID: "1", OK: true, Result: json.RawMessage(`{"project_name":"Demo","playing":false}`)},
		"cmd_describe_class":   {ID: "2", OK: true, Result: json.RawMessage(`{"class_name":"Node2D","inherits":["CanvasItem","Node","Object"]}`)},
	}
	b.mu.Unlock()
	text, mime, err := readResource(t, c, EditorStateURI)
	if err != nil || text != `{"project_name":"Demo","playing":false}` || mime != "application/json" {
		t.Errorf("editor state = %q %q %v", text, mime, err)
	}
	text, _, err = readResource(t, c, "godot://class/Node2D")
	if err != nil || !strings.Contains(text, `"class_name":"Node2D"`) {
		t.Errorf("class = %q %v", text, err)
	}
	cmds := b.commands()
	if last := cmds[len(cmds)-1]; last.Command != "cmd_describe_class" || string(last.Params) != `{"class_name":"Node2D"}` {
		t.Errorf("sent %s %s", last.Command, last.Params)
	}

	// The editor's own failure (an unknown class) reaches the client as its code and hint.
	b.mu.Lock()
	b.answers["cmd_describe_class"] = envelope.Failure("3", contract.Errorf(contract.ResourceNotFound, "Unknown class Nod2D; did you mean Node2D?"))
	b.mu.Unlock()
	if _, _, err := readResource(t, c, "godot://class/Nod2D"); err == nil || !strings.Contains(err.Error(), "RESOURCE_NOT_FOUND: Unknown class Nod2D; did you mean Node2D?") {
		t.Errorf("unknown class: %v", err)
	}
}

func TestCorePromptsRender(t *testing.T) {
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}}))
	ctx := context.Background()
	list, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range list.Prompts {
		names[p.Name] = p.Description != ""
	}
	if !names["godot_start_2d_scene"] || !names["godot_debug_crash"] {
		t.Fatalf("prompts = %+v", list.Prompts)
	}
	get := func(name string, args map[string]string) (string, error) {
		req := mcp.GetPromptRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		res, err := c.GetPrompt(ctx, req)
		if err != nil {
			return "", err
		}
		if len(res.Messages) != 1 || res.Messages[0].Role != mcp.RoleUser {
			t.Fatalf("%s: messages = %+v", name, res.Messages)
		}
		return res.Messages[0].Content.(mcp.TextContent).Text, nil
	}
	text, err := get("godot_start_2d_scene", map[string]string{"path": "res://levels/one.tscn"})
	if err != nil || !strings.Contains(text, `godot_scene_create with {"path": "res://levels/one.tscn", "root_type": "Node2D"}`) || !strings.Contains(text, ValuesURI) {
		t.Errorf("2D scene prompt = %q, %v", text, err)
	}
	if _, err := get("godot_start_2d_scene", map[string]string{"path": "/tmp/x"}); err == nil || !strings.Contains(err.Error(), "VALIDATION_ERROR") {
		t.Errorf("bad path: %v", err)
	}
	text, err = get("godot_debug_crash", map[string]string{"scene": "res://main.tscn", "symptom": "null instance on jump"})
	if err != nil || !strings.Contains(text, `godot_runtime_play with {"scene":"res://main.tscn"}`) || !strings.Contains(text, "null instance on jump") ||
		!strings.Contains(text, "godot_runtime_get_errors") {
		t.Errorf("debug prompt = %q, %v", text, err)
	}
}

// Every tool a prompt names exists in the built-in surface, so a prompt
// never sends the agent to a tool that is not there.
func TestPromptsNameRealTools(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "tool-contracts.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{start2DScene, debugCrash} {
		for _, word := range strings.FieldsFunc(text, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			if strings.HasPrefix(word, "godot_") && !strings.Contains(string(raw), "### "+word+"\n") {
				t.Errorf("a prompt names %s, which is no tool", word)
			}
		}
	}
}

// tools/list serves no output schema (a summary with
// GODOT_MCP_OUTPUT_SCHEMAS=summary); godot://tool/{name} has the full
// contract with every result field described.
func TestToolContractResource(t *testing.T) {
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}}))
	text, mime, err := readResource(t, c, "godot://tool/godot_get_server_info")
	if err != nil || mime != "application/json" {
		t.Fatalf("read: %v", err)
	}
	var def ToolDef
	if err := json.Unmarshal([]byte(text), &def); err != nil || def.Name != "godot_get_server_info" || def.Safety != "read_only" {
		t.Fatalf("contract = %s (%v)", text, err)
	}
	// The nested peer and its described fields are in the contract only.
	if !strings.Contains(string(def.OutputSchema), "negotiated with this client") || !strings.Contains(string(def.OutputSchema), "godot_version") {
		t.Errorf("the contract's output schema is not the full one: %s", def.OutputSchema)
	}
	tools := toolNames(t, c)
	listed, _ := json.Marshal(tools["godot_get_server_info"])
	var wireTool struct {
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	json.Unmarshal(listed, &wireTool)
	if len(wireTool.OutputSchema) != 0 {
		t.Errorf("tools/list serves an output schema by default: %s", wireTool.OutputSchema)
	}
	cfg := testConfig()
	cfg.OutputSchemaSummary = true
	listed, _ = json.Marshal(toolNames(t, newClient(t, New(Options{Config: cfg, Bridge: &stubBridge{}})))["godot_get_server_info"])
	json.Unmarshal(listed, &wireTool)
	wire := wireTool.OutputSchema
	if strings.Contains(string(wire), "description") || strings.Contains(string(wire), "godot_version") || !strings.Contains(string(wire), `"bridge":{"type":"object"}`) {
		t.Errorf("tools/list output schema is not the summary: %s", wire)
	}
	if _, _, err := readResource(t, c, "godot://tool/godot_scene_get_tree"); err == nil || !strings.Contains(err.Error(), "RESOURCE_NOT_FOUND") || !strings.Contains(err.Error(), "godot_enable_toolset") {
		t.Errorf("a tool that is not served: %v", err)
	}
}

func TestServedGuideLinksToResources(t *testing.T) {
	in := "See [values](values.md#enums-and-flags), [scene](scene.md) and the [schemas](tool-contracts.md); [here](#local) stays."
	want := "See [values](godot://docs/values#enums-and-flags), [scene](godot://docs/scene) and the [schemas](godot://tool/{name}); [here](#local) stays."
	if got := servedGuide(in); got != want {
		t.Errorf("servedGuide =\n%s\nwant\n%s", got, want)
	}
}

package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// contentToolsets serves toolsets "docs" (a resource, a template and a
// prompt) and "clash" (the same resource URI as docs).
type contentToolsets struct {
	mu      sync.Mutex
	enabled map[string]bool
}

func (f *contentToolsets) List(context.Context) []ToolsetStatus {
	return []ToolsetStatus{{Name: "clash", State: "stopped"}, {Name: "docs", State: "stopped"}}
}

func (f *contentToolsets) Enabled() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for n, on := range f.enabled {
		if on {
			out = append(out, n)
		}
	}
	return out
}

func readme(_ context.Context, uri string, _ map[string]string) ([]ResourceContents, *contract.Error) {
	return []ResourceContents{{MimeType: "text/plain", Text: "read " + uri}}, nil
}

func (f *contentToolsets) Enable(_ context.Context, name, _ string) (EnableOutcome, *contract.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.enabled[name] = true
	tool := Tool{Def: ToolDef{Name: "godot_" + name + "_noop", Toolset: name, InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Description: "Nothing.", Safety: contract.ReadOnly}}, Exec: func(context.Context, Call) Result {
		return Result{Structured: json.RawMessage(`{}`), Content: []Content{
			{Type: "audio", Data: []byte("RIFF"), MimeType: "audio/wav"},
			{Type: "resource", URI: "docs://inline", MimeType: "application/json", Text: `{"a":1}`},
		}}
	}}
	if name == "clash" {
		return EnableOutcome{Tools: []Tool{tool}, Resources: []Resource{{URI: "docs://readme", Name: "readme", Toolset: name, Read: readme}}}, nil
	}
	return EnableOutcome{
		Tools: []Tool{tool},
		Resources: []Resource{
			{URI: "docs://readme", Name: "readme", Title: "Read me", Description: "The readme.", MimeType: "text/plain", Toolset: name, Read: readme},
			{URI: "docs://missing", Name: "missing", Toolset: name, Read: func(context.Context, string, map[string]string) ([]ResourceContents, *contract.Error) {
				return nil, contract.Errorf(contract.ResourceNotFound, "No such page.")
			}},
			{URI: "docs://page/{id}", Name: "page", Template: true, Toolset: name, Read: func(_ context.Context, uri string, params map[string]string) ([]ResourceContents, *contract.Error) {
				return []ResourceContents{{URI: uri, MimeType: "image/png", Blob: []byte("page " + params["id"]), Binary: true}}, nil
			}},
		},
		Prompts: []Prompt{{Name: "godot_docs_review", Description: "Review a page.", Toolset: name,
			Arguments: []PromptArgument{{Name: "page", Description: "which", Required: true}},
			Get: func(_ context.Context, args map[string]string) PromptResult {
				return PromptResult{Description: "review", Messages: []PromptMessage{
					{Role: "user", Content: Content{Type: "text", Text: "Review " + args["page"]}},
					{Role: "assistant", Content: Content{Type: "image", Data: []byte{1}, MimeType: "image/png"}},
				}}
			}}},
	}, nil
}

func (f *contentToolsets) Disable(_ context.Context, name string) (DisableOutcome, *contract.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.enabled[name] {
		return DisableOutcome{AlreadyDisabled: true}, nil
	}
	f.enabled[name] = false
	if name == "clash" {
		return DisableOutcome{RemovedTools: []string{"godot_clash_noop"}, RemovedResources: []string{"docs://readme"}}, nil
	}
	return DisableOutcome{RemovedTools: []string{"godot_docs_noop"}, RemovedResources: []string{"docs://readme", "docs://missing", "docs://page/{id}"},
		RemovedPrompts: []string{"godot_docs_review"}}, nil
}

func TestToolsetResourcesAndPrompts(t *testing.T) {
	ts := &contentToolsets{enabled: map[string]bool{}}
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts})
	c := newClient(t, s)
	ctx := context.Background()

	// The core's own resources, template and prompts are always there
	// (guidance_test.go); the toolset's come and go beside them.
	coreFixed, coreTemplates, corePrompts := len(guides)+1+len(skillResources()), 2, 2
	if res, err := c.ListResources(ctx, mcp.ListResourcesRequest{}); err != nil || len(res.Resources) != coreFixed {
		t.Fatalf("before enabling: %+v, %v", res, err)
	}
	call(t, c, "godot_enable_toolset", map[string]any{"name": "docs"})

	res, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil || len(res.Resources) != coreFixed+2 {
		t.Fatalf("resources = %+v, %v", res, err)
	}
	for _, r := range res.Resources {
		if r.URI == "docs://readme" && (r.Title != "Read me" || r.Description != "The readme." || r.MIMEType != "text/plain") {
			t.Errorf("readme = %+v", r)
		}
	}
	tpl, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil || len(tpl.ResourceTemplates) != coreTemplates+1 || !hasTemplate(tpl.ResourceTemplates, "docs://page/{id}") {
		t.Fatalf("templates = %+v, %v", tpl, err)
	}

	read := func(uri string) (*mcp.ReadResourceResult, error) {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		return c.ReadResource(ctx, req)
	}
	got, err := read("docs://readme")
	if err != nil || len(got.Contents) != 1 {
		t.Fatalf("read readme: %+v, %v", got, err)
	}
	if tc, ok := got.Contents[0].(mcp.TextResourceContents); !ok || tc.URI != "docs://readme" || tc.Text != "read docs://readme" || tc.MIMEType != "text/plain" {
		t.Errorf("readme contents = %#v", got.Contents[0])
	}
	got, err = read("docs://page/42")
	if err != nil || len(got.Contents) != 1 {
		t.Fatalf("read template: %+v, %v", got, err)
	}
	if bc, ok := got.Contents[0].(mcp.BlobResourceContents); !ok || bc.URI != "docs://page/42" || bc.Blob != encodeBase64([]byte("page 42")) {
		t.Errorf("page contents = %#v", got.Contents[0])
	}
	if _, err := read("docs://missing"); err == nil || !strings.Contains(err.Error(), "RESOURCE_NOT_FOUND: No such page.") {
		t.Errorf("missing page: %v", err)
	}

	prompts, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil || len(prompts.Prompts) != corePrompts+1 {
		t.Fatalf("prompts = %+v, %v", prompts, err)
	}
	for _, p := range prompts.Prompts {
		if p.Name == "godot_docs_review" && !p.Arguments[0].Required {
			t.Errorf("prompt = %+v", p)
		}
	}
	preq := mcp.GetPromptRequest{}
	preq.Params.Name = "godot_docs_review"
	preq.Params.Arguments = map[string]string{"page": "intro"}
	pr, err := c.GetPrompt(ctx, preq)
	if err != nil || pr.Description != "review" || len(pr.Messages) != 2 {
		t.Fatalf("prompt = %+v, %v", pr, err)
	}
	if tc, ok := pr.Messages[0].Content.(mcp.TextContent); !ok || tc.Text != "Review intro" || pr.Messages[0].Role != mcp.RoleUser {
		t.Errorf("message 0 = %#v", pr.Messages[0])
	}
	if ic, ok := pr.Messages[1].Content.(mcp.ImageContent); !ok || ic.MIMEType != "image/png" || pr.Messages[1].Role != mcp.RoleAssistant {
		t.Errorf("message 1 = %#v", pr.Messages[1])
	}

	// Audio and embedded resources reach the client as content items.
	noop := call(t, c, "godot_docs_noop", nil)
	if len(noop.Content) != 3 {
		t.Fatalf("content = %#v", noop.Content)
	}
	if ac, ok := noop.Content[1].(mcp.AudioContent); !ok || ac.MIMEType != "audio/wav" || ac.Data != encodeBase64([]byte("RIFF")) {
		t.Errorf("audio = %#v", noop.Content[1])
	}
	if er, ok := noop.Content[2].(mcp.EmbeddedResource); !ok {
		t.Errorf("embedded = %#v", noop.Content[2])
	} else if tr, ok := er.Resource.(mcp.TextResourceContents); !ok || tr.URI != "docs://inline" || tr.Text != `{"a":1}` {
		t.Errorf("embedded resource = %#v", er.Resource)
	}

	// A second toolset cannot take a served URI; its tools are not left behind.
	clash := call(t, c, "godot_enable_toolset", map[string]any{"name": "clash"})
	if e := wantError(t, clash, contract.ValidationError, ""); !strings.Contains(e.Hint, "docs://readme is already served by toolset \"docs\"") {
		t.Errorf("clash = %#v", clash.Content)
	}
	ts.mu.Lock()
	clashEnabled := ts.enabled["clash"]
	ts.mu.Unlock()
	if _, ok := toolNames(t, c)["godot_clash_noop"]; ok || clashEnabled {
		t.Errorf("the clashing toolset was left enabled")
	}

	call(t, c, "godot_disable_toolset", map[string]any{"name": "docs"})
	if res, err := c.ListResources(ctx, mcp.ListResourcesRequest{}); err != nil || len(res.Resources) != coreFixed {
		t.Errorf("after disabling: %+v, %v", res, err)
	}
	if tpl, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{}); err != nil || len(tpl.ResourceTemplates) != coreTemplates || !hasTemplate(tpl.ResourceTemplates, ClassURITemplate) {
		t.Errorf("templates after disabling: %+v, %v", tpl, err)
	}
	if prompts, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{}); err != nil || len(prompts.Prompts) != corePrompts {
		t.Errorf("prompts after disabling: %+v, %v", prompts, err)
	}
	// Now the URI is free.
	if res := call(t, c, "godot_enable_toolset", map[string]any{"name": "clash"}); res.IsError {
		t.Errorf("enable clash after docs is gone: %#v", res.Content)
	}
}

func TestCallLogRecordsReachTheCallingClient(t *testing.T) {
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	var ids []string
	if err := s.AddTools(Tool{
		Def: ToolDef{Name: "godot_logs_talk", Toolset: "logs", InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Description: "Logs.", Safety: contract.ReadOnly}},
		Exec: func(_ context.Context, c Call) Result {
			ids = append(ids, c.CallID)
			s.LogCall(c.CallID, slog.LevelInfo, "just so", nil)
			s.LogCall(c.CallID, slog.LevelWarn, "careful", []slog.Attr{slog.Int("n", 3)})
			s.Progress(c.CallID, 1, 1, "no progress token: dropped")
			return OK(map[string]any{})
		},
	}); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, s)
	var mu sync.Mutex
	var got []mcp.JSONRPCNotification
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		mu.Lock()
		got = append(got, n)
		mu.Unlock()
	})
	req := mcp.SetLevelRequest{}
	req.Params.Level = mcp.LoggingLevelWarning
	//lint:ignore SA1019 the test covers clients of protocols before 2026-07-28, where logging is current
	if err := c.SetLevel(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	call(t, c, "godot_logs_talk", nil)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	var logs []string
	for _, n := range got {
		if n.Method == "notifications/progress" {
			t.Errorf("progress without a token: %+v", n)
		}
		if n.Method == "notifications/message" {
			raw, _ := json.Marshal(n.Params.AdditionalFields)
			logs = append(logs, string(raw))
		}
	}
	if len(logs) != 1 || !strings.Contains(logs[0], `"level":"warning"`) || !strings.Contains(logs[0], `"message":"careful"`) || !strings.Contains(logs[0], `"n":"3"`) {
		t.Errorf("log notifications = %q, want only the warning", logs)
	}
	if len(ids) != 1 || ids[0] == "" {
		t.Errorf("call ids = %q", ids)
	}
	s.LogCall(ids[0], slog.LevelError, "after the call: ignored", nil) // must not panic or send
}

func hasTemplate(list []mcp.ResourceTemplate, raw string) bool {
	for _, t := range list {
		if t.URITemplate.Raw() == raw {
			return true
		}
	}
	return false
}

func TestResourceOverlapAndReservedSpace(t *testing.T) {
	for _, tc := range []struct {
		a    string
		at   bool
		b    string
		bt   bool
		want bool
	}{
		{"x://a", false, "x://a", false, true},
		{"x://a", false, "x://b", false, false},
		{"x://item/{id}", true, "x://item/1", false, true},
		{"x://item/{id}", true, "x://info", false, false},
		{"x://{path}", true, "x://item/{id}", true, true},
		{"x://item/{id}/data", true, "x://item/{id}/meta", true, false},
		{"x://item/{id}", true, "y://item/{id}", true, false},
	} {
		if got := overlap(tc.a, tc.at, tc.b, tc.bt); got != tc.want {
			t.Errorf("overlap(%s, %s) = %v", tc.a, tc.b, got)
		}
		if got := overlap(tc.b, tc.bt, tc.a, tc.at); got != tc.want {
			t.Errorf("overlap(%s, %s) = %v", tc.b, tc.a, got)
		}
	}
	for _, tc := range []struct {
		uri      string
		template bool
		want     bool
	}{
		{"godot://tool/godot_scene_delete_node", false, true},
		{"godot://docs/{page}", true, true},
		{"GODOT://Editor/state", false, true},
		{"godot://{kind}/{name}", true, true},
		{"godot://project/settings", false, false},
		{"godot://scene/{path}", true, false},
	} {
		if got := reserved(tc.uri, tc.template); got != tc.want {
			t.Errorf("reserved(%s) = %v", tc.uri, got)
		}
	}
}

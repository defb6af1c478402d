package sdk

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

func noopTool() Tool {
	return NewTool("noop", ToolOptions{Description: "nothing", Safety: ReadOnly},
		func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil })
}

func readText(text string) func(context.Context, *ResourceRequest) ([]ResourceContents, error) {
	return func(_ context.Context, req *ResourceRequest) ([]ResourceContents, error) {
		return []ResourceContents{{URI: req.URI, MIMEType: "text/plain", Text: text}}, nil
	}
}

func resourceToolset(t *testing.T) *registry {
	t.Helper()
	r, err := newRegistry(Toolset{
		Name:  "docs",
		Tools: []Tool{noopTool()},
		Resources: []Resource{
			{URI: "godot://docs/readme", Name: "readme", Description: "the readme", MIMEType: "text/plain", Read: readText("hello")},
			{URI: "godot://docs/logo", Name: "logo", MIMEType: "image/png", Read: func(_ context.Context, req *ResourceRequest) ([]ResourceContents, error) {
				return []ResourceContents{{MIMEType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G'}}}, nil
			}},
			{URI: "godot://docs/broken", Name: "broken", Read: func(context.Context, *ResourceRequest) ([]ResourceContents, error) {
				panic("boom")
			}},
			{URI: "godot://docs/missing", Name: "missing", Read: func(context.Context, *ResourceRequest) ([]ResourceContents, error) {
				return nil, NotFound("gone")
			}},
		},
		ResourceTemplates: []ResourceTemplate{
			{URITemplate: "godot://docs/page/{id}", Name: "page", Read: func(_ context.Context, req *ResourceRequest) ([]ResourceContents, error) {
				return []ResourceContents{{Text: "page " + req.Params["id"]}}, nil
			}},
		},
		Prompts: []Prompt{
			{Name: "greet", Description: "greets", Arguments: []PromptArgument{{Name: "who", Required: true}, {Name: "mood"}},
				Get: func(_ context.Context, req *PromptRequest) (*PromptResult, error) {
					return &PromptResult{Description: "a greeting", Messages: []PromptMessage{
						{Role: RoleUser, Content: TextContent("hello " + req.Arguments["who"])},
						{Role: RoleAssistant, Content: EmbeddedResource(ResourceContents{URI: "godot://docs/readme", MIMEType: "text/plain", Text: "hi"})},
					}}, nil
				}},
			{Name: "bad_role", Get: func(context.Context, *PromptRequest) (*PromptResult, error) {
				return &PromptResult{Messages: []PromptMessage{{Role: "system", Content: TextContent("x")}}}, nil
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDescribeListsResourcesAndPrompts(t *testing.T) {
	d := resourceToolset(t).describe()
	if len(d.Resources) != 4 || d.Resources[0].URI != "godot://docs/readme" || d.Resources[0].MimeType != "text/plain" {
		t.Errorf("resources = %+v", d.Resources)
	}
	if len(d.ResourceTemplates) != 1 || d.ResourceTemplates[0].URI != "godot://docs/page/{id}" {
		t.Errorf("templates = %+v", d.ResourceTemplates)
	}
	if len(d.Prompts) != 2 || d.Prompts[0].Name != "greet" || len(d.Prompts[0].Arguments) != 2 || !d.Prompts[0].Arguments[0].Required {
		t.Errorf("prompts = %+v", d.Prompts)
	}
	if d.Prompts[0].Arguments[1].Name != "mood" {
		t.Errorf("prompt arguments = %+v", d.Prompts[0].Arguments)
	}
}

func TestReadResource(t *testing.T) {
	r := resourceToolset(t)
	b := &fakeBackend{}
	ctx := context.Background()
	tests := []struct {
		name     string
		req      plugmodel.ResourceRequest
		wantCode ErrorCode
		want     plugmodel.ResourceContents
	}{
		{"text", plugmodel.ResourceRequest{URI: "godot://docs/readme"}, "", plugmodel.ResourceContents{URI: "godot://docs/readme", MimeType: "text/plain", Text: "hello"}},
		{"binary, uri defaulted", plugmodel.ResourceRequest{URI: "godot://docs/logo"}, "", plugmodel.ResourceContents{URI: "godot://docs/logo", MimeType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G'}, Binary: true}},
		{"template", plugmodel.ResourceRequest{URI: "godot://docs/page/7", Template: "godot://docs/page/{id}", Params: map[string]string{"id": "7"}}, "", plugmodel.ResourceContents{URI: "godot://docs/page/7", Text: "page 7"}},
		{"unknown", plugmodel.ResourceRequest{URI: "godot://docs/nope"}, CodeResourceNotFound, plugmodel.ResourceContents{}},
		{"unknown template", plugmodel.ResourceRequest{URI: "x://y", Template: "x://{y}"}, CodeResourceNotFound, plugmodel.ResourceContents{}},
		{"tool error", plugmodel.ResourceRequest{URI: "godot://docs/missing"}, CodeResourceNotFound, plugmodel.ResourceContents{}},
		{"panic", plugmodel.ResourceRequest{URI: "godot://docs/broken"}, CodeInternalError, plugmodel.ResourceContents{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.readResource(ctx, tt.req, b)
			if tt.wantCode != "" {
				if res.Err == nil || AsError(res.Err).Code != tt.wantCode {
					t.Fatalf("err = %v, want %s", res.Err, tt.wantCode)
				}
				return
			}
			if res.Err != nil || len(res.Contents) != 1 {
				t.Fatalf("result = %+v", res)
			}
			got := res.Contents[0]
			if got.URI != tt.want.URI || got.MimeType != tt.want.MimeType || got.Text != tt.want.Text || string(got.Blob) != string(tt.want.Blob) || got.Binary != tt.want.Binary {
				t.Errorf("contents = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestGetPrompt(t *testing.T) {
	r := resourceToolset(t)
	ctx := context.Background()
	res := r.getPrompt(ctx, "greet", "", map[string]string{"who": "Ada"}, &fakeBackend{})
	if res.Err != nil || res.Description != "a greeting" || len(res.Messages) != 2 {
		t.Fatalf("result = %+v", res)
	}
	if m := res.Messages[0]; m.Role != RoleUser || m.Content.Type != "text" || m.Content.Text != "hello Ada" {
		t.Errorf("message 0 = %+v", m)
	}
	if m := res.Messages[1]; m.Role != RoleAssistant || m.Content.Type != "resource" || m.Content.URI != "godot://docs/readme" || m.Content.Text != "hi" {
		t.Errorf("message 1 = %+v", m)
	}
	for _, tt := range []struct {
		name string
		args map[string]string
		want ErrorCode
	}{
		{"greet", nil, CodeValidationError}, // missing required "who"
		{"nope", nil, CodeResourceNotFound},
		{"bad_role", nil, CodeInternalError},
	} {
		if res := r.getPrompt(ctx, tt.name, "", tt.args, &fakeBackend{}); res.Err == nil || AsError(res.Err).Code != tt.want {
			t.Errorf("GetPrompt(%s) err = %v, want %s", tt.name, res.Err, tt.want)
		}
	}
}

func TestContentConstructors(t *testing.T) {
	call := &Call{}
	call.AddText("t")
	call.AddImage([]byte{1}, "image/png")
	call.AddContent(AudioContent([]byte{2}, "audio/wav"),
		EmbeddedResource(ResourceContents{URI: "a://b", MIMEType: "application/json", Text: "{}"}),
		EmbeddedResource(ResourceContents{URI: "a://c", MIMEType: "image/png", Blob: []byte{3}}))
	got := call.takeContent()
	want := []plugmodel.Content{
		{Type: "text", Text: "t"},
		{Type: "image", Data: []byte{1}, MimeType: "image/png"},
		{Type: "audio", Data: []byte{2}, MimeType: "audio/wav"},
		{Type: "resource", URI: "a://b", MimeType: "application/json", Text: "{}"},
		{Type: "resource", URI: "a://c", MimeType: "image/png", Data: []byte{3}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d items", len(got))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Type != w.Type || g.Text != w.Text || string(g.Data) != string(w.Data) || g.MimeType != w.MimeType || g.URI != w.URI {
			t.Errorf("item %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestRegistryRejectsBadResourcesAndPrompts(t *testing.T) {
	read := readText("x")
	get := func(context.Context, *PromptRequest) (*PromptResult, error) { return nil, nil }
	tests := []struct {
		name string
		ts   Toolset
		want string
	}{
		{"relative uri", Toolset{Resources: []Resource{{URI: "readme", Name: "r", Read: read}}}, "absolute URI"},
		{"duplicate uri", Toolset{Resources: []Resource{{URI: "a://b", Name: "r", Read: read}, {URI: "a://b", Name: "s", Read: read}}}, "two resources"},
		{"no name", Toolset{Resources: []Resource{{URI: "a://b", Read: read}}}, "no Name"},
		{"no read", Toolset{Resources: []Resource{{URI: "a://b", Name: "r"}}}, "no Read"},
		{"template without variable", Toolset{ResourceTemplates: []ResourceTemplate{{URITemplate: "a://b", Name: "t", Read: read}}}, "not a URI template"},
		{"template without read", Toolset{ResourceTemplates: []ResourceTemplate{{URITemplate: "a://{b}", Name: "t"}}}, "no Read"},
		{"bad prompt name", Toolset{Prompts: []Prompt{{Name: "Greet", Get: get}}}, "lower case"},
		{"duplicate prompt", Toolset{Prompts: []Prompt{{Name: "g", Get: get}, {Name: "g", Get: get}}}, "two prompts"},
		{"prompt without get", Toolset{Prompts: []Prompt{{Name: "g"}}}, "no Get"},
		{"duplicate argument", Toolset{Prompts: []Prompt{{Name: "g", Get: get, Arguments: []PromptArgument{{Name: "a"}, {Name: "a"}}}}}, "unique"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.ts.Name = "docs"
			tt.ts.Tools = []Tool{noopTool()}
			_, err := newRegistry(tt.ts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

package toolsets

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// richPlugin is a fakePlugin that also serves resources and prompts.
type richPlugin struct {
	fakePlugin
	reads []string
}

func (p *richPlugin) ReadResource(_ context.Context, req plugmodel.ResourceRequest) (plugmodel.ResourceResult, error) {
	uri := req.URI
	p.reads = append(p.reads, uri+" "+req.Template+" "+req.Params["n"])
	if uri == "fix://gone" {
		return plugmodel.ResourceResult{Err: contract.Errorf(contract.ResourceNotFound, "gone")}, nil
	}
	return plugmodel.ResourceResult{Contents: []plugmodel.ResourceContents{{URI: uri, Text: "t", MimeType: "text/plain"}}}, nil
}

func (p *richPlugin) GetPrompt(_ context.Context, req plugmodel.PromptRequest) (plugmodel.PromptResult, error) {
	return plugmodel.PromptResult{Description: req.Name, Messages: []plugmodel.PromptMessage{
		{Role: "user", Content: plugmodel.Content{Type: "resource", URI: "fix://r", Text: req.Arguments["a"]}}}}, nil
}

func richInfo(name string) plugmodel.ToolsetInfo {
	obj := json.RawMessage(`{"type":"object"}`)
	return plugmodel.ToolsetInfo{Name: name,
		Tools: []plugmodel.ToolInfo{
			{Name: "test_simple_text", InputSchema: obj, OutputSchema: obj, ToolMeta: contract.ToolMeta{Safety: "read_only"}},
			{Name: "godot_get_server_info", InputSchema: obj, OutputSchema: obj, ToolMeta: contract.ToolMeta{Safety: "read_only"}},
		},
		Resources:         []plugmodel.ResourceInfo{{URI: "fix://static", Name: "static"}, {URI: "fix://gone", Name: "gone"}},
		ResourceTemplates: []plugmodel.ResourceInfo{{URI: "fix://t/{n}", Name: "t"}},
		Prompts:           []plugmodel.PromptInfo{{Name: "greet", Arguments: []plugmodel.PromptArgument{{Name: "a", Required: true}}}},
	}
}

func TestResourcesPromptsAndUnqualifiedNames(t *testing.T) {
	var last *richPlugin
	launch := func(_ context.Context, spec pluginhost.Spec) (Plugin, error) {
		last = &richPlugin{fakePlugin: fakePlugin{info: richInfo(spec.Name)}}
		last.call = func(context.Context, plugmodel.CallRequest) plugmodel.CallResult {
			return plugmodel.CallResult{Structured: json.RawMessage(`{}`)}
		}
		return last, nil
	}
	cases := []struct {
		name, unqualified, toolset string
		wantTools, wantPrompts     []string
	}{
		{"qualified by default", "", "conformance",
			[]string{"godot_conformance_godot_get_server_info", "godot_conformance_test_simple_text"}, []string{"godot_conformance_greet"}},
		{"fixture toolset unqualified", "conformance", "conformance",
			[]string{"godot_conformance_godot_get_server_info", "test_simple_text"}, []string{"greet"}},
		{"other toolsets stay qualified", "conformance", "other",
			[]string{"godot_other_godot_get_server_info", "godot_other_test_simple_text"}, []string{"godot_other_greet"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := New(Options{Specs: []pluginhost.Spec{{Name: tc.toolset, Path: "/p/" + tc.toolset}}, Launch: launch, Unqualified: tc.unqualified})
			t.Cleanup(m.Close)
			out, err := m.Enable(context.Background(), tc.toolset, "")
			if err != nil {
				t.Fatal(err)
			}
			var tools, prompts, uris []string
			for _, tl := range out.Tools {
				tools = append(tools, tl.Def.Name)
			}
			for _, p := range out.Prompts {
				prompts = append(prompts, p.Name)
			}
			for _, r := range out.Resources {
				uris = append(uris, r.URI)
			}
			slices.Sort(tools)
			if !slices.Equal(tools, tc.wantTools) || !slices.Equal(prompts, tc.wantPrompts) {
				t.Errorf("tools %v prompts %v, want %v %v", tools, prompts, tc.wantTools, tc.wantPrompts)
			}
			if !slices.Equal(uris, []string{"fix://static", "fix://gone", "fix://t/{n}"}) || !out.Resources[2].Template || out.Resources[0].Template {
				t.Errorf("resources = %+v", out.Resources)
			}

			ctx := context.Background()
			contents, rerr := out.Resources[0].Read(ctx, "fix://static", nil)
			if rerr != nil || len(contents) != 1 || contents[0].Text != "t" || contents[0].MimeType != "text/plain" {
				t.Errorf("read static: %+v %v", contents, rerr)
			}
			if _, rerr := out.Resources[2].Read(ctx, "fix://t/5", map[string]string{"n": "5"}); rerr != nil {
				t.Errorf("read template: %v", rerr)
			}
			if _, rerr := out.Resources[1].Read(ctx, "fix://gone", nil); rerr == nil || rerr.Code != contract.ResourceNotFound {
				t.Errorf("read gone: %v", rerr)
			}
			if !slices.Equal(last.reads, []string{"fix://static  ", "fix://t/5 fix://t/{n} 5", "fix://gone  "}) {
				t.Errorf("plugin reads = %q", last.reads)
			}
			pr := out.Prompts[0].Get(ctx, map[string]string{"a": "x"})
			if perr := pr.Err; perr != nil || pr.Description != "greet" || len(pr.Messages) != 1 || pr.Messages[0].Content.URI != "fix://r" || pr.Messages[0].Content.Text != "x" {
				t.Errorf("prompt = %+v %v", pr, perr)
			}

			dis, derr := m.Disable(ctx, tc.toolset)
			if derr != nil {
				t.Fatal(derr)
			}
			slices.Sort(dis.RemovedTools)
			if !slices.Equal(dis.RemovedTools, tc.wantTools) || !slices.Equal(dis.RemovedPrompts, tc.wantPrompts) ||
				!slices.Equal(dis.RemovedResources, []string{"fix://static", "fix://gone", "fix://t/{n}"}) {
				t.Errorf("disable = %+v", dis)
			}
			// Disabled: reads are refused, not sent to a stopped plugin.
			if _, rerr := out.Resources[0].Read(ctx, "fix://static", nil); rerr == nil || rerr.Code != contract.PreconditionFailed {
				t.Errorf("read after disable: %v", rerr)
			}
		})
	}
}

func TestPluginWithoutResourcesServesNone(t *testing.T) {
	l := &fakeLauncher{}
	m := newManager(l, 0)
	t.Cleanup(m.Close)
	out, err := m.Enable(context.Background(), "scene", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Resources) != 0 || len(out.Prompts) != 0 {
		t.Errorf("a plugin without resources serves %+v %+v", out.Resources, out.Prompts)
	}
}

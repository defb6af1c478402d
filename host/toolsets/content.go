package toolsets

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
)

// resources converts the toolset's declared resources and templates into
// host resources. Caller holds e.mu.
func (m *Manager) resources(e *entry) []mcpserver.Resource {
	var out []mcpserver.Resource
	add := func(r pluginhost.ResourceInfo, template bool) {
		tpl := ""
		if template {
			tpl = r.URI
		}
		out = append(out, mcpserver.Resource{
			URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType,
			Template: template, Toolset: e.spec.Name, Read: m.reader(e, tpl),
		})
	}
	for _, r := range e.info.Resources {
		add(r, false)
	}
	for _, r := range e.info.ResourceTemplates {
		add(r, true)
	}
	return out
}

// prompts converts the toolset's declared prompts into host prompts. Caller holds e.mu.
func (m *Manager) prompts(e *entry) []mcpserver.Prompt {
	var out []mcpserver.Prompt
	for _, p := range e.info.Prompts {
		hp := mcpserver.Prompt{Name: m.servedName(e, p.Name), Title: p.Title, Description: p.Description, Toolset: e.spec.Name, Get: m.renderer(e, p.Name)}
		for _, a := range p.Arguments {
			hp.Arguments = append(hp.Arguments, mcpserver.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, hp)
	}
	return out
}

// contentCall runs fn against e's live plugin with the call timeout, and
// records a plugin that died meanwhile as crashed, as a tool call does; it
// then returns the error to answer instead of fn's result.
func (m *Manager) contentCall(ctx context.Context, e *entry, what string, fn func(context.Context, contentPlugin)) *envelope.Error {
	p, perr := m.running(ctx, e)
	if perr != nil {
		return perr
	}
	cp, ok := p.(contentPlugin)
	if !ok {
		return envelope.Errorf(envelope.InternalError, "Toolset %q cannot serve %s.", e.spec.Name, what)
	}
	ctx, cancel := context.WithTimeout(ctx, m.callTimeout)
	defer cancel()
	fn(ctx, cp)
	e.mu.Lock()
	var dead Plugin
	if e.plugin == p && p.Exited() {
		m.crashed(e, "the plugin process exited during "+what)
		dead = m.detach(e)
	}
	back := m.comesBack(e)
	e.mu.Unlock()
	if dead == nil {
		return nil
	}
	m.release(dead)
	return envelope.Errorf(envelope.InternalError, "Toolset %q crashed during %s; the next request restarts it (possible %s).", e.spec.Name, what, back)
}

// reader reads a resource of e; template is set for a resource template.
func (m *Manager) reader(e *entry, template string) mcpserver.ResourceReader {
	return func(ctx context.Context, uri string, params map[string]string) ([]mcpserver.ResourceContents, *envelope.Error) {
		var res pluginhost.ResourceResult
		if err := m.contentCall(ctx, e, fmt.Sprintf("resources/read %s", uri), func(ctx context.Context, p contentPlugin) {
			res = p.ReadResource(ctx, uri, template, params)
		}); err != nil {
			return nil, err
		}
		if res.Err != nil {
			return nil, res.Err
		}
		out := make([]mcpserver.ResourceContents, len(res.Contents))
		for i, c := range res.Contents {
			out[i] = mcpserver.ResourceContents{URI: c.URI, MimeType: c.MimeType, Text: c.Text, Blob: c.Blob, Binary: c.Binary}
		}
		return out, nil
	}
}

// renderer renders e's prompt name (the plugin's own name).
func (m *Manager) renderer(e *entry, name string) mcpserver.PromptGetter {
	return func(ctx context.Context, args map[string]string) (mcpserver.PromptResult, *envelope.Error) {
		var res pluginhost.PromptResult
		if err := m.contentCall(ctx, e, "prompts/get "+name, func(ctx context.Context, p contentPlugin) {
			res = p.GetPrompt(ctx, name, args)
		}); err != nil {
			return mcpserver.PromptResult{}, err
		}
		if res.Err != nil {
			return mcpserver.PromptResult{}, res.Err
		}
		out := mcpserver.PromptResult{Description: res.Description}
		for _, msg := range res.Messages {
			c := msg.Content
			out.Messages = append(out.Messages, mcpserver.PromptMessage{Role: msg.Role,
				Content: mcpserver.Content{Type: c.Type, Text: c.Text, MimeType: c.MimeType, Data: c.Data, URI: c.URI}})
		}
		return out, nil
	}
}

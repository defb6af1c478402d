package toolsets

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// resources converts the toolset's declared resources and templates into
// host resources. Caller holds e.mu.
func (m *Manager) resources(e *entry) []mcpserver.Resource {
	var out []mcpserver.Resource
	add := func(r plugmodel.ResourceInfo, template bool) {
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
		out = append(out, mcpserver.Prompt{Name: m.servedName(e, p.Name), Title: p.Title, Description: p.Description,
			Arguments: p.Arguments, Toolset: e.spec.Name, Get: m.renderer(e, p.Name)})
	}
	return out
}

// contentCall runs fn against e's live plugin with the call timeout, and
// records a plugin that died meanwhile as crashed, as a tool call does; it
// then returns the error to answer instead of fn's result.
func (m *Manager) contentCall(ctx context.Context, e *entry, what string, fn func(context.Context, Plugin) error) *contract.Error {
	defer m.use(e)()
	p, perr := m.running(ctx, e)
	if perr != nil {
		return perr
	}
	ctx, cancel := context.WithTimeout(ctx, m.callTimeout)
	defer cancel()
	fail := asFailure(e.spec.Name, what, fn(ctx, p))
	e.mu.Lock()
	var dead Plugin
	if e.plugin == p && p.Exited() {
		m.crashed(e, exitedWhy(what, fail))
		dead = m.detach(e)
	}
	back := m.comesBack(e)
	e.mu.Unlock()
	if dead != nil {
		m.release(dead)
		return crashedWords(e.spec.Name, what, fail, back, false)
	}
	if fail != nil {
		return failureWords(fail)
	}
	return nil
}

// reader reads a resource of e; template is set for a resource template.
func (m *Manager) reader(e *entry, template string) mcpserver.ResourceReader {
	return func(ctx context.Context, uri string, params map[string]string) ([]mcpserver.ResourceContents, *contract.Error) {
		var res plugmodel.ResourceResult
		if err := m.contentCall(ctx, e, fmt.Sprintf("resources/read %s", uri), func(ctx context.Context, p Plugin) (err error) {
			res, err = p.ReadResource(ctx, plugmodel.ResourceRequest{URI: uri, Template: template, Params: params})
			return err
		}); err != nil {
			return nil, err
		}
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Contents, nil
	}
}

// renderer renders e's prompt name (the plugin's own name).
func (m *Manager) renderer(e *entry, name string) mcpserver.PromptGetter {
	return func(ctx context.Context, args map[string]string) plugmodel.PromptResult {
		var res plugmodel.PromptResult
		if err := m.contentCall(ctx, e, "prompts/get "+name, func(ctx context.Context, p Plugin) (err error) {
			res, err = p.GetPrompt(ctx, plugmodel.PromptRequest{Name: name, Arguments: args})
			return err
		}); err != nil {
			return plugmodel.PromptResult{Err: err}
		}
		return res
	}
}

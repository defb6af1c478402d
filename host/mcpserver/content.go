package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// This file serves toolsets' MCP resources, resource templates and prompts.
// Unlike tools they carry no safety class: reading a resource or rendering
// a prompt must not change anything.

// ResourceContents is the content of one resource: Text, or Blob when
// Binary (the plugin model's).
type ResourceContents = plugmodel.ResourceContents

// ResourceReader reads uri. params are a template's variables (nil for a
// fixed resource).
type ResourceReader func(ctx context.Context, uri string, params map[string]string) ([]ResourceContents, *envelope.Error)

// Resource is a resource with a fixed URI, or, when Template is true, a
// resource template whose URI is an RFC 6570 template.
type Resource struct {
	URI, Name, Title, Description, MimeType string
	Template                                bool
	Toolset                                 string
	Read                                    ResourceReader
}

// PromptArgument is one argument of a prompt (the plugin model's).
type PromptArgument = plugmodel.PromptArgument

// PromptMessage is one message of a rendered prompt: Role "user" or
// "assistant" and one content item (the plugin model's).
type PromptMessage = plugmodel.PromptMessage

// PromptResult is a rendered prompt (Description, Messages), or Err (the
// plugin model's).
type PromptResult = plugmodel.PromptResult

// PromptGetter renders a prompt; a failure is the result's Err.
type PromptGetter func(ctx context.Context, args map[string]string) PromptResult

// Prompt is a prompt as the host serves it.
type Prompt struct {
	Name, Title, Description string
	Arguments                []PromptArgument
	Toolset                  string
	Get                      PromptGetter
}

// contentRegistry tracks which toolset owns each served resource URI (or
// template) and prompt, so that two toolsets cannot take the same one.
type contentRegistry struct {
	resources map[string]string // URI or template → toolset
	prompts   map[string]string // name → toolset
	// templates are kept to re-set the remaining ones on removal: mcp-go
	// has no call that deletes a resource template.
	templates map[string]server.ServerResourceTemplate
}

func newContentRegistry() contentRegistry {
	return contentRegistry{resources: map[string]string{}, prompts: map[string]string{}, templates: map[string]server.ServerResourceTemplate{}}
}

// AddResources serves resources and templates. A URI or template already
// served by another toolset is refused (nothing is added).
func (s *Server) AddResources(resources ...Resource) error {
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	for _, r := range resources {
		if r.URI == "" || r.Read == nil {
			return fmt.Errorf("resource %q of toolset %q: needs a URI and a reader", r.URI, r.Toolset)
		}
		if owner, taken := s.content.resources[r.URI]; taken && owner != r.Toolset {
			return fmt.Errorf("resource %s is already served by toolset %q", r.URI, owner)
		}
	}
	var fixed []server.ServerResource
	var templates []server.ServerResourceTemplate
	for _, r := range resources {
		s.content.resources[r.URI] = r.Toolset
		if r.Template {
			t := mcp.NewResourceTemplate(r.URI, r.Name, mcp.WithTemplateDescription(r.Description), mcp.WithTemplateMIMEType(r.MimeType))
			t.Title = r.Title
			st := server.ServerResourceTemplate{Template: t, Handler: server.ResourceTemplateHandlerFunc(resourceHandler(r))}
			s.content.templates[r.URI] = st
			templates = append(templates, st)
			continue
		}
		res := mcp.NewResource(r.URI, r.Name, mcp.WithResourceDescription(r.Description), mcp.WithMIMEType(r.MimeType))
		res.Title = r.Title
		fixed = append(fixed, server.ServerResource{Resource: res, Handler: resourceHandler(r)})
	}
	if len(fixed) > 0 {
		s.mcp.AddResources(fixed...)
	}
	if len(templates) > 0 {
		s.mcp.AddResourceTemplates(templates...)
	}
	return nil
}

// RemoveResources stops serving resources and templates by URI.
func (s *Server) RemoveResources(uris ...string) {
	if len(uris) == 0 {
		return
	}
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	templatesChanged := false
	for _, u := range uris {
		delete(s.content.resources, u)
		if _, ok := s.content.templates[u]; ok {
			delete(s.content.templates, u)
			templatesChanged = true
		}
	}
	s.mcp.DeleteResources(uris...)
	if templatesChanged {
		remaining := make([]server.ServerResourceTemplate, 0, len(s.content.templates))
		for _, t := range s.content.templates {
			remaining = append(remaining, t)
		}
		s.mcp.SetResourceTemplates(remaining...)
	}
}

// AddPrompts serves prompts. A name already served by another toolset is
// refused (nothing is added).
func (s *Server) AddPrompts(prompts ...Prompt) error {
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	for _, p := range prompts {
		if p.Name == "" || p.Get == nil {
			return fmt.Errorf("prompt %q of toolset %q: needs a name and a renderer", p.Name, p.Toolset)
		}
		if owner, taken := s.content.prompts[p.Name]; taken && owner != p.Toolset {
			return fmt.Errorf("prompt %s is already served by toolset %q", p.Name, owner)
		}
	}
	served := make([]server.ServerPrompt, 0, len(prompts))
	for _, p := range prompts {
		s.content.prompts[p.Name] = p.Toolset
		mp := mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		served = append(served, server.ServerPrompt{Prompt: mp, Handler: promptHandler(p)})
	}
	if len(served) > 0 {
		s.mcp.AddPrompts(served...)
	}
	return nil
}

// RemovePrompts stops serving prompts by name.
func (s *Server) RemovePrompts(names ...string) {
	if len(names) == 0 {
		return
	}
	s.contentMu.Lock()
	for _, n := range names {
		delete(s.content.prompts, n)
	}
	s.contentMu.Unlock()
	s.mcp.DeletePrompts(names...)
}

// resourcesOf keeps the URIs that toolset serves.
func (s *Server) resourcesOf(toolset string, uris []string) []string {
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	var out []string
	for _, u := range uris {
		if s.content.resources[u] == toolset {
			out = append(out, u)
		}
	}
	return out
}

// promptsOf keeps the prompt names that toolset serves.
func (s *Server) promptsOf(toolset string, names []string) []string {
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	var out []string
	for _, n := range names {
		if s.content.prompts[n] == toolset {
			out = append(out, n)
		}
	}
	return out
}

// addContent serves an enabled toolset's resources and prompts, all or nothing.
func (s *Server) addContent(out EnableOutcome) error {
	if err := s.AddResources(out.Resources...); err != nil {
		return err
	}
	if err := s.AddPrompts(out.Prompts...); err != nil {
		uris := make([]string, len(out.Resources))
		for i, r := range out.Resources {
			uris[i] = r.URI
		}
		s.RemoveResources(uris...)
		return err
	}
	return nil
}

func servedToolNames(tools []Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Def.Name
	}
	return names
}

// ServedResources lists the served resource URIs and templates, sorted.
func (s *Server) ServedResources() []string {
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	out := make([]string, 0, len(s.content.resources))
	for u := range s.content.resources {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// contentError is the JSON-RPC error text of a failed read or render: the
// stable code first, then the hint, as in a tool's text fallback.
type contentError struct{ e *envelope.Error }

func (c contentError) Error() string {
	text := string(c.e.Code) + ": " + c.e.Hint
	if c.e.Required != "" {
		text += " (required: " + c.e.Required + ")"
	}
	return text
}

func resourceHandler(r Resource) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		var params map[string]string
		if r.Template {
			params = map[string]string{}
			for k, v := range req.Params.Arguments {
				params[k] = templateValue(v)
			}
		}
		contents, err := r.Read(ctx, req.Params.URI, params)
		if err != nil {
			return nil, contentError{err}
		}
		out := make([]mcp.ResourceContents, 0, len(contents))
		for _, c := range contents {
			uri := c.URI
			if uri == "" {
				uri = req.Params.URI
			}
			if c.Binary {
				out = append(out, mcp.BlobResourceContents{URI: uri, MIMEType: c.MimeType, Blob: encodeBase64(c.Blob)})
			} else {
				out = append(out, mcp.TextResourceContents{URI: uri, MIMEType: c.MimeType, Text: c.Text})
			}
		}
		return out, nil
	}
}

// templateValue flattens a matched template variable (a string, or a list
// for exploded variables) to one string.
func templateValue(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []string:
		out := ""
		for i, s := range t {
			if i > 0 {
				out += ","
			}
			out += s
		}
		return out
	}
	return fmt.Sprint(v)
}

func promptHandler(p Prompt) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := map[string]string{}
		for k, v := range req.Params.Arguments {
			args[k] = v
		}
		res := p.Get(ctx, args)
		if res.Err != nil {
			return nil, contentError{res.Err}
		}
		out := &mcp.GetPromptResult{Description: res.Description}
		for _, m := range res.Messages {
			out.Messages = append(out.Messages, mcp.PromptMessage{Role: mcp.Role(m.Role), Content: mcpContent(m.Content)})
		}
		return out, nil
	}
}

// mcpContent converts one content item for the client.
func mcpContent(c Content) mcp.Content {
	switch c.Type {
	case "image":
		return mcp.NewImageContent(encodeBase64(c.Data), c.MimeType)
	case "audio":
		return mcp.NewAudioContent(encodeBase64(c.Data), c.MimeType)
	case "resource":
		if len(c.Data) > 0 {
			return mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: c.URI, MIMEType: c.MimeType, Blob: encodeBase64(c.Data)})
		}
		return mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: c.URI, MIMEType: c.MimeType, Text: c.Text})
	}
	return mcp.NewTextContent(c.Text)
}

// LogCall sends a toolset's log record of the call known as callID to the
// client that made the call, as notifications/message, when the client
// asked for that level (logging/setLevel, or the request's level on newer
// protocol revisions). Unknown or finished calls are ignored.
func (s *Server) LogCall(callID string, level slog.Level, message string, attrs []slog.Attr) {
	s.progMu.Lock()
	t, ok := s.progress[callID]
	s.progMu.Unlock()
	if !ok {
		return
	}
	data := map[string]any{"message": message}
	for _, a := range attrs {
		data[a.Key] = a.Value.String()
	}
	n := mcp.NewLoggingMessageNotification(mcpLevel(level), "godot-mcp", data)
	s.awaitNotifyGap(t)
	if err := s.mcp.SendLogMessageToClient(t.ctx, n); err != nil {
		s.log.Debug("log notification dropped", "err", err)
		return
	}
	t.sent.Add(1)
}

// mcpLevel maps a slog level to the MCP (syslog) level.
func mcpLevel(l slog.Level) mcp.LoggingLevel {
	switch {
	case l >= slog.LevelError:
		return mcp.LoggingLevelError
	case l >= slog.LevelWarn:
		return mcp.LoggingLevelWarning
	case l >= slog.LevelInfo:
		return mcp.LoggingLevelInfo
	}
	return mcp.LoggingLevelDebug
}

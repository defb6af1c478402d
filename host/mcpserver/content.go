package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file serves toolsets' MCP resources, resource templates and prompts.
// Unlike tools they carry no safety class: reading a resource or rendering
// a prompt must not change anything.

// ResourceContents is the content of one resource: Text, or Blob when
// Binary (the plugin model's).
type ResourceContents = plugmodel.ResourceContents

// ResourceReader reads uri. params are a template's variables (nil for a
// fixed resource).
type ResourceReader func(ctx context.Context, uri string, params map[string]string) ([]ResourceContents, *contract.Error)

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

// CoreURIPrefixes is the URI space of the core's own resources: no
// toolset serves a URI or template in it.
var CoreURIPrefixes = []string{"godot://tool/", "godot://class/", "godot://docs/", "godot://editor/"}

// ResourceTakenError refuses a toolset's resource that would shadow (or be
// shadowed by) another's: it falls in the core's URI space, or a URI it
// serves could also be read from another toolset's.
type ResourceTakenError struct {
	URI, Toolset string
	Other, Owner string // the overlapping URI or template and its toolset; "" when reserved
}

func (e *ResourceTakenError) Error() string {
	if e.Owner == "" {
		return fmt.Sprintf("resource %s of toolset %q is in godot://{tool,class,docs,editor}/, the URI space reserved for the server's own resources; serve it under another URI", e.URI, e.Toolset)
	}
	if e.Other == e.URI {
		return fmt.Sprintf("resource %s is already served by toolset %q", e.URI, e.Owner)
	}
	return fmt.Sprintf("resource %s of toolset %q overlaps %s, served by toolset %q (a URI matching both could be answered by either); one of them must use another URI", e.URI, e.Toolset, e.Other, e.Owner)
}

// literal splits a URI template into its text before the first variable
// and after the last (a fixed URI is all prefix).
func literal(uri string, template bool) (prefix, suffix string) {
	if !template {
		return uri, uri
	}
	i, j := strings.IndexByte(uri, '{'), strings.LastIndexByte(uri, '}')
	if i < 0 || j < 0 {
		return uri, uri
	}
	return uri[:i], uri[j+1:]
}

// reserved: a URI or template of a toolset that lies in the core's space.
func reserved(uri string, template bool) bool {
	prefix, _ := literal(strings.ToLower(uri), template)
	for _, p := range CoreURIPrefixes {
		if strings.HasPrefix(prefix, p) || template && strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// templateRE matches what a URI template can expand to (any variable
// value: conservative).
func templateRE(t string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for t != "" {
		i := strings.IndexByte(t, '{')
		j := strings.IndexByte(t, '}')
		if i < 0 || j < i {
			b.WriteString(regexp.QuoteMeta(t))
			break
		}
		b.WriteString(regexp.QuoteMeta(t[:i]) + ".*")
		t = t[j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// overlap reports whether some URI could be read from both a and b.
func overlap(a string, aTemplate bool, b string, bTemplate bool) bool {
	switch {
	case !aTemplate && !bTemplate:
		return a == b
	case aTemplate && !bTemplate:
		return templateRE(a).MatchString(b)
	case !aTemplate && bTemplate:
		return templateRE(b).MatchString(a)
	}
	ap, as := literal(a, true)
	bp, bs := literal(b, true)
	return (strings.HasPrefix(ap, bp) || strings.HasPrefix(bp, ap)) && (strings.HasSuffix(as, bs) || strings.HasSuffix(bs, as))
}

// AddResources serves resources and templates. A URI or template that
// another toolset serves, that overlaps one another toolset serves, or
// (for a toolset) that lies in the core's URI space is refused with a
// *ResourceTakenError (nothing is added).
func (s *Server) AddResources(resources ...Resource) error {
	s.contentMu.Lock()
	defer s.contentMu.Unlock()
	for i, r := range resources {
		if r.URI == "" || r.Read == nil {
			return fmt.Errorf("resource %q of toolset %q: needs a URI and a reader", r.URI, r.Toolset)
		}
		if r.Toolset != CoreToolset && reserved(r.URI, r.Template) {
			return &ResourceTakenError{URI: r.URI, Toolset: r.Toolset}
		}
		if owner, taken := s.content.resources[r.URI]; taken && owner != r.Toolset {
			return &ResourceTakenError{URI: r.URI, Toolset: r.Toolset, Other: r.URI, Owner: owner}
		}
		if r.Toolset == CoreToolset {
			continue
		}
		for uri, owner := range s.content.resources {
			_, isTemplate := s.content.templates[uri]
			if owner != r.Toolset && overlap(r.URI, r.Template, uri, isTemplate) {
				return &ResourceTakenError{URI: r.URI, Toolset: r.Toolset, Other: uri, Owner: owner}
			}
		}
		for _, o := range resources[:i] {
			if o.Toolset != r.Toolset && overlap(r.URI, r.Template, o.URI, o.Template) {
				return &ResourceTakenError{URI: r.URI, Toolset: r.Toolset, Other: o.URI, Owner: o.Toolset}
			}
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

// removeContent stops serving what addContent served.
func (s *Server) removeContent(out EnableOutcome) {
	uris := make([]string, len(out.Resources))
	for i, r := range out.Resources {
		uris[i] = r.URI
	}
	s.RemoveResources(uris...)
	names := make([]string, len(out.Prompts))
	for i, p := range out.Prompts {
		names[i] = p.Name
	}
	s.RemovePrompts(names...)
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
type contentError struct{ e *contract.Error }

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
	if !logWanted(t.ctx, n.Params.Level) {
		// mcp-go drops it without an error: counted in the ledger, the
		// call's answer would wait deliveryWait for a write that never comes.
		return
	}
	if err := s.notify(t, func() error { return s.mcp.SendLogMessageToClient(t.ctx, n) }); err != nil {
		s.log.Debug("log notification dropped", "err", err)
	}
}

// logWanted tells whether mcp-go's SendLogMessageToClient sends a record
// of level to the client of ctx, by the same rules (v1.2.1): on the
// 2026-07-28 protocol the request's declared level, before it the
// session's logging/setLevel.
func logWanted(ctx context.Context, level mcp.LoggingLevel) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.LogLevel != "" && level.ShouldSendTo(info.LogLevel)
	}
	session, ok := server.ClientSessionFromContext(ctx).(server.SessionWithLogging)
	return ok && level.ShouldSendTo(session.GetLogLevel())
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

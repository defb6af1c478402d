package sdk

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// Resource is an MCP resource with a fixed URI that a toolset serves while it
// is enabled. Agents list it with resources/list and read it with
// resources/read.
type Resource struct {
	// URI identifies the resource, e.g. "godot://project/settings". It must
	// be an absolute URI (with a scheme) and unique across enabled toolsets.
	URI string
	// Name is a short programmatic name; Title a human-readable one.
	Name, Title string
	// Description says what the resource holds.
	Description string
	// MIMEType of the contents, e.g. "application/json"; may be empty.
	MIMEType string
	// Read returns the contents. Return an *Error (e.g. NotFound) to fail.
	Read func(ctx context.Context, req *ResourceRequest) ([]ResourceContents, error)
}

// ResourceTemplate is a family of MCP resources named by an RFC 6570 URI
// template, e.g. "godot://scene/{path}". Agents list it with
// resources/templates/list; a resources/read of a matching URI calls Read.
type ResourceTemplate struct {
	// URITemplate is the template, with at least one {variable}.
	URITemplate string
	// Name is a short programmatic name; Title a human-readable one.
	Name, Title string
	// Description says what the resources hold.
	Description string
	// MIMEType of the contents, e.g. "application/json"; may be empty.
	MIMEType string
	// Read returns the contents of ResourceRequest.URI; the template's
	// variables are in ResourceRequest.Params.
	Read func(ctx context.Context, req *ResourceRequest) ([]ResourceContents, error)
}

// ResourceRequest is one resources/read.
type ResourceRequest struct {
	// URI is the URI the agent asked for.
	URI string
	// Params are the values of a template's variables (nil for a Resource).
	Params map[string]string
	// Host reaches the editor and the host's log.
	Host Host
}

// ResourceContents is the content of a resource: Text, or Blob for binary
// data.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	// Blob, when not nil, makes the contents binary (Text is ignored).
	Blob []byte
}

// Prompt is an MCP prompt that a toolset serves while it is enabled. Prompt
// names follow the tool naming rule and are exposed as godot_<toolset>_<name>.
type Prompt struct {
	Name, Title, Description string
	Arguments                []PromptArgument
	// Get renders the prompt. Required arguments are checked before it runs.
	Get func(ctx context.Context, req *PromptRequest) (*PromptResult, error)
}

// PromptArgument is one argument of a Prompt: Name, Description and
// whether it is Required (checked before Get runs).
type PromptArgument = plugmodel.PromptArgument

// PromptRequest is one prompts/get.
type PromptRequest struct {
	// Name is the prompt's own (unqualified) name.
	Name string
	// Arguments are the agent's argument values.
	Arguments map[string]string
	// Host reaches the editor and the host's log.
	Host Host
}

// PromptResult is a rendered prompt.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// Roles of prompt messages.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	// Role is RoleUser or RoleAssistant.
	Role    string
	Content Content
}

// Content is one MCP content item: build it with TextContent, ImageContent,
// AudioContent or EmbeddedResource. It is used by prompt messages and by
// Call.AddContent.
type Content struct {
	c plugmodel.Content // the host's content item, as it crosses to the host
}

// TextContent is a text content item.
func TextContent(text string) Content { return Content{plugmodel.Content{Type: "text", Text: text}} }

// ImageContent is an image content item; mimeType is e.g. "image/png".
func ImageContent(data []byte, mimeType string) Content {
	return Content{plugmodel.Content{Type: "image", Data: data, MimeType: mimeType}}
}

// AudioContent is an audio content item; mimeType is e.g. "audio/wav".
func AudioContent(data []byte, mimeType string) Content {
	return Content{plugmodel.Content{Type: "audio", Data: data, MimeType: mimeType}}
}

// EmbeddedResource is a content item carrying a resource's contents inline.
func EmbeddedResource(r ResourceContents) Content {
	if len(r.Blob) > 0 {
		return Content{plugmodel.Content{Type: "resource", URI: r.URI, MimeType: r.MIMEType, Data: r.Blob}}
	}
	return Content{plugmodel.Content{Type: "resource", URI: r.URI, MimeType: r.MIMEType, Text: r.Text}}
}

// checkResources validates a toolset's resources, templates and prompts once,
// before it serves.
func checkResources(ts Toolset) error {
	uris := map[string]bool{}
	for i, r := range ts.Resources {
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme == "" {
			return fmt.Errorf("toolset %q: Resources[%d]: URI %q must be an absolute URI with a scheme", ts.Name, i, r.URI)
		}
		if uris[r.URI] {
			return fmt.Errorf("toolset %q: two resources have the URI %q", ts.Name, r.URI)
		}
		uris[r.URI] = true
		if r.Name == "" {
			return fmt.Errorf("toolset %q: resource %q has no Name", ts.Name, r.URI)
		}
		if r.Read == nil {
			return fmt.Errorf("toolset %q: resource %q has no Read function", ts.Name, r.URI)
		}
	}
	for i, r := range ts.ResourceTemplates {
		if !strings.Contains(r.URITemplate, "{") || !strings.Contains(r.URITemplate, "}") || !strings.Contains(r.URITemplate, ":") {
			return fmt.Errorf("toolset %q: ResourceTemplates[%d]: %q is not a URI template with a scheme and a {variable}", ts.Name, i, r.URITemplate)
		}
		if uris[r.URITemplate] {
			return fmt.Errorf("toolset %q: the URI template %q is declared twice", ts.Name, r.URITemplate)
		}
		uris[r.URITemplate] = true
		if r.Name == "" {
			return fmt.Errorf("toolset %q: resource template %q has no Name", ts.Name, r.URITemplate)
		}
		if r.Read == nil {
			return fmt.Errorf("toolset %q: resource template %q has no Read function", ts.Name, r.URITemplate)
		}
	}
	prompts := map[string]bool{}
	for i, p := range ts.Prompts {
		if !nameRE.MatchString(p.Name) {
			return fmt.Errorf("toolset %q: Prompts[%d]: name %q must be lower case letters, digits and '_', starting with a letter", ts.Name, i, p.Name)
		}
		if prompts[p.Name] {
			return fmt.Errorf("toolset %q: two prompts are named %q", ts.Name, p.Name)
		}
		prompts[p.Name] = true
		if p.Get == nil {
			return fmt.Errorf("toolset %q: prompt %q has no Get function", ts.Name, p.Name)
		}
		args := map[string]bool{}
		for _, a := range p.Arguments {
			if a.Name == "" || args[a.Name] {
				return fmt.Errorf("toolset %q: prompt %q: argument names must be non-empty and unique (got %q)", ts.Name, p.Name, a.Name)
			}
			args[a.Name] = true
		}
	}
	return nil
}

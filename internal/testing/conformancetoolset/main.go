// Command conformancetoolset is the "conformance" toolset: the fixture
// tools, resources and prompts that the MCP conformance suite
// (npm @modelcontextprotocol/conformance, run by tools/conformance/run.sh)
// calls by name. It is a real plugin on the SDK, enabled only in that run,
// with GODOT_MCP_CONFORMANCE_FIXTURE=true so that its names stay unqualified.
//
// Fixtures the SDK cannot serve (sampling, elicitation, a hand-written JSON
// Schema) are deliberately absent; tools/conformance/expected-failures.txt
// says why.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() { sdk.Serve(Toolset()) }

// Name is the toolset's name; the host serves it unqualified only with
// GODOT_MCP_CONFORMANCE_FIXTURE=true.
const Name = "conformance"

// noArgs is the input of the fixture tools.
type noArgs struct{}

// note is the structured result of the fixture tools; the content items the
// suite checks come after its text form.
type note struct {
	Note string `json:"note" description:"what the tool did"`
}

// redPixelPNG is a 1x1 red PNG.
var redPixelPNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
	0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
	0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
	0x44, 0xae, 0x42, 0x60, 0x82,
}

// silentWAV is a valid 8 kHz mono 16-bit WAV holding 8 samples of silence.
func silentWAV() []byte {
	const samples, rate = 8, 8000
	le32 := func(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
	le16 := func(v uint16) []byte { return []byte{byte(v), byte(v >> 8)} }
	data := make([]byte, samples*2)
	var b []byte
	b = append(b, "RIFF"...)
	b = append(b, le32(uint32(36+len(data)))...)
	b = append(b, "WAVEfmt "...)
	b = append(b, le32(16)...)
	b = append(b, le16(1)...) // PCM
	b = append(b, le16(1)...) // mono
	b = append(b, le32(rate)...)
	b = append(b, le32(rate*2)...)
	b = append(b, le16(2)...)
	b = append(b, le16(16)...)
	b = append(b, "data"...)
	b = append(b, le32(uint32(len(data)))...)
	return append(b, data...)
}

func tool(name, description string, fn func(ctx context.Context, call *sdk.Call) (string, error)) sdk.Tool {
	return sdk.NewTool(name, sdk.ToolOptions{Description: description, Safety: sdk.ReadOnly},
		func(ctx context.Context, call *sdk.Call, _ noArgs) (note, error) {
			text, err := fn(ctx, call)
			return note{Note: text}, err
		})
}

func text(uri, mime, body string) func(context.Context, *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
	return func(context.Context, *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
		return []sdk.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}, nil
	}
}

func userText(s string) sdk.PromptMessage {
	return sdk.PromptMessage{Role: sdk.RoleUser, Content: sdk.TextContent(s)}
}

// Toolset is the fixture toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        Name,
		Version:     "1",
		Description: "Test-only fixtures for the MCP conformance suite.",
		Tools: []sdk.Tool{
			tool("test_simple_text", "Returns a simple text content item.", func(_ context.Context, call *sdk.Call) (string, error) {
				call.AddText("This is a simple text response for testing.")
				return "returned text", nil
			}),
			tool("test_image_content", "Returns a 1x1 red PNG image.", func(_ context.Context, call *sdk.Call) (string, error) {
				call.AddImage(redPixelPNG, "image/png")
				return "returned an image", nil
			}),
			tool("test_audio_content", "Returns a short silent WAV.", func(_ context.Context, call *sdk.Call) (string, error) {
				call.AddContent(sdk.AudioContent(silentWAV(), "audio/wav"))
				return "returned audio", nil
			}),
			tool("test_embedded_resource", "Returns an embedded text resource.", func(_ context.Context, call *sdk.Call) (string, error) {
				call.AddContent(sdk.EmbeddedResource(sdk.ResourceContents{URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}))
				return "returned an embedded resource", nil
			}),
			tool("test_multiple_content_types", "Returns text, an image and an embedded resource.", func(_ context.Context, call *sdk.Call) (string, error) {
				call.AddContent(sdk.TextContent("Multiple content types test:"), sdk.ImageContent(redPixelPNG, "image/png"),
					sdk.EmbeddedResource(sdk.ResourceContents{URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}))
				return "returned mixed content", nil
			}),
			tool("test_tool_with_logging", "Logs three records through the SDK logger: to the host's log, and to the calling client as MCP log messages.", func(ctx context.Context, call *sdk.Call) (string, error) {
				for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
					call.Host.Logger().InfoContext(ctx, msg, "step", i+1)
				}
				return "logged three records", nil
			}),
			tool("test_error_handling", "Always fails.", func(context.Context, *sdk.Call) (string, error) {
				return "", sdk.Internal("This tool intentionally returns an error for testing")
			}),
			tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100.", func(ctx context.Context, call *sdk.Call) (string, error) {
				for i, p := range []float64{0, 50, 100} {
					if i > 0 {
						select {
						case <-time.After(50 * time.Millisecond):
						case <-ctx.Done():
							return "", ctx.Err()
						}
					}
					call.Host.Progress(ctx, p, 100, fmt.Sprintf("step %d of 3", i+1))
				}
				return "reported progress", nil
			}),
		},
		Resources: []sdk.Resource{
			{URI: "test://static-text", Name: "static-text", Description: "A static text resource.", MIMEType: "text/plain",
				Read: text("test://static-text", "text/plain", "This is the content of the static text resource.")},
			{URI: "test://static-binary", Name: "static-binary", Description: "A static binary resource (a PNG).", MIMEType: "image/png",
				Read: func(context.Context, *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
					return []sdk.ResourceContents{{URI: "test://static-binary", MIMEType: "image/png", Blob: redPixelPNG}}, nil
				}},
			{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource for subscription tests.", MIMEType: "text/plain",
				Read: text("test://watched-resource", "text/plain", "Watched resource content.")},
		},
		ResourceTemplates: []sdk.ResourceTemplate{
			{URITemplate: "test://template/{id}/data", Name: "template-data", Description: "Data for an id.", MIMEType: "application/json",
				Read: func(_ context.Context, req *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
					id := req.Params["id"]
					return []sdk.ResourceContents{{URI: req.URI, MIMEType: "application/json",
						Text: fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, id)}}, nil
				}},
		},
		Prompts: []sdk.Prompt{
			{Name: "test_simple_prompt", Description: "A simple prompt without arguments.",
				Get: func(context.Context, *sdk.PromptRequest) (*sdk.PromptResult, error) {
					return &sdk.PromptResult{Messages: []sdk.PromptMessage{userText("This is a simple prompt for testing.")}}, nil
				}},
			{Name: "test_prompt_with_arguments", Description: "A prompt with two required arguments.",
				Arguments: []sdk.PromptArgument{{Name: "arg1", Description: "First test argument", Required: true}, {Name: "arg2", Description: "Second test argument", Required: true}},
				Get: func(_ context.Context, req *sdk.PromptRequest) (*sdk.PromptResult, error) {
					return &sdk.PromptResult{Messages: []sdk.PromptMessage{
						userText(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", req.Arguments["arg1"], req.Arguments["arg2"]))}}, nil
				}},
			{Name: "test_prompt_with_embedded_resource", Description: "A prompt embedding a resource.",
				Arguments: []sdk.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
				Get: func(_ context.Context, req *sdk.PromptRequest) (*sdk.PromptResult, error) {
					return &sdk.PromptResult{Messages: []sdk.PromptMessage{
						{Role: sdk.RoleUser, Content: sdk.EmbeddedResource(sdk.ResourceContents{URI: req.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing."})},
						userText("Please process the embedded resource above."),
					}}, nil
				}},
			{Name: "test_prompt_with_image", Description: "A prompt with an image.",
				Get: func(context.Context, *sdk.PromptRequest) (*sdk.PromptResult, error) {
					return &sdk.PromptResult{Messages: []sdk.PromptMessage{
						{Role: sdk.RoleUser, Content: sdk.ImageContent(redPixelPNG, "image/png")},
						userText("Please analyze the image above."),
					}}, nil
				}},
		},
	}
}

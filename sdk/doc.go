// Package sdk is the Go SDK for godot-mcp toolsets: the only package a
// toolset imports. A toolset is a small program that the godot-mcp host runs
// as a plugin subprocess; its tools reach the Godot editor only through the
// host (Call.Host.Send), and the host enforces their safety classes.
//
//	func main() {
//		sdk.Serve(sdk.Toolset{
//			Name:        "hello",
//			Version:     "0.1.0",
//			Description: "Greets nodes.",
//			Tools: []sdk.Tool{
//				sdk.NewTool("greet", sdk.ToolOptions{
//					Title:       "Greet a node",
//					Description: "Prints a greeting in the editor's Output panel.",
//					Safety:      sdk.ReadOnly,
//				}, greet),
//			},
//		})
//	}
//
//	type GreetIn struct {
//		Node string `json:"node" description:"Path of the node, e.g. /root/Main/Player"`
//	}
//	type GreetOut struct {
//		Greeted string `json:"greeted"`
//	}
//
//	func greet(ctx context.Context, call *sdk.Call, in GreetIn) (GreetOut, error) {
//		if _, err := call.Host.Send(ctx, "cmd_hello_greet", in, 0); err != nil {
//			return GreetOut{}, err
//		}
//		return GreetOut{Greeted: in.Node}, nil
//	}
//
// # Schemas
//
// NewTool generates the JSON Schemas of a tool's input and output from the Go
// types, following encoding/json: exported fields, named by their `json` tag,
// embedded structs flattened, `json:"-"` skipped. A field is required unless
// its json tag says omitempty or omitzero, or it is a pointer; the
// `jsonschema` tag can override that. Go types map to JSON Schema as:
//
//	string                    "string"
//	bool                      "boolean"
//	int*, uint*               "integer" (uint*: minimum 0)
//	float*                    "number"
//	struct                    "object" with properties, required, additionalProperties: false
//	map[string]T              "object" (or null) with additionalProperties: T
//	[]T, [N]T                 "array" (a slice may be null) of T
//	[]byte                    base64 "string" (or null)
//	*T                        T or null, and the field is optional
//	time.Time                 "string", format date-time
//	any, json.RawMessage      any JSON value
//	other json.Marshaler      any JSON value
//	encoding.TextMarshaler    "string"
//
// A struct that contains itself (a tree), or a named struct used more than
// once in one schema, is emitted once under $defs and
// referenced with $ref. Channels, functions and complex numbers are refused.
//
// Two struct tags add to a field's schema:
//
//	description:"Free text, commas allowed."
//	jsonschema:"KEY[=VALUE],..."
//
// with the keys required, optional, enum=a|b|c, minimum=N, maximum=N,
// minLength=N, maxLength=N, minItems=N, maxItems=N, default=V and format=F
// (values may not contain commas; enum items are separated by '|'). A missing
// field with a default gets the default before the tool runs. An unknown key
// or a value that does not fit the field's type makes NewTool panic, so a
// typo can never produce a silently empty schema.
//
// # Validation
//
// Before anything runs, the host checks the arguments against the input
// schema the toolset declared, once, with the same engine that generated it
// (the host's core tools use it too): types, required fields, unknown
// fields, enums, bounds; it fills in defaults. A failure answers
// VALIDATION_ERROR with a hint naming every bad field and what it expected
// ("arguments.count: expected integer, got string \"5\""), and the function
// is not called. The plugin does not validate again: the function receives
// the validated arguments.
//
// # Results and errors
//
// The Out value becomes the call's structured result (the host adds its text
// form); Call.AddImage, Call.AddText and Call.AddContent add extra content
// items (text, image, audio, embedded resources). A tool function fails by
// returning an *Error (see PreconditionFailed, NotFound, Validation, ...).
// Any other error becomes INTERNAL_ERROR with the error's text as the hint,
// a context deadline becomes TIMEOUT, and a panic is recovered into
// INTERNAL_ERROR: the plugin keeps serving.
//
// # Resources and prompts
//
// Besides tools, a Toolset may serve MCP resources (Resource, with a fixed
// URI), resource templates (ResourceTemplate, RFC 6570) and prompts (Prompt,
// exposed as godot_<toolset>_<name>) while it is enabled.
//
// # Safety
//
// Every tool declares a Safety class. Mutating and Destructive tools take
// dry_run (Call.DryRun: describe the change, make none); Destructive tools
// run only with confirm: true. The host enforces both before calling the
// plugin, and the SDK refuses again if a request slips through: a dry run of
// a tool without a preview, or a destructive call without confirm, never
// reaches the tool function.
//
// The class also binds the editor commands a tool sends. Every command the
// editor serves declares its own class, and the host sends a command only
// for a call that is still running (Call.Host belongs to its call) and only
// when the tool's class allows it: ReadOnly tools send read_only commands,
// Mutating tools read_only and mutating ones, Destructive tools also
// destructive ones (when confirmed), Runtime tools runtime and read_only
// ones; during a dry run only read_only commands and commands that take
// dry_run (sent with dry_run: true by the host). A toolset sends only its
// own cmd_<toolset>_* commands and the public core commands
// (cmd_get_editor_state, cmd_describe_class, cmd_filesystem_sync,
// cmd_ping). A refused command fails the call.
//
// # Editor code and game code
//
// Toolset.EditorCode is GDScript the addon loads into the editor (the
// toolset's cmd_<toolset>_* commands); Toolset.GameCode is GDScript the
// runtime toolset's probe loads into a game started from the editor, whose
// messages "<toolset>:<name>" a Runtime tool sends with GameMessage (the
// host refuses it from any other class). Both are installed into the
// project on enable under one version stamp and removed on disable.
// Subdir roots a go:embed directory for them (EditorCode:
// sdk.Subdir(editorFiles, "editor")).
//
// # Helpers
//
// Send decodes an editor answer and runs Normalize on a result that is a
// Normalizer (nil lists made empty); Params turns a tool's input into a
// command's params map; DecodeArgs validates and decodes arguments a tool
// carries for another tool (a batch step) exactly as the host validates a
// single call.
//
// Package sdk/sdktest runs a toolset in-process against a fake editor, for
// unit tests. docs/plugin-authoring.md is the walkthrough.
package sdk

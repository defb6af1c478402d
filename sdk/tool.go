package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/schema"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Safety is a tool's safety class: contract.Class. The host enforces it
// before calling the tool: a toolset cannot declare its way around it.
type Safety = contract.Class

// The four safety classes (contract's).
const (
	// ReadOnly tools only look.
	ReadOnly = contract.ReadOnly
	// Mutating tools change the project or the editor; they take dry_run.
	Mutating = contract.Mutating
	// Destructive tools lose data or are hard to undo; they take dry_run and
	// refuse to run without confirm: true.
	Destructive = contract.Destructive
	// Runtime tools act on the running game.
	Runtime = contract.Runtime
)

// Toolset is a named set of tools served by one plugin process (see Serve).
type Toolset struct {
	// Name is the toolset's name: lower case letters, digits and '_',
	// starting with a letter. Tools appear to agents as godot_<Name>_<tool>.
	Name string
	// Version is the toolset's own version, shown to users.
	Version string
	// Description says in one sentence what the tools are for.
	Description string
	// Keywords are the words an agent would search for to find these tools:
	// the Godot classes and features they handle ("AnimationPlayer",
	// "keyframes"). The host lists them beside Description in the server's
	// instructions, which some clients load instead of the tool list, so an
	// agent learns the toolset exists before it is enabled. Optional; at
	// most 12, each at most 40 characters on one line.
	Keywords []string
	// MinGodot is the oldest Godot version the tools work with ("4.3");
	// empty means any Godot 4. The host refuses to enable the toolset for an
	// older editor.
	MinGodot string
	// MaxTestedGodot is the newest Godot version the tools were tested with
	// ("4.8"); empty when not said. godot_list_toolsets shows it, and the
	// host warns (without refusing) when the editor is newer.
	MaxTestedGodot string
	// Tools are built with NewTool.
	Tools []Tool
	// Resources and ResourceTemplates are MCP resources served while the
	// toolset is enabled; optional.
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	// Prompts are MCP prompts served while the toolset is enabled, as
	// godot_<Name>_<prompt>; optional.
	Prompts []Prompt
	// EditorCode is the toolset's editor-side GDScript, typically a
	// go:embed directory passed through fs.Sub so that handlers.gd is at its
	// root. On enable the host installs it into the project as
	// res://addons/godot_mcp_ext/<Name>/ (with a version stamp) and the
	// addon loads it without a plugin toggle; on disable it is unloaded and
	// removed. handlers.gd declares cmd_<Name>_* commands with their classes.
	// nil when the toolset needs no editor code.
	EditorCode fs.FS
	// GameCode is the toolset's game-side GDScript, typically a go:embed
	// directory passed through fs.Sub so that game.gd is at its root. It
	// is installed, version-stamped and removed with EditorCode (one stamp
	// covers both), as res://addons/godot_mcp_ext/<Name>/game/. When a game
	// starts from the editor with the runtime toolset's probe in it, the
	// probe loads game.gd: its get_messages() -> {name: Callable} registers
	// game messages "<Name>:<name>", which a tool of class Runtime reaches
	// with GameMessage (or the toolset's editor code with the addon's
	// lib/game_messages.gd). See docs/plugin-authoring.md. nil when the
	// toolset needs no game code. A toolset may ship GameCode without
	// EditorCode.
	GameCode fs.FS
}

// ToolOptions are a tool's declared metadata.
type ToolOptions struct {
	// Title is a short human-readable name.
	Title string
	// Description tells an agent what the tool does, when to use it and what
	// it returns.
	Description string
	// Safety is required.
	Safety Safety
	// DryRun declares that the tool can preview its effect (Call.DryRun).
	// It is implied for Mutating and Destructive tools, which must honour it.
	DryRun bool
	// Preconditions that must hold, e.g. RequireActiveScene; NewTool panics
	// on a name not in PreconditionNames. The host checks bridge_connected
	// and project_dir before calling; the editor command the tool sends
	// checks the editor-side ones (active_scene, runtime_probe,
	// game_not_breaked) and answers PreconditionFailed with the name.
	// Confirmation for Destructive tools is implied and need not be listed.
	Preconditions []string
	// DestructiveWhen lists conditions on the arguments under which one call
	// of a Mutating (or Runtime) tool destroys or overwrites: "overwrite" (a
	// boolean argument that is true) or "count>1" (a number argument above a
	// bound). Such a call needs confirm: true (the host adds it to the input
	// schema) and goes through the user's approver, as a Destructive tool's
	// calls do.
	DestructiveWhen []string
	// RunsCode declares that the tool can make code run: it writes scripts,
	// registers autoloads, plays or runs the game. Users who set the approval
	// scope "code" approve each call.
	RunsCode bool
	// MayDestroy declares that the tool itself decides, per call, whether
	// the call destroys (a batch with a delete step, say) and then refuses
	// without Call.Confirm. The SDK adds `confirm` to the input schema (an
	// input struct cannot declare it: the host owns dry_run and confirm).
	MayDestroy bool
}

// Tool is one tool of a Toolset. Build it with NewTool.
type Tool interface {
	// Name is the tool's name within its toolset.
	Name() string
	// Preconditions are the tool's declared ToolOptions.Preconditions.
	Preconditions() []string
	def() *toolDef
}

// toolDef is the one implementation of Tool.
type toolDef struct {
	name                        string
	opts                        ToolOptions
	conds                       []contract.Condition // opts.DestructiveWhen, parsed
	inSchema, outSchema         *schema.Schema
	inSchemaJSON, outSchemaJSON json.RawMessage
	// outType is Out: sdk.Send of this type is the editor answer the tool
	// passes on as its result (held to StrictAnswersEnv).
	outType reflect.Type
	invoke  func(ctx context.Context, call *Call, args json.RawMessage, tree any) (json.RawMessage, error)
}

func (d *toolDef) Name() string { return d.name }

// Preconditions implements Tool.
func (d *toolDef) Preconditions() []string { return append([]string(nil), d.opts.Preconditions...) }

func (d *toolDef) def() *toolDef { return d }

// meta is what the host is told about the tool besides its name and
// schemas. A new ToolOptions attribute the host must know is set here (and
// added to contract.ToolMeta); nothing else carries it.
func (d *toolDef) meta() contract.ToolMeta {
	return contract.ToolMeta{
		Title: d.opts.Title, Description: d.opts.Description, Safety: d.opts.Safety,
		DryRun: d.dryRun(), Confirm: d.confirm(),
		Preconditions: d.opts.Preconditions, DestructiveWhen: d.opts.DestructiveWhen, RunsCode: d.opts.RunsCode,
	}
}

func (d *toolDef) dryRun() bool   { return d.opts.DryRun || d.confirm() || d.opts.Safety == Mutating }
func (d *toolDef) confirm() bool  { return d.opts.Safety == Destructive }
func (d *toolDef) String() string { return d.name }

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// destructiveCall reports whether the arguments meet a DestructiveWhen condition.
func (d *toolDef) destructiveCall(args json.RawMessage) (string, bool) {
	if len(d.conds) == 0 {
		return "", false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return "", false
	}
	for i, c := range d.conds {
		if c.Holds(m) {
			return d.opts.DestructiveWhen[i], true
		}
	}
	return "", false
}

// NewTool defines a tool whose arguments decode into In and whose structured
// result is Out. Both must be structs (or maps with string keys): their JSON
// Schemas are generated from the types, see the package documentation for the
// tags. The host validates the arguments against the input schema before fn
// runs, so fn sees only well-typed input.
//
// NewTool panics on a programming error (an invalid name, a missing safety
// class, a type JSON cannot represent, a malformed tag), so that a mistake
// shows up the first time the toolset starts rather than as an empty schema.
func NewTool[In, Out any](name string, opts ToolOptions, fn func(ctx context.Context, call *Call, in In) (Out, error)) Tool {
	if !nameRE.MatchString(name) {
		panic(fmt.Sprintf("sdk.NewTool: tool name %q must be lower case letters, digits and '_', starting with a letter", name))
	}
	if !opts.Safety.Valid() {
		panic(fmt.Sprintf("sdk.NewTool(%q): Safety must be one of read_only, mutating, destructive, runtime (got %q)", name, opts.Safety))
	}
	if fn == nil {
		panic(fmt.Sprintf("sdk.NewTool(%q): nil function", name))
	}
	for _, p := range opts.Preconditions {
		if !slices.Contains(contract.Preconditions, p) {
			panic(fmt.Sprintf("sdk.NewTool(%q): Preconditions: unknown name %q (known: %s)", name, p, strings.Join(contract.Preconditions, ", ")))
		}
	}
	conds := make([]contract.Condition, 0, len(opts.DestructiveWhen))
	for _, w := range opts.DestructiveWhen {
		c, err := contract.ParseCondition(w)
		if err != nil {
			panic(fmt.Sprintf("sdk.NewTool(%q): DestructiveWhen %q must be an argument name (a boolean that is true) or name>N (a number above N)", name, w))
		}
		if opts.Safety == ReadOnly {
			panic(fmt.Sprintf("sdk.NewTool(%q): a ReadOnly tool cannot be DestructiveWhen %q", name, w))
		}
		conds = append(conds, c)
	}
	in, err := generateInputSchema(reflect.TypeFor[In]())
	if err != nil {
		panic(fmt.Sprintf("sdk.NewTool(%q): input type: %v", name, err))
	}
	if f, ok := reservedField(reflect.TypeFor[In]()); ok {
		panic(fmt.Sprintf("sdk.NewTool(%q): input field %q (%s.%s) is reserved: the host owns dry_run and confirm; read Call.DryRun and Call.Confirm instead", name, f.Name, reflect.TypeFor[In](), f.GoName))
	}
	if opts.MayDestroy {
		if opts.Safety == ReadOnly {
			panic(fmt.Sprintf("sdk.NewTool(%q): a ReadOnly tool cannot be MayDestroy", name))
		}
		in.AddProperty(contract.ArgConfirm, schema.Boolean("true when the call destroys or overwrites (not needed with dry_run)"))
	}
	out, err := generateSchema(reflect.TypeFor[Out]())
	if err != nil {
		panic(fmt.Sprintf("sdk.NewTool(%q): output type: %v", name, err))
	}
	inJSON, outJSON := in.JSON(), out.JSON()
	opts.Preconditions = append([]string(nil), opts.Preconditions...)
	opts.DestructiveWhen = append([]string(nil), opts.DestructiveWhen...)
	return &toolDef{
		name: name, opts: opts, conds: conds,
		inSchema: in, outSchema: out,
		inSchemaJSON: inJSON, outSchemaJSON: outJSON,
		outType: reflect.TypeFor[Out](),
		// tree is args as decoded (nil when the caller has only args):
		// filling In from it spares reading megabyte arguments again.
		invoke: func(ctx context.Context, call *Call, args json.RawMessage, tree any) (json.RawMessage, error) {
			var input In
			if tree == nil || !decodeTree(tree, &input) {
				var zero In
				input = zero
				if err := json.Unmarshal(args, &input); err != nil {
					return nil, Validation(fmt.Sprintf("arguments do not fit tool %q: %v", name, err))
				}
			}
			result, err := fn(ctx, call, input)
			if err != nil {
				return nil, err
			}
			return marshalResult(result)
		},
	}
}

// reservedField finds an input member whose JSON name is reserved.
func reservedField(t reflect.Type) (schema.Field, bool) {
	for _, f := range schema.Fields(t) {
		if slices.Contains(contract.ReservedArgs, f.Name) {
			return f, true
		}
	}
	return schema.Field{}, false
}

// marshalResult encodes a tool's result; it must be a JSON object.
func marshalResult(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, Internal(fmt.Sprintf("the tool's result cannot be encoded as JSON: %v; this is a bug in the toolset", err))
	}
	out := bytes.TrimSpace(buf.Bytes())
	if len(out) == 0 || out[0] != '{' {
		return nil, Internal("the tool returned no result object (nil); this is a bug in the toolset")
	}
	return out, nil
}

// Call is the context of one tool call.
type Call struct {
	// Tool is the called tool's name.
	Tool string
	// DryRun asks for a preview: report what would change, change nothing.
	DryRun bool
	// Confirm is true when the caller confirmed a destructive action.
	Confirm bool
	// Host reaches the editor and the host's log.
	Host Host

	mu      sync.Mutex
	content []plugmodel.Content
}

// AddText adds a text content item to the result, after the structured
// result's text form.
func (c *Call) AddText(text string) { c.AddContent(TextContent(text)) }

// AddImage adds an image content item (for example a PNG screenshot) to the
// result. mimeType is e.g. "image/png".
func (c *Call) AddImage(data []byte, mimeType string) { c.AddContent(ImageContent(data, mimeType)) }

// AddContent adds content items (TextContent, ImageContent, AudioContent,
// EmbeddedResource) to the result, after the structured result's text form.
func (c *Call) AddContent(items ...Content) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, it := range items {
		c.content = append(c.content, it.c)
	}
}

func (c *Call) takeContent() []plugmodel.Content {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.content
	c.content = nil
	return out
}

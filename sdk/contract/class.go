package contract

// Class is a tool's safety class (sdk.Safety is this type). The host
// enforces it before calling the tool: a toolset cannot declare its way
// around dry_run, confirm or a precondition. An editor command's class (the
// command table's "class") is one of the same four words.
type Class string

// The four classes of the tool surface.
const (
	// ReadOnly tools only look.
	ReadOnly Class = "read_only"
	// Mutating tools change the project or the editor; they take dry_run.
	Mutating Class = "mutating"
	// Destructive tools lose data or are hard to undo; they take dry_run and
	// refuse to run without confirm: true.
	Destructive Class = "destructive"
	// Runtime tools act on the running game.
	Runtime Class = "runtime"
)

// Classes lists the four classes, least to most powerful but Runtime.
var Classes = []Class{ReadOnly, Mutating, Destructive, Runtime}

// Valid reports whether c is one of the four classes.
func (c Class) Valid() bool {
	switch c {
	case ReadOnly, Mutating, Destructive, Runtime:
		return true
	}
	return false
}

// TakesDryRun reports whether tools of this class accept `dry_run`.
func (c Class) TakesDryRun() bool { return c == Mutating || c == Destructive }

// NeedsConfirm reports whether tools of this class refuse without `confirm: true`.
func (c Class) NeedsConfirm() bool { return c == Destructive }

// Annotations are the four MCP tool hints derived from a class.
type Annotations struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Annotations derives every MCP hint from the class; nothing is left to a library default.
func (c Class) Annotations() Annotations {
	switch c {
	case ReadOnly:
		return Annotations{ReadOnly: true, Idempotent: true}
	case Mutating:
		return Annotations{}
	case Destructive:
		return Annotations{Destructive: true}
	default: // Runtime acts on a running game, outside the project files.
		return Annotations{OpenWorld: true}
	}
}

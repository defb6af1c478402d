package debugger

// BreakpointRef names one breakpoint.
type BreakpointRef struct {
	Path string `json:"path" description:"res:// path of a GDScript file"`
	Line int    `json:"line" jsonschema:"minimum=1" description:"1-based line; it must start a statement (refused with the nearest lines with code otherwise)"`
}

// Breakpoint is one breakpoint the editor has.
type Breakpoint struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Code string `json:"code,omitempty" description:"the line's text, trimmed"`
}

// ListBreakpointsIn takes nothing.
type ListBreakpointsIn struct{}

// ListBreakpointsOut is every breakpoint of the editor.
type ListBreakpointsOut struct {
	Breakpoints []Breakpoint `json:"breakpoints" description:"sorted by path and line"`
	Count       int          `json:"count"`
}

// SetBreakpointsIn adds, removes or clears breakpoints.
type SetBreakpointsIn struct {
	Add    []BreakpointRef `json:"add,omitempty" description:"breakpoints to set"`
	Remove []BreakpointRef `json:"remove,omitempty" description:"breakpoints to remove"`
	Clear  bool            `json:"clear,omitempty" description:"remove every breakpoint first (then add is applied)"`
}

// Unchanged is a requested change that was already so.
type Unchanged struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Why  string `json:"why" description:"already set, or no breakpoint there"`
}

// SetBreakpointsOut is what changed.
type SetBreakpointsOut struct {
	Added       []Breakpoint    `json:"added"`
	Removed     []BreakpointRef `json:"removed"`
	Unchanged   []Unchanged     `json:"unchanged"`
	Breakpoints []BreakpointRef `json:"breakpoints" description:"every breakpoint after the call"`
	DryRun      bool            `json:"dry_run"`
}

// Frame is one frame of the call stack.
type Frame struct {
	Frame    int    `json:"frame" description:"0 is where the game stopped"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function"`
}

// State says whether and why the game is stopped, and where.
type State struct {
	Playing     bool    `json:"playing" description:"a game runs"`
	SessionID   int     `json:"session_id" description:"the editor's debugger session (-1: none)"`
	Stopped     bool    `json:"stopped" description:"the game is stopped in the debugger"`
	Reason      string  `json:"reason" description:"breakpoint, step, breakpoint_keyword, script_error or break_request; empty when running"`
	Message     string  `json:"message" description:"the script error's message"`
	Location    *Frame  `json:"location" description:"frame 0; null when running or stopped between frames"`
	Stack       []Frame `json:"stack" description:"innermost first"`
	CanContinue bool    `json:"can_continue" description:"false after a script error: continuing skips the rest of the failing function"`
}

// GetStateIn takes nothing.
type GetStateIn struct{}

// BreakIn stops the game.
type BreakIn struct {
	TimeoutMs int `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=60000,default=3000" description:"how long to wait for a script line to run after stopping between frames"`
}

// BreakOut is where the game stopped.
type BreakOut struct {
	State
	AlreadyStopped bool `json:"already_stopped"`
}

// StepIn moves a stopped game by one step.
type StepIn struct {
	Mode      string `json:"mode" jsonschema:"enum=into|over|out" description:"into: the next line, entering calls; over: the next line of this function; out: until this function returned"`
	TimeoutMs int    `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=300000,default=10000" description:"how long to wait for the game to stop again"`
}

// ContinueIn resumes a stopped game.
type ContinueIn struct {
	WaitMs int `json:"wait_ms,omitempty" jsonschema:"minimum=0,maximum=60000,default=300" description:"how long to wait for the next stop before answering that it runs"`
}

// MoveOut is where the game is after a step or continue.
type MoveOut struct {
	State
	From       *Frame `json:"from" description:"where it was stopped before"`
	Steps      int    `json:"steps" description:"debugger steps taken (step out takes several)"`
	RanOn      bool   `json:"ran_on" description:"the game runs (did not stop again within the time limit)"`
	GameEnded  bool   `json:"game_ended,omitempty" description:"the game exited"`
	Incomplete bool   `json:"incomplete,omitempty" description:"step out stopped before the function returned (time or step limit)"`
	Note       string `json:"note,omitempty"`
}

// VariablesIn selects variables of a frame.
type VariablesIn struct {
	Frame  int    `json:"frame,omitempty" jsonschema:"minimum=0" description:"stack frame (0: where it stopped)"`
	Scope  string `json:"scope,omitempty" jsonschema:"enum=all|local|member|global,default=all"`
	Name   string `json:"name,omitempty" description:"one variable: its elements (or characters) paged with offset/limit"`
	Offset int    `json:"offset,omitempty" jsonschema:"minimum=0" description:"first variable (or element with name) to return"`
	Limit  int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=1000,default=50"`
}

// Variable is one variable and its value.
type Variable struct {
	Name      string `json:"name"`
	Scope     string `json:"scope" description:"local, member (of self) or global"`
	Type      string `json:"type" description:"Variant type name; an object's class (Object when unknown), its value {type: Object, object_id, class, script?, node_path?}"`
	Value     any    `json:"value" description:"in the shapes of godot://docs/values; long arrays, dictionaries and strings are cut (truncated)"`
	Size      *int   `json:"size,omitempty" description:"elements or characters of the whole value"`
	Truncated bool   `json:"truncated,omitempty" description:"value was cut; read it by name with offset/limit"`
}

// VariablesOut is a page of a frame's variables, or one variable's page.
type VariablesOut struct {
	Frame      int        `json:"frame"`
	Location   Frame      `json:"location"`
	Variables  []Variable `json:"variables,omitempty"`
	Variable   *Variable  `json:"variable,omitempty" description:"with name: the variable, value holding elements offset.. of it"`
	Total      int        `json:"total,omitempty" description:"variables in the scope"`
	Offset     int        `json:"offset"`
	NextOffset int        `json:"next_offset" description:"offset of the next page, -1 when none"`
	Truncated  bool       `json:"truncated" description:"more after this page"`
}

// EvaluateIn is an expression to evaluate in a frame.
type EvaluateIn struct {
	Expression string `json:"expression" description:"a GDScript Expression: the frame's locals and self's members and methods, e.g. \"position.x + speed\""`
	Frame      int    `json:"frame,omitempty" jsonschema:"minimum=0"`
}

// EvaluateOut is the expression's value.
type EvaluateOut struct {
	Expression string   `json:"expression"`
	Frame      int      `json:"frame"`
	Location   Frame    `json:"location"`
	Type       string   `json:"type"`
	Value      any      `json:"value"`
	Size       *int     `json:"size,omitempty"`
	Truncated  bool     `json:"truncated,omitempty"`
	Errors     []string `json:"errors" description:"errors the game reported while evaluating (the value is then null)"`
}

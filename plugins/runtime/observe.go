package runtime

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// ReadIn reads a log from a cursor.
type ReadIn struct {
	Since int `json:"since,omitempty" jsonschema:"minimum=0" description:"the next_cursor of your previous call (or a play result's cursor); 0 reads everything still kept"`
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=1000,default=200" description:"most entries to return; truncated says when more are waiting"`
}

// LogEntry is one line of game output or one error.
type LogEntry struct {
	Seq            int          `json:"seq" description:"the entry's cursor position; entries are numbered without gaps"`
	Kind           string       `json:"kind" description:"log (print), rich (print_rich), error (printerr, push_error, engine and script errors), warning, or session (a game started or stopped)"`
	Text           string       `json:"text" description:"the line, or the error message (long texts are cut at 4000 characters)"`
	File           string       `json:"file,omitempty" description:"where an error happened: the innermost script frame, else the engine source file"`
	Line           int          `json:"line,omitempty"`
	Function       string       `json:"function,omitempty"`
	Stack          []StackFrame `json:"stack,omitempty" description:"the script stack of an error, innermost first"`
	Condition      string       `json:"condition,omitempty" description:"the engine's failed condition, when the message is a custom one"`
	SourceFile     string       `json:"source_file,omitempty" description:"the file that raised the error (for push_error: the engine's own source)"`
	SourceLine     int          `json:"source_line,omitempty"`
	SourceFunction string       `json:"source_function,omitempty"`
	GameTime       string       `json:"game_time,omitempty" description:"h:mm:ss.mmm since the game started, for errors"`
	Break          bool         `json:"break,omitempty" description:"this error stopped the game in the debugger"`
	Source         string       `json:"source,omitempty" description:"log_file when the line was read from the game's log file (a game that died before its output reached the editor)"`
	Session        int          `json:"session" description:"the editor's debugger session the entry came from"`
	TimeMs         int64        `json:"time_ms" description:"editor clock (ms since the editor started) when the entry arrived"`
}

// ReadOut is one page of a log.
type ReadOut struct {
	Entries      []LogEntry `json:"entries"`
	NextCursor   int        `json:"next_cursor" description:"pass as since next time"`
	Truncated    bool       `json:"truncated" description:"more entries are waiting after next_cursor"`
	Dropped      int        `json:"dropped" description:"entries after since that were discarded (the buffer is bounded) before they were read"`
	OldestCursor int        `json:"oldest_cursor" description:"the oldest entry still kept"`
	CursorReset  bool       `json:"cursor_reset" description:"since was beyond the newest entry (the editor restarted): reading started over from the oldest"`
	Playing      bool       `json:"playing" description:"a game is running now"`
}

func readLog(ctx context.Context, call *sdk.Call, command string, in ReadIn) (ReadOut, error) {
	if in.Limit == 0 {
		in.Limit = 200
	}
	out, err := sdk.Send[ReadOut](ctx, call.Host, command, in, quickTimeout)
	if out.Entries == nil {
		out.Entries = []LogEntry{}
	}
	return out, err
}

func getOutput(ctx context.Context, call *sdk.Call, in ReadIn) (ReadOut, error) {
	return readLog(ctx, call, "cmd_runtime_get_output", in)
}

func getErrors(ctx context.Context, call *sdk.Call, in ReadIn) (ReadOut, error) {
	return readLog(ctx, call, "cmd_runtime_get_errors", in)
}

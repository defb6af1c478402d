package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file attaches to every tool result the errors that appeared in the
// editor and the game since the client's previous call (a parse error in a
// script the agent did not touch, a @tool script's error, a load error, a
// game's push_error), so that an agent sees them without asking
// (GODOT_MCP_ERRORS_IN_RESULTS; docs/envelope.md "Errors attached to
// results"). After each call the host pulls them from the editor's error
// feed (cmd_error_feed, addon/lib/error_feed.gd) from the session's cursor,
// with a short timeout; the call's own result is never changed: they go
// into an extra text content block (after everything else) and _meta.

// CmdErrorFeed is the editor command the host pulls new errors with.
const CmdErrorFeed = "cmd_error_feed"

// ErrorsMetaKey is the _meta key of a tool result that carries the new
// errors (the same as its extra text block, as an object).
const ErrorsMetaKey = "godot-mcp/errors"

const (
	// maxListedErrors is how many errors one result lists (the total is
	// always given).
	maxListedErrors = 5
	// errorPullTimeout bounds the pull: the editor answers it in its next
	// frame; a busy editor's errors wait for a later call.
	errorPullTimeout = 500 * time.Millisecond
	// errorPullBackoff is how long the host stops pulling from an editor
	// that let a pull time out, so that a stuck editor does not add
	// errorPullTimeout to every call.
	errorPullBackoff = 10 * time.Second
	maxErrorMessage  = 300
)

// commandTable is the part of the bridge that knows the connected editor's
// command table (*bridge.Bridge): the host pulls only from an editor that
// declares CmdErrorFeed (an older addon, or a fake editor, does not).
type commandTable interface {
	Command(command string) (info envelope.CommandInfo, ok bool, err *contract.Error)
}

// FeedError is one error (or warning) of the feed as a result lists it.
type FeedError struct {
	Severity string `json:"severity"` // error or warning
	Source   string `json:"source"`   // editor or game
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
	Repeats  int    `json:"repeats,omitempty"` // times it came again at once (not counted in the total)
}

// feedPage is the editor's answer to CmdErrorFeed.
type feedPage struct {
	Feed       string      `json:"feed"`
	NextCursor int         `json:"next_cursor"`
	Entries    []FeedError `json:"entries"`
	Errors     int         `json:"errors"`
	Warnings   int         `json:"warnings"`
	Dropped    int         `json:"dropped"`
}

// ErrorsNote is what a result carries under _meta[ErrorsMetaKey].
type ErrorsNote struct {
	Total    int         `json:"total"`
	Errors   int         `json:"errors"`
	Warnings int         `json:"warnings"`
	Dropped  int         `json:"dropped,omitempty"` // more that the editor no longer kept
	Listed   []FeedError `json:"listed"`
	ReadMore []string    `json:"read_more"`
}

// feedCursor is where a client session reads the feed from.
type feedCursor struct {
	feed string // the feed's id: a new editor (or addon) starts a new feed
	next int
	used time.Time
	busy bool // a pull is under way
}

type errorFeed struct {
	mu      sync.Mutex
	cursors map[string]*feedCursor // client session id → cursor
	backoff time.Time
}

// attachErrors pulls the editor's new errors for the session of ctx and
// attaches them to out. It does nothing when turned off, without an editor
// that serves the feed, while another call of the session pulls, or when
// the pull fails: the call's own result never depends on it.
func (s *Server) attachErrors(ctx context.Context, out *mcp.CallToolResult) {
	if !s.cfg.ErrorsInResults || out == nil || ctx.Err() != nil {
		return
	}
	table, ok := s.bridge.(commandTable)
	if !ok {
		return
	}
	if _, declared, err := table.Command(CmdErrorFeed); err != nil || !declared {
		return
	}
	session := ""
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		session = cs.SessionID()
	}
	f := &s.errors
	f.mu.Lock()
	if time.Now().Before(f.backoff) {
		f.mu.Unlock()
		return
	}
	if f.cursors == nil {
		f.cursors = map[string]*feedCursor{}
	}
	c := f.cursors[session]
	if c == nil {
		f.prune()
		c = &feedCursor{}
		f.cursors[session] = c
	}
	if c.busy {
		f.mu.Unlock()
		return // the session's other call delivers what is new
	}
	c.busy, c.used = true, time.Now()
	since, feed := c.next, c.feed
	f.mu.Unlock()

	r := s.bridge.Send(ctx, CmdErrorFeed, map[string]any{"since": since, "feed": feed, "limit": maxListedErrors}, errorPullTimeout)
	var page feedPage
	failed := r.Err() != nil || json.Unmarshal(r.Result, &page) != nil || page.Feed == ""
	f.mu.Lock()
	c.busy = false
	if failed {
		if e := r.Err(); e != nil && e.Code == contract.Timeout {
			f.backoff = time.Now().Add(errorPullBackoff)
		}
		f.mu.Unlock()
		if e := r.Err(); e != nil {
			s.log.Debug("error feed not read", "code", e.Code, "hint", e.Hint)
		}
		return
	}
	c.feed, c.next = page.Feed, page.NextCursor
	f.mu.Unlock()
	note := newErrorsNote(page)
	if note.Total == 0 && len(note.Listed) == 0 {
		return
	}
	attachNote(out, note)
}

// prune forgets the cursors of sessions not heard from in an hour (called
// with mu held, before a new session's cursor is added).
func (f *errorFeed) prune() {
	if len(f.cursors) < 64 {
		return
	}
	for id, c := range f.cursors {
		if !c.busy && time.Since(c.used) > time.Hour {
			delete(f.cursors, id)
		}
	}
}

func newErrorsNote(page feedPage) ErrorsNote {
	note := ErrorsNote{Errors: page.Errors, Warnings: page.Warnings, Dropped: page.Dropped, Listed: []FeedError{}}
	note.Total = note.Errors + note.Warnings
	editor, game := false, false
	for i, e := range page.Entries {
		if i == maxListedErrors {
			break
		}
		if e.Severity != "warning" {
			e.Severity = "error"
		}
		if e.Source != "game" {
			e.Source = "editor"
		}
		if r := []rune(e.Message); len(r) > maxErrorMessage {
			e.Message = string(r[:maxErrorMessage]) + "…"
		}
		editor = editor || e.Source == "editor"
		game = game || e.Source == "game"
		note.Listed = append(note.Listed, e)
	}
	if note.Total < len(note.Listed) {
		note.Total = len(note.Listed)
	}
	if editor || !game {
		note.ReadMore = append(note.ReadMore, "godot_diagnostics_editor_log")
	}
	if game {
		note.ReadMore = append(note.ReadMore, "godot_runtime_get_errors")
	}
	return note
}

// attachNote adds the note to a result as its last text block and as
// _meta[ErrorsMetaKey].
func attachNote(out *mcp.CallToolResult, note ErrorsNote) {
	out.Content = append(out.Content, mcp.NewTextContent(note.Text()))
	if out.Meta == nil {
		out.Meta = &mcp.Meta{}
	}
	if out.Meta.AdditionalFields == nil {
		out.Meta.AdditionalFields = map[string]any{}
	}
	out.Meta.AdditionalFields[ErrorsMetaKey] = note
}

// Text is the note as the text block an agent reads.
func (n ErrorsNote) Text() string {
	var b strings.Builder
	var parts []string
	if n.Errors > 0 || n.Warnings == 0 {
		parts = append(parts, plural(n.Errors, "error"))
	}
	if n.Warnings > 0 {
		parts = append(parts, plural(n.Warnings, "warning"))
	}
	counts := strings.Join(parts, ", ")
	fmt.Fprintf(&b, "godot-mcp: new in the editor or game since your previous call: %s", counts)
	if len(n.Listed) < n.Total {
		fmt.Fprintf(&b, " (%d listed)", len(n.Listed))
	}
	if n.Dropped > 0 {
		fmt.Fprintf(&b, "; %d older ones were no longer kept", n.Dropped)
	}
	b.WriteString(":\n")
	for _, e := range n.Listed {
		where := e.File
		if where != "" && e.Line > 0 {
			where = fmt.Sprintf("%s:%d", e.File, e.Line)
		}
		if where == "" {
			where = "(no file)"
		}
		fmt.Fprintf(&b, "- %s [%s] %s: %s", e.Severity, e.Source, where, e.Message)
		if e.Repeats > 0 {
			fmt.Fprintf(&b, " (again %d×)", e.Repeats)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Read more with %s.", strings.Join(n.ReadMore, " or "))
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

package mcpserver

import (
	"strings"
	"testing"
)

// The note an agent reads: counts, at most five listed with file:line (or
// that there is none), long messages cut, repeats shown, and the tool that
// reads the whole stream for each source listed.
func TestErrorsNoteText(t *testing.T) {
	long := strings.Repeat("x", 500)
	page := feedPage{Errors: 7, Warnings: 0, Dropped: 2, Entries: []FeedError{
		{Severity: "error", Source: "editor", File: "res://a.gd", Line: 3, Message: "Parse Error: oops"},
		{Severity: "fatal", Source: "game", Message: long, Repeats: 2},
		{Severity: "error", Source: "editor", File: "res://b.gd", Message: "load failed"},
		{Severity: "error", Source: "editor", File: "res://c.gd", Line: 1, Message: "c"},
		{Severity: "error", Source: "editor", File: "res://d.gd", Line: 1, Message: "d"},
		{Severity: "error", Source: "editor", File: "res://e.gd", Line: 1, Message: "e"},
	}}
	n := newErrorsNote(page)
	if n.Total != 7 || len(n.Listed) != maxListedErrors || n.Listed[1].Severity != "error" || len([]rune(n.Listed[1].Message)) != maxErrorMessage+1 {
		t.Fatalf("note: %+v", n)
	}
	text := n.Text()
	for _, want := range []string{
		"since your previous call: 7 errors (5 listed); 2 older ones were no longer kept:",
		"- error [editor] res://a.gd:3: Parse Error: oops\n",
		"- error [game] (no file): xxx",
		"… (again 2×)\n",
		"- error [editor] res://b.gd: load failed\n",
		"Read more with godot_diagnostics_editor_log or godot_runtime_get_errors.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the note lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "res://e.gd") {
		t.Errorf("a sixth error is listed:\n%s", text)
	}

	one := newErrorsNote(feedPage{Warnings: 1, Entries: []FeedError{{Severity: "warning", Source: "game", File: "res://m.gd", Line: 2, Message: "w"}}})
	if text := one.Text(); !strings.Contains(text, "call: 1 warning:") || strings.Contains(text, "listed") || !strings.HasSuffix(text, "Read more with godot_runtime_get_errors.") {
		t.Errorf("one game warning:\n%s", text)
	}
}

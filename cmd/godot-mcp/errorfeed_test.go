package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// fakeFeed is an editor's error feed (addon/lib/error_feed.gd) as the host
// reads it with cmd_error_feed: numbered entries, read after a cursor,
// errors listed before warnings, at most limit.
type fakeFeed struct {
	mu      sync.Mutex
	entries []map[string]any
	sinces  []int
}

func (f *fakeFeed) add(severity, source, file string, line int, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.entries = append(f.entries, map[string]any{"severity": severity, "source": source, "file": file, "line": line, "message": message})
}

func (f *fakeFeed) handle(_ context.Context, raw json.RawMessage) (any, *contract.Error) {
	var p struct {
		Since int    `json:"since"`
		Feed  string `json:"feed"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, contract.Errorf(contract.ValidationError, "%v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sinces = append(f.sinces, p.Since)
	if p.Feed != "feed-1" {
		p.Since = 0
	}
	var errs, warns []map[string]any
	for i, e := range f.entries {
		if i+1 <= p.Since {
			continue
		}
		if e["severity"] == "warning" {
			warns = append(warns, e)
		} else {
			errs = append(errs, e)
		}
	}
	listed := append(append([]map[string]any{}, errs...), warns...)
	if len(listed) > p.Limit {
		listed = listed[:p.Limit]
	}
	return map[string]any{"feed": "feed-1", "next_cursor": len(f.entries), "entries": listed, "errors": len(errs), "warnings": len(warns), "dropped": 0}, nil
}

// rawCall is a tools/call answer as the wire carries it.
type rawCall struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Meta              struct {
		Errors *struct {
			Total    int `json:"total"`
			Errors   int `json:"errors"`
			Warnings int `json:"warnings"`
			Listed   []struct {
				Severity string `json:"severity"`
				Source   string `json:"source"`
				File     string `json:"file"`
				Line     int    `json:"line"`
				Message  string `json:"message"`
			} `json:"listed"`
			ReadMore []string `json:"read_more"`
		} `json:"godot-mcp/errors"`
	} `json:"_meta"`
}

func callRaw(t *testing.T, p *hosttest.Proc, name string, args map[string]any) rawCall {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	raw, _ := p.Request("tools/call", map[string]any{"name": name, "arguments": args})
	var r rawCall
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: %v in %s", name, err, raw)
	}
	return r
}

func dialFeed(t *testing.T, p *hosttest.Proc, feed *fakeFeed) *fakeaddon.Addon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	addon, err := fakeaddon.Dial(ctx, p.BridgeURL(), fakeaddon.WithCommands(map[string]envelope.CommandInfo{
		fakeaddon.CmdErrorFeed: fakeaddon.Command("read_only", "error", false),
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { addon.Close() })
	if feed != nil {
		addon.Handle(fakeaddon.CmdErrorFeed, feed.handle)
	}
	return addon
}

func pulls(a *fakeaddon.Addon) int {
	n := 0
	for _, c := range a.Received() {
		if c.Command == fakeaddon.CmdErrorFeed {
			n++
		}
	}
	return n
}

// Errors the editor reports reach the agent in the next result of any call
// — a core tool that never talks to the editor, a failed call, a toolset's
// tool — as a last text block and under _meta, counted and capped at 5,
// errors first; each only once; the result's own content is untouched.
func TestBinaryResultsCarryNewEditorErrors(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	feed := &fakeFeed{}
	addon := dialFeed(t, p, feed)

	// Nothing new: the result is as it always was.
	r := callRaw(t, p, "godot_get_server_info", nil)
	if r.IsError || len(r.Content) != 1 || r.Meta.Errors != nil {
		t.Fatalf("no errors yet, yet the result carries %+v", r)
	}

	for i := 1; i <= 6; i++ {
		feed.add("error", "editor", "res://broken.gd", i, "Parse Error: number "+string(rune('0'+i)))
	}
	feed.add("warning", "game", "res://main.gd", 9, "a warning")
	r = callRaw(t, p, "godot_get_server_info", nil)
	if r.IsError || len(r.Content) != 2 {
		t.Fatalf("want the result's JSON then the errors note: %+v", r)
	}
	if string(r.StructuredContent) != r.Content[0].Text || !json.Valid([]byte(r.Content[0].Text)) {
		t.Errorf("the result's own JSON changed: %s vs %s", r.StructuredContent, r.Content[0].Text)
	}
	note := r.Content[1].Text
	for _, want := range []string{"6 errors, 1 warning", "(5 listed)", "res://broken.gd:1", "res://broken.gd:5", "Parse Error: number 5", "godot_diagnostics_editor_log"} {
		if !strings.Contains(note, want) {
			t.Errorf("the note lacks %q:\n%s", want, note)
		}
	}
	if strings.Contains(note, "number 6") || strings.Contains(note, "a warning") {
		t.Errorf("more than 5 listed, or a warning before an error:\n%s", note)
	}
	m := r.Meta.Errors
	if m == nil || m.Total != 7 || m.Errors != 6 || m.Warnings != 1 || len(m.Listed) != 5 || m.Listed[0].File != "res://broken.gd" || m.Listed[0].Line != 1 || m.Listed[0].Severity != "error" {
		t.Fatalf("_meta: %+v", m)
	}

	// Delivered once: the next call carries nothing.
	if r = callRaw(t, p, "godot_get_server_info", nil); len(r.Content) != 1 || r.Meta.Errors != nil {
		t.Fatalf("errors delivered twice: %+v", r)
	}

	// A failed call carries a new game error after its error object.
	feed.add("error", "game", "res://player.gd", 12, "boom")
	addon.HandleError("cmd_get_editor_state", contract.Errorf(contract.InternalError, "it broke"))
	r = callRaw(t, p, "godot_get_editor_state", nil)
	if !r.IsError || len(r.Content) != 2 {
		t.Fatalf("failed call: %+v", r)
	}
	var e contract.Error
	if err := json.Unmarshal([]byte(r.Content[0].Text), &e); err != nil || e.Code != contract.InternalError {
		t.Errorf("the error object is not the first block: %q", r.Content[0].Text)
	}
	if note := r.Content[1].Text; !strings.Contains(note, "1 error") || !strings.Contains(note, "[game] res://player.gd:12: boom") || !strings.Contains(note, "godot_runtime_get_errors") {
		t.Errorf("game error note:\n%s", note)
	}
	if r.Meta.Errors == nil || r.Meta.Errors.Total != 1 || r.Meta.Errors.Listed[0].Source != "game" {
		t.Errorf("game error _meta: %+v", r.Meta.Errors)
	}

	// A toolset's tool (here failing: the fake editor has no scene commands).
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"}); r.IsError {
		t.Fatalf("enable scene: %s", r.StructuredContent)
	}
	feed.add("error", "editor", "res://tool.gd", 4, "a @tool script failed")
	r = callRaw(t, p, "godot_scene_get_tree", nil)
	if len(r.Content) < 2 || !strings.Contains(r.Content[len(r.Content)-1].Text, "res://tool.gd:4: a @tool script failed") {
		t.Fatalf("toolset tool: %+v", r)
	}

	// The host read the feed from its cursor each time (0, then where it stopped).
	feed.mu.Lock()
	sinces := append([]int(nil), feed.sinces...)
	feed.mu.Unlock()
	if len(sinces) < 5 || sinces[0] != 0 || sinces[2] != 7 || sinces[3] != 7 || sinces[4] != 8 {
		t.Errorf("cursors sent: %v", sinces)
	}
	p.AssertOnlyJSONRPC()
}

// GODOT_MCP_ERRORS_IN_RESULTS=false: no pull, nothing attached.
func TestBinaryErrorsInResultsOff(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_ERRORS_IN_RESULTS=false")
	p.Initialize()
	feed := &fakeFeed{}
	feed.add("error", "editor", "res://broken.gd", 1, "Parse Error")
	addon := dialFeed(t, p, feed)
	for range 2 {
		if r := callRaw(t, p, "godot_get_server_info", nil); len(r.Content) != 1 || r.Meta.Errors != nil {
			t.Fatalf("errors attached although turned off: %+v", r)
		}
	}
	if n := pulls(addon); n != 0 {
		t.Fatalf("the feed was read %d times although turned off", n)
	}
}

// An editor that does not declare the feed (an older addon, the default
// fake editor) is never asked; one that does but does not answer delays a
// call by the pull's short timeout once, then is left alone for a while.
func TestBinaryErrorFeedAbsentOrStuck(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	plain, err := fakeaddon.Dial(ctx, p.BridgeURL())
	if err != nil {
		t.Fatal(err)
	}
	if r := callRaw(t, p, "godot_get_server_info", nil); r.IsError || len(r.Content) != 1 {
		t.Fatalf("%+v", r)
	}
	if n := pulls(plain); n != 0 {
		t.Fatalf("an editor without the feed was asked %d times", n)
	}
	plain.Close()

	stuck := dialFeed(t, p, nil)
	stuck.Silence(fakeaddon.CmdErrorFeed)
	waitPeerVersion(t, p)
	for i := range 3 {
		start := time.Now()
		r := callRaw(t, p, "godot_get_server_info", nil)
		if took := time.Since(start); r.IsError || len(r.Content) != 1 || took > 3*time.Second {
			t.Fatalf("call %d with a stuck feed: took %v: %+v", i, took, r)
		}
	}
	if n := pulls(stuck); n != 1 {
		t.Fatalf("a stuck feed was asked %d times in three calls, want 1 (then left alone)", n)
	}
}

// waitPeerVersion waits until the server reports the newest editor.
func waitPeerVersion(t *testing.T, p *hosttest.Proc) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		r := call(p, "godot_get_server_info", nil)
		if strings.Contains(string(r.StructuredContent), `"connected":true`) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the editor never connected")
}

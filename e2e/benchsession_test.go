package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// benchCall is one tool call that prepares a benchmark editor.
type benchCall struct {
	tool string
	args map[string]any
}

// benchEditor is one editor shared by a family of real-editor benchmarks,
// started once so they all run under the same conditions in one run.
type benchEditor struct {
	once sync.Once
	s    *session
	err  error
}

// session starts the editor on first use, in a scratch project named with
// prefix: it waits until the editor has connected and settled (first scan
// done, the main scene open), then makes the calls setup returns, in order.
// Any failure fails every benchmark that uses it.
func (be *benchEditor) session(b *testing.B, prefix string, setup func() []benchCall) *session {
	b.Helper()
	be.once.Do(func() { be.s, be.err = startBenchEditor(prefix, setup()) })
	if be.err != nil {
		b.Fatal(be.err)
	}
	return be.s
}

func startBenchEditor(prefix string, setup []benchCall) (*session, error) {
	project, err := scratchProject(prefix)
	if err != nil {
		return nil, err
	}
	return startBenchEditorIn(project, setup)
}

// startBenchEditorIn is startBenchEditor on a project already in place.
func startBenchEditorIn(project string, setup []benchCall) (*session, error) {
	h, err := startHost("ws://127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e, err := startEditor(project, h.url)
	if err != nil {
		h.stop()
		return nil, err
	}
	closers = append(closers, func() { h.stop(); e.kill() })
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if _, err := h.waitPeer(ctx, func(i serverInfo) bool { return sameDir(i.Bridge.Peer.ProjectDir, project) }); err != nil {
		return nil, fmt.Errorf("the bench editor never connected: %v\n%s", err, e.out.String())
	}
	// Measure a settled editor: its first scan done, the main scene open.
	for {
		var st editorState
		if r, err := h.call(ctx, "godot_get_editor_state", nil); err == nil && !r.IsError && r.decode(&st) == nil && st.ActiveScene != nil && !st.Scanning {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the bench editor never settled: %v", ctx.Err())
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, c := range setup {
		if r, err := h.call(ctx, c.tool, c.args); err != nil || r.IsError {
			return nil, fmt.Errorf("%s: %v %s", c.tool, err, r.Raw)
		}
	}
	return &session{host: h, editor: e, project: project}, nil
}

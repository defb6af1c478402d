package resfs

import (
	"context"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Bounds of the wait for the editor's filesystem. Variables so that tests
// can shorten them.
var (
	// pollInterval is the pause between two cmd_resources_fs_sync polls.
	pollInterval = 200 * time.Millisecond
	// progressAfter is how long a wait runs before it reports progress.
	progressAfter = time.Second
)

// DefaultWait is how long a tool waits for the editor's filesystem scan when
// the caller gives no timeout_ms.
const DefaultWait = 15 * time.Second

// MaxWait bounds timeout_ms.
const MaxWait = 120 * time.Second

// FSChange lists the files a change wrote and removed, so that the wait can
// check the editor knows about exactly those.
type FSChange struct {
	Written []string `json:"written"`
	Removed []string `json:"removed"`
}

// fsSyncOut is the editor's answer to cmd_resources_fs_sync.
type fsSyncOut struct {
	Scanning bool     `json:"scanning"`
	Progress float64  `json:"progress"`
	Ready    bool     `json:"ready"`
	Pending  []string `json:"pending"`
}

// AwaitFilesystem polls the editor until its filesystem (EditorFileSystem)
// has caught up with change: not scanning, written files known with their
// type, class_name and UID registered, removed files gone. It waits at most
// wait and reports progress to the agent when the wait is long. It returns
// pending=true when the editor had not caught up in time (or could not be
// asked); the change itself is on disk either way. err is only ctx's error.
func AwaitFilesystem(ctx context.Context, call *sdk.Call, change FSChange, wait time.Duration) (pending bool, err error) {
	if change.Written == nil {
		change.Written = []string{}
	}
	if change.Removed == nil {
		change.Removed = []string{}
	}
	start := time.Now()
	deadline := start.Add(wait)
	for {
		st, err := sdk.Send[fsSyncOut](ctx, call.Host, "cmd_resources_fs_sync", change, 10*time.Second)
		if err != nil {
			if ctx.Err() != nil {
				return true, ctx.Err()
			}
			// The change is on disk already: say the editor may not have
			// caught up rather than failing a call whose effect happened.
			call.Host.Logger().Warn("waiting for the editor's filesystem failed", "error", err)
			return true, nil
		}
		if st.Ready {
			if time.Since(start) >= progressAfter {
				call.Host.Progress(ctx, 1, 1, "the editor's filesystem is up to date")
			}
			return false, nil
		}
		now := time.Now()
		if !now.Before(deadline) {
			return true, nil
		}
		if elapsed := now.Sub(start); elapsed >= progressAfter {
			msg := fmt.Sprintf("waiting for the editor to pick up %d file(s)", len(st.Pending))
			if st.Scanning {
				msg = fmt.Sprintf("waiting for the editor's filesystem scan (%.0f%%)", st.Progress*100)
			}
			call.Host.Progress(ctx, elapsed.Seconds(), wait.Seconds(), msg)
		}
		next := pollInterval
		if left := time.Until(deadline); left < next {
			next = left
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return true, ctx.Err()
		case <-t.C:
		}
	}
}

// WaitFor turns a timeout_ms argument into a duration (DefaultWait for 0).
func WaitFor(ms int) time.Duration {
	if ms <= 0 {
		return DefaultWait
	}
	d := time.Duration(ms) * time.Millisecond
	if d > MaxWait {
		return MaxWait
	}
	return d
}

// ShortenWaitsForTest makes AwaitFilesystem poll every poll and report
// progress after progress, until restore is called. Tests only.
func ShortenWaitsForTest(poll, progress time.Duration) (restore func()) {
	pi, pa := pollInterval, progressAfter
	pollInterval, progressAfter = poll, progress
	return func() { pollInterval, progressAfter = pi, pa }
}

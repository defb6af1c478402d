// Package resfs holds what the built-in toolsets that change files under
// res:// share (resources, scripts): res:// path arguments, the opaque
// cursors of paginated listings, and the bounded wait for the editor's
// filesystem after a change.
package resfs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// CleanPath checks a res:// path argument: inside the project (respath) and
// not hidden (a segment starting with '.', such as res://.godot, which the
// editor ignores). The project root res:// itself is allowed only when
// allowRoot is true.
func CleanPath(arg, p string, allowRoot bool) (string, error) {
	c, err := respath.Clean(p)
	if err != nil {
		e := sdk.AsError(err)
		return "", sdk.Validation(arg + ": " + e.Hint)
	}
	if c == "res://" {
		if allowRoot {
			return c, nil
		}
		return "", sdk.Validation(fmt.Sprintf("%s: name a file or folder inside the project, not res:// itself", arg))
	}
	for _, seg := range strings.Split(strings.TrimPrefix(c, "res://"), "/") {
		if strings.HasPrefix(seg, ".") {
			return "", sdk.Validation(fmt.Sprintf("%s: %q has a hidden segment %q; the editor ignores hidden files and folders (res://.godot is its private data)", arg, p, seg))
		}
	}
	return c, nil
}

// ChangeFacts are the facts every file-changing editor answer carries: whether
// the editor's filesystem was up to date already, and which files were
// written and removed.
type ChangeFacts struct {
	Ready   bool     `json:"ready"`
	Written []string `json:"written"`
	Removed []string `json:"removed"`
}

func (m ChangeFacts) change() FSChange { return FSChange{Written: m.Written, Removed: m.Removed} }

// SendChange sends a command that changes files and decodes both its result
// (Out) and the change facts every such answer carries (ready, written,
// removed).
func SendChange[Out any](ctx context.Context, call *sdk.Call, command string, params any, timeout time.Duration) (Out, ChangeFacts, error) {
	var out Out
	var m ChangeFacts
	raw, err := call.Host.Send(ctx, command, params, timeout)
	if err != nil {
		return out, m, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, m, sdk.Internal(fmt.Sprintf("the editor's answer to %s does not have the expected shape (%v); reinstall the addon so it matches the server", command, err))
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return out, m, sdk.Internal(fmt.Sprintf("the editor's answer to %s does not have the expected shape (%v); reinstall the addon so it matches the server", command, err))
	}
	return out, m, nil
}

// Settle waits for the editor after a change sent with SendChange, unless
// the editor said it was ready already; it returns rescan_pending.
func Settle(ctx context.Context, call *sdk.Call, m ChangeFacts, timeoutMS int) (bool, error) {
	if m.Ready {
		return false, nil
	}
	return AwaitFilesystem(ctx, call, m.change(), WaitFor(timeoutMS))
}

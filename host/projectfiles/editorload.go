package projectfiles

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Core addon commands that (re)load and unload one extension folder.
const (
	CmdLoad   = "cmd_ext_load"
	CmdUnload = "cmd_ext_unload"
)

const editorTimeout = 30 * time.Second

// Bridge is the part of the editor bridge the installer uses
// (*bridge.Bridge).
type Bridge interface {
	// Extensions: the connected editor's loaded extensions (folder ->
	// version) and project directory; ok false without an editor.
	Extensions() (exts map[string]string, projectDir string, ok bool)
	Send(ctx context.Context, command string, params any, timeout time.Duration) envelope.Response
}

// Installer keeps enabled toolsets' editor code installed and loaded.
type Installer struct {
	Bridge Bridge
	// ProjectDir is used when no editor is connected
	// (GODOT_MCP_PROJECT_DIR); "" for none.
	ProjectDir string
	Log        *slog.Logger

	mu sync.Mutex // one install/load at a time
}

func (in *Installer) log() *slog.Logger {
	if in.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return in.Log
}

type loadResult struct {
	Prefix   string   `json:"prefix"`
	Version  string   `json:"version"`
	Commands []string `json:"commands"`
}

// Ensure makes the editor run the toolset's current editor code: it
// installs the files into the project when they are missing or of another
// version, then has the connected editor (re)load the folder. Without an
// editor it installs only (the addon loads the folder when it starts), and
// without an editor or GODOT_MCP_PROJECT_DIR it does nothing: the first
// call with an editor connected installs it. The error is
// PRECONDITION_FAILED (required toolset_editor_code) with what to do.
func (in *Installer) Ensure(ctx context.Context, info pluginhost.ToolsetInfo) *contract.Error {
	if len(info.EditorFiles) == 0 {
		return nil
	}
	name := info.Name
	if exts, _, connected := in.Bridge.Extensions(); connected && exts[name] == info.EditorVersion {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	exts, dir, connected := in.Bridge.Extensions()
	if connected && exts[name] == info.EditorVersion {
		return nil
	}
	if dir == "" {
		dir = in.ProjectDir
	}
	if dir == "" {
		// No editor and no project: nothing can run the code now; it is
		// installed by the first call once an editor is connected.
		in.log().Info("a toolset's editor code waits for an editor (no GODOT_MCP_PROJECT_DIR)", "toolset", name)
		return nil
	}
	changed, e := InstallEditorCode(dir, name, info.EditorVersion, info.EditorFiles)
	if e != nil {
		return e
	}
	if changed {
		in.log().Info("installed a toolset's editor code", "toolset", name, "version", info.EditorVersion, "dir", EditorCodeDir(dir, name))
	}
	if !connected {
		return nil
	}
	resp := in.Bridge.Send(ctx, CmdLoad, map[string]string{"prefix": name}, editorTimeout)
	if !resp.OK {
		hint := resp.Hint
		if resp.Error == contract.InternalError && strings.Contains(hint, "no handler for") {
			hint = "the connected editor's godot-mcp addon is too old to load toolset editor code; update it with `godot-mcp addon install` and re-enable the plugin"
		}
		return contract.Precondition(RequireEditorCode, fmt.Sprintf("The editor could not load toolset %q's editor code from %s: %s. Fix it (see the editor's Output panel), then retry.", name, EditorCodeResPath(name), strings.TrimSuffix(hint, ".")))
	}
	var got loadResult
	_ = json.Unmarshal(resp.Result, &got)
	if got.Version != info.EditorVersion {
		return contract.Precondition(RequireEditorCode, fmt.Sprintf("The editor loaded toolset %q's editor code at version %q, but the toolset needs %q. Check %s%s and retry; if it persists, disable and enable the toolset.", name, got.Version, info.EditorVersion, EditorCodeResPath(name), ManifestFile))
	}
	in.log().Info("the editor loaded a toolset's editor code", "toolset", name, "version", got.Version, "commands", len(got.Commands))
	return nil
}

// Remove unloads the toolset's editor code from the connected editor and
// deletes its installed files. note says what was kept and why ("" when
// everything went).
func (in *Installer) Remove(ctx context.Context, info pluginhost.ToolsetInfo) (note string) {
	if len(info.EditorFiles) == 0 {
		return ""
	}
	name := info.Name
	in.mu.Lock()
	defer in.mu.Unlock()
	exts, dir, connected := in.Bridge.Extensions()
	var notes []string
	if connected {
		if _, loaded := exts[name]; loaded {
			if resp := in.Bridge.Send(ctx, CmdUnload, map[string]string{"prefix": name}, editorTimeout); !resp.OK {
				notes = append(notes, fmt.Sprintf("the editor did not unload it (%s); re-enable the godot-mcp plugin to drop its commands", strings.TrimSuffix(resp.Hint, ".")))
			}
		}
	}
	if dir == "" {
		dir = in.ProjectDir
	}
	if dir == "" {
		notes = append(notes, fmt.Sprintf("no project is known (no editor connected, GODOT_MCP_PROJECT_DIR unset), so %s was not removed", EditorCodeResPath(name)))
	} else if kept, err := RemoveEditorCode(dir, name); err != nil {
		notes = append(notes, fmt.Sprintf("its files in %s were not removed: %v", EditorCodeResPath(name), err))
	} else if len(kept) > 0 {
		notes = append(notes, fmt.Sprintf("kept files you changed or added: %s", fileList(name, kept)))
	}
	if len(notes) == 0 {
		return ""
	}
	note = fmt.Sprintf("Toolset %q's editor code: %s.", name, strings.Join(notes, "; "))
	in.log().Warn("a toolset's editor code was not fully removed", "toolset", name, "note", note)
	return note
}

// Package scripts is the built-in scripts toolset: GDScript files.
//
// Parse and compile errors come from Godot itself: the editor runs a
// throw-away headless Godot on the project that loads the scripts with the
// real GDScript parser and analyzer, and reports what it printed (see
// docs/scripts.md). Writes wait, bounded, for the editor's filesystem so
// that a class_name is usable on the next call.
package scripts

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/plugins/internal/resfs"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// ScriptError is one error Godot reported for a script.
type ScriptError struct {
	Path    string `json:"path" description:"the script the error is in (may be another script the checked one depends on)"`
	Line    int    `json:"line" description:"1-based line, as Godot reports it"`
	Column  int    `json:"column" description:"1-based column where the code on that line starts (Godot 4.4 gives scripts no parser column; same convention as Godot's own language server)"`
	Message string `json:"message" description:"Godot's message"`
	Kind    string `json:"kind" description:"parse (parser or analyzer) or compile"`
}

func scriptPath(arg, p string) (string, error) {
	c, err := resfs.CleanPath(arg, p, false)
	if err != nil {
		return "", err
	}
	if strings.ToLower(path.Ext(c)) != ".gd" {
		return "", sdk.Validation(fmt.Sprintf("%s: %q is not a GDScript file; give a res://….gd path", arg, c))
	}
	return c, nil
}

// ---- list ----

// ListIn filters the project's scripts.
type ListIn struct {
	Path        string `json:"path,omitempty" description:"folder to list (default res://)"`
	Recursive   *bool  `json:"recursive,omitempty" description:"include subfolders (default true)"`
	Glob        string `json:"glob,omitempty" description:"only files whose name (or res:// path, when the glob has '/') matches, e.g. \"player*.gd\""`
	ClassName   string `json:"class_name,omitempty" description:"only scripts whose class_name matches this glob, e.g. \"Enemy*\""`
	Extends     string `json:"extends,omitempty" description:"only scripts extending this engine class (inheritance counts) or class_name"`
	OnlyClasses bool   `json:"only_classes,omitempty" description:"only scripts with a class_name"`
	Limit       int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=5000" description:"most scripts in this page (default 500)"`
	Cursor      string `json:"cursor,omitempty" description:"next_cursor of the previous page"`
}

// ScriptInfo is one script file.
type ScriptInfo struct {
	Path      string `json:"path"`
	ClassName string `json:"class_name,omitempty"`
	Extends   string `json:"extends,omitempty" description:"the class it extends, as the editor read it"`
	Language  string `json:"language" description:"GDScript, CSharpScript, …"`
}

// ListOut is one page of scripts.
type ListOut struct {
	Scripts    []ScriptInfo `json:"scripts"`
	Truncated  bool         `json:"truncated"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Scanning   bool         `json:"scanning" description:"the editor was scanning: scripts being added may be missing"`
	// LinksSkipped and SkippedLinks say what the walk did not follow.
	LinksSkipped int      `json:"links_skipped,omitempty" description:"symbolic links met on the way that lead out of the project; they were not followed and nothing behind them is listed"`
	SkippedLinks []string `json:"skipped_links,omitempty" description:"the first 20 of those links (res:// paths)"`
}

func list(ctx context.Context, call *sdk.Call, in ListIn) (ListOut, error) {
	dir := "res://"
	if in.Path != "" {
		var err error
		if dir, err = resfs.CleanPath("path", in.Path, true); err != nil {
			return ListOut{}, err
		}
	}
	offset, _, err := resfs.DecodeCursor("scripts_list", in.Cursor)
	if err != nil {
		return ListOut{}, err
	}
	limit := in.Limit
	if limit == 0 {
		limit = 500
	}
	a, err := sdk.Send[struct {
		Scripts      []ScriptInfo `json:"scripts"`
		NextOffset   int          `json:"next_offset"`
		Scanning     bool         `json:"scanning"`
		LinksSkipped int          `json:"links_skipped"`
		SkippedLinks []string     `json:"skipped_links"`
	}](ctx, call.Host, "cmd_scripts_list", map[string]any{
		"path": dir, "recursive": in.Recursive == nil || *in.Recursive, "glob": in.Glob, "class_name": in.ClassName,
		"extends": in.Extends, "only_classes": in.OnlyClasses, "offset": offset, "limit": limit,
	}, 30*time.Second)
	if err != nil {
		return ListOut{}, err
	}
	out := ListOut{Scripts: a.Scripts, Scanning: a.Scanning, LinksSkipped: a.LinksSkipped, SkippedLinks: a.SkippedLinks}
	if out.Scripts == nil {
		out.Scripts = []ScriptInfo{}
	}
	if a.NextOffset > 0 {
		out.Truncated, out.NextCursor = true, resfs.EncodeCursor("scripts_list", a.NextOffset, 0)
	}
	return out, nil
}

// ---- read ----

// ReadIn selects a script and optionally a line range.
type ReadIn struct {
	Path      string `json:"path" description:"res:// path of the script"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"minimum=1" description:"first line to return (1-based, default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"minimum=1" description:"last line to return (inclusive, default: the last line)"`
}

// ReadOut is the script's source (or the requested lines).
type ReadOut struct {
	Path      string `json:"path"`
	Source    string `json:"source"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	LineCount int    `json:"line_count" description:"lines in the whole file"`
	SHA256    string `json:"sha256,omitempty" description:"sha256 of the whole file on disk"`
}

func read(ctx context.Context, call *sdk.Call, in ReadIn) (ReadOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return ReadOut{}, err
	}
	if in.EndLine != 0 && in.StartLine > in.EndLine {
		return ReadOut{}, sdk.Validation(fmt.Sprintf("start_line %d is after end_line %d", in.StartLine, in.EndLine))
	}
	return sdk.Send[ReadOut](ctx, call.Host, "cmd_scripts_read",
		map[string]any{"path": p, "start_line": in.StartLine, "end_line": in.EndLine}, 10*time.Second)
}

// ---- write ----

// WriteIn is a whole script.
type WriteIn struct {
	Path      string `json:"path" description:"res:// path of the .gd file (created with its folders when missing)"`
	Source    string `json:"source" description:"the complete new source"`
	Overwrite bool   `json:"overwrite,omitempty" description:"write over unsaved changes in the script editor (discarded)"`
	TimeoutMS int    `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor to pick the file up (default 15000)"`
}

// WriteOut reports the write and Godot's verdict on the new source.
type WriteOut struct {
	Path          string        `json:"path"`
	Created       bool          `json:"created" description:"the file did not exist before"`
	Bytes         int           `json:"bytes"`
	Valid         bool          `json:"valid" description:"Godot parsed and compiled the script without errors (false when checked is false)"`
	Errors        []ScriptError `json:"errors" description:"Godot's parse/compile errors, with line"`
	Checked       bool          `json:"checked" description:"Godot checked the new source; false when the check could not run (see check_error)"`
	CheckError    string        `json:"check_error,omitempty" description:"why Godot's check could not run"`
	ClassName     string        `json:"class_name,omitempty" description:"the script's class_name, registered in the editor unless rescan_pending"`
	UID           string        `json:"uid,omitempty"`
	Persisted     bool          `json:"persisted" description:"the file is on disk"`
	Undoable      bool          `json:"undoable" description:"godot_undo with history \"global\" restores the previous file"`
	UndoHistory   string        `json:"undo_history,omitempty"`
	RescanPending bool          `json:"rescan_pending" description:"the editor had not registered the file (class_name, UID) when the wait ended"`
	DryRun        bool          `json:"dry_run,omitempty"`
}

// writeAnswer is cmd_scripts_write's result.
type writeAnswer struct {
	WriteOut
	Validated bool `json:"validated"`
}

// checkResult is one script's verdict from cmd_scripts_validate.
type checkResult struct {
	Path      string        `json:"path"`
	Valid     bool          `json:"valid"`
	ClassName string        `json:"class_name"`
	Errors    []ScriptError `json:"errors"`
}

type validateAnswer struct {
	Results   []checkResult `json:"results"`
	Checked   int           `json:"checked"`
	Truncated bool          `json:"truncated"`
}

// writeScript sends cmd_scripts_write, waits for the editor and makes sure
// the result carries Godot's verdict.
func writeScript(ctx context.Context, call *sdk.Call, p, source string, overwrite bool, ifSHA string, timeoutMS int) (WriteOut, error) {
	a, facts, err := resfs.SendChange[writeAnswer](ctx, call, "cmd_scripts_write", map[string]any{
		"path": p, "source": source, "overwrite": overwrite, "if_sha256": ifSHA, "dry_run": call.DryRun,
	}, 90*time.Second)
	if err != nil {
		return WriteOut{}, err
	}
	out := a.WriteOut
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable = true, false, false
	} else if out.RescanPending, err = resfs.Settle(ctx, call, facts, timeoutMS); err != nil {
		return out, err
	}
	out.Checked = a.Validated
	if !a.Validated {
		// The file is written: a check that cannot run does not undo that, it
		// is reported (checked: false, valid: false) instead of a verdict.
		v, err := sdk.Send[validateAnswer](ctx, call.Host, "cmd_scripts_validate",
			map[string]any{"items": []map[string]any{{"path": p}}}, 90*time.Second)
		switch {
		case err != nil && call.DryRun:
			return out, err
		case err != nil:
			out.Valid, out.CheckError = false, sdk.AsError(err).Hint
		case len(v.Results) == 1:
			out.Checked = true
			out.Valid, out.Errors = v.Results[0].Valid, v.Results[0].Errors
			if out.ClassName == "" {
				out.ClassName = v.Results[0].ClassName
			}
		default:
			out.Valid, out.CheckError = false, "the editor checked no script"
		}
	}
	if out.Errors == nil {
		out.Errors = []ScriptError{}
	}
	return out, nil
}

func write(ctx context.Context, call *sdk.Call, in WriteIn) (WriteOut, error) {
	p, err := scriptPath("path", in.Path)
	if err != nil {
		return WriteOut{}, err
	}
	return writeScript(ctx, call, p, in.Source, in.Overwrite, "", in.TimeoutMS)
}

// ---- patch ----

// PatchIn is a list of anchored edits to one script.
type PatchIn struct {
	Path      string `json:"path" description:"res:// path of the .gd file"`
	Edits     []Edit `json:"edits" jsonschema:"minItems=1,maxItems=100" description:"applied in order, each to the result of the previous ones; all or nothing"`
	Overwrite bool   `json:"overwrite,omitempty" description:"patch over unsaved script-editor changes (discarded)"`
	TimeoutMS int    `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor (default 15000)"`
}

// PatchOut reports the patch and Godot's verdict on the result.
type PatchOut struct {
	Path          string        `json:"path"`
	Applied       []AppliedEdit `json:"applied"`
	Indent        string        `json:"indent" description:"the file's indentation style, kept: tabs, N spaces, or none"`
	LineEnding    string        `json:"line_ending" description:"lf or crlf, kept"`
	Bytes         int           `json:"bytes"`
	Valid         bool          `json:"valid"`
	Errors        []ScriptError `json:"errors"`
	Checked       bool          `json:"checked" description:"Godot checked the result; false when the check could not run (see check_error)"`
	CheckError    string        `json:"check_error,omitempty"`
	ClassName     string        `json:"class_name,omitempty"`
	Persisted     bool          `json:"persisted"`
	Undoable      bool          `json:"undoable"`
	UndoHistory   string        `json:"undo_history,omitempty"`
	RescanPending bool          `json:"rescan_pending"`
	DryRun        bool          `json:"dry_run,omitempty"`
}

func patch(ctx context.Context, call *sdk.Call, in PatchIn) (PatchOut, error) {
	p, err := scriptPath("path", in.Path)
	if err != nil {
		return PatchOut{}, err
	}
	cur, err := sdk.Send[ReadOut](ctx, call.Host, "cmd_scripts_read", map[string]any{"path": p, "start_line": 0, "end_line": 0}, 10*time.Second)
	if err != nil {
		return PatchOut{}, err
	}
	src, applied, st, err := applyEdits(cur.Source, in.Edits)
	if err != nil {
		return PatchOut{}, err
	}
	w, err := writeScript(ctx, call, p, src, in.Overwrite, cur.SHA256, in.TimeoutMS)
	if err != nil {
		return PatchOut{}, err
	}
	return PatchOut{
		Path: p, Applied: applied, Indent: st.indentName(), LineEnding: st.eolName(), Bytes: w.Bytes,
		Valid: w.Valid, Errors: w.Errors, Checked: w.Checked, CheckError: w.CheckError, ClassName: w.ClassName, Persisted: w.Persisted, Undoable: w.Undoable,
		UndoHistory: w.UndoHistory, RescanPending: w.RescanPending, DryRun: w.DryRun,
	}, nil
}

// ---- validate ----

// ValidateIn picks what to check: one file, a source text, or the project.
type ValidateIn struct {
	Path      string  `json:"path,omitempty" description:"a .gd file to check on disk; with source: where that source would live"`
	Source    *string `json:"source,omitempty" description:"a source text to check instead of the file (nothing is written)"`
	All       bool    `json:"all,omitempty" description:"check every .gd file of the project (or of folder)"`
	Folder    string  `json:"folder,omitempty" description:"with all: only scripts under this folder"`
	Limit     int     `json:"limit,omitempty" jsonschema:"minimum=1,maximum=5000" description:"with all: most scripts to check (default 2000)"`
	TimeoutMS int     `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=120000" description:"how long the check may take (default 60000)"`
}

// ValidateOut is Godot's verdict.
type ValidateOut struct {
	Valid        bool          `json:"valid" description:"no errors in any checked script"`
	Checked      int           `json:"checked" description:"scripts checked"`
	InvalidFiles []string      `json:"invalid_files"`
	Errors       []ScriptError `json:"errors"`
	Truncated    bool          `json:"truncated" description:"all: the project has more scripts than limit; the rest were not checked"`
}

// unsavedPath is where a source text without a path is checked.
const unsavedPath = "res://_godot_mcp_unsaved.gd"

var classNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func validate(ctx context.Context, call *sdk.Call, in ValidateIn) (ValidateOut, error) {
	timeout := 60 * time.Second
	if in.TimeoutMS > 0 {
		timeout = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	params := map[string]any{"timeout_ms": int(timeout.Milliseconds())}
	switch {
	case in.All:
		if in.Path != "" || in.Source != nil {
			return ValidateOut{}, sdk.Validation("all checks the whole project: leave path and source out (or drop all to check one file)")
		}
		folder := "res://"
		if in.Folder != "" {
			var err error
			if folder, err = resfs.CleanPath("folder", in.Folder, true); err != nil {
				return ValidateOut{}, err
			}
		}
		limit := in.Limit
		if limit == 0 {
			limit = 2000
		}
		params["all"], params["folder"], params["limit"] = true, folder, limit
	case in.Source != nil:
		p := unsavedPath
		if in.Path != "" {
			var err error
			if p, err = scriptPath("path", in.Path); err != nil {
				return ValidateOut{}, err
			}
		}
		params["items"] = []map[string]any{{"path": p, "source": *in.Source}}
	case in.Path != "":
		p, err := scriptPath("path", in.Path)
		if err != nil {
			return ValidateOut{}, err
		}
		params["items"] = []map[string]any{{"path": p}}
	default:
		return ValidateOut{}, sdk.Validation("say what to check: path (a file on disk), source (a text, optionally with the path it is meant for), or all: true (the whole project)")
	}
	if in.Folder != "" && !in.All {
		return ValidateOut{}, sdk.Validation("folder only applies with all: true")
	}
	a, err := withHeartbeat(ctx, call, "Godot is checking the scripts", func() (validateAnswer, error) {
		return sdk.Send[validateAnswer](ctx, call.Host, "cmd_scripts_validate", params, timeout+10*time.Second)
	})
	if err != nil {
		return ValidateOut{}, err
	}
	out := ValidateOut{Valid: true, Checked: a.Checked, Truncated: a.Truncated, InvalidFiles: []string{}, Errors: []ScriptError{}}
	for _, r := range a.Results {
		if !r.Valid {
			out.Valid = false
			out.InvalidFiles = append(out.InvalidFiles, r.Path)
		}
		out.Errors = append(out.Errors, r.Errors...)
	}
	return out, nil
}

// heartbeat is how often a long editor command reports progress.
var heartbeat = 2 * time.Second

// withHeartbeat runs fn and, while it runs, sends a progress notification
// every heartbeat so the agent sees a long check is alive.
func withHeartbeat[T any](ctx context.Context, call *sdk.Call, msg string, fn func() (T, error)) (T, error) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(stopped)
		t := time.NewTicker(heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				call.Host.Progress(ctx, time.Since(start).Seconds(), 0, fmt.Sprintf("%s (%.0f s)", msg, time.Since(start).Seconds()))
			}
		}
	}()
	v, err := fn()
	close(done)
	<-stopped
	return v, err
}

// ---- attach / detach ----

// AttachIn attaches a script to a node of the edited scene.
type AttachIn struct {
	Node      string  `json:"node" description:"node path relative to the edited scene's root (\".\" is the root), e.g. \"Player/Sprite2D\""`
	Script    string  `json:"script" description:"res:// path of the script, or a script class_name (e.g. \"Enemy\")"`
	Source    *string `json:"source,omitempty" description:"when script (a res:// path) does not exist: create it with this source (\"\": a template extending the node's class)"`
	TimeoutMS int     `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor after creating a script (default 15000)"`
}

// AttachOut reports the attachment.
type AttachOut struct {
	Node           string        `json:"node"`
	NodeType       string        `json:"node_type"`
	Script         string        `json:"script" description:"res:// path of the attached script"`
	ClassName      string        `json:"class_name,omitempty"`
	PreviousScript string        `json:"previous_script" description:"the node's script before (empty for none)"`
	Created        bool          `json:"created" description:"the script file was created by this call"`
	Scene          string        `json:"scene" description:"the edited scene"`
	SceneDirty     bool          `json:"scene_dirty" description:"the scene has unsaved changes now"`
	Persisted      bool          `json:"persisted" description:"the scene's next save keeps the change"`
	Reason         string        `json:"reason,omitempty" description:"why persisted is false"`
	Undoable       bool          `json:"undoable" description:"godot_undo reverts it (the scene's history)"`
	UndoHistory    string        `json:"undo_history,omitempty"`
	Errors         []ScriptError `json:"errors" description:"empty: the attached script compiles"`
	RescanPending  bool          `json:"rescan_pending"`
	DryRun         bool          `json:"dry_run,omitempty"`
}

func scriptRef(ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if strings.HasPrefix(ref, "res://") {
		return scriptPath("script", ref)
	}
	if !classNameRE.MatchString(ref) {
		return "", sdk.Validation(fmt.Sprintf("script %q is neither a res://….gd path nor a class_name", ref))
	}
	return ref, nil
}

func nodeArg(n string) (string, error) {
	n = strings.TrimSpace(n)
	if n == "" {
		return "", sdk.Validation("node is required: a path relative to the edited scene's root, \".\" for the root")
	}
	if strings.HasPrefix(n, "/") {
		return "", sdk.Validation(fmt.Sprintf("node %q: give a path relative to the scene root (e.g. \"Player/Sprite2D\"), not an absolute /root/… path", n))
	}
	return n, nil
}

func attach(ctx context.Context, call *sdk.Call, in AttachIn) (AttachOut, error) {
	node, err := nodeArg(in.Node)
	if err != nil {
		return AttachOut{}, err
	}
	ref, err := scriptRef(in.Script)
	if err != nil {
		return AttachOut{}, err
	}
	params := map[string]any{"node": node, "script": ref, "dry_run": call.DryRun}
	if in.Source != nil {
		if !strings.HasPrefix(ref, "res://") {
			return AttachOut{}, sdk.Validation("source creates a new script file: give script as its res://….gd path, not a class_name")
		}
		params["source"] = *in.Source
	}
	out, facts, err := resfs.SendChange[AttachOut](ctx, call, "cmd_scripts_attach", params, 90*time.Second)
	if err != nil {
		return AttachOut{}, err
	}
	if out.Errors == nil {
		out.Errors = []ScriptError{}
	}
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable, out.Reason = true, false, false, dryRunReason
		return out, nil
	}
	if !out.Persisted && out.Reason == "" {
		out.Reason = noReason
	}
	out.RescanPending, err = resfs.Settle(ctx, call, facts, in.TimeoutMS)
	return out, err
}

// DetachIn names the node.
type DetachIn struct {
	Node string `json:"node" description:"node path relative to the edited scene's root (\".\" is the root)"`
}

// DetachOut reports the detachment.
type DetachOut struct {
	Node           string `json:"node"`
	NodeType       string `json:"node_type"`
	Detached       bool   `json:"detached" description:"false when the node had no script (nothing changed)"`
	PreviousScript string `json:"previous_script"`
	Scene          string `json:"scene"`
	SceneDirty     bool   `json:"scene_dirty"`
	Persisted      bool   `json:"persisted" description:"the scene's next save keeps the change"`
	Reason         string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable       bool   `json:"undoable"`
	UndoHistory    string `json:"undo_history,omitempty"`
	DryRun         bool   `json:"dry_run,omitempty"`
}

func detach(ctx context.Context, call *sdk.Call, in DetachIn) (DetachOut, error) {
	node, err := nodeArg(in.Node)
	if err != nil {
		return DetachOut{}, err
	}
	out, err := sdk.Send[DetachOut](ctx, call.Host, "cmd_scripts_detach", map[string]any{"node": node, "dry_run": call.DryRun}, 10*time.Second)
	if err != nil {
		return DetachOut{}, err
	}
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable, out.Reason = true, false, false, dryRunReason
	} else if !out.Persisted && out.Reason == "" {
		out.Reason = noReason
	}
	return out, nil
}

// Reasons for persisted: false the editor did not give.
const (
	dryRunReason = "dry run: nothing changed"
	noReason     = "the editor gave no reason (an older addon: update it with godot-mcp addon install)"
)

// ---- get_symbols ----

// SymbolsIn names a script.
type SymbolsIn struct {
	Path string `json:"path" description:"res:// path of the .gd file"`
}

// Arg is a function or signal argument.
type Arg struct {
	Name    string `json:"name"`
	Type    string `json:"type" description:"declared type, Variant when untyped"`
	Default any    `json:"default,omitempty" description:"default value (value-codec shape) when it has one"`
}

// Function is a function declared in the script.
type Function struct {
	Name       string `json:"name"`
	Args       []Arg  `json:"args"`
	ReturnType string `json:"return_type"`
	Static     bool   `json:"static"`
	Line       int    `json:"line,omitempty" description:"1-based line of its func declaration"`
}

// Signal is a declared signal.
type Signal struct {
	Name string `json:"name"`
	Args []Arg  `json:"args"`
	Line int    `json:"line,omitempty"`
}

// Variable is a member variable.
type Variable struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Default  any    `json:"default,omitempty"`
	Exported bool   `json:"exported" description:"@export: shown in the inspector and saved with the scene"`
	Line     int    `json:"line,omitempty"`
}

// Constant is a constant (enums are listed separately).
type Constant struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	Line  int    `json:"line,omitempty"`
}

// Enum is a named enum.
type Enum struct {
	Name   string         `json:"name"`
	Values map[string]int `json:"values"`
}

// SymbolsOut is the script's outline.
type SymbolsOut struct {
	Path        string        `json:"path"`
	Valid       bool          `json:"valid" description:"false: the symbols are missing because the script does not compile (see errors)"`
	Errors      []ScriptError `json:"errors"`
	ClassName   string        `json:"class_name,omitempty"`
	Extends     string        `json:"extends" description:"the engine class at the base of the script"`
	ExtendsPath string        `json:"extends_path,omitempty" description:"res:// path of the script it extends, when it extends a script"`
	Tool        bool          `json:"tool" description:"@tool: runs in the editor"`
	Functions   []Function    `json:"functions"`
	Signals     []Signal      `json:"signals"`
	Variables   []Variable    `json:"variables"`
	Constants   []Constant    `json:"constants"`
	Enums       []Enum        `json:"enums"`
}

func getSymbols(ctx context.Context, call *sdk.Call, in SymbolsIn) (SymbolsOut, error) {
	p, err := scriptPath("path", in.Path)
	if err != nil {
		return SymbolsOut{}, err
	}
	out, err := sdk.Send[SymbolsOut](ctx, call.Host, "cmd_scripts_get_symbols", map[string]any{"path": p}, 70*time.Second)
	if err != nil {
		return SymbolsOut{}, err
	}
	if out.Errors == nil {
		out.Errors = []ScriptError{}
	}
	if out.Functions == nil {
		out.Functions = []Function{}
	}
	if out.Signals == nil {
		out.Signals = []Signal{}
	}
	if out.Variables == nil {
		out.Variables = []Variable{}
	}
	if out.Constants == nil {
		out.Constants = []Constant{}
	}
	if out.Enums == nil {
		out.Enums = []Enum{}
	}
	return out, nil
}

// Toolset is the scripts toolset.
func Toolset() sdk.Toolset {
	pre := []string{sdk.RequireBridgeConnected}
	return sdk.Toolset{
		Name:           "scripts",
		Version:        "0.2.0",
		Description:    "GDScript files: list, read, write, patch and validate scripts (errors from Godot's own parser), attach them to nodes.",
		Keywords:       []string{"GDScript", ".gd", "parse errors", "patch code", "attach script", "class_name", "symbols"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("list", sdk.ToolOptions{
				Title:         "List scripts",
				Description:   "The project's scripts with class_name, what they extend and their language; filter by folder, glob, class_name or base class. Paginated: truncated + next_cursor.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, list),
			sdk.NewTool("read", sdk.ToolOptions{
				Title:         "Read a script",
				Description:   "A script's source, whole or a line range, with the file's total line count and sha256.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, read),
			sdk.NewTool("write", sdk.ToolOptions{
				Title:           "Write a script",
				Description:     "Creates or overwrites a .gd file with a whole source, waits until the editor registered it (class_name usable on the next call) and returns Godot's parse/compile errors with lines. Refused over unsaved script-editor changes unless overwrite (discards them; needs confirm: true).",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				RunsCode:        true,
				Preconditions:   pre,
			}, write),
			sdk.NewTool("patch", sdk.ToolOptions{
				Title:           "Patch a script",
				Description:     "Replaces exact pieces of a script: each edit's old text must match exactly once (else nothing changes; the error says how often it matched). Keeps indentation style and line endings; returns Godot's errors for the result. overwrite (over unsaved script-editor changes, discarded) needs confirm: true.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				RunsCode:        true,
				Preconditions:   pre,
			}, patch),
			sdk.NewTool("validate", sdk.ToolOptions{
				Title:         "Validate scripts",
				Description:   "Godot's own parse and compile errors (with line) for one file, for a source text that is not on disk yet, or for every script of the project.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, validate),
			sdk.NewTool("attach", sdk.ToolOptions{
				Title:         "Attach a script to a node",
				Description:   "Set a node's script in the edited scene (one undoable action): an existing script by path or class_name, or a new one created from source. Refuses a script whose base class does not fit the node, or one that does not compile.",
				Safety:        sdk.Mutating,
				RunsCode:      true, // a @tool script runs in the editor once attached
				Preconditions: []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene},
			}, attach),
			sdk.NewTool("detach", sdk.ToolOptions{
				Title:         "Detach a node's script",
				Description:   "Remove the script from a node of the edited scene (one undoable action); the script file stays.",
				Safety:        sdk.Mutating,
				Preconditions: []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene},
			}, detach),
			sdk.NewTool("get_symbols", sdk.ToolOptions{
				Title:         "Get a script's symbols",
				Description:   "The script's class_name, base class, functions with signatures, signals, member variables (exported or not), constants and enums, with declaration lines, as Godot compiles the file on disk.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, getSymbols),
		},
	}
}

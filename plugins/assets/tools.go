package assets

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/resfs"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// pollInterval is the pause between two status polls while the editor
// imports (a variable so that tests can shorten it).
var pollInterval = 250 * time.Millisecond

// ---- import ----

// ImportIn says which files to bring in and where.
type ImportIn struct {
	Files     []string `json:"files" jsonschema:"minItems=1,maxItems=64" description:"absolute paths of files inside a directory of GODOT_MCP_IMPORT_ROOTS (a glTF with its .bin and textures: list them all)"`
	To        string   `json:"to" description:"res:// folder to copy them into, made if missing, e.g. res://art"`
	Overwrite bool     `json:"overwrite,omitempty" description:"replace files already there, keeping their import options (needs confirm: true)"`
	TimeoutMS int      `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=110000,default=60000" description:"how long to wait for the editor's import"`
}

// FileStatus is an imported file's state.
type FileStatus struct {
	Path       string `json:"path"`
	Source     string `json:"source,omitempty" description:"the file it was copied from"`
	Type       string `json:"type" description:"the resource type it loads as, e.g. CompressedTexture2D, AudioStreamWAV, PackedScene"`
	UID        string `json:"uid"`
	Status     string `json:"status" description:"imported, failed, not_imported (used as is), missing or pending"`
	Message    string `json:"message,omitempty" description:"the importer's messages when it failed"`
	ImportPath string `json:"import_path,omitempty" description:"its .import file"`
	Importer   string `json:"importer,omitempty"`
}

// ImportOut reports the import.
type ImportOut struct {
	Folder        string       `json:"folder"`
	CreatedFolder bool         `json:"created_folder"`
	Files         []FileStatus `json:"files"`
	Overwrote     []string     `json:"overwrote"`
	Undoable      bool         `json:"undoable" description:"one entry in the editor's global undo history removes the files again"`
	DurationMS    int64        `json:"duration_ms"`
	DryRun        bool         `json:"dry_run,omitempty" description:"nothing was written; files and overwrote say what would be"`
}

type importAnswer struct {
	Folder        string   `json:"folder"`
	CreatedFolder bool     `json:"created_folder"`
	Paths         []string `json:"paths"`
	Overwrote     []string `json:"overwrote"`
	Token         string   `json:"token"`
	LogMark       int      `json:"log_mark"`
}

type statusAnswer struct {
	Scanning bool         `json:"scanning"`
	Progress float64      `json:"progress"`
	Done     bool         `json:"done"`
	Files    []FileStatus `json:"files"`
}

type finishAnswer struct {
	Kept       bool `json:"kept"`
	RolledBack bool `json:"rolled_back"`
	Undoable   bool `json:"undoable"`
}

func importTool(ctx context.Context, call *sdk.Call, in ImportIn) (ImportOut, error) {
	start := time.Now()
	folder, err := resfs.CleanPath("to", in.To, false)
	if err != nil {
		return ImportOut{}, err
	}
	srcs, err := readSources(in.Files)
	if err != nil {
		return ImportOut{}, err
	}
	files := make([]map[string]string, len(srcs))
	for i, s := range srcs {
		files[i] = map[string]string{"name": s.Name, "data": base64.StdEncoding.EncodeToString(s.Data)}
	}
	a, err := sdk.Send[importAnswer](ctx, call.Host, "cmd_assets_import",
		map[string]any{"folder": folder, "files": files, "overwrite": in.Overwrite, "dry_run": call.DryRun}, 115*time.Second)
	if err != nil {
		return ImportOut{}, err
	}
	out := ImportOut{Folder: a.Folder, CreatedFolder: a.CreatedFolder, Overwrote: nonNil(a.Overwrote)}
	if call.DryRun {
		for i, p := range a.Paths {
			out.Files = append(out.Files, FileStatus{Path: p, Source: srcs[i].Abs, Status: "pending"})
		}
		out.DryRun = true
		out.DurationMS = time.Since(start).Milliseconds()
		return out, nil
	}
	wait := 60 * time.Second
	if in.TimeoutMS > 0 {
		wait = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	st, err := awaitImport(ctx, call, a.Paths, a.LogMark, wait)
	if err != nil {
		// The files are written; keep them (the editor goes on importing).
		_, _ = sdk.Send[finishAnswer](context.WithoutCancel(ctx), call.Host, "cmd_assets_finish", map[string]any{"token": a.Token, "keep": true}, 30*time.Second)
		return ImportOut{}, err
	}
	for i := range st.Files {
		if i < len(srcs) {
			st.Files[i].Source = srcs[i].Abs
		}
	}
	var failed []string
	for _, f := range st.Files {
		if f.Status == "failed" || f.Status == "missing" {
			msg := f.Message
			if msg == "" {
				msg = "it printed no reason; see the editor's Output"
			}
			failed = append(failed, fmt.Sprintf("%s (from %s): %s", f.Path, f.Source, msg))
		}
	}
	if len(failed) > 0 {
		fin, ferr := sdk.Send[finishAnswer](ctx, call.Host, "cmd_assets_finish", map[string]any{"token": a.Token, "keep": false}, 60*time.Second)
		what := "The import was rolled back: nothing was left in the project."
		if ferr != nil || !fin.RolledBack {
			what = fmt.Sprintf("Rolling the import back failed (%v): check %s.", ferr, folder)
		}
		return ImportOut{}, sdk.Validation(fmt.Sprintf("The editor could not import %s. %s Fix or convert the file and import it again.", strings.Join(failed, "; "), what))
	}
	fin, err := sdk.Send[finishAnswer](ctx, call.Host, "cmd_assets_finish",
		map[string]any{"token": a.Token, "keep": true, "action": fmt.Sprintf("godot-mcp: import %d file(s) into %s", len(srcs), folder)}, 30*time.Second)
	if err != nil {
		return ImportOut{}, err
	}
	out.Files = st.Files
	out.Undoable = fin.Undoable
	out.DurationMS = time.Since(start).Milliseconds()
	return out, nil
}

// awaitImport polls the editor until every path is imported (or failed),
// reporting progress; TIMEOUT when wait runs out first.
func awaitImport(ctx context.Context, call *sdk.Call, paths []string, mark int, wait time.Duration) (statusAnswer, error) {
	start := time.Now()
	deadline := start.Add(wait)
	for {
		st, err := sdk.Send[statusAnswer](ctx, call.Host, "cmd_assets_status", map[string]any{"paths": paths, "log_mark": mark}, 30*time.Second)
		if err != nil {
			return st, err
		}
		if st.Done {
			return st, nil
		}
		n := 0
		for _, f := range st.Files {
			if f.Status != "pending" {
				n++
			}
		}
		msg := fmt.Sprintf("%d of %d file(s) imported", n, len(paths))
		if st.Scanning {
			msg = fmt.Sprintf("the editor is scanning and importing (%.0f%%); %s", st.Progress*100, msg)
		}
		call.Host.Progress(ctx, float64(n), float64(len(paths)), msg)
		if !time.Now().Before(deadline) {
			var pending []string
			for _, f := range st.Files {
				if f.Status == "pending" {
					pending = append(pending, f.Path)
				}
			}
			return st, sdk.Timeout(fmt.Sprintf("the editor had not imported %s after %s; the files are in the project and the editor goes on importing them: "+
				"check later with godot_assets_get_import_options, or pass a larger timeout_ms", strings.Join(pending, ", "), wait))
		}
		t := time.NewTimer(min(pollInterval, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return st, ctx.Err()
		case <-t.C:
		}
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ---- get_import_options ----

// GetOptionsIn names the imported file.
type GetOptionsIn struct {
	Path   string `json:"path" description:"res:// path of an imported file (the source, e.g. res://art/hero.png, not its .import)"`
	Prefix string `json:"prefix,omitempty" description:"only options whose name starts with this, e.g. compress/"`
}

// Option is one import option.
type Option struct {
	Name    string `json:"name"`
	Type    string `json:"type" description:"Variant type: bool, int, float, String, Dictionary, Vector3, …"`
	Value   any    `json:"value" description:"the value in the .import file"`
	Default any    `json:"default,omitempty" description:"the importer's own default"`
	Enum    any    `json:"enum,omitempty" description:"valid values: [{value, name}] for a number, or names"`
	Range   []any  `json:"range,omitempty" description:"[min, max]; null: unbounded"`
	ClassOf string `json:"class_of,omitempty" description:"the value is a class name inheriting this"`
	File    string `json:"file,omitempty" description:"the value is a file path matching these patterns"`
	Visible *bool  `json:"visible,omitempty" description:"shown in the Import dock with the current values (some options apply only with others)"`
}

// GetOptionsOut is the file's import state and options.
type GetOptionsOut struct {
	FileStatus
	Options        []Option       `json:"options"`
	Metadata       string         `json:"metadata" description:"import_dock: types, valid values and defaults from the importer's option list; import_file: from the .import alone"`
	DefaultsSource string         `json:"defaults_source"`
	ProjectDefault map[string]any `json:"project_defaults,omitempty" description:"importer_defaults/<importer> in project.godot: what new files get instead of the importer's defaults"`
}

func getOptions(ctx context.Context, call *sdk.Call, in GetOptionsIn) (GetOptionsOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return GetOptionsOut{}, err
	}
	out, err := sdk.Send[GetOptionsOut](ctx, call.Host, "cmd_assets_get_options", map[string]any{"path": p, "prefix": in.Prefix}, 30*time.Second)
	if err != nil {
		return GetOptionsOut{}, err
	}
	if out.Options == nil {
		out.Options = []Option{}
	}
	return out, nil
}

// ---- set_import_options ----

// SetOptionsIn names the file and the options to set.
type SetOptionsIn struct {
	Path    string         `json:"path" description:"res:// path of an imported file"`
	Options map[string]any `json:"options" description:"option name -> value, e.g. {\"compress/mode\": \"Lossless\", \"compress/normal_map\": 1, \"edit/loop_mode\": \"Forward\"}; _subresources: {materials: {Name: {use_external/enabled: true, use_external/path: res://…}}} merges (null removes)"`
}

// Change is one option set.
type Change struct {
	Name string `json:"name"`
	From any    `json:"from"`
	To   any    `json:"to"`
	Now  any    `json:"now,omitempty" description:"the value in the .import file after the reimport"`
}

// SetOptionsOut reports the change.
type SetOptionsOut struct {
	Path        string   `json:"path"`
	Importer    string   `json:"importer"`
	Changes     []Change `json:"changes"`
	Type        string   `json:"type"`
	UID         string   `json:"uid"`
	Status      string   `json:"status"`
	ImportPath  string   `json:"import_path"`
	Undoable    bool     `json:"undoable"`
	UndoHistory string   `json:"undo_history,omitempty" description:"the editor history godot_undo takes it back from (global)"`
	DryRun      bool     `json:"dry_run,omitempty" description:"nothing was written or reimported; changes say what would be"`
}

func setOptions(ctx context.Context, call *sdk.Call, in SetOptionsIn) (SetOptionsOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return SetOptionsOut{}, err
	}
	if len(in.Options) == 0 {
		return SetOptionsOut{}, sdk.Validation("options: name at least one option (godot_assets_get_import_options lists them)")
	}
	out, err := sdk.Send[SetOptionsOut](ctx, call.Host, "cmd_assets_set_options", map[string]any{"path": p, "options": in.Options, "dry_run": call.DryRun}, 115*time.Second)
	if err != nil {
		return SetOptionsOut{}, err
	}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	out.DryRun = call.DryRun
	return out, nil
}

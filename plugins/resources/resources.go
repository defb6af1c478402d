// Package resources is the built-in resources toolset: files and resources under res://.
//
// Every tool names its files with res:// paths (checked with resfs.CleanPath,
// and again in the editor against symlinks that leave the project). Tools
// that change files wait, bounded, until the editor's filesystem has caught
// up (resfs.AwaitFilesystem), and say rescan_pending when it has not.
package resources

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/plugins/internal/resfs"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// UndoHistoryGlobal is where file changes are recorded: the editor's global
// undo history (godot_undo with history: "global").
const UndoHistoryGlobal = "global"

func folderArg(p string) (string, error) {
	if p == "" {
		return "res://", nil
	}
	return resfs.CleanPath("path", p, true)
}

// ---- list ----

// ListIn selects files under a folder.
type ListIn struct {
	Path      string   `json:"path,omitempty" description:"folder to list (default res://)"`
	Recursive *bool    `json:"recursive,omitempty" description:"include subfolders (default true); false also lists the folder's subfolders"`
	Types     []string `json:"types,omitempty" description:"only files whose resource type is one of these or inherits one, e.g. [\"Texture2D\", \"PackedScene\"]"`
	Glob      string   `json:"glob,omitempty" description:"only names matching this glob (* ?): the file name, or the whole res:// path when it has / (e.g. \"*.tres\")"`
	Limit     int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=5000" description:"most entries in this page (default 500)"`
	Cursor    string   `json:"cursor,omitempty" description:"next_cursor of the previous page; omit for the first page"`
}

// Entry is one file or folder.
type Entry struct {
	Path      string `json:"path"`
	Kind      string `json:"kind" description:"file or folder"`
	Type      string `json:"type,omitempty" description:"the type the editor loads the file as (Texture2D, PackedScene, GDScript, TextFile, …); empty for folders"`
	UID       string `json:"uid,omitempty" description:"uid://… when the file has one"`
	ClassName string `json:"class_name,omitempty" description:"a script's class_name"`
}

// ListOut is one page of the listing.
type ListOut struct {
	Path       string  `json:"path"`
	Entries    []Entry `json:"entries"`
	Truncated  bool    `json:"truncated" description:"more entries follow: call again with next_cursor"`
	NextCursor string  `json:"next_cursor,omitempty"`
	Scanning   bool    `json:"scanning" description:"the editor was scanning the filesystem: files being added may be missing"`
	// LinksSkipped and SkippedLinks say what the walk did not follow.
	LinksSkipped int      `json:"links_skipped,omitempty" description:"symbolic links met on the way that lead out of the project; they were not followed and nothing behind them is listed"`
	SkippedLinks []string `json:"skipped_links,omitempty" description:"the first 20 of those links (res:// paths)"`
}

type listAnswer struct {
	Entries      []Entry  `json:"entries"`
	NextOffset   int      `json:"next_offset"`
	Scanning     bool     `json:"scanning"`
	LinksSkipped int      `json:"links_skipped"`
	SkippedLinks []string `json:"skipped_links"`
}

const defaultListLimit = 500

func list(ctx context.Context, call *sdk.Call, in ListIn) (ListOut, error) {
	dir, err := folderArg(in.Path)
	if err != nil {
		return ListOut{}, err
	}
	offset, _, err := resfs.DecodeCursor("resources_list", in.Cursor)
	if err != nil {
		return ListOut{}, err
	}
	recursive := in.Recursive == nil || *in.Recursive
	limit := in.Limit
	if limit == 0 {
		limit = defaultListLimit
	}
	types := in.Types
	if types == nil {
		types = []string{}
	}
	a, err := sdk.Send[listAnswer](ctx, call.Host, "cmd_resources_list", map[string]any{
		"path": dir, "recursive": recursive, "types": types, "glob": in.Glob, "offset": offset, "limit": limit,
	}, 30*time.Second)
	if err != nil {
		return ListOut{}, err
	}
	out := ListOut{Path: dir, Entries: a.Entries, Scanning: a.Scanning, LinksSkipped: a.LinksSkipped, SkippedLinks: a.SkippedLinks}
	if out.Entries == nil {
		out.Entries = []Entry{}
	}
	if a.NextOffset > 0 {
		out.Truncated = true
		out.NextCursor = resfs.EncodeCursor("resources_list", a.NextOffset, 0)
	}
	return out, nil
}

// ---- search ----

// SearchIn is a content search in the project's text files.
type SearchIn struct {
	Query         string `json:"query" jsonschema:"minLength=1" description:"text to find; a literal unless regex is true"`
	Regex         bool   `json:"regex,omitempty" description:"query is a regular expression (PCRE2, as Godot's RegEx)"`
	CaseSensitive bool   `json:"case_sensitive,omitempty" description:"default false"`
	Path          string `json:"path,omitempty" description:"folder to search (default res://)"`
	Glob          string `json:"glob,omitempty" description:"only files whose name (or res:// path, when the glob has '/') matches, e.g. \"*.gd\""`
	MaxResults    int    `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=1000" description:"most matches in this page (default 100)"`
	Cursor        string `json:"cursor,omitempty" description:"next_cursor of the previous page"`
}

// Match is one matching line.
type Match struct {
	Path   string `json:"path"`
	Line   int    `json:"line" description:"1-based"`
	Column int    `json:"column" description:"1-based character column of the match"`
	Text   string `json:"text" description:"the line (cut to 300 characters)"`
}

// SearchOut is one page of matches.
type SearchOut struct {
	Matches       []Match  `json:"matches"`
	FilesSearched int      `json:"files_searched"`
	FilesSkipped  int      `json:"files_skipped" description:"text files over 2 MiB or unreadable"`
	Truncated     bool     `json:"truncated" description:"the search stopped early (see reason): call again with next_cursor"`
	Reason        string   `json:"reason,omitempty" description:"max_results or time_budget"`
	NextCursor    string   `json:"next_cursor,omitempty"`
	LinksSkipped  int      `json:"links_skipped,omitempty" description:"symbolic links met on the way that lead out of the project; they were not followed and nothing behind them is searched"`
	SkippedLinks  []string `json:"skipped_links,omitempty" description:"the first 20 of those links (res:// paths)"`
}

type searchAnswer struct {
	Matches       []Match  `json:"matches"`
	FilesSearched int      `json:"files_searched"`
	FilesSkipped  int      `json:"files_skipped"`
	NextOffset    int      `json:"next_offset"`
	NextSkip      int      `json:"next_skip"`
	Reason        string   `json:"reason"`
	LinksSkipped  int      `json:"links_skipped"`
	SkippedLinks  []string `json:"skipped_links"`
}

func search(ctx context.Context, call *sdk.Call, in SearchIn) (SearchOut, error) {
	dir, err := folderArg(in.Path)
	if err != nil {
		return SearchOut{}, err
	}
	offset, skip, err := resfs.DecodeCursor("resources_search", in.Cursor)
	if err != nil {
		return SearchOut{}, err
	}
	max := in.MaxResults
	if max == 0 {
		max = 100
	}
	a, err := sdk.Send[searchAnswer](ctx, call.Host, "cmd_resources_search", map[string]any{
		"query": in.Query, "regex": in.Regex, "case_sensitive": in.CaseSensitive, "path": dir, "glob": in.Glob,
		"max_results": max, "offset": offset, "skip": skip, "budget_ms": 3000,
	}, 30*time.Second)
	if err != nil {
		return SearchOut{}, err
	}
	out := SearchOut{Matches: a.Matches, FilesSearched: a.FilesSearched, FilesSkipped: a.FilesSkipped, Reason: a.Reason, LinksSkipped: a.LinksSkipped, SkippedLinks: a.SkippedLinks}
	if out.Matches == nil {
		out.Matches = []Match{}
	}
	if a.NextOffset >= 0 && a.Reason != "" {
		out.Truncated = true
		out.NextCursor = resfs.EncodeCursor("resources_search", a.NextOffset, a.NextSkip)
	}
	return out, nil
}

// ---- read ----

// ReadIn names a resource file.
type ReadIn struct {
	Path       string   `json:"path" description:"res:// path of a resource file (.tres, .res, an imported asset, …)"`
	Properties []string `json:"properties,omitempty" description:"only these, or paths into embedded resources (\"material:albedo_color\")"`
}

// SubResource is a built-in (embedded) resource inside the file.
type SubResource struct {
	ID       string `json:"id" description:"its id in the file"`
	Type     string `json:"type"`
	Property string `json:"property" description:"where it is used: a property path from the top resource, e.g. \"gradient\" or \"materials/0\""`
}

// ReadOut is a resource's type and stored properties.
type ReadOut struct {
	Path         string         `json:"path"`
	Type         string         `json:"type"`
	UID          string         `json:"uid,omitempty"`
	ScriptClass  string         `json:"script_class,omitempty" description:"class_name of the resource's script, when it has one"`
	Properties   map[string]any `json:"properties" description:"stored property values in the value-codec shapes (godot://docs/values); embedded resources inline"`
	SubResources []SubResource  `json:"sub_resources"`
	Omitted      []string       `json:"omitted" description:"properties left out because their value is larger than 64 KiB; ask for them by name"`
}

func read(ctx context.Context, call *sdk.Call, in ReadIn) (ReadOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return ReadOut{}, err
	}
	props := in.Properties
	if props == nil {
		props = []string{}
	}
	out, err := sdk.Send[ReadOut](ctx, call.Host, "cmd_resources_read", map[string]any{"path": p, "properties": props}, 30*time.Second)
	if err != nil {
		return ReadOut{}, err
	}
	if out.Properties == nil {
		out.Properties = map[string]any{}
	}
	if out.SubResources == nil {
		out.SubResources = []SubResource{}
	}
	if out.Omitted == nil {
		out.Omitted = []string{}
	}
	return out, nil
}

// ---- create ----

// CreateIn describes a new resource file.
type CreateIn struct {
	Path       string         `json:"path" description:"res:// path of the new file: .tres (text, diff-friendly) or .res (binary)"`
	Type       string         `json:"type" jsonschema:"minLength=1" description:"resource class: an engine class (\"StyleBoxFlat\", \"Gradient\", \"RectangleShape2D\") or a script class_name that extends Resource"`
	Properties map[string]any `json:"properties,omitempty" description:"initial property values in the value-codec shapes (godot://docs/values), e.g. {\"size\": {\"x\": 32, \"y\": 16}}"`
	Overwrite  bool           `json:"overwrite,omitempty" description:"replace an existing file at path (default: refuse)"`
	TimeoutMS  int            `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor to register the file (default 15000)"`
}

// CreateOut reports the new file.
type CreateOut struct {
	Path          string         `json:"path"`
	Type          string         `json:"type"`
	UID           string         `json:"uid,omitempty" description:"the new file's uid://…"`
	Created       bool           `json:"created" description:"false when an existing file was replaced"`
	Properties    map[string]any `json:"properties" description:"the values set, as stored"`
	Persisted     bool           `json:"persisted" description:"the file is on disk"`
	Undoable      bool           `json:"undoable" description:"godot_undo with history \"global\" removes it again"`
	UndoHistory   string         `json:"undo_history,omitempty"`
	RescanPending bool           `json:"rescan_pending" description:"the editor had not registered the file (type, UID) when the wait ended; call godot_resources_rescan before relying on it"`
	DryRun        bool           `json:"dry_run,omitempty"`
}

var resourceExts = map[string]bool{".tres": true, ".res": true}

func create(ctx context.Context, call *sdk.Call, in CreateIn) (CreateOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return CreateOut{}, err
	}
	if !resourceExts[strings.ToLower(path.Ext(p))] {
		return CreateOut{}, sdk.Validation(fmt.Sprintf("path %q must end in .tres (text) or .res (binary)", p))
	}
	props := in.Properties
	if props == nil {
		props = map[string]any{}
	}
	out, m, err := resfs.SendChange[CreateOut](ctx, call, "cmd_resources_create", map[string]any{
		"path": p, "type": in.Type, "properties": props, "overwrite": in.Overwrite, "dry_run": call.DryRun,
	}, 30*time.Second)
	if err != nil {
		return CreateOut{}, err
	}
	if out.Properties == nil {
		out.Properties = map[string]any{}
	}
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable = true, false, false
		return out, nil
	}
	out.RescanPending, err = resfs.Settle(ctx, call, m, in.TimeoutMS)
	return out, err
}

// ---- set_properties ----

// SetPropertiesIn changes properties of a resource file.
type SetPropertiesIn struct {
	Path       string         `json:"path" description:"res:// path of a .tres/.res file"`
	Properties map[string]any `json:"properties" jsonschema:"required" description:"name or path (\"material:albedo_color\") → value (godot://docs/values); all or nothing"`
	TimeoutMS  int            `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor (default 15000)"`
}

// PropertyChange is one property's old and new value.
type PropertyChange struct {
	Property string `json:"property"`
	Old      any    `json:"old"`
	New      any    `json:"new"`
}

// SetPropertiesOut reports the changes.
type SetPropertiesOut struct {
	Path          string           `json:"path"`
	Type          string           `json:"type"`
	Changes       []PropertyChange `json:"changes"`
	Persisted     bool             `json:"persisted" description:"the file was saved"`
	Undoable      bool             `json:"undoable"`
	UndoHistory   string           `json:"undo_history,omitempty"`
	RescanPending bool             `json:"rescan_pending"`
	DryRun        bool             `json:"dry_run,omitempty"`
	UsedBy        []string         `json:"used_by" description:"other files that refer to this one: they see the change"`
	UsedByFull    bool             `json:"used_by_complete" description:"false when the search for used_by ran out of time"`
}

func setProperties(ctx context.Context, call *sdk.Call, in SetPropertiesIn) (SetPropertiesOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return SetPropertiesOut{}, err
	}
	if len(in.Properties) == 0 {
		return SetPropertiesOut{}, sdk.Validation("properties is empty: give at least one property name and value, e.g. {\"size\": {\"x\": 32, \"y\": 16}}")
	}
	out, m, err := resfs.SendChange[SetPropertiesOut](ctx, call, "cmd_resources_set_properties", map[string]any{"path": p, "properties": in.Properties, "dry_run": call.DryRun}, 30*time.Second)
	if err != nil {
		return SetPropertiesOut{}, err
	}
	if out.Changes == nil {
		out.Changes = []PropertyChange{}
	}
	if out.UsedBy == nil {
		out.UsedBy = []string{}
	}
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable = true, false, false
		return out, nil
	}
	out.RescanPending, err = resfs.Settle(ctx, call, m, in.TimeoutMS)
	return out, err
}

// ---- move ----

// MoveIn moves or renames a file or folder.
type MoveIn struct {
	From      string `json:"from" description:"res:// path of the file or folder to move"`
	To        string `json:"to" description:"its new res:// path (must not exist; same extension for a file)"`
	TimeoutMS int    `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor (default 15000)"`
}

// MovedFile is one file that moved (sidecar .import and .uid files included).
type MovedFile struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// FileRefs is a file that refers to moved or deleted files.
type FileRefs struct {
	Path  string `json:"path"`
	Count int    `json:"count" description:"references found in it"`
}

// MoveOut reports a move.
type MoveOut struct {
	From            string      `json:"from"`
	To              string      `json:"to"`
	Moved           []MovedFile `json:"moved"`
	UpdatedRefs     []FileRefs  `json:"updated_refs" description:"text files (scenes, resources, scripts, shaders) whose references were rewritten to the new path"`
	UnchangedRefs   []FileRefs  `json:"unchanged_refs" description:"binary files (.scn, .res) that refer to a moved file: not rewritten; they still load it through its UID"`
	ProjectSettings []string    `json:"project_settings" description:"project settings that named a moved file (main scene, autoloads, …), updated and saved"`
	UID             string      `json:"uid,omitempty" description:"the moved file's UID, unchanged"`
	Persisted       bool        `json:"persisted"`
	Undoable        bool        `json:"undoable"`
	UndoHistory     string      `json:"undo_history,omitempty"`
	RescanPending   bool        `json:"rescan_pending"`
	DryRun          bool        `json:"dry_run,omitempty"`
}

func move(ctx context.Context, call *sdk.Call, in MoveIn) (MoveOut, error) {
	from, err := resfs.CleanPath("from", in.From, false)
	if err != nil {
		return MoveOut{}, err
	}
	to, err := resfs.CleanPath("to", in.To, false)
	if err != nil {
		return MoveOut{}, err
	}
	if from == to {
		return MoveOut{}, sdk.Validation(fmt.Sprintf("from and to are the same path %q", from))
	}
	if strings.HasPrefix(to, from+"/") {
		return MoveOut{}, sdk.Validation(fmt.Sprintf("cannot move %q into itself (%q)", from, to))
	}
	out, m, err := resfs.SendChange[MoveOut](ctx, call, "cmd_resources_move", map[string]any{"from": from, "to": to, "dry_run": call.DryRun}, 120*time.Second)
	if err != nil {
		return MoveOut{}, err
	}
	fillMove(&out)
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable = true, false, false
		return out, nil
	}
	out.RescanPending, err = resfs.Settle(ctx, call, m, in.TimeoutMS)
	return out, err
}

func fillMove(out *MoveOut) {
	if out.Moved == nil {
		out.Moved = []MovedFile{}
	}
	if out.UpdatedRefs == nil {
		out.UpdatedRefs = []FileRefs{}
	}
	if out.UnchangedRefs == nil {
		out.UnchangedRefs = []FileRefs{}
	}
	if out.ProjectSettings == nil {
		out.ProjectSettings = []string{}
	}
}

// ---- delete ----

// DeleteIn names a file or folder to delete.
type DeleteIn struct {
	Path      string `json:"path" description:"res:// path of the file or folder"`
	Force     bool   `json:"force,omitempty" description:"delete even though other files refer to it (they will fail to load it)"`
	Recursive bool   `json:"recursive,omitempty" description:"required to delete a folder and everything in it"`
	TimeoutMS int    `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor (default 15000)"`
}

// DeleteOut reports a deletion.
type DeleteOut struct {
	Path          string     `json:"path"`
	Deleted       []string   `json:"deleted" description:"files removed (sidecar .import and .uid files included)"`
	ReferencedBy  []FileRefs `json:"referenced_by" description:"files outside the deleted set that still refer to it (non-empty only with force)"`
	Persisted     bool       `json:"persisted"`
	Undoable      bool       `json:"undoable" description:"false when the files were too large (over 16 MiB in all) to keep for undo"`
	UndoHistory   string     `json:"undo_history,omitempty"`
	RescanPending bool       `json:"rescan_pending"`
	DryRun        bool       `json:"dry_run,omitempty"`
}

func del(ctx context.Context, call *sdk.Call, in DeleteIn) (DeleteOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return DeleteOut{}, err
	}
	out, m, err := resfs.SendChange[DeleteOut](ctx, call, "cmd_resources_delete", map[string]any{"path": p, "force": in.Force, "recursive": in.Recursive, "dry_run": call.DryRun}, 120*time.Second)
	if err != nil {
		return DeleteOut{}, err
	}
	if out.Deleted == nil {
		out.Deleted = []string{}
	}
	if out.ReferencedBy == nil {
		out.ReferencedBy = []FileRefs{}
	}
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable = true, false, false
		return out, nil
	}
	out.RescanPending, err = resfs.Settle(ctx, call, m, in.TimeoutMS)
	return out, err
}

// ---- get_dependencies ----

// DepsIn names a file.
type DepsIn struct {
	Path       string `json:"path" description:"res:// path of a file"`
	Dependents *bool  `json:"dependents,omitempty" description:"also find the files that refer to this one (default true)"`
}

// Dependency is a file this one loads.
type Dependency struct {
	Path   string `json:"path"`
	UID    string `json:"uid,omitempty"`
	Type   string `json:"type,omitempty"`
	Exists bool   `json:"exists" description:"false for a broken reference"`
}

// DepsOut lists both directions.
type DepsOut struct {
	Path               string       `json:"path"`
	UID                string       `json:"uid,omitempty"`
	Dependencies       []Dependency `json:"dependencies"`
	Dependents         []FileRefs   `json:"dependents"`
	DependentsComplete bool         `json:"dependents_complete" description:"false when dependents were not asked for, or the scan stopped at its time budget"`
}

func getDependencies(ctx context.Context, call *sdk.Call, in DepsIn) (DepsOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return DepsOut{}, err
	}
	withDependents := in.Dependents == nil || *in.Dependents
	out, err := sdk.Send[DepsOut](ctx, call.Host, "cmd_resources_get_dependencies", map[string]any{"path": p, "dependents": withDependents}, 60*time.Second)
	if err != nil {
		return DepsOut{}, err
	}
	if out.Dependencies == nil {
		out.Dependencies = []Dependency{}
	}
	if out.Dependents == nil {
		out.Dependents = []FileRefs{}
	}
	return out, nil
}

// ---- resolve_uid ----

// ResolveUIDIn is a uid:// or res:// reference.
type ResolveUIDIn struct {
	Ref string `json:"ref" description:"a uid://… or res://… reference"`
}

// ResolveUIDOut pairs the UID with its path.
type ResolveUIDOut struct {
	UID    string `json:"uid" description:"uid://… (empty when the file has none)"`
	Path   string `json:"path" description:"res://…"`
	Exists bool   `json:"exists" description:"the file exists in the project"`
}

func resolveUID(ctx context.Context, call *sdk.Call, in ResolveUIDIn) (ResolveUIDOut, error) {
	ref := strings.TrimSpace(in.Ref)
	switch {
	case strings.HasPrefix(ref, "uid://"):
		if len(ref) == len("uid://") {
			return ResolveUIDOut{}, sdk.Validation("ref \"uid://\" has no id; give the whole uid://… text")
		}
	case strings.HasPrefix(ref, "res://"):
		p, err := resfs.CleanPath("ref", ref, false)
		if err != nil {
			return ResolveUIDOut{}, err
		}
		ref = p
	default:
		return ResolveUIDOut{}, sdk.Validation(fmt.Sprintf("ref %q must start with uid:// or res://", in.Ref))
	}
	return sdk.Send[ResolveUIDOut](ctx, call.Host, "cmd_resources_resolve_uid", map[string]any{"ref": ref}, 5*time.Second)
}

// ---- rescan ----

// RescanIn bounds the wait.
type RescanIn struct {
	TimeoutMS int `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the scan to finish (default 15000)"`
}

// RescanOut reports the scan.
type RescanOut struct {
	Started       bool `json:"started" description:"a new scan was started (false when one was running already; it was waited for)"`
	RescanPending bool `json:"rescan_pending" description:"the scan had not finished when the wait ended"`
	DurationMS    int  `json:"duration_ms"`
}

func rescan(ctx context.Context, call *sdk.Call, in RescanIn) (RescanOut, error) {
	start := time.Now()
	a, err := sdk.Send[struct {
		Started bool `json:"started"`
	}](ctx, call.Host, "cmd_resources_rescan", nil, 10*time.Second)
	if err != nil {
		return RescanOut{}, err
	}
	pending, err := resfs.AwaitFilesystem(ctx, call, resfs.FSChange{}, resfs.WaitFor(in.TimeoutMS))
	return RescanOut{Started: a.Started, RescanPending: pending, DurationMS: int(time.Since(start).Milliseconds())}, err
}

// ---- reimport ----

// ReimportIn lists imported assets to reimport.
type ReimportIn struct {
	Paths     []string `json:"paths" jsonschema:"minItems=1,maxItems=1000" description:"res:// paths of imported assets (images, audio, 3D scenes, fonts, …)"`
	TimeoutMS int      `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000" description:"how long to wait for the editor afterwards (default 15000)"`
}

// Skipped is a path that was not reimported, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// ReimportOut reports the reimport.
type ReimportOut struct {
	Reimported    []string  `json:"reimported"`
	Skipped       []Skipped `json:"skipped"`
	RescanPending bool      `json:"rescan_pending"`
	DryRun        bool      `json:"dry_run,omitempty"`
}

func reimport(ctx context.Context, call *sdk.Call, in ReimportIn) (ReimportOut, error) {
	paths := make([]string, 0, len(in.Paths))
	for i, p := range in.Paths {
		c, err := resfs.CleanPath(fmt.Sprintf("paths[%d]", i), p, false)
		if err != nil {
			return ReimportOut{}, err
		}
		paths = append(paths, c)
	}
	out, m, err := resfs.SendChange[ReimportOut](ctx, call, "cmd_resources_reimport", map[string]any{"paths": paths, "dry_run": call.DryRun}, 120*time.Second)
	if err != nil {
		return ReimportOut{}, err
	}
	if out.Reimported == nil {
		out.Reimported = []string{}
	}
	if out.Skipped == nil {
		out.Skipped = []Skipped{}
	}
	if call.DryRun {
		out.DryRun = true
		return out, nil
	}
	out.RescanPending, err = resfs.Settle(ctx, call, m, in.TimeoutMS)
	return out, err
}

// Toolset is the resources toolset.
func Toolset() sdk.Toolset {
	pre := []string{sdk.RequireBridgeConnected}
	return sdk.Toolset{
		Name:           "resources",
		Version:        "0.2.0",
		Description:    "Files and resources under res://: list, search, read, create, move and delete, with references and UIDs kept intact.",
		Keywords:       []string{"res://", ".tres", "file search", "move with references", "UID", "dependencies", "reimport"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("list", sdk.ToolOptions{
				Title:         "List project files",
				Description:   "The res:// tree under a folder as the editor sees it: each file's type, UID and script class_name; filter by resource type (with inheritance) and glob. Paginated: truncated + next_cursor.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, list),
			sdk.NewTool("search", sdk.ToolOptions{
				Title:         "Search file contents",
				Description:   "Finds text (or a regex) in the project's text files (scripts, scenes, resources, shaders, project.godot, json/cfg/md): matches with line, column and text; bounded by max_results and a time budget (next_cursor).",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, search),
			sdk.NewTool("read", sdk.ToolOptions{
				Title:         "Read a resource",
				Description:   "A resource file's type, UID, stored properties (value-codec shapes, embedded resources inline) and the list of its embedded sub-resources.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, read),
			sdk.NewTool("create", sdk.ToolOptions{
				Title:           "Create a resource file",
				Description:     "Creates a .tres/.res of an engine or script resource class with typed initial properties, and waits until the editor registered it and its UID. overwrite: true replaces a file, so it needs confirm: true.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   pre,
			}, create),
			sdk.NewTool("make_image", sdk.ToolOptions{
				Title:           "Make a simple image",
				Description:     "Writes a PNG (solid, gradient, noise, checker, circle) and imports it: placeholder texture, tile atlas, sprite.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   pre,
			}, makeImage),
			sdk.NewTool("set_properties", sdk.ToolOptions{
				Title:         "Set resource properties",
				Description:   "Changes several properties of a .tres/.res file (all or nothing, value-codec typed) and saves it; old and new values. \"material:albedo_color\" changes one value of an embedded resource; used_by: files that see the change.",
				Safety:        sdk.Mutating,
				Preconditions: pre,
			}, setProperties),
			sdk.NewTool("move", sdk.ToolOptions{
				Title:         "Move or rename a file",
				Description:   "Moves or renames a file or folder with its .import/.uid sidecars, rewrites references in scenes, resources, scripts, shaders and project settings (updated_refs) and keeps the UID.",
				Safety:        sdk.Mutating,
				Preconditions: pre,
			}, move),
			sdk.NewTool("delete", sdk.ToolOptions{
				Title:         "Delete a file or folder",
				Description:   "Delete a file (with its sidecars) or, with recursive, a folder. Refused while other files refer to it unless force is true; the refusal lists them.",
				Safety:        sdk.Destructive,
				Preconditions: pre,
			}, del),
			sdk.NewTool("get_dependencies", sdk.ToolOptions{
				Title:         "Get dependencies",
				Description:   "What a file loads (dependencies, with broken ones flagged) and which files refer to it (dependents).",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, getDependencies),
			sdk.NewTool("resolve_uid", sdk.ToolOptions{
				Title:         "Resolve a UID",
				Description:   "Translate uid:// to res:// or back, and say whether the file exists.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, resolveUID),
			sdk.NewTool("rescan", sdk.ToolOptions{
				Title:         "Rescan the filesystem",
				Description:   "Make the editor scan res:// for changes made outside it and wait (bounded) until the scan and any imports are done.",
				Safety:        sdk.ReadOnly,
				Preconditions: pre,
			}, rescan),
			sdk.NewTool("reimport", sdk.ToolOptions{
				Title:         "Reimport assets",
				Description:   "Reimport imported assets (after changing their .import settings or source files) and wait until the editor is ready.",
				Safety:        sdk.Mutating,
				Preconditions: pre,
			}, reimport),
		},
	}
}

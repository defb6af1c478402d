package project

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Autoload is one autoload, as listed in project.godot's [autoload] section.
type Autoload struct {
	Name      string `json:"name"`
	Path      string `json:"path" description:"res:// path of the script or scene"`
	Singleton bool   `json:"singleton" description:"the name is a global variable in scripts (the editor's Enable column)"`
	Index     int    `json:"index" description:"position in the load order, from 0"`
}

// ListAutoloadsIn takes no arguments.
type ListAutoloadsIn struct{}

// ListAutoloadsOut lists every autoload in load order.
type ListAutoloadsOut struct {
	Autoloads []Autoload `json:"autoloads"`
}

func listAutoloads(ctx context.Context, call *sdk.Call, _ ListAutoloadsIn) (ListAutoloadsOut, error) {
	out, err := sdk.Send[ListAutoloadsOut](ctx, call.Host, "cmd_project_list_autoloads", nil, readTimeout)
	if err != nil {
		return ListAutoloadsOut{}, err
	}
	out.Autoloads = nonNil(out.Autoloads)
	return out, nil
}

// AddAutoloadIn registers a script or scene as an autoload.
type AddAutoloadIn struct {
	Name      string `json:"name" description:"the node name and, with singleton, the global variable, e.g. GameState (no class, type or keyword)"`
	Path      string `json:"path" description:"res:// path of a script extending Node (.gd) or of a scene (.tscn/.scn)"`
	Singleton bool   `json:"singleton,omitempty" jsonschema:"default=true" description:"make the name a global variable in scripts (default true)"`
	Index     *int   `json:"index,omitempty" jsonschema:"minimum=0" description:"position in the load order, from 0; default: last"`
}

// AutoloadChangeOut reports an autoload change and the resulting order.
type AutoloadChangeOut struct {
	Autoload        Autoload   `json:"autoload" description:"the autoload added or removed"`
	Autoloads       []Autoload `json:"autoloads" description:"every autoload after the change, in load order"`
	DryRun          bool       `json:"dry_run"`
	Persisted       bool       `json:"persisted" description:"project.godot was saved and read back with this [autoload] section"`
	Undoable        bool       `json:"undoable"`
	UndoAction      string     `json:"undo_action,omitempty"`
	EditorRefreshed bool       `json:"editor_refreshed" description:"the editor's autoload list (and the global name in scripts) was updated at once"`
}

func addAutoload(ctx context.Context, call *sdk.Call, in AddAutoloadIn) (AutoloadChangeOut, error) {
	if err := checkAutoloadName(in.Name); err != nil {
		return AutoloadChangeOut{}, err
	}
	p, err := respath.Clean(in.Path)
	if err != nil {
		return AutoloadChangeOut{}, err
	}
	if p == "res://" {
		return AutoloadChangeOut{}, sdk.Validation("path: give a script or scene file, e.g. res://autoload/game_state.gd")
	}
	index := -1
	if in.Index != nil {
		index = *in.Index
	}
	params := map[string]any{"name": in.Name, "path": p, "singleton": in.Singleton, "index": index, "dry_run": call.DryRun}
	out, err := sdk.Send[AutoloadChangeOut](ctx, call.Host, "cmd_project_add_autoload", params, editTimeout)
	if err != nil {
		return AutoloadChangeOut{}, err
	}
	out.Autoloads = nonNil(out.Autoloads)
	return out, nil
}

// RemoveAutoloadIn names the autoload to remove.
type RemoveAutoloadIn struct {
	Name string `json:"name" description:"the autoload's name"`
}

func removeAutoload(ctx context.Context, call *sdk.Call, in RemoveAutoloadIn) (AutoloadChangeOut, error) {
	if strings.TrimSpace(in.Name) == "" {
		return AutoloadChangeOut{}, sdk.Validation("name: give the autoload's name (godot_project_list_autoloads lists them)")
	}
	params := map[string]any{"name": in.Name, "dry_run": call.DryRun}
	out, err := sdk.Send[AutoloadChangeOut](ctx, call.Host, "cmd_project_remove_autoload", params, editTimeout)
	if err != nil {
		return AutoloadChangeOut{}, err
	}
	out.Autoloads = nonNil(out.Autoloads)
	return out, nil
}

// gdscriptReserved are names an autoload cannot take: GDScript keywords and
// built-in constants (the editor asks the script languages for theirs).
var gdscriptReserved = map[string]bool{
	"if": true, "elif": true, "else": true, "for": true, "while": true, "match": true, "when": true,
	"break": true, "continue": true, "pass": true, "return": true, "class": true, "class_name": true,
	"extends": true, "is": true, "in": true, "as": true, "self": true, "super": true, "signal": true,
	"func": true, "static": true, "const": true, "enum": true, "var": true, "breakpoint": true,
	"preload": true, "await": true, "yield": true, "assert": true, "void": true, "and": true, "or": true,
	"not": true, "true": true, "false": true, "null": true, "PI": true, "TAU": true, "INF": true, "NAN": true,
	"tool": true, "trait": true, "namespace": true,
}

// checkAutoloadName applies the identifier and keyword parts of the editor's
// rule; the editor checks the class, type and global-name collisions.
func checkAutoloadName(name string) error {
	if name == "" {
		return sdk.Validation("name: give the autoload's name, e.g. GameState")
	}
	for i, r := range name {
		if r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) {
			continue
		}
		return sdk.Validation(fmt.Sprintf("name: %q is not a valid identifier (letters, digits and _, not starting with a digit), e.g. GameState", name))
	}
	if gdscriptReserved[name] {
		return sdk.Validation(fmt.Sprintf("name: %q is a GDScript keyword or constant; pick another name, e.g. %sManager", name, strings.ToUpper(name[:1])+name[1:]))
	}
	return nil
}

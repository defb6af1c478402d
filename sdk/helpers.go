package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
)

// Subdir is the directory dir of fsys as a file system of its own: what
// Toolset.EditorCode and Toolset.GameCode take from a go:embed directory,
// so that handlers.gd (or game.gd) is at its root:
//
//	//go:embed editor
//	var editorFiles embed.FS
//
//	EditorCode: sdk.Subdir(editorFiles, "editor"),
//
// Subdir panics when dir is not a valid path or not a directory of fsys, as
// NewTool panics on a programming error, so that a misspelt directory shows
// up the first time the toolset starts.
func Subdir(fsys fs.FS, dir string) fs.FS {
	info, err := fs.Stat(fsys, dir)
	if err != nil {
		panic(fmt.Sprintf("sdk.Subdir(%q): %v", dir, err))
	}
	if !info.IsDir() {
		panic(fmt.Sprintf("sdk.Subdir(%q): not a directory", dir))
	}
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(fmt.Sprintf("sdk.Subdir(%q): %v", dir, err))
	}
	return sub
}

// Params turns a tool's input (a struct with JSON tags, as the tool
// received it) into the params of an editor command: a map of its JSON
// names, with omitempty fields that were left out absent so the editor's
// defaults apply, and numbers kept exactly as written. Add what the command
// needs beyond the input (dry_run, a resolved path) to the map:
//
//	p, err := sdk.Params(in)
//	if err != nil {
//		return Out{}, err
//	}
//	p["dry_run"] = call.DryRun
//	return sdk.Send[Out](ctx, call.Host, "cmd_hello_edit", p, 0)
//
// A nil input is an empty map. An input that does not marshal to a JSON
// object is an INTERNAL_ERROR (a bug in the toolset).
func Params(in any) (map[string]any, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, Internal(fmt.Sprintf("params from %T: %v; this is a bug in the toolset", in, err))
	}
	if bytes.Equal(b, []byte("null")) {
		return map[string]any{}, nil
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, Internal(fmt.Sprintf("params from %T: not a JSON object; this is a bug in the toolset", in))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	m := map[string]any{}
	if err := dec.Decode(&m); err != nil {
		return nil, Internal(fmt.Sprintf("params from %T: %v; this is a bug in the toolset", in, err))
	}
	return m, nil
}

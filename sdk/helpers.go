package sdk

import (
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

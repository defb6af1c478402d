package sdk

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// Limits on a toolset's editor code, so a Describe stays small.
const (
	maxEditorFiles = 64
	maxEditorBytes = 4 << 20
)

// editorFileExts are the files a toolset may ship into the editor.
var editorFileExts = map[string]bool{".gd": true, ".tscn": true, ".tres": true, ".json": true, ".cfg": true, ".txt": true, ".md": true, ".svg": true, ".png": true}

// readEditorCode reads Toolset.EditorCode: every regular file, sorted by
// path, and a version derived from their paths and contents.
func readEditorCode(ts Toolset) ([]plugmodel.EditorFile, string, error) {
	if ts.EditorCode == nil {
		return nil, "", nil
	}
	var files []plugmodel.EditorFile
	total := 0
	err := fs.WalkDir(ts.EditorCode, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		if !editorFileExts[strings.ToLower(path.Ext(p))] {
			return fmt.Errorf("%s: only %s files may be shipped into the editor", p, extList())
		}
		b, err := fs.ReadFile(ts.EditorCode, p)
		if err != nil {
			return err
		}
		total += len(b)
		files = append(files, plugmodel.EditorFile{Path: p, Content: b})
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("toolset %q: EditorCode: %w", ts.Name, err)
	}
	if len(files) > maxEditorFiles || total > maxEditorBytes {
		return nil, "", fmt.Errorf("toolset %q: EditorCode has %d files, %d bytes (at most %d files, %d bytes)", ts.Name, len(files), total, maxEditorFiles, maxEditorBytes)
	}
	has := false
	for _, f := range files {
		has = has || f.Path == "handlers.gd"
	}
	if !has {
		return nil, "", fmt.Errorf("toolset %q: EditorCode has no handlers.gd at its root (the addon loads <toolset>/handlers.gd); use fs.Sub to strip a directory", ts.Name)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, editorCodeVersion(files), nil
}

// editorCodeVersion is the version stamp of a set of editor files: the
// first 16 hex digits of a SHA-256 over their paths and contents.
func editorCodeVersion(files []plugmodel.EditorFile) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Path, len(f.Content))
		h.Write(f.Content)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func extList() string {
	var out []string
	for e := range editorFileExts {
		out = append(out, e)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

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

// editorFileExts are the files a toolset may ship into the editor (and the game).
var editorFileExts = map[string]bool{".gd": true, ".tscn": true, ".tres": true, ".json": true, ".cfg": true, ".txt": true, ".md": true, ".svg": true, ".png": true}

// gameDir is the folder of a toolset's installed code that holds its game
// code (Toolset.GameCode): res://addons/godot_mcp_ext/<Name>/game/, whose
// game.gd the runtime probe loads when a game starts.
const gameDir = "game"

// probePrefix is the runtime probe's own message prefix: no toolset named
// so may ship game code.
const probePrefix = "godot_mcp"

// readEditorCode reads Toolset.EditorCode and Toolset.GameCode: every
// regular file, sorted by path (game code under gameDir/), and a version
// derived from their paths and contents.
func readEditorCode(ts Toolset) ([]plugmodel.EditorFile, string, error) {
	if ts.EditorCode == nil && ts.GameCode == nil {
		return nil, "", nil
	}
	var files []plugmodel.EditorFile
	if ts.EditorCode != nil {
		ed, err := readCodeFS(ts.EditorCode, "")
		if err != nil {
			return nil, "", fmt.Errorf("toolset %q: EditorCode: %w", ts.Name, err)
		}
		if !hasFile(ed, "handlers.gd") {
			return nil, "", fmt.Errorf("toolset %q: EditorCode has no handlers.gd at its root (the addon loads <toolset>/handlers.gd); use sdk.Subdir to strip a directory", ts.Name)
		}
		for _, f := range ed {
			if strings.HasPrefix(f.Path, gameDir+"/") {
				return nil, "", fmt.Errorf("toolset %q: EditorCode has %s: the folder %s/ is where GameCode is installed; move the file, or ship game code as GameCode", ts.Name, f.Path, gameDir)
			}
		}
		files = ed
	}
	if ts.GameCode != nil {
		if ts.Name == probePrefix {
			return nil, "", fmt.Errorf("toolset %q: GameCode: %q is the runtime probe's own message prefix; rename the toolset", ts.Name, probePrefix)
		}
		game, err := readCodeFS(ts.GameCode, gameDir+"/")
		if err != nil {
			return nil, "", fmt.Errorf("toolset %q: GameCode: %w", ts.Name, err)
		}
		if !hasFile(game, gameDir+"/game.gd") {
			return nil, "", fmt.Errorf("toolset %q: GameCode has no game.gd at its root (the probe loads <toolset>/%s/game.gd); use sdk.Subdir to strip a directory", ts.Name, gameDir)
		}
		files = append(files, game...)
	}
	total := 0
	for _, f := range files {
		total += len(f.Content)
	}
	if len(files) > maxEditorFiles || total > maxEditorBytes {
		return nil, "", fmt.Errorf("toolset %q: EditorCode and GameCode have %d files, %d bytes (at most %d files, %d bytes)", ts.Name, len(files), total, maxEditorFiles, maxEditorBytes)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, editorCodeVersion(files), nil
}

func hasFile(files []plugmodel.EditorFile, p string) bool {
	for _, f := range files {
		if f.Path == p {
			return true
		}
	}
	return false
}

// readCodeFS reads every regular file of fsys, its path prefixed with prefix.
func readCodeFS(fsys fs.FS, prefix string) ([]plugmodel.EditorFile, error) {
	var files []plugmodel.EditorFile
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
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
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, plugmodel.EditorFile{Path: prefix + p, Content: b})
		if len(files) > maxEditorFiles {
			return fmt.Errorf("more than %d files", maxEditorFiles)
		}
		return nil
	})
	return files, err
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

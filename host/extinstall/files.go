// Package extinstall installs a toolset's editor code (its GDScript) into
// the project as res://addons/godot_mcp_ext/<toolset>/, with a version
// stamp, has the connected editor load it without a plugin toggle, checks
// before each call that the editor runs the current version, and unloads
// and removes it on disable. It never overwrites or deletes a file the user
// changed since godot-mcp installed it: that is refused (or kept) and said.
package extinstall

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
)

// Root is where extensions live, relative to the project directory.
const Root = "addons/godot_mcp_ext"

// StampFile records, inside a toolset's folder, which version godot-mcp
// installed and each file's SHA-256; the addon reports its version.
const StampFile = ".godot_mcp_stamp.json"

// RequireEditorCode is the `required` of a call refused because the
// toolset's editor code is missing, stale or cannot be installed.
const RequireEditorCode = "toolset_editor_code"

// Stamp is the content of StampFile.
type Stamp struct {
	Toolset string            `json:"toolset"`
	Version string            `json:"version"`
	Files   map[string]string `json:"files"` // slash path -> hex SHA-256
}

// Dir is the toolset's folder in the project.
func Dir(projectDir, toolset string) string {
	return filepath.Join(projectDir, filepath.FromSlash(Root), toolset)
}

// ResPath is the toolset's folder as Godot names it.
func ResPath(toolset string) string { return "res://" + Root + "/" + toolset + "/" }

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// ReadStamp reads the stamp of the toolset's folder; nil when absent.
func ReadStamp(projectDir, toolset string) (*Stamp, error) {
	b, err := os.ReadFile(filepath.Join(Dir(projectDir, toolset), StampFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s Stamp
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %w", StampFile, err)
	}
	return &s, nil
}

// edited lists the stamped files whose content on disk no longer matches
// what godot-mcp installed (a deleted file is not an edit).
func edited(projectDir, toolset string, st *Stamp) []string {
	var out []string
	for p, h := range st.Files {
		b, err := os.ReadFile(filepath.Join(Dir(projectDir, toolset), filepath.FromSlash(p)))
		if err == nil && sum(b) != h {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func refuse(hint string) *envelope.Error {
	return envelope.Precondition(RequireEditorCode, hint)
}

func fileList(toolset string, files []string) string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = ResPath(toolset) + f
	}
	return strings.Join(out, ", ")
}

// Install writes the toolset's editor files and stamp into the project,
// unless they are already there at this version. It refuses (and writes
// nothing) when the folder exists without a godot-mcp stamp or a stamped
// file was edited by the user. changed reports whether anything was written.
func Install(projectDir, toolset, version string, files []pluginhost.EditorFile) (changed bool, e *envelope.Error) {
	dir := Dir(projectDir, toolset)
	if _, err := os.Stat(filepath.Join(projectDir, "project.godot")); err != nil {
		return false, refuse(fmt.Sprintf("Toolset %q's editor code cannot be installed: %s has no project.godot, so it is not a Godot project. Connect the editor of your project (or set GODOT_MCP_PROJECT_DIR to it) and retry.", toolset, projectDir))
	}
	st, err := ReadStamp(projectDir, toolset)
	if err != nil {
		return false, refuse(fmt.Sprintf("Cannot read %s%s (%v). Delete the folder %s and enable toolset %q again.", ResPath(toolset), StampFile, err, ResPath(toolset), toolset))
	}
	if st == nil {
		if _, err := os.Stat(dir); err == nil {
			return false, refuse(fmt.Sprintf("The folder %s exists but was not installed by godot-mcp (it has no %s), so its editor code was not written over it. Move it away (or delete it) and enable toolset %q again.", ResPath(toolset), StampFile, toolset))
		}
	} else if ed := edited(projectDir, toolset, st); len(ed) > 0 {
		return false, refuse(fmt.Sprintf("Toolset %q's editor code was changed in the project since godot-mcp installed it: %s. It was not overwritten. Save your edits elsewhere, delete the folder %s, and enable toolset %q again (godot_disable_toolset then godot_enable_toolset) to reinstall version %s.", toolset, fileList(toolset, ed), ResPath(toolset), toolset, version))
	}
	want := Stamp{Toolset: toolset, Version: version, Files: map[string]string{}}
	for _, f := range files {
		want.Files[f.Path] = sum(f.Content)
	}
	if st != nil && st.Version == version && sameFiles(projectDir, toolset, want) {
		return false, nil
	}
	for _, f := range files {
		target := filepath.Join(dir, filepath.FromSlash(path.Clean(f.Path)))
		if err := writeFile(target, f.Content); err != nil {
			return true, envelope.Errorf(envelope.InternalError, "Could not install toolset %q's editor code into %s: %v. Check that the project folder is writable, then enable the toolset again.", toolset, ResPath(toolset), err)
		}
	}
	if st != nil { // files of the old version that the new one no longer ships
		for p := range st.Files {
			if _, keep := want.Files[p]; !keep {
				_ = os.Remove(filepath.Join(dir, filepath.FromSlash(p)))
			}
		}
	}
	b, _ := json.MarshalIndent(want, "", "\t")
	if err := writeFile(filepath.Join(dir, StampFile), append(b, '\n')); err != nil {
		return true, envelope.Errorf(envelope.InternalError, "Could not write %s%s: %v.", ResPath(toolset), StampFile, err)
	}
	return true, nil
}

// sameFiles reports whether every file of want is on disk with its hash.
func sameFiles(projectDir, toolset string, want Stamp) bool {
	for p, h := range want.Files {
		b, err := os.ReadFile(filepath.Join(Dir(projectDir, toolset), filepath.FromSlash(p)))
		if err != nil || sum(b) != h {
			return false
		}
	}
	return true
}

func writeFile(target string, content []byte) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	tmp := target + ".godot_mcp_tmp"
	if err := os.WriteFile(tmp, content, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, target)
}

// Remove deletes the files godot-mcp installed for the toolset, its stamp,
// and the folders left empty. Files the user edited or added are kept and
// listed in kept. A folder without a stamp is not touched.
func Remove(projectDir, toolset string) (kept []string, err error) {
	dir := Dir(projectDir, toolset)
	st, err := ReadStamp(projectDir, toolset)
	if err != nil || st == nil {
		return nil, err
	}
	ed := map[string]bool{}
	for _, p := range edited(projectDir, toolset, st) {
		ed[p] = true
	}
	for p := range st.Files {
		if !ed[p] {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
	}
	if err := os.Remove(filepath.Join(dir, StampFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// What is left (edited, added, or Godot's own .uid/.import files).
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			dirs = append(dirs, p)
		case godotSidecar(rel, st):
			_ = os.Remove(p)
		default:
			kept = append(kept, rel)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // only empty ones go
	}
	sort.Strings(kept)
	return kept, nil
}

// godotSidecar: a file the editor generated for an installed one
// (handlers.gd.uid, icon.svg.import).
func godotSidecar(rel string, st *Stamp) bool {
	for _, ext := range []string{".uid", ".import"} {
		if base, ok := strings.CutSuffix(rel, ext); ok {
			if _, ours := st.Files[base]; ours {
				return true
			}
		}
	}
	return false
}

package projectfiles

// A toolset's editor code (its GDScript) is installed into the project as
// res://addons/godot_mcp_ext/<toolset>/, with the manifest (ManifestFile);
// Installer has the connected editor load it without a plugin toggle,
// checks before each call that the editor runs the current version, and
// unloads and removes it on disable. A file the user changed since
// godot-mcp installed it, or one it did not install, is never overwritten
// or deleted: that is refused (or kept) and said.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/nolinks"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ExtRoot is where extensions live, relative to the project directory.
const ExtRoot = "addons/godot_mcp_ext"

// RequireEditorCode is the `required` of a call refused because the
// toolset's editor code is missing, stale or cannot be installed.
const RequireEditorCode = "toolset_editor_code"

// Dir is the toolset's folder in the project.
func EditorCodeDir(projectDir, toolset string) string {
	return filepath.Join(projectDir, filepath.FromSlash(ExtRoot), toolset)
}

// ResPath is the toolset's folder as Godot names it.
func EditorCodeResPath(toolset string) string { return "res://" + ExtRoot + "/" + toolset + "/" }

// folder is the toolset's folder, opened so that nothing planted in the
// project (a link, a stamp path with "..") leads a read, write or removal
// out of it (internal/nolinks).
type folder struct {
	files   *nolinks.Dir // the project
	toolset string
}

func openFolder(projectDir, toolset string) (*folder, error) {
	if !validName(toolset) {
		return nil, fmt.Errorf("%q is not a toolset name", toolset)
	}
	d, err := nolinks.Open(projectDir)
	if err != nil {
		return nil, err
	}
	return &folder{files: d, toolset: toolset}, nil
}

func validName(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

func (f *folder) close() { _ = f.files.Close() }

// rel is p (a slash path inside the toolset's folder) relative to the project.
func (f *folder) rel(p string) string { return ExtRoot + "/" + f.toolset + "/" + p }

func (f *folder) readStamp() (*Manifest, error) {
	return readManifest(f.files, ExtRoot+"/"+f.toolset)
}

// ReadManifest reads the manifest of the toolset's folder; nil when absent.
// A manifest that is a link, or that lists a path outside the folder, is
// an error.
func ReadManifest(projectDir, toolset string) (*Manifest, error) {
	f, err := openFolder(projectDir, toolset)
	if err != nil {
		return nil, err
	}
	defer f.close()
	return f.readStamp()
}

// edited lists the stamped files whose content on disk no longer matches
// what godot-mcp installed (a deleted file is not an edit; a link is).
func (f *folder) edited(st *Manifest) []string {
	var out []string
	for p, h := range st.Files {
		b, err := f.files.ReadFile(f.rel(p))
		if err == nil && sum(b) != h || nolinks.IsLink(err) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func refuse(hint string) *contract.Error {
	return contract.Precondition(RequireEditorCode, hint)
}

func fileList(toolset string, files []string) string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = EditorCodeResPath(toolset) + f
	}
	return strings.Join(out, ", ")
}

// Install writes the toolset's editor files and stamp into the project,
// unless they are already there at this version. It refuses (and writes
// nothing) when the folder exists without a godot-mcp stamp, a stamped
// file was edited by the user, a symbolic link is on the way of any file
// it would read, write or remove, or the stamp lists a path outside the
// folder. changed reports whether anything was written.
func InstallEditorCode(projectDir, toolset, version string, files []pluginhost.EditorFile) (changed bool, e *contract.Error) {
	if _, err := os.Stat(filepath.Join(projectDir, "project.godot")); err != nil {
		return false, refuse(fmt.Sprintf("Toolset %q's editor code cannot be installed: %s has no project.godot, so it is not a Godot project. Connect the editor of your project (or set GODOT_MCP_PROJECT_DIR to it) and retry.", toolset, projectDir))
	}
	f, err := openFolder(projectDir, toolset)
	if err != nil {
		return false, refuse(fmt.Sprintf("Toolset %q's editor code cannot be installed into %s: %v.", toolset, projectDir, err))
	}
	defer f.close()
	linked := func(err error) *contract.Error {
		return refuse(fmt.Sprintf("Toolset %q's editor code was not installed: %v, and godot-mcp does not write through links in a project (one planted in a cloned project could lead the write anywhere). Remove the link, then enable toolset %q again.", toolset, err, toolset))
	}
	if err := f.files.Check(ExtRoot + "/" + toolset); err != nil {
		return false, linked(err)
	}
	if err := checkManifestPaths(f.files, ExtRoot+"/"+toolset); err != nil {
		return false, linked(err)
	}
	st, err := f.readStamp()
	if err != nil {
		return false, refuse(fmt.Sprintf("Cannot read %s%s (%v). Delete the folder %s and enable toolset %q again.", EditorCodeResPath(toolset), ManifestFile, err, EditorCodeResPath(toolset), toolset))
	}
	want := Manifest{Owner: toolset, Version: version, Files: map[string]string{}}
	for _, ef := range files {
		if !inFolder(ef.Path) {
			return false, refuse(fmt.Sprintf("Toolset %q ships editor code at %q, a path outside its folder %s: it was not installed. The toolset is broken; report it to its author.", toolset, ef.Path, EditorCodeResPath(toolset)))
		}
		want.Files[ef.Path] = sum(ef.Content)
	}
	// Every path it may touch, before anything is written.
	touched := sortedKeys(want.Files)
	if st != nil {
		touched = append(touched, sortedKeys(st.Files)...)
	}
	for _, p := range touched {
		if err := f.files.Check(f.rel(p)); err != nil {
			return false, linked(err)
		}
	}
	if st == nil {
		if _, err := f.files.Lstat(ExtRoot + "/" + toolset); err == nil {
			return false, refuse(fmt.Sprintf("The folder %s exists but was not installed by godot-mcp (it has no %s), so its editor code was not written over it. Move it away (or delete it) and enable toolset %q again.", EditorCodeResPath(toolset), ManifestFile, toolset))
		}
	} else if ed := f.edited(st); len(ed) > 0 {
		return false, refuse(fmt.Sprintf("Toolset %q's editor code was changed in the project since godot-mcp installed it: %s. It was not overwritten. Save your edits elsewhere, delete the folder %s, and enable toolset %q again (godot_disable_toolset then godot_enable_toolset) to reinstall version %s.", toolset, fileList(toolset, ed), EditorCodeResPath(toolset), toolset, version))
	} else {
		// A file the new version ships where the user put one of their own.
		var theirs []string
		for _, ef := range files {
			v, err := judge(f.files, f.rel(ef.Path), ef.Content, st, ef.Path)
			if err != nil {
				return false, linked(err)
			}
			if v.Op == OpOverwrite {
				theirs = append(theirs, ef.Path)
			}
		}
		if len(theirs) > 0 {
			return false, refuse(fmt.Sprintf("Toolset %q's editor code version %s ships %s, which godot-mcp did not install there: it was not overwritten. Move those files elsewhere and enable toolset %q again.", toolset, version, fileList(toolset, theirs), toolset))
		}
	}
	if st != nil && st.Version == version && f.sameFiles(want) {
		return false, nil
	}
	for _, ef := range files {
		if err := f.files.WriteFile(f.rel(ef.Path), ef.Content, 0o644); err != nil {
			if nolinks.IsLink(err) {
				return true, linked(err)
			}
			return true, contract.Errorf(contract.InternalError, "Could not install toolset %q's editor code into %s: %v. Check that the project folder is writable, then enable the toolset again.", toolset, EditorCodeResPath(toolset), err)
		}
	}
	if st != nil { // files of the old version that the new one no longer ships
		for p := range st.Files {
			if _, keep := want.Files[p]; !keep {
				_ = f.files.Remove(f.rel(p))
			}
		}
	}
	if err := writeManifest(f.files, ExtRoot+"/"+toolset, want); err != nil {
		return true, contract.Errorf(contract.InternalError, "Could not write %s%s: %v.", EditorCodeResPath(toolset), ManifestFile, err)
	}
	return true, nil
}

// sameFiles reports whether every file of want is on disk with its hash.
func (f *folder) sameFiles(want Manifest) bool {
	for p, h := range want.Files {
		b, err := f.files.ReadFile(f.rel(p))
		if err != nil || sum(b) != h {
			return false
		}
	}
	return true
}

// Remove deletes the files godot-mcp installed for the toolset, its stamp,
// and the folders left empty. Files the user edited or added, and links,
// are kept and listed in kept. A folder without a stamp is not touched,
// nor one reached through a link or whose stamp lists a path outside it.
func RemoveEditorCode(projectDir, toolset string) (kept []string, err error) {
	f, err := openFolder(projectDir, toolset)
	if err != nil {
		return nil, err
	}
	defer f.close()
	if err := f.files.Check(ExtRoot + "/" + toolset); err != nil {
		return nil, err
	}
	st, err := f.readStamp()
	if err != nil || st == nil {
		return nil, err
	}
	ed := map[string]bool{}
	for _, p := range f.edited(st) {
		ed[p] = true
	}
	for p := range st.Files {
		if !ed[p] {
			if err := f.files.Remove(f.rel(p)); err != nil {
				return nil, err
			}
		}
	}
	if err := f.files.Remove(f.rel(ManifestFile)); err != nil {
		return nil, err
	}
	// What is left (edited, added, or Godot's own .uid/.import files). The
	// walk follows no link: a link is listed, never entered.
	dir := EditorCodeDir(projectDir, toolset)
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			dirs = append(dirs, rel)
		case d.Type().IsRegular() && godotSidecar(rel, st):
			_ = f.files.Remove(f.rel(rel))
		default:
			kept = append(kept, rel)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		p := ExtRoot + "/" + toolset
		if dirs[i] != "." {
			p = f.rel(dirs[i])
		}
		_ = f.files.Remove(p) // only empty ones go
	}
	sort.Strings(kept)
	return kept, nil
}

// godotSidecar: a file the editor generated for an installed one
// (handlers.gd.uid, icon.svg.import).
func godotSidecar(rel string, st *Manifest) bool {
	for _, ext := range []string{".uid", ".import"} {
		if base, ok := strings.CutSuffix(rel, ext); ok {
			if _, ours := st.Files[base]; ours {
				return true
			}
		}
	}
	return false
}

// Package projectfiles is the one installer of files godot-mcp writes into
// a Godot project: the core addon (`godot-mcp addon install --project DIR`,
// InstallAddon) and each toolset's editor code (InstallEditorCode, kept
// loaded in the editor by Installer). Both record what they wrote in the
// one manifest format (ManifestFile: version and each file's SHA-256,
// reading the addon's older manifest so existing projects upgrade), write
// each file atomically (a temporary file renamed into place), never
// overwrite a file the user changed or that godot-mcp did not install
// without saying so, and follow no symbolic link anywhere below the project
// (internal/nolinks): a cloned project may plant them.
//
// InstallAddon copies the addon into PROJECT/addons/godot_mcp/, records what it wrote
// (path and sha256) in addons/godot_mcp/.godot_mcp_stamp.json, and on later runs
// updates only files it installed and that nobody changed since: a file it did not
// install, or one edited after install, is refused unless Force is set. Files of
// an older install that the new addon no longer has are removed when unmodified.
// With Enable it also lists the plugin in project.godot's [editor_plugins],
// changing nothing else in that file.
package projectfiles

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/addon"
	"github.com/godot-mcp/godot-mcp/internal/nolinks"
)

// AddonOptions says where and how to install.
type AddonOptions struct {
	// ProjectDir is the Godot project directory (the one holding project.godot).
	ProjectDir string
	// Enable lists the plugin in project.godot's [editor_plugins] enabled.
	Enable bool
	// DryRun plans and reports the actions without writing anything.
	DryRun bool
	// Force overwrites (and, for stale files, removes) files that were not
	// installed by godot-mcp or were modified since they were installed.
	Force bool
}

// Op is what happens to one path.
type Op string

// The operations a Report lists.
const (
	OpCreate    Op = "create"    // a new file
	OpUpdate    Op = "update"    // an installed, unmodified file replaced by the new version
	OpOverwrite Op = "overwrite" // a foreign or modified file replaced because of Force
	OpUnchanged Op = "unchanged" // already identical (or, for project.godot, already enabled)
	OpRemove    Op = "remove"    // a file of an older install that this version no longer has
	OpKeep      Op = "keep"      // a stale file left in place because it was modified
	OpEnable    Op = "enable"    // project.godot gains the plugin in [editor_plugins]
)

// Action is one planned or performed change. Path is relative to the project
// directory, with forward slashes ("addons/godot_mcp/plugin.gd", "project.godot").
type Action struct {
	Op     Op     `json:"op"`
	Path   string `json:"path"`
	Reason string `json:"reason,omitempty"`
}

// String formats the action for the CLI: "create     addons/godot_mcp/plugin.gd".
func (a Action) String() string {
	s := fmt.Sprintf("%-9s  %s", a.Op, a.Path)
	if a.Reason != "" {
		s += " (" + a.Reason + ")"
	}
	return s
}

// Report lists what Install did (or, with DryRun, would do).
type Report struct {
	ProjectDir string   `json:"project_dir"`
	AddonDir   string   `json:"addon_dir"`
	Version    string   `json:"version"`
	DryRun     bool     `json:"dry_run"`
	Actions    []Action `json:"actions"`
}

// Changed reports whether any action writes or removes something.
func (r Report) Changed() bool {
	for _, a := range r.Actions {
		if a.Op != OpUnchanged && a.Op != OpKeep {
			return true
		}
	}
	return false
}

// ConflictError is returned when files in the way were not installed by
// godot-mcp or were modified since; nothing has been written.
type ConflictError struct {
	AddonDir string
	Files    []Conflict
}

// Conflict is one file Install refused to overwrite.
type Conflict struct {
	Path   string // relative to the project directory
	Reason string
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to overwrite %d file(s) in %s:", len(e.Files), e.AddonDir)
	for _, c := range e.Files {
		fmt.Fprintf(&b, "\n  %s: %s", c.Path, c.Reason)
	}
	b.WriteString("\nMove your changes elsewhere, or re-run with --force to overwrite them. Nothing was changed.")
	return b.String()
}

// ErrNotAProject is wrapped by the error returned for a directory without project.godot.
var ErrNotAProject = errors.New("not a Godot project")

// Install installs the embedded addon (addon.FS, version addon.Version).
func InstallAddon(opts AddonOptions) (Report, error) {
	return installAddon(opts, addon.FS, addon.Version)
}

type write struct {
	dest string
	data []byte
}

// refusedLink is the error for a symbolic link on the way: a project may
// come from a clone, and a link planted there could lead a write anywhere.
func refusedLink(err error) error {
	return fmt.Errorf("refused: %w; godot-mcp does not read or write through symbolic links in a project. Remove the link (or put a regular file or folder in its place) and run addon install again. Nothing was changed", err)
}

func installAddon(opts AddonOptions, src fs.FS, version string) (Report, error) {
	if opts.ProjectDir == "" {
		return Report{}, fmt.Errorf("%w: no project directory given; pass the folder that contains project.godot", ErrNotAProject)
	}
	projectDir, err := filepath.Abs(opts.ProjectDir)
	if err != nil {
		return Report{}, fmt.Errorf("project directory %q: %w", opts.ProjectDir, err)
	}
	notAProject := fmt.Errorf("%w: %s has no project.godot; pass the folder that contains project.godot (the project's root)", ErrNotAProject, projectDir)
	// Every path below the project is handled without following a link.
	files, err := nolinks.Open(projectDir)
	if err != nil {
		return Report{}, notAProject
	}
	defer files.Close()
	const projectFile = "project.godot"
	if st, err := files.Lstat(projectFile); nolinks.IsLink(err) {
		return Report{}, refusedLink(err)
	} else if err != nil || !st.Mode().IsRegular() {
		return Report{}, notAProject
	}
	addonDir := filepath.Join(projectDir, filepath.FromSlash(addon.InstallDir))
	rep := Report{ProjectDir: projectDir, AddonDir: addonDir, Version: version, DryRun: opts.DryRun}
	rel := func(p string) string { return addon.InstallDir + "/" + p }
	if err := files.Check(addon.InstallDir); err != nil {
		return rep, refusedLink(err)
	}
	if err := checkManifestPaths(files, addon.InstallDir); err != nil {
		return rep, refusedLink(err)
	}
	old, err := readManifest(files, addon.InstallDir)
	switch {
	case nolinks.IsLink(err):
		return rep, refusedLink(err)
	case errors.Is(err, errDamaged):
		return rep, fmt.Errorf("the install manifest in %s is damaged (%v); delete it and re-run with --force to reinstall", addonDir, err)
	case err != nil:
		return rep, fmt.Errorf("reading the install manifest: %w", err)
	case old == nil:
		old = &Manifest{Files: map[string]string{}}
	}
	next := Manifest{Owner: AddonOwner, Version: version, Files: map[string]string{}}

	var writes []write
	var conflicts []Conflict
	err = fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		next.Files[p] = sum(data)
		dest := rel(p)
		v, err := judge(files, dest, data, old, p)
		if err != nil {
			return err
		}
		switch {
		case v.Op == OpUnchanged:
			rep.Actions = append(rep.Actions, Action{Op: OpUnchanged, Path: dest})
			return nil
		case v.Op == OpOverwrite && (!opts.Force || v.Reason == "a directory is in the way"):
			conflicts = append(conflicts, Conflict{dest, v.Reason})
			return nil
		}
		rep.Actions = append(rep.Actions, Action{Op: v.Op, Path: dest, Reason: v.Reason})
		writes = append(writes, write{dest, data})
		return nil
	})
	if nolinks.IsLink(err) {
		return rep, refusedLink(err)
	}
	if err != nil {
		return rep, fmt.Errorf("reading the embedded addon: %w", err)
	}
	if len(conflicts) > 0 {
		return rep, &ConflictError{AddonDir: addonDir, Files: conflicts}
	}

	// Files of an older install that this version no longer ships.
	var removals []string
	for _, p := range sortedKeys(old.Files) {
		if _, still := next.Files[p]; still {
			continue
		}
		dest := rel(p)
		current, err := files.ReadFile(dest)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if nolinks.IsLink(err) {
			return rep, refusedLink(err)
		}
		if err != nil {
			return rep, fmt.Errorf("reading %s: %w", files.Path(dest), err)
		}
		if sum(current) != old.Files[p] && !opts.Force {
			rep.Actions = append(rep.Actions, Action{Op: OpKeep, Path: rel(p), Reason: "no longer part of the addon, but modified since install"})
			continue
		}
		rep.Actions = append(rep.Actions, Action{Op: OpRemove, Path: rel(p), Reason: "no longer part of the addon"})
		removals = append(removals, dest)
		// Godot 4.4+ writes a .uid file next to each script; it goes with the script.
		uid := dest + ".uid"
		if st, err := files.Lstat(uid); nolinks.IsLink(err) {
			return rep, refusedLink(err)
		} else if err == nil && st.Mode().IsRegular() {
			if _, shipped := next.Files[p+".uid"]; !shipped {
				rep.Actions = append(rep.Actions, Action{Op: OpRemove, Path: rel(p) + ".uid", Reason: "belongs to a removed file"})
				removals = append(removals, uid)
			}
		}
	}

	var project []byte
	if opts.Enable {
		original, err := files.ReadFile(projectFile)
		if err != nil {
			return rep, fmt.Errorf("reading %s: %w", files.Path(projectFile), err)
		}
		updated, changed, err := EnablePlugin(original, addon.PluginCfgResPath)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", files.Path(projectFile), err)
		}
		if changed {
			rep.Actions = append(rep.Actions, Action{Op: OpEnable, Path: "project.godot", Reason: addon.PluginCfgResPath})
			project = updated
		} else {
			rep.Actions = append(rep.Actions, Action{Op: OpUnchanged, Path: "project.godot", Reason: "plugin already enabled"})
		}
	}

	if opts.DryRun {
		return rep, nil
	}
	for _, w := range writes {
		if err := files.WriteFile(w.dest, w.data, 0o644); err != nil {
			if nolinks.IsLink(err) {
				return rep, refusedLink(err)
			}
			return rep, err
		}
	}
	for _, r := range removals {
		if err := files.Remove(r); err != nil {
			return rep, err
		}
	}
	removeEmptyDirs(files, addon.InstallDir, removals)
	if err := writeManifest(files, addon.InstallDir, next); err != nil {
		return rep, err
	}
	if project != nil {
		mode := fs.FileMode(0o644)
		if st, err := files.Lstat(projectFile); err == nil {
			mode = st.Mode().Perm()
		}
		if err := files.WriteFile(projectFile, project, mode); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// removeEmptyDirs removes directories under root (slash paths relative to
// the project) that removals left empty.
func removeEmptyDirs(files *nolinks.Dir, root string, removed []string) {
	dirs := map[string]bool{}
	for _, r := range removed {
		for d := path.Dir(r); d != root && strings.HasPrefix(d, root+"/"); d = path.Dir(d) {
			dirs[d] = true
		}
	}
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	// Deepest first.
	sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	for _, d := range list {
		if entries, err := os.ReadDir(files.Path(d)); err == nil && len(entries) == 0 {
			_ = files.Remove(d)
		}
	}
}

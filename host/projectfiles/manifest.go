package projectfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/godot-mcp/godot-mcp/addon"
	"github.com/godot-mcp/godot-mcp/internal/nolinks"
)

// ManifestFile is the one manifest godot-mcp keeps in every folder it
// installs into a project (the core addon's, each toolset's editor code):
// which version it installed and each file's SHA-256, so that a later
// install updates only what it installed and nobody changed since. The
// addon reads its "version" for a toolset's folder (command_router.gd).
const ManifestFile = ".godot_mcp_stamp.json"

// legacyAddonManifest is the core addon's manifest before the one format
// (#25): {version, files}. It is read when ManifestFile is absent and
// removed once ManifestFile is written, so an existing project upgrades
// in place.
const legacyAddonManifest = ".install-manifest.json"

// ManifestFormat is the current manifest format.
const ManifestFormat = 1

// AddonOwner is the Owner of the core addon's manifest.
const AddonOwner = "godot_mcp"

// Manifest is the content of ManifestFile.
type Manifest struct {
	Format  int               `json:"format"`
	Owner   string            `json:"owner"` // AddonOwner, or the toolset's name
	Version string            `json:"version"`
	Files   map[string]string `json:"files"` // slash path inside the folder -> hex SHA-256
	// Toolset is the owner in a toolset's stamp before the one format;
	// read into Owner, never written.
	Toolset string `json:"toolset,omitempty"`
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inFolder: p is a clean relative slash path that stays in its folder (and
// is not the manifest itself).
func inFolder(p string) bool {
	return p != "" && p != "." && p != ManifestFile && p != legacyAddonManifest && fs.ValidPath(p) && path.Clean(p) == p
}

// manifestPaths are the manifest names read in folder, newest first.
func manifestPaths(folder string) []string {
	return []string{folder + "/" + ManifestFile, folder + "/" + legacyAddonManifest}
}

// errDamaged is wrapped by the error for a manifest that is not valid JSON
// or lists a path outside its folder.
var errDamaged = errors.New("damaged manifest")

// readManifest reads the manifest of folder (a slash path relative to the
// project): ManifestFile, else the legacy addon manifest; nil when there
// is none. A manifest that is a link, is not JSON, or lists a path outside
// its folder is an error: a planted manifest never leads a write or a
// removal out of the folder.
func readManifest(files *nolinks.Dir, folder string) (*Manifest, error) {
	for _, p := range manifestPaths(folder) {
		b, err := files.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var m Manifest
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%w: %s is not valid JSON: %v", errDamaged, path.Base(p), err)
		}
		if m.Owner == "" {
			m.Owner = m.Toolset
		}
		m.Toolset = ""
		if m.Files == nil {
			m.Files = map[string]string{}
		}
		for f := range m.Files {
			if !inFolder(f) {
				return nil, fmt.Errorf("%w: %s lists %q, a path outside its folder", errDamaged, path.Base(p), f)
			}
		}
		return &m, nil
	}
	return nil, nil
}

// writeManifest writes m as folder's manifest (atomically: nolinks writes
// a temporary file and renames it into place) and removes a legacy one.
func writeManifest(files *nolinks.Dir, folder string, m Manifest) error {
	m.Format, m.Toolset = ManifestFormat, ""
	b, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		return err
	}
	if err := files.WriteFile(folder+"/"+ManifestFile, append(b, '\n'), 0o644); err != nil {
		return err
	}
	legacy := folder + "/" + legacyAddonManifest
	if st, err := files.Lstat(legacy); err == nil && st.Mode().IsRegular() {
		return files.Remove(legacy)
	}
	return nil
}

// checkManifestPaths refuses a link at any manifest path of folder.
func checkManifestPaths(files *nolinks.Dir, folder string) error {
	for _, p := range manifestPaths(folder) {
		if err := files.Check(p); err != nil {
			return err
		}
	}
	return nil
}

// Verdict is what an install may do with one file it ships.
type Verdict struct {
	Op     Op     // OpCreate, OpUnchanged, OpUpdate, or OpOverwrite (a conflict unless forced)
	Reason string // why a file is in conflict
}

// judge decides, for the file at dest that an install would write with
// data, whether it may: absent (create), identical (unchanged), or as
// godot-mcp installed it (update, per old, the folder's manifest; nil:
// none). Anything else is the user's: a file godot-mcp did not install, or
// one changed since; it is never overwritten silently (OpOverwrite, with
// the reason, which the caller refuses unless forced). A link at dest or
// on its way is an error (nolinks.LinkError).
func judge(files *nolinks.Dir, dest string, data []byte, old *Manifest, rel string) (Verdict, error) {
	current, err := files.ReadFile(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Verdict{Op: OpCreate}, nil
	case err != nil:
		if nolinks.IsLink(err) {
			return Verdict{}, err
		}
		if st, serr := files.Lstat(dest); serr == nil && st.IsDir() {
			return Verdict{Op: OpOverwrite, Reason: "a directory is in the way"}, nil
		}
		return Verdict{}, fmt.Errorf("reading %s: %w", files.Path(dest), err)
	}
	have := sum(current)
	var was string
	var tracked bool
	if old != nil {
		was, tracked = old.Files[rel]
	}
	switch {
	case have == sum(data):
		return Verdict{Op: OpUnchanged}, nil
	case tracked && was == have:
		return Verdict{Op: OpUpdate}, nil
	case tracked:
		return Verdict{Op: OpOverwrite, Reason: "modified since godot-mcp installed it"}, nil
	}
	return Verdict{Op: OpOverwrite, Reason: "not installed by godot-mcp"}, nil
}

// AddonManifest reads the core addon's manifest in the project (the
// current one, else the older addon manifest); nil when there is none.
func AddonManifest(projectDir string) (*Manifest, error) {
	files, err := nolinks.Open(projectDir)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	return readManifest(files, addon.InstallDir)
}

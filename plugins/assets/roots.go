package assets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/nolinks"
	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// ImportRootsEnv lists the directories outside the project that the import
// tool may read files from; none by default.
const ImportRootsEnv = "GODOT_MCP_IMPORT_ROOTS"

// Limits of one import call (the files travel to the editor in one message).
const (
	maxFileBytes  = 32 << 20
	maxTotalBytes = 40 << 20
)

// source is a file read from an import root.
type source struct {
	Given string // as the caller gave it
	Abs   string
	Name  string
	Data  []byte
}

// importRoots are the allowed directories (absolute, cleaned).
func importRoots() []string {
	var roots []string
	for _, r := range filepath.SplitList(os.Getenv(ImportRootsEnv)) {
		if r != "" && filepath.IsAbs(r) {
			roots = append(roots, filepath.Clean(r))
		}
	}
	return roots
}

// readSource reads path (absolute) from the directory of roots that holds
// it, refusing a symbolic link anywhere below that directory (so nothing is
// read through a link out of the root, or into the project through one).
// The root itself may be reached through links, as the user named it.
func readSource(roots []string, path string, budget int64) (source, error) {
	if !filepath.IsAbs(path) {
		return source{}, sdk.Validation(fmt.Sprintf("files: %q is not an absolute path; give the file's absolute path inside a directory of %s (%s)", path, ImportRootsEnv, strings.Join(roots, string(filepath.ListSeparator))))
	}
	p := filepath.Clean(path)
	for _, root := range roots {
		cands := []string{root}
		if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
			cands = append(cands, real)
		}
		for _, c := range cands {
			if !godotproc.Within(p, c) {
				continue
			}
			rel, _ := filepath.Rel(c, p)
			if rel == "." {
				return source{}, sdk.Validation(fmt.Sprintf("files: %s is a directory of %s, not a file in it", path, ImportRootsEnv))
			}
			return readBelow(c, rel, path, budget)
		}
	}
	return source{}, sdk.PreconditionFailed("", fmt.Sprintf("%s is outside the directories the user allows in the server's %s (%s): the import reads files only from there. "+
		"Copy the file into one of them, or ask the user to add its directory to %s.", path, ImportRootsEnv, strings.Join(roots, string(filepath.ListSeparator)), ImportRootsEnv))
}

func readBelow(root, rel, given string, budget int64) (source, error) {
	d, err := nolinks.Open(root)
	if err != nil {
		return source{}, sdk.NotFound(fmt.Sprintf("the import root %s cannot be opened (%v); ask the user to fix %s", root, err, ImportRootsEnv))
	}
	defer d.Close()
	fi, err := d.Lstat(rel)
	switch {
	case nolinks.IsLink(err):
		return source{}, sdk.PreconditionFailed("", fmt.Sprintf("%v; godot-mcp does not follow links when it imports (one could lead out of %s or into the project): give the real file", err, ImportRootsEnv))
	case errors.Is(err, fs.ErrNotExist):
		return source{}, sdk.NotFound(fmt.Sprintf("files: %s does not exist", given))
	case err != nil:
		return source{}, sdk.Internal(err.Error())
	case !fi.Mode().IsRegular():
		return source{}, sdk.Validation(fmt.Sprintf("files: %s is not a regular file (%s)", given, fi.Mode().Type()))
	case fi.Size() > maxFileBytes:
		return source{}, sdk.Validation(fmt.Sprintf("files: %s is %d bytes; one import takes files up to %d MiB", given, fi.Size(), maxFileBytes>>20))
	case fi.Size() > budget:
		return source{}, sdk.Validation(fmt.Sprintf("files: together the files exceed %d MiB; import them in several calls", maxTotalBytes>>20))
	}
	b, err := d.ReadFile(rel)
	if nolinks.IsLink(err) {
		return source{}, sdk.PreconditionFailed("", fmt.Sprintf("%v; godot-mcp does not follow links when it imports: give the real file", err))
	}
	if err != nil {
		return source{}, sdk.Internal(err.Error())
	}
	return source{Given: given, Abs: filepath.Join(root, rel), Name: filepath.Base(rel), Data: b}, nil
}

// readSources reads every file, or refuses the whole call.
func readSources(paths []string) ([]source, error) {
	roots := importRoots()
	if len(roots) == 0 {
		return nil, sdk.PreconditionFailed("", fmt.Sprintf("%s is not set: the user has allowed no directory outside the project to import from, so nothing outside it is read. "+
			"Ask the user to set %s (absolute directories separated by %q) in the server's environment and restart it.", ImportRootsEnv, ImportRootsEnv, string(filepath.ListSeparator)))
	}
	budget := int64(maxTotalBytes)
	out := make([]source, 0, len(paths))
	for _, p := range paths {
		s, err := readSource(roots, p, budget)
		if err != nil {
			return nil, err
		}
		budget -= int64(len(s.Data))
		out = append(out, s)
	}
	return out, nil
}

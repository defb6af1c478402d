// Package respath validates project paths given by agents: every path must
// stay inside res://.
package respath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Clean checks that p is a res:// path that cannot escape the project and
// returns it normalised. Absolute file-system paths, "..", backslashes and
// other schemes are refused with VALIDATION_ERROR.
func Clean(p string) (string, error) {
	if !strings.HasPrefix(p, "res://") {
		return "", sdk.Validation(fmt.Sprintf("path %q must start with res:// (project-relative, e.g. res://scenes/main.tscn)", p))
	}
	rest := strings.TrimPrefix(p, "res://")
	if strings.ContainsAny(rest, "\\\x00") {
		return "", sdk.Validation(fmt.Sprintf("path %q contains a backslash or NUL; use forward slashes", p))
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == ".." {
			return "", sdk.Validation(fmt.Sprintf("path %q leaves the project (..); paths must stay inside res://", p))
		}
	}
	if strings.HasPrefix(rest, "/") {
		return "", sdk.Validation(fmt.Sprintf("path %q is absolute after res://; use res://dir/file", p))
	}
	cleaned := path.Clean("/" + rest)
	return "res://" + strings.TrimPrefix(cleaned, "/"), nil
}

// Inside checks that file (a file of the project in dir, named
// res in messages) really is inside dir once symbolic links are resolved,
// each prefix of res on its own: a link in the project that leads out of it
// is refused with VALIDATION_ERROR naming that link (the addon's
// path_guard.gd makes the same check for everything the editor touches).
func Inside(dir, file, res string) error {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return sdk.Validation(fmt.Sprintf("the project directory %s cannot be resolved (%v)", dir, err))
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		return sdk.Validation(fmt.Sprintf("%s is not inside the project %s", res, dir))
	}
	prefix := dir
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		prefix = filepath.Join(prefix, seg)
		real, err := filepath.EvalSymlinks(prefix)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // nothing there (the caller says so); a missing name is no link
		}
		if err != nil {
			return sdk.Validation(fmt.Sprintf("%s cannot be resolved (%v); check its symbolic links (a loop of symbolic links?)", res, err))
		}
		if r, err := filepath.Rel(realDir, real); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r) {
			continue
		}
		link, _ := filepath.Rel(dir, prefix)
		name := "res://" + filepath.ToSlash(link)
		if target, err := os.Readlink(prefix); err == nil {
			name += " (-> " + target + ")"
		}
		return sdk.Validation(fmt.Sprintf("%s goes through the symbolic link %s, which leads outside the project (to %s); only files inside the project are run: use a path that does not go through the link, or replace it with a real folder or file", res, name, real))
	}
	return nil
}

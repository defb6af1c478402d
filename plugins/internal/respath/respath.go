// Package respath validates project paths given by agents: every path must
// stay inside res://.
package respath

import (
	"fmt"
	"path"
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

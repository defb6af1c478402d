//go:build !unix

package attach

import (
	"fmt"
	"io/fs"
	"os"
)

// checkDir refuses an attach directory that is not a directory (a link).
// Elsewhere than Unix the directory's access is the user profile's ACL:
// os.UserConfigDir is the user's own.
func checkDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("attach: %s is not a directory (%v); remove it, godot-mcp creates it", dir, st.Mode().Type())
	}
	return nil
}

func ownedByMe(string, fs.FileInfo) error { return nil }

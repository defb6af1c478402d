//go:build unix

package attach

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkDir refuses an attach directory that is a link, that another user
// owns, or that others may write to: whoever can write there can plant an
// attach file and a socket of their own and pose as the owner (#24.2). A
// directory of the user's own that others may only read is made 0700.
func checkDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("attach: %s is not a directory (%v); remove it, godot-mcp creates it", dir, st.Mode().Type())
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("attach: %s belongs to another user (uid %d, this server runs as uid %d): another user may pose as a godot-mcp server there. "+
			"Remove it (as that user or root) and start again, or set XDG_RUNTIME_DIR to a directory of your own", dir, sys.Uid, os.Geteuid())
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("attach: %s may be written by other users (mode %v): another user may pose as a godot-mcp server there. "+
			"Remove it (godot-mcp creates it 0700) and start again", dir, st.Mode().Perm())
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("attach: making %s 0700: %w", dir, err)
		}
	}
	return nil
}

// ownedByMe refuses a file another user owns.
func ownedByMe(path string, st fs.FileInfo) error {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("attach: %s belongs to another user (uid %d); remove it", path, sys.Uid)
	}
	return nil
}

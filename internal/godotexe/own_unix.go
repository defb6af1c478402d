//go:build unix

package godotexe

import (
	"fmt"
	"os"
	"syscall"
)

// ownedSafely: executable, owned by the server's user or root, and not
// writable by group or others.
func ownedSafely(path string, st os.FileInfo) error {
	if st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("the editor's executable %s is not executable", path)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("the editor's executable %s is writable by other users; not run", path)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("the owner of the editor's executable %s is unknown; not run", path)
	}
	if uid := int(sys.Uid); uid != 0 && uid != os.Getuid() {
		return fmt.Errorf("the editor's executable %s belongs to another user (uid %d); not run", path, uid)
	}
	return nil
}

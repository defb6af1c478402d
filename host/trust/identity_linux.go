//go:build linux

package trust

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// identity names one version of a file: device, inode, size, and the
// modification and status-change times. Replacing the file (a rename over
// it) changes the inode and the change time, writing it changes the
// times; the change time cannot be set back by a user. ok is false when it
// cannot be read (then the file is hashed every time). changed is the
// status-change time.
func identity(fi os.FileInfo) (id string, changed time.Time, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}, false
	}
	return fmt.Sprintf("%d:%d:%d:%d:%d", st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano(), st.Ctim.Nano()), time.Unix(0, st.Ctim.Nano()), true
}

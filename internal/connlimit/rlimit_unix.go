//go:build unix

package connlimit

import "syscall"

// FileLimit is the process's soft limit on open files (RLIMIT_NOFILE), or 0
// when it cannot be read. The Go runtime raises the soft limit to the hard
// limit at start (Go 1.19+), so this is what the process may really open.
func FileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	return r.Cur
}

//go:build !windows

package sdk

import "os"

// parentGone reports whether the parent that started us has exited: on Unix
// an orphan is re-parented, so the parent pid changes.
func parentGone(ppid int) bool { return os.Getppid() != ppid }

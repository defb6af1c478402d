//go:build windows

package sdk

import (
	"os"
	"syscall"
)

// parentGone reports whether the parent that started us has exited: Windows
// does not re-parent, so ask whether the process still runs.
func parentGone(ppid int) bool {
	const stillActive = 259
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(ppid))
	if err != nil {
		return true
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code != stillActive
}

// exitWithGroup ends the toolset (Windows has no process groups to end).
func exitWithGroup(code int) { os.Exit(code) }

// exitOnTerm: Windows sends no SIGTERM.
func exitOnTerm(string) {}

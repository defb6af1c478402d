package toolsets

import (
	"bytes"
	"os"
	"strconv"
)

// processStopped reports whether pid is stopped (SIGSTOP, a debugger):
// /proc/<pid>/stat's state is T or t.
func processStopped(pid int) bool {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses and may
	// itself hold spaces or parentheses.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 || i+2 >= len(raw) {
		return false
	}
	return raw[i+2] == 'T' || raw[i+2] == 't'
}

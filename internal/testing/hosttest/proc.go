package hosttest

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Child is a live child process.
type Child struct {
	PID     int
	Cmdline []string
}

// stat returns a process's state letter and parent pid from /proc.
func stat(pid int) (state string, ppid int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	fields := strings.Fields(s[i+1:]) // state, ppid, ...
	if len(fields) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(fields[1])
	return fields[0], ppid, err == nil
}

// Alive reports whether pid is a running process (a zombie is not).
func Alive(pid int) bool {
	state, _, ok := stat(pid)
	return ok && state != "Z"
}

// Children lists the live (non-zombie) processes whose parent is ppid (Linux).
func Children(ppid int) []Child {
	entries, _ := os.ReadDir("/proc")
	var out []Child
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, parent, ok := stat(pid)
		if !ok || parent != ppid || state == "Z" {
			continue
		}
		raw, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		out = append(out, Child{PID: pid, Cmdline: strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")})
	}
	return out
}

// WaitChild waits up to 10 s for a child of ppid that match accepts and
// returns its pid; it fails tb when none appears.
func WaitChild(tb testing.TB, ppid int, what string, match func(Child) bool) int {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, c := range Children(ppid) {
			if match(c) {
				return c.PID
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Fatalf("no child process %s", what)
	return 0
}

// Processes lists the live (non-zombie) processes of any parent that match
// accepts (Linux), e.g. grandchildren a plugin left behind, which the init
// process inherits.
func Processes(match func(Child) bool) []Child {
	entries, _ := os.ReadDir("/proc")
	var out []Child
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, _, ok := stat(pid); !ok || state == "Z" {
			continue
		}
		raw, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(raw) == 0 {
			continue
		}
		c := Child{PID: pid, Cmdline: strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")}
		if match(c) {
			out = append(out, c)
		}
	}
	return out
}

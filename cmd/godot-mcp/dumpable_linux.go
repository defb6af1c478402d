package main

import "golang.org/x/sys/unix"

// nonDumpable keeps other processes of the same user out of this one's
// memory and /proc files (environ, mem, fd): they hold the secrets
// (GODOT_MCP_AUTH_TOKEN, GODOT_MCP_BRIDGE_TOKEN, the approval URL, the
// attach token). Processes it starts are dumpable again after their exec.
func nonDumpable() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

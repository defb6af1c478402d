// Package godotexe decides whether the Godot executable a connected editor
// reported (OS.get_executable_path(), in its hello and its editor state)
// may be run by the server for a headless Godot when GODOT_BIN is unset.
//
// The editor is whoever holds the bridge: without a bridge token, any
// local process. So the path is taken only when it names a regular,
// executable file whose name says Godot, owned by the server's user or by
// root and writable by nobody else (on Unix): another local user cannot
// plant a program there for the server to run, and a process of the
// server's own user can run programs anyway.
package godotexe

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Check resolves path (absolute, links followed) and returns it when it may
// be run, else an error saying why not (for a hint).
func Check(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("the editor did not report its executable")
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("the editor's executable %q is not an absolute path", path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("the editor's executable %s is not on this machine (%v)", path, err)
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("the editor's executable %s is not a regular file", path)
	}
	if !strings.Contains(strings.ToLower(filepath.Base(real)), "godot") {
		return "", fmt.Errorf("the editor's executable %s is not named like Godot", real)
	}
	if err := ownedSafely(real, st); err != nil {
		return "", err
	}
	return real, nil
}

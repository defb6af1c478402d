// Package attach lets several godot-mcp servers on one machine share one
// editor bridge.
//
// The server that binds the bridge (the owner) also serves MCP over
// streamable HTTP on a Unix socket in the attach directory, behind a random
// bearer token, and publishes the endpoint in an attach file only the user
// can read (Publish). The directory is the user's own and no one else may
// write into it (checkDir), so only a process of the same user can listen
// on that socket: another user's process cannot pose as the owner, even
// one that holds the bridge port after the owner died (#24.2). A server started later for the same bridge port finds
// the port taken, reads the file, checks the owner answers (Find), and
// becomes a thin proxy (Proxy): its client's JSON-RPC messages go to the
// owner's endpoint, the owner's messages come back on its stdout. Every
// attached client has a session of its own on the owner; the owner's
// state (enabled toolsets, the editor connection) is shared by all.
package attach

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Info is the content of an attach file.
type Info struct {
	// URL is the owner's MCP endpoint as HTTP sees it
	// (http://localhost/mcp); the connection goes to Socket.
	URL string `json:"url"`
	// Socket is the Unix socket the endpoint listens on
	// (bridge-PORT.sock next to the attach file). A reader does not take
	// it from the file: it is where the attach file's directory says.
	Socket string `json:"socket,omitempty"`
	// Token is the bearer token the endpoint requires.
	Token string `json:"token"`
	// PID is the owner's process id.
	PID int `json:"pid"`
	// BridgeURL is the editor bridge the owner serves.
	BridgeURL string `json:"bridge_url"`
	// Version is the owner's godot-mcp version.
	Version string `json:"version"`
	// Policy is the owner's approval policy in words ("auto", or
	// "webhook, scope destructive,writes,code, URL sha256:…"): a server
	// whose own policy differs does not attach (#24.7). The webhook URL, a
	// secret, is only there as a digest.
	Policy string `json:"policy,omitempty"`
}

// Dir is where attach files live: $XDG_RUNTIME_DIR/godot-mcp when set,
// otherwise godot-mcp/run in the user's config directory
// (os.UserConfigDir: ~/.config, ~/Library/Application Support, %AppData%).
func Dir() (string, error) {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "godot-mcp"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("attach: no directory for the attach file: %w", err)
	}
	return filepath.Join(d, "godot-mcp", "run"), nil
}

// BridgePort is the port of a bridge URL ("" when it has none or is 0: an
// ephemeral bridge port never collides, so it has no attach file).
func BridgePort(bridgeURL string) string {
	u, err := url.Parse(bridgeURL)
	if err != nil {
		return ""
	}
	port := u.Port()
	if port == "" || port == "0" {
		return ""
	}
	if _, err := strconv.Atoi(port); err != nil {
		return ""
	}
	return port
}

// Path is the attach file of the server owning bridgeURL's port. Two
// bridge URLs with the same port share it: only one server can bind that
// port.
func Path(bridgeURL string) (string, error) {
	port := BridgePort(bridgeURL)
	if port == "" {
		return "", fmt.Errorf("attach: bridge URL %q has no fixed port", bridgeURL)
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "bridge-"+port+".json"), nil
}

// socketPath is the attach endpoint's Unix socket for the attach file
// path (bridge-PORT.json -> bridge-PORT.sock).
func socketPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".sock"
}

// maxSocketPath is the longest Unix socket path every platform binds
// (sun_path is 104 bytes on macOS and the BSDs, 108 on Linux).
const maxSocketPath = 103

// ensureDir creates the attach directory (0700) when it is missing and
// checks it (checkDir).
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("attach: creating %s: %w", dir, err)
	}
	return checkDir(dir)
}

// writeFile writes info to path, readable by the user alone (0600 in a
// 0700 directory), atomically (a reader never sees half a file).
func writeFile(path string, info Info) error {
	if err := ensureDir(filepath.Dir(path)); err != nil {
		return err
	}
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bridge-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ErrNoFile means no attach file exists for the bridge port.
var ErrNoFile = errors.New("no attach file")

// readFile reads an attach file, refusing one in a directory another user
// owns or may write to (checkDir), a link, and one that others can read or
// write (it holds a credential; one that others can write could point this
// server at theirs). Where the endpoint listens is not read from the file:
// it is the socket next to it.
func readFile(path string) (Info, error) {
	var info Info
	if _, err := os.Lstat(filepath.Dir(path)); errors.Is(err, os.ErrNotExist) {
		return info, ErrNoFile
	}
	if err := checkDir(filepath.Dir(path)); err != nil {
		return info, err
	}
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return info, ErrNoFile
	}
	if err != nil {
		return info, err
	}
	if !st.Mode().IsRegular() {
		return info, fmt.Errorf("attach: %s is not a regular file (%v); remove it", path, st.Mode().Type())
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return info, fmt.Errorf("attach: %s is accessible to other users (mode %v); remove it", path, st.Mode().Perm())
	}
	if err := ownedByMe(path, st); err != nil {
		return info, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("attach: %s is not an attach file: %w", path, err)
	}
	u, err := url.Parse(info.URL)
	if err != nil || u.Scheme != "http" || info.Token == "" {
		return info, fmt.Errorf("attach: %s has no usable endpoint", path)
	}
	if info.Socket == "" {
		// An attach file of a godot-mcp before #24.2 (a TCP endpoint any
		// local user could take over once its owner died).
		return info, fmt.Errorf("attach: %s names no socket (written by an older godot-mcp, pid %d); upgrade that server, or stop it", path, info.PID)
	}
	info.Socket = socketPath(path)
	return info, nil
}

// removeIfOwn removes path when it still names pid (a newer owner's file
// is left alone).
func removeIfOwn(path string, pid int, token string) {
	if info, err := readFile(path); err == nil && info.PID == pid && info.Token == token {
		os.Remove(path)
	}
}

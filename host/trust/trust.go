// Package trust pins third-party toolset executables (trust on first use,
// after Vault's plugin catalog and Terraform's lock file): the first time a
// third-party toolset is enabled, the SHA-256 of its executable is recorded
// in the user's config (<user config dir>/godot-mcp/trusted-plugins.json);
// from then on an executable whose hash differs is refused with
// PRECONDITION_FAILED (required plugin_trusted) until the user trusts it
// again (`godot-mcp toolset trust NAME`). Built-in toolsets are the host
// binary itself and are not pinned.
//
// The file is read afresh on every check (so that `toolset trust` run
// beside a server takes effect at once) and written atomically without
// following a link (internal/nolinks).
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/nolinks"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// FileName is the trust file, relative to the user's config directory.
const FileName = "godot-mcp/trusted-plugins.json"

// Pin is one trusted executable.
type Pin struct {
	Name      string    `json:"name"` // the toolset's name
	SHA256    string    `json:"sha256"`
	TrustedAt time.Time `json:"trusted_at"`
}

// file is the trust file's content.
type file struct {
	Comment string         `json:"_comment,omitempty"`
	Plugins map[string]Pin `json:"plugins"` // by the executable's absolute path
}

const comment = "Third-party godot-mcp toolsets trusted by SHA-256 (trust on first use). A changed executable is refused until `godot-mcp toolset trust NAME`."

// Store is the trust file in ConfigDir (normally os.UserConfigDir()).
type Store struct {
	ConfigDir string

	mu sync.Mutex // serializes this process's read-modify-write of the file

	sumsMu sync.Mutex
	sums   map[string]string // file identity (see identity) -> its SHA-256
}

// Default is the Store in the user's config directory.
func Default() (*Store, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("no user config directory to record trusted plugins in: %w", err)
	}
	return &Store{ConfigDir: dir}, nil
}

// Path is the trust file's path.
func (s *Store) Path() string { return filepath.Join(s.ConfigDir, filepath.FromSlash(FileName)) }

// load reads the trust file (empty when it does not exist).
func (s *Store) load() (file, error) {
	f := file{Plugins: map[string]Pin{}}
	d, err := nolinks.Open(s.ConfigDir)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	defer d.Close()
	raw, err := d.ReadFile(FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, fmt.Errorf("%s: %w", s.Path(), err)
	}
	if f.Plugins == nil {
		f.Plugins = map[string]Pin{}
	}
	return f, nil
}

// save writes f atomically (a temporary file renamed over the old one),
// refusing links below the config directory.
func (s *Store) save(f file) error {
	if err := os.MkdirAll(s.ConfigDir, 0o700); err != nil {
		return err
	}
	d, err := nolinks.Open(s.ConfigDir)
	if err != nil {
		return err
	}
	defer d.Close()
	f.Comment = comment
	raw, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return d.WriteFile(FileName, append(raw, '\n'), 0o600)
}

// Pins lists the trusted executables by absolute path.
func (s *Store) Pins() (map[string]Pin, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	return f.Plugins, err
}

// Pinned is the SHA-256 pinned for the executable at path ("" when none
// or unreadable).
func (s *Store) Pinned(path string) string {
	pins, _ := s.Pins()
	return pins[key(path)].SHA256
}

// key is the trust file's key for path: its absolute, clean form.
func key(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// sum is Sum, remembered for the file's identity (device, inode, size,
// times): a file replaced or written since is hashed again, one left
// alone is not hashed on every start of its toolset.
func (s *Store) sum(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	id, changed, ok := identity(fi)
	// A file changed in the last seconds may change again within the
	// timestamps' granularity without its identity moving: not remembered.
	ok = ok && time.Since(changed) > 2*time.Second
	if ok {
		s.sumsMu.Lock()
		sum, known := s.sums[path+"\x00"+id]
		s.sumsMu.Unlock()
		if known {
			return sum, nil
		}
	}
	sum, err := Sum(path)
	if err != nil || !ok {
		return sum, err
	}
	if after, err := os.Stat(path); err != nil || !sameIdentity(after, id) {
		return sum, nil // changed while hashed: not remembered
	}
	s.sumsMu.Lock()
	if s.sums == nil {
		s.sums = map[string]string{}
	}
	s.sums[path+"\x00"+id] = sum
	s.sumsMu.Unlock()
	return sum, nil
}

func sameIdentity(fi os.FileInfo, id string) bool {
	now, _, ok := identity(fi)
	return ok && now == id
}

// Sum is the hex SHA-256 of the file at path.
func Sum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Trust pins name to the executable at path as it is now, replacing any
// earlier pin, and returns the pin.
func (s *Store) Trust(name, path string) (Pin, error) {
	sum, err := Sum(path)
	if err != nil {
		return Pin{}, err
	}
	return s.record(name, path, sum, true)
}

// record pins name to sum; with replace false an existing pin is kept
// (and returned).
func (s *Store) record(name, path, sum string, replace bool) (Pin, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return Pin{}, err
	}
	if old, ok := f.Plugins[key(path)]; ok && !replace {
		return old, nil
	}
	pin := Pin{Name: name, SHA256: sum, TrustedAt: time.Now().UTC().Truncate(time.Second)}
	f.Plugins[key(path)] = pin
	return pin, s.save(f)
}

// Check implements toolsets.Trust: it refuses the executable at path when
// its SHA-256 is not the one pinned for path (name is the toolset's, for
// messages and the record). With no pin, record pins it (trust on first
// use); otherwise it passes.
func (s *Store) Check(name, path string, record bool) *contract.Error {
	sum, err := s.sum(path)
	if err != nil {
		return contract.Errorf(contract.InternalError, "Toolset %q: cannot read its executable %s to check it is the one trusted: %v.", name, path, err)
	}
	pins, err := s.Pins()
	if err != nil {
		return contract.Precondition(contract.RequirePluginTrusted, fmt.Sprintf("Toolset %q was not started: the trusted-plugins file cannot be read (%v). Fix or remove %s, then run `godot-mcp toolset trust %s`.", name, err, s.Path(), name))
	}
	pin, ok := pins[key(path)]
	switch {
	case ok && pin.SHA256 == sum:
		return nil
	case ok:
		return contract.Precondition(contract.RequirePluginTrusted, fmt.Sprintf(
			"Toolset %q was not started: its executable %s changed since it was trusted (SHA-256 %s, trusted %s; now %s). If you installed this version yourself, run `godot-mcp toolset trust %s` and enable it again; otherwise remove the file.",
			name, path, short(pin.SHA256), pin.TrustedAt.Format(time.DateOnly), short(sum), name))
	case !record:
		return nil
	}
	if pin, err = s.record(name, path, sum, false); err != nil {
		return contract.Errorf(contract.InternalError, "Toolset %q: could not record its executable's SHA-256 in %s: %v.", name, s.Path(), err)
	}
	if pin.SHA256 != sum { // another process pinned another version meanwhile
		return s.Check(name, path, false)
	}
	return nil
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

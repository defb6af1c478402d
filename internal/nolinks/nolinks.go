// Package nolinks reads, writes and removes files inside one directory
// without following a symbolic link anywhere below it.
//
// A project may come from a `git clone`, and a clone can plant links:
// `.mcp.json.bak -> ~/.bashrc`, `addons -> /elsewhere`. What godot-mcp
// writes into a project (`setup --project`, `addon install`, a toolset's
// editor code) goes through a Dir: every existing component of a path below
// the directory is checked with Lstat and a link is refused with a
// *LinkError naming it; paths are local (no "..", not absolute); files are
// written to a temporary file created exclusively (O_EXCL: never through a
// link, never onto someone else's file) in the same directory, then renamed
// into place. The directory itself is the caller's (the user chose it) and
// may be reached through links. Operations go through an os.Root, so even
// a link swapped in after the check cannot lead outside the directory.
package nolinks

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LinkError is a refusal: Path (absolute) is a symbolic link.
type LinkError struct {
	Path   string
	Target string // what the link points at, "" when unreadable
}

func (e *LinkError) Error() string {
	if e.Target == "" {
		return e.Path + " is a symbolic link"
	}
	return fmt.Sprintf("%s is a symbolic link (to %s)", e.Path, e.Target)
}

// ErrNotLocal is wrapped by the error for a path that is absolute, empty,
// or leads out of the directory ("..").
var ErrNotLocal = errors.New("not a path inside the directory")

// Dir is a directory whose files are handled without following links.
type Dir struct {
	path string
	root *os.Root
}

// Open opens dir (which must exist).
func Open(dir string) (*Dir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &Dir{path: abs, root: root}, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Path is rel's path on disk (for messages).
func (d *Dir) Path(rel string) string {
	return filepath.Join(d.path, filepath.FromSlash(rel))
}

// local turns a slash path into a checked, clean local path.
func local(rel string) (string, error) {
	p := filepath.FromSlash(rel)
	if !filepath.IsLocal(p) || filepath.Clean(p) != p || p == "." {
		return "", fmt.Errorf("%q: %w", rel, ErrNotLocal)
	}
	return p, nil
}

// Check refuses rel when it is not local or when any of its components
// that exist (the last one included) is a symbolic link. A missing
// component ends the check: nothing below it exists.
func (d *Dir) Check(rel string) error {
	p, err := local(rel)
	if err != nil {
		return err
	}
	parts := strings.Split(p, string(filepath.Separator))
	for i := range parts {
		prefix := filepath.Join(parts[:i+1]...)
		st, err := d.root.Lstat(prefix)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, _ := d.root.Readlink(prefix)
			return &LinkError{Path: d.Path(prefix), Target: target}
		}
		if i < len(parts)-1 && !st.IsDir() {
			return fmt.Errorf("%s is not a directory", d.Path(prefix))
		}
	}
	return nil
}

// Lstat is the file info of rel after Check.
func (d *Dir) Lstat(rel string) (fs.FileInfo, error) {
	if err := d.Check(rel); err != nil {
		return nil, err
	}
	return d.root.Lstat(filepath.FromSlash(rel))
}

// ReadFile reads rel after Check; a missing file is fs.ErrNotExist.
func (d *Dir) ReadFile(rel string) ([]byte, error) {
	if err := d.Check(rel); err != nil {
		return nil, err
	}
	return d.root.ReadFile(filepath.FromSlash(rel))
}

// MkdirAll creates rel and its missing parents (0755), refusing links.
func (d *Dir) MkdirAll(rel string) error {
	p, err := local(rel)
	if err != nil {
		return err
	}
	if err := d.Check(rel); err != nil {
		return err
	}
	parts := strings.Split(p, string(filepath.Separator))
	for i := range parts {
		prefix := filepath.Join(parts[:i+1]...)
		err := d.root.Mkdir(prefix, 0o755)
		if err == nil || !errors.Is(err, fs.ErrExist) {
			if err != nil {
				return err
			}
			continue
		}
		// It exists: it must be a directory, not a link (re-checked: it may
		// have appeared since Check).
		st, err := d.root.Lstat(prefix)
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, _ := d.root.Readlink(prefix)
			return &LinkError{Path: d.Path(prefix), Target: target}
		}
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory", d.Path(prefix))
		}
	}
	return nil
}

// WriteFile writes data to rel with mode perm: its parent directories are
// created (refusing links), the data goes to a temporary file created
// exclusively next to it, which is then renamed over rel. A link at rel
// or above is refused and nothing is written.
func (d *Dir) WriteFile(rel string, data []byte, perm fs.FileMode) error {
	p, err := local(rel)
	if err != nil {
		return err
	}
	if err := d.Check(rel); err != nil {
		return err
	}
	if parent := filepath.Dir(p); parent != "." {
		if err := d.MkdirAll(filepath.ToSlash(parent)); err != nil {
			return err
		}
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+"."+hex.EncodeToString(rnd[:])+".tmp")
	f, err := d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = d.root.Rename(tmp, p)
	}
	if werr != nil {
		_ = d.root.Remove(tmp)
		return werr
	}
	return nil
}

// Remove deletes the file (or empty directory) rel after Check; a missing
// one is not an error.
func (d *Dir) Remove(rel string) error {
	if err := d.Check(rel); err != nil {
		return err
	}
	err := d.root.Remove(filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// IsLink reports whether err is (or wraps) a *LinkError.
func IsLink(err error) bool {
	var le *LinkError
	return errors.As(err, &le)
}

// Rename moves oldRel to newRel (replacing a file there) after Check of
// both: neither may be or lie below a link.
func (d *Dir) Rename(oldRel, newRel string) error {
	if err := d.Check(oldRel); err != nil {
		return err
	}
	if err := d.Check(newRel); err != nil {
		return err
	}
	return d.root.Rename(filepath.FromSlash(oldRel), filepath.FromSlash(newRel))
}

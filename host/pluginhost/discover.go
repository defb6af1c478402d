package pluginhost

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// PluginDirEnv names the directory of third-party toolset executables.
const PluginDirEnv = "GODOT_MCP_PLUGIN_DIR"

// DefaultPluginDir is where third-party toolsets live when PluginDirEnv is
// unset: <user config dir>/godot-mcp/plugins (e.g. ~/.config/godot-mcp/plugins
// on Linux). It is "" when the system has no user config directory.
func DefaultPluginDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "godot-mcp", "plugins")
}

// BuiltInSpec is the spec of a built-in toolset: this executable re-executed
// as `<self> toolset serve NAME`.
func BuiltInSpec(name string) (Spec, error) {
	self, err := os.Executable()
	if err != nil {
		return Spec{}, err
	}
	return Spec{Name: name, Path: self, Args: []string{"toolset", "serve", name}, BuiltIn: true}, nil
}

// SkippedError lists plugin-directory entries that look like toolsets but
// cannot be one. Discover returns it alongside the usable specs.
type SkippedError struct {
	Dir     string
	Skipped []SkippedFile
}

// SkippedFile is one plugin-directory entry that is not served, and why.
type SkippedFile struct {
	File   string // the entry's name in the directory
	Reason string
}

func (e *SkippedError) Error() string {
	reasons := make([]string, len(e.Skipped))
	for i, s := range e.Skipped {
		reasons[i] = s.File + ": " + s.Reason
	}
	return fmt.Sprintf("plugin directory %s: skipped %s", e.Dir, strings.Join(reasons, "; "))
}

// ReservedNames are names no third-party toolset may have, with why: a
// toolset named core would serve (and, disabled, delete) the core's own
// resources; one named all could never be enabled alone.
var ReservedNames = map[string]string{
	"core": "the server's own tools and resources are toolset core",
	"all":  "godot_enable_toolset {\"name\": \"all\"} means every toolset",
}

// Discover lists the toolset executables in dir, sorted by name. The file
// name without extension (".exe" on Windows) is the toolset name, which must
// be lower case letters, digits and '_'. Directories, hidden files and files
// that are not executable are ignored; a missing dir is no error. Executables
// with unusable names are returned in a *SkippedError together with the
// usable specs, so the caller can log it and go on.
func Discover(dir string) ([]Spec, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var specs []Spec
	var skipped []SkippedFile
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Stat(path) // follows symlinks
		if err != nil || !fi.Mode().IsRegular() || !executable(name, fi) {
			continue
		}
		toolset := name
		if runtime.GOOS == "windows" {
			toolset = strings.TrimSuffix(strings.ToLower(name), ".exe")
		}
		if !toolNameRE.MatchString(toolset) {
			skipped = append(skipped, SkippedFile{File: name, Reason: "the file name must be the toolset name (lower case letters, digits and '_')"})
			continue
		}
		if reason, ok := ReservedNames[toolset]; ok {
			skipped = append(skipped, SkippedFile{File: name, Reason: "the name " + toolset + " is reserved (" + reason + "); rename the executable"})
			continue
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		specs = append(specs, Spec{Name: toolset, Path: abs})
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	if len(skipped) > 0 {
		return specs, &SkippedError{Dir: dir, Skipped: skipped}
	}
	return specs, nil
}

func executable(name string, fi os.FileInfo) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(filepath.Ext(name), ".exe")
	}
	return fi.Mode().Perm()&0o111 != 0
}

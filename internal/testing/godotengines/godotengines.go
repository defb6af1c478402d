// Package godotengines finds the Godot 4 editor binaries a test run uses:
// the e2e suite runs once per engine found, the GDScript parse check runs
// each engine's own parser (--check-only), and `make test`'s last line names
// each engine that ran and each that was skipped and why.
//
// Where engines are looked for, first match wins:
//
//  1. GODOT_BINS: a list of binaries separated by the OS path-list separator
//     (":" on Unix), e.g. GODOT_BINS=/opt/godot-4.4.1:/opt/godot-4.8.
//  2. GODOT_BIN: one binary, or a list in the same form.
//  3. The engine cache, filled once by the developer (docs/godot-versions.md):
//     every executable DIR/*/godot under GODOT_MCP_ENGINES_DIR, by default
//     $XDG_CACHE_HOME/godot-mcp/engines (~/.cache/godot-mcp/engines), plus
//     `godot` on PATH.
//
// The test frameworks (GUT, gdUnit4) are found the same way: an environment
// variable naming the addons/<framework> folder, else the framework cache
// (FrameworkDir).
package godotengines

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Engine is one Godot binary found.
type Engine struct {
	Path    string // absolute path
	Version string // what `godot --version` printed, e.g. 4.4.1.stable.custom_build.839e971
	From    string // where it was found: GODOT_BINS, GODOT_BIN, cache, PATH
	Skip    string // why it cannot be used ("" when usable)
}

// Label is the short name a summary shows: the version up to its status
// ("4.4.1.stable", "4.8.dev"), else the path.
func (e Engine) Label() string {
	if e.Version == "" {
		return e.Path
	}
	parts := strings.Split(e.Version, ".")
	for i, p := range parts {
		if i > 0 && p != "" && (p[0] < '0' || p[0] > '9') {
			return strings.Join(parts[:i+1], ".")
		}
	}
	return e.Version
}

// CacheDir is the directory of the engine cache.
func CacheDir() string {
	if d := os.Getenv("GODOT_MCP_ENGINES_DIR"); d != "" {
		return d
	}
	return filepath.Join(cacheHome(), "godot-mcp", "engines")
}

// FrameworkDir is the addons/<name> folder of a test framework: the
// directory named by env when set, else <cache>/godot-mcp/frameworks/<name>/addons/<name>.
func FrameworkDir(env, name string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	return filepath.Join(cacheHome(), "godot-mcp", "frameworks", name, "addons", name)
}

func cacheHome() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return d
	}
	return filepath.Join(os.TempDir(), "godot-mcp-cache")
}

// Find returns every engine configured or present, usable or not (Skip says
// why not), in a stable order, each binary once.
func Find() []Engine {
	var cands []Engine
	switch {
	case os.Getenv("GODOT_BINS") != "":
		cands = fromList(os.Getenv("GODOT_BINS"), "GODOT_BINS")
	case os.Getenv("GODOT_BIN") != "":
		cands = fromList(os.Getenv("GODOT_BIN"), "GODOT_BIN")
	default:
		if p, err := exec.LookPath("godot"); err == nil {
			cands = append(cands, Engine{Path: p, From: "PATH"})
		}
		matches, _ := filepath.Glob(filepath.Join(CacheDir(), "*", "godot"))
		sort.Strings(matches)
		for _, m := range matches {
			cands = append(cands, Engine{Path: m, From: "cache " + CacheDir()})
		}
	}
	seen := map[string]bool{}
	var out []Engine
	for _, e := range cands {
		key := e.Path
		if r, err := filepath.EvalSymlinks(e.Path); err == nil {
			key = r
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, probe(e))
	}
	return out
}

// Usable is the engines of all (from Find) that can run, and a sentence
// saying why there are none when there are none.
func Usable(all []Engine) ([]Engine, string) {
	var ok []Engine
	var why []string
	for _, e := range all {
		if e.Skip == "" {
			ok = append(ok, e)
		} else {
			why = append(why, e.Skip)
		}
	}
	if len(ok) > 0 {
		return ok, ""
	}
	if len(why) > 0 {
		return nil, strings.Join(why, "; ")
	}
	return nil, fmt.Sprintf("no Godot 4 binary found (set GODOT_BINS or GODOT_BIN, put godot on PATH, or build engines into %s/<version>/godot: docs/godot-versions.md)", CacheDir())
}

func fromList(list, from string) []Engine {
	var out []Engine
	for _, p := range filepath.SplitList(list) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, Engine{Path: p, From: from})
		}
	}
	return out
}

// probe runs `godot --headless --version` and fills Version or Skip.
func probe(e Engine) Engine {
	p, err := exec.LookPath(e.Path)
	if err != nil {
		e.Skip = fmt.Sprintf("%s (from %s) is not an executable Godot binary (%v)", e.Path, e.From, err)
		return e
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	e.Path = p
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p, "--headless", "--version")
	// Godot writes its settings and logs under XDG dirs even for --version.
	tmp, _ := os.MkdirTemp("", "godot-version-")
	defer os.RemoveAll(tmp)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+tmp, "XDG_DATA_HOME="+tmp, "XDG_CACHE_HOME="+tmp)
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	v := strings.TrimSpace(lines[len(lines)-1])
	switch {
	case err != nil || v == "":
		e.Skip = fmt.Sprintf("%s (from %s): --version failed (%v)", p, e.From, err)
	case !strings.HasPrefix(v, "4."):
		e.Skip = fmt.Sprintf("%s (from %s) is Godot %s; the addon needs Godot 4", p, e.From, v)
	default:
		e.Version = v
	}
	return e
}

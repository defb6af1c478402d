package fakeaddon

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/addon"
	"github.com/godot-mcp/godot-mcp/host/envelope"
)

var (
	addonOnce  sync.Once
	addonTable map[string]envelope.CommandInfo
	// The start of an entry of a handler file's get_commands():
	//   "cmd_x": {"class": "mutating", "dry_run": true, "run": ...},
	// on one line or several, its keys in any order (parseEntries).
	entryStartRE = regexp.MustCompile(`"(cmd_[a-z0-9_]+)"\s*:\s*\{`)
	classRE      = regexp.MustCompile(`"class"\s*:\s*"([a-z_]+)"`)
	dryRunRE     = regexp.MustCompile(`"dry_run"\s*:\s*(true|false)`)
	// The router's own commands: register("cmd_ping", ..., "core", "read_only")
	routerRE = regexp.MustCompile(`(?m)^\s*register\("(cmd_[a-z0-9_]+)", .*, "([a-z_]+)", "([a-z_]+)"\)\s*$`)
)

// AddonCommands is the real core addon's command table, as its router
// would declare it: every command of the embedded handlers/<area>_handlers.gd
// files (owner <area>) and the router's own. A toolset's own commands are
// not in it: they come with its editor code (ParseCommands), declared when
// the editor loads that (cmd_ext_load). A fresh copy each call.
func AddonCommands() map[string]envelope.CommandInfo {
	addonOnce.Do(func() {
		t, err := parseAddonCommands(addon.FS)
		if err != nil {
			panic("fakeaddon: " + err.Error())
		}
		addonTable = t
	})
	out := make(map[string]envelope.CommandInfo, len(addonTable))
	for k, v := range addonTable {
		out[k] = v
	}
	return out
}

func parseAddonCommands(fsys fs.FS) (map[string]envelope.CommandInfo, error) {
	table := map[string]envelope.CommandInfo{}
	router, err := fs.ReadFile(fsys, "command_router.gd")
	if err != nil {
		return nil, err
	}
	for _, m := range routerRE.FindAllStringSubmatch(string(router), -1) {
		table[m[1]] = envelope.CommandInfo{Class: m[3], Owner: m[2]}
	}
	files, err := fs.Glob(fsys, "handlers/*_handlers.gd")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		owner := strings.TrimSuffix(path.Base(f), "_handlers.gd")
		found := parseEntries(string(src))
		if len(found) == 0 {
			return nil, fmt.Errorf("%s declares no command in the form \"cmd_x\": {\"class\": ..., \"run\": ...}", f)
		}
		for _, e := range found {
			if _, dup := table[e.name]; dup {
				return nil, fmt.Errorf("%s: %s is declared twice", f, e.name)
			}
			table[e.name] = envelope.CommandInfo{Class: e.class, DryRun: e.dryRun, Owner: owner}
		}
	}
	return table, nil
}

// ParseCommands is the command table a toolset's editor code declares, as
// the real addon would register it from <toolset>/handlers.gd and the files
// it preloads: every entry "cmd_x": {"class": ..., "run": ...} in a .gd file
// of fsys, owned by owner. A command declared twice is an error.
func ParseCommands(fsys fs.FS, owner string) (map[string]envelope.CommandInfo, error) {
	table := map[string]envelope.CommandInfo{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == "game" {
			return fs.SkipDir // a toolset's game code (it runs in the game, declares no command)
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gd") {
			return err
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		for _, e := range parseEntries(string(src)) {
			if _, dup := table[e.name]; dup {
				return fmt.Errorf("%s: %s is declared twice", p, e.name)
			}
			table[e.name] = envelope.CommandInfo{Class: e.class, DryRun: e.dryRun, Owner: owner}
		}
		return nil
	})
	return table, err
}

type commandEntry struct {
	name, class string
	dryRun      bool
}

// parseEntries finds the command declarations of a .gd source as the addon
// reads them from get_commands(): each "cmd_x": {...} dictionary with a
// "class" (and optionally "dry_run") key, written on one line or over
// several, keys in any order, comments and strings inside allowed.
// Dictionaries without a class are not declarations.
func parseEntries(src string) []commandEntry {
	var out []commandEntry
	for _, loc := range entryStartRE.FindAllStringSubmatchIndex(src, -1) {
		body, ok := braceBody(src[loc[1]-1:])
		if !ok {
			continue
		}
		c := classRE.FindStringSubmatch(body)
		if c == nil {
			continue
		}
		d := dryRunRE.FindStringSubmatch(body)
		out = append(out, commandEntry{name: src[loc[2]:loc[3]], class: c[1], dryRun: d != nil && d[1] == "true"})
	}
	return out
}

// braceBody is the text of the {...} that s starts with, without the comments,
// up to its matching brace (strings and # comments skipped).
func braceBody(s string) (string, bool) {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(s[i:min(j+1, len(s))])
			i = j
		case '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case '{':
			depth++
			b.WriteByte(c)
		case '}':
			depth--
			b.WriteByte(c)
			if depth == 0 {
				return b.String(), true
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// Commands is the command table the addon declared (the hello's, plus
// what Declare added).
func (a *Addon) Commands() map[string]envelope.CommandInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]envelope.CommandInfo, len(a.commands))
	for k, v := range a.commands {
		out[k] = v
	}
	return out
}

// Declare adds commands to the addon's table (replacing entries of the
// same name) and sends the server the whole table in a
// cmd_editor_commands push, as the real addon does after loading an
// extension. The push is fire-and-forget: the server applies it once read.
func (a *Addon) Declare(ctx context.Context, table map[string]envelope.CommandInfo) error {
	a.mu.Lock()
	next := make(map[string]envelope.CommandInfo, len(a.commands)+len(table))
	for k, v := range a.commands {
		next[k] = v
	}
	for k, v := range table {
		next[k] = v
	}
	a.commands = next
	a.mu.Unlock()
	return a.pushTable(ctx)
}

// pushTable sends the server the whole command table and the loaded
// extensions in a cmd_editor_commands push.
func (a *Addon) pushTable(ctx context.Context) error {
	a.mu.Lock()
	exts := make(map[string]string, len(a.extensions))
	for k, v := range a.extensions {
		exts[k] = v
	}
	params, err := envelope.Marshal(envelope.EditorCommands{Commands: a.commands, Extensions: exts})
	a.mu.Unlock()
	if err != nil {
		return err
	}
	frame, err := envelope.Marshal(envelope.Command{Command: envelope.CmdEditorCommands, Params: params})
	if err != nil {
		return err
	}
	return a.conn.Write(ctx, websocket.MessageText, frame)
}

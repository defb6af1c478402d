package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/nolinks"
)

// setupClients are the clients `godot-mcp setup` knows, in help order.
var setupClients = []string{"claude-code", "claude-desktop", "cursor", "vscode", "print"}

const setupUsage = `usage: godot-mcp setup CLIENT [--project DIR] [--name NAME] [--dry-run]

Adds godot-mcp (this binary, by absolute path) to an MCP client's config,
keeping every other server in it; the file is backed up first (FILE.bak).
In a project no symbolic link is followed (the config, its backup, the
folders on the way): a link there is refused and nothing is written.

  claude-code     ~/.claude.json (user scope); with --project, DIR/.mcp.json (project scope)
  claude-desktop  <user config dir>/Claude/claude_desktop_config.json
  cursor          ~/.cursor/mcp.json; with --project, DIR/.cursor/mcp.json
  vscode          <user config dir>/Code/User/mcp.json; with --project, DIR/.vscode/mcp.json
  print           print a JSON snippet ({"mcpServers": ...}) for any other client

  --project DIR   also set GODOT_MCP_PROJECT_DIR=DIR, and use the project-scoped config
  --name NAME     the server's name in the config (default godot)
  --dry-run       print the file that would be written, write nothing
`

// serverEntry is the config entry of this server.
type serverEntry struct {
	Type    string            `json:"type,omitempty"` // VS Code wants "stdio"
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// setupCommand implements `godot-mcp setup CLIENT`.
func setupCommand(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, setupUsage)
		return errors.New("setup needs a client: " + strings.Join(setupClients, ", "))
	}
	client := args[0]
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, setupUsage) }
	project := fs.String("project", "", "Godot project directory")
	name := fs.String("name", "godot", "server name in the client's config")
	dryRun := fs.Bool("dry-run", false, "print, write nothing")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("setup %s: unexpected %q", client, strings.Join(fs.Args(), " "))
	}
	self, err := selfPath()
	if err != nil {
		return err
	}
	entry := serverEntry{Command: self, Args: []string{}}
	if *project != "" {
		abs, err := filepath.Abs(*project)
		if err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(abs, "project.godot")); err != nil {
			return fmt.Errorf("--project %s: no project.godot there (pass the folder that contains it)", abs)
		}
		*project = abs
		entry.Env = map[string]string{"GODOT_MCP_PROJECT_DIR": abs}
	}

	key := "mcpServers"
	var path string
	switch client {
	case "print":
		out, _ := json.MarshalIndent(map[string]any{key: map[string]any{*name: entry}}, "", "  ")
		_, err := fmt.Fprintf(stdout, "%s\n", out)
		return err
	case "claude-code":
		if *project != "" {
			path = filepath.Join(*project, ".mcp.json")
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return err
			}
			path = filepath.Join(home, ".claude.json")
		}
		entry.Type = "stdio"
	case "claude-desktop":
		dir, err := os.UserConfigDir()
		if err != nil {
			return err
		}
		path = filepath.Join(dir, "Claude", "claude_desktop_config.json")
	case "cursor":
		if *project != "" {
			path = filepath.Join(*project, ".cursor", "mcp.json")
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return err
			}
			path = filepath.Join(home, ".cursor", "mcp.json")
		}
	case "vscode":
		key = "servers"
		entry.Type = "stdio"
		if *project != "" {
			path = filepath.Join(*project, ".vscode", "mcp.json")
		} else {
			dir, err := os.UserConfigDir()
			if err != nil {
				return err
			}
			path = filepath.Join(dir, "Code", "User", "mcp.json")
		}
	default:
		fmt.Fprint(stderr, setupUsage)
		return fmt.Errorf("setup: unknown client %q (known: %s)", client, strings.Join(setupClients, ", "))
	}

	// In a project (it may come from a clone) no link is followed: not the
	// config, not its backup, not a directory on the way. The user's own
	// config may be a link they made (a dotfile manager's): the file it
	// points at is updated; its backup is never written through a link.
	dir, rel := *project, ""
	if dir != "" {
		rel, _ = filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
	} else {
		if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(path)
			if err != nil {
				return fmt.Errorf("%s is a symbolic link that leads nowhere (%v); nothing was changed. Fix or remove the link and run setup again", path, err)
			}
			path = real
		}
		dir, rel = filepath.Dir(path), filepath.Base(path)
	}
	refused := func(err error) error {
		if nolinks.IsLink(err) {
			return fmt.Errorf("refused: %w; setup does not read or write through symbolic links here, and nothing was changed. Remove the link (or put a regular file in its place) and run setup again", err)
		}
		return err
	}
	var files *nolinks.Dir
	if _, err := os.Stat(dir); err == nil {
		if files, err = nolinks.Open(dir); err != nil {
			return err
		}
		defer files.Close()
		for _, p := range []string{rel, rel + ".bak"} {
			if err := files.Check(p); err != nil {
				return refused(err)
			}
		}
	}
	var old []byte
	mode := os.FileMode(0o644)
	existed := false
	if files != nil {
		if old, err = files.ReadFile(rel); err == nil {
			existed = true
			if st, err := files.Lstat(rel); err == nil {
				mode = st.Mode().Perm()
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return refused(err)
		}
	}
	raw, _ := json.Marshal(entry)
	updated, replaced, err := mergeServer(old, key, *name, raw)
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was changed. Add this to it by hand:\n%s", path, err, snippet(key, *name, entry))
	}
	if *dryRun {
		fmt.Fprintf(stdout, "would write %s:\n%s", path, updated)
		return nil
	}
	if existed && bytes.Equal(bytes.TrimSpace(old), bytes.TrimSpace(updated)) {
		fmt.Fprintf(stdout, "%s already has %q pointing at %s; nothing to do\n", path, *name, self)
		return nil
	}
	if files == nil { // a user-level config directory that does not exist yet
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if files, err = nolinks.Open(dir); err != nil {
			return err
		}
		defer files.Close()
	}
	if existed {
		if err := files.WriteFile(rel+".bak", old, mode); err != nil {
			if nolinks.IsLink(err) {
				return refused(err)
			}
			return fmt.Errorf("backing up %s: %w; nothing was changed", path, err)
		}
	}
	if err := files.WriteFile(rel, updated, mode); err != nil {
		return refused(err)
	}
	verb := "added"
	if replaced {
		verb = "replaced"
	}
	fmt.Fprintf(stdout, "%s %q in %s (command %s)\n", verb, *name, path, self)
	if existed {
		fmt.Fprintf(stdout, "the previous file is %s.bak\n", path)
	}
	fmt.Fprintln(stdout, "restart the client (or reload its MCP servers), then check with: "+self+" doctor")
	return nil
}

// selfPath is this binary's absolute path, symlinks resolved.
func selfPath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if p, err := filepath.EvalSymlinks(self); err == nil {
		self = p
	}
	return filepath.Abs(self)
}

func snippet(key, name string, entry serverEntry) string {
	out, _ := json.MarshalIndent(map[string]any{key: map[string]any{name: entry}}, "", "  ")
	return string(out)
}

// mergeServer sets doc[key][name] = entry in a JSON document, keeping every
// other member and their order; an empty doc is a new file. replaced says
// an entry of that name was there.
func mergeServer(doc []byte, key, name string, entry json.RawMessage) (out []byte, replaced bool, err error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}")
	}
	top, err := orderedObject(doc)
	if err != nil {
		return nil, false, fmt.Errorf("not a JSON object (comments are not supported): %w", err)
	}
	servers := []member{}
	idx := -1
	for i, m := range top {
		if m.Key == key {
			idx = i
			if string(bytes.TrimSpace(m.Value)) != "null" {
				if servers, err = orderedObject(m.Value); err != nil {
					return nil, false, fmt.Errorf("%q is not a JSON object: %w", key, err)
				}
			}
		}
	}
	found := false
	for i := range servers {
		if servers[i].Key == name {
			servers[i].Value, found = entry, true
		}
	}
	if !found {
		servers = append(servers, member{Key: name, Value: entry})
	}
	value := encodeObject(servers)
	if idx >= 0 {
		top[idx].Value = value
	} else {
		top = append(top, member{Key: key, Value: value})
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, encodeObject(top), "", "  "); err != nil {
		return nil, false, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), found, nil
}

type member struct {
	Key   string
	Value json.RawMessage
}

// orderedObject splits a JSON object into its members, in order.
func orderedObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, fmt.Errorf("duplicate key %q", k)
		}
		seen[k] = true
		out = append(out, member{Key: k, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return out, nil
}

func encodeObject(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

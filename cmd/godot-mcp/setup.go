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
	"runtime"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/internal/nolinks"
)

func setupUsage() string {
	var b strings.Builder
	b.WriteString(`usage: godot-mcp setup CLIENT [--project DIR] [--name NAME] [--dry-run]

Adds godot-mcp (this binary, by absolute path; "npx -y godot-mcp" when it
runs from the npm package) to an MCP client's config, keeping every other
server and setting in it; the file is backed up first (FILE.bak). In a
project no symbolic link is followed (the config, its backup, the folders
on the way): a link there is refused and nothing is written.

`)
	for _, c := range setupClientTable {
		fmt.Fprintf(&b, "  %-15s %s\n", c.name, c.usage)
	}
	b.WriteString(`  print           print a JSON snippet ({"mcpServers": ...}) for any other client

  --project DIR   also set GODOT_MCP_PROJECT_DIR=DIR, and use the project-scoped config
                  of a client that has one
  --name NAME     the server's name in the config (default godot)
  --dry-run       print the file that would be written, write nothing
`)
	return b.String()
}

// serverEntry is the config entry of this server.
type serverEntry struct {
	Type    string            `json:"type,omitempty"` // VS Code wants "stdio"
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// selfLaunch is how a client should start this binary: by its absolute
// path, or through npx when it runs from the npm package (whose path is in
// npx's cache and changes with every version).
func selfLaunch() (launch, error) {
	self, err := selfPath()
	if err != nil {
		return launch{}, err
	}
	if npmPackage(self) != "" {
		if runtime.GOOS == "windows" { // npx is npx.cmd, which clients start through cmd
			return launch{Command: "cmd", Args: []string{"/c", "npx", "-y", npmLauncherName}}, nil
		}
		return launch{Command: "npx", Args: []string{"-y", npmLauncherName}}, nil
	}
	return launch{Command: self, Args: []string{}}, nil
}

// setupCommand implements `godot-mcp setup CLIENT`.
func setupCommand(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, setupUsage())
		return errors.New("setup needs a client: " + strings.Join(setupClientNames(), ", "))
	}
	clientName := args[0]
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, setupUsage()) }
	project := fs.String("project", "", "Godot project directory")
	name := fs.String("name", "godot", "server name in the client's config")
	dryRun := fs.Bool("dry-run", false, "print, write nothing")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("setup %s: unexpected %q", clientName, strings.Join(fs.Args(), " "))
	}
	if *name == "" || strings.ContainsFunc(*name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("--name %q: want a name without control characters", *name)
	}
	l, err := selfLaunch()
	if err != nil {
		return err
	}
	if *project != "" {
		abs, err := filepath.Abs(*project)
		if err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(abs, "project.godot")); err != nil {
			return fmt.Errorf("--project %s: no project.godot there (pass the folder that contains it)", abs)
		}
		*project = abs
		l.Env = map[string]string{"GODOT_MCP_PROJECT_DIR": abs}
	}
	if clientName == "print" {
		out, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{*name: serverEntry{Command: l.Command, Args: l.Args, Env: l.Env}}}, "", "  ")
		_, err := fmt.Fprintf(stdout, "%s\n", out)
		return err
	}
	client, ok := lookupSetupClient(clientName)
	if !ok {
		fmt.Fprint(stderr, setupUsage())
		return fmt.Errorf("setup: unknown client %q (known: %s)", clientName, strings.Join(setupClientNames(), ", "))
	}
	var path string
	inProject := *project != "" && client.project != nil
	if inProject {
		path = client.project(*project)
	} else if path, err = client.user(); err != nil {
		return err
	}

	// In a project (it may come from a clone) no link is followed: not the
	// config, not its backup, not a directory on the way. The user's own
	// config may be a link they made (a dotfile manager's): the file it
	// points at is updated; its backup is never written through a link.
	dir, rel := *project, ""
	if inProject {
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
	key, v2 := client.key, false
	if client.shape == shapeOpenCode && openCodeV2(old) {
		key, v2 = []string{"mcp", "servers"}, true
	}
	entry := client.entry(l, v2)
	updated, replaced, err := mergeConfig(client.format, old, key, *name, entry)
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was changed. Add this to it by hand:\n%s", path, err, snippet(client, key, *name, entry))
	}
	if *dryRun {
		fmt.Fprintf(stdout, "would write %s:\n%s", path, updated)
		return nil
	}
	if existed && bytes.Equal(bytes.TrimSpace(old), bytes.TrimSpace(updated)) {
		fmt.Fprintf(stdout, "%s already has %q pointing at %s; nothing to do\n", path, *name, l.Command)
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
	fmt.Fprintf(stdout, "%s %q in %s (command %s)\n", verb, *name, path, strings.Join(append([]string{l.Command}, l.Args...), " "))
	if existed {
		fmt.Fprintf(stdout, "the previous file is %s.bak\n", path)
	}
	if note := clientNote(client); note != "" {
		fmt.Fprintln(stdout, note)
	}
	fmt.Fprintln(stdout, "restart the client (or reload its MCP servers), then check with: godot-mcp doctor --client "+client.name)
	return nil
}

// clientNote is what the server knows of the client's limits, and the
// profile it gets.
func clientNote(c setupClient) string {
	if c.limits == "" {
		return ""
	}
	for _, pc := range profile.Clients {
		if pc.Name != c.limits {
			continue
		}
		var what []string
		if pc.IgnoresListChanged {
			what = append(what, "it never re-reads the tool list after tools/list_changed, so toolsets enabled later stay unseen")
		}
		if pc.ToolCap > 0 {
			what = append(what, fmt.Sprintf("it takes at most %d tools (%s)", pc.ToolCap, pc.CapNote))
		}
		return fmt.Sprintf("note: %s: %s; the server starts it with the %q profile (GODOT_MCP_PROFILE in the entry's env picks another; docs/clients.md)",
			c.display, strings.Join(what, "; "), pc.Profile)
	}
	return ""
}

// openCodeV2 says the OpenCode config lists servers under mcp.servers
// (OpenCode 2's own shape) rather than under mcp.
func openCodeV2(doc []byte) bool {
	servers, err := configServers(formatJSONC, doc, []string{"mcp", "servers"})
	if err != nil || servers == nil {
		return false
	}
	for _, raw := range servers {
		var probe map[string]json.RawMessage
		if json.Unmarshal(raw, &probe) != nil {
			return false
		}
		if _, ok := probe["type"]; !ok {
			return false
		}
	}
	return true
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

func snippet(c setupClient, key []string, name string, entry any) string {
	if c.format == formatTOML {
		out, _, err := mergeTOML(nil, key, name, mustJSON(entry))
		if err == nil {
			return string(out)
		}
	}
	var v any = map[string]any{name: entry}
	for i := len(key) - 1; i >= 0; i-- {
		v = map[string]any{key[i]: v}
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return string(out)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

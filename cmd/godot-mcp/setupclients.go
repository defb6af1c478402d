package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// configFormat is how a client's config file is read and written.
type configFormat int

const (
	// formatJSON: plain JSON; a file with comments is refused (the client
	// would not read it either).
	formatJSON configFormat = iota // the zero value, named for the table
	// formatJSONC: JSON with comments and trailing commas (the client reads
	// them); comments and the file's layout are kept.
	formatJSONC
	// formatTOML: Codex's config.toml; comments and other tables are kept.
	formatTOML
)

// entryShape is how one server entry looks in a client's config.
type entryShape int

const (
	shapeStandard entryShape = iota // {"command", "args", "env"}
	shapeStdio                      // {"type": "stdio", "command", "args", "env"}
	shapeOpenCode                   // {"type": "local", "command": [cmd, args...], "enabled", "environment"}
)

// setupClient is one client `godot-mcp setup` writes, and `doctor` reads.
type setupClient struct {
	name    string
	display string // as users know it
	usage   string // the help line after the name
	format  configFormat
	shape   entryShape
	// key is the path to the object holding the servers.
	key []string
	// user is the user-level config; project, when not nil, the project's.
	user    func() (string, error)
	project func(dir string) string
	// limits names the host/profile client whose limits this one has.
	limits string
}

func homeFile(parts ...string) func() (string, error) {
	return func() (string, error) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(append([]string{home}, parts...)...), nil
	}
}

func configDirFile(parts ...string) func() (string, error) {
	return func() (string, error) {
		dir, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(append([]string{dir}, parts...)...), nil
	}
}

// xdgConfigFile is $XDG_CONFIG_HOME/parts, else ~/.config/parts, on every
// OS (where OpenCode and Zed look on Linux and macOS).
func xdgConfigFile(parts ...string) (string, error) {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(append([]string{dir}, parts...)...), nil
}

// existingOr returns the first of paths that exists, else the first.
func existingOr(paths ...string) string {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return paths[0]
}

func projectFile(parts ...string) func(string) string {
	return func(dir string) string { return filepath.Join(append([]string{dir}, parts...)...) }
}

// setupClientTable lists the clients `godot-mcp setup` knows, in help order.
var setupClientTable = []setupClient{
	{name: "claude-code", display: "Claude Code", usage: "~/.claude.json (user scope); with --project, DIR/.mcp.json (project scope)",
		format: formatJSON, shape: shapeStdio, key: []string{"mcpServers"}, user: homeFile(".claude.json"), project: projectFile(".mcp.json")},
	{name: "claude-desktop", display: "Claude Desktop", usage: "<user config dir>/Claude/claude_desktop_config.json",
		key: []string{"mcpServers"}, user: configDirFile("Claude", "claude_desktop_config.json")},
	{name: "cursor", display: "Cursor", usage: "~/.cursor/mcp.json; with --project, DIR/.cursor/mcp.json",
		key: []string{"mcpServers"}, user: homeFile(".cursor", "mcp.json"), project: projectFile(".cursor", "mcp.json"), limits: "Cursor"},
	{name: "vscode", display: "VS Code", usage: "<user config dir>/Code/User/mcp.json; with --project, DIR/.vscode/mcp.json",
		shape: shapeStdio, key: []string{"servers"}, user: configDirFile("Code", "User", "mcp.json"), project: projectFile(".vscode", "mcp.json"), limits: "VS Code (Copilot)"},
	{name: "codex", display: "Codex", usage: "~/.codex/config.toml ($CODEX_HOME) [mcp_servers.NAME]; with --project, DIR/.codex/config.toml (trusted projects)",
		format: formatTOML, key: []string{"mcp_servers"}, user: codexConfig, project: projectFile(".codex", "config.toml"), limits: "Codex"},
	{name: "gemini", display: "Gemini CLI", usage: "~/.gemini/settings.json (mcpServers); with --project, DIR/.gemini/settings.json",
		format: formatJSONC, key: []string{"mcpServers"}, user: homeFile(".gemini", "settings.json"), project: projectFile(".gemini", "settings.json")},
	{name: "opencode", display: "OpenCode", usage: "~/.config/opencode/opencode.json (mcp); with --project, DIR/opencode.json",
		format: formatJSONC, shape: shapeOpenCode, key: []string{"mcp"}, user: openCodeConfig, project: openCodeProject},
	{name: "zed", display: "Zed", usage: "~/.config/zed/settings.json (context_servers; %AppData%\\Zed on Windows)",
		format: formatJSONC, key: []string{"context_servers"}, user: zedConfig},
	{name: "windsurf", display: "Windsurf", usage: "~/.codeium/windsurf/mcp_config.json",
		key: []string{"mcpServers"}, user: homeFile(".codeium", "windsurf", "mcp_config.json")},
	{name: "antigravity", display: "Antigravity", usage: "~/.gemini/antigravity/mcp_config.json",
		key: []string{"mcpServers"}, user: homeFile(".gemini", "antigravity", "mcp_config.json"), limits: "Antigravity"},
	{name: "cline", display: "Cline", usage: "the VS Code extension's cline_mcp_settings.json (the CLI's ~/.cline/data/settings/… when only the CLI is there)",
		key: []string{"mcpServers"}, user: clineConfig},
}

func lookupSetupClient(name string) (setupClient, bool) {
	for _, c := range setupClientTable {
		if c.name == name {
			return c, true
		}
	}
	return setupClient{}, false
}

func setupClientNames() []string {
	out := make([]string, 0, len(setupClientTable)+1)
	for _, c := range setupClientTable {
		out = append(out, c.name)
	}
	return append(out, "print")
}

// codexConfig is $CODEX_HOME/config.toml, else ~/.codex/config.toml.
func codexConfig() (string, error) {
	if h := os.Getenv("CODEX_HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, "config.toml"), nil
	}
	return homeFile(".codex", "config.toml")()
}

// openCodeConfig is the global opencode.json (opencode.jsonc when only
// that exists).
func openCodeConfig() (string, error) {
	j, err := xdgConfigFile("opencode", "opencode.json")
	if err != nil {
		return "", err
	}
	return existingOr(j, strings.TrimSuffix(j, ".json")+".jsonc"), nil
}

func openCodeProject(dir string) string {
	return existingOr(filepath.Join(dir, "opencode.json"), filepath.Join(dir, "opencode.jsonc"))
}

// zedConfig is Zed's user settings.json.
func zedConfig() (string, error) {
	if runtime.GOOS == "windows" {
		return configDirFile("Zed", "settings.json")()
	}
	return xdgConfigFile("zed", "settings.json")
}

// clineConfig is the Cline VS Code extension's MCP settings; when only the
// Cline CLI is there (~/.cline/data), the CLI's.
func clineConfig() (string, error) {
	ext, err := configDirFile("Code", "User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json")()
	if err != nil {
		return "", err
	}
	cli, err := homeFile(".cline", "data", "settings", "cline_mcp_settings.json")()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Dir(filepath.Dir(ext))); err != nil {
		if _, err := os.Stat(filepath.Dir(filepath.Dir(cli))); err == nil {
			return cli, nil
		}
	}
	return ext, nil
}

// launch is how a client starts this server.
type launch struct {
	Command string
	Args    []string
	Env     map[string]string
}

// entry is the server entry in the client's shape.
func (c setupClient) entry(l launch, openCodeV2 bool) any {
	args := l.Args
	if args == nil {
		args = []string{}
	}
	switch c.shape {
	case shapeOpenCode:
		e := struct {
			Type        string            `json:"type"`
			Command     []string          `json:"command"`
			Enabled     *bool             `json:"enabled,omitempty"`
			Environment map[string]string `json:"environment,omitempty"`
		}{Type: "local", Command: append([]string{l.Command}, args...), Environment: l.Env}
		if !openCodeV2 {
			t := true
			e.Enabled = &t
		}
		return e
	case shapeStdio:
		return serverEntry{Type: "stdio", Command: l.Command, Args: args, Env: l.Env}
	default:
		return serverEntry{Command: l.Command, Args: args, Env: l.Env}
	}
}

// launchOf reads a launch back from an entry in the client's shape.
func (c setupClient) launchOf(raw json.RawMessage) (launch, error) {
	if c.shape == shapeOpenCode {
		var e struct {
			Command     []string          `json:"command"`
			Environment map[string]string `json:"environment"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return launch{}, err
		}
		if len(e.Command) == 0 {
			return launch{}, fmt.Errorf("no command")
		}
		return launch{Command: e.Command[0], Args: e.Command[1:], Env: e.Environment}, nil
	}
	var e serverEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return launch{}, err
	}
	return launch{Command: e.Command, Args: e.Args, Env: e.Env}, nil
}

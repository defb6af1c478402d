package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// clientEnv is userDirs with no CODEX_HOME or XDG_CONFIG_HOME of the host's
// leaking in.
func clientEnv(t *testing.T) (home string, env []string) {
	home, env = userDirs(t)
	return home, append(env, "CODEX_HOME=")
}

// parseConfig reads a config file the way its client does: TOML, or JSON
// with comments.
func parseConfig(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if strings.HasSuffix(path, ".toml") {
		err = toml.Unmarshal(data, &doc)
	} else {
		var std []byte
		if std, err = hujson.Standardize(data); err == nil {
			err = json.Unmarshal(std, &doc)
		}
	}
	if err != nil {
		t.Fatalf("%s does not parse: %v\n%s", path, err, data)
	}
	return doc
}

func dig(doc map[string]any, path ...string) any {
	var cur any = doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

type clientCase struct {
	client    string
	file      func(home string) string
	key       []string // where the servers are
	original  string   // another server "other", another setting, a comment where the format has them
	malformed string
	comment   string // a comment that must survive ("" when the format has none)
	// command is the godot entry's command as a list (OpenCode's shape is one
	// array; the others are command + args).
	command func(entry map[string]any) []string
}

func standardCommand(e map[string]any) []string {
	out := []string{}
	if c, ok := e["command"].(string); ok {
		out = append(out, c)
	}
	if args, ok := e["args"].([]any); ok {
		for _, a := range args {
			out = append(out, a.(string))
		} // a missing args is caught by the caller's length check
	} else {
		return nil
	}
	return out
}

func arrayCommand(e map[string]any) []string {
	var out []string
	arr, _ := e["command"].([]any)
	for _, a := range arr {
		out = append(out, a.(string))
	}
	if e["type"] != "local" {
		return nil
	}
	return out
}

var newClientCases = []clientCase{
	{
		client: "codex",
		file:   func(h string) string { return filepath.Join(h, ".codex", "config.toml") },
		key:    []string{"mcp_servers"},
		original: `# my codex config
model = "gpt-5"

[mcp_servers.other]
command = "/usr/bin/other"
args = ["--x"]

# the old godot entry
[mcp_servers.godot]
command = "/old/godot-mcp"
args = [
  "--stale",
]

[mcp_servers.godot.env]
STALE = "1"

# profiles
[profiles.fast]
model = "o4-mini"
`,
		malformed: "[mcp_servers.other\ncommand = 1\n",
		comment:   "# profiles",
		command:   standardCommand,
	},
	{
		client:    "gemini",
		file:      func(h string) string { return filepath.Join(h, ".gemini", "settings.json") },
		key:       []string{"mcpServers"},
		original:  "{\n  // mine\n  \"general\": {\"vimMode\": true},\n  \"mcpServers\": {\n    \"other\": {\"command\": \"/usr/bin/other\", \"args\": [\"--x\"]},\n  },\n}\n",
		malformed: "{\"mcpServers\": {\"other\": }\n",
		comment:   "// mine",
		command:   standardCommand,
	},
	{
		client:    "opencode",
		file:      func(h string) string { return filepath.Join(h, ".config", "opencode", "opencode.json") },
		key:       []string{"mcp"},
		original:  "{\n  // mine\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"other\": {\"type\": \"local\", \"command\": [\"/usr/bin/other\", \"--x\"]},\n  },\n}\n",
		malformed: "{\"mcp\": [}\n",
		comment:   "// mine",
		command:   arrayCommand,
	},
	{
		client:    "zed",
		file:      func(h string) string { return filepath.Join(h, ".config", "zed", "settings.json") },
		key:       []string{"context_servers"},
		original:  "// Zed settings\n//\n// For information on how to configure Zed, see the Zed\n// documentation: https://zed.dev/docs/configuring-zed\n{\n  \"ui_font_size\": 16,\n  \"context_servers\": {\n    \"other\": {\"command\": \"/usr/bin/other\", \"args\": [\"--x\"], \"env\": {}}\n  }\n}\n",
		malformed: "{\"context_servers\": {\"other\": {\"command\": \"x\",,}}}\n",
		comment:   "// documentation: https://zed.dev/docs/configuring-zed",
		command:   standardCommand,
	},
	{
		client:    "windsurf",
		file:      func(h string) string { return filepath.Join(h, ".codeium", "windsurf", "mcp_config.json") },
		key:       []string{"mcpServers"},
		original:  `{"mcpServers": {"other": {"command": "/usr/bin/other", "args": ["--x"], "disabled": false}}, "theme": "dark"}`,
		malformed: "{\n  // Windsurf does not take comments\n  \"mcpServers\": {}\n}\n",
		command:   standardCommand,
	},
	{
		client:    "antigravity",
		file:      func(h string) string { return filepath.Join(h, ".gemini", "antigravity", "mcp_config.json") },
		key:       []string{"mcpServers"},
		original:  `{"mcpServers": {"other": {"command": "/usr/bin/other", "args": ["--x"]}}}`,
		malformed: `{"mcpServers": {"other": {"command": "/usr/bin/other"}}`,
		command:   standardCommand,
	},
	{
		client: "cline",
		file: func(h string) string {
			return filepath.Join(h, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json")
		},
		key:       []string{"mcpServers"},
		original:  `{"mcpServers": {"other": {"command": "/usr/bin/other", "args": ["--x"], "disabled": false, "autoApprove": []}}}`,
		malformed: `{"mcpServers": "not an object"}`,
		command:   standardCommand,
	},
}

// #28.6: each client's own file, in its own format: the other server, the
// other settings and the comments are kept, a stale godot entry is
// replaced (with its sub-tables in TOML), the old file is the backup, and
// a second run changes nothing.
func TestSetupNewClientsRoundTrip(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the paths below are Linux's")
	}
	for _, tc := range newClientCases {
		t.Run(tc.client, func(t *testing.T) {
			home, env := clientEnv(t)
			path := tc.file(home)
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(tc.original), 0o600)

			out, errOut, code := runBinary(t, env, "setup", tc.client)
			if code != 0 || !strings.Contains(out, path) {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			doc := parseConfig(t, path)
			other, _ := dig(doc, append(tc.key, "other")...).(map[string]any)
			if got := tc.command(other); strings.Join(got, " ") != "/usr/bin/other --x" {
				t.Errorf("the other server changed: %v", other)
			}
			godot, _ := dig(doc, append(tc.key, "godot")...).(map[string]any)
			if got := tc.command(godot); len(got) != 1 || got[0] != absBin(t) {
				t.Errorf("godot entry %v, want this binary alone", godot)
			}
			if tc.client == "opencode" && godot["enabled"] != true {
				t.Errorf("OpenCode entry not enabled: %v", godot)
			}
			if _, stale := godot["env"]; stale {
				t.Errorf("the old entry's env was kept: %v", godot)
			}
			data, _ := os.ReadFile(path)
			if tc.comment != "" && !strings.Contains(string(data), tc.comment) {
				t.Errorf("comment %q lost:\n%s", tc.comment, data)
			}
			if strings.Contains(string(data), "STALE") || strings.Contains(string(data), "/old/godot-mcp") {
				t.Errorf("the old entry is still there:\n%s", data)
			}
			for _, setting := range []string{"model", "general", "$schema", "ui_font_size", "theme"} {
				if strings.Contains(tc.original, `"`+setting+`"`) || strings.Contains(tc.original, "\n"+setting+" =") {
					if doc[setting] == nil {
						t.Errorf("setting %q lost:\n%s", setting, data)
					}
				}
			}
			if tc.client == "codex" && dig(doc, "profiles", "fast", "model") != "o4-mini" {
				t.Errorf("[profiles.fast] lost:\n%s", data)
			}
			if bak, _ := os.ReadFile(path + ".bak"); string(bak) != tc.original {
				t.Errorf("backup: %q", bak)
			}
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the original 0600", st.Mode().Perm())
			}
			out, _, code = runBinary(t, env, "setup", tc.client)
			if code != 0 || !strings.Contains(out, "nothing to do") {
				t.Errorf("second run: exit %d %s", code, out)
			}
			if after, _ := os.ReadFile(path); string(after) != string(data) {
				t.Errorf("second run changed the file:\n%s\n---\n%s", data, after)
			}
		})
	}
}

// A new file, then the same with --project for the clients that have a
// project scope (it also sets GODOT_MCP_PROJECT_DIR).
func TestSetupNewClientsFreshFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the paths below are Linux's")
	}
	project := tempProject(t)
	projectFiles := map[string]string{
		"codex":    filepath.Join(project, ".codex", "config.toml"),
		"gemini":   filepath.Join(project, ".gemini", "settings.json"),
		"opencode": filepath.Join(project, "opencode.json"),
	}
	for _, tc := range newClientCases {
		t.Run(tc.client, func(t *testing.T) {
			home, env := clientEnv(t)
			if out, errOut, code := runBinary(t, env, "setup", tc.client); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			godot, _ := dig(parseConfig(t, tc.file(home)), append(tc.key, "godot")...).(map[string]any)
			if got := tc.command(godot); len(got) != 1 || got[0] != absBin(t) {
				t.Errorf("godot entry %v", godot)
			}
			pf, ok := projectFiles[tc.client]
			if !ok {
				return
			}
			if out, errOut, code := runBinary(t, env, "setup", tc.client, "--project", project); code != 0 || !strings.Contains(out, pf) {
				t.Fatalf("--project: exit %d\n%s\n%s", code, out, errOut)
			}
			godot, _ = dig(parseConfig(t, pf), append(tc.key, "godot")...).(map[string]any)
			envKey := "env"
			if tc.client == "opencode" {
				envKey = "environment"
			}
			if dig(godot, envKey, "GODOT_MCP_PROJECT_DIR") != project {
				t.Errorf("%s: %v, want GODOT_MCP_PROJECT_DIR=%s", pf, godot, project)
			}
		})
	}
}

// A file the client could not read either is left alone, with the entry to
// add by hand.
func TestSetupNewClientsRefuseMalformed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the paths below are Linux's")
	}
	for _, tc := range newClientCases {
		t.Run(tc.client, func(t *testing.T) {
			home, env := clientEnv(t)
			path := tc.file(home)
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(tc.malformed), 0o644)
			out, errOut, code := runBinary(t, env, "setup", tc.client)
			if code == 0 || !strings.Contains(errOut, path+": ") || !strings.Contains(errOut, "nothing was changed") || !strings.Contains(errOut, absBin(t)) {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			if data, _ := os.ReadFile(path); string(data) != tc.malformed {
				t.Fatalf("file changed: %q", data)
			}
			if _, err := os.Stat(path + ".bak"); err == nil {
				t.Fatal("backup written for a refused change")
			}
		})
	}
}

// A link where the backup goes is refused for every client, and nothing
// on either side of it changes.
func TestSetupNewClientsRefuseLinkedBackup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the paths below are Linux's")
	}
	for _, tc := range newClientCases {
		t.Run(tc.client, func(t *testing.T) {
			home, env := clientEnv(t)
			path := tc.file(home)
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(tc.original), 0o600)
			os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# my shell\n"), 0o644)
			os.Symlink(filepath.Join(home, ".bashrc"), path+".bak")
			before := snapshot(t, home)
			out, errOut, code := runBinary(t, env, "setup", tc.client)
			if code == 0 || !strings.Contains(errOut, path+".bak is a symbolic link") || !strings.Contains(errOut, "nothing was changed") {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if after := snapshot(t, home); after != before {
				t.Fatalf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// Cline's CLI alone (no VS Code extension): its own settings file.
func TestSetupClineCLI(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the paths below are Linux's")
	}
	home, env := clientEnv(t)
	os.MkdirAll(filepath.Join(home, ".cline", "data"), 0o755)
	out, errOut, code := runBinary(t, env, "setup", "cline")
	path := filepath.Join(home, ".cline", "data", "settings", "cline_mcp_settings.json")
	if code != 0 || !strings.Contains(out, path) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if readServers(t, path, "mcpServers")["godot"].Command != absBin(t) {
		t.Fatal("no godot entry")
	}
}

// OpenCode 2's own shape (servers under mcp.servers) gets the entry there,
// without V1's "enabled".
func TestSetupOpenCodeV2Shape(t *testing.T) {
	home, env := clientEnv(t)
	path := filepath.Join(home, ".config", "opencode", "opencode.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"mcp": {"servers": {"other": {"type": "remote", "url": "https://example.com/mcp"}}}}`), 0o644)
	if out, errOut, code := runBinary(t, env, "setup", "opencode"); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	doc := parseConfig(t, path)
	godot, _ := dig(doc, "mcp", "servers", "godot").(map[string]any)
	if cmd, _ := godot["command"].([]any); len(cmd) != 1 || cmd[0] != absBin(t) || godot["type"] != "local" || godot["enabled"] != nil {
		t.Fatalf("mcp.servers.godot = %v", godot)
	}
	if dig(doc, "mcp", "servers", "other", "url") == nil || dig(doc, "mcp", "godot") != nil {
		t.Fatalf("%v", doc)
	}
}

// A Codex entry written inline or with dotted keys is not rewritten
// (setup would have to guess where it ends); the message says what to do.
func TestSetupCodexRefusesInlineEntry(t *testing.T) {
	home, env := clientEnv(t)
	path := filepath.Join(home, ".codex", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o755)
	for _, original := range []string{
		"[mcp_servers]\ngodot = { command = \"/old\", args = [] }\n",
		"mcp_servers.godot.command = \"/old\"\n",
	} {
		os.WriteFile(path, []byte(original), 0o644)
		_, errOut, code := runBinary(t, env, "setup", "codex")
		if code == 0 || !strings.Contains(errOut, "dotted key or an inline table") || !strings.Contains(errOut, "[mcp_servers.godot]") {
			t.Fatalf("%q: exit %d %s", original, code, errOut)
		}
		if data, _ := os.ReadFile(path); string(data) != original {
			t.Fatalf("changed: %q", data)
		}
	}
}

// Run from inside the npm package, setup writes `npx -y godot-mcp` (the
// binary's own path is in npx's cache and changes with each version), and
// doctor accepts it.
func TestSetupFromTheNPMPackageWritesNpx(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("cmd /c npx there")
	}
	pkg := filepath.Join(t.TempDir(), "node_modules", "@godot-mcp", "linux-x64")
	os.MkdirAll(filepath.Join(pkg, "bin"), 0o755)
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name": "@godot-mcp/linux-x64", "version": "2026.12.2"}`), 0o644)
	bin := filepath.Join(pkg, "bin", "godot-mcp")
	copyFile(t, binPath, bin)

	home, env := clientEnv(t)
	run := func(args ...string) (string, string, int) {
		t.Helper()
		saved := binPath
		binPath = bin
		defer func() { binPath = saved }()
		return runBinary(t, env, args...)
	}
	if out, errOut, code := run("setup", "codex"); code != 0 || !strings.Contains(out, "npx -y godot-mcp") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	godot, _ := dig(parseConfig(t, filepath.Join(home, ".codex", "config.toml")), "mcp_servers", "godot").(map[string]any)
	if got := standardCommand(godot); strings.Join(got, " ") != "npx -y godot-mcp" {
		t.Fatalf("codex entry %v", godot)
	}
	out, _, _ := run("doctor", "--wait", "0", "--client", "codex")
	if line := doctorLine(out, "ok    client codex:"); !strings.Contains(line, "runs this godot-mcp (npx -y godot-mcp)") || !strings.Contains(line, `profile "2d"`) {
		t.Fatalf("doctor:\n%s", out)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// doctor --client: the entry points at this binary (with the client's
// limits and profile), at another binary (warned; a missing one fails), or
// is missing (fails with the setup command as the fix).
func TestDoctorChecksTheClientConfig(t *testing.T) {
	home, env := clientEnv(t)
	out, _, code := runBinary(t, env, "doctor", "--wait", "0", "--client", "cursor")
	if code != 1 || !strings.Contains(doctorLine(out, "FAIL  client cursor:"), "no server entry for godot-mcp") || !strings.Contains(out, "fix: godot-mcp setup cursor") {
		t.Fatalf("no config: exit %d\n%s", code, out)
	}
	if _, errOut, code := runBinary(t, env, "setup", "cursor"); code != 0 {
		t.Fatal(errOut)
	}
	out, _, _ = runBinary(t, env, "doctor", "--wait", "0", "--client", "cursor")
	if line := doctorLine(out, "ok    client cursor:"); !strings.Contains(line, "runs this godot-mcp ("+absBin(t)+")") || !strings.Contains(line, "tool cap 40") || !strings.Contains(line, `profile "minimal"`) {
		t.Fatalf("after setup:\n%s", out)
	}
	path := filepath.Join(home, ".cursor", "mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"godot": {"command": "/gone/godot-mcp", "args": []}}}`), 0o644)
	out, _, code = runBinary(t, env, "doctor", "--wait", "0", "--client", "cursor")
	if line := doctorLine(out, "FAIL  client cursor:"); code != 1 || !strings.Contains(line, "/gone/godot-mcp, not this binary") || !strings.Contains(line, "does not exist") {
		t.Fatalf("stale entry: exit %d\n%s", code, out)
	}
	// Without --client, every client config naming godot-mcp is reported,
	// and a stale one only warns.
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"mcpServers": {"gd": {"command": "`+absBin(t)+`", "args": []}}}`), 0o644)
	out, _, _ = runBinary(t, env, "doctor", "--wait", "0")
	if !strings.Contains(doctorLine(out, "warn  client cursor:"), "/gone/godot-mcp") || !strings.Contains(doctorLine(out, "ok    client gemini:"), `"gd" runs this godot-mcp`) {
		t.Fatalf("all clients:\n%s", out)
	}
	if _, errOut, code := runBinary(t, env, "doctor", "--client", "emacs"); code == 0 || !strings.Contains(errOut, "codex") {
		t.Fatalf("unknown client: exit %d %s", code, errOut)
	}
}

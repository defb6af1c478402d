package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userDirs points HOME, XDG_CONFIG_HOME and APPDATA at a temp dir.
func userDirs(t *testing.T) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	return home, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "APPDATA=" + filepath.Join(home, "AppData")}
}

func absBin(t *testing.T) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(binPath)
	if err != nil {
		t.Fatal(err)
	}
	p, _ = filepath.Abs(p)
	return p
}

func tempProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\"Game\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

type serverConfig struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

func readServers(t *testing.T, path, key string) map[string]serverConfig {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	var servers map[string]serverConfig
	if err := json.Unmarshal(doc[key], &servers); err != nil {
		t.Fatalf("%s[%s]: %v", path, key, err)
	}
	return servers
}

// An existing Claude Desktop config keeps its other servers, its other
// settings and their order; the old file is kept as .bak; a second run
// changes nothing.
func TestSetupClaudeDesktopMergesAndBacksUp(t *testing.T) {
	home, env := userDirs(t)
	path := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	original := `{"zFirst": "Ctrl+Space", "mcpServers": {"other": {"command": "/usr/bin/other", "args": ["--x"]}}, "aLast": [1, 2]}`
	os.WriteFile(path, []byte(original), 0o600)

	out, errOut, code := runBinary(t, env, "setup", "claude-desktop")
	if code != 0 || !strings.Contains(out, path) {
		t.Fatalf("setup: exit %d\n%s\n%s", code, out, errOut)
	}
	servers := readServers(t, path, "mcpServers")
	if servers["godot"].Command != absBin(t) || servers["other"].Command != "/usr/bin/other" || len(servers["other"].Args) != 1 {
		t.Fatalf("servers: %+v", servers)
	}
	data, _ := os.ReadFile(path)
	if i, j, k := strings.Index(string(data), "zFirst"), strings.Index(string(data), "mcpServers"), strings.Index(string(data), "aLast"); !(i >= 0 && i < j && j < k) {
		t.Fatalf("top-level order lost:\n%s", data)
	}
	if bak, _ := os.ReadFile(path + ".bak"); string(bak) != original {
		t.Fatalf("backup: %q", bak)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want the original 0600", st.Mode().Perm())
	}

	out, _, code = runBinary(t, env, "setup", "claude-desktop")
	if code != 0 || !strings.Contains(out, "nothing to do") {
		t.Fatalf("second run: exit %d %s", code, out)
	}
}

func TestSetupEachClientsFile(t *testing.T) {
	project := tempProject(t)
	cases := []struct {
		client  string
		project bool
		file    func(home string) string
		key     string
		typ     string
	}{
		{"claude-code", false, func(h string) string { return filepath.Join(h, ".claude.json") }, "mcpServers", "stdio"},
		{"claude-code", true, func(string) string { return filepath.Join(project, ".mcp.json") }, "mcpServers", "stdio"},
		{"cursor", false, func(h string) string { return filepath.Join(h, ".cursor", "mcp.json") }, "mcpServers", ""},
		{"cursor", true, func(string) string { return filepath.Join(project, ".cursor", "mcp.json") }, "mcpServers", ""},
		{"vscode", false, func(h string) string { return filepath.Join(h, ".config", "Code", "User", "mcp.json") }, "servers", "stdio"},
		{"vscode", true, func(string) string { return filepath.Join(project, ".vscode", "mcp.json") }, "servers", "stdio"},
	}
	for _, tc := range cases {
		name := tc.client
		if tc.project {
			name += " --project"
		}
		t.Run(name, func(t *testing.T) {
			home, env := userDirs(t)
			args := []string{"setup", tc.client}
			if tc.project {
				args = append(args, "--project", project)
			}
			out, errOut, code := runBinary(t, env, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			path := tc.file(home)
			s := readServers(t, path, tc.key)["godot"]
			if s.Command != absBin(t) || s.Type != tc.typ || s.Args == nil {
				t.Fatalf("%s: %+v", path, s)
			}
			if tc.project != (s.Env["GODOT_MCP_PROJECT_DIR"] == project) {
				t.Fatalf("env %v", s.Env)
			}
			if _, err := os.Stat(path + ".bak"); err == nil {
				t.Fatal("a backup of a file that did not exist")
			}
		})
	}
}

// A config that is not plain JSON (VS Code allows comments) is left alone,
// and the user is shown what to add.
func TestSetupRefusesWhatItCannotMerge(t *testing.T) {
	home, env := userDirs(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	original := "{\n  // mine\n  \"mcpServers\": {}\n}\n"
	os.WriteFile(path, []byte(original), 0o644)
	out, errOut, code := runBinary(t, env, "setup", "cursor")
	if code == 0 || !strings.Contains(errOut, "nothing was changed") || !strings.Contains(errOut, absBin(t)) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if data, _ := os.ReadFile(path); string(data) != original {
		t.Fatalf("file changed: %q", data)
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("backup written for a refused change")
	}
}

func TestSetupPrintAndDryRun(t *testing.T) {
	home, env := userDirs(t)
	out, _, code := runBinary(t, env, "setup", "print")
	var doc struct {
		MCPServers map[string]serverConfig `json:"mcpServers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.MCPServers["godot"].Command != absBin(t) {
		t.Fatalf("print: exit %d %q", code, out)
	}
	out, _, code = runBinary(t, env, "setup", "cursor", "--dry-run", "--name", "godot-dev")
	if code != 0 || !strings.Contains(out, "godot-dev") {
		t.Fatalf("dry run: exit %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".cursor")); err == nil {
		t.Fatal("dry run wrote something")
	}
	_, errOut, code := runBinary(t, env, "setup", "emacs")
	if code == 0 || !strings.Contains(errOut, "claude-desktop") {
		t.Fatalf("unknown client: exit %d %q", code, errOut)
	}
	_, errOut, code = runBinary(t, env, "setup", "cursor", "--project", home)
	if code == 0 || !strings.Contains(errOut, "project.godot") {
		t.Fatalf("--project without project.godot: exit %d %q", code, errOut)
	}
}

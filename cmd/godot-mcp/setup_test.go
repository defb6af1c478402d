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

// #24.1: a cloned project can plant links where setup writes. Whatever the
// link (the config, its backup, a directory on the way), setup refuses,
// names the link, and changes nothing on either side of it.
func TestSetupRefusesLinksPlantedInTheProject(t *testing.T) {
	type plant struct {
		name string
		// link (relative to the project) -> target (relative to home)
		link, target string
	}
	cases := []struct {
		client string
		config string // relative to the project
		plants []plant
	}{
		{"claude-code", ".mcp.json", []plant{
			{"config", ".mcp.json", ".claude.json"},
			{"backup", ".mcp.json.bak", ".bashrc"},
		}},
		{"cursor", ".cursor/mcp.json", []plant{
			{"config", ".cursor/mcp.json", ".claude.json"},
			{"backup", ".cursor/mcp.json.bak", ".bashrc"},
			{"directory", ".cursor", "outside"},
		}},
		{"vscode", ".vscode/mcp.json", []plant{
			{"config", ".vscode/mcp.json", ".claude.json"},
			{"backup", ".vscode/mcp.json.bak", ".bashrc"},
			{"directory", ".vscode", "outside"},
		}},
		{"codex", ".codex/config.toml", []plant{
			{"config", ".codex/config.toml", ".claude.json"},
			{"backup", ".codex/config.toml.bak", ".bashrc"},
			{"directory", ".codex", "outside"},
		}},
		{"gemini", ".gemini/settings.json", []plant{
			{"config", ".gemini/settings.json", ".claude.json"},
			{"backup", ".gemini/settings.json.bak", ".bashrc"},
			{"directory", ".gemini", "outside"},
		}},
		{"opencode", "opencode.json", []plant{
			{"config", "opencode.json", ".claude.json"},
			{"backup", "opencode.json.bak", ".bashrc"},
		}},
	}
	const secret = `{"mcpServers": {}, "oauthAccount": {"token": "sk-secret-token"}}`
	const bashrc = "# my shell\n"
	for _, tc := range cases {
		for _, pl := range tc.plants {
			t.Run(tc.client+" "+pl.name, func(t *testing.T) {
				home, env := userDirs(t)
				project := tempProject(t)
				os.WriteFile(filepath.Join(home, ".claude.json"), []byte(secret), 0o600)
				os.WriteFile(filepath.Join(home, ".bashrc"), []byte(bashrc), 0o644)
				os.MkdirAll(filepath.Join(home, "outside"), 0o755)
				config := filepath.Join(project, filepath.FromSlash(tc.config))
				if pl.name == "backup" { // a config to back up
					os.MkdirAll(filepath.Dir(config), 0o755)
					os.WriteFile(config, []byte(`{"mcpServers": {}, "servers": {}}`), 0o644)
				}
				link := filepath.Join(project, filepath.FromSlash(pl.link))
				os.MkdirAll(filepath.Dir(link), 0o755)
				if err := os.Symlink(filepath.Join(home, pl.target), link); err != nil {
					t.Fatal(err)
				}
				before := snapshot(t, home, project)

				for _, dry := range []bool{false, true} {
					args := []string{"setup", tc.client, "--project", project}
					if dry {
						args = append(args, "--dry-run")
					}
					out, errOut, code := runBinary(t, env, args...)
					if code == 0 || !strings.Contains(errOut, link+" is a symbolic link") || !strings.Contains(errOut, "nothing was changed") {
						t.Fatalf("dry-run %v: exit %d\nstdout: %s\nstderr: %s", dry, code, out, errOut)
					}
					if strings.Contains(out+errOut, "sk-secret-token") {
						t.Fatalf("the linked file's content was shown:\n%s\n%s", out, errOut)
					}
				}
				if after := snapshot(t, home, project); after != before {
					t.Fatalf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			})
		}
	}
}

// The user's own config may be a link (a dotfile manager's): the file it
// points at is updated and the link kept. A link at the backup is refused:
// setup never writes through one.
func TestSetupUserConfigLinks(t *testing.T) {
	home, env := userDirs(t)
	real := filepath.Join(home, "dotfiles", "cursor-mcp.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte(`{"mcpServers": {}}`), 0o600)
	path := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.Symlink(real, path)
	out, errOut, code := runBinary(t, env, "setup", "cursor")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the user's link was replaced: %v %v", st, err)
	}
	if readServers(t, real, "mcpServers")["godot"].Command != absBin(t) {
		t.Fatal("the linked file was not updated")
	}

	home, env = userDirs(t)
	path = filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o600)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# my shell\n"), 0o644)
	os.Symlink(filepath.Join(home, ".bashrc"), path+".bak")
	before := snapshot(t, home)
	out, errOut, code = runBinary(t, env, "setup", "cursor")
	if code == 0 || !strings.Contains(errOut, path+".bak is a symbolic link") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if after := snapshot(t, home); after != before {
		t.Fatalf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// snapshot lists every file, link and directory under the dirs with its
// content or target, to compare before and after.
func snapshot(t *testing.T, dirs ...string) string {
	t.Helper()
	var b strings.Builder
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			st, _ := os.Lstat(p)
			switch {
			case st.Mode()&os.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				b.WriteString(p + " -> " + target + "\n")
			case st.IsDir():
				b.WriteString(p + "/\n")
			default:
				data, _ := os.ReadFile(p)
				b.WriteString(p + " " + st.Mode().String() + " " + string(data) + "\n")
			}
			return nil
		})
	}
	return b.String()
}

// #24.6: `addon install` follows no link a cloned project planted: not
// `addons` (23 files were written outside), not the addon folder or a file
// in it (also with --force), not project.godot (its target was copied into
// the project). It refuses naming the link; nothing changes on either side.
func TestAddonInstallRefusesPlantedLinks(t *testing.T) {
	for _, tc := range []struct{ name, link, target string }{
		{"addons", "addons", "outside"},
		{"addon folder", "addons/godot_mcp", "outside"},
		{"addon file", "addons/godot_mcp/plugin.cfg", "outside/file"},
		{"project.godot", "project.godot", "outside/project.godot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, env := userDirs(t)
			project := tempProject(t)
			os.MkdirAll(filepath.Join(home, "outside"), 0o755)
			os.WriteFile(filepath.Join(home, "outside", "file"), []byte("mine\n"), 0o644)
			os.WriteFile(filepath.Join(home, "outside", "project.godot"), []byte("config_version=5\n; another project\n"), 0o644)
			link := filepath.Join(project, filepath.FromSlash(tc.link))
			os.Remove(link)
			os.MkdirAll(filepath.Dir(link), 0o755)
			if err := os.Symlink(filepath.Join(home, tc.target), link); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, home, project)
			for _, args := range [][]string{{"--enable"}, {"--enable", "--force"}, {"--dry-run"}} {
				out, errOut, code := runBinary(t, env, append([]string{"addon", "install", "--project", project}, args...)...)
				if code == 0 || !strings.Contains(errOut, link+" is a symbolic link") || !strings.Contains(errOut, "Nothing was changed") {
					t.Fatalf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
				}
			}
			if after := snapshot(t, home, project); after != before {
				t.Fatalf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The release half that runs here: the linux/amd64 binary (built like
// `make release` builds every target) and its npm packages. The other five
// targets are only cross-compiled by `make release`.

const repo = "../.."

var (
	buildOnce    sync.Once
	dist         string
	version      string
	buildErr     error
	distCleanups []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range distCleanups {
		f()
	}
	os.Exit(code)
}

// releaseBinary builds the linux/amd64 release binary once, stamped with
// this commit's version, with its SHA256SUMS and npm packages.
func releaseBinary(t *testing.T) (dir, bin string) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("runs the linux/amd64 release binary; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	buildOnce.Do(func() {
		if version, buildErr = CommitVersion(repo); buildErr != nil {
			return
		}
		if dist, buildErr = os.MkdirTemp("", "godot-mcp-release-"); buildErr != nil {
			return
		}
		d := dist
		distCleanups = append(distCleanups, func() { os.RemoveAll(d) })
		var npmVersion string
		if npmVersion, buildErr = NPMVersion(version); buildErr != nil {
			return
		}
		name := BinaryName("linux", "amd64")
		if buildErr = Build(repo, filepath.Join(dist, name), "linux", "amd64", version); buildErr != nil {
			return
		}
		if buildErr = WriteSums(dist, []string{name}); buildErr != nil {
			return
		}
		buildErr = NPMPackages(repo, dist, filepath.Join(dist, "npm"), []string{"linux/amd64"}, version, npmVersion)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return dist, filepath.Join(dist, BinaryName("linux", "amd64"))
}

var stampedVersion = regexp.MustCompile(`^\d{4}\.\d{2}\.\d{2}\+[0-9a-f]{7,}(\.dirty)?$`)

// serverEnv keeps a started server off the user's bridge port and files.
func serverEnv(t *testing.T) []string {
	home := t.TempDir()
	return append(os.Environ(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_PLUGIN_DIR="+t.TempDir(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_RUNTIME_DIR="+t.TempDir(), "CODEX_HOME=")
}

// initialize starts cmd, sends an MCP initialize over its stdin and returns
// the result; the process is then ended by closing its stdin.
func initialize(t *testing.T, cmd *exec.Cmd) map[string]any {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("the server did not exit when its stdin closed\n%s", stderr.String())
		}
	}()
	req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"release-test","version":"1"}}}` + "\n"
	if _, err := stdin.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatalf("no answer on stdout\nstderr:\n%s", stderr.String())
		}
		var resp struct {
			ID     int            `json:"id"`
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.ID != 1 || resp.Result == nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		return resp.Result
	case <-time.After(60 * time.Second):
		t.Fatalf("no answer to initialize within 60 s\nstderr:\n%s", stderr.String())
	}
	return nil
}

func serverVersion(result map[string]any) string {
	info, _ := result["serverInfo"].(map[string]any)
	v, _ := info["version"].(string)
	return v
}

// The release binary is static, says its stamped version, installs an addon
// that says the same, matches SHA256SUMS, and answers initialize.
func TestReleaseBinary(t *testing.T) {
	dir, bin := releaseBinary(t)
	if !stampedVersion.MatchString(version) {
		t.Fatalf("version %q is not YYYY.MM.DD+hash", version)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary asks for a dynamic loader: not static")
		}
	}
	f.Close()

	data, _ := os.ReadFile(bin)
	sum := sha256.Sum256(data)
	sums, _ := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if want := hex.EncodeToString(sum[:]) + "  " + filepath.Base(bin) + "\n"; string(sums) != want {
		t.Errorf("SHA256SUMS = %q, want %q", sums, want)
	}

	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "godot-mcp "+version+" ") {
		t.Errorf("version: %q %v", out, err)
	}
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "project.godot"), []byte("config_version=5\n"), 0o644)
	if out, err := exec.Command(bin, "addon", "install", "--project", project).CombinedOutput(); err != nil {
		t.Fatalf("addon install: %v\n%s", err, out)
	}
	cfg, _ := os.ReadFile(filepath.Join(project, "addons", "godot_mcp", "plugin.cfg"))
	if !strings.Contains(string(cfg), `version="`+version+`"`) {
		t.Errorf("the installed plugin.cfg does not say %s:\n%s", version, cfg)
	}

	cmd := exec.Command(bin)
	cmd.Env = serverEnv(t)
	if got := serverVersion(initialize(t, cmd)); got != version {
		t.Errorf("serverInfo.version %q, want %q", got, version)
	}
}

// The npm packages, packed into tarballs and run from them through npx with
// no registry (offline, from a cache of its own), start the server; setup
// run that way writes `npx -y godot-mcp` into a client's config.
func TestReleaseNPMPackagesThroughNpx(t *testing.T) {
	dir, _ := releaseBinary(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH: the npm packages were not packed or run")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("npx is not on PATH: the npm packages were not run")
	}
	work := t.TempDir()
	tarballs := filepath.Join(work, "tarballs")
	os.MkdirAll(tarballs, 0o755)
	npmEnv := append(serverEnv(t),
		"npm_config_cache="+filepath.Join(work, "npm-cache"),
		"npm_config_registry=http://127.0.0.1:9/", // nothing listens there: no registry is reached
		"npm_config_offline=true", "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var packed []string
	for _, pkg := range []string{"@godot-mcp/linux-x64", "godot-mcp"} {
		cmd := exec.CommandContext(ctx, npm, "pack", "--json", "--pack-destination", tarballs)
		cmd.Dir = filepath.Join(dir, "npm", filepath.FromSlash(pkg))
		cmd.Env = npmEnv
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("npm pack %s: %v\n%s", pkg, err, stderr.String())
		}
		var res []struct {
			Name     string `json:"name"`
			Filename string `json:"filename"`
			Files    []struct {
				Path string `json:"path"`
				Mode int    `json:"mode"`
			} `json:"files"`
		}
		if err := json.Unmarshal(out, &res); err != nil || len(res) != 1 || res[0].Name != pkg {
			t.Fatalf("npm pack %s said %s (%v)", pkg, out, err)
		}
		for _, f := range res[0].Files {
			if strings.HasPrefix(f.Path, "bin/") && f.Mode&0o111 == 0 {
				t.Errorf("%s: %s is not executable in the tarball (mode %o)", pkg, f.Path, f.Mode)
			}
		}
		packed = append(packed, filepath.Join(tarballs, filepath.Base(res[0].Filename)))
	}

	npxCmd := func(args ...string) *exec.Cmd {
		full := []string{"--offline", "--yes"}
		for _, p := range packed {
			full = append(full, "--package", p)
		}
		cmd := exec.CommandContext(ctx, npx, append(append(full, "godot-mcp"), args...)...)
		cmd.Dir = work
		cmd.Env = npmEnv
		return cmd
	}
	if got := serverVersion(initialize(t, npxCmd())); got != version {
		t.Errorf("through npx: serverInfo.version %q, want %q", got, version)
	}

	// Without the platform package (optional dependencies left out, or no
	// registry to fetch it from), the launcher says what is missing.
	cmd := exec.CommandContext(ctx, npx, "--offline", "--yes", "--package", packed[1], "godot-mcp", "version")
	cmd.Dir, cmd.Env = work, npmEnv
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "godot-mcp: the package @godot-mcp/linux-x64 is not installed beside godot-mcp") {
		t.Errorf("launcher alone: %v\n%s", err, out)
	}

	home := t.TempDir()
	cmd = npxCmd("setup", "codex", "--dry-run")
	cmd.Env = append(cmd.Env, "HOME="+home)
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[mcp_servers.godot]") || !strings.Contains(string(out), "command = 'npx'") || !strings.Contains(string(out), "args = ['-y', 'godot-mcp']") {
		t.Fatalf("setup through npx: %v\n%s", err, out)
	}
}

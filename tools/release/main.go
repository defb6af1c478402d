// Command release builds godot-mcp's release: static binaries for Linux,
// macOS and Windows on amd64 and arm64 (CGO_ENABLED=0, -tags grpcnotrace,
// the addon embedded as always), stamped with a CalVer version from the
// commit (its date in UTC and its short hash: 2026.12.02+93f0d6b), their
// SHA256SUMS, and the npm packages in the esbuild style: a launcher,
// godot-mcp, whose optional dependencies @godot-mcp/<platform>-<arch> each
// carry one binary, so `npx -y godot-mcp` starts the server.
//
//	go run ./tools/release [-out dist] [-targets linux/amd64,...] [-version V] [-npm-version V]
//
// dist/ then holds godot-mcp-<os>-<arch>[.exe], SHA256SUMS and npm/ (one
// folder per package, ready for `npm publish`; nothing is published).
package main

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Targets are the released platforms, GOOS/GOARCH.
var Targets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// The npm packages.
const (
	LauncherName = "godot-mcp"
	Scope        = "@godot-mcp/"
	repoURL      = "https://github.com/godot-mcp/godot-mcp"
)

//go:embed npm
var launcherFiles embed.FS

func main() {
	out := flag.String("out", "dist", "output directory (replaced)")
	targets := flag.String("targets", strings.Join(Targets, ","), "GOOS/GOARCH list")
	version := flag.String("version", "", "version to stamp (default: from the commit, YYYY.MM.DD+hash)")
	npmVersion := flag.String("npm-version", "", "the npm packages' version (default: YYYY.M.D of the version)")
	flag.Parse()
	if err := run(*out, strings.Split(*targets, ","), *version, *npmVersion, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(out string, targets []string, version, npmVersion string, log io.Writer) error {
	var err error
	if version == "" {
		if version, err = CommitVersion("."); err != nil {
			return err
		}
	}
	if npmVersion == "" {
		if npmVersion, err = NPMVersion(version); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var bins []string
	for _, t := range targets {
		goos, goarch, ok := strings.Cut(t, "/")
		if !ok {
			return fmt.Errorf("target %q: want GOOS/GOARCH", t)
		}
		name := BinaryName(goos, goarch)
		fmt.Fprintf(log, "building %s (%s)\n", name, version)
		if err := Build(".", filepath.Join(out, name), goos, goarch, version); err != nil {
			return err
		}
		bins = append(bins, name)
	}
	if err := WriteSums(out, bins); err != nil {
		return err
	}
	if err := NPMPackages(".", out, filepath.Join(out, "npm"), targets, version, npmVersion); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s: %d binaries, SHA256SUMS, npm packages %s\n", out, len(bins), npmVersion)
	return nil
}

// BinaryName is a release binary's file name.
func BinaryName(goos, goarch string) string {
	name := "godot-mcp-" + goos + "-" + goarch
	if goos == "windows" {
		name += ".exe"
	}
	return name
}

// CommitVersion is the CalVer of HEAD in repo: the commit's date in UTC and
// its short hash, "2026.12.02+93f0d6b" (with ".dirty" when the work tree
// has uncommitted changes to tracked files).
func CommitVersion(repo string) (string, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "TZ=UTC")
		b, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %v (pass -version outside a git checkout)", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	out, err := git("log", "-1", "--format=%cd %h", "--abbrev=7", "--date=format-local:%Y.%m.%d")
	if err != nil {
		return "", err
	}
	date, hash, ok := strings.Cut(out, " ")
	if !ok {
		return "", fmt.Errorf("git log said %q", out)
	}
	v := date + "+" + hash
	if st, err := git("status", "--porcelain", "--untracked-files=no"); err == nil && st != "" {
		v += ".dirty"
	}
	return v, nil
}

var calver = regexp.MustCompile(`^(\d{4})\.(\d{2})\.(\d{2})`)

// NPMVersion is the semver npm takes for a CalVer version: YYYY.M.D (npm
// refuses leading zeros).
func NPMVersion(version string) (string, error) {
	m := calver.FindStringSubmatch(version)
	if m == nil {
		return "", fmt.Errorf("version %q is not CalVer (YYYY.MM.DD…); pass -npm-version", version)
	}
	month, _ := strconv.Atoi(m[2])
	day, _ := strconv.Atoi(m[3])
	return fmt.Sprintf("%s.%d.%d", m[1], month, day), nil
}

// LDFlags stamp the version into the server and the embedded addon.
func LDFlags(version string) string {
	return "-s -w -X github.com/godot-mcp/godot-mcp/host/buildinfo.Version=" + version +
		" -X github.com/godot-mcp/godot-mcp/addon.Version=" + version
}

// Build builds the static binary of the module in dir for goos/goarch.
func Build(dir, out, goos, goarch, version string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-tags", "grpcnotrace", "-ldflags", LDFlags(version), "-o", abs, "./cmd/godot-mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s/%s: %w", goos, goarch, err)
	}
	return nil
}

// WriteSums writes dir/SHA256SUMS for files (in sha256sum's format).
func WriteSums(dir string, files []string) error {
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), f)
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(b.String()), 0o644)
}

// NodePlatform is Node's process.platform and process.arch for a Go target.
func NodePlatform(goos, goarch string) (string, string) {
	platform := goos
	if goos == "windows" {
		platform = "win32"
	}
	arch := goarch
	if goarch == "amd64" {
		arch = "x64"
	}
	return platform, arch
}

// PlatformPackage is the npm package carrying one target's binary.
func PlatformPackage(goos, goarch string) string {
	p, a := NodePlatform(goos, goarch)
	return Scope + p + "-" + a
}

// NPMPackages writes the launcher package and one package per target (with
// the binary from bins) under out: out/godot-mcp, out/@godot-mcp/linux-x64…
// repo is the repository (for its LICENSE).
func NPMPackages(repo, bins, out string, targets []string, version, npmVersion string) error {
	license, err := os.ReadFile(filepath.Join(repo, "LICENSE"))
	if err != nil {
		return err
	}
	common := map[string]any{
		"version":    npmVersion,
		"license":    "MIT",
		"homepage":   repoURL,
		"repository": map[string]string{"type": "git", "url": "git+" + repoURL + ".git"},
	}
	optional := map[string]string{}
	for _, t := range targets {
		goos, goarch, _ := strings.Cut(t, "/")
		name := PlatformPackage(goos, goarch)
		optional[name] = npmVersion
		dir := filepath.Join(out, filepath.FromSlash(name))
		exe := "godot-mcp"
		if goos == "windows" {
			exe += ".exe"
		}
		data, err := os.ReadFile(filepath.Join(bins, BinaryName(goos, goarch)))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "bin", exe), data, 0o755); err != nil {
			return err
		}
		p, a := NodePlatform(goos, goarch)
		pkg := merge(common, map[string]any{
			"name":            name,
			"description":     fmt.Sprintf("The godot-mcp %s binary for %s %s (installed by the godot-mcp package).", version, p, a),
			"os":              []string{p},
			"cpu":             []string{a},
			"files":           []string{"bin/" + exe},
			"preferUnplugged": true,
		})
		if err := writePackage(dir, pkg, fmt.Sprintf("# %s\n\nThe godot-mcp %s binary for %s on %s. Install `godot-mcp` instead: `npx -y godot-mcp` picks this package on this platform.\n", name, version, a, p), license); err != nil {
			return err
		}
	}
	dir := filepath.Join(out, LauncherName)
	if err := fs.WalkDir(launcherFiles, "npm", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := launcherFiles.ReadFile(p)
		if err != nil {
			return err
		}
		dest := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "npm/")))
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dest, data, 0o755)
	}); err != nil {
		return err
	}
	pkg := merge(common, map[string]any{
		"name":                 LauncherName,
		"description":          "MCP server that drives a live Godot 4 editor and the running game (godot-mcp " + version + ").",
		"keywords":             []string{"mcp", "godot", "model-context-protocol", "gamedev"},
		"bin":                  map[string]string{LauncherName: "bin/godot-mcp.js"},
		"files":                []string{"bin/godot-mcp.js"},
		"engines":              map[string]string{"node": ">=18"},
		"optionalDependencies": optional,
		"godotMcpVersion":      version,
	})
	readme := "# godot-mcp\n\nAn MCP server that drives a live Godot 4 editor (through its addon) and the running game.\n\n" +
		"```sh\nnpx -y godot-mcp setup claude-code   # or codex, cursor, vscode, gemini, opencode, zed, …\nnpx -y godot-mcp addon install --project ~/games/hello --enable\n```\n\n" +
		"This package is a small launcher: npm installs the binary of your platform from the optional dependency @godot-mcp/<platform>-<arch>. Documentation: " + repoURL + "\n"
	return writePackage(dir, pkg, readme, license)
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func writePackage(dir string, pkg map[string]any, readme string, license []byte) error {
	var data strings.Builder
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(pkg); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(data.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "LICENSE"), license, 0o644)
}

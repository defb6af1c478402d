package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/addon"
	"github.com/godot-mcp/godot-mcp/host/addonversion"
	"github.com/godot-mcp/godot-mcp/host/attach"
	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
)

const doctorUsage = `usage: godot-mcp doctor [--project DIR] [--wait DURATION] [--client CLIENT] [--name NAME]

Checks what godot-mcp needs and says how to fix what is missing: the addon
installed in the project and matching this server, the plugin enabled in
project.godot, the bridge port free or owned by a godot-mcp server, an
editor connected, Godot found for headless runs (GODOT_BIN or godot on
PATH), and the MCP clients' configs (those setup writes) that name
godot-mcp pointing at this binary, with each client's known limits and the
profile it starts with. Exits 1 when a check fails.

  --project DIR     the Godot project (default GODOT_MCP_PROJECT_DIR, else
                    the current directory when it holds project.godot)
  --wait DURATION   when no server runs, how long to listen on the bridge
                    for the editor to dial in (default 7s: the addon
                    retries every 5 s at most; 0 skips the check)
  --client CLIENT   check this client's config (a setup client: codex,
                    cursor, …); its lack of a godot-mcp entry is a failure
  --name NAME       the server's name in the client configs (default godot)
`

// doctorReport collects the checks' verdicts.
type doctorReport struct {
	w      io.Writer
	failed int
}

// line prints one verdict. detail and fix may hold what a peer chose (the
// editor's hello, a running server's answer, error texts): control
// characters in them are printed escaped, so nothing reaches the terminal
// as an escape sequence or forges a line.
func (r *doctorReport) line(verdict, what, detail, fix string) {
	fmt.Fprintf(r.w, "%-4s  %s", verdict, printable(what))
	if detail != "" {
		fmt.Fprintf(r.w, ": %s", printable(detail))
	}
	fmt.Fprintln(r.w)
	if fix != "" {
		fmt.Fprintf(r.w, "      fix: %s\n", printable(fix))
	}
}

// printable escapes control characters (C0, DEL, C1), bidirectional
// controls and invalid UTF-8, Go-style.
func printable(s string) string {
	bad := func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError
	}
	if !strings.ContainsFunc(s, bad) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if bad(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (r *doctorReport) ok(what, detail string)        { r.line("ok", what, detail, "") }
func (r *doctorReport) warn(what, detail, fix string) { r.line("warn", what, detail, fix) }
func (r *doctorReport) skip(what, detail string)      { r.line("--", what, detail, "") }
func (r *doctorReport) fail(what, detail, fix string) { r.failed++; r.line("FAIL", what, detail, fix) }

// errDoctorFailed makes the process exit 1 after the report.
var errDoctorFailed = errors.New("doctor: some checks failed (see above)")

// doctorCommand implements `godot-mcp doctor`.
func doctorCommand(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, doctorUsage) }
	project := fs.String("project", cfg.ProjectDir, "Godot project directory")
	wait := fs.Duration("wait", 7*time.Second, "how long to wait for the editor to dial in")
	client := fs.String("client", "", "the MCP client to check")
	name := fs.String("name", "godot", "the server's name in client configs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("doctor: unexpected %q", strings.Join(fs.Args(), " "))
	}
	if _, ok := lookupSetupClient(*client); *client != "" && !ok {
		return fmt.Errorf("doctor: unknown client %q (known: %s)", *client, strings.Join(setupClientNames()[:len(setupClientTable)], ", "))
	}
	r := &doctorReport{w: stdout}
	self, _ := selfPath()
	r.ok("godot-mcp", fmt.Sprintf("%s at %s", versionLine(), self))

	dir := *project
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			if _, err := os.Stat(filepath.Join(wd, "project.godot")); err == nil {
				dir = wd
			}
		}
	}
	if dir == "" {
		r.fail("project", "no Godot project given", "pass --project DIR (the folder holding project.godot), set GODOT_MCP_PROJECT_DIR, or run doctor in the project folder")
	} else {
		checkProject(r, dir)
	}
	checkBridgeAndEditor(ctx, r, cfg, *wait)
	checkGodot(ctx, r, cfg.GodotBin)
	projectAbs := ""
	if dir != "" {
		projectAbs, _ = filepath.Abs(dir)
	}
	checkClients(r, projectAbs, *client, *name)
	if r.failed > 0 {
		fmt.Fprintf(stdout, "\n%d check(s) failed. docs/troubleshooting.md explains each.\n", r.failed)
		return errDoctorFailed
	}
	fmt.Fprintln(stdout, "\nall checks passed.")
	return nil
}

// checkProject: project.godot, the addon installed and matching, the
// plugin enabled.
func checkProject(r *doctorReport, dir string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	install := "godot-mcp addon install --project " + shellQuote(abs) + " --enable"
	content, err := os.ReadFile(filepath.Join(abs, "project.godot"))
	if err != nil {
		r.fail("project", abs+" has no project.godot", "pass the folder that holds project.godot")
		return
	}
	r.ok("project", abs)

	addonDir := filepath.Join(abs, "addons", "godot_mcp")
	if _, err := os.Stat(filepath.Join(addonDir, "plugin.cfg")); err != nil {
		r.fail("addon", "not installed ("+filepath.Join("addons", "godot_mcp")+" has no plugin.cfg)", install)
	} else {
		m, merr := projectfiles.AddonManifest(abs)
		if merr == nil && m == nil {
			merr = errors.New("no install manifest")
		}
		report, perr := projectfiles.InstallAddon(projectfiles.AddonOptions{ProjectDir: abs, DryRun: true})
		var conflict *projectfiles.ConflictError
		switch {
		case merr != nil:
			r.fail("addon", "installed by hand or by another tool (no install manifest), so its version is unknown",
				"godot-mcp addon install --project "+shellQuote(abs)+" --force --enable (replaces the addon files)")
		case m.Version != addon.Version:
			r.fail("addon", fmt.Sprintf("version %s installed, this server is %s", m.Version, addon.Version), install+", then re-enable the plugin in the editor")
		case errors.As(perr, &conflict):
			r.warn("addon", fmt.Sprintf("version %s, but %d file(s) were changed since it was installed", m.Version, len(conflict.Files)),
				"keep your changes elsewhere and run godot-mcp addon install --project "+shellQuote(abs)+" --force")
		case perr != nil:
			r.fail("addon", perr.Error(), install)
		case report.Changed():
			r.warn("addon", fmt.Sprintf("version %s, but some of its files are missing", m.Version), install)
		default:
			r.ok("addon", fmt.Sprintf("version %s installed, matches this server", m.Version))
		}
	}

	if _, changed, err := projectfiles.EnablePlugin(content, addon.PluginCfgResPath); err != nil {
		r.fail("plugin", "project.godot's [editor_plugins] could not be read: "+err.Error(), "fix the file, or enable the plugin in Project → Project Settings → Plugins")
	} else if changed {
		r.fail("plugin", "not enabled in project.godot", install+", or enable godot_mcp in Project → Project Settings → Plugins")
	} else {
		r.ok("plugin", "enabled in project.godot")
	}
}

// checkBridgeAndEditor: the bridge port free or owned by godot-mcp, and an
// editor connected (asked of the running server, or awaited on the bridge).
func checkBridgeAndEditor(ctx context.Context, r *doctorReport, cfg config.Config, wait time.Duration) {
	u, err := url.Parse(cfg.BridgeURL)
	if err != nil || u.Port() == "" || u.Port() == "0" {
		r.fail("bridge", fmt.Sprintf("GODOT_MCP_BRIDGE_URL %q has no fixed port", cfg.BridgeURL), "use ws://127.0.0.1:9080 (the addon's default) or the port in the addon's godot_mcp/bridge_url editor setting")
		return
	}
	ln, lerr := net.Listen("tcp", net.JoinHostPort(u.Hostname(), u.Port()))
	if lerr == nil {
		ln.Close()
		r.ok("bridge", cfg.BridgeURL+" is free: the server binds it when your MCP client starts it")
		waitForEditor(ctx, r, cfg, wait)
		return
	}
	owner, ferr := attach.Find(ctx, cfg.BridgeURL)
	if ferr != nil {
		r.fail("bridge", fmt.Sprintf("%s is taken by a program that is not a godot-mcp server this user runs (%v)", cfg.BridgeURL, lerr),
			"stop that program, or choose another port: GODOT_MCP_BRIDGE_URL for the server and the addon's godot_mcp/bridge_url editor setting")
		r.skip("editor", "not checked (the bridge port is not ours)")
		return
	}
	r.ok("bridge", fmt.Sprintf("%s is owned by godot-mcp %s (pid %d); other servers attach to it", cfg.BridgeURL, owner.Version, owner.PID))
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	raw, err := attach.CallTool(cctx, owner, "godot_get_server_info", map[string]any{})
	if err != nil {
		r.fail("editor", "the running server did not answer: "+err.Error(), "restart your MCP client")
		return
	}
	var info struct {
		Version string `json:"version"`
		Bridge  struct {
			Connected bool `json:"connected"`
			Peer      *struct {
				ProjectDir   string `json:"project_dir"`
				GodotVersion string `json:"godot_version"`
				AddonVersion string `json:"addon_version"`
			} `json:"peer"`
		} `json:"bridge"`
	}
	_ = json.Unmarshal(raw, &info)
	if !info.Bridge.Connected || info.Bridge.Peer == nil {
		r.fail("editor", "no editor is connected to the running server", editorFix(cfg.BridgeURL))
		return
	}
	reportEditor(r, info.Version, info.Bridge.Peer.ProjectDir, info.Bridge.Peer.GodotVersion, info.Bridge.Peer.AddonVersion)
}

// waitForEditor listens on the bridge (no server runs) until the editor's
// addon dials in, or wait passes.
func waitForEditor(ctx context.Context, r *doctorReport, cfg config.Config, wait time.Duration) {
	if wait <= 0 {
		r.skip("editor", "not checked (--wait 0)")
		return
	}
	br, err := bridge.New(bridge.Options{URL: cfg.BridgeURL, Token: cfg.BridgeToken, ServerVersion: buildinfo.Version})
	if err == nil {
		err = br.Start(ctx)
	}
	if err != nil {
		r.fail("editor", "could not listen on the bridge: "+err.Error(), "")
		return
	}
	defer br.Close()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if st := br.Status(); st.Connected && st.Peer != nil {
			reportEditor(r, buildinfo.Version, st.Peer.ProjectDir, st.Peer.GodotVersion, st.Peer.AddonVersion)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.fail("editor", fmt.Sprintf("no editor dialed %s within %s", cfg.BridgeURL, wait), editorFix(cfg.BridgeURL))
}

func editorFix(bridgeURL string) string {
	return "open the project in Godot 4.4+ with the godot_mcp plugin enabled; its dock (and the Output panel) says whether it reaches " + bridgeURL +
		" (a GODOT_MCP_BRIDGE_TOKEN set on one side only is refused; the addon's bridge URL is the godot_mcp/bridge_url editor setting)"
}

func reportEditor(r *doctorReport, server, project, godot, addonVersion string) {
	r.ok("editor", fmt.Sprintf("connected: project %s, Godot %s, addon %s", project, godot, addonVersion))
	if tested, note := buildinfo.GodotTested(godot); tested {
		r.ok("editor Godot version", note)
	} else {
		r.warn("editor Godot version", note, fmt.Sprintf("use Godot %s for the proven path (docs/godot-versions.md)", strings.Join(buildinfo.TestedGodot, " or ")))
	}
	if n := addonversion.Notice(server, addonVersion); n != "" {
		r.fail("editor addon", n, "")
	}
}

var godotVersionRE = regexp.MustCompile(`^(\d+)\.(\d+)`)

// checkGodot: a Godot 4.4+ binary for headless runs.
func checkGodot(ctx context.Context, r *doctorReport, godotBin string) {
	what := "godot (headless runs)"
	bin, from := godotBin, "GODOT_BIN"
	if bin == "" {
		p, err := exec.LookPath("godot")
		if err != nil {
			r.warn(what, "GODOT_BIN is not set and no godot on PATH; the headless tools (run_headless, tests_run, check_project, shader_validate) run the connected editor's own Godot, and cannot run without an editor (the editor tools work without it)",
				"set GODOT_BIN=/path/to/godot (Godot 4.4 or newer) in the MCP server's env")
			return
		}
		bin, from = p, "PATH"
	}
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	out, err := exec.CommandContext(cctx, bin, "--version").Output()
	version := strings.TrimSpace(string(out))
	if err != nil {
		r.fail(what, fmt.Sprintf("%s (from %s) does not run: %v", bin, from, err), "point GODOT_BIN at a Godot 4.4+ editor binary")
		return
	}
	m := godotVersionRE.FindStringSubmatch(version)
	major, _ := strconv.Atoi(safeIndex(m, 1))
	minor, _ := strconv.Atoi(safeIndex(m, 2))
	if m == nil || major != 4 || minor < 4 {
		r.warn(what, fmt.Sprintf("%s (from %s) says %q; godot-mcp needs Godot 4.4 or newer", bin, from, version), "point GODOT_BIN at a Godot 4.4+ binary")
		return
	}
	r.ok(what, fmt.Sprintf("%s (from %s), %s", bin, from, version))
}

func safeIndex(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

// shellQuote quotes a path for a command line shown to the user.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"$`\\!*?;&|<>()[]{}#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

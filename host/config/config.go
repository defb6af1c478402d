// Package config holds every GODOT_MCP_* setting in one table: its default,
// its flag, and its meaning. The same table drives parsing, --help and
// docs/env-vars.md.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Var describes one setting.
type Var struct {
	Env     string // environment variable
	Flag    string // command-line flag (overrides the environment)
	Default string
	Usage   string
}

// Vars is the single table of settings, in documentation order.
var Vars = []Var{
	{Env: "GODOT_MCP_BRIDGE_URL", Flag: "bridge-url", Default: "ws://127.0.0.1:9080", Usage: "WebSocket URL the bridge listens on; the editor addon dials the same URL"},
	{Env: "GODOT_MCP_BRIDGE_TOKEN", Flag: "", Default: "", Usage: "opt-in shared secret for the bridge handshake; set it for the editor too (both ends prove it in the hello, neither sends it); never logged"},
	{Env: "GODOT_MCP_TRANSPORT", Flag: "transport", Default: "stdio", Usage: "MCP transport: stdio or http (streamable HTTP)"},
	{Env: "GODOT_MCP_HTTP_HOST", Flag: "http-host", Default: "127.0.0.1", Usage: "HTTP transport bind host; a wildcard binds what it names: 0.0.0.0 IPv4 only, :: IPv6 only (a non-loopback bind needs GODOT_MCP_AUTH_TOKEN)"},
	{Env: "GODOT_MCP_HTTP_PORT", Flag: "http-port", Default: "9090", Usage: "HTTP transport bind port"},
	{Env: "GODOT_MCP_AUTH_TOKEN", Flag: "", Default: "", Usage: "bearer token for the HTTP transport; required for a non-loopback bind"},
	{Env: "GODOT_MCP_HTTP_HOST_ORIGIN_PROTECTION", Flag: "", Default: "auto", Usage: "HTTP Host/Origin (DNS-rebinding) guard: auto protects loopback binds, true always, false opts out"},
	{Env: "GODOT_MCP_PROJECT_DIR", Flag: "project", Default: "", Usage: "explicit Godot project dir (else the connected editor's)"},
	{Env: "GODOT_MCP_PLUGIN_DIR", Flag: "plugin-dir", Default: "", Usage: "directory of third-party toolset executables (default: <user config dir>/godot-mcp/plugins)"},
	{Env: "GODOT_MCP_DEFAULT_TOOLSETS", Flag: "toolsets", Default: "", Usage: "toolsets enabled at start: 'all' or a comma-separated list, besides GODOT_MCP_PROFILE's (default: none besides core)"},
	{Env: "GODOT_MCP_PROFILE", Flag: "profile", Default: "", Usage: "toolsets enabled at start by profile: minimal, 2d, 3d, world3d, playtest, all, or none (see docs/clients.md); setting it or GODOT_MCP_DEFAULT_TOOLSETS overrides the profile a known client gets when it connects (Codex, Antigravity, Cursor, VS Code)"},
	{Env: "GODOT_MCP_APPROVAL", Flag: "approval", Default: "auto", Usage: "who approves the calls of GODOT_MCP_APPROVAL_SCOPE: auto (no one: they run once confirmed), elicit (ask the user via MCP elicitation) or webhook"},
	{Env: "GODOT_MCP_APPROVAL_SCOPE", Flag: "approval-scope", Default: "destructive", Usage: "which calls need approval, comma-separated: destructive (always: every call that destroys or overwrites, i.e. a destructive tool, a call with confirm: true, or one that meets its tool's destructive_when), writes (also every other mutating call), code (also every tool that can make code run: writing scripts, adding autoloads, playing or running the game), or all"},
	{Env: "GODOT_MCP_APPROVAL_URL", Flag: "", Default: "", Usage: "webhook that approves calls (GODOT_MCP_APPROVAL=webhook); it may carry credentials, so it is never logged nor passed to toolsets or games"},
	{Env: "GODOT_MCP_APPROVAL_TIMEOUT", Flag: "", Default: "30s", Usage: "how long to wait for an approval before denying"},
	{Env: "GODOT_MCP_EAGER_TOOLSETS", Flag: "", Default: "false", Usage: "true starts a toolset's plugin process when it is enabled; by default enabling serves its tools at once and its process starts on its first call (see docs/performance.md)"},
	{Env: "GODOT_MCP_TOOLSET_IDLE", Flag: "", Default: "10m", Usage: "a toolset plugin that served no call for this long is stopped, and started again by its next call (0: never stopped)"},
	{Env: "GODOT_MCP_PLUGIN_PINNING", Flag: "", Default: "on", Usage: "on: the first enable of a third-party toolset records its executable's SHA-256 in <user config dir>/godot-mcp/trusted-plugins.json, and a changed executable is refused (required: plugin_trusted) until `godot-mcp toolset trust NAME`; off: no pinning (see docs/security.md)"},
	{Env: "GODOT_MCP_CALL_TIMEOUT", Flag: "", Default: "2m", Usage: "longest a tool call may run inside a toolset plugin; a plugin that does not answer by then is considered hung and restarted"},
	{Env: "GODOT_MCP_ERRORS_IN_RESULTS", Flag: "errors-in-results", Default: "true", Usage: "attach to every tool result the editor and game errors that appeared since the client's previous call (at most 5 listed, with the total; see docs/envelope.md); false turns it off"},
	{Env: "GODOT_MCP_OUTPUT_SCHEMAS", Flag: "output-schemas", Default: "none", Usage: "what tools/list says of each tool's result: none (the default: the full result schema is the resource godot://tool/{name}, and tools/list stays small) or summary (also a top-level type summary as outputSchema, for a client that wants one)"},
	{Env: "GODOT_BIN", Flag: "godot-bin", Default: "", Usage: "Godot 4 binary for headless runs (godot_runtime_run_headless, godot_tests_run, godot_diagnostics_check_project, godot_shader_validate) and the e2e suite (default: the connected editor's own executable if docs/security.md accepts it, else godot on PATH)"},
	{Env: "GODOT_MCP_HEADLESS_DIRS", Flag: "", Default: "", Usage: "directories besides the project where headless runs (run_headless, tests_run, check_project) may run a Godot project, and the analysis tools may read one (separated by the OS path-list separator, : on Unix); by default only the project (GODOT_MCP_PROJECT_DIR or the connected editor's)"},
	{Env: "GODOT_MCP_EXPORT_ROOTS", Flag: "", Default: "", Usage: "directories outside the project where godot_export_export may write exported games and godot_export_smoke_run may run packs from (separated by the OS path-list separator, : on Unix); by default export writes only inside the project, and never through a symbolic link"},
	{Env: "GODOT_MCP_IMPORT_ROOTS", Flag: "", Default: "", Usage: "directories outside the project that godot_assets_import may copy files from (separated by the OS path-list separator, : on Unix); by default none: nothing outside the project is read, and never through a symbolic link"},
	{Env: "GODOT_MCP_LOG_LEVEL", Flag: "log-level", Default: "info", Usage: "stderr log level: debug, info, warn, error"},
	{Env: "GODOT_MCP_CONFORMANCE_FIXTURE", Flag: "", Default: "false", Usage: "test-only: true lets the toolset named 'conformance' (the MCP conformance suite's fixture) serve its tools and prompts under their bare names instead of godot_conformance_*; never set it in normal use"},
}

// Config is the parsed configuration.
type Config struct {
	BridgeURL            string
	BridgeToken          string
	Transport            string
	HTTPHost             string
	HTTPPort             int
	AuthToken            string
	HostOriginProtection string
	ProjectDir           string
	PluginDir            string
	DefaultToolsets      []string // nil = none; ["all"] = all
	// Profile is GODOT_MCP_PROFILE: a profile name, "none", or "" (unset:
	// a known client gets its own profile when it connects).
	Profile         string
	Approval        string
	ApprovalScope   safety.Scope
	ApprovalURL     string
	ApprovalTimeout time.Duration
	CallTimeout     time.Duration
	// EagerToolsets (GODOT_MCP_EAGER_TOOLSETS): enabling starts the plugin.
	EagerToolsets bool
	// ToolsetIdle (GODOT_MCP_TOOLSET_IDLE): an unused plugin is stopped
	// after it; 0 never.
	ToolsetIdle time.Duration
	// PluginPinning (GODOT_MCP_PLUGIN_PINNING): third-party executables
	// are pinned by SHA-256 (host/trust).
	PluginPinning bool
	// ErrorsInResults: tool results carry the editor's and the game's new
	// errors (GODOT_MCP_ERRORS_IN_RESULTS; mcpserver/errorfeed.go).
	ErrorsInResults bool
	// OutputSchemaSummary: tools/list carries a type summary of each
	// tool's result as outputSchema (GODOT_MCP_OUTPUT_SCHEMAS=summary);
	// by default it carries none (mcpserver/budget.go).
	OutputSchemaSummary bool
	LogLevel            string
	GodotBin            string // GODOT_BIN; "" = godot on PATH
	// ConformanceFixture is test-only: the toolset named "conformance"
	// serves unqualified names (GODOT_MCP_CONFORMANCE_FIXTURE).
	ConformanceFixture bool
}

// ChoseStartToolsets reports whether the user chose the toolsets enabled
// at start (GODOT_MCP_PROFILE or GODOT_MCP_DEFAULT_TOOLSETS): then no
// client gets its own default profile.
func (c Config) ChoseStartToolsets() bool { return c.Profile != "" || len(c.DefaultToolsets) > 0 }

// HTTPAddr is host:port of the HTTP transport.
func (c Config) HTTPAddr() string {
	return net.JoinHostPort(c.HTTPHost, strconv.Itoa(c.HTTPPort))
}

// ErrVersion is returned by Load for --version (nothing is written).
var ErrVersion = errors.New("version requested")

// Load builds a Config from environment lookups, overridden by flags in args.
// Flags may come before the command and, for `serve`, after it too; serve
// takes no other arguments. It returns flag.ErrHelp for -h/--help and
// ErrVersion for --version, having printed nothing: the caller prints the
// usage or the version on stdout. Load never writes anywhere.
func Load(lookup func(string) (string, bool), args []string) (Config, []string, error) {
	values := map[string]string{}
	for _, v := range Vars {
		val := v.Default
		if s, ok := lookup(v.Env); ok && s != "" {
			val = s
		}
		values[v.Env] = val
	}
	fs := flag.NewFlagSet("godot-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	flagVals := map[string]*string{}
	for _, v := range Vars {
		if v.Flag == "" {
			continue
		}
		flagVals[v.Env] = fs.String(v.Flag, values[v.Env], v.Usage+" (env "+v.Env+")")
	}
	version := fs.Bool("version", false, "print the version and exit")
	parse := func(args []string) error {
		err := fs.Parse(args)
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			err = fmt.Errorf("%w (run godot-mcp --help)", err)
		}
		return err
	}
	if err := parse(args); err != nil {
		return Config{}, nil, err
	}
	rest := fs.Args()
	if len(rest) > 0 && rest[0] == "serve" {
		if err := parse(rest[1:]); err != nil {
			return Config{}, nil, err
		}
		if fs.NArg() > 0 {
			return Config{}, nil, fmt.Errorf("serve takes flags only, not %q (run godot-mcp --help)", strings.Join(fs.Args(), " "))
		}
		rest = []string{"serve"}
	}
	if *version {
		return Config{}, nil, ErrVersion
	}
	for env, p := range flagVals {
		values[env] = *p
	}
	cfg, err := fromValues(values)
	return cfg, rest, err
}

func fromValues(v map[string]string) (Config, error) {
	c := Config{
		BridgeURL:            v["GODOT_MCP_BRIDGE_URL"],
		BridgeToken:          v["GODOT_MCP_BRIDGE_TOKEN"],
		Transport:            strings.ToLower(v["GODOT_MCP_TRANSPORT"]),
		HTTPHost:             v["GODOT_MCP_HTTP_HOST"],
		AuthToken:            v["GODOT_MCP_AUTH_TOKEN"],
		HostOriginProtection: strings.ToLower(v["GODOT_MCP_HTTP_HOST_ORIGIN_PROTECTION"]),
		ProjectDir:           v["GODOT_MCP_PROJECT_DIR"],
		PluginDir:            v["GODOT_MCP_PLUGIN_DIR"],
		Approval:             strings.ToLower(v["GODOT_MCP_APPROVAL"]),
		ApprovalURL:          v["GODOT_MCP_APPROVAL_URL"],
		LogLevel:             strings.ToLower(v["GODOT_MCP_LOG_LEVEL"]),
		GodotBin:             v["GODOT_BIN"],
		Profile:              strings.ToLower(strings.TrimSpace(v["GODOT_MCP_PROFILE"])),
	}
	var errs []error
	port, err := strconv.Atoi(v["GODOT_MCP_HTTP_PORT"])
	if err != nil || port < 0 || port > 65535 {
		errs = append(errs, fmt.Errorf("GODOT_MCP_HTTP_PORT=%q is not a port number", v["GODOT_MCP_HTTP_PORT"]))
	}
	c.HTTPPort = port
	if c.Transport != "stdio" && c.Transport != "http" {
		errs = append(errs, fmt.Errorf("GODOT_MCP_TRANSPORT=%q: want stdio or http", c.Transport))
	}
	switch c.HostOriginProtection {
	case "auto", "true", "false":
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_HTTP_HOST_ORIGIN_PROTECTION=%q: want auto, true or false", c.HostOriginProtection))
	}
	switch c.Approval {
	case "auto", "elicit":
	case "webhook":
		if c.ApprovalURL == "" {
			errs = append(errs, errors.New("GODOT_MCP_APPROVAL=webhook needs GODOT_MCP_APPROVAL_URL"))
		}
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_APPROVAL=%q: want auto, elicit or webhook", c.Approval))
	}
	scope, err := safety.ParseScope(v["GODOT_MCP_APPROVAL_SCOPE"])
	if err != nil {
		errs = append(errs, fmt.Errorf("GODOT_MCP_APPROVAL_SCOPE: %w", err))
	}
	c.ApprovalScope = scope
	for _, d := range filepath.SplitList(v["GODOT_MCP_HEADLESS_DIRS"]) {
		if d != "" && !filepath.IsAbs(d) {
			errs = append(errs, fmt.Errorf("GODOT_MCP_HEADLESS_DIRS: %q is not an absolute path", d))
		}
	}
	for _, d := range filepath.SplitList(v["GODOT_MCP_EXPORT_ROOTS"]) {
		if d != "" && !filepath.IsAbs(d) {
			errs = append(errs, fmt.Errorf("GODOT_MCP_EXPORT_ROOTS: %q is not an absolute path", d))
		}
	}
	for _, d := range filepath.SplitList(v["GODOT_MCP_IMPORT_ROOTS"]) {
		if d != "" && !filepath.IsAbs(d) {
			errs = append(errs, fmt.Errorf("GODOT_MCP_IMPORT_ROOTS: %q is not an absolute path", d))
		}
	}
	d, err := time.ParseDuration(v["GODOT_MCP_APPROVAL_TIMEOUT"])
	if err != nil || d <= 0 {
		errs = append(errs, fmt.Errorf("GODOT_MCP_APPROVAL_TIMEOUT=%q is not a positive duration like 30s", v["GODOT_MCP_APPROVAL_TIMEOUT"]))
	}
	c.ApprovalTimeout = d
	ct, err := time.ParseDuration(v["GODOT_MCP_CALL_TIMEOUT"])
	if err != nil || ct <= 0 {
		errs = append(errs, fmt.Errorf("GODOT_MCP_CALL_TIMEOUT=%q is not a positive duration like 2m", v["GODOT_MCP_CALL_TIMEOUT"]))
	}
	c.CallTimeout = ct
	switch strings.ToLower(v["GODOT_MCP_EAGER_TOOLSETS"]) {
	case "", "false", "0":
	case "true", "1":
		c.EagerToolsets = true
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_EAGER_TOOLSETS=%q: want true or false", v["GODOT_MCP_EAGER_TOOLSETS"]))
	}
	if idle := v["GODOT_MCP_TOOLSET_IDLE"]; idle == "0" {
		c.ToolsetIdle = 0
	} else if d, err := time.ParseDuration(idle); err != nil || d < 0 {
		errs = append(errs, fmt.Errorf("GODOT_MCP_TOOLSET_IDLE=%q is not a duration like 10m (0: never)", idle))
	} else {
		c.ToolsetIdle = d
	}
	switch strings.ToLower(v["GODOT_MCP_PLUGIN_PINNING"]) {
	case "", "on", "true", "1":
		c.PluginPinning = true
	case "off", "false", "0":
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_PLUGIN_PINNING=%q: want on or off", v["GODOT_MCP_PLUGIN_PINNING"]))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_LOG_LEVEL=%q: want debug, info, warn or error", c.LogLevel))
	}
	if u, err := url.Parse(c.BridgeURL); err != nil || u.Scheme != "ws" || u.Host == "" {
		errs = append(errs, fmt.Errorf("GODOT_MCP_BRIDGE_URL=%q: want ws://host:port", c.BridgeURL))
	}
	switch strings.ToLower(strings.TrimSpace(v["GODOT_MCP_ERRORS_IN_RESULTS"])) {
	case "true", "1":
		c.ErrorsInResults = true
	case "false", "0":
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_ERRORS_IN_RESULTS=%q: want true or false", v["GODOT_MCP_ERRORS_IN_RESULTS"]))
	}
	switch strings.ToLower(strings.TrimSpace(v["GODOT_MCP_OUTPUT_SCHEMAS"])) {
	case "", "none":
	case "summary":
		c.OutputSchemaSummary = true
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_OUTPUT_SCHEMAS=%q: want none or summary", v["GODOT_MCP_OUTPUT_SCHEMAS"]))
	}
	switch strings.ToLower(v["GODOT_MCP_CONFORMANCE_FIXTURE"]) {
	case "", "false", "0":
	case "true", "1":
		c.ConformanceFixture = true
	default:
		errs = append(errs, fmt.Errorf("GODOT_MCP_CONFORMANCE_FIXTURE=%q: want true or false", v["GODOT_MCP_CONFORMANCE_FIXTURE"]))
	}
	if ts := strings.TrimSpace(v["GODOT_MCP_DEFAULT_TOOLSETS"]); ts != "" {
		for _, name := range strings.Split(ts, ",") {
			if name = strings.TrimSpace(name); name != "" {
				c.DefaultToolsets = append(c.DefaultToolsets, name)
			}
		}
	}
	if c.Profile != "" {
		if err := profile.Check(c.Profile); err != nil {
			errs = append(errs, fmt.Errorf("GODOT_MCP_PROFILE: %w", err))
		}
	}
	if c.PluginDir == "" {
		c.PluginDir = DefaultPluginDir()
	}
	return c, errors.Join(errs...)
}

// DefaultPluginDir is <user config dir>/godot-mcp/plugins.
func DefaultPluginDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "godot-mcp", "plugins")
}

// Secret reports whether the variable is one of contract.SecretEnv: never
// printed or logged, never passed to a child process (toolset plugins, games).
func (v Var) Secret() bool { return slices.Contains(contract.SecretEnv, v.Env) }

// ScrubEnv returns env (KEY=value entries) without the secret variables.
func ScrubEnv(env []string) []string {
	secret := map[string]bool{}
	for _, k := range contract.SecretEnv {
		secret[k] = true
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if secret[k] {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// IsLoopbackHost reports whether host (no port) names the loopback interface.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckHTTPBind refuses a non-loopback HTTP bind without GODOT_MCP_AUTH_TOKEN.
func (c Config) CheckHTTPBind() error {
	if c.Transport == "http" && !IsLoopbackHost(c.HTTPHost) && c.AuthToken == "" {
		return fmt.Errorf("refusing to serve HTTP on non-loopback %s without GODOT_MCP_AUTH_TOKEN (set a bearer token, or bind 127.0.0.1)", c.HTTPAddr())
	}
	return nil
}

// WriteUsage documents the commands, flags and environment variables.
func WriteUsage(w io.Writer) {
	fmt.Fprint(w, `godot-mcp — an MCP server that drives a live Godot 4 editor.

Usage:
  godot-mcp [flags]                       run the MCP server (stdio by default)
  godot-mcp serve [flags]                 the same
  godot-mcp --help, godot-mcp help        print this on stdout
  godot-mcp --version, godot-mcp version  print the version
  godot-mcp addon install --project DIR [--enable] [--dry-run] [--force]
                                          install the matching editor addon into a project
  godot-mcp setup CLIENT [--project DIR]  add this server to claude-code, claude-desktop, cursor
                                          or vscode's config (print: a snippet for any other)
  godot-mcp doctor [--project DIR]        check the addon, plugin, bridge, editor and Godot; say how to fix
  godot-mcp toolset serve NAME            (internal) run a built-in toolset plugin
  godot-mcp toolset trust NAME            trust the third-party toolset NAME's executable as it is now
  godot-mcp contract                      print the tool surface as JSON

Settings (flag, environment variable, default):
`)
	for _, v := range Vars {
		f := "  "
		if v.Flag != "" {
			f = "  --" + v.Flag + ", "
		}
		def := v.Default
		if def == "" {
			def = "unset"
		}
		fmt.Fprintf(w, "%s%s (default %s)\n      %s\n", f, v.Env, def, v.Usage)
	}
}

// Markdown renders the settings table as docs/env-vars.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Configuration\n\n<!-- Generated from host/config (the Vars table) by `make docs`; a test fails when it drifts. -->\n\n")
	b.WriteString("Every setting is an environment variable; some also have a flag, which wins. `godot-mcp --help` prints the same table.\n\n")
	b.WriteString("| variable | flag | default | meaning |\n|---|---|---|---|\n")
	for _, v := range Vars {
		flagName, def := "", v.Default
		if v.Flag != "" {
			flagName = "`--" + v.Flag + "`"
		}
		if def == "" {
			def = "unset"
		} else {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", v.Env, flagName, def, strings.ReplaceAll(v.Usage, "|", "\\|"))
	}
	return b.String()
}

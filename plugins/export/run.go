package export

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/nolinks"
	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// ExportRootsEnv lists the directories outside the project that export may
// write to (and smoke_run may read from); none by default.
const ExportRootsEnv = "GODOT_MCP_EXPORT_ROOTS"

// place is a file's place: a directory the user allowed (the project or
// an export root) and the slash path below it.
type place struct {
	root string // absolute, as the user gave it
	rel  string
	abs  string
	// inProject: root is the project, res is the res:// path
	inProject bool
}

// resolvePlace checks that path (absolute, res://, or relative to the
// project) is inside the project or a directory of GODOT_MCP_EXPORT_ROOTS.
// Links below that directory are refused by the nolinks checks of the
// caller; the directory itself may be reached through links.
func resolvePlace(project, path, what string) (place, error) {
	p := path
	if rest, ok := strings.CutPrefix(p, "res://"); ok {
		p = rest
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(project, filepath.FromSlash(p))
	}
	p = filepath.Clean(p)
	roots := []string{project}
	for _, r := range filepath.SplitList(os.Getenv(ExportRootsEnv)) {
		if r != "" && filepath.IsAbs(r) {
			roots = append(roots, filepath.Clean(r))
		}
	}
	for k, root := range roots {
		cands := []string{root}
		if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
			cands = append(cands, real)
		}
		for _, c := range cands {
			if !godotproc.Within(p, c) {
				continue
			}
			rel, _ := filepath.Rel(c, p)
			if rel == "." {
				return place{}, sdk.Validation(fmt.Sprintf("%s %s is a directory the user allowed, not a file in it", what, path))
			}
			return place{root: c, rel: filepath.ToSlash(rel), abs: p, inProject: k == 0}, nil
		}
	}
	allowed := "none are set"
	if len(roots) > 1 {
		allowed = strings.Join(roots[1:], ", ")
	}
	return place{}, sdk.PreconditionFailed("", fmt.Sprintf("%s %s is outside the project (%s) and outside the directories the user allows in the server's %s (%s): "+
		"export writes only there. Give a path in the project (build/game.pck), or ask the user to add the directory to %s.", what, path, project, ExportRootsEnv, allowed, ExportRootsEnv))
}

func linkRefusal(err error) error {
	if nolinks.IsLink(err) {
		return sdk.PreconditionFailed("", err.Error()+"; godot-mcp does not follow links when it writes or runs an export: use the real directory")
	}
	if errors.Is(err, nolinks.ErrNotLocal) {
		return sdk.Validation(err.Error())
	}
	return sdk.Internal(err.Error())
}

// ExportIn says what to export.
type ExportIn struct {
	Preset    string `json:"preset" description:"the preset's name"`
	Mode      string `json:"mode,omitempty" jsonschema:"enum=release|debug|pack,default=release" description:"pack: only the .pck or .zip data (needs no export templates)"`
	Path      string `json:"path,omitempty" description:"output file, relative to the project or absolute; default the preset's export_path (for pack with the extension .pck)"`
	Overwrite bool   `json:"overwrite,omitempty" description:"replace existing files (needs confirm: true)"`
	TimeoutMs int    `json:"timeout_ms,omitempty" jsonschema:"minimum=5000,maximum=600000,default=100000" description:"kill the export after this long"`
}

// Artifact is a file the export wrote.
type Artifact struct {
	Path string `json:"path" description:"absolute"`
	Res  string `json:"res,omitempty" description:"res:// path when inside the project"`
	Size int64  `json:"size"`
}

// ExportOut is a finished export.
type ExportOut struct {
	Preset     string            `json:"preset"`
	Mode       string            `json:"mode"`
	Path       string            `json:"path" description:"the main output file"`
	Artifacts  []Artifact        `json:"artifacts"`
	Overwrote  []string          `json:"overwrote,omitempty"`
	Warnings   []godotproc.Error `json:"warnings" description:"errors and warnings Godot printed during a successful export"`
	DurationMs int64             `json:"duration_ms"`
	DryRun     bool              `json:"dry_run,omitempty" description:"nothing was exported; path and overwrote say what would be written"`
}

var progressRE = regexp.MustCompile(`^\[\s*(\d+)%\s*\]\s*(.*)$`)

const maxTail = 30

func exportTool(ctx context.Context, call *sdk.Call, in ExportIn) (ExportOut, error) {
	if in.Mode == "" {
		in.Mode = "release"
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 100000
	}
	flag := map[string]string{"release": "--export-release", "debug": "--export-debug", "pack": "--export-pack"}[in.Mode]
	if flag == "" {
		return ExportOut{}, sdk.Validation(fmt.Sprintf("mode %q: want release, debug or pack", in.Mode))
	}
	project, err := projectDir(ctx, call)
	if err != nil {
		return ExportOut{}, err
	}
	doc, err := loadPresets(project)
	if err != nil {
		return ExportOut{}, err
	}
	i, err := doc.find(in.Preset)
	if err != nil {
		return ExportOut{}, err
	}
	preset := doc.preset(i, false)
	path := in.Path
	if path == "" {
		path = preset.ExportPath
		if path == "" {
			return ExportOut{}, sdk.Validation(fmt.Sprintf("preset %q has no export_path: give path (e.g. build/game.pck), or set the preset's export_path", preset.Name))
		}
		if in.Mode == "pack" && !isPack(path) {
			path = strings.TrimSuffix(path, filepath.Ext(path)) + ".pck"
		}
	}
	if in.Mode == "pack" && !isPack(path) {
		return ExportOut{}, sdk.Validation(fmt.Sprintf("path %s: a pack export writes a .pck or a .zip", path))
	}
	dest, err := resolvePlace(project, path, "path")
	if err != nil {
		return ExportOut{}, err
	}
	d, err := nolinks.Open(dest.root)
	if err != nil {
		return ExportOut{}, sdk.Internal(err.Error())
	}
	defer d.Close()
	st, err := d.Lstat(dest.rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ExportOut{}, linkRefusal(err)
	}
	exists := err == nil
	if exists && st.IsDir() {
		return ExportOut{}, sdk.Validation(fmt.Sprintf("path %s is a directory; give the output file's path", dest.abs))
	}
	if exists && !in.Overwrite {
		return ExportOut{}, sdk.Validation(fmt.Sprintf("%s exists; pass overwrite: true (with confirm: true) to replace it, or give another path", dest.abs))
	}
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return ExportOut{}, err
	}
	if in.Mode != "pack" {
		c, err := checkTemplates(ctx, doc, i, godot, []bool{in.Mode == "debug"})
		if err != nil {
			return ExportOut{}, err
		}
		if err := c.err(); err != nil {
			return ExportOut{}, err
		}
	}
	out := ExportOut{Preset: preset.Name, Mode: in.Mode, Path: dest.abs, Artifacts: []Artifact{}, Warnings: []godotproc.Error{}}
	if call.DryRun {
		out.DryRun = true
		if exists {
			out.Overwrote = []string{dest.abs}
		}
		return out, nil
	}
	// Godot writes into a fresh hidden directory next to the output (the
	// editor's file system skips hidden folders); what it wrote is then
	// moved into place, refusing links, and only when the export worked.
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	destDir := filepath.ToSlash(filepath.Dir(filepath.FromSlash(dest.rel)))
	tmpRel := ".godot-mcp-export-" + hex.EncodeToString(rnd[:])
	if destDir != "." {
		tmpRel = destDir + "/" + tmpRel
	}
	// The folders this call creates (deepest first), removed again when
	// the export fails.
	var made []string
	for p := destDir; p != "." && p != ""; p = filepath.ToSlash(filepath.Dir(filepath.FromSlash(p))) {
		if _, err := d.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append(made, p)
	}
	if err := d.MkdirAll(tmpRel); err != nil {
		return ExportOut{}, linkRefusal(err)
	}
	tmpAbs := d.Path(tmpRel)
	ok := false
	defer func() {
		_ = os.RemoveAll(tmpAbs)
		if !ok {
			for _, p := range made {
				_ = d.Remove(p) // only when empty
			}
		}
	}()
	base := filepath.Base(dest.abs)
	call.Host.Progress(ctx, 0, 100, fmt.Sprintf("exporting %q (%s) with %s", preset.Name, in.Mode, filepath.Base(godot)))
	onLine := func(line string) {
		if m := progressRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			n, _ := strconv.Atoi(m[1])
			call.Host.Progress(ctx, float64(min(n, 99)), 100, m[2])
		}
	}
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: project,
		Args:    []string{"--headless", "--path", project, flag, preset.Name, filepath.Join(tmpAbs, base)},
		Timeout: time.Duration(in.TimeoutMs) * time.Millisecond, MaxOutput: 256 << 10, OnLine: onLine})
	if err != nil {
		return ExportOut{}, err
	}
	out.DurationMs = res.Duration.Milliseconds()
	entries, _ := os.ReadDir(tmpAbs)
	_, mainErr := os.Lstat(filepath.Join(tmpAbs, base))
	if res.TimedOut {
		return ExportOut{}, sdk.Timeout(fmt.Sprintf("the export of %q did not end within %d ms and was stopped; nothing was written. Give a larger timeout_ms. Godot's last lines:\n%s", preset.Name, in.TimeoutMs, lastLines(res.Output, 10)))
	}
	if res.ExitCode == nil || *res.ExitCode != 0 || mainErr != nil {
		return ExportOut{}, exportFailure(preset.Name, res, mainErr == nil)
	}
	// Everything Godot wrote goes next to the output: refuse before moving
	// anything when one would replace a file without overwrite.
	for _, e := range entries {
		rel := joinRel(destDir, e.Name())
		if _, err := d.Lstat(rel); err == nil {
			if !in.Overwrite {
				return ExportOut{}, sdk.Validation(fmt.Sprintf("the export also wrote %s, which exists; pass overwrite: true (with confirm: true) to replace it. Nothing was written", d.Path(rel)))
			}
			out.Overwrote = append(out.Overwrote, d.Path(rel))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return ExportOut{}, linkRefusal(err)
		}
	}
	for _, e := range entries {
		rel := joinRel(destDir, e.Name())
		if err := d.Rename(tmpRel+"/"+e.Name(), rel); err != nil {
			return ExportOut{}, linkRefusal(err)
		}
		a := Artifact{Path: d.Path(rel), Size: size(d.Path(rel))}
		if dest.inProject {
			a.Res = "res://" + rel
		}
		out.Artifacts = append(out.Artifacts, a)
	}
	out.Warnings = append(out.Warnings, res.Errors...)
	ok = true
	call.Host.Progress(ctx, 100, 100, fmt.Sprintf("exported %d file(s)", len(out.Artifacts)))
	return out, nil
}

func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// size is a file's size, or a directory's total (a macOS .app).
func size(p string) int64 {
	var n int64
	_ = filepath.WalkDir(p, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func isPack(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".pck" || ext == ".zip"
}

// exportFailure is the exporter's own words: its errors, else its last lines.
func exportFailure(name string, res godotproc.Result, wrote bool) error {
	var msgs []string
	for _, e := range res.Errors {
		if e.Severity == "error" {
			msgs = append(msgs, errorBlock(res.Output, e.Message))
		}
	}
	why := ""
	if len(msgs) > 0 {
		if len(msgs) > 8 {
			msgs = append(msgs[:8], fmt.Sprintf("(%d more)", len(msgs)-8))
		}
		why = "Godot said: " + strings.Join(msgs, " | ")
	} else {
		why = "Godot's last lines:\n" + lastLines(res.Output, maxTail)
	}
	what := "failed"
	if res.ExitCode != nil && *res.ExitCode == 0 && !wrote {
		what = "wrote no output file"
	}
	return sdk.PreconditionFailed("", fmt.Sprintf("the export of preset %q %s (Godot %s); nothing was written. %s", name, what, res.Exit(), why))
}

// errorBlock is an error message with the lines Godot printed under it
// before its "at:" line: the exporter's reasons ("Cannot export project …
// due to configuration errors:" and then each error on a line of its own).
func errorBlock(output, msg string) string {
	lines := strings.Split(output, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(strings.TrimRight(l, "\r"), msg) || !strings.Contains(l, "ERROR") {
			continue
		}
		parts := []string{msg}
		for _, next := range lines[i+1:] {
			next = strings.TrimSpace(next)
			if strings.HasPrefix(next, "at:") || strings.Contains(next, "ERROR:") || strings.HasPrefix(next, "WARNING:") || len(parts) > 12 {
				break
			}
			if next != "" {
				parts = append(parts, next)
			}
		}
		return strings.Join(parts, " ")
	}
	return msg
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// SmokeIn says which pack to run.
type SmokeIn struct {
	Pack      string   `json:"pack,omitempty" description:"the .pck or .zip, relative to the project or absolute; default: the preset's export_path with .pck"`
	Preset    string   `json:"preset,omitempty" description:"take the pack's path from this preset"`
	TimeoutMs int      `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=110000,default=10000" description:"stop the game after this long (timed_out: true, normal for a game that does not quit)"`
	Args      []string `json:"args,omitempty" description:"user arguments after --, read by OS.get_cmdline_user_args()"`
}

// SmokeOut is what the game did.
type SmokeOut struct {
	Pack       string            `json:"pack"`
	Command    []string          `json:"command"`
	ExitCode   *int              `json:"exit_code" description:"null when stopped at the time limit or by a signal"`
	Signal     string            `json:"signal,omitempty"`
	TimedOut   bool              `json:"timed_out"`
	Output     string            `json:"output" description:"stdout and stderr (start and end kept when long)"`
	Errors     []godotproc.Error `json:"errors" description:"errors and warnings the game printed, with script file:line"`
	Clean      bool              `json:"clean" description:"no error printed, and the game quit with code 0 or ran until the time limit"`
	DurationMs int64             `json:"duration_ms"`
}

func smokeRun(ctx context.Context, call *sdk.Call, in SmokeIn) (SmokeOut, error) {
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 10000
	}
	project, err := projectDir(ctx, call)
	if err != nil {
		return SmokeOut{}, err
	}
	pack := in.Pack
	if pack == "" {
		if in.Preset == "" {
			return SmokeOut{}, sdk.Validation("give pack (the exported .pck or .zip) or preset (its export_path, with .pck)")
		}
		doc, err := loadPresets(project)
		if err != nil {
			return SmokeOut{}, err
		}
		i, err := doc.find(in.Preset)
		if err != nil {
			return SmokeOut{}, err
		}
		pack = doc.preset(i, false).ExportPath
		if pack == "" {
			return SmokeOut{}, sdk.Validation(fmt.Sprintf("preset %q has no export_path; give pack", in.Preset))
		}
		if !isPack(pack) {
			pack = strings.TrimSuffix(pack, filepath.Ext(pack)) + ".pck"
		}
	}
	if !isPack(pack) {
		return SmokeOut{}, sdk.Validation(fmt.Sprintf("pack %s: want a .pck or .zip (export one with godot_export_export mode: pack)", pack))
	}
	pl, err := resolvePlace(project, pack, "pack")
	if err != nil {
		return SmokeOut{}, err
	}
	d, err := nolinks.Open(pl.root)
	if err != nil {
		return SmokeOut{}, sdk.Internal(err.Error())
	}
	st, err := d.Lstat(pl.rel)
	d.Close()
	if errors.Is(err, fs.ErrNotExist) {
		return SmokeOut{}, sdk.NotFound(fmt.Sprintf("%s does not exist; export it first (godot_export_export mode: pack)", pl.abs))
	}
	if err != nil {
		return SmokeOut{}, linkRefusal(err)
	}
	if !st.Mode().IsRegular() {
		return SmokeOut{}, sdk.Validation(fmt.Sprintf("%s is not a file", pl.abs))
	}
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return SmokeOut{}, err
	}
	// An empty working directory: the game sees only its pack.
	cwd, err := os.MkdirTemp("", "godot-mcp-smoke-")
	if err != nil {
		return SmokeOut{}, sdk.Internal(err.Error())
	}
	defer os.RemoveAll(cwd)
	args := []string{"--headless", "--main-pack", pl.abs}
	if len(in.Args) > 0 {
		args = append(append(args, "--"), in.Args...)
	}
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: cwd, Args: args, Timeout: time.Duration(in.TimeoutMs) * time.Millisecond})
	if err != nil {
		return SmokeOut{}, err
	}
	out := SmokeOut{Pack: pl.abs, Command: res.Command, ExitCode: res.ExitCode, Signal: res.Signal, TimedOut: res.TimedOut,
		Output: res.Output, Errors: res.Errors, DurationMs: res.Duration.Milliseconds()}
	if out.Errors == nil {
		out.Errors = []godotproc.Error{}
	}
	hasErr := false
	for _, e := range out.Errors {
		if e.Severity == "error" {
			hasErr = true
		}
	}
	out.Clean = !hasErr && (res.TimedOut || (res.ExitCode != nil && *res.ExitCode == 0))
	return out, nil
}

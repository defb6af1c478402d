package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// RequireExportTemplates is the precondition a full export lacks when the
// platform's export templates are not installed for this Godot version.
const RequireExportTemplates = sdk.RequireExportTemplates

const versionTimeout = 20 * time.Second

// TemplatesIn names the preset whose templates to check.
type TemplatesIn struct {
	Preset string `json:"preset" description:"the preset's name"`
	Mode   string `json:"mode,omitempty" jsonschema:"enum=both|release|debug,default=both" description:"which export's templates"`
}

// TemplateFile is one template the export needs.
type TemplateFile struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Present bool   `json:"present"`
	Size    int64  `json:"size,omitempty"`
	Custom  bool   `json:"custom,omitempty" description:"the preset's custom_template option names it"`
}

// TemplatesOut says the templates are there.
type TemplatesOut struct {
	Preset       string         `json:"preset"`
	Platform     string         `json:"platform"`
	GodotVersion string         `json:"godot_version" description:"the engine's --version"`
	Dir          string         `json:"dir" description:"the directory Godot looks in for this version"`
	Files        []TemplateFile `json:"files"`
}

// godotVersion runs godot --version.
func godotVersion(ctx context.Context, godot string) (string, error) {
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: os.TempDir(), Args: []string{"--version"}, Timeout: versionTimeout})
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(res.Output), "\n")
	v := strings.TrimSpace(lines[len(lines)-1])
	if res.ExitCode == nil || *res.ExitCode != 0 || templateVersion(v) == "" {
		return "", sdk.Internal(fmt.Sprintf("%s --version did not print a version (%s): %s", godot, res.Exit(), strings.TrimSpace(res.Output)))
	}
	return v, nil
}

var numRE = regexp.MustCompile(`^\d+$`)

// templateVersion is the export templates' folder name for a --version
// string: major.minor[.patch].status[.mono], without the build name and
// commit ("4.4.1.stable.official.49a5bc7b6" → "4.4.1.stable").
func templateVersion(v string) string {
	parts := strings.Split(v, ".")
	i := 0
	for i < len(parts) && numRE.MatchString(parts[i]) {
		i++
	}
	if i < 2 || i >= len(parts) {
		return ""
	}
	end := i + 1
	if end < len(parts) && parts[end] == "mono" {
		end++
	}
	return strings.Join(parts[:end], ".")
}

// templatesRoot is where Godot looks for export templates: next to a
// self-contained binary (._sc_ / _sc_), else the editor's data directory.
func templatesRoot(godot string) string {
	bin := filepath.Dir(godot)
	for _, sc := range []string{"._sc_", "_sc_"} {
		if _, err := os.Stat(filepath.Join(bin, sc)); err == nil {
			return filepath.Join(bin, "editor_data", "export_templates")
		}
	}
	home, _ := os.UserHomeDir()
	switch runtime.GOOS {
	case "windows":
		return filepath.Join(os.Getenv("APPDATA"), "Godot", "export_templates")
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "Godot", "export_templates")
	}
	data := os.Getenv("XDG_DATA_HOME")
	if data == "" || !filepath.IsAbs(data) {
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "godot", "export_templates")
}

// templateCheck finds the templates a preset's export needs; missing is
// nil when all are there.
type templateCheck struct {
	out      TemplatesOut
	missing  []string
	mismatch string
}

func (c templateCheck) err() error {
	if len(c.missing) == 0 && c.mismatch == "" {
		return nil
	}
	tv := templateVersion(c.out.GodotVersion)
	hint := ""
	if len(c.missing) > 0 {
		hint = fmt.Sprintf("export templates for %s are not installed for Godot %s: missing %s in %s. ", c.out.Platform, tv, strings.Join(c.missing, ", "), c.out.Dir)
	}
	if c.mismatch != "" {
		hint += c.mismatch + " "
	}
	hint += fmt.Sprintf("Install them from the editor (Editor > Manage Export Templates > Download and Install), or unpack the templates/ folder of %s (a zip) into %s. "+
		"A PCK/ZIP export (mode: pack) needs no templates.", tpzName(tv), c.out.Dir)
	return sdk.PreconditionFailed(RequireExportTemplates, hint)
}

// checkTemplates checks preset i's templates for the modes (debug true/false).
func checkTemplates(ctx context.Context, doc *presetDoc, i int, godot string, modes []bool) (templateCheck, error) {
	version, err := godotVersion(ctx, godot)
	if err != nil {
		return templateCheck{}, err
	}
	p := doc.preset(i, false)
	info, ok := findPlatform(p.Platform)
	if !ok {
		return templateCheck{}, sdk.Validation(fmt.Sprintf("preset %q is for platform %q, whose templates this toolset does not know; the platforms: %s", p.Name, p.Platform, quoteList(platformNames())))
	}
	dir := filepath.Join(templatesRoot(godot), templateVersion(version))
	c := templateCheck{out: TemplatesOut{Preset: p.Name, Platform: p.Platform, GodotVersion: version, Dir: dir, Files: []TemplateFile{}}}
	opts := doc.options(i)
	for _, debug := range modes {
		custom := optString(opts, "custom_template/"+debugOr(debug, "debug", "release"), "")
		names := info.templates(opts, debug)
		if custom != "" {
			names = []string{custom}
		}
		for _, name := range names {
			f := TemplateFile{Name: name, Path: filepath.Join(dir, name), Custom: custom != ""}
			if f.Custom {
				f.Name, f.Path = filepath.Base(custom), custom
			}
			if st, err := os.Stat(f.Path); err == nil && !st.IsDir() {
				f.Present, f.Size = true, st.Size()
			} else {
				c.missing = append(c.missing, f.Path)
			}
			c.out.Files = append(c.out.Files, f)
		}
	}
	if len(c.missing) < len(c.out.Files) {
		if b, err := os.ReadFile(filepath.Join(dir, "version.txt")); err == nil {
			if got := strings.TrimSpace(string(b)); got != templateVersion(version) {
				c.mismatch = fmt.Sprintf("%s says the templates there are %s, not %s.", filepath.Join(dir, "version.txt"), got, templateVersion(version))
			}
		}
	}
	for k, m := range c.missing {
		if strings.HasPrefix(m, dir+string(filepath.Separator)) {
			c.missing[k] = strings.TrimPrefix(m, dir+string(filepath.Separator))
		}
	}
	return c, nil
}

// tpzName is the official templates download for a version:
// 4.4.1.stable → Godot_v4.4.1-stable_export_templates.tpz.
func tpzName(tv string) string {
	mono := strings.HasSuffix(tv, ".mono")
	tv = strings.TrimSuffix(tv, ".mono")
	if k := strings.LastIndex(tv, "."); k > 0 {
		tv = tv[:k] + "-" + tv[k+1:]
	}
	if mono {
		tv += "_mono"
	}
	return "Godot_v" + tv + "_export_templates.tpz"
}

func modeList(mode string) ([]bool, error) {
	switch mode {
	case "", "both":
		return []bool{true, false}, nil
	case "debug":
		return []bool{true}, nil
	case "release":
		return []bool{false}, nil
	}
	return nil, sdk.Validation(fmt.Sprintf("mode %q: want both, release or debug", mode))
}

func checkTemplatesTool(ctx context.Context, call *sdk.Call, in TemplatesIn) (TemplatesOut, error) {
	modes, err := modeList(in.Mode)
	if err != nil {
		return TemplatesOut{}, err
	}
	dir, err := projectDir(ctx, call)
	if err != nil {
		return TemplatesOut{}, err
	}
	doc, err := loadPresets(dir)
	if err != nil {
		return TemplatesOut{}, err
	}
	i, err := doc.find(in.Preset)
	if err != nil {
		return TemplatesOut{}, err
	}
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return TemplatesOut{}, err
	}
	c, err := checkTemplates(ctx, doc, i, godot, modes)
	if err != nil {
		return TemplatesOut{}, err
	}
	if err := c.err(); err != nil {
		return TemplatesOut{}, err
	}
	return c.out, nil
}

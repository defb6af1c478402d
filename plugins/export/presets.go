package export

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/nolinks"
	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const presetsFile = "export_presets.cfg"

// Preset is one export preset.
type Preset struct {
	Name            string   `json:"name"`
	Platform        string   `json:"platform"`
	Runnable        bool     `json:"runnable" description:"the preset the editor's one-click deploy runs for its platform"`
	ExportPath      string   `json:"export_path" description:"as written in the file (relative: to the project)"`
	ExportFilter    string   `json:"export_filter" description:"all_resources, scenes, resources, exclude or customized"`
	ExportFiles     []string `json:"export_files,omitempty" description:"the files export_filter scenes/resources/exclude names"`
	IncludeFilter   string   `json:"include_filter" description:"non-resource files to include, comma-separated globs"`
	ExcludeFilter   string   `json:"exclude_filter" description:"files to leave out, comma-separated globs"`
	Features        []string `json:"features" description:"custom feature tags"`
	DedicatedServer bool     `json:"dedicated_server"`
	Options         []Option `json:"options,omitempty" description:"get_preset only: [preset.N.options] in file order"`
	OptionCount     int      `json:"option_count"`
}

// Option is one platform option of a preset.
type Option struct {
	Name  string `json:"name"`
	Value any    `json:"value" description:"bool, number, string or string array; other Variant types as Godot's text"`
	Type  string `json:"type" jsonschema:"enum=bool|int|float|string|strings|other"`
}

// presetDoc is export_presets.cfg read from the project.
type presetDoc struct {
	dir    string // the project directory
	file   *cfgFile
	exists bool
}

// projectDir is the project the tools work on: GODOT_MCP_PROJECT_DIR, else
// the connected editor's.
func projectDir(ctx context.Context, call *sdk.Call) (string, error) {
	return godotproc.KnownProjectDir(ctx, call)
}

func loadPresets(dir string) (*presetDoc, error) {
	d, err := nolinks.Open(dir)
	if err != nil {
		return nil, sdk.Internal(err.Error())
	}
	defer d.Close()
	b, err := d.ReadFile(presetsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &presetDoc{dir: dir, file: &cfgFile{}}, nil
	}
	if nolinks.IsLink(err) {
		return nil, sdk.PreconditionFailed("", fmt.Sprintf("%s; godot-mcp does not follow links out of the project: replace it with the file itself", err))
	}
	if err != nil {
		return nil, sdk.Internal(err.Error())
	}
	f, err := parseCfg(string(b))
	if err != nil {
		return nil, sdk.Validation(fmt.Sprintf("res://%s does not parse: %v; fix it in a text editor or let the editor rewrite it (Project > Export)", presetsFile, err))
	}
	return &presetDoc{dir: dir, file: f, exists: true}, nil
}

func (p *presetDoc) save() error {
	d, err := nolinks.Open(p.dir)
	if err != nil {
		return sdk.Internal(err.Error())
	}
	defer d.Close()
	if err := d.WriteFile(presetsFile, []byte(p.file.String()), 0o644); err != nil {
		if nolinks.IsLink(err) {
			return sdk.PreconditionFailed("", fmt.Sprintf("%s; godot-mcp does not write through links", err))
		}
		return sdk.Internal(fmt.Sprintf("writing res://%s failed: %v", presetsFile, err))
	}
	return nil
}

// indices are the preset numbers in the file, in order (Godot reads
// preset.0, preset.1, … and stops at the first gap).
func (p *presetDoc) indices() []int {
	var out []int
	for i := 0; p.file.section("preset."+strconv.Itoa(i)) != nil; i++ {
		out = append(out, i)
	}
	return out
}

func (p *presetDoc) names() []string {
	var out []string
	for _, i := range p.indices() {
		out = append(out, p.preset(i, false).Name)
	}
	return out
}

// find returns the index of the preset named name.
func (p *presetDoc) find(name string) (int, error) {
	names := p.names()
	for i, n := range names {
		if n == name {
			return i, nil
		}
	}
	if len(names) == 0 {
		return 0, sdk.NotFound(fmt.Sprintf("the project has no export presets (res://%s %s); create one with godot_export_set_preset {\"name\": %q, \"create\": true, \"platform\": \"Linux\"}",
			presetsFile, map[bool]string{true: "has none", false: "does not exist"}[p.exists], name))
	}
	return 0, sdk.NotFound(fmt.Sprintf("no export preset %q%s; the presets: %s", name, didYouMean(name, names), quoteList(names)))
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

func str(s *cfgSection, key string) string {
	raw, _ := s.get(key)
	v, _ := unquote(raw)
	return v
}

func boolean(s *cfgSection, key string) bool {
	raw, _ := s.get(key)
	return raw == "true"
}

// preset reads preset.i (with its options when full).
func (p *presetDoc) preset(i int, full bool) Preset {
	s := p.file.section("preset." + strconv.Itoa(i))
	out := Preset{
		Name: str(s, "name"), Platform: str(s, "platform"),
		ExportPath: str(s, "export_path"), ExportFilter: str(s, "export_filter"),
		IncludeFilter: str(s, "include_filter"), ExcludeFilter: str(s, "exclude_filter"),
		Features: splitFeatures(str(s, "custom_features")), DedicatedServer: boolean(s, "dedicated_server"),
	}
	out.Runnable = boolean(s, "runnable")
	if r := p.file.section(runnableSection); r != nil {
		if raw, ok := r.get(out.Platform); ok {
			name, _ := unquote(raw)
			out.Runnable = name == out.Name
		}
	}
	if raw, ok := s.get("export_files"); ok {
		out.ExportFiles, _ = decodeStrings(raw)
	}
	if o := p.file.section("preset." + strconv.Itoa(i) + ".options"); o != nil {
		for _, e := range o.entries {
			if e.comment {
				continue
			}
			out.OptionCount++
			if full {
				v, _ := decodeValue(e.value)
				out.Options = append(out.Options, Option{Name: e.key, Value: v, Type: valueType(e.value)})
			}
		}
	}
	if full && out.Options == nil {
		out.Options = []Option{}
	}
	return out
}

// options is preset.i's options as raw Variant text.
func (p *presetDoc) options(i int) map[string]string {
	out := map[string]string{}
	if o := p.file.section("preset." + strconv.Itoa(i) + ".options"); o != nil {
		for _, e := range o.entries {
			if !e.comment {
				out[e.key] = e.value
			}
		}
	}
	return out
}

func splitFeatures(s string) []string {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// knownOptions are the options a preset of platform may set: the ones
// this toolset knows for it, and the ones presets of that platform in the
// file have (what the editor wrote for this Godot version), with types.
func (p *presetDoc) knownOptions(platform string) map[string]string {
	out := map[string]string{}
	if info, ok := findPlatform(platform); ok {
		for k, v := range info.Options {
			out[k] = v
		}
	}
	for _, i := range p.indices() {
		s := p.file.section("preset." + strconv.Itoa(i))
		if str(s, "platform") != platform {
			continue
		}
		for k, raw := range p.options(i) {
			if t := valueType(raw); t != "other" || out[k] == "" {
				out[k] = t
			}
		}
	}
	return out
}

// ListIn takes no arguments.
type ListIn struct{}

// ListOut lists the presets.
type ListOut struct {
	File      string   `json:"file" description:"res://export_presets.cfg"`
	Exists    bool     `json:"exists"`
	Presets   []Preset `json:"presets" description:"in file order, without options (godot_export_get_preset has them)"`
	Platforms []string `json:"platforms" description:"platform names set_preset accepts"`
}

func listPresets(ctx context.Context, call *sdk.Call, _ ListIn) (ListOut, error) {
	dir, err := projectDir(ctx, call)
	if err != nil {
		return ListOut{}, err
	}
	doc, err := loadPresets(dir)
	if err != nil {
		return ListOut{}, err
	}
	out := ListOut{File: "res://" + presetsFile, Exists: doc.exists, Presets: []Preset{}, Platforms: platformNames()}
	for _, i := range doc.indices() {
		out.Presets = append(out.Presets, doc.preset(i, false))
	}
	return out, nil
}

// GetIn names a preset.
type GetIn struct {
	Name string `json:"name" description:"the preset's name"`
}

// GetOut is one preset with its options.
type GetOut struct {
	Preset
	Index int `json:"index" description:"N of [preset.N]"`
}

func getPreset(ctx context.Context, call *sdk.Call, in GetIn) (GetOut, error) {
	dir, err := projectDir(ctx, call)
	if err != nil {
		return GetOut{}, err
	}
	doc, err := loadPresets(dir)
	if err != nil {
		return GetOut{}, err
	}
	i, err := doc.find(in.Name)
	if err != nil {
		return GetOut{}, err
	}
	return GetOut{Preset: doc.preset(i, true), Index: i}, nil
}

// SetIn creates or edits a preset; absent fields stay as they are.
type SetIn struct {
	Name          string         `json:"name" description:"the preset's name"`
	Create        bool           `json:"create,omitempty" description:"create a new preset (platform required); without it the preset must exist"`
	Platform      string         `json:"platform,omitempty" description:"create only: Linux, Windows Desktop, macOS, Web, Android or iOS"`
	Runnable      *bool          `json:"runnable,omitempty"`
	ExportPath    *string        `json:"export_path,omitempty" description:"where export writes, relative to the project or absolute; e.g. build/game.x86_64"`
	ExportFilter  string         `json:"export_filter,omitempty" jsonschema:"enum=all_resources|scenes|resources|exclude"`
	ExportFiles   []string       `json:"export_files,omitempty" description:"res:// files for export_filter scenes, resources or exclude"`
	IncludeFilter *string        `json:"include_filter,omitempty" description:"non-resource files to include, comma-separated globs (*.json, data/*)"`
	ExcludeFilter *string        `json:"exclude_filter,omitempty" description:"files to leave out, comma-separated globs"`
	Features      []string       `json:"features,omitempty" description:"custom feature tags (replaces the list)"`
	Options       map[string]any `json:"options,omitempty" description:"platform options by name, e.g. {\"binary_format/architecture\": \"arm64\"}; null removes one"`
	AllowUnknown  bool           `json:"allow_unknown_options,omitempty" description:"set option names this toolset does not know for the platform (its lists are partial outside Linux and Web)"`
}

// SetOut is the preset as written.
type SetOut struct {
	GetOut
	Created bool     `json:"created"`
	Changed []string `json:"changed" description:"keys that changed (options as options/<name>)"`
	Written bool     `json:"written" description:"false on dry_run or when nothing changed"`
	Note    string   `json:"note,omitempty"`
}

var presetKeys = []string{"name", "platform", "runnable", "advanced_options", "dedicated_server", "custom_features", "export_filter",
	"include_filter", "exclude_filter", "export_path", "patches", "encryption_include_filters", "encryption_exclude_filters",
	"seed", "encrypt_pck", "encrypt_directory", "script_export_mode"}

// runnableSection is where Godot 4.7+ keeps the runnable preset of each
// platform (platform = "preset name"), instead of a runnable key per preset.
const runnableSection = "runnable_presets"

// newStyle reports whether the file is as a Godot with runnable_presets
// wrote it: the section is there, or presets lack the runnable key.
func (p *presetDoc) newStyle() bool {
	if p.file.section(runnableSection) != nil {
		return true
	}
	idx := p.indices()
	for _, i := range idx {
		if _, ok := p.file.section("preset." + strconv.Itoa(i)).get("runnable"); ok {
			return false
		}
	}
	return len(idx) > 0
}

// setRunnable makes preset i the runnable one of its platform (or not):
// in [runnable_presets] for a new-style file, else in the presets'
// runnable keys (one per platform, as the editor keeps it). It reports
// whether anything changed.
func (p *presetDoc) setRunnable(i int, on bool) bool {
	me := p.preset(i, false)
	changed := false
	if p.newStyle() {
		r := p.file.section(runnableSection)
		if r == nil && on {
			r = &cfgSection{name: runnableSection, hasHeader: true}
			p.file.sections = append([]*cfgSection{r}, p.file.sections...)
		}
		if r != nil {
			cur, has := r.get(me.Platform)
			curName, _ := unquote(cur)
			switch {
			case on && (!has || curName != me.Name):
				r.set(me.Platform, quote(me.Name))
				changed = true
			case !on && has && curName == me.Name:
				r.entries = deleteKey(r.entries, me.Platform)
				changed = true
			}
		}
	}
	// The runnable keys: every preset that has one (an old-style file, or
	// a new-style one that still carries them, which Godot also reads).
	for _, j := range p.indices() {
		s := p.file.section("preset." + strconv.Itoa(j))
		old, has := s.get("runnable")
		if !has || str(s, "platform") != me.Platform {
			continue
		}
		want := "false"
		if j == i && on {
			want = "true"
		}
		if j != i && !on {
			continue
		}
		if old != want {
			s.set("runnable", want)
			changed = true
		}
	}
	return changed
}

// newPreset writes the keys in the order and with the defaults the editor
// of Godot 4.4+ writes for a new preset.
func newPreset(f *cfgFile, i int, name, platform string, newStyle bool) {
	s := f.addSection("preset." + strconv.Itoa(i))
	def := map[string]string{
		"name": quote(name), "platform": quote(platform), "runnable": "false", "advanced_options": "false", "dedicated_server": "false",
		"custom_features": `""`, "export_filter": `"all_resources"`, "include_filter": `""`, "exclude_filter": `""`, "export_path": `""`,
		"patches": "PackedStringArray()", "encryption_include_filters": `""`, "encryption_exclude_filters": `""`, "seed": "0",
		"encrypt_pck": "false", "encrypt_directory": "false", "script_export_mode": "2",
	}
	for _, k := range presetKeys {
		if newStyle && (k == "runnable" || k == "advanced_options") {
			continue // Godot 4.7+ keeps neither per preset
		}
		s.set(k, def[k])
	}
	o := f.addSection("preset." + strconv.Itoa(i) + ".options")
	// Every platform has these two; the editor fills in the other options'
	// defaults when it reads the preset.
	o.set("custom_template/debug", `""`)
	o.set("custom_template/release", `""`)
}

func setPreset(ctx context.Context, call *sdk.Call, in SetIn) (SetOut, error) {
	if strings.TrimSpace(in.Name) == "" {
		return SetOut{}, sdk.Validation("name is required: the preset's name")
	}
	dir, err := projectDir(ctx, call)
	if err != nil {
		return SetOut{}, err
	}
	doc, err := loadPresets(dir)
	if err != nil {
		return SetOut{}, err
	}
	out := SetOut{Changed: []string{}}
	var i int
	if in.Create {
		if _, err := doc.find(in.Name); err == nil {
			return SetOut{}, sdk.Validation(fmt.Sprintf("a preset named %q exists; leave create out to edit it", in.Name))
		}
		if _, ok := findPlatform(in.Platform); !ok {
			return SetOut{}, sdk.Validation(fmt.Sprintf("platform %q is not an export platform%s; the platforms: %s", in.Platform, didYouMean(in.Platform, platformNames()), quoteList(platformNames())))
		}
		i = len(doc.indices())
		newPreset(doc.file, i, in.Name, in.Platform, doc.newStyle())
		out.Created = true
		out.Changed = append(out.Changed, "name", "platform")
	} else {
		if i, err = doc.find(in.Name); err != nil {
			return SetOut{}, err
		}
		if in.Platform != "" && in.Platform != doc.preset(i, false).Platform {
			return SetOut{}, sdk.Validation(fmt.Sprintf("preset %q is for %s; a preset's platform cannot change: create a new preset for %s", in.Name, doc.preset(i, false).Platform, in.Platform))
		}
	}
	s := doc.file.section("preset." + strconv.Itoa(i))
	set := func(key, val string) {
		if old, ok := s.get(key); !ok || old != val {
			s.set(key, val)
			out.Changed = append(out.Changed, key)
		}
	}
	if in.Runnable != nil && doc.setRunnable(i, *in.Runnable) {
		out.Changed = append(out.Changed, "runnable")
	}
	if in.ExportPath != nil {
		if strings.HasPrefix(*in.ExportPath, "res://") {
			*in.ExportPath = strings.TrimPrefix(*in.ExportPath, "res://")
		}
		set("export_path", quote(*in.ExportPath))
	}
	if in.ExportFilter != "" {
		switch in.ExportFilter {
		case "all_resources", "scenes", "resources", "exclude":
		default:
			return SetOut{}, sdk.Validation(fmt.Sprintf("export_filter %q: want all_resources, scenes, resources or exclude", in.ExportFilter))
		}
		set("export_filter", quote(in.ExportFilter))
	}
	if in.ExportFiles != nil {
		filter := str(s, "export_filter")
		if filter == "all_resources" || filter == "" {
			return SetOut{}, sdk.Validation("export_files goes with export_filter scenes, resources or exclude; the preset exports all resources")
		}
		for _, f := range in.ExportFiles {
			if !strings.HasPrefix(f, "res://") {
				return SetOut{}, sdk.Validation(fmt.Sprintf("export_files: %q is not a res:// path", f))
			}
		}
		set("export_files", encodeStrings(in.ExportFiles))
	}
	if in.IncludeFilter != nil {
		set("include_filter", quote(*in.IncludeFilter))
	}
	if in.ExcludeFilter != nil {
		set("exclude_filter", quote(*in.ExcludeFilter))
	}
	if in.Features != nil {
		for _, f := range in.Features {
			if strings.ContainsAny(f, ", ") || f == "" {
				return SetOut{}, sdk.Validation(fmt.Sprintf("feature %q: a feature tag is one word without commas or spaces", f))
			}
		}
		set("custom_features", quote(strings.Join(in.Features, ",")))
	}
	if len(in.Options) > 0 {
		platform := str(s, "platform")
		known := doc.knownOptions(platform)
		info, _ := findPlatform(platform)
		osec := doc.file.section("preset." + strconv.Itoa(i) + ".options")
		if osec == nil {
			osec = doc.file.addSection("preset." + strconv.Itoa(i) + ".options")
		}
		names := make([]string, 0, len(in.Options))
		for k := range in.Options {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			v := in.Options[k]
			if secretOptions[k] {
				return SetOut{}, sdk.Validation(fmt.Sprintf("%s is a secret: the editor keeps it in res://.godot/export_credentials.cfg, not in export_presets.cfg (which projects commit); "+
					"set it in the editor's Project > Export dialog, or through the GODOT_* environment variables Godot reads for signing", k))
			}
			typ, ok := known[k]
			if !ok && !in.AllowUnknown {
				hint := fmt.Sprintf("%s has no export option %q%s; its options: %s", platform, k, didYouMean(k, sortedKeys(known)), strings.Join(sortedKeys(known), ", "))
				if info == nil || !info.complete {
					hint += ". This list is partial for " + platform + ": pass allow_unknown_options: true for an option your Godot version has (Project > Export shows them)"
				}
				return SetOut{}, sdk.Validation(hint)
			}
			if v == nil {
				before := len(osec.entries)
				osec.entries = deleteKey(osec.entries, k)
				if len(osec.entries) != before {
					out.Changed = append(out.Changed, "options/"+k)
				}
				continue
			}
			if cur, ok := osec.get(k); ok && typ == "other" {
				typ = valueType(cur)
			}
			raw, err := encodeAs(v, typ)
			if err != nil {
				return SetOut{}, sdk.Validation(fmt.Sprintf("option %s: %v", k, err))
			}
			if old, ok := osec.get(k); !ok || old != raw {
				osec.set(k, raw)
				out.Changed = append(out.Changed, "options/"+k)
			}
		}
	}
	out.GetOut = GetOut{Preset: doc.preset(i, true), Index: i}
	if len(out.Changed) == 0 || call.DryRun {
		return out, nil
	}
	if err := doc.save(); err != nil {
		return SetOut{}, err
	}
	out.Written = true
	out.Note = "An open editor read the presets when it started: restart it (or reopen the project) to see this change, and do not save presets from its Export dialog before, or it writes its own copy back."
	return out, nil
}

func deleteKey(es []cfgEntry, key string) []cfgEntry {
	out := es[:0]
	for _, e := range es {
		if e.comment || e.key != key {
			out = append(out, e)
		}
	}
	return out
}

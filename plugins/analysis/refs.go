package analysis

import (
	"path"
	"sort"
	"strings"
)

// candidateKinds are the kinds of files judged for use: what Godot loads as
// a resource. Other files (README.md, .cs, build files) are not judged.
var candidateKinds = map[string]bool{"scene": true, "resource": true, "shader": true, "texture": true, "audio": true, "model": true, "font": true, "data": true, "video": true}

func (f *file) candidate() bool {
	if f.kind == "script" {
		return f.ext == "gd"
	}
	return candidateKinds[f.kind]
}

// targets are the files one file refers to (itself excluded): its resolved
// references, folders it names (every file under them), path prefixes a
// script builds paths from ("res://levels/level_" + n, "res://x_%d.tscn"),
// and the scripts whose class_name it uses.
func (p *project) targets(f *file) []string {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if t != f.res && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, r := range f.refs {
		t := p.resolve(f.res, r)
		if t == "" {
			continue
		}
		if _, ok := p.files[t]; ok {
			add(t)
			continue
		}
		if t == "res://" {
			continue
		}
		if p.dirs[t] {
			if isAddonRoot(t) && strings.HasPrefix(f.res, t+"/") {
				continue // an addon naming its own folder (install checks, base paths) loads nothing by it
			}
			for _, u := range p.under(t + "/") {
				add(u)
			}
			continue
		}
		if f.ext == "gd" || f.doc != nil && f.doc.subScripts != nil {
			prefix := r.text
			if i := strings.IndexAny(prefix, "%{*"); i >= 0 {
				prefix = prefix[:i]
			} else if strings.Contains(path.Base(prefix), ".") {
				continue // a file name that is not there
			}
			if strings.HasPrefix(prefix, "res://") && len(prefix) > len("res://")+1 {
				for _, u := range p.under(prefix) {
					add(u)
				}
			}
		}
	}
	for _, gd := range f.scripts() {
		for _, id := range gd.idents {
			if c, ok := p.classes[id]; ok {
				add(c)
			}
		}
	}
	return out
}

// isAddonRoot says whether a folder is res://addons or one addon's folder.
func isAddonRoot(dir string) bool {
	rest, ok := strings.CutPrefix(dir, "res://addons")
	return ok && (rest == "" || strings.Count(rest, "/") == 1 && strings.HasPrefix(rest, "/"))
}

// scripts are a file's GDScript: itself, or a scene's built-in scripts.
func (f *file) scripts() []*gdScript {
	if f.gd != nil {
		return []*gdScript{f.gd}
	}
	if f.doc == nil || len(f.doc.subScripts) == 0 {
		return nil
	}
	ids := make([]string, 0, len(f.doc.subScripts))
	for id := range f.doc.subScripts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]*gdScript, 0, len(ids))
	for _, id := range ids {
		out = append(out, f.doc.subScripts[id])
	}
	return out
}

// matchn is Godot's String.matchn: a case-insensitive glob where * matches
// any run of characters (slashes too) and ? one character.
func matchn(s, pattern string) bool {
	return globMatch(strings.ToLower(s), strings.ToLower(pattern))
}

func globMatch(s, p string) bool {
	// Iterative wildcard match with backtracking to the last star.
	si, pi, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == s[si]):
			si++
			pi++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// exportIncluded are the files export_presets.cfg's include filters take
// into an export (matched as Godot does: against the res:// path and the
// path without res://).
func (p *project) exportIncluded() map[string]bool {
	out := map[string]bool{}
	ep := p.files["res://export_presets.cfg"]
	if ep == nil || len(ep.exportIncludes) == 0 {
		return out
	}
	for _, res := range p.paths {
		rel := strings.TrimPrefix(res, "res://")
		for _, pat := range ep.exportIncludes {
			if matchn(res, pat) || matchn(rel, pat) {
				out[res] = true
				break
			}
		}
	}
	return out
}

// roots are what the project itself loads: project settings (main scene,
// autoloads, icon, every other path there), export presets, GDExtensions,
// the default audio bus layout, export include filters; and with addons
// not judged, every addon file.
func (p *project) roots(includeAddons bool, included map[string]bool) []string {
	var out []string
	for _, res := range p.paths {
		f := p.files[res]
		switch {
		case res == "res://project.godot", res == "res://export_presets.cfg", res == "res://override.cfg", res == "res://default_bus_layout.tres",
			f.ext == "gdextension", included[res], f.addon && !includeAddons:
			out = append(out, res)
		}
	}
	return out
}

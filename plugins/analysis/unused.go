package analysis

import "strings"

// Reasons a file is listed by unused_files.
const (
	reasonUnreferenced   = "unreferenced"
	reasonUnreachable    = "unreachable"
	reasonOrphanedImport = "orphaned_import"
	reasonOrphanedUID    = "orphaned_uid"
)

// unusedFiles lists the files nothing uses, sorted by path.
func (p *project) unusedFiles(includeAddons, transitive bool, filter string) []UnusedFile {
	included := p.exportIncluded()
	roots := p.roots(includeAddons, included)
	for _, res := range p.paths {
		if p.files[res].ext == "gd" && p.entryPoint(res) {
			roots = append(roots, res)
		}
	}
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	referenced := map[string]bool{}
	edges := map[string][]string{}
	for _, res := range p.paths {
		f := p.files[res]
		ts := p.targets(f)
		for _, t := range ts {
			referenced[t] = true
		}
		if transitive {
			from := res
			if f.ext == "import" { // what an import brings in belongs to the imported file
				from = strings.TrimSuffix(res, ".import")
			}
			edges[from] = append(edges[from], ts...)
		}
	}
	var reached map[string]bool
	if transitive {
		reached = map[string]bool{}
		queue := append([]string(nil), roots...)
		for _, r := range roots {
			reached[r] = true
		}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, t := range edges[n] {
				if !reached[t] {
					reached[t] = true
					queue = append(queue, t)
				}
			}
		}
	}
	var out []UnusedFile
	for _, res := range p.paths {
		f := p.files[res]
		if !inScope(res, includeAddons, filter) {
			continue
		}
		switch {
		case f.ext == "import" && p.files[strings.TrimSuffix(res, ".import")] == nil:
			out = append(out, UnusedFile{Path: res, Bytes: f.size, Kind: "import", Reason: reasonOrphanedImport})
		case f.ext == "uid" && p.files[strings.TrimSuffix(res, ".uid")] == nil:
			out = append(out, UnusedFile{Path: res, Bytes: f.size, Kind: "uid", Reason: reasonOrphanedUID})
		case !f.candidate() || isRoot[res]:
		case !referenced[res]:
			out = append(out, UnusedFile{Path: res, Bytes: f.size, Kind: f.kind, Reason: reasonUnreferenced})
		case transitive && !reached[res]:
			out = append(out, UnusedFile{Path: res, Bytes: f.size, Kind: f.kind, Reason: reasonUnreachable})
		}
	}
	return out
}

// entryBases are classes whose scripts are run without being referenced:
// test suites (run by GUT or gdUnit4 from their folders), editor scripts
// (File > Run in the script editor) and main loops (godot -s script.gd).
var entryBases = map[string]bool{
	"GutTest": true, "GdUnitTestSuite": true, "EditorScript": true, "SceneTree": true, "MainLoop": true,
	"res://addons/gut/test.gd": true, "res://addons/gdUnit4/src/GdUnitTestSuite.gd": true,
}

// entryPoint says whether a script extends (through project scripts, by
// path or class_name) one of entryBases.
func (p *project) entryPoint(res string) bool {
	cur := res
	for depth := 0; depth < 32; depth++ {
		f := p.files[cur]
		if f == nil || f.gd == nil || f.gd.extends == "" {
			return false
		}
		next := f.gd.extends
		if f.gd.extendsPath {
			next = p.resolve(cur, rawRef{text: next, kind: refExtends})
		} else if c, ok := p.classes[next]; ok {
			next = c
		}
		if entryBases[next] {
			return true
		}
		cur = next
	}
	return false
}

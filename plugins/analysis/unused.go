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

package analysis

import (
	"sort"
)

// stats counts the project's files.
func (p *project) stats(includeAddons bool, top int) StatsOut {
	out := StatsOut{ByKind: []KindCount{}, ByType: []TypeCount{}, LargestScenes: []SizedFile{}, LargestResources: []SizedFile{}}
	kinds := map[string]*KindCount{}
	types := map[string]int{}
	var scenes, resources []SizedFile
	for _, res := range p.paths {
		f := p.files[res]
		if !inScope(res, includeAddons, "") || f.ext == "import" || f.ext == "uid" {
			continue
		}
		out.Files++
		out.Bytes += f.size
		k := kinds[f.kind]
		if k == nil {
			k = &KindCount{Kind: f.kind}
			kinds[f.kind] = k
		}
		k.Files++
		k.Bytes += f.size
		typ := f.resType
		if typ == "" {
			if imp := p.files[res+".import"]; imp != nil {
				typ = imp.resType
			}
		}
		if typ == "" && f.ext == "gd" {
			typ = "GDScript"
		}
		if typ != "" {
			types[typ]++
		}
		if f.doc != nil && f.doc.scene {
			out.Scenes.Count++
			out.Scenes.Nodes += len(f.doc.nodes)
			out.Scenes.Connections += len(f.doc.conns)
			scenes = append(scenes, SizedFile{Path: res, Bytes: f.size, Type: "PackedScene", Nodes: len(f.doc.nodes)})
		} else if f.kind == "scene" {
			out.Scenes.Count++
			scenes = append(scenes, SizedFile{Path: res, Bytes: f.size, Type: "PackedScene"})
		}
		if f.kind == "script" {
			out.Scripts.Count++
			if f.gd != nil && f.gd.className != "" {
				out.Scripts.WithClassName++
			}
		}
		if f.kind != "scene" && f.kind != "script" && f.kind != "other" {
			resources = append(resources, SizedFile{Path: res, Bytes: f.size, Type: typ})
		}
	}
	for _, k := range kinds {
		out.ByKind = append(out.ByKind, *k)
	}
	sort.Slice(out.ByKind, func(i, j int) bool {
		if out.ByKind[i].Files != out.ByKind[j].Files {
			return out.ByKind[i].Files > out.ByKind[j].Files
		}
		return out.ByKind[i].Kind < out.ByKind[j].Kind
	})
	for t, n := range types {
		out.ByType = append(out.ByType, TypeCount{Type: t, Files: n})
	}
	sort.Slice(out.ByType, func(i, j int) bool {
		if out.ByType[i].Files != out.ByType[j].Files {
			return out.ByType[i].Files > out.ByType[j].Files
		}
		return out.ByType[i].Type < out.ByType[j].Type
	})
	bySize := func(s []SizedFile) []SizedFile {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Bytes > s[j].Bytes })
		return s[:min(len(s), top)]
	}
	out.LargestScenes = append(out.LargestScenes, bySize(scenes)...)
	out.LargestResources = append(out.LargestResources, bySize(resources)...)
	return out
}

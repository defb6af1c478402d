package analysis

import (
	"sort"
	"strings"
)

type depEdge struct {
	to, kind string
	line     int
}

// depGraph is the load-time dependency graph: preload, load (a literal
// path), extends (a path or a class_name), a text resource's external
// resources (instanced scenes, scripts, others) and shader includes.
func (p *project) depGraph() map[string][]depEdge {
	g := map[string][]depEdge{}
	for _, res := range p.paths {
		f := p.files[res]
		seen := map[string]bool{}
		add := func(to, kind string, line int) {
			if _, ok := p.files[to]; !ok || seen[to] {
				return
			}
			seen[to] = true
			g[res] = append(g[res], depEdge{to: to, kind: kind, line: line})
		}
		if f.doc != nil {
			instanced := map[string]bool{}
			for _, n := range f.doc.nodes {
				if n.instance != "" {
					instanced[n.instance] = true
				}
			}
			for _, e := range f.doc.extOrder {
				if t, ok := p.extTarget(res, e); ok {
					kind := refExtResource
					if e.typ == "Script" {
						kind = refScript
					} else if instanced[e.id] {
						kind = refInstance
					}
					add(t, kind, e.line)
				}
			}
		}
		for _, r := range f.refs {
			if cycleKinds[r.kind] && r.kind != refExtResource && r.kind != refScript && r.kind != refInstance {
				add(p.resolve(res, r), r.kind, r.line)
			}
		}
		for _, gd := range f.scripts() {
			if gd.extends != "" && !gd.extendsPath {
				if c, ok := p.classes[gd.extends]; ok {
					add(c, refExtends, gd.extendsLine)
				}
			}
		}
	}
	return g
}

// cycles finds the strongly connected components of the dependency graph
// (Tarjan) and, for each with a cycle, the shortest cycle through its first
// file.
func (p *project) cycles(includeAddons bool, filter string) []Cycle {
	g := p.depGraph()
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var comps [][]string
	next := 0
	type frame struct {
		v string
		i int
	}
	for _, root := range p.paths {
		if _, done := index[root]; done || len(g[root]) == 0 {
			continue
		}
		call := []frame{{v: root}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			fr := &call[len(call)-1]
			if fr.i < len(g[fr.v]) {
				w := g[fr.v][fr.i].to
				fr.i++
				if _, seen := index[w]; !seen {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				} else if onStack[w] && index[w] < low[fr.v] {
					low[fr.v] = index[w]
				}
				continue
			}
			v := fr.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				if u := call[len(call)-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				var comp []string
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				comps = append(comps, comp)
			}
		}
	}
	var out []Cycle
	for _, comp := range comps {
		sort.Strings(comp)
		if len(comp) == 1 && !selfLoop(g, comp[0]) {
			continue
		}
		reported := false
		for _, m := range comp {
			if inScope(m, includeAddons, filter) {
				reported = true
				break
			}
		}
		if !reported {
			continue
		}
		c := Cycle{Steps: shortestCycle(g, comp), Files: len(comp)}
		if len(comp) > len(c.Steps) {
			c.Members = comp[:min(len(comp), 50)]
		}
		kinds := map[string]bool{}
		for _, s := range c.Steps {
			kinds[s.Via] = true
		}
		for k := range kinds {
			c.Kinds = append(c.Kinds, k)
		}
		sort.Strings(c.Kinds)
		c.LoadOnly = !kinds[refPreload] && !kinds[refExtends] && !kinds[refExtResource] && !kinds[refInstance] && !kinds[refScript] && !kinds[refInclude]
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Steps[0].File < out[j].Steps[0].File })
	return out
}

func selfLoop(g map[string][]depEdge, v string) bool {
	for _, e := range g[v] {
		if e.to == v {
			return true
		}
	}
	return false
}

// shortestCycle is a shortest cycle through comp[0] inside comp (BFS).
func shortestCycle(g map[string][]depEdge, comp []string) []CycleStep {
	in := map[string]bool{}
	for _, c := range comp {
		in[c] = true
	}
	start := comp[0]
	type via struct {
		from string
		e    depEdge
	}
	prev := map[string]via{}
	queue := []string{start}
	var last *via
	for len(queue) > 0 && last == nil {
		v := queue[0]
		queue = queue[1:]
		for _, e := range g[v] {
			if !in[e.to] {
				continue
			}
			if e.to == start {
				last = &via{from: v, e: e}
				break
			}
			if _, seen := prev[e.to]; !seen {
				prev[e.to] = via{from: v, e: e}
				queue = append(queue, e.to)
			}
		}
	}
	if last == nil {
		return []CycleStep{{File: start}}
	}
	steps := []CycleStep{{File: last.from, Via: last.e.kind, Line: last.e.line}}
	for v := last.from; v != start; {
		pv := prev[v]
		steps = append(steps, CycleStep{File: pv.from, Via: pv.e.kind, Line: pv.e.line})
		v = pv.from
	}
	// reverse: start first
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return steps
}

func cycleText(c Cycle) string {
	var b strings.Builder
	for _, s := range c.Steps {
		b.WriteString(s.File + " -" + s.Via + "-> ")
	}
	b.WriteString(c.Steps[0].File)
	return b.String()
}

package analysis

import (
	"fmt"
	"strings"
)

// scriptRef names a script: a file, or a built-in script (sub) of a scene.
type scriptRef struct {
	file, sub string
}

// rnode is a node of a scene as loaded: its own section, or one of an
// instanced scene's nodes (with the outer scene's overrides).
type rnode struct {
	name, typ string
	script    *scriptRef // nil: no script
	scriptBad bool       // its script reference names no file
	own       bool       // declared by this scene (not only by an instanced one)
}

// sceneIndex is a scene's own node sections by path, and its unique names.
type sceneIndex struct {
	own    map[string]*nodeDecl
	unique map[string]string // unique_name_in_owner name -> path
}

// nodes answers lookups of node paths in scenes, instanced scenes' nodes
// included, without copying them: a path not declared by the scene is
// looked up in the scene instanced at its nearest ancestor.
type nodes struct {
	p     *project
	index map[string]*sceneIndex
}

func (p *project) nodeLookup() *nodes { return &nodes{p: p, index: map[string]*sceneIndex{}} }

func (ns *nodes) of(res string) *sceneIndex {
	if idx, ok := ns.index[res]; ok {
		return idx
	}
	var idx *sceneIndex
	if f := ns.p.files[res]; f != nil && f.doc != nil && f.doc.scene {
		idx = &sceneIndex{own: make(map[string]*nodeDecl, len(f.doc.nodes))}
		for _, n := range f.doc.nodes {
			idx.own[n.path] = n
			if n.unique {
				if idx.unique == nil {
					idx.unique = map[string]string{}
				}
				idx.unique[n.name] = n.path
			}
		}
	}
	ns.index[res] = idx
	return idx
}

// instanced is the scene a node section instances ("" when none).
func (ns *nodes) instanced(res string, n *nodeDecl) string {
	if n == nil || n.instance == "" {
		return ""
	}
	if e := ns.p.files[res].doc.ext[n.instance]; e != nil {
		if t, ok := ns.p.extTarget(res, e); ok {
			return t
		}
	}
	return ""
}

// node is the node at path ("." the root) of scene res, or nil.
func (ns *nodes) node(res, path string) *rnode { return ns.lookup(res, path, 0) }

func (ns *nodes) lookup(res, path string, depth int) *rnode {
	idx := ns.of(res)
	if idx == nil || depth > 64 {
		return nil
	}
	n := idx.own[path]
	var base *rnode
	if t := ns.instanced(res, n); t != "" {
		base = ns.lookup(t, ".", depth+1)
	} else {
		// The nearest ancestor that instances a scene holds the rest (an
		// ancestor's own section may only override an instanced node).
		for a := path; a != "."; {
			if i := strings.LastIndexByte(a, '/'); i < 0 {
				a = "."
			} else {
				a = a[:i]
			}
			if t := ns.instanced(res, idx.own[a]); t != "" {
				rest := path
				if a != "." {
					rest = path[len(a)+1:]
				}
				base = ns.lookup(t, rest, depth+1)
				break
			}
		}
	}
	if n == nil && base == nil {
		return nil
	}
	r := &rnode{}
	if base != nil {
		*r = *base
		r.own = false
	}
	if n != nil {
		r.own = true
		r.name = n.name
		if n.typ != "" {
			r.typ = n.typ
		}
		if n.script != nil {
			r.script, r.scriptBad = ns.p.scriptOf(res, n.script)
		}
	}
	return r
}

// scriptOf resolves a script property of a section of res.
func (p *project) scriptOf(res string, u *scriptUse) (*scriptRef, bool) {
	switch {
	case u.null:
		return nil, false
	case u.sub != "":
		return &scriptRef{file: res, sub: u.sub}, false
	case u.ext != "":
		e := p.files[res].doc.ext[u.ext]
		if e == nil {
			return nil, true
		}
		if t, ok := p.extTarget(res, e); ok {
			return &scriptRef{file: t}, false
		}
		return nil, true
	}
	return nil, false
}

// methodLookup says whether a script or the project scripts it extends
// define a method: found, or not found with the built-in class the chain
// ends in, or unknown (why).
func (p *project) methodLookup(s *scriptRef, method string) (found bool, builtin, unknown string) {
	cur := *s
	for depth := 0; depth < 32; depth++ {
		f := p.files[cur.file]
		if f == nil {
			return false, "", "its script " + cur.file + " is missing"
		}
		var gd *gdScript
		if cur.sub != "" {
			if f.doc != nil {
				gd = f.doc.subScripts[cur.sub]
			}
		} else {
			gd = f.gd
		}
		if gd == nil {
			if f.ext == "cs" {
				return false, "", "its script " + cur.file + " is C#, which is not read"
			}
			return false, "", "its script " + cur.file + " could not be read"
		}
		if _, ok := gd.funcs[method]; ok {
			return true, "", ""
		}
		switch {
		case gd.extends == "":
			return false, "RefCounted", ""
		case gd.extendsPath:
			t := p.resolve(cur.file, rawRef{text: gd.extends, kind: refExtends})
			if p.files[t] == nil {
				return false, "", fmt.Sprintf("%s extends %q, which is missing", cur.file, gd.extends)
			}
			cur = scriptRef{file: t}
		default:
			c, ok := p.classes[gd.extends]
			if !ok {
				return false, gd.extends, ""
			}
			cur = scriptRef{file: c}
		}
	}
	return false, "", "its extends chain is too deep (a cycle?)"
}

// Connection statuses.
const (
	statusOK            = "ok"
	statusMissingNode   = "missing_node"
	statusMissingMethod = "missing_method"
	statusUnverified    = "unverified"
)

// signalGraph lists every [connection] of the scenes in scope, checked.
func (p *project) signalGraph(includeAddons bool, filter string) []Connection {
	ns := p.nodeLookup()
	var out []Connection
	for _, res := range p.paths {
		f := p.files[res]
		if f.doc == nil || !f.doc.scene || len(f.doc.conns) == 0 || !inScope(res, includeAddons, filter) {
			continue
		}
		for _, c := range f.doc.conns {
			out = append(out, p.checkConnection(res, ns, c))
		}
	}
	return out
}

func (p *project) checkConnection(res string, ns *nodes, c *connDecl) Connection {
	out := Connection{Scene: res, Line: c.line, Signal: c.signal, From: c.from, To: c.to, Method: c.method, Status: statusOK}
	from, to := ns.node(res, c.from), ns.node(res, c.to)
	switch {
	case from == nil && to == nil:
		out.Status, out.Note = statusMissingNode, fmt.Sprintf("neither %q nor %q is a node of the scene", c.from, c.to)
		return out
	case from == nil:
		out.Status, out.Note = statusMissingNode, fmt.Sprintf("from %q is not a node of the scene", c.from)
		return out
	case to == nil:
		out.Status, out.Note = statusMissingNode, fmt.Sprintf("to %q is not a node of the scene", c.to)
		return out
	}
	virtual := strings.HasPrefix(c.method, "_")
	if to.script == nil {
		typ := to.typ
		if typ == "" {
			typ = "its built-in class"
		}
		if to.scriptBad {
			out.Status, out.Note = statusUnverified, fmt.Sprintf("the script of %q is missing (see godot_analysis_scene_integrity)", c.to)
		} else if virtual {
			out.Status, out.Note = statusMissingMethod, fmt.Sprintf("%q has no script, and a built-in class has no callable method starting with _", c.to)
		} else {
			out.Status, out.Note = statusUnverified, fmt.Sprintf("%q has no script: %s may be a method of %s, which cannot be checked offline", c.to, c.method, typ)
		}
		return out
	}
	found, builtin, unknown := p.methodLookup(to.script, c.method)
	switch {
	case found:
	case unknown != "":
		out.Status, out.Note = statusUnverified, unknown
	case virtual:
		out.Status, out.Note = statusMissingMethod, fmt.Sprintf("no func %s( in %s or the project scripts it extends (a built-in class has no callable method starting with _)", c.method, scriptName(to.script))
	default:
		out.Status, out.Note = statusUnverified, fmt.Sprintf("not in %s or the project scripts it extends; it may be a method of the built-in %s, which cannot be checked offline", scriptName(to.script), builtin)
	}
	return out
}

func scriptName(s *scriptRef) string {
	if s.sub != "" {
		return s.file + "::" + s.sub
	}
	return s.file
}

package analysis

import (
	"strings"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godottext"
)

// textDoc is a parsed .tscn or .tres.
type textDoc struct {
	scene      bool
	ext        map[string]*extRes // by id
	extOrder   []*extRes
	subs       map[string]string    // sub_resource id -> type
	subScripts map[string]*gdScript // built-in GDScript sub-resources by id
	nodes      []*nodeDecl
	conns      []*connDecl
	resScript  *scriptUse // [resource] script = …
	idUses     []idUse    // ExtResource/SubResource ids used
}

type extRes struct {
	id, typ, path, uid string
	line               int
}

type scriptUse struct {
	ext, sub string // the ExtResource or SubResource id
	null     bool   // script = null (cleared)
	line     int
}

type idUse struct {
	sub  bool
	id   string
	line int
}

type nodePathProp struct {
	prop, path string
	line       int
}

type nodeDecl struct {
	name, parent, typ string
	path              string // from the scene root: "." or "A/B"
	line              int
	instance          string // ExtResource id of an instanced scene
	script            *scriptUse
	unique            bool
	nodePaths         []nodePathProp
}

type connDecl struct {
	signal, from, to, method string
	line                     int
}

// readTextResource parses a .tscn/.tres: its uid and type, external and
// sub-resources, nodes, connections and every path it mentions.
func (p *project) readTextResource(f *file, data []byte) {
	doc := godottext.Parse(data)
	f.errs = doc.Errors
	d := &textDoc{ext: map[string]*extRes{}, subs: map[string]string{}}
	f.doc = d
	var cur *nodeDecl
	for i := range doc.Sections {
		s := &doc.Sections[i]
		switch s.Tag {
		case "gd_scene", "gd_resource":
			d.scene = s.Tag == "gd_scene"
			f.uid = s.AttrString("uid")
			if d.scene {
				f.resType = "PackedScene"
			} else {
				f.resType = s.AttrString("type")
			}
		case "ext_resource":
			e := &extRes{id: s.AttrString("id"), typ: s.AttrString("type"), path: s.AttrString("path"), uid: s.AttrString("uid"), line: s.Line}
			d.ext[e.id] = e
			d.extOrder = append(d.extOrder, e)
		case "sub_resource":
			id := s.AttrString("id")
			d.subs[id] = s.AttrString("type")
			if s.AttrString("type") == "GDScript" {
				if src, ok := s.Prop("script/source"); ok {
					if code, ok := godottext.Unquote(src.Value); ok {
						if d.subScripts == nil {
							d.subScripts = map[string]*gdScript{}
						}
						gd := parseGDScript(code)
						for i := range gd.refs {
							gd.refs[i].line += src.Line - 1
						}
						d.subScripts[id] = gd
						f.refs = append(f.refs, gd.refs...)
					}
				}
			}
		case "node":
			n := &nodeDecl{name: s.AttrString("name"), typ: s.AttrString("type"), line: s.Line}
			if par, ok := s.Attr("parent"); ok {
				n.parent, _ = godottext.Unquote(par)
				if n.parent == "." {
					n.path = n.name
				} else {
					n.path = n.parent + "/" + n.name
				}
			} else {
				n.path = "."
			}
			if v, ok := s.Attr("instance"); ok {
				if ids := godottext.CallArgs(v, "ExtResource"); len(ids) > 0 {
					n.instance = ids[0]
					d.idUses = append(d.idUses, idUse{id: ids[0], line: s.Line})
				}
			}
			if ph := s.AttrString("instance_placeholder"); ph != "" {
				f.refs = append(f.refs, rawRef{text: ph, line: s.Line, kind: refText})
			}
			d.nodes = append(d.nodes, n)
			cur = n
		case "connection":
			d.conns = append(d.conns, &connDecl{signal: s.AttrString("signal"), from: s.AttrString("from"), to: s.AttrString("to"), method: s.AttrString("method"), line: s.Line})
			cur = nil
		default:
			cur = nil
		}
		if s.Tag != "node" {
			cur = nil
		}
		for _, kv := range s.Props {
			v := kv.Value
			if kv.Key == "script/source" {
				continue
			}
			var toks []godottext.Token
			if strings.ContainsAny(v, `"(`) {
				toks = godottext.Tokens(v)
			}
			for _, id := range godottext.CallArgsTokens(toks, "ExtResource") {
				d.idUses = append(d.idUses, idUse{id: id, line: kv.Line})
			}
			for _, id := range godottext.CallArgsTokens(toks, "SubResource") {
				d.idUses = append(d.idUses, idUse{sub: true, id: id, line: kv.Line})
			}
			if kv.Key == "script" && (s.Tag == "node" || s.Tag == "resource") {
				u := &scriptUse{line: kv.Line, null: strings.TrimSpace(v) == "null"}
				if ids := godottext.CallArgsTokens(toks, "ExtResource"); len(ids) > 0 {
					u.ext = ids[0]
				} else if ids := godottext.CallArgsTokens(toks, "SubResource"); len(ids) > 0 {
					u.sub = ids[0]
				}
				if cur != nil {
					cur.script = u
				} else if s.Tag == "resource" {
					d.resScript = u
				}
			}
			if cur != nil {
				if kv.Key == "unique_name_in_owner" && strings.TrimSpace(v) == "true" {
					cur.unique = true
				}
				for _, np := range godottext.CallArgsTokens(toks, "NodePath") {
					cur.nodePaths = append(cur.nodePaths, nodePathProp{prop: kv.Key, path: np, line: kv.Line})
				}
			}
			for _, t := range toks {
				if t.Kind == 's' && strings.Contains(t.Text, "://") {
					f.refs = append(f.refs, scanRefs(t.Text, kv.Line)...)
				}
			}
		}
	}
	// External resources: the uid names the file first, the path is the
	// fallback (as Godot loads them).
	for _, e := range d.extOrder {
		kind := refExtResource
		if e.typ == "Script" {
			kind = refScript
		}
		if e.uid != "" {
			f.refs = append(f.refs, rawRef{text: e.uid, line: e.line, kind: kind})
		}
		if e.path != "" {
			f.refs = append(f.refs, rawRef{text: e.path, line: e.line, kind: kind})
		}
	}
	for _, n := range d.nodes {
		if e := d.ext[n.instance]; e != nil {
			for i := range f.refs {
				if f.refs[i].line == e.line && f.refs[i].kind == refExtResource {
					f.refs[i].kind = refInstance
				}
			}
		}
	}
}

// extTarget is the file an external resource loads: its uid's file when the
// uid is known, else its path (as Godot does). ok is false when neither
// names a file of the project.
func (p *project) extTarget(from string, e *extRes) (string, bool) {
	if e.uid != "" {
		if t, ok := p.uids[e.uid]; ok {
			if _, exists := p.files[t]; exists {
				return t, true
			}
		}
	}
	if e.path == "" {
		return "", false
	}
	t := p.resolve(from, rawRef{text: e.path, kind: refRelative})
	_, exists := p.files[t]
	return t, exists
}

package analysis

import (
	"fmt"
	"strings"
)

// Issue kinds.
const (
	issueParse       = "parse_error"
	issueBrokenExt   = "broken_ext_resource"
	issueMissingScr  = "missing_script"
	issueUnknownID   = "unknown_resource_id"
	issueMissingPar  = "missing_parent"
	issueDangling    = "dangling_node_path"
	issueInvalidUID  = "invalid_uid"
	severityError    = "error"
	severityWarning  = "warning"
	maxParseIssues   = 5
	maxIssuesPerFile = 500
)

// integrity checks the text scenes and resources in scope.
func (p *project) integrity(includeAddons bool, filter string) []Issue {
	ns := p.nodeLookup()
	links := map[string]bool{}
	for _, l := range p.links {
		links[l] = true
	}
	var out []Issue
	for _, res := range p.paths {
		f := p.files[res]
		if f.doc == nil || !inScope(res, includeAddons, filter) {
			continue
		}
		var issues []Issue
		add := func(line int, kind, sev, detail string) {
			if len(issues) < maxIssuesPerFile {
				issues = append(issues, Issue{File: res, Line: line, Kind: kind, Severity: sev, Detail: detail})
			}
		}
		for i, e := range f.errs {
			if i == maxParseIssues {
				break
			}
			add(e.Line, issueParse, severityError, e.Message)
		}
		d := f.doc
		// Which external resources are used as scripts, and by what.
		scriptUser := map[string]string{}
		for _, n := range d.nodes {
			if n.script != nil && n.script.ext != "" {
				scriptUser[n.script.ext] = fmt.Sprintf("node %q", n.path)
			}
		}
		if d.resScript != nil && d.resScript.ext != "" {
			scriptUser[d.resScript.ext] = "the resource"
		}
		for _, e := range d.extOrder {
			t, ok := p.extTarget(res, e)
			if !ok {
				if links[t] || p.underLink(t) {
					continue // behind a symbolic link the walk did not follow
				}
				what := fmt.Sprintf("ext_resource id=%q type=%q path=%q", e.id, e.typ, e.path)
				if e.uid != "" {
					what += fmt.Sprintf(" uid=%q", e.uid)
				}
				if user, isScript := scriptUser[e.id]; isScript {
					add(e.line, issueMissingScr, severityError, fmt.Sprintf("the script of %s is missing: %s names no file in the project", user, what))
				} else {
					add(e.line, issueBrokenExt, severityError, what+" names no file in the project (neither the uid nor the path)")
				}
				continue
			}
			if e.uid != "" {
				if _, known := p.uids[e.uid]; !known {
					add(e.line, issueInvalidUID, severityWarning, fmt.Sprintf("uid %q of ext_resource id=%q is declared by no file; Godot falls back to the path %s", e.uid, e.id, e.path))
				}
			}
		}
		for _, u := range d.idUses {
			if u.sub {
				if _, ok := d.subs[u.id]; !ok {
					add(u.line, issueUnknownID, severityError, fmt.Sprintf("SubResource(%q) is not declared in the file", u.id))
				}
			} else if _, ok := d.ext[u.id]; !ok {
				add(u.line, issueUnknownID, severityError, fmt.Sprintf("ExtResource(%q) is not declared in the file", u.id))
			}
		}
		if d.scene {
			for _, n := range d.nodes {
				if n.parent != "" && ns.node(res, n.parent) == nil {
					add(n.line, issueMissingPar, severityError, fmt.Sprintf("node %q has parent %q, which is not a node of the scene", n.name, n.parent))
					continue
				}
				for _, np := range n.nodePaths {
					target, checkable := resolveNodePath(n.path, np.path, ns.of(res))
					if checkable && ns.node(res, target) == nil {
						add(np.line, issueDangling, severityError, fmt.Sprintf("%s = NodePath(%q) on node %q points to %q, which is not a node of the scene", np.prop, np.path, n.path, target))
					}
				}
			}
		}
		out = append(out, issues...)
	}
	return out
}

// underLink says whether a res:// path goes through a skipped link folder.
func (p *project) underLink(res string) bool {
	for _, l := range p.links {
		if strings.HasPrefix(res, l+"/") {
			return true
		}
	}
	return false
}

// resolveNodePath resolves a NodePath written on the node at from (a scene
// path, "." the root) to a scene path. checkable is false for what cannot
// be checked in the scene: empty paths, absolute ones (/root/…), paths that
// climb above the scene root (they reach into whatever instances it). A
// %Unique name resolves among the nodes the scene marks unique.
func resolveNodePath(from, np string, idx *sceneIndex) (string, bool) {
	if i := strings.IndexByte(np, ':'); i >= 0 {
		np = np[:i]
	}
	if np == "" || strings.HasPrefix(np, "/") {
		return "", false
	}
	var segs []string
	if from != "." {
		segs = strings.Split(from, "/")
	}
	parts := strings.Split(np, "/")
	if strings.HasPrefix(parts[0], "%") {
		name := parts[0][1:]
		found, ok := idx.unique[name]
		if !ok {
			return "%" + name, true
		}
		segs = nil
		if found != "." {
			segs = strings.Split(found, "/")
		}
		parts = parts[1:]
	}
	for _, s := range parts {
		switch s {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return "", false
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, s)
		}
	}
	if len(segs) == 0 {
		return ".", true
	}
	return strings.Join(segs, "/"), true
}

package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/internal/schema"
)

// Argument names agents carry from one toolset to another (#28.9): the
// editor tools name a node `node`, the runtime tools `path`; some list
// tools were once called with `folder` for the folder they take as `path`.
// A call that uses the other name, where the tool has no argument of that
// name but has the one it stands for (and the call does not give both),
// is read as if it used the tool's own name. tools/list documents only the
// tool's own name; docs/contract.md lists these.
type argAlias struct {
	given, own string
	// fits says whether the tool's own argument is what the alias means,
	// from its description ("folder to list", "the node: ...").
	fits func(own *schema.Schema) bool
}

var argAliases = []argAlias{
	{"folder", "path", func(p *schema.Schema) bool { return strings.HasPrefix(p.Description, "folder") }},
	{"node", "path", func(p *schema.Schema) bool { return strings.HasPrefix(p.Description, "the node") }},
	{"path", "node", func(p *schema.Schema) bool { return strings.Contains(p.Description, "node path") }},
}

// applyAliases renames aliased arguments of raw (a JSON object) to the
// tool's own names; raw unchanged when none applies.
func applyAliases(s *schema.Schema, raw []byte) []byte {
	if s == nil {
		return raw
	}
	var members []rawjson.Member
	var err error
	renamed := false
	for _, a := range argAliases {
		if s.Property(a.given) != nil {
			continue
		}
		own := s.Property(a.own)
		if own == nil || !a.fits(own) || !bytes.Contains(raw, []byte(`"`+a.given+`"`)) {
			continue
		}
		if members == nil {
			if members, err = rawjson.Object(raw); err != nil {
				return raw
			}
		}
		at, hasOwn := -1, false
		for i, m := range members {
			switch m.Key {
			case a.given:
				at = i
			case a.own:
				hasOwn = true
			}
		}
		if at >= 0 && !hasOwn {
			members[at].Key = a.own
			renamed = true
		}
	}
	if !renamed {
		return raw
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/tailscale/hujson"
)

// mergeConfig sets doc[key...][name] = entry in a config of the given
// format, keeping everything else; an empty doc is a new file. replaced
// says an entry of that name was there.
func mergeConfig(format configFormat, doc []byte, key []string, name string, entry any) (out []byte, replaced bool, err error) {
	raw, err := json.Marshal(entry)
	if err != nil {
		return nil, false, err
	}
	switch format {
	case formatJSONC:
		if json.Valid(doc) || len(bytes.TrimSpace(doc)) == 0 {
			// No comments to keep: written like the plain JSON files.
			out, replaced, err = mergeJSON(doc, key, name, raw)
		} else {
			out, replaced, err = mergeJSONC(doc, key, name, entry)
		}
	case formatTOML:
		out, replaced, err = mergeTOML(doc, key, name, raw)
	default:
		out, replaced, err = mergeJSON(doc, key, name, raw)
	}
	if err != nil {
		return nil, false, err
	}
	// What was written reads back as the entry, and nothing else changed.
	if err := checkMerged(format, doc, out, key, name, raw); err != nil {
		return nil, false, fmt.Errorf("internal error, the merged file did not check out (%v)", err)
	}
	return out, replaced, nil
}

// configServers reads doc[key...] as name → entry (JSON), or nil when the
// document has no such object.
func configServers(format configFormat, doc []byte, key []string) (map[string]json.RawMessage, error) {
	tree, err := configTree(format, doc)
	if err != nil {
		return nil, err
	}
	var cur any = tree
	for _, k := range key {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%q is not an object", strings.Join(key, "."))
		}
		if cur, ok = m[k]; !ok || cur == nil {
			return nil, nil
		}
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%q is not an object", strings.Join(key, "."))
	}
	out := map[string]json.RawMessage{}
	for k, v := range m {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[k] = b
	}
	return out, nil
}

// configTree decodes a whole config into maps, slices and scalars.
func configTree(format configFormat, doc []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return map[string]any{}, nil
	}
	var tree map[string]any
	switch format {
	case formatTOML:
		if err := toml.Unmarshal(doc, &tree); err != nil {
			return nil, fmt.Errorf("not valid TOML: %w", err)
		}
		// Through JSON, so values compare like the JSON formats' do.
		b, err := json.Marshal(tree)
		if err != nil {
			return nil, err
		}
		tree = nil
		if err := json.Unmarshal(b, &tree); err != nil {
			return nil, err
		}
	case formatJSONC:
		std, err := hujson.Standardize(bytes.Clone(doc))
		if err != nil {
			return nil, fmt.Errorf("not valid JSON (comments and trailing commas allowed): %w", err)
		}
		if err := json.Unmarshal(std, &tree); err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
	default:
		if err := json.Unmarshal(doc, &tree); err != nil {
			return nil, fmt.Errorf("not a JSON object (comments are not supported): %w", err)
		}
	}
	if tree == nil {
		return nil, errors.New("not a JSON object")
	}
	return tree, nil
}

// checkMerged: after is before with doc[key...][name] = entry.
func checkMerged(format configFormat, before, after []byte, key []string, name string, entry json.RawMessage) error {
	b, err := configTree(format, before)
	if err != nil {
		return err
	}
	a, err := configTree(format, after)
	if err != nil {
		return err
	}
	var want any
	if err := json.Unmarshal(entry, &want); err != nil {
		return err
	}
	cur := b
	for _, k := range key {
		next, ok := cur[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[k] = next
		}
		cur = next
	}
	cur[name] = want
	if !reflect.DeepEqual(a, b) {
		return errors.New("the result differs from the file plus the entry")
	}
	return nil
}

// --- plain JSON -----------------------------------------------------------

// mergeJSON keeps every other member and their order, and indents the file
// with two spaces.
func mergeJSON(doc []byte, key []string, name string, entry json.RawMessage) ([]byte, bool, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}")
	}
	value, replaced, err := setMember(doc, append(append([]string{}, key...), name), entry)
	if err != nil {
		return nil, false, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, value, "", "  "); err != nil {
		return nil, false, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), replaced, nil
}

// setMember sets obj[path...] = value in the JSON object obj, creating the
// objects on the way.
func setMember(obj []byte, path []string, value json.RawMessage) (json.RawMessage, bool, error) {
	members, err := orderedObject(obj)
	if err != nil {
		return nil, false, fmt.Errorf("not a JSON object (comments are not supported): %w", err)
	}
	k := path[0]
	replaced := false
	idx := -1
	for i, m := range members {
		if m.Key == k {
			idx = i
		}
	}
	var v json.RawMessage
	if len(path) == 1 {
		v, replaced = value, idx >= 0
	} else {
		inner := json.RawMessage("{}")
		if idx >= 0 && string(bytes.TrimSpace(members[idx].Value)) != "null" {
			inner = members[idx].Value
		}
		if v, replaced, err = setMember(inner, path[1:], value); err != nil {
			return nil, false, fmt.Errorf("%q: %w", k, err)
		}
	}
	if idx >= 0 {
		members[idx].Value = v
	} else {
		members = append(members, member{Key: k, Value: v})
	}
	return encodeObject(members), replaced, nil
}

type member struct {
	Key   string
	Value json.RawMessage
}

// orderedObject splits a JSON object into its members, in order.
func orderedObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, fmt.Errorf("duplicate key %q", k)
		}
		seen[k] = true
		out = append(out, member{Key: k, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return out, nil
}

func encodeObject(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
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

// --- JSON with comments ---------------------------------------------------

// mergeJSONC edits the file in place: comments, trailing commas, the
// order of members and the layout of everything else are kept; the entry
// is indented like its neighbours.
func mergeJSONC(doc []byte, key []string, name string, entry any) ([]byte, bool, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	root, err := hujson.Parse(bytes.Clone(doc))
	if err != nil {
		return nil, false, fmt.Errorf("not valid JSON (comments and trailing commas allowed): %w", err)
	}
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, false, errors.New("not a JSON object")
	}
	unit := indentUnit(obj)
	indent := ""
	path := append(append([]string{}, key...), name)
	replaced := false
	for i, k := range path {
		last := i == len(path)-1
		var value []byte
		if last {
			if value, err = json.MarshalIndent(entry, indent+unit, unit); err != nil {
				return nil, false, err
			}
		} else {
			value = []byte("{}")
		}
		m := objectMember(obj, k)
		if m != nil && last {
			replaced = true
		}
		if m == nil || (!last && isNull(m.Value)) {
			parsed, err := hujson.Parse(value)
			if err != nil {
				return nil, false, err
			}
			if m != nil {
				m.Value.Value = parsed.Value
			} else {
				m = appendMember(obj, k, parsed.Value, indent, unit)
			}
		} else if last {
			parsed, err := hujson.Parse(value)
			if err != nil {
				return nil, false, err
			}
			m.Value.Value = parsed.Value
		}
		if !last {
			next, ok := m.Value.Value.(*hujson.Object)
			if !ok {
				return nil, false, fmt.Errorf("%q is not a JSON object", strings.Join(path[:i+1], "."))
			}
			obj = next
			indent += unit
		}
	}
	root.UpdateOffsets()
	return root.Pack(), replaced, nil
}

func isNull(v hujson.Value) bool {
	lit, ok := v.Value.(hujson.Literal)
	return ok && lit.Kind() == 'n'
}

func objectMember(obj *hujson.Object, name string) *hujson.ObjectMember {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return &obj.Members[i]
		}
	}
	return nil
}

// appendMember adds name: value at the end of obj (whose own indent is
// indent), on its own line, keeping the object's trailing-comma style.
func appendMember(obj *hujson.Object, name string, value hujson.ValueTrimmed, indent, unit string) *hujson.ObjectMember {
	memberIndent := indent + unit
	if n := len(obj.Members); n > 0 {
		if ws := lastLineIndent(obj.Members[0].Name.BeforeExtra); ws != "" {
			memberIndent = ws
		}
	}
	m := hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: hujson.Extra("\n" + memberIndent), Value: hujson.String(name)},
		Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: value},
	}
	if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
		m.Value.AfterExtra = hujson.Extra{} // the file ends members with a comma
	}
	if len(obj.Members) == 0 {
		// Comments in an empty object stay before the member.
		if c := bytes.TrimRight(obj.AfterExtra, " \t\r\n"); len(c) > 0 {
			m.Name.BeforeExtra = append(bytes.Clone(c), m.Name.BeforeExtra...)
		}
		obj.AfterExtra = nil
	}
	obj.Members = append(obj.Members, m)
	if !bytes.Contains(obj.AfterExtra, []byte("\n")) {
		obj.AfterExtra = hujson.Extra("\n" + indent)
	}
	return &obj.Members[len(obj.Members)-1]
}

// lastLineIndent is the whitespace after the last newline of extra ("" when
// the member does not start its own line).
func lastLineIndent(extra hujson.Extra) string {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return ""
	}
	ws := string(extra[i+1:])
	if strings.Trim(ws, " \t") != "" {
		return ""
	}
	return ws
}

// indentUnit is one level of the file's indentation (two spaces if unsure).
func indentUnit(obj *hujson.Object) string {
	if len(obj.Members) > 0 {
		if ws := lastLineIndent(obj.Members[0].Name.BeforeExtra); ws != "" {
			return ws
		}
	}
	return "  "
}

// --- TOML (Codex) ---------------------------------------------------------

var bareTOMLKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func tomlKey(k string) string {
	if bareTOMLKey.MatchString(k) {
		return k
	}
	b, _ := json.Marshal(k) // a JSON string without control characters is a TOML basic string
	return string(b)
}

// codexEntry is a server table in Codex's config.toml.
type codexEntry struct {
	Command string            `json:"command" toml:"command"`
	Args    []string          `json:"args" toml:"args"`
	Env     map[string]string `json:"env,omitempty" toml:"env,inline,omitempty"`
}

// mergeTOML replaces the [key.name] table (and its sub-tables) where it is,
// or appends it at the end; comments and every other table stay as they
// are. An entry written another way (inline or with dotted keys) is refused.
func mergeTOML(doc []byte, key []string, name string, entry json.RawMessage) ([]byte, bool, error) {
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return nil, false, fmt.Errorf("the server name %q has control characters", name)
		}
	}
	if _, err := configTree(formatTOML, doc); err != nil {
		return nil, false, err
	}
	prefix := append(append([]string{}, key...), name)
	// Each table of ours runs from its header line to the next header,
	// less the blank and comment lines just before that header.
	type span struct{ start, end int }
	var ours []span
	var curPath []string
	open := -1 // the start of a table of ours still open
	closeAt := func(end int) {
		if open >= 0 {
			ours = append(ours, span{open, trimBack(doc, open, end)})
			open = -1
		}
	}
	p := unstable.Parser{}
	p.Reset(doc)
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, off := tomlKeyOf(e)
			lineStart := bytes.LastIndexByte(doc[:off], '\n') + 1
			closeAt(lineStart)
			curPath = keys
			if hasPrefix(keys, prefix) {
				if e.Kind == unstable.ArrayTable {
					return nil, false, fmt.Errorf("[[%s]] is an array of tables; remove it and run setup again", strings.Join(keys, "."))
				}
				open = lineStart
			}
		case unstable.KeyValue:
			if open >= 0 {
				continue
			}
			keys, _ := tomlKeyOf(e)
			full := append(append([]string{}, curPath...), keys...)
			if hasPrefix(full, prefix) {
				return nil, false, fmt.Errorf("%q is set with a dotted key or an inline table (%s); setup rewrites only a [%s] table: remove it and run setup again",
					name, strings.Join(full, "."), strings.Join(prefix, "."))
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, false, fmt.Errorf("not valid TOML: %w", err)
	}
	closeAt(len(doc))

	var e codexEntry
	if err := json.Unmarshal(entry, &e); err != nil {
		return nil, false, err
	}
	body, err := toml.Marshal(e)
	if err != nil {
		return nil, false, err
	}
	keys := make([]string, len(prefix))
	for i, k := range prefix {
		keys[i] = tomlKey(k)
	}
	table := "[" + strings.Join(keys, ".") + "]\n" + string(body)

	var out bytes.Buffer
	if len(ours) == 0 {
		out.Write(doc)
		if len(bytes.TrimSpace(doc)) > 0 {
			if !bytes.HasSuffix(doc, []byte("\n")) {
				out.WriteByte('\n')
			}
			out.WriteByte('\n')
		}
		out.WriteString(table)
		return out.Bytes(), false, nil
	}
	pos := 0
	for i, s := range ours {
		between := doc[pos:s.start]
		if i > 0 && len(bytes.TrimSpace(between)) == 0 {
			between = nil // the blank lines between two tables of ours
		}
		out.Write(between)
		if i == 0 {
			out.WriteString(table)
		}
		pos = s.end
	}
	out.Write(doc[pos:])
	return out.Bytes(), true, nil
}

// trimBack moves end back over the blank and comment lines before it (they
// belong to what follows), not before the line after start.
func trimBack(doc []byte, start, end int) int {
	first := lineEnd(doc, start)
	for end > first {
		prev := bytes.LastIndexByte(doc[:end-1], '\n') + 1
		line := bytes.TrimSpace(doc[prev:end])
		if len(line) > 0 && line[0] != '#' {
			break
		}
		end = prev
	}
	if end < first {
		end = first
	}
	return end
}

// tomlKeyOf is an expression's key parts and the offset of its first one.
func tomlKeyOf(e *unstable.Node) ([]string, int) {
	var keys []string
	off := -1
	it := e.Key()
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		if off < 0 {
			off = int(n.Raw.Offset)
		}
	}
	return keys, off
}

// lineEnd is the offset after the newline ending the line holding off.
func lineEnd(doc []byte, off int) int {
	i := bytes.IndexByte(doc[off:], '\n')
	if i < 0 {
		return len(doc)
	}
	return off + i + 1
}

func hasPrefix(s, prefix []string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range prefix {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}

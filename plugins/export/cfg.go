package export

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cfgFile is a Godot ConfigFile (export_presets.cfg) as text: sections in
// file order, each with its entries in file order, every value kept as the
// Variant text Godot wrote. Only what is set is re-encoded, so a file read
// and written back is byte for byte the same, unknown keys and all.
type cfgFile struct {
	sections []*cfgSection
}

type cfgSection struct {
	name      string // "" for keys before the first [section]
	hasHeader bool
	entries   []cfgEntry
}

// cfgEntry is key=value, or a comment line (key "", raw comment in value).
type cfgEntry struct {
	key     string // decoded key
	rawKey  string // the key as written
	value   string // Variant text, as written
	comment bool
}

// parseCfg reads ConfigFile text the way Godot's VariantParser does for
// what the editor writes: [section] headers, key=value where the value
// runs to the end of the line unless a string or a bracket is open (a
// string may hold newlines), and ; or # comment lines.
func parseCfg(text string) (*cfgFile, error) {
	f := &cfgFile{}
	cur := &cfgSection{}
	line := 1
	i := 0
	n := len(text)
	for i < n {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == ';' || c == '#':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = n - i
			}
			cur.entries = append(cur.entries, cfgEntry{value: text[i : i+end], comment: true})
			i += end
			continue
		case c == '[':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = n - i
			}
			hdr := strings.TrimRight(text[i:i+end], " \t\r")
			if !strings.HasSuffix(hdr, "]") {
				return nil, fmt.Errorf("line %d: section header %q has no closing ]", line, hdr)
			}
			if len(cur.entries) > 0 || cur.hasHeader {
				f.sections = append(f.sections, cur)
			}
			cur = &cfgSection{name: hdr[1 : len(hdr)-1], hasHeader: true}
			i += end
			continue
		}
		// key
		var rawKey, key string
		if c == '"' {
			j, err := scanString(text, i, &line)
			if err != nil {
				return nil, err
			}
			rawKey = text[i:j]
			key, _ = unquote(rawKey)
			i = j
			for i < n && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
		} else {
			j := i
			for j < n && text[j] != '=' && text[j] != '\n' {
				j++
			}
			rawKey = strings.TrimRight(text[i:j], " \t")
			key = rawKey
			i = j
		}
		if i >= n || text[i] != '=' {
			return nil, fmt.Errorf("line %d: expected key=value, got %q", line, strings.SplitN(text[i-len(rawKey):], "\n", 2)[0])
		}
		i++ // '='
		for i < n && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		j, err := scanValue(text, i, &line)
		if err != nil {
			return nil, err
		}
		val := strings.TrimRight(text[i:j], " \t\r")
		if val == "" {
			return nil, fmt.Errorf("line %d: key %q has no value", line, key)
		}
		cur.entries = append(cur.entries, cfgEntry{key: key, rawKey: rawKey, value: val})
		i = j
	}
	if len(cur.entries) > 0 || cur.hasHeader {
		f.sections = append(f.sections, cur)
	}
	return f, nil
}

// scanString returns the index after the string starting at text[i] ('"').
func scanString(text string, i int, line *int) (int, error) {
	start := *line
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
			if j < len(text) && text[j] == '\n' {
				*line++
			}
		case '\n':
			*line++
		case '"':
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("line %d: string not closed", start)
}

// scanValue returns the end of the Variant text starting at text[i]: the
// end of the line, past strings and open brackets.
func scanValue(text string, i int, line *int) (int, error) {
	depth := 0
	start := *line
	for j := i; j < len(text); j++ {
		switch c := text[j]; c {
		case '"':
			k, err := scanString(text, j, line)
			if err != nil {
				return 0, err
			}
			j = k - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\n':
			if depth <= 0 {
				return j, nil
			}
			*line++
		}
	}
	if depth > 0 {
		return 0, fmt.Errorf("line %d: a bracket in the value is not closed", start)
	}
	return len(text), nil
}

// String writes the file as Godot's ConfigFile::save does: "[section]",
// an empty line, key=value lines, and an empty line between sections.
func (f *cfgFile) String() string {
	var b strings.Builder
	for i, s := range f.sections {
		if i > 0 {
			b.WriteString("\n")
		}
		if s.hasHeader {
			b.WriteString("[" + s.name + "]\n\n")
		}
		for _, e := range s.entries {
			if e.comment {
				b.WriteString(e.value + "\n")
				continue
			}
			b.WriteString(e.rawKey + "=" + e.value + "\n")
		}
	}
	return b.String()
}

func (f *cfgFile) section(name string) *cfgSection {
	for _, s := range f.sections {
		if s.name == name {
			return s
		}
	}
	return nil
}

func (f *cfgFile) addSection(name string) *cfgSection {
	s := &cfgSection{name: name, hasHeader: true}
	f.sections = append(f.sections, s)
	return s
}

func (s *cfgSection) get(key string) (string, bool) {
	for _, e := range s.entries {
		if !e.comment && e.key == key {
			return e.value, true
		}
	}
	return "", false
}

// set replaces key's value in place, or appends key=value.
func (s *cfgSection) set(key, value string) {
	for i, e := range s.entries {
		if !e.comment && e.key == key {
			s.entries[i].value = value
			return
		}
	}
	s.entries = append(s.entries, cfgEntry{key: key, rawKey: encodeKey(key), value: value})
}

// encodeKey is String::property_name_encode: a key with a space, '=', '"',
// or a character beyond ASCII is quoted.
func encodeKey(k string) string {
	for _, r := range k {
		if r == ' ' || r == '=' || r == '"' || r > 126 || r < 33 {
			return quote(k)
		}
	}
	return k
}

// quote is a Godot string literal as VariantWriter writes it
// (String::c_escape_multiline: only \ and " are escaped, newlines stay).
func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

var errNotString = errors.New("not a string literal")

// unquote reads a Godot string literal (with the escapes VariantParser knows).
func unquote(raw string) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errNotString
	}
	s := raw[1 : len(raw)-1]
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'u', 'U':
			w := 4
			if s[i] == 'U' {
				w = 6
			}
			if i+1+w <= len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+w], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += w
					continue
				}
			}
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i]) // \" \\ and anything else: the character itself
		}
	}
	return b.String(), nil
}

// Variant text of the values a preset holds.

func encodeBool(v bool) string { return strconv.FormatBool(v) }

func encodeInt(v int64) string { return strconv.FormatInt(v, 10) }

// encodeFloat is VariantWriter's float: the shortest text, with ".0" when
// it would read as an int.
func encodeFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func encodeStrings(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = quote(s)
	}
	return "PackedStringArray(" + strings.Join(q, ", ") + ")"
}

// decodeStrings reads PackedStringArray("a", "b") (or an Array of strings).
func decodeStrings(raw string) ([]string, bool) {
	inner := ""
	switch {
	case strings.HasPrefix(raw, "PackedStringArray(") && strings.HasSuffix(raw, ")"):
		inner = raw[len("PackedStringArray(") : len(raw)-1]
	case strings.HasPrefix(raw, "[") && strings.HasSuffix(raw, "]"):
		inner = raw[1 : len(raw)-1]
	default:
		return nil, false
	}
	out := []string{}
	line := 0
	for i := 0; i < len(inner); {
		c := inner[i]
		switch {
		case c == ' ' || c == ',' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '"':
			j, err := scanString(inner, i, &line)
			if err != nil {
				return nil, false
			}
			s, err := unquote(inner[i:j])
			if err != nil {
				return nil, false
			}
			out = append(out, s)
			i = j
		default:
			return nil, false
		}
	}
	return out, true
}

// valueType names the type of Variant text: bool, int, float, string,
// strings (PackedStringArray), or other.
func valueType(raw string) string {
	switch {
	case raw == "true" || raw == "false":
		return "bool"
	case strings.HasPrefix(raw, `"`):
		return "string"
	case strings.HasPrefix(raw, "PackedStringArray("):
		return "strings"
	}
	if _, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return "int"
	}
	if _, err := strconv.ParseFloat(raw, 64); err == nil {
		return "float"
	}
	return "other"
}

// decodeValue turns Variant text into a JSON value: bool, number, string,
// []string; other Variant text (a Color, a Dictionary) stays text, and
// ok is false.
func decodeValue(raw string) (any, bool) {
	switch valueType(raw) {
	case "bool":
		return raw == "true", true
	case "string":
		s, err := unquote(raw)
		return s, err == nil
	case "strings":
		v, ok := decodeStrings(raw)
		return v, ok
	case "int":
		v, _ := strconv.ParseInt(raw, 10, 64)
		return v, true
	case "float":
		v, _ := strconv.ParseFloat(raw, 64)
		return v, true
	}
	return raw, false
}

// encodeAs encodes a JSON value as Variant text of type typ ("" or "other":
// by the JSON value's own type).
func encodeAs(v any, typ string) (string, error) {
	switch typ {
	case "bool":
		b, ok := v.(bool)
		if !ok {
			return "", fmt.Errorf("want true or false, got %s", jsonKind(v))
		}
		return encodeBool(b), nil
	case "int":
		f, ok := v.(float64)
		if !ok || f != float64(int64(f)) {
			return "", fmt.Errorf("want a whole number, got %s", jsonKind(v))
		}
		return encodeInt(int64(f)), nil
	case "float":
		f, ok := v.(float64)
		if !ok {
			return "", fmt.Errorf("want a number, got %s", jsonKind(v))
		}
		return encodeFloat(f), nil
	case "string":
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("want a string, got %s", jsonKind(v))
		}
		return quote(s), nil
	case "strings":
		list, ok := v.([]any)
		if !ok {
			return "", fmt.Errorf("want an array of strings, got %s", jsonKind(v))
		}
		ss := make([]string, len(list))
		for i, x := range list {
			s, ok := x.(string)
			if !ok {
				return "", fmt.Errorf("want an array of strings, item %d is %s", i, jsonKind(x))
			}
			ss[i] = s
		}
		return encodeStrings(ss), nil
	}
	if typ == "other" {
		// A Color, Vector2, …: the value as Godot's text, one constructor.
		s, ok := v.(string)
		if !ok || !ctorRE.MatchString(s) {
			return "", fmt.Errorf("want Godot's text of the value, like Color(0, 0, 0, 1), got %s", jsonKind(v))
		}
		depth := 0
		for i, c := range s {
			switch c {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 && i != len(s)-1 || depth < 0 {
					return "", fmt.Errorf("%q is not one Godot value", s)
				}
			}
		}
		if depth != 0 {
			return "", fmt.Errorf("%q is not one Godot value", s)
		}
		return s, nil
	}
	switch x := v.(type) {
	case bool:
		return encodeBool(x), nil
	case float64:
		if x == float64(int64(x)) {
			return encodeInt(int64(x)), nil
		}
		return encodeFloat(x), nil
	case string:
		return quote(x), nil
	case []any:
		return encodeAs(v, "strings")
	}
	return "", fmt.Errorf("want a bool, number, string or array of strings, got %s", jsonKind(v))
}

var ctorRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*\([^"\n\[\]{}]*\)$`)

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool (" + strconv.FormatBool(x) + ")"
	case float64:
		return "a number (" + strconv.FormatFloat(x, 'g', -1, 64) + ")"
	case string:
		return fmt.Sprintf("a string (%q)", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Package godottext parses Godot's text formats without an engine: text
// scenes and resources (.tscn, .tres: [gd_scene …], [ext_resource …],
// [node …], [connection …] sections with key = value properties) and the
// ConfigFile format of project.godot, export_presets.cfg, .import and
// plugin.cfg files ([section] and key=value). Values are kept as their raw
// text, which may span lines (arrays, dictionaries, strings holding
// newlines); helpers read strings (with Godot's escapes), ExtResource /
// SubResource ids and NodePath arguments out of a value.
//
// The parser never fails as a whole: a malformed line or an unterminated
// section is recorded in File.Errors and parsing goes on at the next line.
package godottext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pair is a header attribute or a property: its key, its raw value text and
// the 1-based line where the key is.
type Pair struct {
	Key   string
	Value string
	Line  int
}

// Section is a [tag attr=value …] header and the properties after it.
// Properties before the first header (none in valid files) go to a section
// with an empty Tag.
type Section struct {
	Tag   string
	Attrs []Pair
	Props []Pair
	Line  int
}

// Error is a malformed spot of the file.
type Error struct {
	Line    int
	Message string
}

// File is a parsed file.
type File struct {
	Sections []Section
	Errors   []Error
}

// Attr returns the raw value of a header attribute.
func (s *Section) Attr(key string) (string, bool) {
	for _, p := range s.Attrs {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// AttrString returns a header attribute as a string: a string literal
// unquoted, anything else as written ("" when absent).
func (s *Section) AttrString(key string) string {
	v, ok := s.Attr(key)
	if !ok {
		return ""
	}
	if u, ok := Unquote(v); ok {
		return u
	}
	return v
}

// Prop returns the raw value of a property and its line.
func (s *Section) Prop(key string) (Pair, bool) {
	for _, p := range s.Props {
		if p.Key == key {
			return p, true
		}
	}
	return Pair{}, false
}

// Find returns the sections with the tag, in order.
func (f *File) Find(tag string) []*Section {
	var out []*Section
	for i := range f.Sections {
		if f.Sections[i].Tag == tag {
			out = append(out, &f.Sections[i])
		}
	}
	return out
}

type parser struct {
	src  string
	pos  int
	line int
	file *File
}

// Parse parses a text resource or a ConfigFile.
func Parse(src []byte) *File {
	p := &parser{src: string(src), line: 1, file: &File{}}
	if strings.HasPrefix(p.src, "\ufeff") {
		p.pos = len("\ufeff")
	}
	p.run()
	return p.file
}

func (p *parser) errorf(line int, msg string) {
	if len(p.file.Errors) < 100 {
		p.file.Errors = append(p.file.Errors, Error{Line: line, Message: msg})
	}
}

func (p *parser) cur() *Section {
	if len(p.file.Sections) == 0 {
		p.file.Sections = append(p.file.Sections, Section{Line: 1})
	}
	return &p.file.Sections[len(p.file.Sections)-1]
}

func (p *parser) run() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == ';' || c == '#':
			p.skipLine()
		case c == '[':
			p.header()
		default:
			p.property()
		}
	}
}

func (p *parser) skipLine() {
	for p.pos < len(p.src) && p.src[p.pos] != '\n' {
		p.pos++
	}
}

// header reads [tag key=value …].
func (p *parser) header() {
	start := p.line
	p.pos++ // [
	i := p.pos
	for i < len(p.src) && !isSpace(p.src[i]) && p.src[i] != ']' {
		i++
	}
	sec := Section{Tag: p.src[p.pos:i], Line: start}
	p.pos = i
	for {
		p.skipSpaces(true)
		if p.pos >= len(p.src) {
			p.errorf(start, "section ["+sec.Tag+" is not closed with ]")
			break
		}
		if p.src[p.pos] == ']' {
			p.pos++
			break
		}
		kl := p.line
		k := p.pos
		for p.pos < len(p.src) && p.src[p.pos] != '=' && p.src[p.pos] != ']' && !isSpace(p.src[p.pos]) {
			p.pos++
		}
		key := p.src[k:p.pos]
		p.skipSpaces(true)
		if p.pos >= len(p.src) || p.src[p.pos] != '=' {
			if key == "" { // a stray character: skip it
				p.pos++
			}
			sec.Attrs = append(sec.Attrs, Pair{Key: key, Line: kl})
			continue
		}
		p.pos++ // =
		p.skipSpaces(true)
		v, ok := p.value(true)
		if !ok {
			p.errorf(kl, "unterminated value of "+key+" in ["+sec.Tag+"]")
		}
		sec.Attrs = append(sec.Attrs, Pair{Key: key, Value: v, Line: kl})
	}
	p.file.Sections = append(p.file.Sections, sec)
}

// property reads key = value (the value may span lines).
func (p *parser) property() {
	kl := p.line
	var key string
	if p.src[p.pos] == '"' { // a quoted ConfigFile key
		k := p.pos
		if !p.skipString() {
			p.errorf(kl, "unterminated quoted key")
			return
		}
		key, _ = Unquote(p.src[k:p.pos])
	} else {
		k := p.pos
		for p.pos < len(p.src) && p.src[p.pos] != '=' && p.src[p.pos] != '\n' {
			p.pos++
		}
		key = strings.TrimRight(p.src[k:p.pos], " \t\r")
	}
	p.skipSpaces(false)
	if p.pos >= len(p.src) || p.src[p.pos] != '=' {
		p.errorf(kl, "line is neither a [section] nor key = value: "+clip(key))
		p.skipLine()
		return
	}
	p.pos++
	p.skipSpaces(false)
	v, ok := p.value(false)
	if !ok {
		p.errorf(kl, "unterminated value of "+clip(key))
	}
	s := p.cur()
	s.Props = append(s.Props, Pair{Key: key, Value: v, Line: kl})
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (p *parser) skipSpaces(newlines bool) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '\n' {
			if !newlines {
				return
			}
			p.line++
		} else if c != ' ' && c != '\t' && c != '\r' {
			return
		}
		p.pos++
	}
}

// value reads one value: in a header it ends at a space or ] outside
// brackets and strings, in a property at the end of the line outside them.
// ok is false when a string or bracket is still open at the end of the file.
func (p *parser) value(inHeader bool) (string, bool) {
	start := p.pos
	depth := 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case '"':
			if !p.skipString() {
				return strings.TrimRight(p.src[start:], " \t\r\n"), false
			}
			continue
		case '(', '[', '{':
			depth++
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case ']':
			if depth == 0 && inHeader {
				return p.src[start:p.pos], true
			}
			if depth > 0 {
				depth--
			}
		case '\n':
			if depth == 0 && !inHeader {
				return strings.TrimRight(p.src[start:p.pos], " \t\r"), true
			}
			p.line++
		case ' ', '\t', '\r':
			if depth == 0 && inHeader {
				return p.src[start:p.pos], true
			}
		}
		p.pos++
	}
	return strings.TrimRight(p.src[start:], " \t\r\n"), depth == 0
}

// skipString moves past a "…" string (escapes, newlines allowed); false at
// the end of the file without the closing quote.
func (p *parser) skipString() bool {
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos++
			if p.pos < len(p.src) && p.src[p.pos] == '\n' {
				p.line++
			}
		case '\n':
			p.line++
		case '"':
			p.pos++
			return true
		}
		p.pos++
	}
	return false
}

// Unquote reads a string literal ("…", also &"…" StringName and ^"…"
// NodePath) with Godot's escapes.
func Unquote(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) > 0 && (v[0] == '&' || v[0] == '^') {
		v = v[1:]
	}
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	s, n := unescape(v, 1)
	if n != len(v) {
		return "", false
	}
	return s, true
}

// unescape reads the string starting after the quote at src[i-1]; it
// returns the text and the index after the closing quote (len(src)+1 when
// there is none).
func unescape(src string, i int) (string, int) {
	j := i
	for j < len(src) && src[j] != '"' && src[j] != '\\' {
		j++
	}
	if j < len(src) && src[j] == '"' {
		return src[i:j], j + 1 // the common case: no escapes
	}
	var b strings.Builder
	b.WriteString(src[i:j])
	for j < len(src) {
		c := src[j]
		if c == '"' {
			return b.String(), j + 1
		}
		if c != '\\' || j+1 >= len(src) {
			b.WriteByte(c)
			j++
			continue
		}
		j++
		e := src[j]
		j++
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'a':
			b.WriteByte('\a')
		case 'v':
			b.WriteByte('\v')
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 6
			}
			if j+n <= len(src) {
				if r, err := strconv.ParseUint(src[j:j+n], 16, 32); err == nil && utf8.ValidRune(rune(r)) {
					b.WriteRune(rune(r))
					j += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default: // \" \\ \' and anything else: the character itself
			b.WriteByte(e)
		}
	}
	return b.String(), len(src) + 1
}

// Token is one lexical item of a value.
type Token struct {
	Kind byte   // 'i' identifier, 's' string, 'n' number, or the punctuation character itself
	Text string // identifier or number as written; a string unquoted
}

// Tokens splits a value into identifiers, strings (unquoted; a &/^ prefix
// is dropped), numbers and punctuation.
func Tokens(v string) []Token {
	var out []Token
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case isSpace(c):
			i++
		case c == '"' || ((c == '&' || c == '^') && i+1 < len(v) && v[i+1] == '"'):
			if c != '"' {
				i++
			}
			s, n := unescape(v, i+1)
			out = append(out, Token{Kind: 's', Text: s})
			i = n
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(v) && (v[j] == '_' || v[j] >= 'a' && v[j] <= 'z' || v[j] >= 'A' && v[j] <= 'Z' || v[j] >= '0' && v[j] <= '9') {
				j++
			}
			out = append(out, Token{Kind: 'i', Text: v[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '-' || c == '.':
			j := i + 1
			for j < len(v) && (v[j] >= '0' && v[j] <= '9' || v[j] == '.' || v[j] == 'e' || v[j] == 'E' || v[j] == '-' || v[j] == '+' || v[j] >= 'a' && v[j] <= 'f' || v[j] == 'x') {
				j++
			}
			out = append(out, Token{Kind: 'n', Text: v[i:j]})
			i = j
		default:
			out = append(out, Token{Kind: c})
			i++
		}
	}
	return out
}

// CallArgs returns, for every call name(…) in the value, its first
// argument (a string unquoted, or a number as written): the ids of
// ExtResource("1_abc") / ExtResource(1) and the paths of NodePath("…").
func CallArgs(v, name string) []string {
	if !strings.Contains(v, name) {
		return nil
	}
	return CallArgsTokens(Tokens(v), name)
}

// CallArgsTokens is CallArgs on tokens already split.
func CallArgsTokens(toks []Token, name string) []string {
	var out []string
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Kind == 'i' && toks[i].Text == name && toks[i+1].Kind == '(' && (toks[i+2].Kind == 's' || toks[i+2].Kind == 'n') {
			out = append(out, toks[i+2].Text)
		}
	}
	return out
}

// Strings returns every string literal of the value, unquoted.
func Strings(v string) []string {
	if !strings.Contains(v, `"`) {
		return nil
	}
	var out []string
	for _, t := range Tokens(v) {
		if t.Kind == 's' {
			out = append(out, t.Text)
		}
	}
	return out
}

package analysis

import "strings"

// rawRef is a reference as written in a file: a res:// or uid:// text, or
// (for preload/load/extends/include and a few formats that allow it) a path
// relative to the file's folder.
type rawRef struct {
	text string
	line int
	kind string // refText, refPreload, refLoad, refExtends, refExtResource, refInclude, refRelative
}

// Reference kinds; those in cycleKinds are dependencies for cycles.
const (
	refText        = "text"
	refPreload     = "preload"
	refLoad        = "load"
	refExtends     = "extends"
	refExtResource = "ext_resource"
	refInstance    = "instance"
	refScript      = "script"
	refInclude     = "include"
	refRelative    = "relative"
)

var cycleKinds = map[string]bool{refPreload: true, refLoad: true, refExtends: true, refExtResource: true, refInstance: true, refScript: true, refInclude: true}

// gdScript is what the analysis needs of a GDScript file.
type gdScript struct {
	extends     string // res:// or relative path, or a class name
	extendsPath bool
	extendsLine int
	className   string
	funcs       map[string]int // top-level func name -> line
	refs        []rawRef
	idents      []string // distinct identifiers (class_name uses)
}

type gdTok struct {
	kind   byte // 'i' identifier, 's' string, or the punctuation character
	text   string
	line   int
	indent int // indentation of the token's line
}

// parseGDScript lexes src (comments skipped, strings of every GDScript
// form: "…", '…', """…""", r"…", &"…", ^"…") and reads extends,
// class_name, top-level funcs, preload/load calls with a literal path and
// every res:// or uid:// string.
func parseGDScript(src string) *gdScript {
	toks := lexGD(src)
	s := &gdScript{funcs: map[string]int{}}
	seen := map[string]bool{}
	used := make([]bool, len(toks))
	for i, t := range toks {
		switch t.kind {
		case 'i':
			if !seen[t.text] {
				seen[t.text] = true
				s.idents = append(s.idents, t.text)
			}
			if t.indent != 0 {
				continue
			}
			switch t.text {
			case "extends":
				if s.extends != "" || i+1 >= len(toks) || toks[i+1].line != t.line || (i >= 2 && toks[i-2].line == t.line && toks[i-2].text == "class") {
					continue // an inner class's extends
				}
				n := toks[i+1]
				if n.kind == 's' {
					s.extends, s.extendsPath, s.extendsLine = n.text, true, n.line
					used[i+1] = true
					s.refs = append(s.refs, rawRef{text: n.text, line: n.line, kind: refExtends})
				} else if n.kind == 'i' {
					s.extends, s.extendsLine = n.text, n.line
				}
			case "class_name":
				if i+1 < len(toks) && toks[i+1].kind == 'i' && s.className == "" {
					s.className = toks[i+1].text
				}
			case "func":
				if i+1 < len(toks) && toks[i+1].kind == 'i' && toks[i+1].line == t.line {
					if _, dup := s.funcs[toks[i+1].text]; !dup {
						s.funcs[toks[i+1].text] = t.line
					}
				}
			}
		case '(':
			if i > 0 && i+1 < len(toks) && toks[i-1].kind == 'i' && toks[i+1].kind == 's' && (toks[i-1].text == "preload" || toks[i-1].text == "load") {
				kind := refLoad
				if toks[i-1].text == "preload" {
					kind = refPreload
				}
				s.refs = append(s.refs, rawRef{text: toks[i+1].text, line: toks[i+1].line, kind: kind})
				used[i+1] = true
			}
		}
	}
	for i, t := range toks {
		if t.kind == 's' && !used[i] && (strings.Contains(t.text, "res://") || strings.Contains(t.text, "uid://")) {
			s.refs = append(s.refs, scanRefs(t.text, t.line)...)
		}
	}
	return s
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// lexGD splits GDScript into identifiers, strings and punctuation.
func lexGD(src string) []gdTok {
	toks := make([]gdTok, 0, len(src)/6)
	line, indent := 1, 0
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		if lineStart {
			indent = 0
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				indent++
				i++
			}
			lineStart = false
			continue
		}
		switch {
		case c == '\n':
			line++
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'' || ((c == 'r' || c == '&' || c == '^') && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\'') && (i == 0 || !isIdentByte(src[i-1]))):
			raw := c == 'r'
			if c != '"' && c != '\'' {
				i++
			}
			q := src[i]
			triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
			startLine := line
			if triple {
				i += 3
			} else {
				i++
			}
			start := i
			end := -1
			for i < len(src) {
				ch := src[i]
				if ch == '\\' && i+1 < len(src) {
					if src[i+1] == '\n' {
						line++
					}
					i += 2
					continue
				}
				if ch == '\n' {
					if !triple { // an unterminated one-line string: stop at the line end
						end = i
						break
					}
					line++
				}
				if ch == q && (!triple || (i+2 < len(src) && src[i+1] == q && src[i+2] == q)) {
					end = i
					if triple {
						i += 3
					} else {
						i++
					}
					break
				}
				i++
			}
			if end < 0 {
				end = len(src)
			}
			text := src[start:end]
			if !raw && strings.IndexByte(text, '\\') >= 0 {
				text = unescapeGD(text)
			}
			toks = append(toks, gdTok{kind: 's', text: text, line: startLine, indent: indent})
		case isIdentByte(c) && !(c >= '0' && c <= '9'):
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, gdTok{kind: 'i', text: src[i:j], line: line, indent: indent})
			i = j
		case c >= '0' && c <= '9':
			for i < len(src) && (isIdentByte(src[i]) || src[i] == '.') {
				i++
			}
		default:
			toks = append(toks, gdTok{kind: c, line: line, indent: indent})
			i++
		}
	}
	return toks
}

func unescapeGD(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\n':
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// scanRefs finds res:// and uid:// references in free text: a path after a
// quote runs to the same quote, otherwise to a space or a delimiter.
func scanRefs(text string, line int) []rawRef {
	var out []rawRef
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "://")
		if j < 0 {
			break
		}
		at := i + j
		var start int
		switch {
		case at >= 3 && text[at-3:at] == "res":
			start = at - 3
		case at >= 3 && text[at-3:at] == "uid":
			start = at - 3
		default:
			i = at + 3
			continue
		}
		if start > 0 && isIdentByte(text[start-1]) { // e.g. "myres://"
			i = at + 3
			continue
		}
		ln := line + strings.Count(text[:start], "\n")
		var q byte
		if start > 0 && (text[start-1] == '"' || text[start-1] == '\'') {
			q = text[start-1]
		}
		k := at + 3
		if text[start] == 'u' {
			for k < len(text) && (text[k] >= 'a' && text[k] <= 'z' || text[k] >= '0' && text[k] <= '9') {
				k++
			}
		} else {
			for k < len(text) {
				ch := text[k]
				if q != 0 {
					if ch == q || ch == '\n' {
						break
					}
				} else if ch <= ' ' || strings.IndexByte("\"'()[]{},;<>|`\\", ch) >= 0 {
					break
				}
				k++
			}
		}
		out = append(out, rawRef{text: strings.TrimRight(text[start:k], ".:"), line: ln, kind: refText})
		i = k
	}
	return out
}

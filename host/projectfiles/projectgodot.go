package projectfiles

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// EnablePlugin returns project.godot's content with resPath listed in
// [editor_plugins] enabled=PackedStringArray(…), and whether anything changed.
// Every other byte of the file is kept as it was: the value is extended in place,
// the key is added to an existing section, or the section is appended at the end,
// using the file's own line ending.
func EnablePlugin(content []byte, resPath string) ([]byte, bool, error) {
	eol := "\n"
	if bytes.Contains(content, []byte("\r\n")) {
		eol = "\r\n"
	}
	lines := splitLines(string(content))
	section := ""
	headerLine := -1
	var st scanState
	for i := 0; i < len(lines); i++ {
		body := strings.TrimRight(lines[i], "\r\n")
		if st.atTop() {
			trimmed := strings.TrimSpace(body)
			if isSectionHeader(trimmed) {
				section = trimmed[1 : len(trimmed)-1]
				if section == "editor_plugins" && headerLine < 0 {
					headerLine = i
				}
				continue
			}
			if section == "editor_plugins" {
				if key, _, ok := strings.Cut(body, "="); ok && strings.TrimSpace(key) == "enabled" {
					// The value may span lines (Godot writes it on one).
					end := i
					var vs scanState
					vs.scan(lines[i])
					for !vs.atTop() && end+1 < len(lines) {
						end++
						vs.scan(lines[end])
					}
					return enableInValue(lines, i, end, resPath)
				}
			}
		}
		st.scan(lines[i])
	}
	entry := "enabled=PackedStringArray(" + strconv.Quote(resPath) + ")" + eol
	if headerLine >= 0 {
		// Add the key under the existing header (after its blank line, Godot's style).
		at := headerLine + 1
		if at < len(lines) && strings.TrimSpace(lines[at]) == "" {
			at++
		}
		out := append([]string{}, lines[:at]...)
		out = append(out, entry)
		out = append(out, lines[at:]...)
		return []byte(strings.Join(out, "")), true, nil
	}
	var b strings.Builder
	b.Write(content)
	if len(content) > 0 && !bytes.HasSuffix(content, []byte("\n")) {
		b.WriteString(eol)
	}
	if len(content) > 0 {
		b.WriteString(eol)
	}
	b.WriteString("[editor_plugins]" + eol + eol + entry)
	return []byte(b.String()), true, nil
}

// enableInValue handles an existing enabled= spanning lines[start..end].
func enableInValue(lines []string, start, end int, resPath string) ([]byte, bool, error) {
	var raw strings.Builder
	for i := start; i <= end; i++ {
		raw.WriteString(lines[i])
	}
	full := raw.String()
	ending := full[len(strings.TrimRight(full, "\r\n")):]
	text := strings.TrimRight(full, "\r\n")
	_, value, _ := strings.Cut(text, "=")
	items, closeAt, err := parsePackedStringArray(value)
	if err != nil {
		return nil, false, fmt.Errorf("cannot read [editor_plugins] enabled=%s (%v); enable the plugin in Project > Project Settings > Plugins instead", strings.TrimSpace(value), err)
	}
	for _, it := range items {
		if it == resPath {
			return nil, false, nil
		}
	}
	// Insert just before the closing parenthesis, keeping the rest of the line.
	valueStart := len(text) - len(value)
	at := valueStart + closeAt
	insert := strconv.Quote(resPath)
	if len(items) > 0 {
		insert = ", " + insert
	}
	updated := text[:at] + insert + text[at:]
	out := append([]string{}, lines[:start]...)
	out = append(out, updated+ending)
	out = append(out, lines[end+1:]...)
	return []byte(strings.Join(out, "")), true, nil
}

// parsePackedStringArray reads ` PackedStringArray("a", "b")` and returns the
// strings and the offset of the closing parenthesis within s.
func parsePackedStringArray(s string) ([]string, int, error) {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
	}
	skip()
	const prefix = "PackedStringArray("
	if !strings.HasPrefix(s[i:], prefix) {
		return nil, 0, fmt.Errorf("expected PackedStringArray(…)")
	}
	i += len(prefix)
	var items []string
	for {
		skip()
		if i >= len(s) {
			return nil, 0, fmt.Errorf("missing ')'")
		}
		if s[i] == ')' {
			rest := strings.TrimSpace(s[i+1:])
			if rest != "" && !strings.HasPrefix(rest, ";") {
				return nil, 0, fmt.Errorf("unexpected %q after ')'", rest)
			}
			return items, i, nil
		}
		if len(items) > 0 {
			if s[i] != ',' {
				return nil, 0, fmt.Errorf("expected ',' or ')' at %q", s[i:])
			}
			i++
			skip()
		}
		if i >= len(s) || s[i] != '"' {
			return nil, 0, fmt.Errorf("expected a quoted string")
		}
		j := i + 1
		var b strings.Builder
		for ; j < len(s) && s[j] != '"'; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
			b.WriteByte(s[j])
		}
		if j >= len(s) {
			return nil, 0, fmt.Errorf("unterminated string")
		}
		items = append(items, b.String())
		i = j + 1
	}
}

// splitLines splits s after each "\n", keeping the line endings, so joining the
// parts gives s back byte for byte.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		n := strings.IndexByte(s, '\n')
		if n < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:n+1])
		s = s[n+1:]
	}
	return out
}

func isSectionHeader(t string) bool {
	if len(t) < 3 || t[0] != '[' || t[len(t)-1] != ']' {
		return false
	}
	for _, r := range t[1 : len(t)-1] {
		if !(r == '_' || r == '-' || r == '.' || r == '/' || r == ' ' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// scanState follows brackets and strings across lines, so multi-line values
// (input maps, dictionaries, strings with line breaks) are never mistaken for
// section headers or keys.
type scanState struct {
	depth    int
	inString bool
}

func (s *scanState) atTop() bool { return s.depth == 0 && !s.inString }

func (s *scanState) scan(line string) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if s.inString {
			if c == '\\' {
				i++
			} else if c == '"' {
				s.inString = false
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		case ';':
			if s.depth == 0 {
				return // a comment runs to the end of the line
			}
		}
	}
}

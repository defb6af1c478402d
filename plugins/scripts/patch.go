package scripts

import (
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// textStyle is how a file indents and ends its lines.
type textStyle struct {
	eol        string // "\n" or "\r\n"
	tabs       bool   // indents with tabs
	spaceUnit  int    // spaces per level when !tabs
	hasIndents bool   // any indented line was seen
}

func (s textStyle) indentName() string {
	if !s.hasIndents {
		return "none"
	}
	if s.tabs {
		return "tabs"
	}
	return fmt.Sprintf("%d spaces", s.spaceUnit)
}

func (s textStyle) eolName() string {
	if s.eol == "\r\n" {
		return "crlf"
	}
	return "lf"
}

// detectStyle reads the indentation and line-ending style of src: CRLF when
// most line breaks are CRLF; tabs when at least as many indented lines start
// with a tab as with a space; the space unit is the gcd of the space
// indentations (4 when unclear).
func detectStyle(src string) textStyle {
	st := textStyle{eol: "\n", tabs: true, spaceUnit: 4}
	crlf := strings.Count(src, "\r\n")
	if lf := strings.Count(src, "\n"); crlf > 0 && crlf*2 >= lf {
		st.eol = "\r\n"
	}
	tabLines, spaceLines, unit := 0, 0, 0
	for _, line := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		switch line[0] {
		case '\t':
			tabLines++
		case ' ':
			spaceLines++
			n := len(line) - len(strings.TrimLeft(line, " "))
			unit = gcd(unit, n)
		}
	}
	st.hasIndents = tabLines+spaceLines > 0
	if spaceLines > tabLines {
		st.tabs = false
		if unit >= 2 && unit <= 8 {
			st.spaceUnit = unit
		}
	}
	return st
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// spaceUnitOf guesses how many spaces make one level in text: the gcd of its
// space indentations when that is 2 or 3, else 4 (a lone 8-space line is two
// levels, not one).
func spaceUnitOf(text string) int {
	unit := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" || line[0] != ' ' {
			continue
		}
		unit = gcd(unit, len(line)-len(strings.TrimLeft(line, " ")))
	}
	if unit == 2 || unit == 3 {
		return unit
	}
	return 4
}

// withEOL turns text's line breaks (LF or CRLF) into eol.
func withEOL(text, eol string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if eol == "\n" {
		return text
	}
	return strings.ReplaceAll(text, "\n", eol)
}

// reindent rewrites the leading indentation of each line of text (LF line
// breaks) into the file's style: in a tab-indented file, lines indented only
// with spaces get tabs (space unit guessed from text); in a space-indented
// file, leading tabs become spaceUnit spaces. Alignment spaces after tabs are
// kept. It reports whether anything changed.
func reindent(text string, st textStyle) (string, bool) {
	if !st.hasIndents {
		return text, false
	}
	unit := spaceUnitOf(text)
	lines := strings.Split(text, "\n")
	changed := false
	for i, line := range lines {
		ws := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if ws == "" || strings.TrimSpace(line) == "" {
			continue
		}
		var nws string
		if st.tabs {
			if ws[0] != ' ' || strings.Contains(ws, "\t") {
				continue
			}
			nws = strings.Repeat("\t", len(ws)/unit) + strings.Repeat(" ", len(ws)%unit)
		} else {
			if !strings.Contains(ws, "\t") {
				continue
			}
			var b strings.Builder
			for _, c := range ws {
				if c == '\t' {
					b.WriteString(strings.Repeat(" ", st.spaceUnit))
				} else {
					b.WriteRune(c)
				}
			}
			nws = b.String()
		}
		if nws != ws {
			lines[i] = nws + line[len(ws):]
			changed = true
		}
	}
	return strings.Join(lines, "\n"), changed
}

// Edit is one anchored replacement.
type Edit struct {
	Old string `json:"old" jsonschema:"minLength=1" description:"exact text to replace; must occur once (after earlier edits): include neighbouring lines"`
	New string `json:"new" description:"the replacement text (may be empty to delete)"`
}

// AppliedEdit says where an edit landed.
type AppliedEdit struct {
	Index           int  `json:"index" description:"position in edits"`
	Line            int  `json:"line" description:"1-based line where the replaced text started"`
	IndentConverted bool `json:"indent_converted" description:"old and/or new were re-indented to the file's style (tabs or spaces)"`
}

// applyEdits applies edits in order to src, keeping src's line endings and
// indentation style. Every old text must match exactly once, else nothing is
// applied and the error is VALIDATION_ERROR naming the edit and the count.
func applyEdits(src string, edits []Edit) (string, []AppliedEdit, textStyle, error) {
	st := detectStyle(src)
	applied := make([]AppliedEdit, 0, len(edits))
	for i, e := range edits {
		oldLF := strings.ReplaceAll(e.Old, "\r\n", "\n")
		if oldLF == "" {
			return "", nil, st, sdk.Validation(fmt.Sprintf("edits[%d].old is empty; give the exact text to replace", i))
		}
		anchor := withEOL(oldLF, st.eol)
		converted := false
		n := strings.Count(src, anchor)
		if n == 0 {
			if re, ok := reindent(oldLF, st); ok {
				if c := strings.Count(src, withEOL(re, st.eol)); c > 0 {
					anchor, n, converted = withEOL(re, st.eol), c, true
				}
			}
		}
		if n != 1 {
			return "", nil, st, anchorError(i, n, oldLF, src)
		}
		newLF := strings.ReplaceAll(e.New, "\r\n", "\n")
		if re, ok := reindent(newLF, st); ok {
			newLF, converted = re, true
		}
		at := strings.Index(src, anchor)
		line := 1 + strings.Count(src[:at], "\n")
		src = src[:at] + withEOL(newLF, st.eol) + src[at+len(anchor):]
		applied = append(applied, AppliedEdit{Index: i, Line: line, IndentConverted: converted})
	}
	return src, applied, st, nil
}

// anchorError explains an anchor that matched n != 1 times, naming the lines
// where its first line occurs so the agent can widen or fix it.
func anchorError(i, n int, oldLF, src string) error {
	first := strings.TrimSpace(strings.SplitN(oldLF, "\n", 2)[0])
	var at []string
	if first != "" {
		for ln, l := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
			if strings.Contains(l, first) {
				at = append(at, fmt.Sprint(ln+1))
				if len(at) == 10 {
					at = append(at, "…")
					break
				}
			}
		}
	}
	where := ""
	if len(at) > 0 {
		where = fmt.Sprintf(" Its first line %q occurs on line(s) %s.", first, strings.Join(at, ", "))
	}
	if n == 0 {
		return sdk.Validation(fmt.Sprintf("edits[%d].old matches 0 times: the text is not in the file (edits before it already applied in order).%s Read the current text with godot_scripts_read and copy it exactly, whitespace included; nothing was changed.", i, where))
	}
	return sdk.Validation(fmt.Sprintf("edits[%d].old matches %d times; it must match exactly once. Include more of the surrounding lines to make it unique.%s Nothing was changed.", i, n, where))
}

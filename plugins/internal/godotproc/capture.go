package godotproc

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Error is an error or warning Godot printed.
type Error struct {
	Severity string  `json:"severity" description:"error or warning"`
	Message  string  `json:"message" description:"the text after ERROR: / SCRIPT ERROR: / WARNING:"`
	File     string  `json:"file,omitempty" description:"the innermost script frame when Godot printed a backtrace, else the reported location"`
	Line     int     `json:"line,omitempty"`
	Function string  `json:"function,omitempty"`
	Stack    []Frame `json:"stack,omitempty" description:"the GDScript backtrace, innermost first, when printed"`
}

// Frame is one frame of a GDScript backtrace.
type Frame struct {
	File     string `json:"file" description:"res:// path of the script"`
	Line     int    `json:"line"`
	Function string `json:"function"`
}

// MaxErrors bounds Result.Errors.
const MaxErrors = 100

// capture keeps the start and the end of a process's output and parses every
// line for errors on the way, so errors in a cut middle are still reported.
type capture struct {
	mu      sync.Mutex
	headMax int
	tailMax int
	head    []byte
	tail    []byte
	total   int64
	line    []byte
	parser  errorParser
	onLine  func(string)
}

const maxLineBytes = 64 << 10

func newCapture(maxBytes int, onLine func(string)) *capture {
	return &capture{headMax: maxBytes / 4, tailMax: maxBytes - maxBytes/4, onLine: onLine}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	rest := p
	if room := c.headMax - len(c.head); room > 0 {
		n := min(room, len(rest))
		c.head = append(c.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) > 0 {
		c.tail = append(c.tail, rest...)
		if len(c.tail) > 2*c.tailMax {
			c.tail = append([]byte(nil), c.tail[len(c.tail)-c.tailMax:]...)
		}
	}
	for _, b := range p {
		if b == '\n' {
			c.feed(strings.TrimRight(clean(string(c.line)), "\r"))
			c.line = c.line[:0]
			continue
		}
		if len(c.line) < maxLineBytes {
			c.line = append(c.line, b)
		}
	}
	return len(p), nil
}

func (c *capture) feed(line string) {
	c.parser.feed(line)
	if c.onLine != nil {
		c.onLine(line)
	}
}

func (c *capture) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.line) > 0 {
		c.feed(strings.TrimRight(clean(string(c.line)), "\r"))
		c.line = nil
	}
	c.parser.flush()
}

// text returns the kept output (valid UTF-8, colour codes removed), the total
// byte count and whether the middle was cut.
func (c *capture) text() (string, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := c.tail
	if len(tail) > c.tailMax {
		tail = tail[len(tail)-c.tailMax:]
	}
	kept := int64(len(c.head) + len(tail))
	if kept >= c.total {
		return clean(string(c.head) + string(tail)), c.total, false
	}
	head := trimRunes(string(c.head), false)
	end := trimRunes(string(tail), true)
	return clean(head) + fmt.Sprintf("\n…[%d bytes cut]…\n", c.total-kept) + clean(end), c.total, true
}

func (c *capture) errors() ([]Error, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	errs := c.parser.found
	if errs == nil {
		errs = []Error{}
	}
	return errs, c.parser.dropped > 0
}

// trimRunes drops a rune cut in half at the end (or, with atStart, the start).
func trimRunes(s string, atStart bool) string {
	if atStart {
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		return s
	}
	for i := 0; i < utf8.UTFMax && len(s) > 0; i++ {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")

// StripANSI removes terminal colour codes.
func StripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

func clean(s string) string { return strings.ToValidUTF8(StripANSI(s), "\uFFFD") }

// errorParser reads Godot's error blocks:
//
//	SCRIPT ERROR: Invalid call. Nonexistent function 'foo' in base 'Node2D'.
//	          at: _ready (res://main.gd:12)
//	USER ERROR: boom
//	   at: push_error (core/variant/variant_utility.cpp:1098)
//	   GDScript backtrace (most recent call first):
//	       [0] explode (res://main.gd:30)
type errorParser struct {
	found   []Error
	cur     *Error
	dropped int
}

var (
	errStartRE = regexp.MustCompile(`^\s*(?:USER )?(?:SCRIPT )?(ERROR|WARNING):\s*(.*)$`)
	errAtRE    = regexp.MustCompile(`^\s+at:\s*(.*?)\s*\((.*):(\d+)\)\s*$`)
	errFrameRE = regexp.MustCompile(`^\s+\[\d+\]\s*(.*?)\s*\((.*):(\d+)\)\s*$`)
	// With -d, a script error breaks into the local debugger instead:
	//	Debugger Break, Reason: 'Cannot call method 'get_name' on a null value.'
	//	*Frame 0 - res://test/test_err.gd:5 in function 'test_crash'
	breakRE      = regexp.MustCompile(`^(?:debug> )?Debugger Break, Reason: '(.*)'\s*$`)
	breakFrameRE = regexp.MustCompile(`^\*Frame \d+ - (.*):(\d+) in function '(.*)'\s*$`)
)

func (p *errorParser) feed(line string) {
	line = strings.TrimRight(line, "\r")
	if m := breakRE.FindStringSubmatch(line); m != nil {
		p.flush()
		p.cur = &Error{Severity: "error", Message: m[1]}
		return
	}
	if m := breakFrameRE.FindStringSubmatch(line); m != nil {
		if p.cur != nil && p.cur.File == "" {
			n, _ := strconv.Atoi(m[2])
			p.cur.File, p.cur.Line, p.cur.Function = m[1], n, m[3]
			p.flush()
		}
		return
	}
	if m := errStartRE.FindStringSubmatch(line); m != nil {
		p.flush()
		sev := "error"
		if m[1] == "WARNING" {
			sev = "warning"
		}
		p.cur = &Error{Severity: sev, Message: m[2]}
		return
	}
	if p.cur == nil {
		return
	}
	if m := errAtRE.FindStringSubmatch(line); m != nil && p.cur.File == "" {
		n, _ := strconv.Atoi(m[3])
		p.cur.Function, p.cur.File, p.cur.Line = m[1], m[2], n
		return
	}
	if m := errFrameRE.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[3])
		p.cur.Stack = append(p.cur.Stack, Frame{File: m[2], Line: n, Function: m[1]})
		return
	}
	if strings.Contains(line, "backtrace") && strings.HasPrefix(line, " ") {
		return
	}
	p.flush()
}

func (p *errorParser) flush() {
	if p.cur == nil {
		return
	}
	e := *p.cur
	p.cur = nil
	e.Message = strings.ToValidUTF8(e.Message, "\uFFFD")
	// The error's place is the script line "at:" names; where "at:" is in the
	// engine's C++ (push_error, an engine check), the innermost script frame.
	// Since Godot 4.5 a parse error carries the loading script's backtrace
	// too, and its "at:" (GDScript::reload in the broken file) is the place.
	if len(e.Stack) > 0 && !strings.HasPrefix(e.File, "res://") {
		e.File, e.Line, e.Function = e.Stack[0].File, e.Stack[0].Line, e.Stack[0].Function
	}
	if len(p.found) >= MaxErrors {
		p.dropped++
		return
	}
	p.found = append(p.found, e)
}

// ErrorParser reads Godot's error blocks from output lines (colour codes
// already removed), for callers that split the output themselves.
type ErrorParser struct{ p errorParser }

// Feed reads one line.
func (e *ErrorParser) Feed(line string) { e.p.feed(line) }

// Take ends the block being read and returns the errors found since the
// last Take.
func (e *ErrorParser) Take() []Error {
	e.p.flush()
	out := e.p.found
	e.p.found = nil
	return out
}

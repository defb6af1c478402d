// Package rawjson reads JSON on the hot paths of a tool call without the
// repeated full passes of encoding/json: it validates, splits an object into
// its members' raw bytes, and decodes into the same Go values
// json.Unmarshal(data, &any) gives. Long strings (base64 images, script
// sources, scene dumps) are skipped eight bytes at a time.
//
// Its behaviour is encoding/json's, checked by differential fuzzing
// (FuzzValid, FuzzDecode, FuzzObject); only error messages differ.
package rawjson

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// SyntaxError is malformed JSON at byte Offset. Trailing is set when a
// whole value was read and something other than whitespace follows it.
type SyntaxError struct {
	Offset   int
	Trailing bool
	msg      string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.msg)
}

// ErrNotObject is returned by Object for valid JSON that is not an object.
var ErrNotObject = errors.New("not a JSON object")

// Valid reports whether data is exactly one JSON value, optionally
// surrounded by whitespace, as json.Valid does.
func Valid(data []byte) bool {
	s := scanner{data: data}
	s.skipSpace()
	if s.value(0) != nil {
		return false
	}
	s.skipSpace()
	return s.pos == len(data)
}

// Member is one member of a JSON object: its key, unescaped, and its value
// as raw JSON (no surrounding whitespace).
type Member struct {
	Key   string
	Value []byte
}

// Object splits data, which must be exactly one JSON object (whitespace
// around it allowed), into its members in document order. Every value is
// validated. Duplicate keys are kept; Get returns the last, as
// json.Unmarshal would.
func Object(data []byte) ([]Member, error) {
	s := scanner{data: data}
	s.skipSpace()
	if s.pos < len(data) && data[s.pos] != '{' {
		if err := s.value(0); err != nil {
			return nil, err
		}
		return nil, ErrNotObject
	}
	var members []Member
	if s.pos >= len(data) {
		return nil, s.fail("unexpected end of input")
	}
	s.pos++ // '{'
	s.skipSpace()
	if s.pos < len(data) && data[s.pos] == '}' {
		s.pos++
	} else {
		for {
			s.skipSpace()
			key, err := s.key()
			if err != nil {
				return nil, err
			}
			s.skipSpace()
			start := s.pos
			if err := s.value(1); err != nil {
				return nil, err
			}
			members = append(members, Member{Key: key, Value: data[start:s.pos]})
			s.skipSpace()
			if s.pos >= len(data) {
				return nil, s.fail("unexpected end of input in object")
			}
			c := data[s.pos]
			s.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				s.pos--
				return nil, s.fail("expected , or } in object")
			}
		}
	}
	s.skipSpace()
	if s.pos != len(data) {
		return nil, s.fail("data after the object")
	}
	return members, nil
}

// Get returns the raw value of the last member named key (encoding/json
// matches names case-insensitively only for struct fields; these are map
// semantics: exact match).
func Get(members []Member, key string) ([]byte, bool) {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key == key {
			return members[i].Value, true
		}
	}
	return nil, false
}

// Decode decodes data as json.Unmarshal into an `any` does: objects become
// map[string]any, arrays []any, numbers float64 (json.Number with
// useNumber, as json.Decoder.UseNumber), and strings have invalid UTF-8 and
// lone surrogates replaced by U+FFFD.
func Decode(data []byte, useNumber bool) (any, error) {
	s := scanner{data: data, useNumber: useNumber}
	s.skipSpace()
	v, err := s.decode(0)
	if err != nil {
		return nil, err
	}
	s.skipSpace()
	if s.pos != len(data) {
		return nil, &SyntaxError{Offset: s.pos, Trailing: true, msg: "data after the value"}
	}
	return v, nil
}

type scanner struct {
	data      []byte
	pos       int
	useNumber bool
}

func (s *scanner) fail(msg string) error { return &SyntaxError{Offset: s.pos, msg: msg} }

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value skips one value, validating it.
func (s *scanner) value(depth int) error {
	if s.pos >= len(s.data) {
		return s.fail("unexpected end of input")
	}
	switch c := s.data[s.pos]; {
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '{':
		if depth >= maxDepth {
			return s.fail("exceeded max depth")
		}
		s.pos++
		s.skipSpace()
		if s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			return nil
		}
		for {
			s.skipSpace()
			if s.pos >= len(s.data) || s.data[s.pos] != '"' {
				return s.fail("expected a string key")
			}
			if _, _, err := s.str(); err != nil {
				return err
			}
			s.skipSpace()
			if s.pos >= len(s.data) || s.data[s.pos] != ':' {
				return s.fail("expected : after an object key")
			}
			s.pos++
			s.skipSpace()
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.skipSpace()
			if s.pos >= len(s.data) {
				return s.fail("unexpected end of input in object")
			}
			c := s.data[s.pos]
			s.pos++
			if c == '}' {
				return nil
			}
			if c != ',' {
				s.pos--
				return s.fail("expected , or } in object")
			}
		}
	case c == '[':
		if depth >= maxDepth {
			return s.fail("exceeded max depth")
		}
		s.pos++
		s.skipSpace()
		if s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			return nil
		}
		for {
			s.skipSpace()
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.skipSpace()
			if s.pos >= len(s.data) {
				return s.fail("unexpected end of input in array")
			}
			c := s.data[s.pos]
			s.pos++
			if c == ']' {
				return nil
			}
			if c != ',' {
				s.pos--
				return s.fail("expected , or ] in array")
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := s.number()
		return err
	default:
		return s.literal()
	}
}

// key reads an object key and the ':' after it.
func (s *scanner) key() (string, error) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", s.fail("expected a string key")
	}
	start := s.pos
	end, escaped, err := s.str()
	if err != nil {
		return "", err
	}
	key := unquote(s.data[start+1:end-1], escaped)
	s.skipSpace()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return "", s.fail("expected : after an object key")
	}
	s.pos++
	s.skipSpace()
	return key, nil
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainRun returns how many leading bytes of b are neither '"', '\\' nor a
// control character, checking eight bytes at a time.
func plainRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ (ones * '"')
		bs := x ^ (ones * '\\')
		special := ((x - ones*0x20) & ^x) | ((q - ones) & ^q) | ((bs - ones) & ^bs)
		if special&highs != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

// str skips a string starting at the opening quote; it returns the index
// just past the closing quote and whether it holds escapes.
func (s *scanner) str() (end int, escaped bool, err error) {
	i := s.pos + 1
	for {
		i += plainRun(s.data[i:])
		if i >= len(s.data) {
			s.pos = i
			return 0, false, s.fail("unexpected end of input in string")
		}
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(s.data) {
				s.pos = i + 1
				return 0, false, s.fail("unexpected end of input in string escape")
			}
			switch s.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.data) {
					s.pos = len(s.data)
					return 0, false, s.fail("unexpected end of input in \\u escape")
				}
				for _, h := range s.data[i+2 : i+6] {
					if !isHex(h) {
						s.pos = i + 2
						return 0, false, s.fail("invalid \\u escape")
					}
				}
				i += 6
			default:
				s.pos = i + 1
				return 0, false, s.fail("invalid escape in string")
			}
		default:
			s.pos = i
			return 0, false, s.fail("control character in string")
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number skips a number, returning its text.
func (s *scanner) number() ([]byte, error) {
	d, start := s.data, s.pos
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		s.pos = i
		return nil, s.fail("invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.pos = i
			return nil, s.fail("invalid number: digits expected after '.'")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.pos = i
			return nil, s.fail("invalid number: digits expected in exponent")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	s.pos = i
	return d[start:i], nil
}

func (s *scanner) literal() error {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(s.data)-s.pos >= len(lit) && string(s.data[s.pos:s.pos+len(lit)]) == lit {
			s.pos += len(lit)
			return nil
		}
	}
	return s.fail("invalid character")
}

// decode reads one value into Go values.
func (s *scanner) decode(depth int) (any, error) {
	if s.pos >= len(s.data) {
		return nil, s.fail("unexpected end of input")
	}
	switch c := s.data[s.pos]; {
	case c == '"':
		start := s.pos
		end, escaped, err := s.str()
		if err != nil {
			return nil, err
		}
		return unquote(s.data[start+1:end-1], escaped), nil
	case c == '{':
		if depth >= maxDepth {
			return nil, s.fail("exceeded max depth")
		}
		s.pos++
		m := map[string]any{}
		s.skipSpace()
		if s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			return m, nil
		}
		for {
			s.skipSpace()
			k, err := s.key()
			if err != nil {
				return nil, err
			}
			v, err := s.decode(depth + 1)
			if err != nil {
				return nil, err
			}
			m[k] = v
			s.skipSpace()
			if s.pos >= len(s.data) {
				return nil, s.fail("unexpected end of input in object")
			}
			c := s.data[s.pos]
			s.pos++
			if c == '}' {
				return m, nil
			}
			if c != ',' {
				s.pos--
				return nil, s.fail("expected , or } in object")
			}
		}
	case c == '[':
		if depth >= maxDepth {
			return nil, s.fail("exceeded max depth")
		}
		s.pos++
		a := []any{}
		s.skipSpace()
		if s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			return a, nil
		}
		for {
			s.skipSpace()
			v, err := s.decode(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			s.skipSpace()
			if s.pos >= len(s.data) {
				return nil, s.fail("unexpected end of input in array")
			}
			c := s.data[s.pos]
			s.pos++
			if c == ']' {
				return a, nil
			}
			if c != ',' {
				s.pos--
				return nil, s.fail("expected , or ] in array")
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		start := s.pos
		num, err := s.number()
		if err != nil {
			return nil, err
		}
		if s.useNumber {
			return json.Number(num), nil
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			return nil, &SyntaxError{Offset: start, msg: "number " + string(num) + " does not fit a float64"}
		}
		return f, nil
	case c == 't':
		if err := s.literal(); err != nil {
			return nil, err
		}
		return true, nil
	case c == 'f':
		if err := s.literal(); err != nil {
			return nil, err
		}
		return false, nil
	case c == 'n':
		if err := s.literal(); err != nil {
			return nil, err
		}
		return nil, nil
	default:
		return nil, s.fail("invalid character")
	}
}

// unquote decodes the body of a string already validated by str, as
// encoding/json does: invalid UTF-8 and unpaired surrogates become U+FFFD.
func unquote(b []byte, escaped bool) string {
	if !escaped && utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+2*utf8.UTFMax)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\':
			switch b[i+1] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(b[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(b[i+2:i+6])); dec != unicode.ReplacementChar {
							out = utf8.AppendRune(out, dec)
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, r)
				continue
			default: // '"', '\\', '/'
				out = append(out, b[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

var (
	minInt64  = new(big.Float).SetInt64(math.MinInt64)
	maxUint64 = new(big.Float).SetUint64(math.MaxUint64)
)

// MaxProblems bounds how many problems one hint lists.
const MaxProblems = 8

// validator checks a decoded JSON value against a generated schema and fills
// in declared defaults for missing optional members.
type validator struct {
	root     *Schema
	problems []string
	filled   bool // a default was inserted: the value must be re-encoded
}

// ArgumentError is a refusal of a tool call's arguments: Hint names every
// bad field (up to MaxProblems) with what it expected, e.g.
// "arguments.count: expected integer, got string \"3\"". Callers answer it
// as VALIDATION_ERROR.
type ArgumentError struct {
	Hint     string
	Problems []string
}

func (e *ArgumentError) Error() string { return e.Hint }

// Validate decodes raw (a JSON object; empty or null is {}), validates it
// against s and returns the arguments with declared defaults filled in and
// integral numbers of integer fields written as integers, plus the decoded
// value (json.Number numbers). A refusal is *ArgumentError; any other error
// is an internal failure.
func Validate(s *Schema, raw json.RawMessage) (json.RawMessage, any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = json.RawMessage("{}")
	}
	// rawjson: arguments can be megabytes (a script, an image), and
	// encoding/json would read them twice more here.
	v, err := rawjson.Decode(raw, true)
	if serr, ok := err.(*rawjson.SyntaxError); ok && serr.Trailing {
		return nil, nil, &ArgumentError{Hint: "arguments must be a single JSON object"}
	}
	if err != nil {
		return nil, nil, &ArgumentError{Hint: fmt.Sprintf("arguments are not valid JSON: %v", err)}
	}
	val := &validator{root: s}
	v = val.check(s, v, "arguments")
	if len(val.problems) > 0 {
		hint := strings.Join(val.problems, "; ")
		if len(val.problems) == MaxProblems {
			hint += "; (more problems not listed)"
		}
		return nil, nil, &ArgumentError{Hint: hint + ".", Problems: val.problems}
	}
	if !val.filled {
		return raw, v, nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("re-encoding arguments with defaults failed: %v", err)
	}
	return out, v, nil
}

func (v *validator) fail(path, format string, args ...any) {
	if len(v.problems) < MaxProblems {
		v.problems = append(v.problems, path+": "+fmt.Sprintf(format, args...))
	}
}

func (v *validator) resolve(s *Schema) *Schema {
	for s.Ref != "" {
		name := strings.TrimPrefix(s.Ref, "#/$defs/")
		d := v.root.Defs[name]
		if d == nil {
			return &Schema{}
		}
		s = d
	}
	return s
}

// jsonType names a decoded value's JSON type.
func jsonType(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if isInteger(x) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// isInteger reports whether n is integral (1, -3, 2.0, 1e3).
func isInteger(n json.Number) bool {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		return true
	}
	f, ok := new(big.Float).SetString(s)
	return ok && f.IsInt()
}

func typeAllows(types schemaTypes, actual string) bool {
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if t == actual || (t == "number" && actual == "integer") {
			return true
		}
	}
	return false
}

// shortValue renders a bad value for a hint, truncated.
func shortValue(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return "?"
	}
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// check validates x against s and returns x, normalised: defaults filled in
// and integral numbers written as integers ("2.0" → 2) where s wants an
// integer, so that encoding/json accepts them into Go integer fields.
func (v *validator) check(s *Schema, x any, path string) any {
	s = v.resolve(s)
	if len(s.AnyOf) > 0 {
		for _, alt := range s.AnyOf {
			probe := &validator{root: v.root}
			probe.check(alt, x, path)
			if len(probe.problems) == 0 {
				return v.check(alt, x, path) // again, to normalise
			}
		}
		v.fail(path, "expected %s, got %s %s", describeType(s), jsonType(x), shortValue(x))
		return x
	}
	actual := jsonType(x)
	if !typeAllows(s.Type, actual) {
		v.fail(path, "expected %s, got %s %s", describeType(s), actual, shortValue(x))
		return x
	}
	if len(s.Enum) > 0 && x != nil && !inEnum(s.Enum, x) {
		v.fail(path, "%s is not one of %s", shortValue(x), enumList(s.Enum))
		return x
	}
	switch x := x.(type) {
	case json.Number:
		if s.Type.has("integer") && strings.ContainsAny(x.String(), ".eE") {
			// Only within 64 bits: "1e999999999" must not become a huge integer.
			if f, ok := new(big.Float).SetString(x.String()); ok && f.IsInt() && f.Cmp(minInt64) >= 0 && f.Cmp(maxUint64) <= 0 {
				if i, acc := f.Int(nil); acc == big.Exact {
					v.filled = true
					n := json.Number(i.String())
					v.checkNumber(s, n, path)
					return n
				}
			}
		}
		v.checkNumber(s, x, path)
	case string:
		if s.MinLength != nil || s.MaxLength != nil { // counting runes of a megabyte string costs milliseconds
			n := runeLen(x)
			if s.MinLength != nil && n < *s.MinLength {
				v.fail(path, "must be at least %d characters long", *s.MinLength)
			}
			if s.MaxLength != nil && n > *s.MaxLength {
				v.fail(path, "must be at most %d characters long", *s.MaxLength)
			}
		}
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			v.fail(path, "needs at least %d items, got %d", *s.MinItems, len(x))
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			v.fail(path, "takes at most %d items, got %d", *s.MaxItems, len(x))
		}
		if s.Items != nil {
			for i, item := range x {
				x[i] = v.check(s.Items, item, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	case map[string]any:
		v.checkObject(s, x, path)
	}
	return x
}

func (v *validator) checkNumber(s *Schema, x json.Number, path string) {
	f, _ := x.Float64()
	if s.Minimum != nil && f < *s.Minimum {
		v.fail(path, "%s is below the minimum %v", x, *s.Minimum)
	}
	if s.Maximum != nil && f > *s.Maximum {
		v.fail(path, "%s is above the maximum %v", x, *s.Maximum)
	}
}

func (v *validator) checkObject(s *Schema, obj map[string]any, path string) {
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			expected := "a value"
			if s.Properties != nil {
				if ps := s.Properties.get(name); ps != nil {
					expected = describeType(v.resolve(ps))
					if ps.Description != "" {
						expected += ": " + ps.Description
					}
				}
			}
			v.fail(path+"."+name, "required field is missing (expected %s)", expected)
		}
	}
	for _, key := range sortedKeys(obj) {
		var ps *Schema
		if s.Properties != nil {
			ps = s.Properties.get(key)
		}
		switch {
		case ps != nil:
			obj[key] = v.check(ps, obj[key], path+"."+key)
		case s.AdditionalProperties != nil && s.AdditionalProperties.forbid:
			known := "none"
			if s.Properties != nil && len(s.Properties.list) > 0 {
				known = strings.Join(s.Properties.names(), ", ")
			}
			v.fail(path+"."+key, "unknown field (known fields: %s)", known)
		case s.AdditionalProperties != nil && s.AdditionalProperties.schema != nil:
			obj[key] = v.check(s.AdditionalProperties.schema, obj[key], path+"."+key)
		}
	}
	if s.Properties == nil {
		return
	}
	for _, p := range s.Properties.list {
		if _, ok := obj[p.name]; !ok && p.schema.Default != nil {
			dec := json.NewDecoder(bytes.NewReader(p.schema.Default))
			dec.UseNumber()
			var d any
			if dec.Decode(&d) == nil {
				obj[p.name] = d
				v.filled = true
			}
		}
	}
}

func inEnum(enum []any, x any) bool {
	for _, e := range enum {
		switch e := e.(type) {
		case string:
			if s, ok := x.(string); ok && s == e {
				return true
			}
		case int64:
			if n, ok := x.(json.Number); ok {
				if i, err := n.Int64(); err == nil && i == e {
					return true
				}
				if f, err := n.Float64(); err == nil && f == float64(e) {
					return true
				}
			}
		case float64:
			if n, ok := x.(json.Number); ok {
				if f, err := n.Float64(); err == nil && f == e {
					return true
				}
			}
		case bool:
			if b, ok := x.(bool); ok && b == e {
				return true
			}
		case nil:
			if x == nil {
				return true
			}
		}
	}
	return false
}

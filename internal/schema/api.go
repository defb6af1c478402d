// Package schema is godot-mcp's one JSON Schema engine: it generates a
// tool's input and output schemas from Go types (one tag dialect, for the
// core tools and for toolsets built with the SDK alike) and validates a
// call's arguments against an input schema, naming every bad field in one
// hint. The host validates every tool call with it, once, before anything
// runs; toolsets do not validate again.
//
// Tags: `json:"name,omitempty"` names a member (omitempty, omitzero or a
// pointer make it optional), `description:"..."` describes it, and
// `jsonschema:"k=v,k=v"` constrains it: required, optional, enum=a|b,
// minimum=N, maximum=N, minLength=N, maxLength=N, minItems=N, maxItems=N,
// default=V, format=F. An unknown key is a declaration error (so a typo
// never yields a silently empty schema).
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// For generates the object schema of t (a struct, or a map with string
// keys). It fails for types JSON cannot represent, non-object roots and
// malformed tags.
func For(t reflect.Type) (*Schema, error) { return buildSchema(t, false) }

// ForInput is For for a tool's arguments: a required slice is an array, not
// also null (an agent must send one).
func ForInput(t reflect.Type) (*Schema, error) { return buildSchema(t, true) }

// MustFor is For that panics on a declaration error (for types fixed at
// compile time, such as the core tools').
func MustFor[T any]() *Schema {
	s, err := For(reflect.TypeFor[T]())
	if err != nil {
		panic(fmt.Sprintf("schema for %s: %v", reflect.TypeFor[T](), err))
	}
	return s
}

// MustForInput is ForInput that panics on a declaration error.
func MustForInput[T any]() *Schema {
	s, err := ForInput(reflect.TypeFor[T]())
	if err != nil {
		panic(fmt.Sprintf("input schema for %s: %v", reflect.TypeFor[T](), err))
	}
	return s
}

// JSON is s encoded (field order is struct field order).
func (s *Schema) JSON() json.RawMessage {
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("schema: encoding a generated schema failed: %v", err))
	}
	return raw
}

// AddProperty appends an optional member to an object schema.
func (s *Schema) AddProperty(name string, p *Schema) {
	if s.Properties == nil {
		s.Properties = &properties{}
	}
	s.Properties.list = append(s.Properties.list, property{name: name, schema: p})
}

// Property returns the schema of the member name, or nil.
func (s *Schema) Property(name string) *Schema {
	if s.Properties == nil {
		return nil
	}
	return s.Properties.get(name)
}

// PropertyNames lists the object schema's members in order.
func (s *Schema) PropertyNames() []string {
	if s.Properties == nil {
		return nil
	}
	return s.Properties.names()
}

// Boolean is the schema of a boolean member with a description.
func Boolean(description string) *Schema {
	return &Schema{Type: schemaTypes{"boolean"}, Description: description}
}

// Field is one JSON member of a struct type, after encoding/json's rules.
type Field struct {
	Name   string // the JSON name
	GoName string // the Go field's name
}

// Fields lists the JSON members of struct type t (through pointers); nil
// for other types.
func Fields(t reflect.Type) []Field {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []Field
	for _, f := range structFields(t) {
		out = append(out, Field{Name: f.name, GoName: f.goName})
	}
	return out
}

// annotations are keywords Parse accepts and the validator ignores: they
// constrain nothing.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "examples": true,
	"readOnly": true, "writeOnly": true, "deprecated": true,
}

// Parse reads a JSON Schema written by this package (or by hand in its
// subset) for validation. A keyword the validator does not enforce (pattern,
// oneOf, exclusiveMinimum, ...) is an error rather than silently ignored, so
// what an input schema declares is what the host checks.
func Parse(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return &Schema{Type: schemaTypes{"object"}}, nil
	}
	var s Schema
	if err := parseInto(&s, raw, "#"); err != nil {
		return nil, err
	}
	return &s, nil
}

func parseInto(s *Schema, raw json.RawMessage, at string) error {
	if bytes.Equal(raw, []byte("true")) {
		return nil // any value
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: a schema must be a JSON object: %v", at, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		where := at + "/" + k
		var err error
		switch k {
		case "$ref":
			err = json.Unmarshal(v, &s.Ref)
		case "anyOf":
			var list []json.RawMessage
			if err = json.Unmarshal(v, &list); err == nil {
				for i, item := range list {
					alt := &Schema{}
					if err = parseInto(alt, item, fmt.Sprintf("%s/%d", where, i)); err != nil {
						return err
					}
					s.AnyOf = append(s.AnyOf, alt)
				}
			}
		case "type":
			var one string
			if json.Unmarshal(v, &one) == nil {
				s.Type = schemaTypes{one}
			} else {
				var many []string
				err = json.Unmarshal(v, &many)
				s.Type = many
			}
			for _, t := range s.Type {
				switch t {
				case "null", "boolean", "integer", "number", "string", "array", "object":
				default:
					return fmt.Errorf("%s: unknown type %q", where, t)
				}
			}
		case "description":
			err = json.Unmarshal(v, &s.Description)
		case "enum":
			dec := json.NewDecoder(bytes.NewReader(v))
			dec.UseNumber()
			var list []any
			if err = dec.Decode(&list); err == nil {
				for _, e := range list {
					if n, ok := e.(json.Number); ok {
						if i, ierr := n.Int64(); ierr == nil {
							e = i
						} else if f, ferr := n.Float64(); ferr == nil {
							e = f
						}
					}
					s.Enum = append(s.Enum, e)
				}
			}
		case "default":
			s.Default = append(json.RawMessage(nil), v...)
		case "format":
			err = json.Unmarshal(v, &s.Format)
		case "contentEncoding":
			err = json.Unmarshal(v, &s.ContentEncoding)
		case "minimum":
			err = json.Unmarshal(v, &s.Minimum)
		case "maximum":
			err = json.Unmarshal(v, &s.Maximum)
		case "minLength":
			err = json.Unmarshal(v, &s.MinLength)
		case "maxLength":
			err = json.Unmarshal(v, &s.MaxLength)
		case "minItems":
			err = json.Unmarshal(v, &s.MinItems)
		case "maxItems":
			err = json.Unmarshal(v, &s.MaxItems)
		case "items":
			s.Items = &Schema{}
			err = parseInto(s.Items, v, where)
		case "required":
			err = json.Unmarshal(v, &s.Required)
		case "properties":
			s.Properties, err = parseProperties(v, where)
		case "additionalProperties":
			var b bool
			if json.Unmarshal(v, &b) == nil {
				if !b {
					s.AdditionalProperties = &additional{forbid: true}
				}
				continue
			}
			add := &Schema{}
			if err = parseInto(add, v, where); err == nil {
				s.AdditionalProperties = &additional{schema: add}
			}
		case "$defs":
			var defs map[string]json.RawMessage
			if err = json.Unmarshal(v, &defs); err == nil {
				s.Defs = map[string]*Schema{}
				for name, d := range defs {
					ds := &Schema{}
					if err = parseInto(ds, d, where+"/"+name); err != nil {
						return err
					}
					s.Defs[name] = ds
				}
			}
		default:
			if !annotations[k] {
				return fmt.Errorf("%s: keyword %q is not supported (the host validates: type, enum, minimum, maximum, minLength, maxLength, items, minItems, maxItems, properties, required, additionalProperties, anyOf, $ref/$defs, default)", at, k)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
	}
	return nil
}

// parseProperties reads "properties" keeping the members' order.
func parseProperties(raw json.RawMessage, at string) (*properties, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("properties must be an object")
	}
	p := &properties{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ps := &Schema{}
		if err := parseInto(ps, v, at+"/"+name); err != nil {
			return nil, err
		}
		p.list = append(p.list, property{name: name, schema: ps})
	}
	return p, nil
}

// Describe names what s expects, for hints ("integer", "string (one of "a", "b")").
func Describe(s *Schema) string { return describeType(s) }

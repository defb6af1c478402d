package schema

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Schema is the subset of JSON Schema (2020-12) that the SDK generates from Go
// types and validates arguments against. Field order is the output order.
type Schema struct {
	Ref                  string             `json:"$ref,omitempty"`
	AnyOf                []*Schema          `json:"anyOf,omitempty"`
	Type                 schemaTypes        `json:"type,omitempty"`
	Description          string             `json:"description,omitempty"`
	Enum                 []any              `json:"enum,omitempty"`
	Default              json.RawMessage    `json:"default,omitempty"`
	Format               string             `json:"format,omitempty"`
	ContentEncoding      string             `json:"contentEncoding,omitempty"`
	Minimum              *float64           `json:"minimum,omitempty"`
	Maximum              *float64           `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	MinItems             *int               `json:"minItems,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	Properties           *properties        `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *additional        `json:"additionalProperties,omitempty"`
	Defs                 map[string]*Schema `json:"$defs,omitempty"`
}

// schemaTypes is "type": one name marshals as a string, several as an array.
type schemaTypes []string

func (t schemaTypes) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return json.Marshal(t[0])
	}
	return json.Marshal([]string(t))
}

func (t schemaTypes) has(name string) bool {
	for _, n := range t {
		if n == name {
			return true
		}
	}
	return false
}

// property is one named member of an object schema.
type property struct {
	name   string
	schema *Schema
}

// properties keeps struct field order in the generated JSON.
type properties struct{ list []property }

func (p *properties) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, pr := range p.list {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(pr.name)
		buf.Write(k)
		buf.WriteByte(':')
		v, err := json.Marshal(pr.schema)
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func (p *properties) get(name string) *Schema {
	for _, pr := range p.list {
		if pr.name == name {
			return pr.schema
		}
	}
	return nil
}

func (p *properties) names() []string {
	out := make([]string, len(p.list))
	for i, pr := range p.list {
		out[i] = pr.name
	}
	return out
}

// additional is "additionalProperties": false, or a schema for map values.
type additional struct {
	forbid bool
	schema *Schema
}

func (a *additional) MarshalJSON() ([]byte, error) {
	if a.forbid {
		return []byte("false"), nil
	}
	return json.Marshal(a.schema)
}

var (
	typeJSONMarshaler = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	typeTime          = reflect.TypeFor[time.Time]()
)

// schemaError is a mistake in a Go type or its tags (a declaration error).
type schemaError struct{ msg string }

func (e *schemaError) Error() string { return e.msg }

func buildSchema(t reflect.Type, input bool) (s *Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*schemaError)
			if !ok {
				panic(r)
			}
			s, err = nil, se
		}
	}()
	g := &generator{input: input, recursive: map[reflect.Type]bool{}, defNames: map[reflect.Type]string{}, defs: map[string]*Schema{}}
	g.findRecursive(t, map[reflect.Type]bool{})
	g.findShared(t, map[reflect.Type]int{}, true)
	root := g.body(t)
	if !root.Type.has("object") || root.Ref != "" {
		return nil, &schemaError{fmt.Sprintf("%s is not a JSON object type: use a struct (or a map with string keys)", t)}
	}
	// The root of an MCP tool schema must be an object, never null.
	root.Type = schemaTypes{"object"}
	if len(g.defs) > 0 {
		root.Defs = g.defs
	}
	return root, nil
}

type generator struct {
	input     bool                  // a tool's arguments: required slices are not nullable
	recursive map[reflect.Type]bool // recursive or shared: emitted once, under $defs
	defNames  map[reflect.Type]string
	defs      map[string]*Schema
}

func fail(format string, args ...any) { panic(&schemaError{fmt.Sprintf(format, args...)}) }

// findRecursive marks the struct types that contain themselves; only those
// go to $defs, everything else is inlined.
func (g *generator) findRecursive(t reflect.Type, onStack map[reflect.Type]bool) {
	if opaque(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		g.findRecursive(t.Elem(), onStack)
	case reflect.Map:
		g.findRecursive(t.Elem(), onStack)
	case reflect.Struct:
		if onStack[t] {
			g.recursive[t] = true
			return
		}
		onStack[t] = true
		for _, f := range structFields(t) {
			g.findRecursive(f.typ, onStack)
		}
		delete(onStack, t)
	}
}

// findShared marks the named struct types that occur more than once in the
// schema of t (counted as emitted: a shared type's own fields once): those
// go to $defs too, so a type used twice is written out once. The root is
// never a definition of its own.
func (g *generator) findShared(t reflect.Type, seen map[reflect.Type]int, root bool) {
	if opaque(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		g.findShared(t.Elem(), seen, false)
	case reflect.Struct:
		if !root && t.Name() != "" {
			seen[t]++
			if seen[t] > 1 {
				g.recursive[t] = true // emitted as a $ref, like a recursive type
				return
			}
		}
		if root {
			seen[t]++ // the root is always inlined; a use inside it is recursion
		}
		for _, f := range structFields(t) {
			g.findShared(f.typ, seen, false)
		}
	}
}

// opaque reports types whose JSON form the SDK does not derive from fields.
func opaque(t reflect.Type) bool {
	if t == typeTime {
		return true
	}
	return t.Implements(typeJSONMarshaler) || reflect.PointerTo(t).Implements(typeJSONMarshaler) ||
		t.Implements(typeTextMarshaler) || reflect.PointerTo(t).Implements(typeTextMarshaler)
}

var defNameRE = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// ref returns a $ref to t's definition, generating it once.
func (g *generator) ref(t reflect.Type) *Schema {
	name, ok := g.defNames[t]
	if !ok {
		base := defNameRE.ReplaceAllString(t.Name(), "_")
		if base == "" {
			base = "T"
		}
		name = base
		for i := 2; g.defs[name] != nil; i++ {
			name = base + strconv.Itoa(i)
		}
		g.defNames[t] = name
		g.defs[name] = &Schema{} // reserve the name before recursing
		*g.defs[name] = *g.object(t)
	}
	return &Schema{Ref: "#/$defs/" + name}
}

// body returns t's schema without ever turning t itself into a $ref.
func (g *generator) body(t reflect.Type) *Schema {
	if t.Kind() == reflect.Struct && !opaque(t) {
		return g.object(t)
	}
	return g.gen(t)
}

func (g *generator) gen(t reflect.Type) *Schema {
	switch {
	case t == typeTime:
		return &Schema{Type: schemaTypes{"string"}, Format: "date-time"}
	case t.Implements(typeJSONMarshaler) || reflect.PointerTo(t).Implements(typeJSONMarshaler):
		return &Schema{} // any JSON (json.RawMessage and custom marshalers)
	case t.Implements(typeTextMarshaler) || reflect.PointerTo(t).Implements(typeTextMarshaler):
		return &Schema{Type: schemaTypes{"string"}}
	}
	switch t.Kind() {
	case reflect.Bool:
		return &Schema{Type: schemaTypes{"boolean"}}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &Schema{Type: schemaTypes{"integer"}}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		zero := 0.0
		return &Schema{Type: schemaTypes{"integer"}, Minimum: &zero}
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: schemaTypes{"number"}}
	case reflect.String:
		return &Schema{Type: schemaTypes{"string"}}
	case reflect.Interface:
		return &Schema{}
	case reflect.Pointer:
		s := g.gen(t.Elem())
		return nullable(s)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !opaque(t.Elem()) {
			return &Schema{Type: schemaTypes{"string", "null"}, ContentEncoding: "base64"}
		}
		return &Schema{Type: schemaTypes{"array", "null"}, Items: g.gen(t.Elem())}
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && !opaque(t.Elem()) {
			fail("%s: fixed-size byte arrays have no JSON Schema; use []byte", t)
		}
		n := t.Len()
		return &Schema{Type: schemaTypes{"array"}, Items: g.gen(t.Elem()), MinItems: &n, MaxItems: &n}
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			if !t.Key().Implements(typeTextMarshaler) {
				fail("%s: map keys must be strings or integers", t)
			}
		}
		return &Schema{Type: schemaTypes{"object", "null"}, AdditionalProperties: &additional{schema: g.gen(t.Elem())}}
	case reflect.Struct:
		if g.recursive[t] {
			return g.ref(t)
		}
		return g.object(t)
	default:
		fail("%s: %s values have no JSON form", t, t.Kind())
	}
	return nil
}

// nullable lets s also accept null (what a nil pointer marshals to).
func nullable(s *Schema) *Schema {
	switch {
	case s.Ref != "":
		// "type" beside "$ref" would intersect, not widen: use anyOf.
		return &Schema{AnyOf: []*Schema{s, {Type: schemaTypes{"null"}}}}
	case len(s.Type) == 0 && len(s.AnyOf) == 0, s.Type.has("null"):
		return s // any JSON value, or already nullable
	case len(s.AnyOf) > 0:
		return s
	default:
		c := *s
		c.Type = append(append(schemaTypes{}, s.Type...), "null")
		return &c
	}
}

// field is one JSON member of a struct, after encoding/json's rules.
type field struct {
	name     string
	goName   string
	typ      reflect.Type
	index    []int
	optional bool // omitempty/omitzero, a pointer, or inside an embedded pointer
	asString bool // the ",string" option
	tag      reflect.StructTag
	depth    int
}

// structFields lists t's JSON members: exported fields, json names, embedded
// structs flattened, the shallowest of duplicate names kept (as encoding/json).
func structFields(t reflect.Type) []field {
	var all []field
	var walk func(t reflect.Type, index []int, depth int, viaPtr bool, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, depth int, viaPtr bool, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int{}, index...), i)
			ft := sf.Type
			if sf.Anonymous && name == "" {
				et := ft
				ptr := false
				if et.Kind() == reflect.Pointer {
					et, ptr = et.Elem(), true
				}
				if et.Kind() == reflect.Struct && !opaque(et) {
					walk(et, idx, depth+1, viaPtr || ptr, seen)
					continue
				}
				if !sf.IsExported() {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			f := field{name: name, goName: sf.Name, typ: ft, index: idx, tag: sf.Tag, depth: depth}
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitempty", "omitzero":
					f.optional = true
				case "string":
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
						reflect.Float32, reflect.Float64, reflect.String:
						f.asString = true
					}
				}
			}
			if ft.Kind() == reflect.Pointer || viaPtr {
				f.optional = true
			}
			all = append(all, f)
		}
	}
	walk(t, nil, 0, false, map[reflect.Type]bool{})
	// Keep, for each name, the single shallowest field; drop ambiguous ties.
	best := map[string][]int{}
	for i, f := range all {
		best[f.name] = append(best[f.name], i)
	}
	var out []field
	for i, f := range all {
		idxs := best[f.name]
		minDepth := math.MaxInt
		for _, j := range idxs {
			minDepth = min(minDepth, all[j].depth)
		}
		var atMin []int
		for _, j := range idxs {
			if all[j].depth == minDepth {
				atMin = append(atMin, j)
			}
		}
		if len(atMin) == 1 && atMin[0] == i {
			out = append(out, f)
		}
	}
	return out
}

// Tag keys accepted in `jsonschema:"..."`.
var tagKeys = []string{"required", "optional", "enum", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "default", "format"}

func (g *generator) object(t reflect.Type) *Schema {
	s := &Schema{Type: schemaTypes{"object"}, Properties: &properties{}, AdditionalProperties: &additional{forbid: true}}
	for _, f := range structFields(t) {
		ps := g.gen(f.typ)
		if f.asString {
			ps = &Schema{Type: schemaTypes{"string"}}
		}
		ps = copySchema(ps)
		required := !f.optional
		where := fmt.Sprintf("%s.%s", t, f.goName)
		if d, ok := f.tag.Lookup("description"); ok {
			ps.Description = d
		}
		if tag, ok := f.tag.Lookup("jsonschema"); ok {
			required = applyTag(ps, tag, required, where)
		}
		s.Properties.list = append(s.Properties.list, property{name: f.name, schema: ps})
		if required {
			s.Required = append(s.Required, f.name)
			if g.input && f.typ.Kind() == reflect.Slice && !f.asString && ps.Type.has("null") {
				ps.Type = slices.DeleteFunc(append(schemaTypes{}, ps.Type...), func(t string) bool { return t == "null" })
			}
		}
	}
	return s
}

func copySchema(s *Schema) *Schema {
	c := *s
	return &c
}

// applyTag applies one `jsonschema:"k=v,k=v"` tag to ps and returns whether
// the field is required.
func applyTag(ps *Schema, tag string, required bool, where string) bool {
	scalar := baseType(ps)
	for _, part := range strings.Split(tag, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, hasVal := strings.Cut(part, "=")
		needVal := func() {
			if !hasVal || val == "" {
				fail("%s: jsonschema tag %q needs a value (%s=...)", where, key, key)
			}
		}
		num := func() *float64 {
			needVal()
			v, err := strconv.ParseFloat(val, 64)
			if err != nil {
				fail("%s: jsonschema %s=%q is not a number", where, key, val)
			}
			return &v
		}
		count := func() *int {
			needVal()
			v, err := strconv.Atoi(val)
			if err != nil || v < 0 {
				fail("%s: jsonschema %s=%q is not a non-negative integer", where, key, val)
			}
			return &v
		}
		switch key {
		case "required":
			required = true
		case "optional":
			required = false
		case "enum":
			needVal()
			ps.Enum = nil
			for _, item := range strings.Split(val, "|") {
				ps.Enum = append(ps.Enum, tagValue(item, scalar, where, "enum"))
			}
		case "minimum":
			ps.Minimum = num()
		case "maximum":
			ps.Maximum = num()
		case "minLength":
			ps.MinLength = count()
		case "maxLength":
			ps.MaxLength = count()
		case "minItems":
			ps.MinItems = count()
		case "maxItems":
			ps.MaxItems = count()
		case "default":
			needVal()
			raw, _ := json.Marshal(tagValue(val, scalar, where, "default"))
			ps.Default = raw
		case "format":
			needVal()
			ps.Format = val
		default:
			fail("%s: unknown jsonschema tag key %q (known: %s; descriptions go in a separate `description:\"...\"` tag)", where, key, strings.Join(tagKeys, ", "))
		}
	}
	return required
}

// baseType is the non-null type name of a scalar schema, or "".
func baseType(s *Schema) string {
	for _, t := range s.Type {
		if t != "null" {
			return t
		}
	}
	return ""
}

// tagValue parses an enum item or default written in a tag for a field of
// JSON type typ.
func tagValue(v, typ, where, key string) any {
	switch typ {
	case "string":
		return v
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fail("%s: jsonschema %s value %q is not an integer", where, key, v)
		}
		return n
	case "number":
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			fail("%s: jsonschema %s value %q is not a number", where, key, v)
		}
		return n
	case "boolean":
		b, err := strconv.ParseBool(v)
		if err != nil || key == "enum" {
			fail("%s: jsonschema %s value %q does not fit a boolean", where, key, v)
		}
		return b
	default:
		if key == "default" {
			var x any
			if err := json.Unmarshal([]byte(v), &x); err != nil {
				fail("%s: jsonschema default=%q is not JSON", where, v)
			}
			return x
		}
		fail("%s: jsonschema %s needs a string, integer or number field", where, key)
	}
	return nil
}

// describeType names a schema's expected type for error hints.
func describeType(s *Schema) string {
	if s.Ref != "" || len(s.AnyOf) > 0 {
		return "object"
	}
	var names []string
	for _, t := range s.Type {
		if t != "null" {
			names = append(names, t)
		}
	}
	if len(names) == 0 {
		return "any JSON value"
	}
	out := strings.Join(names, " or ")
	if len(s.Enum) > 0 {
		out += " (one of " + enumList(s.Enum) + ")"
	}
	return out
}

func enumList(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		b, _ := json.Marshal(e)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

// runeLen counts characters the way JSON Schema's minLength/maxLength do.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

// sortedKeys returns m's keys in order, for stable hints.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

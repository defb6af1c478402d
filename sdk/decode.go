package sdk

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// Unmarshal is json.Unmarshal, faster on large input: a script, an image or
// a scene dump in an editor answer. It reads data once with the SDK's own
// scanner and fills v from that, and hands anything it does not handle
// exactly as encoding/json would (custom unmarshalers, []byte, embedded
// structs, keys that match a field only case-insensitively, type errors) to
// json.Unmarshal, so the result and the errors are always encoding/json's.
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	// Decoding into a value that already holds data merges into it: leave
	// that to encoding/json.
	if rv.Kind() != reflect.Pointer || rv.IsNil() || !rv.Elem().IsZero() || !fastDecodable(rv.Type().Elem()) {
		return json.Unmarshal(data, v)
	}
	tree, err := rawjson.Decode(data, true)
	if err != nil {
		return json.Unmarshal(data, v) // for encoding/json's error
	}
	fresh := reflect.New(rv.Type().Elem())
	if fillValue(fresh.Elem(), tree) != nil {
		return json.Unmarshal(data, v)
	}
	rv.Elem().Set(fresh.Elem())
	return nil
}

// decodeTree fills the zero value v points to from tree (a rawjson.Decode
// value with json.Number numbers, validated). ok is false, with v possibly
// half filled, when encoding/json must decode it instead.
func decodeTree(tree any, v any) (ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || !fastDecodable(rv.Type().Elem()) {
		return false
	}
	return fillValue(rv.Elem(), tree) == nil
}

var errSlowPath = errors.New("sdk: left to encoding/json")

var (
	typeJSONUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	typeTextUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	plainTagName        = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// fastPlans caches, per type, whether fillValue decodes it exactly as
// encoding/json does.
var fastPlans sync.Map // reflect.Type -> bool

func fastDecodable(t reflect.Type) bool {
	if ok, found := fastPlans.Load(t); found {
		return ok.(bool)
	}
	ok := checkFast(t, map[reflect.Type]bool{})
	fastPlans.Store(t, ok)
	return ok
}

func checkFast(t reflect.Type, onStack map[reflect.Type]bool) bool {
	if onStack[t] {
		return true // recursive: decided by the outer call
	}
	if t.Implements(typeJSONUnmarshaler) || reflect.PointerTo(t).Implements(typeJSONUnmarshaler) ||
		t.Implements(typeTextUnmarshaler) || reflect.PointerTo(t).Implements(typeTextUnmarshaler) {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	case reflect.Interface:
		return t.NumMethod() == 0
	case reflect.Pointer:
		return checkFast(t.Elem(), onStack)
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8 && checkFast(t.Elem(), onStack) // []byte is base64
	case reflect.Map:
		return t.Key().Kind() == reflect.String && checkFast(t.Elem(), onStack)
	case reflect.Struct:
		onStack[t] = true
		defer delete(onStack, t)
		names := map[string]bool{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous {
				return false // embedding's promotion rules: encoding/json's business
			}
			name, opts, ok := jsonField(f)
			if !ok {
				continue
			}
			if slices.Contains(strings.Split(opts, ","), "string") {
				return false
			}
			if !plainTagName.MatchString(name) || names[name] {
				return false
			}
			names[name] = true
			if !checkFast(f.Type, onStack) {
				return false
			}
		}
		return true
	default:
		return false
	}
}

// jsonField is f's JSON name and tag options as encoding/json reads them;
// ok is false for fields it skips (unexported, or tagged "-").
func jsonField(f reflect.StructField) (name, opts string, ok bool) {
	tag := f.Tag.Get("json")
	if !f.IsExported() || tag == "-" {
		return "", "", false
	}
	name, opts, _ = strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, opts, true
}

// fieldIndex maps a struct type's JSON names to field indexes.
var fieldIndexes sync.Map // reflect.Type -> map[string]int

func fieldIndex(t reflect.Type) map[string]int {
	if m, ok := fieldIndexes.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		if name, _, ok := jsonField(t.Field(i)); ok {
			m[name] = i
		}
	}
	fieldIndexes.Store(t, m)
	return m
}

// fillValue stores x in v as encoding/json would, or returns errSlowPath.
func fillValue(v reflect.Value, x any) error {
	if x == nil { // JSON null
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			v.SetZero()
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return errSlowPath
		}
		v.SetBool(b)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return errSlowPath
		}
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := x.(json.Number)
		if !ok {
			return errSlowPath
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || v.OverflowInt(i) {
			return errSlowPath
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := x.(json.Number)
		if !ok {
			return errSlowPath
		}
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil || v.OverflowUint(u) {
			return errSlowPath
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		n, ok := x.(json.Number)
		if !ok {
			return errSlowPath
		}
		f, err := strconv.ParseFloat(string(n), v.Type().Bits())
		if err != nil || v.OverflowFloat(f) {
			return errSlowPath
		}
		v.SetFloat(f)
	case reflect.Interface:
		plain, err := plainValue(x)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(&plain).Elem())
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return fillValue(v.Elem(), x)
	case reflect.Slice:
		items, ok := x.([]any)
		if !ok {
			return errSlowPath
		}
		s := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, item := range items {
			if err := fillValue(s.Index(i), item); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		obj, ok := x.(map[string]any)
		if !ok {
			return errSlowPath
		}
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(v.Type(), len(obj)))
		}
		kt, et := v.Type().Key(), v.Type().Elem()
		for k, item := range obj {
			elem := reflect.New(et).Elem()
			if err := fillValue(elem, item); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k).Convert(kt), elem)
		}
	case reflect.Struct:
		obj, ok := x.(map[string]any)
		if !ok {
			return errSlowPath
		}
		idx := fieldIndex(v.Type())
		for k, item := range obj {
			i, ok := idx[k]
			if !ok {
				return errSlowPath // unknown, or only a case-insensitive match
			}
			if err := fillValue(v.Field(i), item); err != nil {
				return err
			}
		}
	default:
		return errSlowPath
	}
	return nil
}

// plainValue converts a rawjson tree (json.Number numbers) to what
// encoding/json stores in an interface: float64 numbers.
func plainValue(x any) (any, error) {
	switch x := x.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, errSlowPath
		}
		return f, nil
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			v, err := plainValue(item)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			v, err := plainValue(item)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	default:
		return x, nil
	}
}

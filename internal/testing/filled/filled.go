// Package filled builds test values whose every exported field is set, so
// that a test comparing a value before and after some code (a wire
// conversion, a copy into another struct) covers fields added later
// without being edited.
package filled

import (
	"fmt"
	"reflect"
)

// Value returns a T with every exported field non-zero: strings name the
// field ("Title-value"), numbers are 7, booleans true, slices hold one such
// element, pointers point at one, nested structs are filled the same way.
// It panics on a field kind it cannot fill (maps of non-string keys,
// channels, functions), so a test notices instead of comparing zeros.
func Value[T any]() T {
	var v T
	fill(reflect.ValueOf(&v).Elem(), "value")
	return v
}

// Fields lists T's exported field names, the embedded structs' promoted.
func Fields[T any]() []string {
	var names []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			switch {
			case f.Anonymous && f.Type.Kind() == reflect.Struct:
				walk(f.Type)
			case f.IsExported():
				names = append(names, f.Name)
			}
		}
	}
	walk(reflect.TypeFor[T]())
	return names
}

func fill(v reflect.Value, name string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(name + "-value")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(7.5)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), name)
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), name)
		v.Set(p)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			panic(fmt.Sprintf("filled: cannot fill %s (%s)", name, v.Type()))
		}
		m := reflect.MakeMap(v.Type())
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, name)
		m.SetMapIndex(reflect.ValueOf(name).Convert(v.Type().Key()), e)
		v.Set(m)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				fill(v.Field(i), f.Name)
			}
		}
	default:
		panic(fmt.Sprintf("filled: cannot fill %s (%s)", name, v.Type()))
	}
}

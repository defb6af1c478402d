package particles

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/plugins/internal/suggest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// kind is how a parameter's value is written.
type kind int

const (
	kBool     kind = iota
	kInt           // an integral number
	kFloat         // a number
	kRange         // [min, max], a number (both), or {min, max}
	kVec           // [x, y] (2D) or [x, y, z] (3D)
	kColor         // "#rrggbb[aa]", a colour name, or [r, g, b(, a)]
	kGradient      // colours evenly spaced, or [{offset, color}]; null clears
	kCurve         // [[x, y], ...] with x in 0..1; null clears
	kEnum          // one of enum
	kPath          // a res:// path; "" clears
)

var kindNames = map[kind]string{kBool: "true/false", kInt: "an integer", kFloat: "a number", kRange: "a number or [min, max]",
	kVec: "[x, y] (2D) or [x, y, z] (3D)", kColor: `a colour ("#ff8800", "orange" or [r, g, b, a] in 0..1)`,
	kGradient: `a colour ramp: colours evenly spaced (["#fff", "#f80", "#f000"]) or [{"offset": 0, "color": "#fff"}, ...]; null clears`,
	kCurve:    "a curve: [[x, y], ...] points with x in 0..1 (linear between them); null clears", kEnum: "one of", kPath: `a res:// path ("" clears)`}

// param is one friendly parameter: its name, how its value is written and
// its bounds (NaN: none).
type param struct {
	name   string
	kind   kind
	lo, hi float64
	enum   []string
}

var none = math.NaN()

// table is the vocabulary of particles_set, particles_create's params and
// particles_get; editor/model.gd maps each name to the node's or its
// ParticleProcessMaterial's property (a test holds the two to the same names).
var table = []param{
	{"emitting", kBool, none, none, nil},
	{"amount", kInt, 1, 1000000, nil},
	{"lifetime", kFloat, 0.01, 600, nil},
	{"one_shot", kBool, none, none, nil},
	{"preprocess", kFloat, 0, 600, nil},
	{"speed_scale", kFloat, 0, 64, nil},
	{"explosiveness", kFloat, 0, 1, nil},
	{"randomness", kFloat, 0, 1, nil},
	{"lifetime_randomness", kFloat, 0, 1, nil},
	{"fixed_fps", kInt, 0, 1000, nil},
	{"local_coords", kBool, none, none, nil},
	{"texture", kPath, none, none, nil},
	{"emission_shape", kEnum, none, none, []string{"point", "sphere", "sphere_surface", "box", "ring"}},
	{"emission_sphere_radius", kFloat, 0, 100000, nil},
	{"emission_box_extents", kVec, none, none, nil},
	{"emission_ring_radius", kFloat, 0, 100000, nil},
	{"emission_ring_inner_radius", kFloat, 0, 100000, nil},
	{"emission_ring_height", kFloat, 0, 100000, nil},
	{"emission_ring_axis", kVec, none, none, nil},
	{"direction", kVec, none, none, nil},
	{"spread", kFloat, 0, 180, nil},
	{"flatness", kFloat, 0, 1, nil},
	{"gravity", kVec, none, none, nil},
	{"initial_velocity", kRange, -100000, 100000, nil},
	{"angular_velocity", kRange, -7200, 7200, nil},
	{"orbit_velocity", kRange, -1000, 1000, nil},
	{"linear_accel", kRange, -100000, 100000, nil},
	{"radial_accel", kRange, -100000, 100000, nil},
	{"tangential_accel", kRange, -100000, 100000, nil},
	{"damping", kRange, 0, 100000, nil},
	{"angle", kRange, -720, 720, nil},
	{"scale", kRange, 0, 1000, nil},
	{"hue_variation", kRange, -1, 1, nil},
	{"anim_speed", kRange, 0, 1000, nil},
	{"anim_offset", kRange, 0, 1, nil},
	{"color", kColor, none, none, nil},
	{"color_ramp", kGradient, none, none, nil},
	{"color_initial_ramp", kGradient, none, none, nil},
	{"scale_curve", kCurve, none, none, nil},
	{"damping_curve", kCurve, none, none, nil},
	{"angle_curve", kCurve, none, none, nil},
	{"angular_velocity_curve", kCurve, none, none, nil},
	{"orbit_velocity_curve", kCurve, none, none, nil},
	{"linear_accel_curve", kCurve, none, none, nil},
	{"radial_accel_curve", kCurve, none, none, nil},
	{"tangential_accel_curve", kCurve, none, none, nil},
	{"hue_variation_curve", kCurve, none, none, nil},
	{"anim_speed_curve", kCurve, none, none, nil},
	{"anim_offset_curve", kCurve, none, none, nil},
	{"alpha_curve", kCurve, none, none, nil},
}

// aliases are other names an agent may use for a parameter.
var aliases = map[string]string{
	"emission_rect_extents": "emission_box_extents", "scale_amount": "scale", "scale_amount_curve": "scale_curve",
	"velocity": "initial_velocity", "explosiveness_ratio": "explosiveness", "randomness_ratio": "randomness",
	"gradient": "color_ramp", "colour": "color", "colour_ramp": "color_ramp", "shape": "emission_shape",
}

func lookup(name string) (param, bool) {
	for _, p := range table {
		if p.name == name {
			return p, true
		}
	}
	return param{}, false
}

// names is every name the tools accept, for did-you-mean and the valid set.
func names() []string {
	var out []string
	for _, p := range table {
		out = append(out, p.name)
	}
	return out
}

// entry is one parameter as the editor receives it: the canonical name, the
// part of a range it sets ("min", "max" or "" for both) and the value,
// normalised (ranges as [min, max], colours as [r, g, b, a], gradients as
// [{offset, color}], curves as [[x, y], ...] sorted by x).
type entry struct {
	Name  string `json:"name"`
	Part  string `json:"part,omitempty"`
	Value any    `json:"value"`
}

// normalize checks every parameter of in and returns them in name order.
// where names the argument in hints ("params").
func normalize(where string, in map[string]json.RawMessage) ([]entry, error) {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]entry, 0, len(keys))
	seen := map[string]string{}
	for _, k := range keys {
		name, part := resolveName(k)
		p, ok := lookup(name)
		if !ok || part != "" && p.kind != kRange {
			hint := fmt.Sprintf("%s.%s: no particle parameter is named %q", where, k, k)
			if best, near := suggest.Closest(k, append(names(), rangeParts()...)); near {
				hint += suggest.Hint(best)
			}
			return nil, sdk.Validation(hint + ". Parameters: " + strings.Join(names(), ", ") + " (a range also as NAME_min / NAME_max).")
		}
		claims := []string{name + "/", name + "/" + part}
		if part == "" {
			claims = []string{name + "/", name + "/min", name + "/max"}
		}
		for _, c := range claims {
			if prev, dup := seen[c]; dup {
				return nil, sdk.Validation(fmt.Sprintf("%s: %q and %q both set %s; give one", where, prev, k, name))
			}
		}
		seen[name+"/"+part] = k
		v, err := value(p, part, in[k])
		if err != nil {
			return nil, sdk.Validation(fmt.Sprintf("%s.%s: %v", where, k, err))
		}
		out = append(out, entry{Name: name, Part: part, Value: v})
	}
	return out, nil
}

// resolveName maps an alias or NAME_min / NAME_max to the canonical name and part.
func resolveName(k string) (string, string) {
	k = strings.ToLower(strings.TrimSpace(k))
	if a, ok := aliases[k]; ok {
		k = a
	}
	if _, ok := lookup(k); ok {
		return k, ""
	}
	for _, part := range []string{"min", "max"} {
		if base, ok := strings.CutSuffix(k, "_"+part); ok {
			if a, ok := aliases[base]; ok {
				base = a
			}
			return base, part
		}
	}
	return k, ""
}

func rangeParts() []string {
	var out []string
	for _, p := range table {
		if p.kind == kRange {
			out = append(out, p.name+"_min", p.name+"_max")
		}
	}
	return out
}

func number(raw json.RawMessage) (float64, bool) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

func inRange(p param, f float64) error {
	if !math.IsNaN(p.lo) && f < p.lo || !math.IsNaN(p.hi) && f > p.hi {
		return fmt.Errorf("%v is out of range: %s is %v..%v", f, p.name, p.lo, p.hi)
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "null" }

// value checks one value against its parameter and normalises it.
func value(p param, part string, raw json.RawMessage) (any, error) {
	want := func() error { return fmt.Errorf("expected %s, got %s", kindNames[p.kind], short(raw)) }
	switch p.kind {
	case kBool:
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, want()
		}
		return b, nil
	case kInt, kFloat:
		f, ok := number(raw)
		if !ok || p.kind == kInt && f != math.Trunc(f) {
			return nil, want()
		}
		if err := inRange(p, f); err != nil {
			return nil, err
		}
		return f, nil
	case kRange:
		return rangeValue(p, part, raw)
	case kVec:
		var v []float64
		if err := json.Unmarshal(raw, &v); err != nil || len(v) < 2 || len(v) > 3 {
			return nil, want()
		}
		return v, nil
	case kColor:
		return colorValue(raw)
	case kGradient:
		if isNull(raw) {
			return nil, nil
		}
		return gradientValue(raw)
	case kCurve:
		if isNull(raw) {
			return nil, nil
		}
		return curveValue(raw)
	case kEnum:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("expected one of %s, got %s", strings.Join(p.enum, ", "), short(raw))
		}
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "rectangle" || s == "rect" {
			s = "box"
		}
		for _, e := range p.enum {
			if e == s {
				return s, nil
			}
		}
		hint := ""
		if best, near := suggest.Closest(s, p.enum); near {
			hint = suggest.Hint(best)
		}
		return nil, fmt.Errorf("%q is not an emission shape%s; shapes: %s", s, hint, strings.Join(p.enum, ", "))
	case kPath:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, want()
		}
		s = strings.TrimSpace(s)
		if s != "" && (!strings.HasPrefix(s, "res://") || strings.Contains(s, "..")) {
			return nil, fmt.Errorf("%q: give a res:// path of a Texture2D in the project (no ..), or \"\" to clear", s)
		}
		return s, nil
	}
	return nil, want()
}

func short(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func rangeValue(p param, part string, raw json.RawMessage) (any, error) {
	if f, ok := number(raw); ok {
		if err := inRange(p, f); err != nil {
			return nil, err
		}
		if part != "" {
			return f, nil
		}
		return []float64{f, f}, nil
	}
	if part != "" {
		return nil, fmt.Errorf("expected a number, got %s", short(raw))
	}
	var pair []float64
	if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
		var obj struct{ Min, Max *float64 }
		if err := json.Unmarshal(raw, &obj); err != nil || obj.Min == nil || obj.Max == nil {
			return nil, fmt.Errorf("expected a number (min = max) or [min, max], got %s", short(raw))
		}
		pair = []float64{*obj.Min, *obj.Max}
	}
	for _, f := range pair {
		if err := inRange(p, f); err != nil {
			return nil, err
		}
	}
	if pair[0] > pair[1] {
		return nil, fmt.Errorf("min %v is above max %v; give [min, max]", pair[0], pair[1])
	}
	return pair, nil
}

// colorValue normalises a colour: [r, g, b, a] from an array or "#hex";
// a colour name is passed on as a string for the editor to resolve.
func colorValue(raw json.RawMessage) (any, error) {
	var arr []float64
	if err := json.Unmarshal(raw, &arr); err == nil {
		if len(arr) != 3 && len(arr) != 4 {
			return nil, fmt.Errorf("a colour array is [r, g, b] or [r, g, b, a] in 0..1, got %d numbers", len(arr))
		}
		for _, f := range arr {
			if f < 0 || f > 16 {
				return nil, fmt.Errorf("colour component %v is out of range 0..1 (up to 16 for HDR)", f)
			}
		}
		if len(arr) == 3 {
			arr = append(arr, 1)
		}
		return arr, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("expected %s, got %s", kindNames[kColor], short(raw))
	}
	s = strings.TrimSpace(s)
	h := strings.TrimPrefix(s, "#")
	if strings.HasPrefix(s, "#") || isHex(h) && (len(h) == 6 || len(h) == 8) {
		if !isHex(h) || len(h) != 3 && len(h) != 4 && len(h) != 6 && len(h) != 8 {
			return nil, fmt.Errorf("%q is not a colour: use #rgb, #rgba, #rrggbb or #rrggbbaa", s)
		}
		if len(h) <= 4 {
			var b strings.Builder
			for _, c := range h {
				b.WriteString(strings.Repeat(string(c), 2))
			}
			h = b.String()
		}
		if len(h) == 6 {
			h += "ff"
		}
		out := make([]float64, 4)
		for i := range out {
			n, _ := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
			out[i] = math.Round(float64(n)/255*10000) / 10000
		}
		return out, nil
	}
	return strings.ToLower(s), nil
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return s != ""
}

func gradientValue(raw json.RawMessage) (any, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		return nil, fmt.Errorf("expected %s, got %s", kindNames[kGradient], short(raw))
	}
	stops := make([]map[string]any, 0, len(items))
	for i, it := range items {
		var stop struct {
			Offset *float64        `json:"offset"`
			Color  json.RawMessage `json:"color"`
		}
		offset := 0.0
		if len(items) > 1 {
			offset = float64(i) / float64(len(items)-1)
		}
		col := it
		if strings.HasPrefix(strings.TrimSpace(string(it)), "{") {
			if err := json.Unmarshal(it, &stop); err != nil || stop.Offset == nil || stop.Color == nil {
				return nil, fmt.Errorf("stop %d: give {\"offset\": 0..1, \"color\": ...}", i)
			}
			if *stop.Offset < 0 || *stop.Offset > 1 {
				return nil, fmt.Errorf("stop %d: offset %v is out of range 0..1", i, *stop.Offset)
			}
			offset, col = *stop.Offset, stop.Color
		}
		c, err := colorValue(col)
		if err != nil {
			return nil, fmt.Errorf("stop %d: %v", i, err)
		}
		stops = append(stops, map[string]any{"offset": offset, "color": c})
	}
	sort.SliceStable(stops, func(a, b int) bool { return stops[a]["offset"].(float64) < stops[b]["offset"].(float64) })
	return stops, nil
}

func curveValue(raw json.RawMessage) (any, error) {
	var pts [][]float64
	if err := json.Unmarshal(raw, &pts); err != nil || len(pts) == 0 {
		return nil, fmt.Errorf("expected %s, got %s", kindNames[kCurve], short(raw))
	}
	for i, pt := range pts {
		if len(pt) != 2 {
			return nil, fmt.Errorf("point %d has %d numbers; a point is [x, y]", i, len(pt))
		}
		if pt[0] < 0 || pt[0] > 1 {
			return nil, fmt.Errorf("point %d: x %v is out of range 0..1 (x is the particle's life fraction)", i, pt[0])
		}
		if math.Abs(pt[1]) > 1e5 {
			return nil, fmt.Errorf("point %d: y %v is out of range", i, pt[1])
		}
	}
	sort.SliceStable(pts, func(a, b int) bool { return pts[a][0] < pts[b][0] })
	for i := 1; i < len(pts); i++ {
		if pts[i][0] == pts[i-1][0] {
			return nil, fmt.Errorf("two points at x %v; give each x once", pts[i][0])
		}
	}
	return pts, nil
}

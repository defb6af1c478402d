package particles

import "encoding/json"

// look is what a preset draws with (made by the editor code at create):
// a soft round sprite or a streak, mixed or added, of a size (3D: the
// billboard quad's side in metres; 2D: pixels2D per metre applied), and
// the visibility box the particles stay in (3D metres, for GPU culling).
type look struct {
	Sprite     string     `json:"sprite" description:"soft (a round soft dot) or streak (a thin tall one)"`
	Blend      string     `json:"blend" description:"add (glows) or mix"`
	Size       float64    `json:"size" description:"3D: billboard quad side in metres; 2D: texture side in pixels"`
	Aspect     float64    `json:"aspect" description:"height / width of the sprite"`
	Visibility [6]float64 `json:"visibility" description:"3D: visibility AABB [x,y,z,w,h,d]; 2D: rect [x,y,w,h,0,0] in pixels"`
}

// preset is a named starting point: parameters in 3D units (metres, y up),
// converted for 2D (pixels2D per metre, y down).
type preset struct {
	Name   string
	What   string
	Params map[string]any
	Look   look
}

// pixels2D is how many 2D pixels a preset's metre is.
const pixels2D = 50

var up = []float64{0, 1, 0}

var presets = []preset{
	{"fire", "a rising, flickering flame: yellow-white core fading to orange, red and out, additive", map[string]any{
		"amount": 48, "lifetime": 1.0, "emission_shape": "sphere", "emission_sphere_radius": 0.2, "direction": up, "spread": 15.0,
		"gravity": []float64{0, 1, 0}, "initial_velocity": []float64{0.8, 1.4}, "damping": []float64{0.5, 1},
		"scale": []float64{0.6, 1.0}, "scale_curve": [][]float64{{0, 0.4}, {0.3, 1}, {1, 0}}, "hue_variation": []float64{-0.02, 0.02},
		"color_ramp": []any{"#fff3b0", map[string]any{"offset": 0.35, "color": "#ff8a1c"}, map[string]any{"offset": 0.7, "color": "#d02a0ac0"}, "#30000000"},
	}, look{"soft", "add", 0.5, 1, [6]float64{-1, -0.5, -1, 2, 3, 2}}},
	{"smoke", "slow grey puffs that rise, grow and fade, mixed", map[string]any{
		"amount": 32, "lifetime": 3.0, "emission_shape": "sphere", "emission_sphere_radius": 0.3, "direction": up, "spread": 20.0,
		"gravity": []float64{0, 0.3, 0}, "initial_velocity": []float64{0.3, 0.6}, "damping": []float64{0.1, 0.3},
		"angle": []float64{0, 360}, "angular_velocity": []float64{-20, 20}, "scale": []float64{0.8, 1.4},
		"scale_curve": [][]float64{{0, 0.5}, {1, 1.6}},
		"color_ramp":  []any{"#5a5a5acc", map[string]any{"offset": 0.6, "color": "#3c3c3c80"}, "#28282800"},
	}, look{"soft", "mix", 1.0, 1, [6]float64{-2, -0.5, -2, 4, 5, 4}}},
	{"sparks", "fast bright specks thrown up and out that fall under gravity, additive", map[string]any{
		"amount": 64, "lifetime": 0.6, "emission_shape": "point", "direction": up, "spread": 60.0,
		"gravity": []float64{0, -9.8, 0}, "initial_velocity": []float64{3, 6}, "scale": []float64{0.5, 1.0},
		"color_ramp": []any{"#ffffe0", map[string]any{"offset": 0.4, "color": "#ffc040"}, "#ff400000"},
	}, look{"soft", "add", 0.08, 1, [6]float64{-3, -2, -3, 6, 5, 6}}},
	{"explosion", "one burst of every particle at once (one_shot): white-hot to orange to dark, expanding and slowing, additive", map[string]any{
		"amount": 96, "lifetime": 1.0, "one_shot": true, "explosiveness": 1.0, "emission_shape": "sphere", "emission_sphere_radius": 0.2,
		"direction": up, "spread": 180.0, "gravity": []float64{0, -2, 0}, "initial_velocity": []float64{3, 6}, "damping": []float64{4, 6},
		"scale": []float64{0.8, 1.5}, "scale_curve": [][]float64{{0, 0.3}, {0.2, 1}, {1, 0.2}},
		"color_ramp": []any{"#fff8c0", map[string]any{"offset": 0.25, "color": "#ff8020"}, map[string]any{"offset": 0.6, "color": "#802010a0"}, "#20000000"},
	}, look{"soft", "add", 0.6, 1, [6]float64{-3, -3, -3, 6, 6, 6}}},
	{"rain", "thin pale-blue streaks falling fast from a wide box", map[string]any{
		"amount": 300, "lifetime": 1.2, "emission_shape": "box", "emission_box_extents": []float64{5, 0.1, 5},
		"direction": []float64{0, -1, 0}, "spread": 2.0, "gravity": []float64{0, -9.8, 0}, "initial_velocity": []float64{8, 10},
		"color": "#a0c4ff99",
	}, look{"streak", "mix", 0.03, 12, [6]float64{-6, -20, -6, 12, 21, 12}}},
	{"snow", "white flakes drifting slowly down from a wide box, swaying", map[string]any{
		"amount": 200, "lifetime": 6.0, "emission_shape": "box", "emission_box_extents": []float64{5, 0.1, 5},
		"direction": []float64{0, -1, 0}, "spread": 10.0, "gravity": []float64{0, -0.5, 0}, "initial_velocity": []float64{0.3, 0.6},
		"tangential_accel": []float64{-0.2, 0.2}, "scale": []float64{0.5, 1.0}, "color": "#ffffff",
	}, look{"soft", "mix", 0.08, 1, [6]float64{-6, -14, -6, 12, 15, 12}}},
	{"magic", "pink-violet motes rising from a sphere's surface and pulled inward, fading to blue, additive", map[string]any{
		"amount": 64, "lifetime": 1.5, "emission_shape": "sphere_surface", "emission_sphere_radius": 0.5, "direction": up, "spread": 30.0,
		"gravity": []float64{0, 0.5, 0}, "initial_velocity": []float64{0.1, 0.3}, "radial_accel": []float64{-0.5, -0.2},
		"scale": []float64{0.7, 1.2}, "scale_curve": [][]float64{{0, 0}, {0.2, 1}, {1, 0}},
		"color_ramp": []any{"#ffd0ff", map[string]any{"offset": 0.4, "color": "#c060ff"}, "#6030ff00"},
	}, look{"soft", "add", 0.2, 1, [6]float64{-1.5, -1, -1.5, 3, 4, 3}}},
	{"dust", "faint brown motes hanging and drifting in a box, fading in and out", map[string]any{
		"amount": 40, "lifetime": 4.0, "emission_shape": "box", "emission_box_extents": []float64{2, 0.5, 2},
		"direction": []float64{1, 0, 0}, "spread": 180.0, "gravity": []float64{0, -0.05, 0}, "initial_velocity": []float64{0.05, 0.2},
		"scale": []float64{0.5, 1.0}, "color_ramp": []any{"#d8c4a600", map[string]any{"offset": 0.2, "color": "#d8c4a6cc"}, map[string]any{"offset": 0.7, "color": "#d8c4a699"}, "#d8c4a600"},
	}, look{"soft", "mix", 0.15, 1, [6]float64{-3, -2, -3, 6, 4, 6}}},
}

func presetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	return out
}

func findPreset(name string) (preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return preset{}, false
}

// scaled are the parameters in metres (or metres per second…) that a 2D
// preset has in pixels.
var scaled = map[string]bool{"emission_sphere_radius": true, "emission_box_extents": true, "emission_ring_radius": true,
	"emission_ring_inner_radius": true, "emission_ring_height": true, "gravity": true, "initial_velocity": true,
	"linear_accel": true, "radial_accel": true, "tangential_accel": true, "damping": true}

// forDim is the preset's parameters for 2D or 3D, as raw JSON values.
func (p preset) forDim(is2D bool) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range p.Params {
		if is2D {
			v = to2D(k, v)
		}
		b, _ := json.Marshal(v)
		out[k] = b
	}
	return out
}

func to2D(k string, v any) any {
	f := 1.0
	if scaled[k] {
		f = pixels2D
	}
	switch x := v.(type) {
	case float64:
		return x * f
	case []float64:
		if k == "direction" || k == "gravity" || k == "emission_box_extents" {
			y := -x[1] * f
			if k == "emission_box_extents" {
				y = -y
			}
			return []float64{x[0] * f, y}
		}
		return []float64{x[0] * f, x[1] * f}
	}
	return v
}

// lookFor is the preset's look for 2D (sizes in pixels) or 3D.
func (p preset) lookFor(is2D bool) look {
	l := p.Look
	if !is2D {
		return l
	}
	v := l.Visibility
	l.Size = max(4, l.Size*pixels2D)
	// The 3D box [x,y,z,w,h,d] seen from the front, y down, in pixels.
	l.Visibility = [6]float64{v[0] * pixels2D, -(v[1] + v[4]) * pixels2D, v[3] * pixels2D, v[4] * pixels2D, 0, 0}
	return l
}

// presetDoc is a preset as the presets tool lists it.
func presetDoc(p preset, is2D bool) PresetInfo {
	params := map[string]any{}
	for k, raw := range p.forDim(is2D) {
		var v any
		json.Unmarshal(raw, &v)
		params[k] = v
	}
	return PresetInfo{Name: p.Name, Looks: p.What, Params: params, Look: p.lookFor(is2D)}
}

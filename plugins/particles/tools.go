package particles

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/suggest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout = 30 * time.Second
	editTimeout = 60 * time.Second
)

// types are the node types create makes, by short name.
var types = []struct{ short, class string }{
	{"gpu_3d", "GPUParticles3D"}, {"gpu_2d", "GPUParticles2D"}, {"cpu_3d", "CPUParticles3D"}, {"cpu_2d", "CPUParticles2D"},
}

func nodeClass(t string) (string, error) {
	want := strings.ToLower(strings.TrimSpace(t))
	var all []string
	for _, x := range types {
		if want == x.short || want == strings.ToLower(x.class) || want == strings.ReplaceAll(x.short, "_", "") {
			return x.class, nil
		}
		all = append(all, x.short, x.class)
	}
	hint := ""
	if best, ok := suggest.Closest(t, all); ok {
		hint = suggest.Hint(best)
	}
	return "", sdk.Validation(fmt.Sprintf("type %q is not a particles node type%s; types: gpu_3d, gpu_2d, cpu_3d, cpu_2d (or GPUParticles3D, GPUParticles2D, CPUParticles3D, CPUParticles2D)", t, hint))
}

func presetFor(name string) (preset, error) {
	p, ok := findPreset(strings.ToLower(strings.TrimSpace(name)))
	if ok {
		return p, nil
	}
	hint := ""
	if best, near := suggest.Closest(name, presetNames()); near {
		hint = suggest.Hint(best)
	}
	return preset{}, sdk.Validation(fmt.Sprintf("preset %q does not exist%s; presets: %s (godot_particles_presets lists their parameters)", name, hint, strings.Join(presetNames(), ", ")))
}

func nodePath(where, p string) error {
	if strings.TrimSpace(p) == "" {
		return sdk.Validation(where + " is empty: give a node path relative to the scene root (\".\" is the root)")
	}
	return nil
}

// ---- create ----

func create(ctx context.Context, call *sdk.Call, in CreateIn) (CreateOut, error) {
	class, err := nodeClass(in.Type)
	if err != nil {
		return CreateOut{}, err
	}
	pr, err := presetFor(in.Preset)
	if err != nil {
		return CreateOut{}, err
	}
	is2D := strings.HasSuffix(class, "2D")
	if in.Position != nil {
		if want := map[bool]int{true: 2, false: 3}[is2D]; len(in.Position) != want {
			return CreateOut{}, sdk.Validation(fmt.Sprintf("position of a %s has %d numbers, got %d", class, want, len(in.Position)))
		}
	}
	base, err := normalize("preset "+pr.Name, pr.forDim(is2D))
	if err != nil {
		return CreateOut{}, sdk.Internal(err.Error())
	}
	over, err := normalize("params", in.Params)
	if err != nil {
		return CreateOut{}, err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = strings.ToUpper(pr.Name[:1]) + pr.Name[1:]
	}
	if strings.ContainsAny(name, "/:@.%\"") {
		return CreateOut{}, sdk.Validation(fmt.Sprintf("name %q: a node name cannot contain / : @ . %% or \"", in.Name))
	}
	p := map[string]any{"class": class, "preset": pr.Name, "parent": in.Parent, "name": name, "look": pr.lookFor(is2D),
		"preset_params": base, "params": over, "dry_run": call.DryRun}
	if in.Position != nil {
		p["position"] = in.Position
	}
	return sdk.Send[CreateOut](ctx, call.Host, "cmd_particles_create", p, editTimeout)
}

// ---- set ----

func set(ctx context.Context, call *sdk.Call, in SetIn) (SetOut, error) {
	if err := nodePath("node", in.Node); err != nil {
		return SetOut{}, err
	}
	if len(in.Params) == 0 {
		return SetOut{}, sdk.Validation("params is empty: give parameters by name, e.g. {\"amount\": 64, \"lifetime\": 2}; godot_particles_presets lists them")
	}
	entries, err := normalize("params", in.Params)
	if err != nil {
		return SetOut{}, err
	}
	return sdk.Send[SetOut](ctx, call.Host, "cmd_particles_set", map[string]any{"node": in.Node, "params": entries, "dry_run": call.DryRun}, editTimeout)
}

// ---- get ----

func get(ctx context.Context, call *sdk.Call, in GetIn) (GetOut, error) {
	return sdk.Send[GetOut](ctx, call.Host, "cmd_particles_get", map[string]any{"node": in.Node}, readTimeout)
}

// ---- convert ----

func convert(ctx context.Context, call *sdk.Call, in ConvertIn) (ConvertOut, error) {
	if err := nodePath("node", in.Node); err != nil {
		return ConvertOut{}, err
	}
	return sdk.Send[ConvertOut](ctx, call.Host, "cmd_particles_convert", map[string]any{"node": in.Node, "dry_run": call.DryRun}, editTimeout)
}

// ---- restart ----

func restart(ctx context.Context, call *sdk.Call, in RestartIn) (RestartOut, error) {
	if err := nodePath("node", in.Node); err != nil {
		return RestartOut{}, err
	}
	on := in.Emitting == nil || *in.Emitting
	return sdk.Send[RestartOut](ctx, call.Host, "cmd_particles_restart", map[string]any{"node": in.Node, "emitting": on, "dry_run": call.DryRun}, editTimeout)
}

// ---- presets ----

func listPresets(_ context.Context, _ *sdk.Call, in PresetsIn) (PresetsOut, error) {
	is2D := in.Dimension == "2d"
	var out PresetsOut
	for _, p := range presets {
		out.Presets = append(out.Presets, presetDoc(p, is2D))
	}
	for _, p := range table {
		takes := kindNames[p.kind]
		switch {
		case p.kind == kEnum:
			takes += " " + strings.Join(p.enum, ", ")
		case !math.IsNaN(p.lo):
			takes += fmt.Sprintf(", %v..%v", p.lo, p.hi)
		}
		out.Parameters = append(out.Parameters, ParamInfo{Name: p.name, Takes: takes})
	}
	return out, nil
}

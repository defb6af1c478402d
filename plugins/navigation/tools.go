package navigation

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/layerref"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout = 30 * time.Second
	editTimeout = 60 * time.Second
	// bakeTimeout bounds a synchronous bake of a large scene in the editor.
	bakeTimeout = 120 * time.Second
	// gameTimeout is above the editor's own wait for the game (10 s).
	gameTimeout = 20 * time.Second
)

// ---- layer references ----

// navLayers words the navigation toolset's layer hints.
var navLayers = layerref.Kind{NumberHint: "a navigation layer number is 1..32; or give the layer's name", Example: "water"}

// refs checks layer references (numbers 1..32 or names) and turns them into
// params: ints and strings; where names the field for hints.
func refs(where string, raw []json.RawMessage) ([]any, error) {
	return layerref.Refs(navLayers, where, raw)
}

func editParams(where string, e *LayersEdit) (map[string]any, error) {
	if e == nil {
		return nil, nil
	}
	return layerref.Edit(navLayers, where, e.Set, e.Add, e.Remove)
}

// ---- get ----

func get(ctx context.Context, call *sdk.Call, _ GetIn) (GetOut, error) {
	return sdk.Send[GetOut](ctx, call.Host, "cmd_navigation_get", nil, readTimeout)
}

// ---- set_layers ----

func setLayers(ctx context.Context, call *sdk.Call, in SetLayersIn) (SetLayersOut, error) {
	if len(in.Names) == 0 && len(in.Edits) == 0 {
		return SetLayersOut{}, sdk.Validation("nothing to do: give names (layer names to set) and/or edits (nodes' navigation layers)")
	}
	seen := map[string]int{}
	names := make([]any, 0, len(in.Names))
	for i, n := range in.Names {
		key := fmt.Sprintf("%s/%d", n.Dimension, n.N)
		if j, dup := seen[key]; dup {
			return SetLayersOut{}, sdk.Validation(fmt.Sprintf("names[%d] and names[%d] both name %s layer %d", j, i, n.Dimension, n.N))
		}
		seen[key] = i
		names = append(names, map[string]any{"dimension": n.Dimension, "n": n.N, "name": strings.TrimSpace(n.Name)})
	}
	edits := make([]any, 0, len(in.Edits))
	for i, e := range in.Edits {
		for j, n := range e.Nodes {
			if strings.TrimSpace(n) == "" {
				return SetLayersOut{}, sdk.Validation(fmt.Sprintf("edits[%d].nodes[%d] is empty: give a node path relative to the scene root", i, j))
			}
		}
		m, err := editParams(fmt.Sprintf("edits[%d]", i), &e.LayersEdit)
		if err != nil {
			return SetLayersOut{}, err
		}
		m["nodes"] = e.Nodes
		edits = append(edits, m)
	}
	return sdk.Send[SetLayersOut](ctx, call.Host, "cmd_navigation_set_layers", map[string]any{"names": names, "edits": edits, "dry_run": call.DryRun}, editTimeout)
}

// ---- region, agent, link ----

// configure sends one cmd_navigation_configure for kind; values holds the
// settings given (nil pointers left out).
func configure(ctx context.Context, call *sdk.Call, kind string, t Target, values map[string]any, layers *LayersEdit, extra map[string]any) (ConfigureOut, error) {
	node, parent := strings.TrimSpace(t.Node), strings.TrimSpace(t.Parent)
	switch {
	case node != "" && parent != "":
		return ConfigureOut{}, sdk.Validation("give node (update it) or parent (create a new " + kind + " there), not both")
	case node == "" && parent == "":
		return ConfigureOut{}, sdk.Validation("give node (an existing " + kind + " to update) or parent (where to create one; \".\" is the scene root)")
	case node != "" && (t.Name != "" || t.Dimension != ""):
		return ConfigureOut{}, sdk.Validation("name and dimension are for a new node (with parent); rename nodes with godot_scene_rename_node")
	}
	p := map[string]any{"kind": kind, "node": node, "parent": parent, "name": strings.TrimSpace(t.Name), "dimension": t.Dimension, "dry_run": call.DryRun}
	v := map[string]any{}
	for k, x := range values {
		switch x := x.(type) {
		case *float64:
			if x != nil {
				v[k] = *x
			}
		case *bool:
			if x != nil {
				v[k] = *x
			}
		case *uint32:
			if x != nil {
				v[k] = *x
			}
		case string:
			if x != "" {
				v[k] = x
			}
		case []float64:
			if x != nil {
				v[k] = x
			}
		}
	}
	p["values"] = v
	l, err := editParams("layers", layers)
	if err != nil {
		return ConfigureOut{}, err
	}
	if l != nil {
		p["layers"] = l
	}
	for k, x := range extra {
		p[k] = x
	}
	if node != "" && len(v) == 0 && l == nil && len(extra) == 0 {
		return ConfigureOut{}, sdk.Validation("nothing to change: give the settings to set on " + node)
	}
	return sdk.Send[ConfigureOut](ctx, call.Host, "cmd_navigation_configure", p, editTimeout)
}

func region(ctx context.Context, call *sdk.Call, in RegionIn) (ConfigureOut, error) {
	extra := map[string]any{}
	if in.Outline != nil {
		if len(in.Outline) < 3 {
			return ConfigureOut{}, sdk.Validation(fmt.Sprintf("outline has %d points: a walkable area needs at least 3 [x,y] corners", len(in.Outline)))
		}
		for i, pt := range in.Outline {
			if len(pt) != 2 {
				return ConfigureOut{}, sdk.Validation(fmt.Sprintf("outline[%d] has %d numbers: each point is [x,y]", i, len(pt)))
			}
		}
		if in.Dimension == "3d" {
			return ConfigureOut{}, sdk.Validation("outline is for 2D regions; a 3D region bakes from its source geometry")
		}
		extra["outline"] = in.Outline
	}
	if in.CellSize != nil && *in.CellSize == 0 || in.CellHeight != nil && *in.CellHeight == 0 || in.AgentHeight != nil && *in.AgentHeight == 0 {
		return ConfigureOut{}, sdk.Validation("cell_size, cell_height and agent_height must be positive")
	}
	values := map[string]any{
		"geometry": in.Geometry, "source_mode": in.SourceMode, "source_group": strings.TrimSpace(in.SourceGroup), "collision_mask": in.CollisionMask,
		"agent_radius": in.AgentRadius, "agent_height": in.AgentHeight, "agent_max_climb": in.AgentMaxClimb, "agent_max_slope": in.AgentMaxSlope,
		"cell_size": in.CellSize, "cell_height": in.CellHeight, "border_size": in.BorderSize, "enabled": in.Enabled,
	}
	return configure(ctx, call, "region", in.Target, values, in.Layers, extra)
}

func agent(ctx context.Context, call *sdk.Call, in AgentIn) (ConfigureOut, error) {
	values := map[string]any{
		"radius": in.Radius, "height": in.Height, "path_desired_distance": in.PathDesiredDistance,
		"target_desired_distance": in.TargetDesiredDistance, "max_speed": in.MaxSpeed, "avoidance": in.Avoidance,
	}
	return configure(ctx, call, "agent", in.Target, values, in.Layers, nil)
}

func link(ctx context.Context, call *sdk.Call, in LinkIn) (ConfigureOut, error) {
	for _, e := range []struct {
		name string
		v    []float64
	}{{"start", in.Start}, {"end", in.End}} {
		if e.v != nil && len(e.v) != 2 && len(e.v) != 3 {
			return ConfigureOut{}, sdk.Validation(fmt.Sprintf("%s has %d numbers: [x,y] for a 2D link, [x,y,z] for a 3D link", e.name, len(e.v)))
		}
	}
	if in.Start != nil && in.End != nil && len(in.Start) != len(in.End) {
		return ConfigureOut{}, sdk.Validation("start and end must both be 2D [x,y] or both 3D [x,y,z]")
	}
	values := map[string]any{
		"start": in.Start, "end": in.End, "bidirectional": in.Bidirectional, "enter_cost": in.EnterCost, "travel_cost": in.TravelCost, "enabled": in.Enabled,
	}
	return configure(ctx, call, "link", in.Target, values, in.Layers, nil)
}

// ---- bake ----

func bake(ctx context.Context, call *sdk.Call, in BakeIn) (BakeOut, error) {
	out, err := sdk.Send[BakeOut](ctx, call.Host, "cmd_navigation_bake", map[string]any{"region": strings.TrimSpace(in.Region), "dry_run": call.DryRun}, bakeTimeout)
	if err != nil {
		return BakeOut{}, err
	}
	if out.Source == nil {
		out.Source = map[string]any{}
	}
	if out.Settings == nil {
		out.Settings = map[string]any{}
	}
	return out, nil
}

// ---- path, game_path ----

func pathParams(in PathIn) (map[string]any, error) {
	if len(in.From) != len(in.To) {
		return nil, sdk.Validation(fmt.Sprintf("from has %d numbers and to has %d: both [x,y] (2D) or both [x,y,z] (3D)", len(in.From), len(in.To)))
	}
	l, err := refs("layers", in.Layers)
	if err != nil {
		return nil, err
	}
	optimize := true
	if in.Optimize != nil {
		optimize = *in.Optimize
	}
	p := map[string]any{"from": in.From, "to": in.To, "optimize": optimize}
	if l != nil {
		p["layers"] = l
	}
	return p, nil
}

func editorPath(ctx context.Context, call *sdk.Call, in EditorPathIn) (EditorPathOut, error) {
	p, err := pathParams(in.PathIn)
	if err != nil {
		return EditorPathOut{}, err
	}
	for i, r := range in.Regions {
		if strings.TrimSpace(r) == "" {
			return EditorPathOut{}, sdk.Validation(fmt.Sprintf("regions[%d] is empty: give a region's node path", i))
		}
	}
	if in.Regions != nil {
		p["regions"] = in.Regions
	}
	out, err := sdk.Send[EditorPathOut](ctx, call.Host, "cmd_navigation_path", p, readTimeout)
	if err != nil {
		return EditorPathOut{}, err
	}
	out.Regions = orEmpty(out.Regions)
	return out, nil
}

func gamePath(ctx context.Context, call *sdk.Call, in PathIn) (GamePathOut, error) {
	p, err := pathParams(in)
	if err != nil {
		return GamePathOut{}, err
	}
	return sdk.Send[GamePathOut](ctx, call.Host, "cmd_navigation_game_path", p, gameTimeout)
}

// ---- debug ----

func debug(ctx context.Context, call *sdk.Call, in DebugIn) (DebugOut, error) {
	return sdk.Send[DebugOut](ctx, call.Host, "cmd_navigation_debug", map[string]any{"enabled": in.Enabled, "dry_run": call.DryRun}, editTimeout)
}

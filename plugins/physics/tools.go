package physics

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/layerref"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout = 30 * time.Second
	editTimeout = 60 * time.Second
)

// offset reads a next_cursor this toolset gave.
func offset(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(cursor)
	if err != nil || n < 0 {
		return 0, sdk.Validation(fmt.Sprintf("cursor %q is not a next_cursor this tool gave; omit it to start from the first", cursor))
	}
	return n, nil
}

// page is what the paged editor commands add to their answer.
type page struct {
	NextOffset int `json:"next_offset"`
}

func (p page) cursor() (bool, string) {
	if p.NextOffset > 0 {
		return true, strconv.Itoa(p.NextOffset)
	}
	return false, ""
}

// ---- get_layers ----

func getLayers(ctx context.Context, call *sdk.Call, in GetLayersIn) (GetLayersOut, error) {
	off, err := offset(in.Cursor)
	if err != nil {
		return GetLayersOut{}, err
	}
	for i, n := range in.Nodes {
		if strings.TrimSpace(n) == "" {
			return GetLayersOut{}, sdk.Validation(fmt.Sprintf("nodes[%d] is empty: give a node path relative to the scene root (\".\" is the root)", i))
		}
	}
	type answer struct {
		GetLayersOut
		page
	}
	a, err := sdk.Send[answer](ctx, call.Host, "cmd_physics_get_layers", map[string]any{"nodes": orEmpty(in.Nodes), "offset": off, "limit": in.Limit}, readTimeout)
	if err != nil {
		return GetLayersOut{}, err
	}
	out := a.GetLayersOut
	out.Normalize()
	out.Returned = len(out.Nodes)
	out.Truncated, out.NextCursor = a.cursor()
	return out, nil
}

// ---- set_layers ----

// physicsLayers words the physics toolset's layer hints.
var physicsLayers = layerref.Kind{NumberHint: "a layer number is 1..32 (layer 1 is bit value 1, layer 3 is bit value 4); or give the layer's name", Example: "enemies"}

func bitsParams(where string, e *BitsEdit) (map[string]any, error) {
	if e == nil {
		return nil, nil
	}
	return layerref.Edit(physicsLayers, where, e.Set, e.Add, e.Remove)
}

func setLayers(ctx context.Context, call *sdk.Call, in SetLayersIn) (SetLayersOut, error) {
	if len(in.Names) == 0 && len(in.Edits) == 0 {
		return SetLayersOut{}, sdk.Validation("nothing to do: give names (layer names to set) and/or edits (nodes' layer/mask)")
	}
	seen := map[string]int{}
	names := make([]any, 0, len(in.Names))
	for i, n := range in.Names {
		key := fmt.Sprintf("%s/%d", n.Dimension, n.N)
		if j, dup := seen[key]; dup {
			return SetLayersOut{}, sdk.Validation(fmt.Sprintf("names[%d] and names[%d] both name %s layer %d", j, i, n.Dimension, n.N))
		}
		seen[key] = i
		name := strings.TrimSpace(n.Name)
		if _, err := strconv.Atoi(name); err == nil && name != "" {
			return SetLayersOut{}, sdk.Validation(fmt.Sprintf("names[%d].name %q: a layer name must not be a number (numbers mean layer numbers here)", i, n.Name))
		}
		names = append(names, map[string]any{"dimension": n.Dimension, "n": n.N, "name": name})
	}
	edits := make([]any, 0, len(in.Edits))
	for i, e := range in.Edits {
		if e.Layer == nil && e.Mask == nil {
			return SetLayersOut{}, sdk.Validation(fmt.Sprintf("edits[%d]: give layer and/or mask, e.g. {\"mask\": {\"add\": [\"enemies\"]}}", i))
		}
		m := map[string]any{"nodes": e.Nodes}
		for j, n := range e.Nodes {
			if strings.TrimSpace(n) == "" {
				return SetLayersOut{}, sdk.Validation(fmt.Sprintf("edits[%d].nodes[%d] is empty: give a node path relative to the scene root", i, j))
			}
		}
		l, err := bitsParams(fmt.Sprintf("edits[%d].layer", i), e.Layer)
		if err != nil {
			return SetLayersOut{}, err
		}
		k, err := bitsParams(fmt.Sprintf("edits[%d].mask", i), e.Mask)
		if err != nil {
			return SetLayersOut{}, err
		}
		if l != nil {
			m["layer"] = l
		}
		if k != nil {
			m["mask"] = k
		}
		edits = append(edits, m)
	}
	return sdk.Send[SetLayersOut](ctx, call.Host, "cmd_physics_set_layers", map[string]any{"names": names, "edits": edits, "dry_run": call.DryRun}, editTimeout)
}

// ---- add_shape ----

var needsFrom = map[string]bool{"convex": true, "trimesh": true, "polygon": true, "auto": true}

func addShape(ctx context.Context, call *sdk.Call, in AddShapeIn) (AddShapeOut, error) {
	if needsFrom[in.Shape] && in.From == "" {
		what := "a MeshInstance3D"
		switch in.Shape {
		case "polygon":
			what = "a Sprite2D"
		case "auto":
			what = "a MeshInstance3D or Sprite2D"
		}
		return AddShapeOut{}, sdk.Validation(fmt.Sprintf("shape %q is fitted to a node: give from (%s)", in.Shape, what))
	}
	wantSize := map[string]int{"rectangle": 2, "box": 3}
	if in.Size != nil {
		n, ok := wantSize[in.Shape]
		if !ok {
			return AddShapeOut{}, sdk.Validation(fmt.Sprintf("size is for rectangle [w,h] and box [x,y,z]; %s takes radius/height (or a, b for segment)", in.Shape))
		}
		if len(in.Size) != n {
			return AddShapeOut{}, sdk.Validation(fmt.Sprintf("size of a %s has %d numbers, got %d", in.Shape, n, len(in.Size)))
		}
		for _, v := range in.Size {
			if v <= 0 {
				return AddShapeOut{}, sdk.Validation(fmt.Sprintf("size %v: every side must be positive", in.Size))
			}
		}
	}
	if (in.Radius != 0 || in.Height != 0) && !map[string]bool{"circle": true, "capsule": true, "sphere": true, "cylinder": true}[in.Shape] {
		return AddShapeOut{}, sdk.Validation(fmt.Sprintf("radius and height are for circle, capsule, sphere and cylinder, not %s", in.Shape))
	}
	if in.Height != 0 && (in.Shape == "circle" || in.Shape == "sphere") {
		return AddShapeOut{}, sdk.Validation(fmt.Sprintf("a %s has a radius, not a height", in.Shape))
	}
	if in.A != nil || in.B != nil {
		if in.Shape != "segment" {
			return AddShapeOut{}, sdk.Validation("a and b are the ends of a segment shape")
		}
		if len(in.A) != 2 || len(in.B) != 2 {
			return AddShapeOut{}, sdk.Validation("a segment needs both a and b as [x,y]")
		}
	}
	if in.Position != nil && len(in.Position) != 2 && len(in.Position) != 3 {
		return AddShapeOut{}, sdk.Validation(fmt.Sprintf("position has %d numbers: [x,y] in 2D, [x,y,z] in 3D", len(in.Position)))
	}
	if in.Epsilon != 0 && in.Shape != "polygon" {
		return AddShapeOut{}, sdk.Validation("epsilon is for shape polygon")
	}
	p, err := sdk.Params(in)
	if err != nil {
		return AddShapeOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[AddShapeOut](ctx, call.Host, "cmd_physics_add_shape", p, editTimeout)
}

// ---- check ----

func check(ctx context.Context, call *sdk.Call, in CheckIn) (CheckOut, error) {
	off, err := offset(in.Cursor)
	if err != nil {
		return CheckOut{}, err
	}
	type answer struct {
		CheckOut
		page
	}
	a, err := sdk.Send[answer](ctx, call.Host, "cmd_physics_check", map[string]any{"offset": off, "limit": in.Limit}, readTimeout)
	if err != nil {
		return CheckOut{}, err
	}
	out := a.CheckOut
	out.Normalize()
	out.Returned = len(out.Problems)
	out.Truncated, out.NextCursor = a.cursor()
	return out, nil
}

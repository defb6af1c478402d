package material

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/suggest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout = 30 * time.Second
	// create reimports textures, which takes a while for large maps.
	editTimeout = 120 * time.Second
)

// roles are the map names of create's maps argument.
var roles = []string{"albedo", "normal", "roughness", "metallic", "ao", "emission", "height", "orm"}

func resPath(where, p string) error {
	if !strings.HasPrefix(p, "res://") {
		return sdk.Validation(fmt.Sprintf("%s %q: give a res:// path", where, p))
	}
	return nil
}

func targetParams(p map[string]any, t Target) {
	if t.Node != "" {
		p["node"] = t.Node
	}
	if t.Slot != "" {
		p["slot"] = t.Slot
	}
	p["surface"] = t.Surface
}

// ---- create ----

func create(ctx context.Context, call *sdk.Call, in CreateIn) (CreateOut, error) {
	if in.SavePath == "" && in.Node == "" {
		return CreateOut{}, sdk.Validation("give save_path (a res:// .tres) and/or node (to put the material on): a material that goes nowhere would be lost")
	}
	if in.Node == "" && (in.Slot != "" || in.Surface != 0) {
		return CreateOut{}, sdk.Validation("slot and surface say where on node the material goes: give node too")
	}
	if in.Overwrite && in.SavePath == "" {
		return CreateOut{}, sdk.Validation("overwrite is for save_path: give save_path too")
	}
	if in.SavePath != "" {
		if err := resPath("save_path", in.SavePath); err != nil {
			return CreateOut{}, err
		}
		if !strings.HasSuffix(in.SavePath, ".tres") && !strings.HasSuffix(in.SavePath, ".res") {
			return CreateOut{}, sdk.Validation(fmt.Sprintf("save_path %q must end in .tres (or .res)", in.SavePath))
		}
	}
	if in.Textures != "" {
		if err := resPath("textures", in.Textures); err != nil {
			return CreateOut{}, err
		}
	}
	if in.Set != "" && in.Textures == "" {
		return CreateOut{}, sdk.Validation("set picks a texture set inside the textures folder: give textures too")
	}
	for role, p := range in.Maps {
		if !contains(roles, role) {
			return CreateOut{}, sdk.Validation(fmt.Sprintf("maps.%s: unknown map%s; maps: %s", role, didYouMean(role, roles), strings.Join(roles, ", ")))
		}
		if err := resPath("maps."+role, p); err != nil {
			return CreateOut{}, err
		}
	}
	if in.Type == "canvas_item" && (in.Textures != "" || len(in.Maps) > 0) {
		return CreateOut{}, sdk.Validation("a CanvasItemMaterial takes no PBR textures; use type standard or orm, or drop textures and maps")
	}
	p := map[string]any{
		"type": in.Type, "textures": in.Textures, "set": in.Set, "maps": orEmptyMap(in.Maps), "normal_convention": in.NormalConvention,
		"compress": in.Compress, "params": orEmptyMap(in.Params), "save_path": in.SavePath, "overwrite": in.Overwrite, "dry_run": call.DryRun,
	}
	targetParams(p, in.Target)
	return sdk.Send[CreateOut](ctx, call.Host, "cmd_material_create", p, editTimeout)
}

// ---- set_params ----

func setParams(ctx context.Context, call *sdk.Call, in SetParamsIn) (SetParamsOut, error) {
	if (in.Path == "") == (in.Node == "") {
		return SetParamsOut{}, sdk.Validation("give either path (a material file) or node (and slot, surface)")
	}
	if in.Path != "" {
		if err := resPath("path", in.Path); err != nil {
			return SetParamsOut{}, err
		}
		if in.Slot != "" || in.Surface != 0 {
			return SetParamsOut{}, sdk.Validation("slot and surface are for node, not path")
		}
	}
	if len(in.Set) == 0 && len(in.Reset) == 0 {
		return SetParamsOut{}, sdk.Validation("nothing to do: give set {name: value} and/or reset [names]; read the parameters with godot_material_get")
	}
	for _, r := range in.Reset {
		if _, both := in.Set[r]; both {
			return SetParamsOut{}, sdk.Validation(fmt.Sprintf("%q is both set and reset", r))
		}
	}
	p := map[string]any{"path": in.Path, "set": orEmptyMap(in.Set), "reset": orEmpty(in.Reset), "dry_run": call.DryRun}
	targetParams(p, in.Target)
	return sdk.Send[SetParamsOut](ctx, call.Host, "cmd_material_set_params", p, readTimeout)
}

// ---- assign ----

func assign(ctx context.Context, call *sdk.Call, in AssignIn) (AssignOut, error) {
	if strings.TrimSpace(in.Node) == "" {
		return AssignOut{}, sdk.Validation("node is empty: give a node path relative to the scene root")
	}
	if in.Material != "" {
		if err := resPath("material", in.Material); err != nil {
			return AssignOut{}, err
		}
	}
	p := map[string]any{"node": in.Node, "material": in.Material, "surface": in.Surface, "dry_run": call.DryRun}
	if in.Slot != "" {
		p["slot"] = in.Slot
	}
	return sdk.Send[AssignOut](ctx, call.Host, "cmd_material_assign", p, readTimeout)
}

// ---- get ----

func get(ctx context.Context, call *sdk.Call, in GetIn) (GetOut, error) {
	if (in.Path == "") == (in.Node == "") {
		return GetOut{}, sdk.Validation("give either node (a node of the edited scene) or path (a material file)")
	}
	if in.Path != "" {
		if err := resPath("path", in.Path); err != nil {
			return GetOut{}, err
		}
	}
	return sdk.Send[GetOut](ctx, call.Host, "cmd_material_get", map[string]any{"node": in.Node, "path": in.Path}, readTimeout)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func orEmptyMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

func didYouMean(s string, names []string) string {
	if n, ok := suggest.Closest(s, names); ok {
		return suggest.Hint(n)
	}
	return ""
}

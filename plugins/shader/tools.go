package shader

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const editTimeout = 30 * time.Second

func shaderPath(p, arg string) (string, error) {
	clean, err := respath.Clean(p)
	if err != nil {
		return "", sdk.Validation(arg + ": " + sdk.AsError(err).Hint)
	}
	if !strings.HasSuffix(clean, ".gdshader") && !strings.HasSuffix(clean, ".gdshaderinc") {
		return "", sdk.Validation(fmt.Sprintf("%s %q must end in .gdshader (a shader) or .gdshaderinc (an include)", arg, p))
	}
	return clean, nil
}

func validate(ctx context.Context, call *sdk.Call, in ValidateIn) (Report, error) {
	if in.Code == "" && in.Path == "" {
		return Report{}, sdk.Validation("give code (shader source) or path (a res:// .gdshader file)")
	}
	if len(in.Code) > maxCodeBytes {
		return Report{}, sdk.Validation(fmt.Sprintf("code is %d bytes; at most %d", len(in.Code), maxCodeBytes))
	}
	p := ""
	if in.Path != "" {
		var err error
		if p, err = shaderPath(in.Path, "path"); err != nil {
			return Report{}, err
		}
	}
	dir, err := godotproc.ProjectDir(ctx, call, "", "shader_validate")
	if err != nil {
		return Report{}, err
	}
	var code *string
	if in.Code != "" {
		code = &in.Code
	} else if _, err := readRes(dir, p); err != nil {
		return Report{}, err
	}
	return check(ctx, call, dir, p, code)
}

func write(ctx context.Context, call *sdk.Call, in WriteIn) (WriteOut, error) {
	p, err := shaderPath(in.Path, "path")
	if err != nil {
		return WriteOut{}, err
	}
	if len(in.Code) > maxCodeBytes {
		return WriteOut{}, sdk.Validation(fmt.Sprintf("code is %d bytes; at most %d", len(in.Code), maxCodeBytes))
	}
	out, err := sdk.Send[WriteOut](ctx, call.Host, "cmd_shader_write", map[string]any{"path": p, "code": in.Code, "dry_run": call.DryRun}, editTimeout)
	if err != nil {
		return WriteOut{}, err
	}
	out.LostIn = orEmpty(out.LostIn)
	dir, err := godotproc.ProjectDir(ctx, call, "", "shader_write")
	if err != nil {
		return WriteOut{}, err
	}
	var code *string
	if call.DryRun {
		code = &in.Code // nothing was written: check the code as if it were there
	}
	rep, err := check(ctx, call, dir, p, code)
	if err != nil {
		return WriteOut{}, err
	}
	out.Report = rep
	return out, nil
}

func (t Target) params() (map[string]any, error) {
	if (t.Path == "") == (t.Node == "") {
		return nil, sdk.Validation("give exactly one of path (a ShaderMaterial .tres) or node (a node of the edited scene, with property)")
	}
	p := map[string]any{}
	if t.Path != "" {
		if t.Property != "" {
			return nil, sdk.Validation("property goes with node, not with path")
		}
		clean, err := respath.Clean(t.Path)
		if err != nil {
			return nil, err
		}
		p["path"] = clean
		return p, nil
	}
	prop := t.Property
	if prop == "" {
		prop = "material"
	}
	p["node"], p["property"] = t.Node, prop
	return p, nil
}

func getParams(ctx context.Context, call *sdk.Call, in GetParamsIn) (ParamsOut, error) {
	p, err := in.params()
	if err != nil {
		return ParamsOut{}, err
	}
	out, err := sdk.Send[ParamsOut](ctx, call.Host, "cmd_shader_get_params", p, editTimeout)
	out.Params = orEmpty(out.Params)
	return out, err
}

func setParams(ctx context.Context, call *sdk.Call, in SetParamsIn) (SetParamsOut, error) {
	p, err := in.params()
	if err != nil {
		return SetParamsOut{}, err
	}
	if len(in.Set) == 0 && len(in.Reset) == 0 && in.Create == "" {
		return SetParamsOut{}, sdk.Validation("nothing to do: give set {name: value}, reset [names] or create_with_shader")
	}
	for _, r := range in.Reset {
		if _, both := in.Set[r]; both {
			return SetParamsOut{}, sdk.Validation(fmt.Sprintf("%q is in both set and reset; give it once", r))
		}
	}
	if in.Create != "" {
		if in.Node == "" {
			return SetParamsOut{}, sdk.Validation("create_with_shader needs node (and property): the new ShaderMaterial is put on that node's material property")
		}
		c, err := shaderPath(in.Create, "create_with_shader")
		if err != nil {
			return SetParamsOut{}, err
		}
		if strings.HasSuffix(c, ".gdshaderinc") {
			return SetParamsOut{}, sdk.Validation("create_with_shader must be a .gdshader; a .gdshaderinc is only included by shaders")
		}
		p["create_with_shader"] = c
	}
	set := in.Set
	if set == nil {
		set = map[string]any{}
	}
	p["set"], p["reset"], p["dry_run"] = set, orEmpty(in.Reset), call.DryRun
	out, err := sdk.Send[SetParamsOut](ctx, call.Host, "cmd_shader_set_params", p, editTimeout)
	out.Params, out.Changed = orEmpty(out.Params), orEmpty(out.Changed)
	return out, err
}

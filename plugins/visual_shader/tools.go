package visualshader

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/plugins/internal/shadercheck"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed compile.gd
var compileScript string

const (
	editTimeout    = 60 * time.Second
	compileTimeout = 60 * time.Second
	mark           = "@@GODOT_MCP_VSHADER "
)

func tresPath(p string) (string, error) {
	clean, err := respath.Clean(p)
	if err != nil {
		return "", sdk.Validation("path: " + sdk.AsError(err).Hint)
	}
	if !strings.HasSuffix(clean, ".tres") && !strings.HasSuffix(clean, ".res") {
		return "", sdk.Validation(fmt.Sprintf("path %q must end in .tres (a VisualShader resource)", p))
	}
	return clean, nil
}

// editorAnswer is what the editor answers for create and edit.
type editorAnswer struct {
	GraphOut
	Code        string   `json:"code"`
	Created     bool     `json:"created"`
	Overwritten bool     `json:"overwritten"`
	Applied     []string `json:"applied"`
	Undoable    bool     `json:"undoable"`
	DryRun      bool     `json:"dry_run"`
}

func create(ctx context.Context, call *sdk.Call, in CreateIn) (CreateOut, error) {
	p, err := tresPath(in.Path)
	if err != nil {
		return CreateOut{}, err
	}
	a, err := sdk.Send[editorAnswer](ctx, call.Host, "cmd_visual_shader_create", map[string]any{"path": p, "spec": in.Spec, "overwrite": in.Overwrite, "dry_run": call.DryRun}, editTimeout)
	if err != nil {
		return CreateOut{}, err
	}
	return CreateOut{GraphOut: a.GraphOut, Created: a.Created, Overwritten: a.Overwritten, Undoable: a.Undoable, DryRun: a.DryRun, Compile: compileCode(ctx, call, a.Code)}, nil
}

func get(ctx context.Context, call *sdk.Call, in GetIn) (GraphOut, error) {
	p, err := tresPath(in.Path)
	if err != nil {
		return GraphOut{}, err
	}
	out, err := sdk.Send[GraphOut](ctx, call.Host, "cmd_visual_shader_get", map[string]any{"path": p}, editTimeout)
	if err != nil {
		return GraphOut{}, err
	}
	return out, nil
}

func edit(ctx context.Context, call *sdk.Call, in EditIn) (EditOut, error) {
	p, err := tresPath(in.Path)
	if err != nil {
		return EditOut{}, err
	}
	a, err := sdk.Send[editorAnswer](ctx, call.Host, "cmd_visual_shader_edit", map[string]any{"path": p, "ops": in.Ops, "dry_run": call.DryRun}, editTimeout)
	if err != nil {
		return EditOut{}, err
	}
	return EditOut{GraphOut: a.GraphOut, Applied: orEmpty(a.Applied), Undoable: a.Undoable, DryRun: a.DryRun, Compile: compileCode(ctx, call, a.Code)}, nil
}

func catalog(ctx context.Context, call *sdk.Call, in CatalogIn) (CatalogOut, error) {
	return sdk.Send[CatalogOut](ctx, call.Host, "cmd_visual_shader_catalog", in, editTimeout)
}

func validate(ctx context.Context, call *sdk.Call, in ValidateIn) (ValidateOut, error) {
	p, err := tresPath(in.Path)
	if err != nil {
		return ValidateOut{}, err
	}
	dir, err := godotproc.ProjectDir(ctx, call, "", "visual_shader_validate")
	if err != nil {
		return ValidateOut{}, err
	}
	if err := respath.Inside(dir, resToFS(dir, p), p); err != nil {
		return ValidateOut{}, err
	}
	jobs, err := shadercheck.Run(ctx, call, dir, compileScript, mark, []any{map[string]string{"path": p}}, compileTimeout)
	if err != nil {
		return ValidateOut{}, err
	}
	info, err := jobInfo(jobs[0])
	if err != nil {
		return ValidateOut{}, err
	}
	if !info.Loaded {
		if info.Class == "" {
			return ValidateOut{}, sdk.NotFound(fmt.Sprintf("no resource Godot can load at %s in %s (validate reads the file on disk; write it with godot_visual_shader_create)", p, dir))
		}
		return ValidateOut{}, sdk.Validation(fmt.Sprintf("%s is a %s, not a VisualShader", p, info.Class))
	}
	out := ValidateOut{Compile: verdict(jobs[0], info.Code, dir), Path: p, Mode: info.Mode}
	if in.IncludeCode {
		out.Code = info.Code
	}
	return out, nil
}

type compileInfo struct {
	Loaded bool   `json:"loaded"`
	Class  string `json:"class"`
	Mode   string `json:"mode"`
	Code   string `json:"code"`
}

func jobInfo(j *shadercheck.Job) (compileInfo, error) {
	var info compileInfo
	if err := json.Unmarshal(j.Info, &info); err != nil {
		return info, sdk.Internal("the compile process answered " + string(j.Info))
	}
	return info, nil
}

// compileCode compiles the code the editor generated; a missing Godot or
// project is a note, not a failure: the graph was written all the same.
func compileCode(ctx context.Context, call *sdk.Call, code string) Compile {
	if code == "" {
		return Compile{Errors: []CompileError{}, Note: "the editor generated no code"}
	}
	dir, err := godotproc.ProjectDir(ctx, call, "", "visual_shader")
	if err != nil {
		return Compile{Errors: []CompileError{}, Note: "not compiled: " + sdk.AsError(err).Hint}
	}
	jobs, err := shadercheck.Run(ctx, call, dir, compileScript, mark, []any{map[string]string{"code": code}}, compileTimeout)
	if err != nil {
		return Compile{Errors: []CompileError{}, Note: "not compiled: " + sdk.AsError(err).Hint}
	}
	return verdict(jobs[0], code, dir)
}

// verdict is Godot's errors for the generated code, plus the global uniform
// check Godot makes only in the editor.
func verdict(j *shadercheck.Job, code, dir string) Compile {
	lines := strings.Split(code, "\n")
	c := Compile{Checked: true, Errors: []CompileError{}}
	seen := map[shadercheck.Error]bool{}
	for _, e := range append(shadercheck.CheckGlobals(code, shadercheck.GlobalUniforms(dir)), j.Errors...) {
		if seen[e] {
			continue
		}
		seen[e] = true
		ce := CompileError{Line: e.Line, Message: e.Message}
		if e.Line >= 1 && e.Line <= len(lines) {
			ce.Code = strings.TrimSpace(lines[e.Line-1])
		}
		c.Errors = append(c.Errors, ce)
	}
	c.Valid = len(c.Errors) == 0
	return c
}

func globalsList(ctx context.Context, call *sdk.Call, _ GlobalsListIn) (GlobalsOut, error) {
	out, err := sdk.Send[GlobalsOut](ctx, call.Host, "cmd_visual_shader_globals_list", nil, editTimeout)
	out.Globals = orEmpty(out.Globals)
	return out, err
}

func globalsSet(ctx context.Context, call *sdk.Call, in GlobalsSetIn) (GlobalsSetOut, error) {
	seen := map[string]bool{}
	for _, c := range in.Changes {
		if seen[c.Name] {
			return GlobalsSetOut{}, sdk.Validation(fmt.Sprintf("%q is changed twice in one call; give it once", c.Name))
		}
		seen[c.Name] = true
		if c.Action == "add" && c.Type == "" {
			return GlobalsSetOut{}, sdk.Validation(fmt.Sprintf("add %q needs type (float, vec3, color, sampler2D...)", c.Name))
		}
	}
	out, err := sdk.Send[GlobalsSetOut](ctx, call.Host, "cmd_visual_shader_globals_set", map[string]any{"changes": in.Changes, "dry_run": call.DryRun}, editTimeout)
	out.Changes, out.Globals = orEmpty(out.Changes), orEmpty(out.Globals)
	return out, err
}

func (g *GraphOut) Normalize() {
	if g.Spec.Functions == nil {
		g.Spec.Functions = map[string]Graph{}
	}
	for k, f := range g.Spec.Functions {
		f.Nodes, f.Connections = orEmpty(f.Nodes), orEmpty(f.Connections)
		g.Spec.Functions[k] = f
	}
}

func (a *editorAnswer) Normalize() { a.GraphOut.Normalize() }

func resToFS(dir, res string) string {
	return filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(res, "res://")))
}

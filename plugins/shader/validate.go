package shader

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/shadercheck"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed compile.gd
var compileHead string

const (
	mark           = "@@GODOT_MCP_SHADER "
	compileTimeout = 60 * time.Second
	maxDependents  = 20
	maxCodeBytes   = 1 << 20
)

// compileScript is compile.gd with editor/decl.gd's functions appended (one
// source of truth for reading declarations, here and in the editor).
func compileScript() string {
	decl, err := fs.ReadFile(sdk.Subdir(editorFiles, "editor"), "decl.gd")
	if err != nil {
		panic(err)
	}
	body := strings.TrimPrefix(strings.TrimPrefix(string(decl), "@tool\n"), "extends RefCounted\n")
	return compileHead + "\n" + body
}

// job is one shader for the compile process.
type job struct {
	Path        string  `json:"path,omitempty"`
	Code        *string `json:"code,omitempty"`
	IncludePath string  `json:"include_path,omitempty"`
	IncludeCode string  `json:"include_code,omitempty"`
}

type jobResult struct {
	errors []ShaderError
	info   struct {
		ShaderType  string    `json:"shader_type"`
		RenderModes []string  `json:"render_modes"`
		Uniforms    []Uniform `json:"uniforms"`
	}
}

// compile runs the jobs in one headless Godot in the project dir
// (plugins/internal/shadercheck, which the visual_shader toolset shares).
func compile(ctx context.Context, call *sdk.Call, dir string, jobs []job) ([]*jobResult, error) {
	in := make([]any, len(jobs))
	for i, j := range jobs {
		in[i] = j
	}
	done, err := shadercheck.Run(ctx, call, dir, compileScript(), mark, in, compileTimeout)
	if err != nil {
		return nil, err
	}
	results := make([]*jobResult, len(done))
	for i, d := range done {
		r := &jobResult{}
		for _, e := range d.Errors {
			r.errors = append(r.errors, ShaderError{Line: e.Line, Message: e.Message, File: e.File})
		}
		if len(d.Info) > 0 {
			_ = json.Unmarshal(d.Info, &r.info)
		}
		results[i] = r
	}
	return results, nil
}

var shaderTypeRE = regexp.MustCompile(`(?m)^\s*shader_type\b`)

var includeRE = regexp.MustCompile(`(?m)^\s*#include\s+"([^"]+)"`)

// check builds the report of one shader: code (nil: the file at resPath) as
// if saved at resPath (may be empty for inline code).
func check(ctx context.Context, call *sdk.Call, dir, resPath string, code *string) (Report, error) {
	if strings.HasSuffix(resPath, ".gdshaderinc") {
		return checkInclude(ctx, call, dir, resPath, code)
	}
	rs, err := compile(ctx, call, dir, []job{{Path: resPath, Code: code}})
	if err != nil {
		return Report{}, err
	}
	r := rs[0]
	src := ""
	if code != nil {
		src = *code
	} else if b, err := os.ReadFile(resToFS(dir, resPath)); err == nil {
		src = string(b)
	}
	rep := Report{ShaderType: r.info.ShaderType, RenderModes: r.info.RenderModes, Errors: r.errors, Uniforms: r.info.Uniforms}
	rep.Errors = explain(rep.Errors, src, resPath)
	switch rep.ShaderType {
	case "canvas_item", "spatial", "particles", "sky", "fog":
	case "":
		rep.Errors = append([]ShaderError{{Line: 1, Message: "missing shader_type: start the shader with e.g. `shader_type canvas_item;` (canvas_item, spatial, particles, sky or fog)"}}, rep.Errors...)
	default:
		line := 1
		if loc := shaderTypeRE.FindStringIndex(src); loc != nil {
			line = 1 + strings.Count(src[:loc[0]], "\n")
		}
		rep.Errors = append([]ShaderError{{Line: line, Message: fmt.Sprintf("unknown shader_type %q: use canvas_item, spatial, particles, sky or fog", rep.ShaderType)}}, rep.Errors...)
	}
	rep.Valid = len(rep.Errors) == 0
	if !rep.Valid {
		rep.Uniforms = nil // a shader that does not compile declares nothing
	}
	rep.normalize()
	return rep, nil
}

// explain adds what the compiler's message leaves out (a failed #include
// shows up as "Unknown character '#'").
func explain(errs []ShaderError, src, resPath string) []ShaderError {
	lines := strings.Split(src, "\n")
	for i, e := range errs {
		if e.File != "" || e.Line < 1 || e.Line > len(lines) {
			continue
		}
		if m := includeRE.FindStringSubmatch(lines[e.Line-1]); m != nil {
			errs[i].Message += fmt.Sprintf(" (the #include of %q failed: check that the file exists; a relative path is resolved from the shader's own folder%s)", m[1],
				map[bool]string{true: ", and this inline code has no path: pass path", false: ""}[resPath == ""])
		}
	}
	return errs
}

// checkInclude checks a .gdshaderinc by compiling the project's shaders that
// include it (with code in place of the file, when given); a file no shader
// includes is checked inside an empty spatial shader.
func checkInclude(ctx context.Context, call *sdk.Call, dir, resPath string, code *string) (Report, error) {
	incCode := ""
	if code != nil {
		incCode = *code
	} else {
		b, err := os.ReadFile(resToFS(dir, resPath))
		if err != nil {
			return Report{}, sdk.NotFound(fmt.Sprintf("no file %s", resPath))
		}
		incCode = string(b)
	}
	deps := dependents(dir, resPath)
	var jobs []job
	for _, d := range deps {
		jobs = append(jobs, job{Path: d, IncludePath: resPath, IncludeCode: incCode})
	}
	if len(jobs) == 0 {
		wrap := fmt.Sprintf("shader_type spatial;\n#include %q\n", resPath)
		jobs = []job{{Code: &wrap, IncludePath: resPath, IncludeCode: incCode}}
	}
	rs, err := compile(ctx, call, dir, jobs)
	if err != nil {
		return Report{}, err
	}
	rep := Report{CheckedWith: deps}
	for i, r := range rs {
		for _, e := range r.errors {
			if e.File == "" {
				if len(deps) == 0 {
					e.File = resPath
					e.Line = 0
				} else {
					e.File = deps[i]
				}
			}
			if e.File == resPath {
				e.File = ""
			}
			rep.Errors = append(rep.Errors, e)
		}
	}
	rep.Errors = dedupe(rep.Errors)
	rep.Valid = len(rep.Errors) == 0
	rep.normalize()
	return rep, nil
}

func dedupe(in []ShaderError) []ShaderError {
	seen := map[ShaderError]bool{}
	var out []ShaderError
	for _, e := range in {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// dependents are the project's .gdshader files whose #include names inc (by
// its res:// path, or relatively by file name), at most maxDependents.
func dependents(dir, inc string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "addons") {
				return filepath.SkipDir
			}
			return nil
		}
		if len(out) >= maxDependents || !strings.HasSuffix(p, ".gdshader") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		res := "res://" + filepath.ToSlash(rel)
		for _, m := range includeRE.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if !strings.HasPrefix(target, "res://") {
				target = "res://" + filepath.ToSlash(filepath.Join(filepath.Dir(filepath.ToSlash(rel)), target))
			}
			if target == inc {
				out = append(out, res)
				break
			}
		}
		return nil
	})
	return out
}

func resToFS(dir, res string) string {
	return filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(res, "res://")))
}

// readRes reads a res:// file of the project, RESOURCE_NOT_FOUND when absent.
func readRes(dir, res string) ([]byte, error) {
	b, err := os.ReadFile(resToFS(dir, res))
	if err != nil {
		return nil, sdk.NotFound(fmt.Sprintf("no file %s in the project %s (validate reads the file on disk: write it with godot_shader_write, or pass code)", res, dir))
	}
	return b, nil
}

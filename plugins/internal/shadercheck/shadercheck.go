// Package shadercheck compiles shaders with Godot's own shader compiler in a
// separate headless Godot (its dummy renderer runs the real ShaderCompiler)
// and collects the compiler's errors per job. The toolset supplies a GDScript
// (extends SceneTree) that reads the jobs file named after "--" and prints,
// for job i, "<mark>begin i", whatever compiling prints, then "<mark>end i
// <JSON>", and at last "<mark>done". Everything between a job's begin and end
// marks that reads "SHADER ERROR: message" (with its "at: (file:line)" line)
// is that job's error. The project is seen through a shadow project (its
// files, a bare project.godot with only its global shader uniforms), so none
// of its autoloads run and nothing is written into its .godot folder.
package shadercheck

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Error is one compile error.
type Error struct {
	Line    int    `json:"line" description:"1-based line; 0 when Godot gave none"`
	Message string `json:"message"`
	File    string `json:"file,omitempty" description:"the file the error is in, as Godot names it"`
}

// Job is what one job printed.
type Job struct {
	Errors []Error
	Info   json.RawMessage // the JSON after the end mark
	Ended  bool
}

var (
	shaderErrRE = regexp.MustCompile(`^\s*SHADER ERROR:\s*(.*)$`)
	atRE        = regexp.MustCompile(`^\s+at:\s*.*\((.*):(\d+)\)\s*$`)
)

// Collector reads a compile process's output lines.
type Collector struct {
	mark    string
	results []*Job
	cur     *Job
	pending *Error
	done    bool
}

// NewCollector collects n jobs announced with mark.
func NewCollector(mark string, n int) *Collector {
	return &Collector{mark: mark, results: make([]*Job, n)}
}

// Line takes one output line.
func (c *Collector) Line(line string) {
	if rest, ok := strings.CutPrefix(line, c.mark); ok {
		c.pending = nil
		switch {
		case strings.HasPrefix(rest, "begin "):
			n, _ := strconv.Atoi(strings.TrimPrefix(rest, "begin "))
			if n >= 0 && n < len(c.results) {
				c.cur = &Job{}
				c.results[n] = c.cur
			}
		case strings.HasPrefix(rest, "end ") && c.cur != nil:
			parts := strings.SplitN(strings.TrimPrefix(rest, "end "), " ", 2)
			if len(parts) == 2 {
				c.cur.Info = json.RawMessage(parts[1])
			}
			c.cur.Ended = true
			c.cur = nil
		case rest == "done":
			c.done = true
		}
		return
	}
	if c.cur == nil {
		return
	}
	if m := shaderErrRE.FindStringSubmatch(line); m != nil {
		c.cur.Errors = append(c.cur.Errors, Error{Message: m[1]})
		c.pending = &c.cur.Errors[len(c.cur.Errors)-1]
		return
	}
	if m := atRE.FindStringSubmatch(line); m != nil && c.pending != nil {
		c.pending.File = m[1]
		c.pending.Line, _ = strconv.Atoi(m[2])
	}
	c.pending = nil
}

// Results are the jobs, or an error when the process did not finish them all.
func (c *Collector) Results(output, exit string) ([]*Job, error) {
	if !c.done {
		return nil, sdk.Internal(fmt.Sprintf("the shader compile process did not finish (%s); Godot printed: %s", exit, LastLines(output, 15)))
	}
	for i, r := range c.results {
		if r == nil || !r.Ended {
			return nil, sdk.Internal(fmt.Sprintf("the shader compile process stopped in job %d; Godot printed: %s", i, LastLines(output, 15)))
		}
	}
	return c.results, nil
}

// Run runs script on jobs (marshalled to the jobs file) in a headless Godot
// that sees the project dir, and returns what each job printed.
func Run(ctx context.Context, call *sdk.Call, dir, script, mark string, jobs []any, timeout time.Duration) ([]*Job, error) {
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "godot-mcp-shader-")
	if err != nil {
		return nil, sdk.Internal(err.Error())
	}
	defer os.RemoveAll(tmp)
	scriptPath := filepath.Join(tmp, "godot_mcp_shader.gd")
	jobFile := filepath.Join(tmp, "jobs.json")
	b, err := json.Marshal(jobs)
	if err != nil {
		return nil, sdk.Internal(err.Error())
	}
	if err := os.WriteFile(scriptPath, []byte(script), 0o600); err != nil {
		return nil, sdk.Internal(err.Error())
	}
	if err := os.WriteFile(jobFile, b, 0o600); err != nil {
		return nil, sdk.Internal(err.Error())
	}
	proj, err := ShadowProject(dir, tmp)
	if err != nil {
		return nil, sdk.Internal(err.Error())
	}
	col := NewCollector(mark, len(jobs))
	args := []string{"--headless", "--path", proj, "--script", scriptPath, "--", jobFile}
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: proj, Args: args, Timeout: timeout, MaxOutput: 64 << 10, OnLine: col.Line})
	if err != nil {
		return nil, err
	}
	return col.Results(res.Output, res.Exit())
}

// LastLines is the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ShadowProject makes a project in tmp whose res:// shows dir's files (one
// symbolic link per top-level entry) under a bare project.godot that keeps
// only the project's global shader uniforms ([shader_globals]): the compile
// process sees the shaders, includes and globals but runs none of the
// project's autoloads and writes nothing into the project's .godot.
func ShadowProject(dir, tmp string) (string, error) {
	proj := filepath.Join(tmp, "project")
	if err := os.Mkdir(proj, 0o700); err != nil {
		return "", err
	}
	settings := "config_version=5\n" + shaderGlobals(filepath.Join(dir, "project.godot"))
	if err := os.WriteFile(filepath.Join(proj, "project.godot"), []byte(settings), 0o600); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Name() == "project.godot" || e.Name() == ".godot" {
			continue
		}
		if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(proj, e.Name())); err != nil {
			return "", err
		}
	}
	return proj, nil
}

// shaderGlobals is the [shader_globals] section of a project.godot, or "".
func shaderGlobals(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var out strings.Builder
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") && !strings.Contains(t, "=") {
			in = t == "[shader_globals]"
		}
		if in {
			out.WriteString(line + "\n")
		}
	}
	if out.Len() == 0 {
		return ""
	}
	return "\n" + out.String()
}

var (
	globalKeyRE  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=\{`)
	globalTypeRE = regexp.MustCompile(`"type":\s*"([A-Za-z0-9_]+)"`)
	globalUseRE  = regexp.MustCompile(`^\s*global\s+uniform\s+(?:(?:lowp|mediump|highp)\s+)?([A-Za-z0-9_]+)\s+([A-Za-z_][A-Za-z0-9_]*)`)
)

// GlobalUniforms are the project's global shader uniforms (name -> type as
// project.godot names it), from the [shader_globals] section of dir's
// project.godot.
func GlobalUniforms(dir string) map[string]string {
	out := map[string]string{}
	name := ""
	for _, line := range strings.Split(shaderGlobals(filepath.Join(dir, "project.godot")), "\n") {
		if m := globalKeyRE.FindStringSubmatch(line); m != nil {
			name = m[1]
			out[name] = ""
		}
		if m := globalTypeRE.FindStringSubmatch(line); m != nil && name != "" && out[name] == "" {
			out[name] = m[1]
		}
	}
	return out
}

// shaderType is the shading-language type of a global uniform type.
func shaderType(global string) string {
	switch global {
	case "color", "rect2":
		return "vec4"
	case "rect2i":
		return "ivec4"
	case "transform_2d":
		return "mat3"
	case "transform":
		return "mat4"
	}
	return global
}

// CheckGlobals finds the global uniforms code uses that the project does
// not define, or defines with another type. Godot checks this only in the
// editor (not in a headless compile); the messages are Godot's.
func CheckGlobals(code string, globals map[string]string) []Error {
	var out []Error
	for i, line := range strings.Split(code, "\n") {
		m := globalUseRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		typ, ok := globals[m[2]]
		switch {
		case !ok:
			out = append(out, Error{Line: i + 1, Message: fmt.Sprintf("Global uniform '%s' does not exist. Create it in Project Settings.", m[2])})
		case typ != "" && shaderType(typ) != m[1]:
			out = append(out, Error{Line: i + 1, Message: fmt.Sprintf("Global uniform '%s' must be of type '%s'.", m[2], shaderType(typ))})
		}
	}
	return out
}

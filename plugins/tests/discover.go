package tests

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Framework names.
const (
	GUT     = "gut"
	GdUnit4 = "gdunit4"
)

// frameworkInfo is what a framework is and where it lives.
type frameworkInfo struct {
	name, addonDir, base, baseScript string
}

var frameworks = []frameworkInfo{
	{GUT, "addons/gut", "GutTest", "res://addons/gut/test.gd"},
	{GdUnit4, "addons/gdUnit4", "GdUnitTestSuite", "res://addons/gdUnit4/src/GdUnitTestSuite.gd"},
}

func frameworkByName(name string) (frameworkInfo, bool) {
	for _, f := range frameworks {
		if f.name == name {
			return f, true
		}
	}
	return frameworkInfo{}, false
}

// installHint says what to install when a project has neither framework.
const installHint = "Install a test framework into the project: GUT 9.x for Godot 4 (https://github.com/bitwes/Gut, Asset Library \"GUT - Godot Unit Testing (Godot 4)\") " +
	"so that res://addons/gut/plugin.cfg exists, or gdUnit4 5.x for Godot 4.4 (https://github.com/MikeSchulze/gdUnit4, Asset Library \"gdUnit4\") " +
	"so that res://addons/gdUnit4/plugin.cfg exists; then open the project in the editor once (or run godot --headless --import) so their classes are registered, " +
	"and enable the plugin in Project > Project Settings > Plugins to use its editor panel."

var versionRE = regexp.MustCompile(`(?m)^\s*version\s*=\s*"([^"]*)"`)

// detect lists the frameworks installed in the project at dir.
func detect(dir string) []FrameworkOut {
	out := []FrameworkOut{}
	cache, _ := os.ReadFile(filepath.Join(dir, ".godot", "global_script_class_cache.cfg"))
	for _, f := range frameworks {
		cfg, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.addonDir), "plugin.cfg"))
		if err != nil {
			continue
		}
		fo := FrameworkOut{Name: f.name, AddonDir: "res://" + f.addonDir, Registered: bytes.Contains(cache, []byte(`&"`+f.base+`"`))}
		if m := versionRE.FindSubmatch(cfg); m != nil {
			fo.Version = string(m[1])
		}
		out = append(out, fo)
	}
	return out
}

var (
	extendsRE   = regexp.MustCompile(`^extends\s+(?:"([^"]+)"|'([^']+)'|([A-Za-z_][\w.]*))`)
	classNameRE = regexp.MustCompile(`^(?:@\w+\s+)*class_name\s+([A-Za-z_]\w*)(?:\s+extends\s+(?:"([^"]+)"|'([^']+)'|([A-Za-z_][\w.]*)))?`)
	funcRE      = regexp.MustCompile(`^(\t*)(?:static\s+)?func\s+(test\w*)\s*\(`)
	innerRE     = regexp.MustCompile(`^class\s+([A-Za-z_]\w*)\s*(?:extends\s+(?:"([^"]+)"|'([^']+)'|([A-Za-z_][\w.]*)))?\s*:`)
	innerExtRE  = regexp.MustCompile(`^\t+extends\s+(?:"([^"]+)"|'([^']+)'|([A-Za-z_][\w.]*))`)
)

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// script is one parsed .gd file.
type script struct {
	path    string // res://
	extends string // class name or res:// path
	class   string // class_name
	tests   []TestOut
	inner   []innerClass
}

type innerClass struct {
	name, extends string
	line          int
	tests         []TestOut
}

func parseScript(resPath string, src []byte) script {
	s := script{path: resPath}
	var cur *innerClass
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if line[0] != '\t' && line[0] != ' ' {
			cur = nil
		}
		if m := extendsRE.FindStringSubmatch(line); m != nil && s.extends == "" {
			s.extends = firstNonEmpty(m[1], m[2], m[3])
			continue
		}
		if m := classNameRE.FindStringSubmatch(line); m != nil {
			s.class = m[1]
			if e := firstNonEmpty(m[2], m[3], m[4]); e != "" && s.extends == "" {
				s.extends = e
			}
			continue
		}
		if m := innerRE.FindStringSubmatch(line); m != nil {
			s.inner = append(s.inner, innerClass{name: m[1], extends: firstNonEmpty(m[2], m[3], m[4]), line: n})
			cur = &s.inner[len(s.inner)-1]
			continue
		}
		if cur != nil {
			if m := innerExtRE.FindStringSubmatch(line); m != nil && cur.extends == "" {
				cur.extends = firstNonEmpty(m[1], m[2], m[3])
				continue
			}
		}
		if m := funcRE.FindStringSubmatch(line); m != nil {
			t := TestOut{Name: m[2], Line: n}
			switch {
			case m[1] == "":
				s.tests = append(s.tests, t)
			case cur != nil && len(m[1]) == 1:
				cur.tests = append(cur.tests, t)
			}
		}
	}
	return s
}

// discover finds the test suites of the project at dir (skipping .godot,
// addons and folders with .gdignore), per framework.
func discover(dir string, only string, under string) ([]SuiteOut, error) {
	scripts := map[string]script{} // res:// path -> parsed
	classes := map[string]string{} // class_name -> res:// path
	root := dir
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == "addons") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, ".gdignore")); err == nil && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".gd") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		s := parseScript("res://"+rel, src)
		scripts[s.path] = s
		if s.class != "" {
			classes[s.class] = s.path
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// frameworkOf follows extends (class names and paths) to a framework's base.
	var frameworkOf func(ext string, depth int) string
	frameworkOf = func(ext string, depth int) string {
		if ext == "" || depth > 16 {
			return ""
		}
		for _, f := range frameworks {
			if ext == f.base || ext == f.baseScript {
				return f.name
			}
		}
		p := ext
		if !strings.HasPrefix(ext, "res://") {
			p = classes[ext]
		}
		if s, ok := scripts[p]; ok {
			return frameworkOf(s.extends, depth+1)
		}
		return ""
	}
	var out []SuiteOut
	for _, s := range scripts {
		if under != "" && s.path != under && !strings.HasPrefix(s.path, strings.TrimSuffix(under, "/")+"/") {
			continue
		}
		fw := frameworkOf(s.extends, 0)
		if fw != "" && (only == "" || only == fw) && len(s.tests) > 0 {
			out = append(out, SuiteOut{Framework: fw, Suite: s.path, File: s.path, Tests: s.tests})
		}
		for _, in := range s.inner {
			// GUT runs inner classes named Test* that extend its test class.
			ifw := frameworkOf(in.extends, 0)
			if ifw == GUT && (only == "" || only == GUT) && strings.HasPrefix(in.name, "Test") && len(in.tests) > 0 {
				out = append(out, SuiteOut{Framework: GUT, Suite: s.path + "." + in.name, File: s.path, InnerClass: in.name, Tests: in.tests})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Suite < out[j].Suite })
	return out, nil
}

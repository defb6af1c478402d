package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// secretMarker is in every file outside the project: no answer may carry it.
const secretMarker = "OUTSIDE_SECRET_7f3a"

// plantedLink is a symbolic link planted in the project before the editor
// opens it, as a cloned repository could carry it.
type plantedLink struct {
	at     string // project-relative path of the link
	target string // its target as written; "@outside" and "@project" stand for those absolute directories
}

// escapes are the link layouts that lead out of the project: each is reached
// through prefix, and the link that leads out is named link in the refusal.
var escapes = []struct {
	name, prefix, link string
}{
	{"relative link", "res://rel", "res://rel"},
	{"absolute link", "res://abs", "res://abs"},
	{"chained links", "res://chain1", "res://chain1"},
	// deep/a/up -> ../../c is a link to a shallower folder inside the
	// project; c/esc -> ../../outside only leaves the project when judged
	// where c really is (read as text from deep/a/up it stays inside).
	{"shallower link then ..", "res://deep/a/up/esc", "res://deep/a/up/esc"},
	// Godot's DirAccess.read_link() reads 256 bytes of a target: a longer
	// one, cut there, would look like the project itself.
	{"long link target", "res://long", "res://long"},
	{"link loop", "res://loop1", "res://loop1"},
}

var plantedLinks = []plantedLink{
	{"rel", "../outside"},
	{"abs", "@outside"},
	{"chain1", "chain2"},
	{"chain2", "@project/chain3"},
	{"chain3", "../outside"},
	{"deep/a/up", "../../c"},
	{"c/esc", "../../outside"},
	{"leak.gd", "@outside/secret.gd"},
	{"long", strings.Repeat("./", 130) + "../outside"},
	{"loop1", "loop2"},
	{"loop2", "loop1"},
	// A link that stays inside the project works as the folder it points to.
	{"alias", "real"},
}

// plantLinks writes the files outside the project and the links inside it.
func plantLinks(t *testing.T, project, outside string) {
	t.Helper()
	files := map[string]string{
		filepath.Join(outside, "secret.txt"):    secretMarker + "\n",
		filepath.Join(outside, "secret.gd"):     "extends Node\n# " + secretMarker + "\n",
		filepath.Join(outside, "secret.tscn"):   "[gd_scene format=3]\n\n[node name=\"Secret\" type=\"Node\"]\n",
		filepath.Join(project, "real", "ok.gd"): "extends Node\n# INSIDE_OK_51c2\n",
	}
	for _, d := range []string{outside, filepath.Join(project, "real"), filepath.Join(project, "deep", "a"), filepath.Join(project, "c")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range plantedLinks {
		target := strings.NewReplacer("@outside", outside, "@project", project).Replace(l.target)
		if err := os.Symlink(target, filepath.Join(project, filepath.FromSlash(l.at))); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotOutside is every file outside the project with its hash; the
// editor's own sidecars (.uid, .import), which its filesystem scan writes
// for what it finds through the links, are left out.
func snapshotOutside(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".uid") || strings.HasSuffix(e.Name(), ".import") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		out[e.Name()] = hex.EncodeToString(sum[:])
	}
	return out
}

// A project that carries symbolic links leading out of it (relative,
// absolute, chained, through a link to a shallower folder and then "..",
// a file link, a target longer than Godot reads, a loop): every tool that takes a path refuses those paths with
// VALIDATION_ERROR naming the link, nothing outside is read, written, moved
// or deleted, and listings and searches skip the links (and say so). Links
// that stay inside work.
func TestPathsSymlinksStayInTheProject(t *testing.T) {
	project := newProject(t)
	outside := filepath.Join(filepath.Dir(project), "outside")
	plantLinks(t, project, outside)
	h := startHostT(t, "ws://127.0.0.1:0")
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}
	enableToolsets(t, s, "scripts", "resources", "scene", "project", "runtime")
	editorStateWithScene(t, s)
	before := snapshotOutside(t, outside)
	if len(before) != 3 {
		t.Fatalf("outside holds %v", before)
	}

	refused := func(t *testing.T, link, tool string, args map[string]any) {
		t.Helper()
		r, err := h.call(ctxFor(t, callTimeout), tool, args)
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError {
			t.Errorf("%s %v succeeded: %s", tool, args, r.Raw)
			return
		}
		f := r.failure()
		if f.Error != "VALIDATION_ERROR" || !strings.Contains(f.Hint, "symbolic link") || !strings.Contains(f.Hint, link) {
			t.Errorf("%s %v: %s %q, want VALIDATION_ERROR naming the symbolic link %s", tool, args, f.Error, f.Hint, link)
		}
		if strings.Contains(string(r.Raw)+r.Text, secretMarker) {
			t.Errorf("%s %v leaked the outside file's text: %s", tool, args, r.Raw)
		}
	}

	for _, l := range escapes {
		t.Run(l.name, func(t *testing.T) {
			p := l.prefix
			refused(t, l.link, "godot_scripts_read", map[string]any{"path": p + "/secret.gd"})
			refused(t, l.link, "godot_resources_read", map[string]any{"path": p + "/secret.gd"})
			refused(t, l.link, "godot_scripts_write", map[string]any{"path": p + "/evil.gd", "source": "extends Node\n"})
			refused(t, l.link, "godot_scripts_write", map[string]any{"path": p + "/secret.gd", "source": "extends Node\n# overwritten\n"})
			refused(t, l.link, "godot_resources_create", map[string]any{"path": p + "/evil.tres", "type": "Gradient"})
			refused(t, l.link, "godot_resources_move", map[string]any{"from": p + "/secret.gd", "to": "res://stolen.gd"})
			refused(t, l.link, "godot_resources_move", map[string]any{"from": "res://shape.tres", "to": p + "/shape.tres"})
			refused(t, l.link, "godot_resources_delete", map[string]any{"path": p + "/secret.txt", "confirm": true})
			refused(t, l.link, "godot_resources_delete", map[string]any{"path": p, "recursive": true, "confirm": true})
			refused(t, l.link, "godot_resources_list", map[string]any{"path": p})
			refused(t, l.link, "godot_resources_search", map[string]any{"query": secretMarker, "path": p})
			refused(t, l.link, "godot_scene_create", map[string]any{"path": p + "/evil.tscn", "open": false})
			refused(t, l.link, "godot_scene_save", map[string]any{"path": p + "/evil_copy.tscn"})
			refused(t, l.link, "godot_scene_open", map[string]any{"path": p + "/secret.tscn"})
			refused(t, l.link, "godot_project_add_autoload", map[string]any{"name": "Evil", "path": p + "/secret.gd"})
			refused(t, l.link, "godot_runtime_run_headless", map[string]any{"scene": p + "/secret.tscn", "timeout_ms": 5000})
			refused(t, l.link, "godot_runtime_play", map[string]any{"scene": p + "/secret.tscn"})
			refused(t, l.link, "godot_project_set_settings", map[string]any{"settings": map[string]any{"application/run/main_scene": p + "/secret.tscn"}})
		})
	}

	t.Run("file link", func(t *testing.T) {
		const p = "res://leak.gd"
		refused(t, p, "godot_scripts_read", map[string]any{"path": p})
		refused(t, p, "godot_resources_read", map[string]any{"path": p})
		refused(t, p, "godot_scripts_write", map[string]any{"path": p, "source": "extends Node\n# overwritten\n"})
		refused(t, p, "godot_resources_move", map[string]any{"from": p, "to": "res://stolen.gd"})
		refused(t, p, "godot_resources_delete", map[string]any{"path": p, "confirm": true})
		refused(t, p, "godot_project_add_autoload", map[string]any{"name": "Evil", "path": p})
		refused(t, p, "godot_runtime_run_headless", map[string]any{"script": p, "timeout_ms": 5000})
	})

	// Folders that hold links are neither moved nor deleted: their walk would
	// go through the links.
	t.Run("folders holding links", func(t *testing.T) {
		for _, c := range []struct {
			tool string
			args map[string]any
			link string
		}{
			{"godot_resources_move", map[string]any{"from": "res://deep", "to": "res://deep2"}, "res://deep/a/up"},
			{"godot_resources_delete", map[string]any{"path": "res://c", "recursive": true, "confirm": true}, "res://c/esc"},
		} {
			f := h.mustFail(t, c.tool, c.args)
			if f.Error != "VALIDATION_ERROR" || !strings.Contains(f.Hint, "symbolic link") || !strings.Contains(f.Hint, c.link) {
				t.Errorf("%s %v: %+v, want VALIDATION_ERROR naming %s", c.tool, c.args, f, c.link)
			}
		}
		for _, d := range []string{"deep/a", "c"} {
			if _, err := os.Stat(filepath.Join(project, d)); err != nil {
				t.Errorf("res://%s: %v", d, err)
			}
		}
	})

	// Whole-project walks skip every link that leads out and say which.
	t.Run("walks skip links that lead out", func(t *testing.T) {
		leaving := []string{"res://rel", "res://abs", "res://chain1", "res://chain2", "res://chain3", "res://c/esc", "res://leak.gd", "res://long"}
		outsidePath := func(p string) bool {
			for _, l := range append(slices.Clone(leaving), "res://deep/a/up/esc") {
				if p == l || strings.HasPrefix(p, l+"/") {
					return true
				}
			}
			return false
		}
		var search struct {
			Matches []struct {
				Path string `json:"path"`
			} `json:"matches"`
			LinksSkipped int      `json:"links_skipped"`
			SkippedLinks []string `json:"skipped_links"`
		}
		r := h.mustCall(t, "godot_resources_search", map[string]any{"query": secretMarker}, &search)
		if len(search.Matches) != 0 || strings.Contains(string(r.Raw), secretMarker) {
			t.Errorf("search found text outside the project: %s", r.Raw)
		}
		for _, l := range leaving {
			if !slices.Contains(search.SkippedLinks, l) {
				t.Errorf("search skipped_links %v lacks %s (links_skipped %d)", search.SkippedLinks, l, search.LinksSkipped)
			}
		}
		if search.LinksSkipped < len(leaving) {
			t.Errorf("search links_skipped = %d, want at least %d", search.LinksSkipped, len(leaving))
		}
		h.mustCall(t, "godot_resources_search", map[string]any{"query": "INSIDE_OK_51c2"}, &search)
		var found []string
		for _, m := range search.Matches {
			found = append(found, m.Path)
		}
		slices.Sort(found)
		if !slices.Equal(found, []string{"res://alias/ok.gd", "res://real/ok.gd"}) {
			t.Errorf("search through the link inside found %v, want res://alias/ok.gd and res://real/ok.gd", found)
		}

		var list struct {
			Entries []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"entries"`
			LinksSkipped int      `json:"links_skipped"`
			SkippedLinks []string `json:"skipped_links"`
		}
		h.mustCall(t, "godot_resources_list", map[string]any{"limit": 5000}, &list)
		var paths []string
		for _, en := range list.Entries {
			paths = append(paths, en.Path)
			if outsidePath(en.Path) {
				t.Errorf("list shows %s, behind a link that leads out", en.Path)
			}
		}
		if !slices.Contains(paths, "res://alias/ok.gd") || !slices.Contains(paths, "res://main.tscn") {
			t.Errorf("list lacks files inside: %v", paths)
		}
		if list.LinksSkipped < len(leaving) || !slices.Contains(list.SkippedLinks, "res://abs") {
			t.Errorf("list links_skipped %d %v", list.LinksSkipped, list.SkippedLinks)
		}
		h.mustCall(t, "godot_resources_list", map[string]any{"recursive": false}, &list)
		paths = nil
		for _, en := range list.Entries {
			paths = append(paths, en.Path)
		}
		for _, l := range leaving {
			if slices.Contains(paths, l) {
				t.Errorf("the top-level list shows %s: %v", l, paths)
			}
		}
		if !slices.Contains(paths, "res://alias") || !slices.Contains(paths, "res://deep") {
			t.Errorf("the top-level list lacks folders inside: %v", paths)
		}

		var scripts struct {
			Scripts []struct {
				Path string `json:"path"`
			} `json:"scripts"`
			LinksSkipped int `json:"links_skipped"`
		}
		h.mustCall(t, "godot_scripts_list", nil, &scripts)
		for _, sc := range scripts.Scripts {
			if outsidePath(sc.Path) {
				t.Errorf("scripts_list shows %s, behind a link that leads out", sc.Path)
			}
		}
		if scripts.LinksSkipped == 0 {
			t.Errorf("scripts_list says no link was skipped")
		}
	})

	// Links that stay inside the project are followed.
	t.Run("links inside work", func(t *testing.T) {
		var read struct {
			Source string `json:"source"`
		}
		h.mustCall(t, "godot_scripts_read", map[string]any{"path": "res://alias/ok.gd"}, &read)
		if !strings.Contains(read.Source, "INSIDE_OK_51c2") {
			t.Errorf("read through res://alias: %+v", read)
		}
		h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://alias/made.tscn", "open": false}, nil)
		if _, err := os.Stat(filepath.Join(project, "real", "made.tscn")); err != nil {
			t.Errorf("scene_create through res://alias: %v", err)
		}
	})

	after := snapshotOutside(t, outside)
	if !maps.Equal(before, after) {
		t.Errorf("the files outside the project changed: before %v, after %v", before, after)
	}
	for _, f := range []string{"stolen.gd", "evil.gd", "evil.tscn"} {
		if _, err := os.Lstat(filepath.Join(project, f)); err == nil {
			t.Errorf("res://%s exists", f)
		}
	}
	if b, err := os.ReadFile(filepath.Join(project, "project.godot")); err != nil || strings.Contains(string(b), "Evil") {
		t.Errorf("project.godot got the autoload (%v)", err)
	}
	if fi, err := os.Lstat(filepath.Join(project, "leak.gd")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("res://leak.gd is no longer the link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(project, "shape.tres")); err != nil {
		t.Errorf("shape.tres moved: %v", err)
	}
}

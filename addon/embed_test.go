package addon

import (
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/buildinfo"
)

func TestVersionMatchesPluginCfg(t *testing.T) {
	cfg, err := fs.ReadFile(embedded, "plugin.cfg")
	if err != nil {
		t.Fatalf("plugin.cfg is not embedded: %v", err)
	}
	m := regexp.MustCompile(`(?m)^version="([^"]*)"`).FindSubmatch(cfg)
	if m == nil {
		t.Fatalf("plugin.cfg has no version= line:\n%s", cfg)
	}
	if got := string(m[1]); got != Version {
		t.Errorf("plugin.cfg version = %q, addon.Version = %q; keep them equal", got, Version)
	}
}

// A release build's version (tools/release stamps it) is what the
// installed plugin.cfg says, so the editor reports the server's version.
func TestStampedPluginCfg(t *testing.T) {
	fsys := stamp(embedded, "2026.12.02+abc1234")
	cfg, err := fs.ReadFile(fsys, "plugin.cfg")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^version="([^"]*)"`).FindSubmatch(cfg); m == nil || string(m[1]) != "2026.12.02+abc1234" {
		t.Fatalf("stamped plugin.cfg:\n%s", cfg)
	}
	orig, _ := fs.ReadFile(embedded, "plugin.cfg")
	if strings.Count(string(cfg), "\n") != strings.Count(string(orig), "\n") || !strings.Contains(string(cfg), "script=") {
		t.Fatalf("more than the version changed:\n%s", cfg)
	}
	if st, err := fs.Stat(fsys, "plugin.cfg"); err != nil || st.Size() != int64(len(cfg)) {
		t.Fatalf("stat: %v %v", st, err)
	}
	n := 0
	if err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	}); err != nil || n < 10 {
		t.Fatalf("walk: %d files, %v", n, err)
	}
	if stamp(embedded, Version) != fs.FS(embedded) {
		t.Error("the default version is not the embedded files as they are")
	}
}

func TestVersionMatchesServerBuild(t *testing.T) {
	// The server and the addon ship together; a mismatch is what version_notice reports.
	if Version != buildinfo.Version {
		t.Errorf("addon.Version = %q, contract.Version = %q; bump plugin.cfg and addon.Version with each release", Version, buildinfo.Version)
	}
}

func TestEmbedsTheAddonFilesOnly(t *testing.T) {
	var files []string
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, want := range []string{
		"plugin.cfg", "plugin.gd", "bridge_client.gd", "command_router.gd",
		"value_codec.gd", "dock.gd", "handlers/core_handlers.gd",
		"runtime/probe.gd", "runtime/debugger_plugin.gd",
		"codec_encode.gd", "codec_shapes.gd", "codec_containers.gd", "lib/params.gd", "lib/nodes.gd", "lib/undo.gd", "lib/files.gd",
		"lib/file_ops.gd", "lib/codec.gd", "lib/subpath.gd", "lib/layer_names.gd",
	} {
		if i := sort.SearchStrings(files, want); i >= len(files) || files[i] != want {
			t.Errorf("%s is not embedded (have %v)", want, files)
		}
	}
	for _, f := range files {
		if !(strings.HasSuffix(f, ".gd") || f == "plugin.cfg") {
			t.Errorf("unexpected embedded file %s", f)
		}
	}
}

func TestPluginCfgNamesTheScript(t *testing.T) {
	cfg, err := fs.ReadFile(FS, "plugin.cfg")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^script="([^"]*)"`).FindSubmatch(cfg)
	if m == nil {
		t.Fatal("plugin.cfg has no script= line")
	}
	if _, err := fs.Stat(FS, string(m[1])); err != nil {
		t.Errorf("plugin.cfg script=%q is not embedded: %v", m[1], err)
	}
}

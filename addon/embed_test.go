package addon

import (
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/contract"
)

func TestVersionMatchesPluginCfg(t *testing.T) {
	cfg, err := fs.ReadFile(FS, "plugin.cfg")
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

func TestVersionMatchesServerBuild(t *testing.T) {
	// The server and the addon ship together; a mismatch is what version_notice reports.
	if Version != contract.Version {
		t.Errorf("addon.Version = %q, contract.Version = %q; bump plugin.cfg and addon.Version with each release", Version, contract.Version)
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
		"lib/file_ops.gd", "lib/codec.gd",
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

// Package addon embeds the Godot editor addon (the GDScript files under this
// directory) so that `godot-mcp addon install` always installs the addon that
// matches the binary. The files land in a project as res://addons/godot_mcp/.
package addon

import (
	"bytes"
	"embed"
	"io/fs"
	"regexp"
)

// embedded holds the addon's files as they are in the source tree.
//
//go:embed plugin.cfg *.gd handlers/*.gd runtime/*.gd lib/*.gd
var embedded embed.FS

// FS holds the addon's files, rooted at the addon directory: "plugin.cfg",
// "plugin.gd", "handlers/core_handlers.gd", … Only addon files are embedded
// (no Go sources, tests or tooling). plugin.cfg's version= line says
// Version.
var FS fs.FS = stamp(embedded, Version)

// Version is the addon's version: the server's CalVer build version. The
// source tree's plugin.cfg says the default (a test keeps them equal); a
// release build stamps both with -ldflags "-X
// github.com/godot-mcp/godot-mcp/addon.Version=… -X
// github.com/godot-mcp/godot-mcp/host/buildinfo.Version=…" (tools/release),
// and FS's plugin.cfg says the stamped one.
var Version = "2026.11.29"

var versionLine = regexp.MustCompile(`(?m)^version="[^"\n]*"`)

// stamp is src with plugin.cfg's version= line set to version.
func stamp(src fs.FS, version string) fs.FS {
	cfg, err := fs.ReadFile(src, "plugin.cfg")
	if err != nil {
		return src
	}
	stamped := versionLine.ReplaceAll(cfg, []byte(`version="`+version+`"`))
	if bytes.Equal(stamped, cfg) {
		return src
	}
	return overlay{FS: src, name: "plugin.cfg", data: stamped}
}

// overlay is an fs.FS with one file's content replaced.
type overlay struct {
	fs.FS
	name string
	data []byte
}

func (o overlay) Open(name string) (fs.File, error) {
	f, err := o.FS.Open(name)
	if err != nil || name != o.name {
		return f, err
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(o.data), info: memInfo{FileInfo: st, size: int64(len(o.data))}}, nil
}

func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(o.FS, name) }

type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	fs.FileInfo
	size int64
}

func (i memInfo) Size() int64 { return i.size }

// InstallDir is where the addon lives inside a Godot project, relative to the
// project directory (res://addons/godot_mcp/).
const InstallDir = "addons/godot_mcp"

// PluginCfgResPath is the res:// path Godot lists in [editor_plugins] enabled.
const PluginCfgResPath = "res://addons/godot_mcp/plugin.cfg"

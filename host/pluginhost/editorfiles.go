package pluginhost

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
)

// ReservedToolsetName may not name a toolset: its namespace, cmd_ext_*,
// holds the core addon's extension loader commands.
const ReservedToolsetName = "ext"

var editorVersionRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// editorFilesFromProto checks a toolset's editor code: clean relative paths
// (nothing escapes its folder), a handlers.gd, and a version stamp.
func editorFilesFromProto(d *pluginproto.DescribeResponse, info *ToolsetInfo) error {
	files := d.GetEditorFiles()
	if len(files) == 0 {
		if d.GetEditorVersion() != "" {
			return errors.New("the toolset declares an editor code version but no editor files")
		}
		return nil
	}
	if !editorVersionRE.MatchString(d.GetEditorVersion()) {
		return fmt.Errorf("editor code version %q is not 1-64 letters, digits, '.', '_' or '-'", d.GetEditorVersion())
	}
	seen := map[string]bool{}
	hasHandlers := false
	for _, f := range files {
		p := f.GetPath()
		if p == "" || path.Clean(p) != p || path.IsAbs(p) || p == "." || strings.HasPrefix(p, "../") || p == ".." ||
			strings.ContainsAny(p, "\\:\x00") || strings.HasPrefix(path.Base(p), ".") {
			return fmt.Errorf("editor file path %q is not a clean relative path inside the toolset's folder", p)
		}
		if seen[p] {
			return fmt.Errorf("two editor files are named %q", p)
		}
		seen[p] = true
		hasHandlers = hasHandlers || p == "handlers.gd"
		info.EditorFiles = append(info.EditorFiles, EditorFile{Path: p, Content: f.GetContent()})
	}
	if !hasHandlers {
		return errors.New("the toolset's editor files have no handlers.gd")
	}
	info.EditorVersion = d.GetEditorVersion()
	return nil
}

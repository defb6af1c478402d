package pluginhost

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
)

func TestEditorFilesFromProto(t *testing.T) {
	desc := func(version string, paths ...string) *pluginproto.DescribeResponse {
		d := &pluginproto.DescribeResponse{Name: "hello", Tools: []*pluginproto.Tool{protoTool(nil)}, EditorVersion: version}
		for _, p := range paths {
			d.EditorFiles = append(d.EditorFiles, &pluginproto.EditorFile{Path: p, Content: []byte("x")})
		}
		return d
	}
	info, err := infoFromProto(desc("abc123", "handlers.gd", "lib/a.gd"))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.EditorFiles) != 2 || info.EditorFiles[1].Path != "lib/a.gd" || info.EditorVersion != "abc123" {
		t.Fatalf("info = %+v", info)
	}
	for _, tc := range []struct {
		d    *pluginproto.DescribeResponse
		want string
	}{
		{desc("v", "../evil.gd", "handlers.gd"), `"../evil.gd" is not a clean relative path`},
		{desc("v", "/abs.gd", "handlers.gd"), `"/abs.gd" is not a clean`},
		{desc("v", "a/./b.gd", "handlers.gd"), `is not a clean`},
		{desc("v", ".stamp.json", "handlers.gd"), `is not a clean`},
		{desc("v", "lib.gd"), "no handlers.gd"},
		{desc("", "handlers.gd"), "editor code version"},
		{desc("v", "handlers.gd", "handlers.gd"), "two editor files"},
		{desc("v"), "but no editor files"},
		{&pluginproto.DescribeResponse{Name: "ext", Tools: []*pluginproto.Tool{protoTool(nil)}}, `"ext" is reserved`},
	} {
		if _, err := infoFromProto(tc.d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

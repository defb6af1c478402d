package respath

import (
	"errors"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func TestClean(t *testing.T) {
	ok := map[string]string{
		"res://a.gd":         "res://a.gd",
		"res://dir/./b.gd":   "res://dir/b.gd",
		"res://dir//c.gd":    "res://dir/c.gd",
		"res://":             "res://",
		"res://x/y/z.tscn":   "res://x/y/z.tscn",
		"res://name..gd":     "res://name..gd",
		"res://.godot/x.cfg": "res://.godot/x.cfg",
	}
	for in, want := range ok {
		got, err := Clean(in)
		if err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/etc/passwd", "res://../secret", "res://a/../../b", "user://x", "C:\\x", "res://a\\..\\b", "res:///etc/passwd", "a.gd", ""} {
		_, err := Clean(bad)
		var e *sdk.Error
		if !errors.As(err, &e) || e.Code != sdk.CodeValidationError {
			t.Errorf("Clean(%q) = %v; want VALIDATION_ERROR", bad, err)
		}
	}
}

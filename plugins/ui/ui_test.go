package ui

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_ui_get_layout", Class: sdk.ReadOnly},
	{Name: "cmd_ui_set_layout", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_ui_theme_get", Class: sdk.ReadOnly},
	{Name: "cmd_ui_theme_edit", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_ui_set_theme_overrides", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

// handlers.gd declares every command with the class the tools assume, and
// ships every script it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands)
	files, _ := fs.Glob(Toolset().EditorCode, "*.gd")
	if len(files) < 5 {
		t.Fatalf("editor code ships %v", files)
	}
	for _, f := range files {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

func TestGetLayoutPagesAndDefaults(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_ui_get_layout", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct{ Offset int }
		json.Unmarshal(p, &in)
		next := 0
		if in.Offset == 0 {
			next = 1
		}
		return map[string]any{"scene": "res://menu.tscn", "viewport": []int{1152, 648}, "total": 2, "next_offset": next,
			"nodes": []any{map[string]any{"path": ".", "class": "Control", "rect": map[string]int{"x": 0, "y": 0, "w": 0, "h": 0}, "grow": []string{"end", "end"},
				"layout_mode": "uncontrolled", "size_flags": map[string]any{"h": []string{"fill"}, "v": nil, "stretch_ratio": 1}, "problems": nil}}}, nil
	})
	var out GetLayoutOut
	if err := h.MustCall(t, "get_layout", map[string]any{"limit": 1}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Truncated || out.NextCursor != "1" || out.Returned != 1 || out.Nodes[0].Problems == nil || out.Nodes[0].SizeFlags.V == nil {
		t.Fatalf("page 1: %+v", out)
	}
	if p := h.LastParams(t, "cmd_ui_get_layout"); p["node"] != "." || p["depth"] != 8.0 || p["limit"] != 1.0 || p["offset"] != 0.0 {
		t.Fatalf("defaults not sent: %v", p)
	}
	out = GetLayoutOut{}
	h.MustCall(t, "get_layout", map[string]any{"limit": 1, "cursor": "1"}).Decode(&out)
	if out.Truncated || out.NextCursor != "" {
		t.Fatalf("page 2: %+v", out)
	}
	if p := h.LastParams(t, "cmd_ui_get_layout"); p["offset"] != 1.0 {
		t.Fatalf("cursor not sent as offset: %v", p)
	}
	h.MustFail(t, "get_layout", map[string]any{"cursor": "x"}, sdk.CodeValidationError, "next_cursor")
	h.MustFail(t, "get_layout", map[string]any{"scene": "res://../menu.tscn"}, sdk.CodeValidationError, "")
	h.MustCall(t, "get_layout", map[string]any{"scene": "res://menu.tscn"})
	if p := h.LastParams(t, "cmd_ui_get_layout"); p["scene"] != "res://menu.tscn" {
		t.Fatalf("scene not sent: %v", p)
	}
}

func TestSetLayoutChecksBeforeTheEditor(t *testing.T) {
	h := start(t)
	for _, c := range []struct {
		item map[string]any
		hint string
	}{
		{map[string]any{"node": "A", "preset": "center", "anchors": []float64{0, 0, 1, 1}}, "not both"},
		{map[string]any{"node": "A", "margin": 4}, "go with preset"},
		{map[string]any{"node": "A", "anchors": []float64{0, 0, 1.5, 1}}, "0..1"},
		{map[string]any{"node": "A", "anchors": []float64{0.8, 0, 0.2, 1}}, "left must not exceed right"},
		{map[string]any{"node": "A", "custom_minimum_size": []float64{-1, 0}}, "negative"},
		{map[string]any{"node": "A"}, "nothing to set"},
	} {
		h.MustFail(t, "set_layout", map[string]any{"items": []any{c.item}}, sdk.CodeValidationError, c.hint)
	}
	h.MustFail(t, "set_layout", map[string]any{"items": []any{map[string]any{"node": "A", "preset": "center"}, map[string]any{"node": "A", "preset": "center"}}},
		sdk.CodeValidationError, "also items[0]")
	h.MustFail(t, "set_layout", map[string]any{"items": []any{map[string]any{"node": "A", "preset": "middle"}}}, sdk.CodeValidationError, "preset")
	h.MustFail(t, "set_layout", map[string]any{"items": []any{map[string]any{"node": "A", "size_flags_h": []string{"stretch"}}}}, sdk.CodeValidationError, "size_flags_h")
	if n := len(h.Addon().Received()); n != 0 {
		t.Fatalf("refused calls reached the editor %d times", n)
	}
}

func TestSetLayoutSendsItemsAndDryRun(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_ui_set_layout", map[string]any{"nodes": []any{map[string]any{"path": "Menu", "problems": []string{}}}, "dry_run": true})
	var out SetLayoutOut
	h.MustCall(t, "set_layout", map[string]any{"items": []any{map[string]any{"node": "Menu", "preset": "center", "size_flags_h": []string{"expand_fill"}}}}, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || len(out.Nodes) != 1 {
		t.Fatalf("%+v", out)
	}
	p := h.LastParams(t, "cmd_ui_set_layout")
	items := p["items"].([]any)
	it := items[0].(map[string]any)
	if p["dry_run"] != true || it["preset"] != "center" || it["resize_mode"] != nil || it["anchors"] != nil {
		t.Fatalf("params: %v", p)
	}
}

func TestThemeGetNamesOneSource(t *testing.T) {
	h := start(t)
	h.MustFail(t, "theme_get", map[string]any{}, sdk.CodeValidationError, "exactly one")
	h.MustFail(t, "theme_get", map[string]any{"path": "res://a.tres", "project": true}, sdk.CodeValidationError, "exactly one")
	h.MustFail(t, "theme_get", map[string]any{"path": "res://../x.tres"}, sdk.CodeValidationError, "")
	h.Addon().HandleResult("cmd_ui_theme_get", map[string]any{"source": "file", "path": "res://t.tres", "has_theme": true,
		"types": []any{map[string]any{"name": "Button", "items": nil}}})
	var out ThemeGetOut
	h.MustCall(t, "theme_get", map[string]any{"path": "res://t.tres", "type": "Button"}).Decode(&out)
	if len(out.Types) != 1 || out.Types[0].Items == nil {
		t.Fatalf("%+v", out)
	}
	if p := h.LastParams(t, "cmd_ui_theme_get"); p["path"] != "res://t.tres" || p["type"] != "Button" {
		t.Fatalf("params %v", p)
	}
}

func TestThemeEditChecks(t *testing.T) {
	h := start(t)
	h.MustFail(t, "theme_edit", map[string]any{"path": "res://t.png", "default_font_size": 12}, sdk.CodeValidationError, ".tres")
	h.MustFail(t, "theme_edit", map[string]any{"path": "res://t.tres"}, sdk.CodeValidationError, "nothing to edit")
	h.MustFail(t, "theme_edit", map[string]any{"path": "res://t.tres", "set": []any{map[string]any{"type": "Button", "data_type": "colour", "name": "x", "value": 1}}},
		sdk.CodeValidationError, "data_type")
	h.MustFail(t, "theme_edit", map[string]any{"path": "res://t.tres", "set": []any{map[string]any{"type": "Button", "data_type": "color", "name": "x"}}},
		sdk.CodeValidationError, "value")
	h.Addon().HandleResult("cmd_ui_theme_edit", map[string]any{"path": "res://t.tres", "created": true, "types": nil, "items": 1, "undoable": true, "persisted": true})
	var out ThemeEditOut
	if err := h.MustCall(t, "theme_edit", map[string]any{"path": "res://t.tres", "default_font_size": 18}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Created || out.Types == nil {
		t.Fatalf("%+v", out)
	}
	if p := h.LastParams(t, "cmd_ui_theme_edit"); p["path"] != "res://t.tres" || p["default_font_size"] != 18.0 || p["dry_run"] != false {
		t.Fatalf("params %v", p)
	}
}

func TestSetOverridesChecks(t *testing.T) {
	h := start(t)
	h.MustFail(t, "set_theme_overrides", map[string]any{"node": "B"}, sdk.CodeValidationError, "nothing to change")
	h.Addon().HandleError("cmd_ui_set_theme_overrides", sdk.Validation("set[0]: a Button has no color item 'font_colour'. Did you mean 'font_color'?"))
	h.MustFail(t, "set_theme_overrides", map[string]any{"node": "B", "set": []any{map[string]any{"data_type": "color", "name": "font_colour", "value": "#ff0000"}}},
		sdk.CodeValidationError, "Did you mean 'font_color'")
	h.Addon().HandleResult("cmd_ui_set_theme_overrides", map[string]any{"node": "B", "theme_type": "Button", "undoable": true, "persisted": true})
	var out OverridesOut
	h.MustCall(t, "set_theme_overrides", map[string]any{"node": "B", "remove": []any{map[string]any{"data_type": "color", "name": "font_color"}}}).Decode(&out)
	if out.Overrides == nil || !out.Undoable {
		t.Fatalf("%+v", out)
	}
}

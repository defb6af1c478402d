package audio

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_audio_get_buses", Class: sdk.ReadOnly},
	{Name: "cmd_audio_edit_buses", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_audio_get_import", Class: sdk.ReadOnly},
	{Name: "cmd_audio_set_import", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_audio_assign", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands, "handlers.gd", "common.gd", "buses.gd", "imports.gd", "assign.gd")
	for _, f := range []string{"handlers.gd", "common.gd", "buses.gd", "imports.gd", "assign.gd"} {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

var master = map[string]any{"index": 0, "name": "Master", "volume_db": 0.0, "solo": false, "mute": false, "bypass_effects": false, "send": "", "effects": nil}

func TestGetBuses(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_audio_get_buses", map[string]any{"buses": []any{master}, "layout": map[string]any{"path": "res://default_bus_layout.tres", "exists": false}})
	var out BusesOut
	if err := h.MustCall(t, "get_buses", nil).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Buses) != 1 || out.Buses[0].Name != "Master" || out.Buses[0].Effects == nil || out.Layout.Exists {
		t.Fatalf("get_buses: %+v", out)
	}
}

func TestEditBusesSendsOpsAndDryRun(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_audio_edit_buses", map[string]any{"buses": []any{master}, "layout": map[string]any{"path": "res://default_bus_layout.tres", "exists": true},
		"applied": 2, "persisted": true, "undoable": true, "dry_run": false})
	ops := []any{
		map[string]any{"op": "add_bus", "name": "Music", "volume_db": -6, "send": "Master"},
		map[string]any{"op": "add_effect", "bus": "Music", "effect": "AudioEffectReverb", "properties": map[string]any{"room_size": 0.5}},
	}
	var out EditBusesOut
	if err := h.MustCall(t, "edit_buses", map[string]any{"ops": ops}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Applied != 2 || !out.Undoable || !out.Persisted {
		t.Fatalf("edit_buses: %+v", out)
	}
	p := h.LastParams(t, "cmd_audio_edit_buses")
	sent := p["ops"].([]any)
	if p["dry_run"] != false || len(sent) != 2 || sent[0].(map[string]any)["volume_db"] != -6.0 ||
		sent[1].(map[string]any)["properties"].(map[string]any)["room_size"] != 0.5 {
		t.Fatalf("params: %v", p)
	}
	if _, has := sent[0].(map[string]any)["index"]; has {
		t.Fatalf("unset fields must not be sent: %v", sent[0])
	}
	h.MustCall(t, "edit_buses", map[string]any{"ops": ops[:1]}, sdktest.DryRun())
	if p := h.LastParams(t, "cmd_audio_edit_buses"); p["dry_run"] != true {
		t.Fatalf("dry run not passed on: %v", p)
	}
}

// What the Go side refuses never reaches the editor.
func TestEditBusesRefusesBadOps(t *testing.T) {
	h := start(t)
	cases := []struct {
		op   map[string]any
		code sdk.ErrorCode
		hint string
	}{
		{map[string]any{"op": "add_bus"}, sdk.CodeValidationError, "add_bus needs name"},
		{map[string]any{"op": "explode", "bus": "Music"}, sdk.CodeValidationError, "op"},
		{map[string]any{"op": "remove_bus", "bus": "Music", "volume_db": 3}, sdk.CodeValidationError, "remove_bus does not take volume_db"},
		{map[string]any{"op": "move_bus", "bus": "Music"}, sdk.CodeValidationError, "move_bus needs to"},
		{map[string]any{"op": "set_bus", "bus": "Music"}, sdk.CodeValidationError, "at least one of volume_db"},
		{map[string]any{"op": "set_bus", "bus": "Music", "send": ""}, sdk.CodeValidationError, "send is empty"},
		{map[string]any{"op": "set_bus", "bus": "Music", "volume_db": 100}, sdk.CodeValidationError, "volume_db"},
		{map[string]any{"op": "add_effect", "bus": "Music"}, sdk.CodeValidationError, "add_effect needs effect"},
		{map[string]any{"op": "set_effect", "bus": "Music", "index": 0}, sdk.CodeValidationError, "enabled and/or properties"},
		{map[string]any{"op": "remove_effect", "bus": "Music", "index": -1}, sdk.CodeValidationError, "index"},
	}
	for _, c := range cases {
		h.MustFail(t, "edit_buses", map[string]any{"ops": []any{c.op}}, c.code, c.hint)
	}
	h.MustFail(t, "edit_buses", map[string]any{"ops": []any{}}, sdk.CodeValidationError, "ops")
	if len(h.Commands()) != 0 {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

// An editor refusal (Master, unknown effect) comes back as it is.
func TestEditBusesPassesEditorRefusal(t *testing.T) {
	h := start(t)
	h.Addon().HandleError("cmd_audio_edit_buses", &sdk.Error{Code: sdk.CodeValidationError, Hint: "ops[0]: Master (bus 0) cannot be removed: every other bus ends in it."})
	h.MustFail(t, "edit_buses", map[string]any{"ops": []any{map[string]any{"op": "remove_bus", "bus": "Master"}}}, sdk.CodeValidationError, "Master (bus 0) cannot be removed")
}

func TestImportPaths(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_audio_get_import", map[string]any{"files": []any{map[string]any{"path": "res://a.wav", "importer": "wav",
		"options": map[string]any{"edit/loop_mode": 0}, "stream": map[string]any{"class": "AudioStreamWAV", "length": 0.5, "properties": map[string]any{"loop_mode": 0}}}}})
	var out ImportOut
	if err := h.MustCall(t, "get_import", map[string]any{"paths": []string{"res://a.wav"}}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 1 || out.Files[0].Stream == nil || out.Files[0].Stream.Class != "AudioStreamWAV" {
		t.Fatalf("get_import: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "get_import", map[string]any{"paths": []string{"res://../x.wav"}}, sdk.CodeValidationError, "leaves the project")
	h.MustFail(t, "get_import", map[string]any{"paths": []string{"res://icon.png"}}, sdk.CodeValidationError, "not a .wav, .ogg or .mp3")
	h.MustFail(t, "set_import", map[string]any{"paths": []string{"res://a.wav"}, "options": map[string]any{}}, sdk.CodeValidationError, "options is empty")
	h.MustFail(t, "set_import", map[string]any{"paths": []string{}, "options": map[string]any{"loop": true}}, sdk.CodeValidationError, "paths")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

func TestSetImportSendsOptions(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_audio_set_import", map[string]any{"files": []any{map[string]any{"path": "res://a.wav", "importer": "wav",
		"options": map[string]any{"edit/loop_mode": 2}, "stream": nil}}, "changed": true, "persisted": true, "undoable": true, "dry_run": false})
	var out SetImportOut
	if err := h.MustCall(t, "set_import", map[string]any{"paths": []string{"res://a.wav"}, "options": map[string]any{"edit/loop_mode": "forward", "edit/loop_end": 100}}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Changed || !out.Undoable || len(out.Files) != 1 {
		t.Fatalf("set_import: %+v", out)
	}
	p := h.LastParams(t, "cmd_audio_set_import")
	o := p["options"].(map[string]any)
	if o["edit/loop_mode"] != "forward" || o["edit/loop_end"] != 100.0 || p["dry_run"] != false || p["paths"].([]any)[0] != "res://a.wav" {
		t.Fatalf("params: %v", p)
	}
}

func TestAssign(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_audio_assign", map[string]any{"bus": "Music", "nodes": []any{map[string]any{"node": "Theme", "class": "AudioStreamPlayer", "previous": "Master"}},
		"changed": 1, "persisted": true, "undoable": true, "dry_run": false})
	var out AssignOut
	if err := h.MustCall(t, "assign", map[string]any{"nodes": []string{"Theme"}, "bus": "Music"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Changed != 1 || out.Nodes[0].Previous != "Master" {
		t.Fatalf("assign: %+v", out)
	}
	if p := h.LastParams(t, "cmd_audio_assign"); p["bus"] != "Music" || p["nodes"].([]any)[0] != "Theme" || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	n := len(h.Commands())
	h.MustFail(t, "assign", map[string]any{"nodes": []string{}, "bus": "Music"}, sdk.CodeValidationError, "nodes")
	h.MustFail(t, "assign", map[string]any{"nodes": []string{"Theme"}, "bus": ""}, sdk.CodeValidationError, "bus")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

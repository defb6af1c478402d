package e2e

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- audio toolset e2e: the bus layout and audio import options in a real editor ----

type auEffect struct {
	Class      string                     `json:"class"`
	Enabled    bool                       `json:"enabled"`
	Properties map[string]json.RawMessage `json:"properties"`
}

type auBus struct {
	Name     string     `json:"name"`
	VolumeDB float64    `json:"volume_db"`
	Mute     bool       `json:"mute"`
	Send     string     `json:"send"`
	Effects  []auEffect `json:"effects"`
}

type auBuses struct {
	Buses  []auBus `json:"buses"`
	Layout struct {
		Path   string `json:"path"`
		Exists bool   `json:"exists"`
	} `json:"layout"`
	Applied int `json:"applied"`
	sceneEdit
}

func (b auBuses) names() string {
	var n []string
	for _, x := range b.Buses {
		n = append(n, x.Name)
	}
	return strings.Join(n, ",")
}

func (b auBuses) bus(name string) *auBus {
	for i := range b.Buses {
		if b.Buses[i].Name == name {
			return &b.Buses[i]
		}
	}
	return nil
}

func auGet(t *testing.T, s *session) auBuses {
	t.Helper()
	var out auBuses
	s.host.mustCall(t, "godot_audio_get_buses", nil, &out)
	return out
}

// audioCheckScript prints, from a fresh headless Godot, the bus layout the
// project loads at startup (AudioServer) and the loop settings of the streams
// named on the command line.
const audioCheckScript = `extends SceneTree

func _initialize() -> void:
	var buses: Array = []
	for i: int in AudioServer.bus_count:
		var fx: Array = []
		for j: int in AudioServer.get_bus_effect_count(i):
			var e: AudioEffect = AudioServer.get_bus_effect(i, j)
			var d: Dictionary = {"class": e.get_class(), "enabled": AudioServer.is_bus_effect_enabled(i, j)}
			if e is AudioEffectReverb:
				d["room_size"] = (e as AudioEffectReverb).room_size
			if e is AudioEffectCompressor:
				d["threshold"] = (e as AudioEffectCompressor).threshold
			fx.append(d)
		buses.append({"name": str(AudioServer.get_bus_name(i)), "volume_db": AudioServer.get_bus_volume_db(i), "send": str(AudioServer.get_bus_send(i)), "effects": fx})
	var streams: Dictionary = {}
	for p: String in OS.get_cmdline_user_args():
		var w: AudioStreamWAV = load(p) as AudioStreamWAV
		streams[p] = {"loop_mode": w.loop_mode, "loop_end": w.loop_end} if w != null else null
	print("AUDIO_CHECK " + JSON.stringify({"buses": buses, "streams": streams}))
	quit()
`

type auCheck struct {
	Buses []struct {
		Name     string  `json:"name"`
		VolumeDB float64 `json:"volume_db"`
		Send     string  `json:"send"`
		Effects  []struct {
			Class     string   `json:"class"`
			Enabled   bool     `json:"enabled"`
			RoomSize  *float64 `json:"room_size"`
			Threshold *float64 `json:"threshold"`
		} `json:"effects"`
	} `json:"buses"`
	Streams map[string]*struct {
		LoopMode int `json:"loop_mode"`
		LoopEnd  int `json:"loop_end"`
	} `json:"streams"`
}

func loadAudioHeadless(t *testing.T, project string, streams ...string) auCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "audio_check.gd")
	if err := os.WriteFile(script, []byte(audioCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--path", project, "--script", script, "--"}, streams...)
	cmd := exec.CommandContext(ctx, suite.godot, args...)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless audio check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "AUDIO_CHECK "); ok {
			var got auCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no AUDIO_CHECK line:\n%s", out)
	return auCheck{}
}

// The bus layout in a real editor: the default layout is read; a dry run and
// refused calls (Master removal, an unknown effect, a send to a later bus, a
// bad effect property — each after valid ops) change nothing; one call adds
// Music and SFX with a send, a reverb and a compressor, saves the layout file
// and a fresh Godot loads exactly that; undo reverts it (and the file), redo
// brings it back; a rename carries the sends along.
func TestAudioBuses(t *testing.T) {
	s := newSession(t)
	h := s.host
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "audio"}, nil)
	layoutFile := filepath.Join(s.project, "default_bus_layout.tres")

	got := auGet(t, s)
	if got.names() != "Master" || got.Layout.Path != "res://default_bus_layout.tres" || got.Layout.Exists || got.Buses[0].Send != "" {
		t.Fatalf("default layout: %+v", got)
	}

	ops := []any{
		map[string]any{"op": "add_bus", "name": "Music", "volume_db": -6},
		map[string]any{"op": "add_bus", "name": "SFX", "send": "Music"},
		map[string]any{"op": "add_effect", "bus": "Music", "effect": "AudioEffectReverb", "properties": map[string]any{"room_size": 0.7}},
		map[string]any{"op": "add_effect", "bus": "SFX", "effect": "Compressor", "properties": map[string]any{"threshold": -12}},
		map[string]any{"op": "add_effect", "bus": "SFX", "effect": "AudioEffectLimiter", "enabled": false},
		map[string]any{"op": "move_effect", "bus": "SFX", "index": 1, "to": 0},
	}
	var dry auBuses
	h.mustCall(t, "godot_audio_edit_buses", map[string]any{"ops": ops, "dry_run": true}, &dry)
	if !dry.DryRun || dry.names() != "Master,Music,SFX" || dry.Undoable {
		t.Fatalf("dry run: %+v", dry)
	}
	if _, err := os.Stat(layoutFile); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote the layout file: %v", err)
	}
	if g := auGet(t, s); g.names() != "Master" {
		t.Fatalf("the dry run changed the buses: %s", g.names())
	}

	refuse := func(bad map[string]any, code string, hints ...string) {
		t.Helper()
		sceneFail(t, s, "godot_audio_edit_buses", map[string]any{"ops": append(append([]any{}, ops[:2]...), bad)}, code, hints...)
		if g := auGet(t, s); g.names() != "Master" {
			t.Fatalf("a refused call left buses behind: %s", g.names())
		}
	}
	refuse(map[string]any{"op": "remove_bus", "bus": "Master"}, "VALIDATION_ERROR", "Master (bus 0) cannot be removed")
	refuse(map[string]any{"op": "rename_bus", "bus": "Master", "name": "Main"}, "VALIDATION_ERROR", "cannot be renamed")
	refuse(map[string]any{"op": "add_effect", "bus": "Music", "effect": "AudioEffectReverbb"}, "VALIDATION_ERROR", "Did you mean 'AudioEffectReverb'")
	refuse(map[string]any{"op": "add_effect", "bus": "Music", "effect": "AudioEffectReverb", "properties": map[string]any{"room_sise": 1}}, "VALIDATION_ERROR", "Did you mean 'room_size'")
	refuse(map[string]any{"op": "set_bus", "bus": "Music", "send": "SFX"}, "VALIDATION_ERROR", "a send must go to a bus before it")
	refuse(map[string]any{"op": "set_bus", "bus": "Musik", "mute": true}, "RESOURCE_NOT_FOUND", "Did you mean 'Music'")
	refuse(map[string]any{"op": "remove_bus", "bus": "Music"}, "VALIDATION_ERROR", "sends to 'Music'")
	if _, err := os.Stat(layoutFile); !os.IsNotExist(err) {
		t.Fatalf("a refused call wrote the layout file: %v", err)
	}

	var done auBuses
	h.mustCall(t, "godot_audio_edit_buses", map[string]any{"ops": ops}, &done)
	sfx := done.bus("SFX")
	if done.names() != "Master,Music,SFX" || !done.Persisted || !done.Undoable || !done.Layout.Exists || done.Applied != len(ops) ||
		done.bus("Music").VolumeDB != -6 || done.bus("Music").Send != "Master" || sfx.Send != "Music" || len(sfx.Effects) != 2 ||
		sfx.Effects[0].Class != "AudioEffectLimiter" || sfx.Effects[0].Enabled || sfx.Effects[1].Class != "AudioEffectCompressor" ||
		!near(done.bus("Music").Effects[0].Properties["room_size"], 0.7) {
		t.Fatalf("edit_buses: %+v", done)
	}
	if g := auGet(t, s); g.names() != "Master,Music,SFX" {
		t.Fatalf("get_buses after edit: %s", g.names())
	}
	fresh := loadAudioHeadless(t, s.project)
	if len(fresh.Buses) != 3 || fresh.Buses[1].Name != "Music" || fresh.Buses[1].VolumeDB != -6 || fresh.Buses[2].Name != "SFX" || fresh.Buses[2].Send != "Music" ||
		len(fresh.Buses[1].Effects) != 1 || fresh.Buses[1].Effects[0].RoomSize == nil || *fresh.Buses[1].Effects[0].RoomSize < 0.69 || *fresh.Buses[1].Effects[0].RoomSize > 0.71 ||
		len(fresh.Buses[2].Effects) != 2 || fresh.Buses[2].Effects[0].Class != "AudioEffectLimiter" || fresh.Buses[2].Effects[0].Enabled ||
		fresh.Buses[2].Effects[1].Threshold == nil || *fresh.Buses[2].Effects[1].Threshold != -12 {
		t.Fatalf("a fresh Godot loads another layout: %+v", fresh)
	}

	var undo struct {
		Performed int    `json:"performed"`
		History   string `json:"history"`
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &undo)
	if undo.Performed != 1 {
		t.Fatalf("undo: %+v", undo)
	}
	if g := auGet(t, s); g.names() != "Master" {
		t.Fatalf("after undo: %s", g.names())
	}
	if b, _ := os.ReadFile(layoutFile); strings.Contains(string(b), "Music") {
		t.Fatalf("undo left the layout file with Music:\n%s", b)
	}
	h.mustCall(t, "godot_redo", map[string]any{"history": "global"}, nil)
	if g := auGet(t, s); g.names() != "Master,Music,SFX" || g.bus("Music").Effects[0].Class != "AudioEffectReverb" {
		t.Fatalf("after redo: %+v", g)
	}

	var renamed auBuses
	h.mustCall(t, "godot_audio_edit_buses", map[string]any{"ops": []any{
		map[string]any{"op": "rename_bus", "bus": "Music", "name": "Score"},
		map[string]any{"op": "set_effect", "bus": "SFX", "index": 0, "enabled": true},
		map[string]any{"op": "move_bus", "bus": "SFX", "to": 1},
		map[string]any{"op": "set_bus", "bus": "SFX", "send": "Master", "mute": true},
	}}, &renamed)
	if renamed.names() != "Master,SFX,Score" || !renamed.bus("SFX").Mute || renamed.bus("SFX").Send != "Master" || !renamed.bus("SFX").Effects[0].Enabled {
		t.Fatalf("rename/move: %+v", renamed)
	}
	sceneFail(t, s, "godot_audio_edit_buses", map[string]any{"ops": []any{map[string]any{"op": "set_bus", "bus": "SFX", "send": "Score"}}}, "VALIDATION_ERROR", "before it")
	sceneFail(t, s, "godot_audio_edit_buses", map[string]any{"ops": []any{map[string]any{"op": "remove_effect", "bus": "Score", "index": 3}}}, "RESOURCE_NOT_FOUND", "has 1")

	// ---- assign: players of a scene get a bus of the layout, one undo action ----
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "scene"}, nil)
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://level.tscn", "root_type": "Node2D", "root_name": "Level"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "AudioStreamPlayer", "name": "Theme"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "AudioStreamPlayer2D", "name": "Step"}, nil)
	sceneFail(t, s, "godot_audio_assign", map[string]any{"nodes": []string{"Theme"}, "bus": "Scroe"}, "RESOURCE_NOT_FOUND", "Did you mean 'Score'")
	sceneFail(t, s, "godot_audio_assign", map[string]any{"nodes": []string{"Theme", "."}, "bus": "Score"}, "VALIDATION_ERROR", "is a Node2D", "Theme, Step")
	sceneFail(t, s, "godot_audio_assign", map[string]any{"nodes": []string{"Them"}, "bus": "Score"}, "RESOURCE_NOT_FOUND", "Did you mean 'Theme'")
	var asg struct {
		Changed int `json:"changed"`
		Nodes   []struct {
			Node     string `json:"node"`
			Previous string `json:"previous"`
		} `json:"nodes"`
		sceneEdit
	}
	h.mustCall(t, "godot_audio_assign", map[string]any{"nodes": []string{"Theme", "Step"}, "bus": "Score"}, &asg)
	if asg.Changed != 2 || !asg.Undoable || !asg.Persisted || asg.Nodes[0].Previous != "Master" {
		t.Fatalf("assign: %+v", asg)
	}
	h.mustCall(t, "godot_scene_save", nil, nil)
	tscn, err := os.ReadFile(filepath.Join(s.project, "level.tscn"))
	if err != nil || strings.Count(string(tscn), `bus = &"Score"`) != 2 {
		t.Fatalf("the saved scene lacks the buses (%v):\n%s", err, tscn)
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "scene"}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	if tscn, _ := os.ReadFile(filepath.Join(s.project, "level.tscn")); strings.Contains(string(tscn), `bus = &"Score"`) {
		t.Fatalf("undo left a bus:\n%s", tscn)
	}
}

func near(raw json.RawMessage, want float64) bool {
	var v float64
	return json.Unmarshal(raw, &v) == nil && v > want-1e-4 && v < want+1e-4
}

// wavBytes is a mono 16-bit PCM RIFF WAV of n samples at 22050 Hz (a ramp).
func wavBytes(n int) []byte {
	data := make([]byte, 2*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint16(data[2*i:], uint16(int16((i%200)*100-10000)))
	}
	var b []byte
	le32 := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	le16 := func(v uint16) { b = binary.LittleEndian.AppendUint16(b, v) }
	b = append(b, "RIFF"...)
	le32(uint32(36 + len(data)))
	b = append(b, "WAVEfmt "...)
	le32(16)
	le16(1)         // PCM
	le16(1)         // mono
	le32(22050)     // sample rate
	le32(22050 * 2) // byte rate
	le16(2)         // block align
	le16(16)        // bits per sample
	b = append(b, "data"...)
	le32(uint32(len(data)))
	return append(b, data...)
}

// Audio import options in a real editor: a generated WAV is imported, read,
// refused an unknown option (did-you-mean) and a bad enum name, set to loop
// forward (by name) up to a loop end, reimported; the .import file and a fresh
// Godot's loaded stream have it; undo puts the old settings back.
func TestAudioImport(t *testing.T) {
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"audio", "resources"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	if err := os.MkdirAll(filepath.Join(s.project, "sfx"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.project, "sfx", "beep.wav"), wavBytes(4410), 0o644); err != nil {
		t.Fatal(err)
	}
	sceneFail(t, s, "godot_audio_get_import", map[string]any{"paths": []string{"res://sfx/beep.wav"}}, "PRECONDITION_FAILED", "godot_resources_rescan")
	h.mustCall(t, "godot_resources_rescan", map[string]any{"timeout_ms": 60000}, nil)

	type imp struct {
		Files []struct {
			Path     string                     `json:"path"`
			Importer string                     `json:"importer"`
			Options  map[string]json.RawMessage `json:"options"`
			Stream   *struct {
				Class      string                     `json:"class"`
				Length     float64                    `json:"length"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"stream"`
		} `json:"files"`
		Changed bool `json:"changed"`
		sceneEdit
	}
	var got imp
	h.mustCall(t, "godot_audio_get_import", map[string]any{"paths": []string{"res://sfx/beep.wav"}}, &got)
	f := got.Files[0]
	if f.Importer != "wav" || string(f.Options["edit/loop_mode"]) != "0" || f.Stream == nil || f.Stream.Class != "AudioStreamWAV" ||
		f.Stream.Length < 0.19 || f.Stream.Length > 0.21 || string(f.Stream.Properties["loop_mode"]) != "0" {
		t.Fatalf("get_import: %+v", got)
	}
	set := func(opts map[string]any) map[string]any {
		return map[string]any{"paths": []string{"res://sfx/beep.wav"}, "options": opts}
	}
	sceneFail(t, s, "godot_audio_set_import", set(map[string]any{"edit/loop_mod": "forward"}), "VALIDATION_ERROR", "Did you mean 'edit/loop_mode'")
	sceneFail(t, s, "godot_audio_set_import", set(map[string]any{"edit/loop_mode": "forwards"}), "VALIDATION_ERROR", "forward")
	sceneFail(t, s, "godot_audio_set_import", set(map[string]any{"edit/trim": 1}), "VALIDATION_ERROR", "true or false")
	importFile := filepath.Join(s.project, "sfx", "beep.wav.import")
	before, err := os.ReadFile(importFile)
	if err != nil {
		t.Fatal(err)
	}
	sceneFail(t, s, "godot_audio_set_import", map[string]any{"paths": []string{"res://sfx/beep.wav", "res://sfx/bep.wav"}, "options": map[string]any{"edit/loop_mode": 2}},
		"RESOURCE_NOT_FOUND", "bep.wav")
	if after, _ := os.ReadFile(importFile); string(after) != string(before) {
		t.Fatalf("a refused call (second file missing) changed the first file's .import:\n%s", after)
	}
	var dry imp
	h.mustCall(t, "godot_audio_set_import", withArgs(set(map[string]any{"edit/loop_mode": "forward"}), "dry_run", true), &dry)
	if after, _ := os.ReadFile(importFile); !dry.DryRun || string(dry.Files[0].Options["edit/loop_mode"]) != "2" || string(after) != string(before) {
		t.Fatalf("dry run: %+v (import file changed: %v)", dry, string(after) != string(before))
	}

	var done imp
	h.mustCall(t, "godot_audio_set_import", set(map[string]any{"edit/loop_mode": "forward", "edit/loop_end": 4000}), &done)
	f = done.Files[0]
	if !done.Changed || !done.Undoable || !done.Persisted || string(f.Options["edit/loop_mode"]) != "2" || f.Stream == nil ||
		string(f.Stream.Properties["loop_mode"]) != "1" || string(f.Stream.Properties["loop_end"]) != "4000" {
		t.Fatalf("set_import: %+v", done)
	}
	if b, _ := os.ReadFile(importFile); !strings.Contains(string(b), "edit/loop_mode=2") || !strings.Contains(string(b), "edit/loop_end=4000") {
		t.Fatalf("the .import file lacks the new options:\n%s", b)
	}
	var same imp
	h.mustCall(t, "godot_audio_set_import", set(map[string]any{"edit/loop_mode": 2}), &same)
	if same.Changed || same.Undoable || !same.Persisted {
		t.Fatalf("setting what is already set: %+v", same)
	}
	fresh := loadAudioHeadless(t, s.project, "res://sfx/beep.wav")
	if st := fresh.Streams["res://sfx/beep.wav"]; st == nil || st.LoopMode != 1 || st.LoopEnd != 4000 {
		t.Fatalf("a fresh Godot loads another stream: %+v", fresh.Streams)
	}

	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, nil)
	if b, _ := os.ReadFile(importFile); !strings.Contains(string(b), "edit/loop_mode=0") {
		t.Fatalf("undo left the .import file:\n%s", b)
	}
	h.mustCall(t, "godot_audio_get_import", map[string]any{"paths": []string{"res://sfx/beep.wav"}}, &got)
	if string(got.Files[0].Stream.Properties["loop_mode"]) != "0" {
		t.Fatalf("after undo the stream still loops: %+v", got.Files[0].Stream)
	}
}

// existingLayout is a hand-written bus layout file: Voice has an empty send
// (AudioServer mixes it into Master) and a reverb; Late sends to Amb, a bus
// after it (mixed into Master too).
const existingLayout = `[gd_resource type="AudioBusLayout" load_steps=2 format=3]

[sub_resource type="AudioEffectReverb" id="AudioEffectReverb_v1"]
resource_name = "Reverb"
room_size = 0.5

[resource]
bus/1/name = &"Voice"
bus/1/solo = false
bus/1/mute = false
bus/1/bypass_fx = false
bus/1/volume_db = 0.0
bus/1/send = &""
bus/1/effect/0/effect = SubResource("AudioEffectReverb_v1")
bus/1/effect/0/enabled = true
bus/2/name = &"Late"
bus/2/solo = false
bus/2/mute = false
bus/2/bypass_fx = false
bus/2/volume_db = 0.0
bus/2/send = &"Amb"
bus/3/name = &"Amb"
bus/3/solo = false
bus/3/mute = false
bus/3/bypass_fx = false
bus/3/volume_db = 0.0
bus/3/send = &"Master"
`

// A project's own layout file, loaded by the editor at startup: it is read as
// it is (an empty send reads as Master), an edit that does not touch its odd
// sends is not refused for them, keeps its effects, and is saved over it.
func TestAudioExistingLayout(t *testing.T) {
	project := newProject(t)
	layoutFile := filepath.Join(project, "default_bus_layout.tres")
	if err := os.WriteFile(layoutFile, []byte(existingLayout), 0o644); err != nil {
		t.Fatal(err)
	}
	h := startHostT(t, "ws://127.0.0.1:0")
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "audio"}, nil)

	got := auGet(t, s)
	if got.names() != "Master,Voice,Late,Amb" || !got.Layout.Exists || got.bus("Voice").Send != "Master" || got.bus("Late").Send != "Amb" ||
		len(got.bus("Voice").Effects) != 1 || !near(got.bus("Voice").Effects[0].Properties["room_size"], 0.5) {
		t.Fatalf("existing layout: %+v", got)
	}
	var done auBuses
	h.mustCall(t, "godot_audio_edit_buses", map[string]any{"ops": []any{map[string]any{"op": "set_bus", "bus": "Voice", "volume_db": -3}}}, &done)
	if !done.Persisted || done.bus("Voice").VolumeDB != -3 {
		t.Fatalf("edit: %+v", done)
	}
	sceneFail(t, s, "godot_audio_edit_buses", map[string]any{"ops": []any{map[string]any{"op": "set_bus", "bus": "Voice", "send": "Late"}}}, "VALIDATION_ERROR", "a send must go to a bus before it")
	fresh := loadAudioHeadless(t, project)
	if len(fresh.Buses) != 4 || fresh.Buses[1].Name != "Voice" || fresh.Buses[1].VolumeDB != -3 || len(fresh.Buses[1].Effects) != 1 ||
		fresh.Buses[1].Effects[0].RoomSize == nil || *fresh.Buses[1].Effects[0].RoomSize != 0.5 || fresh.Buses[2].Send != "Amb" {
		t.Fatalf("a fresh Godot loads another layout: %+v", fresh)
	}
}

package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/nolinks"
	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/plugins/internal/timeline"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// This file turns a playtest (an input timeline and checks at given ticks)
// into a GUT or gdUnit4 test script that stays in the project (issue 22,
// item 7). The script is self-contained: it needs neither godot-mcp nor its
// addon, only the framework, so it keeps working in the project's own CI.

// Check is an expression that must be true once a number of ticks (or
// frames) have run.
type Check struct {
	At      int    `json:"at" jsonschema:"minimum=0" description:"ticks/frames run when it is checked (0: before the first, after _ready)"`
	Expr    string `json:"expr" description:"a GDScript Expression that must be true: node is its self (position.x > 100); node, tree, root, scene and the autoloads are bound"`
	Node    string `json:"node,omitempty" description:"path relative to the scene's root (default the root)"`
	Message string `json:"message,omitempty" description:"what it proves, shown when it fails"`
}

// WritePlaytestIn is the playtest to write as a test.
type WritePlaytestIn struct {
	Path       string                `json:"path" description:"res:// test script to write (.gd), e.g. res://test/test_jump.gd"`
	Scene      string                `json:"scene" description:"res:// scene the test instances and plays"`
	Framework  string                `json:"framework,omitempty" jsonschema:"enum=gut|gdunit4" description:"required when the project has both"`
	Unit       string                `json:"unit,omitempty" jsonschema:"enum=physics_ticks|process_frames,default=physics_ticks" description:"what at and count count"`
	Count      int                   `json:"count,omitempty" jsonschema:"minimum=0,maximum=36000" description:"ticks/frames the test plays (default: the last at)"`
	Inputs     []timeline.TimedInput `json:"inputs,omitempty" jsonschema:"maxItems=500" description:"input timeline as godot_playtest_step takes it (at from the scene's start)"`
	Recording  string                `json:"recording,omitempty" description:"or a godot_playtest_record file (res://...json): its inputs, and its frames as count"`
	Checks     []Check               `json:"checks" jsonschema:"minItems=1,maxItems=100" description:"what must hold, and when"`
	Overwrite  bool                  `json:"overwrite,omitempty" description:"replace an existing script at path"`
	Run        *bool                 `json:"run,omitempty" description:"run it headless at once and answer the result (default true)"`
	TimeoutMs  int                   `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=600000,default=120000" description:"bound of the run"`
	ProjectDir string                `json:"project_dir,omitempty" description:"as in detect"`
}

// WritePlaytestOut says what was written and how its run went.
type WritePlaytestOut struct {
	Path      string  `json:"path"`
	Framework string  `json:"framework"`
	Test      string  `json:"test" description:"the test function"`
	Written   bool    `json:"written" description:"false on dry_run"`
	Overwrote bool    `json:"overwrote"`
	Source    string  `json:"source,omitempty" description:"the script (dry_run only)"`
	Run       *RunOut `json:"run,omitempty" description:"the run's result, as godot_tests_run answers"`
	DryRun    bool    `json:"dry_run"`
}

var testFuncName = regexp.MustCompile(`[^a-z0-9_]+`)

func writePlaytest(ctx context.Context, call *sdk.Call, in WritePlaytestIn) (WritePlaytestOut, error) {
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "the tests toolset")
	if err != nil {
		return WritePlaytestOut{}, err
	}
	fw, err := chooseFramework(dir, in.Framework)
	if err != nil {
		return WritePlaytestOut{}, err
	}
	target, err := respath.Clean(in.Path)
	if err != nil || !strings.HasSuffix(target, ".gd") {
		return WritePlaytestOut{}, sdk.Validation("path must be a res:// script path ending in .gd, e.g. res://test/test_jump.gd")
	}
	rel := strings.TrimPrefix(target, "res://")
	if strings.HasPrefix(rel, "addons/") {
		return WritePlaytestOut{}, sdk.Validation("path is inside res://addons, which test discovery skips: write it to res://test/ or another folder of the game")
	}
	scene, _, err := resPath(dir, in.Scene)
	if err != nil {
		return WritePlaytestOut{}, err
	}
	if !strings.HasSuffix(scene, ".tscn") && !strings.HasSuffix(scene, ".scn") {
		return WritePlaytestOut{}, sdk.Validation(fmt.Sprintf("scene must be a .tscn or .scn scene, not %s", scene))
	}
	if in.Recording != "" {
		if err := fromRecording(dir, &in); err != nil {
			return WritePlaytestOut{}, err
		}
	}
	unit := in.Unit
	if unit == "" {
		unit = "physics_ticks"
	}
	count, err := playtestWindow(in)
	if err != nil {
		return WritePlaytestOut{}, err
	}
	base := strings.TrimSuffix(filepath.Base(rel), ".gd")
	test := "test_" + strings.Trim(testFuncName.ReplaceAllString(strings.TrimPrefix(strings.ToLower(base), "test_"), "_"), "_")
	if test == "test_" {
		test = "test_playtest"
	}
	src, err := playtestSource(fw.Name, test, scene, unit, count, in)
	if err != nil {
		return WritePlaytestOut{}, err
	}

	root, err := nolinks.Open(dir)
	if err != nil {
		return WritePlaytestOut{}, sdk.Internal(fmt.Sprintf("opening the project %s: %v", dir, err))
	}
	defer root.Close()
	if err := root.Check(rel); err != nil {
		return WritePlaytestOut{}, linkRefusal(target, err)
	}
	_, statErr := root.Lstat(rel)
	exists := statErr == nil
	if exists && !in.Overwrite {
		return WritePlaytestOut{}, sdk.PreconditionFailed("", fmt.Sprintf("%s already exists: pass overwrite: true (with confirm: true) to replace it, or choose another path", target))
	}
	out := WritePlaytestOut{Path: target, Framework: fw.Name, Test: test, Overwrote: exists, DryRun: call.DryRun}
	if call.DryRun {
		out.Overwrote = false
		out.Source = src
		return out, nil
	}
	if err := root.WriteFile(rel, []byte(src), 0o644); err != nil {
		return WritePlaytestOut{}, linkRefusal(target, err)
	}
	out.Written = true
	if in.Run != nil && !*in.Run {
		return out, nil
	}
	res, err := run(ctx, call, RunIn{Framework: fw.Name, Path: target, TimeoutMs: in.TimeoutMs, ProjectDir: dir})
	if err != nil {
		e := sdk.AsError(err)
		e.Hint = fmt.Sprintf("%s was written, but running it failed: %s", target, e.Hint)
		return WritePlaytestOut{}, e
	}
	out.Run = &res
	return out, nil
}

// recordingDoc is the part of a godot_playtest_record file (docs/playtest.md,
// version 1) a test is written from.
type recordingDoc struct {
	Format  string                `json:"format"`
	Version int                   `json:"version"`
	Unit    string                `json:"unit"`
	Frames  int                   `json:"frames"`
	Inputs  []timeline.TimedInput `json:"inputs"`
}

// fromRecording takes in's inputs, count and unit from its recording.
func fromRecording(dir string, in *WritePlaytestIn) error {
	if len(in.Inputs) > 0 {
		return sdk.Validation("give recording or inputs, not both")
	}
	clean, err := respath.Clean(in.Recording)
	if err != nil || !strings.HasSuffix(clean, ".json") {
		return sdk.Validation("recording must be a res:// .json path, e.g. res://playtests/jump.json")
	}
	root, err := nolinks.Open(dir)
	if err != nil {
		return sdk.Internal(fmt.Sprintf("opening the project %s: %v", dir, err))
	}
	defer root.Close()
	raw, err := root.ReadFile(strings.TrimPrefix(clean, "res://"))
	if err != nil {
		if nolinks.IsLink(err) {
			return sdk.Validation(fmt.Sprintf("refused to read %s: %v", clean, err))
		}
		list := "none"
		if have, _ := filepath.Glob(filepath.Join(dir, "playtests", "*.json")); len(have) > 0 {
			for i, h := range have {
				have[i] = "res://playtests/" + filepath.Base(h)
			}
			list = strings.Join(have, ", ")
		}
		return sdk.NotFound(fmt.Sprintf("no recording at %s; recordings in res://playtests: %s", clean, list))
	}
	var doc recordingDoc
	bad := func(why string) error {
		return sdk.Validation(fmt.Sprintf("%s is not a recording this godot-mcp reads: %s (docs/playtest.md)", clean, why))
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return bad(err.Error())
	}
	switch {
	case doc.Format != "godot-mcp-recording":
		return bad(`format must be "godot-mcp-recording"`)
	case doc.Version < 1 || doc.Version > 1:
		return bad(fmt.Sprintf("version is %d; this godot-mcp reads version 1", doc.Version))
	case doc.Unit != "physics_ticks" && doc.Unit != "process_frames":
		return bad("unit must be physics_ticks or process_frames")
	case len(doc.Inputs) > 500:
		return bad(fmt.Sprintf("it has %d inputs; a test takes at most 500", len(doc.Inputs)))
	}
	if in.Unit != "" && in.Unit != doc.Unit {
		return sdk.Validation(fmt.Sprintf("unit is %s but %s counts %s: give unit %s", in.Unit, clean, doc.Unit, doc.Unit))
	}
	in.Unit, in.Inputs = doc.Unit, doc.Inputs
	if in.Count == 0 {
		in.Count = doc.Frames
	}
	return nil
}

func linkRefusal(target string, err error) error {
	if nolinks.IsLink(err) {
		return sdk.Validation(fmt.Sprintf("refused to write %s: %v (godot-mcp never writes through a link a project holds)", target, err))
	}
	return sdk.Internal(fmt.Sprintf("writing %s failed: %v", target, err))
}

// playtestWindow checks the timeline and checks and answers the count.
func playtestWindow(in WritePlaytestIn) (int, error) {
	last := 0
	for i, c := range in.Checks {
		if strings.TrimSpace(c.Expr) == "" {
			return 0, sdk.Validation(fmt.Sprintf("checks[%d].expr is empty", i))
		}
		if strings.ContainsAny(c.Expr, "\n\r") {
			return 0, sdk.Validation(fmt.Sprintf("checks[%d].expr is an Expression: one line", i))
		}
		last = max(last, c.At)
	}
	for i, s := range in.Inputs {
		switch s.Type {
		case "action":
			if s.Action == "" {
				return 0, sdk.Validation(fmt.Sprintf("inputs[%d]: type action needs action (an input map action)", i))
			}
		case "key":
			if s.Key == "" {
				return 0, sdk.Validation(fmt.Sprintf("inputs[%d]: type key needs key (a Godot key name: A, Space, Left)", i))
			}
		case "mouse_button", "mouse_motion":
		case "joypad_button", "joypad_motion":
			if s.Index == nil {
				return 0, sdk.Validation(fmt.Sprintf("inputs[%d]: type %s needs index (Godot's JoyButton or JoyAxis number)", i, s.Type))
			}
			if s.Type == "joypad_motion" && s.Value == nil {
				return 0, sdk.Validation(fmt.Sprintf("inputs[%d]: type joypad_motion needs value (the axis position, -1 to 1)", i))
			}
		default:
			return 0, sdk.Validation(fmt.Sprintf("inputs[%d].type is required: action, key, mouse_button, mouse_motion, joypad_button or joypad_motion", i))
		}
	}
	count := in.Count
	if count == 0 {
		count = last
	}
	if last > count {
		return 0, sdk.Validation(fmt.Sprintf("a check is at %d, after the window of %d: raise count or move the check", last, count))
	}
	for i, s := range in.Inputs {
		if s.At >= count {
			return 0, sdk.Validation(fmt.Sprintf("inputs[%d].at is %d, not inside the window of %d (the game would never see it)", i, s.At, count))
		}
	}
	return count, nil
}

// gdLiteral writes v as a GDScript literal (JSON's syntax is GDScript's for
// strings, numbers, booleans, arrays and dictionaries).
func gdLiteral(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSpace(b.String()), nil
}

func playtestSource(fw, test, scene, unit string, count int, in WritePlaytestIn) (string, error) {
	var b strings.Builder
	base, assert := "GutTest", "assert_true(ok, msg)"
	if fw == "gdunit4" {
		base, assert = "GdUnitTestSuite", "assert_bool(ok).override_failure_message(msg).is_true()"
	}
	lit := func(v any) string {
		s, err := gdLiteral(v)
		if err != nil {
			panic(err) // the inputs are JSON already
		}
		return s
	}
	fmt.Fprintf(&b, "extends %s\n", base)
	b.WriteString("## A playtest kept as a test: written by godot-mcp (godot_tests_write_playtest).\n")
	b.WriteString("## It plays SCENE for COUNT steps, sends INPUTS at their step and checks CHECKS;\n")
	b.WriteString("## it needs only the test framework. Edit the constants to change what it proves.\n\n")
	fmt.Fprintf(&b, "const SCENE := %s\n", lit(scene))
	fmt.Fprintf(&b, "const UNIT := %s  # physics_ticks or process_frames\n", lit(unit))
	fmt.Fprintf(&b, "const COUNT := %d\n", count)
	b.WriteString("const INPUTS := [\n")
	for _, s := range in.Inputs {
		b.WriteString("\t" + lit(s) + ",\n")
	}
	b.WriteString("]\nconst CHECKS := [\n")
	for _, c := range in.Checks {
		b.WriteString("\t" + lit(c) + ",\n")
	}
	b.WriteString("]\n\n")
	fmt.Fprintf(&b, "func %s() -> void:\n", test)
	b.WriteString("\tvar scene: Node = (load(SCENE) as PackedScene).instantiate()\n")
	b.WriteString("\tvar events: Array = _timeline()\n")
	b.WriteString("\tvar held: Dictionary = {}\n")
	b.WriteString("\tget_tree().root.add_child(scene)\n")
	b.WriteString("\tawait _step()  # in step with the game: the first step is about to run\n")
	b.WriteString("\tfor step: int in range(COUNT + 1):\n")
	b.WriteString("\t\tfor c: Dictionary in CHECKS:\n")
	b.WriteString("\t\t\tif int(c[\"at\"]) == step:\n")
	b.WriteString("\t\t\t\tvar r: Array = _check(c, scene)\n")
	b.WriteString("\t\t\t\tvar ok: bool = r[0]\n")
	b.WriteString("\t\t\t\tvar msg: String = r[1]\n")
	fmt.Fprintf(&b, "\t\t\t\t%s\n", assert)
	b.WriteString("\t\tif step == COUNT:\n\t\t\tbreak\n")
	b.WriteString("\t\twhile not events.is_empty() and int(events[0][\"at\"]) <= step:\n")
	b.WriteString("\t\t\tvar e: Dictionary = events.pop_front()\n")
	b.WriteString("\t\t\t_emit(e[\"input\"], bool(e[\"pressed\"]))\n")
	b.WriteString("\t\t\tif bool(e[\"pressed\"]):\n\t\t\t\theld[e[\"key\"]] = e[\"input\"]\n\t\t\telse:\n\t\t\t\theld.erase(e[\"key\"])\n")
	b.WriteString("\t\tInput.flush_buffered_events()\n")
	b.WriteString("\t\tawait _step()\n")
	b.WriteString("\tfor k: Variant in held.keys():\n\t\t_emit(held[k], false)\n")
	b.WriteString("\tInput.flush_buffered_events()\n")
	b.WriteString("\tscene.queue_free()\n")
	b.WriteString("\tawait get_tree().process_frame\n")
	b.WriteString(playtestRunner)
	return b.String(), nil
}

// playtestRunner is the generated script's fixed part.
const playtestRunner = `

func _step() -> void:
	if UNIT == "process_frames":
		await get_tree().process_frame
	else:
		await get_tree().physics_frame


## [ok, message] of one check.
func _check(c: Dictionary, scene: Node) -> Array:
	var where: String = "at %s %d" % ["frame" if UNIT == "process_frames" else "physics tick", int(c["at"])]
	var node: Node = scene
	if str(c.get("node", "")) != "":
		node = scene.get_node_or_null(NodePath(str(c["node"])))
		if node == null:
			return [false, "%s: node %s is not in the scene" % [where, c["node"]]]
	var names: PackedStringArray = ["node", "tree", "root", "scene"]
	var values: Array = [node, get_tree(), get_tree().root, scene]
	for p: Dictionary in ProjectSettings.get_property_list():
		var n: String = p["name"]
		if n.begins_with("autoload/"):
			var a: Node = get_tree().root.get_node_or_null(NodePath(n.trim_prefix("autoload/")))
			if a != null:
				names.append(a.name)
				values.append(a)
	var expr: Expression = Expression.new()
	var text: String = str(c["expr"])
	var why: String = str(c.get("message", ""))
	if why != "":
		why = " (" + why + ")"
	if expr.parse(text, names) != OK:
		return [false, "%s: '%s' does not parse: %s" % [where, text, expr.get_error_text()]]
	var v: Variant = expr.execute(values, node, false)
	if expr.has_execute_failed():
		return [false, "%s: '%s' failed: %s%s" % [where, text, expr.get_error_text(), why]]
	if typeof(v) != TYPE_BOOL:
		return [false, "%s: '%s' is %s, not true or false%s" % [where, text, var_to_str(v), why]]
	return [v, "%s: '%s' is false on %s%s" % [where, text, node.name, why]]


## The timeline as press/release events sorted by step.
func _timeline() -> Array:
	var out: Array = []
	for i: int in INPUTS.size():
		var s: Dictionary = INPUTS[i]
		var key: String = "%s:%s:%s" % [s.get("type"), s.get("action", s.get("key", s.get("button", s.get("index", "left")))), s.get("device", 0)]
		var at: int = int(s["at"])
		match str(s.get("state", "tap")):
			"press":
				out.append({"at": at, "i": i, "input": s, "pressed": true, "key": key})
			"release":
				out.append({"at": at, "i": i, "input": s, "pressed": false, "key": key})
			_:
				out.append({"at": at, "i": i, "input": s, "pressed": true, "key": key})
				if not str(s["type"]) in ["mouse_motion", "joypad_motion"]:
					out.append({"at": at + int(s.get("hold_frames", 2)), "i": i, "input": s, "pressed": false, "key": key})
	out.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return a["at"] < b["at"] or (a["at"] == b["at"] and a["i"] < b["i"]))
	return out


func _emit(s: Dictionary, pressed: bool) -> void:
	var mods: Array = s.get("modifiers", [])
	match str(s["type"]):
		"action":
			var a: InputEventAction = InputEventAction.new()
			a.action = StringName(str(s["action"]))
			a.pressed = pressed
			a.strength = float(s.get("strength", 1.0)) if pressed else 0.0
			Input.parse_input_event(a)
		"key":
			var k: InputEventKey = InputEventKey.new()
			var code: Key = OS.find_keycode_from_string(str(s["key"]))
			k.keycode = code
			k.physical_keycode = code
			k.pressed = pressed
			_mods(k, mods)
			Input.parse_input_event(k)
		"mouse_button":
			var buttons: Dictionary = {"left": 1, "right": 2, "middle": 3, "wheel_up": 4, "wheel_down": 5, "wheel_left": 6, "wheel_right": 7, "xbutton1": 8, "xbutton2": 9}
			var m: InputEventMouseButton = InputEventMouseButton.new()
			m.button_index = buttons.get(str(s.get("button", "left")), 1)
			m.pressed = pressed
			if s.has("position"):
				m.position = Vector2(s["position"]["x"], s["position"]["y"])
				m.global_position = m.position
			_mods(m, mods)
			Input.parse_input_event(m)
		"mouse_motion":
			var mm: InputEventMouseMotion = InputEventMouseMotion.new()
			if s.has("position"):
				mm.position = Vector2(s["position"]["x"], s["position"]["y"])
				mm.global_position = mm.position
			if s.has("relative"):
				mm.relative = Vector2(s["relative"]["x"], s["relative"]["y"])
			_mods(mm, mods)
			Input.parse_input_event(mm)
		"joypad_button":
			var jb: InputEventJoypadButton = InputEventJoypadButton.new()
			jb.device = int(s.get("device", 0))
			jb.button_index = int(s["index"]) as JoyButton
			jb.pressed = pressed
			jb.pressure = 1.0 if pressed else 0.0
			Input.parse_input_event(jb)
		"joypad_motion":
			var jm: InputEventJoypadMotion = InputEventJoypadMotion.new()
			jm.device = int(s.get("device", 0))
			jm.axis = int(s["index"]) as JoyAxis
			jm.axis_value = float(s["value"]) if pressed else 0.0
			Input.parse_input_event(jm)


func _mods(e: InputEventWithModifiers, mods: Array) -> void:
	e.shift_pressed = mods.has("shift")
	e.ctrl_pressed = mods.has("ctrl")
	e.alt_pressed = mods.has("alt")
	e.meta_pressed = mods.has("meta")
`

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// compatCheck prints, on the running engine, the mismatches of the addon's
// real feature table and of a fixture table whose guard is deliberately
// wrong (a class every Godot 4 has, claimed to appear only in 4.99).
const compatCheck = `extends SceneTree

const Compat := preload("res://addons/godot_mcp/lib/compat.gd")

func _initialize() -> void:
	var wrong := {"node_from_4_99": ["4.99", "class", "Node", ""], "no_such_class_from_4_0": ["4.0", "class", "NoSuchClassAnywhere", ""]}
	var v: Dictionary = Engine.get_version_info()
	print("COMPAT " + JSON.stringify({
		"version": "%d.%d" % [v["major"], v["minor"]],
		"features": Compat.FEATURES.keys(),
		"real": Compat.mismatches(),
		"fixture": Compat.mismatches(wrong),
	}))
	quit()
`

// Every version switch of addon/lib/compat.gd agrees with the engine it runs
// on (each feature's version and its probe say the same), and the check
// catches a deliberately wrong guard. Runs on every engine of the matrix.
func TestCompatTableMatchesEngine(t *testing.T) {
	project := newProject(t)
	var got struct {
		Version  string           `json:"version"`
		Features []string         `json:"features"`
		Real     []map[string]any `json:"real"`
		Fixture  []map[string]any `json:"fixture"`
	}
	out := headlessPrint(t, project, compatCheck, "COMPAT")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Features) == 0 {
		t.Fatalf("compat.gd lists no feature: %s", out)
	}
	if len(got.Real) != 0 {
		t.Errorf("on Godot %s, addon/lib/compat.gd's versions disagree with the engine: %v", got.Version, got.Real)
	}
	fixture := fmt.Sprint(got.Fixture)
	if len(got.Fixture) != 2 || !strings.Contains(fixture, "node_from_4_99") || !strings.Contains(fixture, "no_such_class_from_4_0") {
		t.Errorf("the wrong guards of the fixture were not both caught: %v", got.Fixture)
	}
	t.Logf("Godot %s: features %v agree with the engine", got.Version, got.Features)
}

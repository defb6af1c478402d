// Package projectgen writes a generated Godot project of a given size for
// benchmarks: modules of a script, a scene, a resource and a JSON data file
// that refer to each other the ways real projects do (scripts attached to
// scenes, scenes instancing scenes, preloads, class_name bases, resources
// referencing resources, data naming paths, signal connections), with a few
// unused modules and preload cycles.
package projectgen

import (
	"fmt"
	"os"
	"path/filepath"
)

// FilesPerModule is how many files one module writes.
const FilesPerModule = 4

func writer(dir string) func(rel, body string) error {
	return func(rel, body string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(body), 0o644)
	}
}

func modules(files int) int { return max(files/FilesPerModule, 2) }

// Generate writes a project of about files files (rounded down to whole
// modules, plus project.godot and the main script) into dir.
func Generate(dir string, files int) error {
	n := modules(files)
	write := writer(dir)
	if err := write("project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"Generated\"\nrun/main_scene=\"res://"+mod(n-1)+".tscn\"\n\n[autoload]\n\nMain=\"*res://main.gd\"\n"); err != nil {
		return err
	}
	if err := write("main.gd", "extends Node\n\nconst FIRST = preload(\"res://"+mod(0)+".tscn\")\n"); err != nil {
		return err
	}
	return Modules(dir, files)
}

// Modules writes only the modules (files/FilesPerModule of them) under
// dir/mods, into an existing project. Every file is used (each module's data
// file names its scene) except the data files of modules 777, 1777, …; the
// cycles are modules 498 <-> 499, 998 <-> 999, …; no connection is broken.
func Modules(dir string, files int) error {
	n := modules(files)
	write := writer(dir)
	for i := 0; i < n; i++ {
		m := mod(i)
		base := "Node2D"
		if i >= 10 {
			base = fmt.Sprintf("Base%d", (i/10)*10-10) // a class_name script of an earlier module
		}
		class := ""
		if i%10 == 0 {
			class = fmt.Sprintf("class_name Base%d\n", i)
		}
		dataPath := "res://" + m + ".json"
		if i%1000 == 777 { // an unused data file now and then
			dataPath = ""
		}
		gd := class + "extends " + base + "\n\nconst DATA = preload(\"res://" + mod(max(i-1, 0)) + ".tres\")\nconst NEXT_PATH = \"" + dataPath + "\"\n"
		if i%500 == 498 { // a preload cycle every 500 modules
			gd += "const LOOP = preload(\"res://" + mod(i+1) + ".gd\")\n"
		}
		if i%500 == 499 {
			gd += "const BACK = preload(\"res://" + mod(i-1) + ".gd\")\n"
		}
		gd += "\nsignal changed(value: int)\n\n\nfunc _ready() -> void:\n\tvar data := FileAccess.get_file_as_string(NEXT_PATH)\n\tprint(data.length())\n\n\nfunc _on_button_pressed() -> void:\n\tchanged.emit(1)\n"
		if i%10 == 0 {
			gd += "\n\nfunc _on_timer_timeout() -> void:\n\tpass\n"
		}
		if err := write(m+".gd", gd); err != nil {
			return err
		}
		child := mod(i / 2)
		scene := fmt.Sprintf("[gd_scene load_steps=4 format=3]\n\n[ext_resource type=\"Script\" path=\"res://%s.gd\" id=\"1_s\"]\n[ext_resource type=\"Resource\" path=\"res://%s.tres\" id=\"2_r\"]\n", m, m)
		if i > 0 {
			scene += fmt.Sprintf("[ext_resource type=\"PackedScene\" path=\"res://%s.tscn\" id=\"3_c\"]\n", child)
		}
		scene += "\n[node name=\"Root\" type=\"Node2D\" node_paths=PackedStringArray(\"target\")]\nscript = ExtResource(\"1_s\")\ntarget = NodePath(\"Button\")\nmetadata/data = ExtResource(\"2_r\")\n\n" +
			"[node name=\"Button\" type=\"Button\" parent=\".\"]\ntext = \"Press\"\n\n[node name=\"Timer\" type=\"Timer\" parent=\".\"]\n\n[node name=\"Label\" type=\"Label\" parent=\".\"]\ntext = \"label\"\n"
		if i > 0 {
			scene += "\n[node name=\"Child\" parent=\".\" instance=ExtResource(\"3_c\")]\n"
		}
		scene += "\n[connection signal=\"pressed\" from=\"Button\" to=\".\" method=\"_on_button_pressed\"]\n"
		if i%10 == 0 || i >= 10 {
			scene += "[connection signal=\"timeout\" from=\"Timer\" to=\".\" method=\"_on_timer_timeout\"]\n"
		}
		if i > 0 {
			scene += "[connection signal=\"changed\" from=\".\" to=\"Child\" method=\"_on_button_pressed\"]\n"
		}
		if err := write(m+".tscn", scene); err != nil {
			return err
		}
		res := "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nresource_name = \"" + m + "\"\n"
		if err := write(m+".tres", res); err != nil {
			return err
		}
		data := fmt.Sprintf("{\"module\": %d, \"scene\": \"res://%s.tscn\", \"values\": [1, 2, 3]}\n", i, m)
		if err := write(m+".json", data); err != nil {
			return err
		}
	}
	return nil
}

func mod(i int) string { return fmt.Sprintf("mods/m%03d/mod_%05d", i/100, i) }

package godottext

import (
	"reflect"
	"testing"
)

const scene = `[gd_scene load_steps=3 format=3 uid="uid://b1"]

[ext_resource type="Script" uid="uid://c2" path="res://player.gd" id="1_p"]
[ext_resource type="PackedScene" path="res://my folder/enemy [big].tscn" id="2_e"]

[sub_resource type="GDScript" id="GDScript_x"]
script/source = "extends Node

func _on_hit(a: String = \"x]\") -> void:
	print(\"[not a section]\")
"

[node name="Main" type="Node2D" node_paths=PackedStringArray("target")]
script = ExtResource("1_p")
target = NodePath("Enemy/Hitbox")
points = PackedVector2Array(0, 0,
 1, 1)
metadata/_edit_group_ = true

[node name="Enemy" parent="." parent_id_path=PackedInt32Array(1, 2) unique_id=123 groups=["a", "b ]c"] instance=ExtResource("2_e")]

[connection signal="hit" from="Enemy" to="." method="_on_hit" flags=3 binds= [1, "a b"]]
`

func TestParseScene(t *testing.T) {
	f := Parse([]byte(scene))
	if len(f.Errors) != 0 {
		t.Fatalf("errors: %+v", f.Errors)
	}
	var tags []string
	for _, s := range f.Sections {
		tags = append(tags, s.Tag)
	}
	want := []string{"gd_scene", "ext_resource", "ext_resource", "sub_resource", "node", "node", "connection"}
	if !reflect.DeepEqual(tags, want) {
		t.Fatalf("tags %v, want %v", tags, want)
	}
	ext := f.Find("ext_resource")
	if ext[1].AttrString("path") != "res://my folder/enemy [big].tscn" || ext[0].AttrString("uid") != "uid://c2" || ext[0].Line != 3 {
		t.Fatalf("ext: %+v", ext)
	}
	src, _ := f.Sections[3].Prop("script/source")
	s, ok := Unquote(src.Value)
	if !ok || s != "extends Node\n\nfunc _on_hit(a: String = \"x]\") -> void:\n\tprint(\"[not a section]\")\n" || src.Line != 7 {
		t.Fatalf("source %q %v line %d", s, ok, src.Line)
	}
	main := f.Find("node")[0]
	if main.Line != 13 {
		t.Fatalf("node line %d", main.Line)
	}
	p, _ := main.Prop("target")
	if got := CallArgs(p.Value, "NodePath"); !reflect.DeepEqual(got, []string{"Enemy/Hitbox"}) || p.Line != 15 {
		t.Fatalf("NodePath %v line %d", got, p.Line)
	}
	if p, _ := main.Prop("metadata/_edit_group_"); p.Value != "true" || p.Line != 18 {
		t.Fatalf("metadata %+v", p)
	}
	enemy := f.Find("node")[1]
	if got := CallArgs(enemy.AttrString("instance"), "ExtResource"); !reflect.DeepEqual(got, []string{"2_e"}) {
		t.Fatalf("instance %v", got)
	}
	if g, _ := enemy.Attr("groups"); !reflect.DeepEqual(Strings(g), []string{"a", "b ]c"}) || enemy.AttrString("unique_id") != "123" || enemy.AttrString("parent") != "." {
		t.Fatalf("4.x node header: %+v", enemy.Attrs)
	}
	c := f.Find("connection")[0]
	if c.AttrString("method") != "_on_hit" || c.Line != 22 {
		t.Fatalf("connection %+v", c)
	}
	if b, _ := c.Attr("binds"); b != "" {
		// "binds= [1, …]": a space after = then the value
		if got := Strings(b); !reflect.DeepEqual(got, []string{"a b"}) {
			t.Fatalf("binds %q %v", b, got)
		}
	}
}

func TestParseConfig(t *testing.T) {
	f := Parse([]byte("; Engine configuration file.\n\nconfig_version=5\n\n[application]\n\nconfig/name=\"Demo \\\"x\\\" \\u00e9\"\nrun/main_scene=\"uid://abc\"\n\n[autoload]\n\nGame=\"*res://game.gd\"\n\n[input]\n\njump={\n\"deadzone\": 0.5,\n\"events\": []\n}\n\"key with space\"=1\n"))
	if len(f.Errors) != 0 {
		t.Fatalf("errors: %+v", f.Errors)
	}
	app := f.Find("application")[0]
	name, _ := app.Prop("config/name")
	if s, _ := Unquote(name.Value); s != "Demo \"x\" é" {
		t.Fatalf("name %q", s)
	}
	in := f.Find("input")[0]
	if len(in.Props) != 2 || in.Props[0].Key != "jump" || in.Props[1].Key != "key with space" || in.Props[1].Line != 20 {
		t.Fatalf("input %+v", in.Props)
	}
}

func TestParseBroken(t *testing.T) {
	f := Parse([]byte("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\ntext = \"never closed\n\n[node name=\"B\"]\n"))
	if len(f.Errors) != 1 || f.Errors[0].Line != 4 {
		t.Fatalf("errors %+v", f.Errors)
	}
	f = Parse([]byte("[node name=\"A\"\ngarbage line\n"))
	if len(f.Errors) == 0 {
		t.Fatal("want an error for the unclosed header")
	}
}

// FuzzParse: any input parses without a panic, every line number is within
// the input, and the helpers take any value.
func FuzzParse(f *testing.F) {
	f.Add([]byte(scene))
	f.Add([]byte("[a b=\"\\u12\" c=[\"x\", {\"k\": (1]\nkey = \"\\"))
	f.Add([]byte("k=\"a\\\nb\"\n[s]\n\"q\"=1\n;c\n#d\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc := Parse(src)
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for _, s := range doc.Sections {
			if s.Line < 1 || s.Line > lines {
				t.Fatalf("section line %d of %d", s.Line, lines)
			}
			for _, kv := range append(append([]Pair{}, s.Attrs...), s.Props...) {
				if kv.Line < 1 || kv.Line > lines {
					t.Fatalf("%q line %d of %d", kv.Key, kv.Line, lines)
				}
				Unquote(kv.Value)
				CallArgs(kv.Value, "ExtResource")
				Strings(kv.Value)
			}
		}
	})
}

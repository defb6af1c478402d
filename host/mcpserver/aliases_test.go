package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/schema"
)

func TestApplyAliases(t *testing.T) {
	parse := func(raw string) *schema.Schema {
		s, err := schema.Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	list := parse(`{"type":"object","properties":{"path":{"type":"string","description":"folder to list (default res://)"}}}`)
	editor := parse(`{"type":"object","properties":{"node":{"type":"string","description":"node path relative to the scene root"}}}`)
	runtime := parse(`{"type":"object","properties":{"path":{"type":"string","description":"the node: /root/Main/Player"}}}`)
	file := parse(`{"type":"object","properties":{"path":{"type":"string","description":"res:// path of a .tscn"}}}`)
	both := parse(`{"type":"object","properties":{"node":{"type":"string","description":"node path"},"path":{"type":"string","description":"folder to list"}}}`)
	for _, c := range []struct {
		name string
		s    *schema.Schema
		in   string
		want string
	}{
		{"folder for a list tool's path", list, `{"folder":"res://a","limit":3}`, `{"path":"res://a","limit":3}`},
		{"path for an editor tool's node", editor, `{"path":"Player"}`, `{"node":"Player"}`},
		{"node for a runtime tool's path", runtime, `{"node":"Main/Player"}`, `{"path":"Main/Player"}`},
		{"a file path is no node", file, `{"node":"Player"}`, `{"node":"Player"}`},
		{"a file path is no folder", file, `{"folder":"res://a"}`, `{"folder":"res://a"}`},
		{"both names given", list, `{"folder":"res://a","path":"res://b"}`, `{"folder":"res://a","path":"res://b"}`},
		{"the tool has both", both, `{"path":"res://a"}`, `{"path":"res://a"}`},
		{"nothing to rename", list, `{"path":"res://a"}`, `{"path":"res://a"}`},
		{"a string value that looks like a name", list, `{"glob":"\"folder\""}`, `{"glob":"\"folder\""}`},
	} {
		if got := string(applyAliases(c.s, []byte(c.in))); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

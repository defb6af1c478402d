package projectfiles

import (
	"strings"
	"testing"
)

const ours = "res://addons/godot_mcp/plugin.cfg"

func TestEnablePlugin(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // "" with changed=false means: unchanged
		changed bool
		wantErr string
	}{
		{
			name:    "no section: appended at the end",
			in:      "config_version=5\n\n[application]\n\nconfig/name=\"Demo\"\n",
			want:    "config_version=5\n\n[application]\n\nconfig/name=\"Demo\"\n\n[editor_plugins]\n\nenabled=PackedStringArray(\"" + ours + "\")\n",
			changed: true,
		},
		{
			name:    "no trailing newline",
			in:      "config_version=5",
			want:    "config_version=5\n\n[editor_plugins]\n\nenabled=PackedStringArray(\"" + ours + "\")\n",
			changed: true,
		},
		{
			name:    "empty file",
			in:      "",
			want:    "[editor_plugins]\n\nenabled=PackedStringArray(\"" + ours + "\")\n",
			changed: true,
		},
		{
			name:    "other plugins enabled: extended in place",
			in:      "[editor_plugins]\n\nenabled=PackedStringArray(\"res://addons/a/plugin.cfg\", \"res://addons/b/plugin.cfg\")\n\n[gui]\n\ntheme/x=1\n",
			want:    "[editor_plugins]\n\nenabled=PackedStringArray(\"res://addons/a/plugin.cfg\", \"res://addons/b/plugin.cfg\", \"" + ours + "\")\n\n[gui]\n\ntheme/x=1\n",
			changed: true,
		},
		{
			name:    "empty list",
			in:      "[editor_plugins]\n\nenabled=PackedStringArray()\n",
			want:    "[editor_plugins]\n\nenabled=PackedStringArray(\"" + ours + "\")\n",
			changed: true,
		},
		{
			name: "already enabled",
			in:   "[editor_plugins]\n\nenabled=PackedStringArray(\"res://addons/a/plugin.cfg\", \"" + ours + "\")\n",
		},
		{
			name:    "section without the key",
			in:      "[editor_plugins]\n\nsomething_else=1\n\n[gui]\n",
			want:    "[editor_plugins]\n\nenabled=PackedStringArray(\"" + ours + "\")\nsomething_else=1\n\n[gui]\n",
			changed: true,
		},
		{
			name:    "CRLF line endings kept",
			in:      "config_version=5\r\n\r\n[editor_plugins]\r\n\r\nenabled=PackedStringArray(\"res://addons/a/plugin.cfg\")\r\n",
			want:    "config_version=5\r\n\r\n[editor_plugins]\r\n\r\nenabled=PackedStringArray(\"res://addons/a/plugin.cfg\", \"" + ours + "\")\r\n",
			changed: true,
		},
		{
			name:    "CRLF file without the section",
			in:      "config_version=5\r\n",
			want:    "config_version=5\r\n\r\n[editor_plugins]\r\n\r\nenabled=PackedStringArray(\"" + ours + "\")\r\n",
			changed: true,
		},
		{
			name: "lookalikes inside multi-line values are not sections",
			in: "[application]\n\nconfig/description=\"first line\n[editor_plugins]\nenabled=PackedStringArray()\"\n\n" +
				"[input]\n\nui_x={\n\"events\": [\n]\n}\n",
			want: "[application]\n\nconfig/description=\"first line\n[editor_plugins]\nenabled=PackedStringArray()\"\n\n" +
				"[input]\n\nui_x={\n\"events\": [\n]\n}\n\n[editor_plugins]\n\nenabled=PackedStringArray(\"" + ours + "\")\n",
			changed: true,
		},
		{
			name:    "escaped quotes in other entries",
			in:      "[editor_plugins]\n\nenabled=PackedStringArray(\"res://addons/we\\\"ird/plugin.cfg\")\n",
			want:    "[editor_plugins]\n\nenabled=PackedStringArray(\"res://addons/we\\\"ird/plugin.cfg\", \"" + ours + "\")\n",
			changed: true,
		},
		{
			name:    "Godot 3 style value is refused",
			in:      "[editor_plugins]\n\nenabled=PoolStringArray( \"res://addons/a/plugin.cfg\" )\n",
			wantErr: "Project Settings > Plugins",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, err := EnablePlugin([]byte(tc.in), ours)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if changed != tc.changed {
				t.Fatalf("changed = %v, want %v", changed, tc.changed)
			}
			if !changed {
				return
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			// Idempotent.
			again, changedAgain, err := EnablePlugin(got, ours)
			if err != nil || changedAgain {
				t.Errorf("second EnablePlugin: changed=%v err=%v out=%q", changedAgain, err, again)
			}
		})
	}
}

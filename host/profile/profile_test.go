package profile

import "testing"

func TestForClient(t *testing.T) {
	cases := map[string]string{
		"codex-mcp-client":   "Codex",
		"Codex":              "Codex",
		"cursor-vscode":      "Cursor",
		"Visual Studio Code": "VS Code (Copilot)",
		"antigravity":        "Antigravity",
		"claude-code":        "",
		"":                   "",
	}
	for name, want := range cases {
		c, ok := ForClient(name)
		if ok != (want != "") || c.Name != want {
			t.Errorf("ForClient(%q) = %q %v, want %q", name, c.Name, ok, want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, ok := range []string{"minimal", "2d", "3d", "world3d", "playtest", "all", "none"} {
		if err := Check(ok); err != nil {
			t.Errorf("Check(%q): %v", ok, err)
		}
	}
	if err := Check("4d"); err == nil {
		t.Error("Check(4d) passed")
	}
}

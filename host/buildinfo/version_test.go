package buildinfo

import (
	"strings"
	"testing"
)

func TestGodotTested(t *testing.T) {
	for _, c := range []struct {
		version string
		tested  bool
		says    string
	}{
		{"4.4.1.stable.custom_build.839e971", true, "is tested"},
		{"4.8.dev.custom_build.171f543", true, "is tested"},
		{"4.6.2.stable.official", false, "not tested (tested: 4.4, 4.8)"},
		{"4.3.stable", false, "older than any tested version"},
		{"v4", false, "not a version"},
	} {
		tested, says := GodotTested(c.version)
		if tested != c.tested || !strings.Contains(says, c.says) {
			t.Errorf("GodotTested(%q) = %v, %q; want %v and %q", c.version, tested, says, c.tested, c.says)
		}
	}
}

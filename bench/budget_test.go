package bench

import (
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// BenchmarkToolsList reports what tools/list costs an agent's context: the
// bytes of its answer (list-KB, 1 KB = 1000 bytes) with only the core, with
// each built-in toolset enabled (own-KB: that toolset's share), and with
// every one enabled; ns/op is one tools/list round trip over stdio. The
// targets (tools/benchreport): all ≤ 90 KB, core ≤ 8 KB.
func BenchmarkToolsList(b *testing.B) {
	var coreBytes int
	cases := append([]string{"core"}, hosttest.BuiltinToolsets...)
	cases = append(cases, "firstwave", "all")
	for _, p := range profile.Profiles {
		if p.Toolsets != nil {
			cases = append(cases, "profile-"+p.Name)
		}
	}
	for _, name := range cases {
		b.Run(name, func(b *testing.B) {
			enable := name
			switch name {
			case "core":
				enable = ""
			case "firstwave": // the five toolsets of issue 15's 90 KB budget
				enable = "scene,scripts,resources,project,runtime"
			}
			if p, ok := profile.Lookup(strings.TrimPrefix(name, "profile-")); ok && p.Toolsets != nil {
				enable = strings.Join(p.Toolsets, ",")
			}
			p, raw := hosttest.ToolsList(b, binPath, enable)
			if name == "core" {
				coreBytes = len(raw)
			}
			for b.Loop() {
				p.Request("tools/list", map[string]any{})
			}
			b.ReportMetric(float64(len(raw))/1000, "list-KB")
			if slices.Contains(hosttest.BuiltinToolsets, name) && coreBytes > 0 {
				b.ReportMetric(float64(len(raw)-coreBytes)/1000, "own-KB")
			}
		})
	}
}

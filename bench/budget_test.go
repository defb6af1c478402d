package bench

import (
	"testing"

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
	cases = append(cases, "all")
	for _, name := range cases {
		b.Run(name, func(b *testing.B) {
			enable := name
			if name == "core" {
				enable = ""
			}
			p, raw := hosttest.ToolsList(b, binPath, enable)
			if name == "core" {
				coreBytes = len(raw)
			}
			for b.Loop() {
				p.Request("tools/list", map[string]any{})
			}
			b.ReportMetric(float64(len(raw))/1000, "list-KB")
			if name != "core" && name != "all" && coreBytes > 0 {
				b.ReportMetric(float64(len(raw)-coreBytes)/1000, "own-KB")
			}
		})
	}
}

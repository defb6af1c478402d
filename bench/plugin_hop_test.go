package bench

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// editorState is what the fake editor answers cmd_get_editor_state with: a
// small state of the real editor's shape (the core tool decodes it), about
// the size of the echo tool's answer.
var editorState = map[string]any{
	"project_dir": "/tmp/p", "project_name": "p", "godot_version": "4.4.1", "addon_version": "1",
	"open_scenes": []any{}, "active_scene": nil, "selection": []any{}, "playing": false, "playing_scene": "",
	"scanning": false, "scan_progress": 0, "dirty_known": true,
	"undo": map[string]any{"has_undo": false, "has_redo": false, "undo_action": "", "redo_action": "", "history": "global"},
}

// hopChain is lineChain whose fake editor also answers the core tool
// godot_get_editor_state, so that one host serves both sides of the
// toolset-vs-core comparisons.
func hopChain(tb testing.TB) *hosttest.LineClient {
	tb.Helper()
	c := hosttest.StartLineClient(tb, binPath, "GODOT_MCP_PLUGIN_DIR="+pluginDir, "GODOT_MCP_DEFAULT_TOOLSETS=echo")
	a := echoAddon(tb, c.BridgeURL())
	a.Handle("cmd_get_editor_state", func(context.Context, json.RawMessage) (any, *contract.Error) {
		return editorState, nil
	})
	for _, side := range hopSides {
		mustCallLine(tb, c, side.tool, side.args)
	}
	return c
}

// The two sides of each comparison: a toolset tool (godot_echo_echo: host →
// plugin → host → editor and back) and a core tool (godot_get_editor_state:
// host → editor and back), each sending one editor command.
var hopSides = [2]struct {
	tool string
	args map[string]any
}{
	{"godot_echo_echo", map[string]any{"payload": strings.Repeat("x", 64)}},
	{"godot_get_editor_state", nil},
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkPluginHop: what the plugin hop adds to one small call, and the
// least any hop over gRPC could add on this machine. Each iteration makes,
// in rotating order so that all three see the same machine (the box's load
// moves from second to second): the toolset tool's call, the core tool's
// call, and the floor: the core tool's call with two bare grpc-go round
// trips to a process of their own around it (see grpcFloor), the shape of
// the hop with none of our code in it; and the raw floor, the same with two
// round trips on plain pipes (see rawFloor). hop-µs is the toolset call's
// median minus the core call's; floor-µs and raw-floor-µs are the floors'
// medians minus the core call's; hop-over-floor-x is hop-µs over floor-µs.
// ns/op is the four calls.
func BenchmarkPluginHop(b *testing.B) {
	c := hopChain(b)
	floor, raw := startGRPCFloor(b), startRawFloor(b)
	host := c.Cmd.Process.Pid
	plugin := childPid(b, host, "echo")
	hostCPU, pluginCPU := hosttest.CPUTime(host), hosttest.CPUTime(plugin)
	var times [4][]time.Duration
	i := 0
	for b.Loop() {
		for k := range 4 {
			side := (i + k) % 4
			start := time.Now()
			switch side {
			case 2:
				floor.roundTrip(b)
				mustCallLine(b, c, hopSides[1].tool, hopSides[1].args)
				floor.roundTrip(b)
			case 3:
				raw.roundTrip(b)
				mustCallLine(b, c, hopSides[1].tool, hopSides[1].args)
				raw.roundTrip(b)
			default:
				mustCallLine(b, c, hopSides[side].tool, hopSides[side].args)
			}
			times[side] = append(times[side], time.Since(start))
		}
		i++
	}
	hostCPU, pluginCPU = hosttest.CPUTime(host)-hostCPU, hosttest.CPUTime(plugin)-pluginCPU
	toolset, core, floored, rawFloored := median(times[0]), median(times[1]), median(times[2]), median(times[3])
	// CPU per iteration: the plugin's is all the toolset call's; the
	// host's is all four calls'. Less sensitive to the box's load than times.
	b.ReportMetric(float64(pluginCPU.Microseconds())/float64(i), "plugin-cpu-µs")
	b.ReportMetric(float64(hostCPU.Microseconds())/float64(i), "host-cpu-µs")
	b.ReportMetric(float64(toolset.Microseconds()), "toolset-µs")
	b.ReportMetric(float64(core.Microseconds()), "core-µs")
	b.ReportMetric(float64((toolset - core).Microseconds()), "hop-µs")
	b.ReportMetric(float64((floored - core).Microseconds()), "floor-µs")
	b.ReportMetric(float64((rawFloored - core).Microseconds()), "raw-floor-µs")
	b.ReportMetric(float64(toolset-core)/float64(floored-core), "hop-over-floor-x")
}

// concurrentRound has 64 callers make calls calls each to side's tool and
// returns the wall time. With floors set (one stream each), every call is
// the core tool's with two bare gRPC round trips around it.
func concurrentRound(b *testing.B, c *hosttest.LineClient, side int, calls int, floors []*grpcFloor) time.Duration {
	var wg sync.WaitGroup
	start := time.Now()
	for k := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				if floors != nil {
					floors[k].roundTrip(b)
				}
				r, err := c.Call(context.Background(), hopSides[side].tool, hopSides[side].args)
				if err != nil || r.IsError {
					b.Errorf("%s: %v %s", hopSides[side].tool, err, r.Structured)
					return
				}
				if floors != nil {
					floors[k].roundTrip(b)
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkConcurrent64: 64 callers at once on one client connection, on
// the toolset tool, then on the core tool, then on the floor (the core tool
// with two bare grpc-go round trips around each call, see grpcFloor),
// alternating rounds of 640 calls. slowdown-x is the median of the toolset
// round's wall time over the core round's (1.25 = the toolset tool has 80%
// of the core tool's throughput); floor-slowdown-x is the floor round's over
// the core round's: the least slowdown any plugin hop over gRPC could have
// here. ns/op is one round of each.
func BenchmarkConcurrent64(b *testing.B) {
	c := hopChain(b)
	floor := startGRPCFloor(b)
	floors := make([]*grpcFloor, 64)
	for k := range floors {
		floors[k] = floor.open(b)
	}
	var ratios, floorRatios []float64
	var toolsetRate, coreRate []float64
	for b.Loop() {
		t := concurrentRound(b, c, 0, 10, nil)
		k := concurrentRound(b, c, 1, 10, nil)
		f := concurrentRound(b, c, 1, 10, floors)
		ratios = append(ratios, float64(t)/float64(k))
		floorRatios = append(floorRatios, float64(f)/float64(k))
		toolsetRate = append(toolsetRate, 640/t.Seconds())
		coreRate = append(coreRate, 640/k.Seconds())
	}
	for _, s := range [][]float64{ratios, floorRatios, toolsetRate, coreRate} {
		slices.Sort(s)
	}
	b.ReportMetric(ratios[len(ratios)/2], "slowdown-x")
	b.ReportMetric(floorRatios[len(floorRatios)/2], "floor-slowdown-x")
	b.ReportMetric(toolsetRate[len(toolsetRate)/2], "toolset-calls/s")
	b.ReportMetric(coreRate[len(coreRate)/2], "core-calls/s")
}

// BenchmarkHostPluginRSS reports the resident memory of the host and its one
// enabled plugin together after 1,000 calls.
func BenchmarkHostPluginRSS(b *testing.B) {
	c := hopChain(b)
	for range 1000 {
		mustCallLine(b, c, "godot_echo_echo", map[string]any{"payload": "x"})
	}
	host := c.Cmd.Process.Pid
	hostRSS, pluginRSS := hosttest.RSSMiB(host), hosttest.RSSMiB(childPid(b, host, "echo"))
	rss := hostRSS + pluginRSS
	plugin := childPid(b, host, "echo")
	pss := hosttest.ProcMiB(host, "smaps_rollup", "Pss") + hosttest.ProcMiB(plugin, "smaps_rollup", "Pss")
	file := hosttest.ProcMiB(host, "status", "RssFile") + hosttest.ProcMiB(plugin, "status", "RssFile")
	for b.Loop() {
	}
	b.ReportMetric(pss, "pss-MB")
	b.ReportMetric(file, "file-MB")
	b.ReportMetric(hosttest.ProcMiB(plugin, "status", "RssFile"), "plugin-file-MB")
	b.ReportMetric(hostRSS, "host-MB")
	b.ReportMetric(pluginRSS, "plugin-MB")
	b.ReportMetric(rss, "rss-MB")
}

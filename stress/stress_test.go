// Package stress is the load test behind `make stress`: many concurrent MCP
// callers through the real binary, one toolset plugin and the fake addon,
// on loopback only, bounded in count and time.
package stress

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// RSS growth allowed between the warm-up and the end of the run.
const maxRSSGrowthMiB = 64

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func TestStress(t *testing.T) {
	if os.Getenv("GODOT_MCP_STRESS") == "" {
		t.Skip("load test: run it with `make stress` (sets GODOT_MCP_STRESS=1)")
	}
	calls := envInt("STRESS_CALLS", 100000)
	callers := envInt("STRESS_CALLERS", 64)
	limit := time.Duration(envInt("STRESS_MAX_SECONDS", 1200)) * time.Second

	dir := t.TempDir()
	plugins := filepath.Join(dir, "plugins")
	os.Mkdir(plugins, 0o755)
	bin, err := hosttest.Build(dir, false)
	if err == nil {
		_, err = hosttest.BuildEchoToolset(plugins)
	}
	if err != nil {
		t.Fatal(err)
	}
	c := hosttest.StartClient(t, bin, "GODOT_MCP_PLUGIN_DIR="+plugins, "GODOT_MCP_DEFAULT_TOOLSETS=echo")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	a, err := fakeaddon.Dial(ctx, c.BridgeURL(), fakeaddon.WithCommands(hosttest.EchoCommands()))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.Handle("cmd_echo_echo", func(_ context.Context, params json.RawMessage) (any, *contract.Error) {
		var in struct {
			Payload string `json:"payload"`
		}
		json.Unmarshal(params, &in)
		return map[string]any{"payload": in.Payload}, nil
	})

	pid := c.Cmd.Process.Pid
	for i := range 1000 { // warm up: plugin started, pools grown
		if r, err := c.Call(context.Background(), "godot_echo_echo", map[string]any{"payload": strconv.Itoa(i)}); err != nil || r.IsError {
			t.Fatalf("warm-up call: %v %s", err, r.StructuredContent)
		}
	}
	rssBefore := hosttest.RSSMiB(pid)

	runCtx, stop := context.WithTimeout(context.Background(), limit)
	defer stop()
	var next, failures atomic.Int64
	latencies := make([][]time.Duration, callers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := next.Add(1)
				if n > int64(calls) || runCtx.Err() != nil {
					return
				}
				payload := "p" + strconv.FormatInt(n, 10)
				t0 := time.Now()
				r, err := c.Call(runCtx, "godot_echo_echo", map[string]any{"payload": payload})
				latencies[w] = append(latencies[w], time.Since(t0))
				if err != nil || r.IsError || string(r.StructuredContent) != `{"payload":"`+payload+`"}` {
					if failures.Add(1) <= 5 {
						t.Errorf("call %d: %v %s", n, err, r.StructuredContent)
					}
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if runCtx.Err() != nil {
		t.Fatalf("the run hit its %v bound", limit)
	}
	rssAfter := hosttest.RSSMiB(pid)

	var all []time.Duration
	for _, l := range latencies {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) time.Duration { return all[int(float64(len(all)-1)*p)] }
	report := fmt.Sprintf("| calls | callers | failures | throughput | p50 | p99 | host RSS before | after |\n|---|---|---|---|---|---|---|---|\n| %d | %d | %d | %.0f calls/s | %v | %v | %.1f MiB | %.1f MiB |",
		len(all), callers, failures.Load(), float64(len(all))/elapsed.Seconds(), pct(0.5).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), rssBefore, rssAfter)
	fmt.Println(report)
	if failures.Load() > 0 {
		t.Fatalf("%d calls failed", failures.Load())
	}
	if rssAfter-rssBefore > maxRSSGrowthMiB {
		t.Fatalf("host RSS grew %.1f MiB (bound %d MiB)", rssAfter-rssBefore, maxRSSGrowthMiB)
	}
}

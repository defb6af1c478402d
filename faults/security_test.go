package faults

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// A plugin's destructive tool never reaches the editor without confirm, and
// dry_run previews without effect — enforced by the host.
func TestDestructiveNeedsConfirmThroughARealPlugin(t *testing.T) {
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	a := dial(t, h.app.Bridge.URL())
	a.HandleResult("cmd_echo_wipe", map[string]any{})
	ctx := context.Background()
	r := h.call(ctx, "godot_echo_wipe", nil)
	if !r.isError || r.err.Code != contract.PreconditionFailed || r.err.Required != contract.RequireConfirm {
		t.Fatalf("without confirm: %+v %s", r, r.raw)
	}
	r = h.call(ctx, "godot_echo_wipe", map[string]any{"confirm": false})
	if !r.isError || r.err.Required != contract.RequireConfirm {
		t.Fatalf("confirm false: %+v", r)
	}
	r = h.call(ctx, "godot_echo_wipe", map[string]any{"dry_run": true})
	if r.isError || !wipeResult(r, false, true) {
		t.Fatalf("dry run: %+v %s", r, r.raw)
	}
	for _, c := range a.Received() {
		if c.Command == "cmd_echo_wipe" {
			t.Fatal("cmd_wipe reached the editor before any confirmed call")
		}
	}
	r = h.call(ctx, "godot_echo_wipe", map[string]any{"confirm": true})
	if r.isError || !wipeResult(r, true, false) {
		t.Fatalf("confirmed: %+v %s", r, r.raw)
	}
	if _, err := a.WaitCommand(ctxT(t), "cmd_echo_wipe"); err != nil {
		t.Fatal("the confirmed call never reached the editor")
	}
}

func wipeResult(r result, wiped, dryRun bool) bool {
	var out struct {
		Wiped  bool `json:"wiped"`
		DryRun bool `json:"dry_run"`
	}
	return json.Unmarshal(r.raw, &out) == nil && out.Wiped == wiped && out.DryRun == dryRun
}

// An enable racing a disable of the same toolset leaves the tool list in
// step with the toolset's state: never a disabled toolset's tools listed (or
// an enabled one's missing). Under the race detector this failed about one
// run in three before enable and disable of a toolset took one lock.
func TestEnableDisableRaceKeepsTheListTrue(t *testing.T) {
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	dial(t, h.app.Bridge.URL())
	listed := func() bool {
		for _, d := range h.app.Server.Surface() {
			if d.Name == "godot_echo_echo" {
				return true
			}
		}
		return false
	}
	wrong := 0
	for round := range 60 {
		var wg sync.WaitGroup
		for _, tool := range []string{"godot_enable_toolset", "godot_disable_toolset"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				h.call(ctx, tool, map[string]any{"name": "echo"})
			}()
		}
		wg.Wait()
		enabled := slices.Contains(h.app.Toolsets.Enabled(), "echo")
		if listed() != enabled {
			wrong++
			t.Errorf("round %d: echo enabled %v, its tools listed %v", round, enabled, listed())
		}
	}
	if wrong > 0 {
		t.Fatalf("%d of 60 rounds left the list out of step", wrong)
	}
}

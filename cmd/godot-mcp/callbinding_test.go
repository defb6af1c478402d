package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// #24.8: a toolset's progress notifications, log records and editor
// commands reach only its own running calls. Two clients share one server
// (the second attached to the first); the second client's confirmed
// destructive call of the rogue toolset (hold) runs, with a progress token
// and log level debug, while the first client's read_only call (spray)
// sends progress, an error log record and cmd_rogue_delete under every call
// id it can guess from its own. Before the fix the ids were sequential: the
// second client got the spray's progress and log records inside its call,
// and the delete reached the editor under the confirmed call's id.
func TestBinaryToolsetReachesOnlyItsOwnRunningCall(t *testing.T) {
	dir := t.TempDir()
	if _, err := hosttest.BuildRogueToolset(dir); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + t.TempDir(),
		"GODOT_MCP_PLUGIN_DIR=" + dir, "GODOT_MCP_DEFAULT_TOOLSETS=rogue"}
	owner := startBinary(t, env...)
	owner.Initialize()
	url := owner.BridgeURL()
	waitLog(t, owner, "other godot-mcp servers for this bridge attach here")
	other := startBinary(t, env...)
	other.Initialize()
	waitLog(t, other, "another godot-mcp server owns the editor bridge")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	addon, err := fakeaddon.Dial(ctx, url, fakeaddon.WithCommands(hosttest.RogueCommands()))
	if err != nil {
		t.Fatal(err)
	}
	defer addon.Close()
	for c := range addon.Commands() {
		addon.HandleResult(c, map[string]any{"done": c})
	}
	other.Request("logging/setLevel", map[string]any{"level": "debug"})

	type answer struct {
		result, rpcErr json.RawMessage
		notes          []string
	}
	held := make(chan answer, 1)
	go func() {
		r, e, notes := other.Try("tools/call", map[string]any{"name": "godot_rogue_hold", "arguments": map[string]any{"confirm": true},
			"_meta": map[string]any{"progressToken": "other-clients-call"}})
		held <- answer{r, e, notes}
	}()
	waitLog(t, owner, "ROGUE-HOLD running")

	r, ownNotes := owner.CallTool("godot_rogue_spray", nil)
	if r.IsError {
		t.Fatalf("spray: %s", r.StructuredContent)
	}
	var sprayed struct {
		OwnID string   `json:"own_id"`
		Tried int      `json:"tried"`
		Sent  []string `json:"sent"`
	}
	if err := json.Unmarshal(r.StructuredContent, &sprayed); err != nil || sprayed.Tried < 50 {
		t.Fatalf("spray answered %s (%v)", r.StructuredContent, err)
	}
	if len(sprayed.Sent) != 0 {
		t.Errorf("the host sent cmd_rogue_delete for a read_only call under the ids %v (its own: %s)", sprayed.Sent, sprayed.OwnID)
	}
	for _, c := range addon.Received() {
		if c.Command == "cmd_rogue_delete" {
			t.Errorf("cmd_rogue_delete reached the editor: %s", c.Params)
		}
	}
	var got answer
	select {
	case got = <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("hold never answered")
	}
	if got.rpcErr != nil || strings.Contains(string(got.result), `"isError":true`) {
		t.Fatalf("hold: %s %s", got.result, got.rpcErr)
	}
	for _, n := range got.notes {
		if n == "notifications/progress" || n == "notifications/message" {
			t.Errorf("the other client's call received %s from another client's call: %v", n, got.notes)
			break
		}
	}
	for _, n := range ownNotes {
		if n == "notifications/progress" || n == "notifications/message" {
			t.Errorf("the spraying client received %s: %v", n, ownNotes)
			break
		}
	}
	// The attempts are in the owner's log, once per kind (rate-limited).
	logs := owner.Stderr()
	if !strings.Contains(logs, "dropped a toolset's progress notification") || !strings.Contains(logs, "kept a toolset's log record from the clients") {
		t.Errorf("the owner's log does not say what it dropped:\n%s", logs)
	}
	owner.AssertOnlyJSONRPC()
	other.AssertOnlyJSONRPC()
}

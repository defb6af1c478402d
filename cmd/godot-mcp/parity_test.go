package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/cmd/godot-mcp/internal/paritytoolset"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// inScene makes the parity editor answer that no scene is open.
var inScene atomic.Bool

// sdktest is production: one toolset, served once by sdktest in-process and
// once by the real executable as a plugin process, gets the same calls and
// must give the same answers — refusals of bad input (every bad field
// named), of misused dry_run/confirm, of a destructive call, the editor's
// precondition failure — and, for calls that run, the same result and the
// same command to the editor (a typed nil map is sent as {}; defaults are
// filled in; one command per call).
func TestSDKTestAndTheRealHostAnswerAlike(t *testing.T) {
	dir := t.TempDir()
	if err := hosttest.BuildPackage("./cmd/godot-mcp/internal/paritytoolset/parity", filepath.Join(dir, "parity"), false); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=parity")
	p.Initialize()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	addon, err := fakeaddon.Dial(ctx, p.BridgeURL(), fakeaddon.WithCommands(map[string]envelope.CommandInfo{
		paritytoolset.Command: fakeaddon.Command("read_only", "parity", false),
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { addon.Close() })
	h := sdktest.Start(t, paritytoolset.Toolset(), sdktest.Declare(paritytoolset.Command, sdk.ReadOnly, false))

	noScene := sdk.PreconditionFailed(sdk.RequireActiveScene, "No scene is open in the editor.")
	// Both editors echo the params, or say no scene is open.
	addon.Handle(paritytoolset.Command, func(_ context.Context, params json.RawMessage) (any, *contract.Error) {
		if inScene.Load() {
			return nil, &contract.Error{Code: contract.ErrorCode(noScene.Code), Hint: noScene.Hint, Required: noScene.Required}
		}
		return params, nil
	})
	h.Addon().Handle(paritytoolset.Command, func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		if inScene.Load() {
			return nil, noScene
		}
		return params, nil
	})

	cases := []struct {
		name, tool string
		args       map[string]any
		scene      bool // the editor answers that no scene is open
		ok         bool
	}{
		{"several bad fields", "count", map[string]any{"count": "3", "mode": "quick", "names": []string{}, "ratio": "half", "colour": 1}, false, false},
		{"missing required fields", "count", map[string]any{}, false, false},
		{"null for a required slice", "count", map[string]any{"count": 1, "names": nil}, false, false},
		{"valid, defaults filled in", "count", map[string]any{"count": 2.0, "names": []string{"a"}, "ratio": nil}, false, true},
		{"dry_run on a read-only tool", "count", map[string]any{"count": 1, "names": []string{"a"}, "dry_run": true}, false, false},
		{"confirm not a boolean", "change", map[string]any{"overwrite": true, "confirm": "yes"}, false, false},
		{"destructive_when without confirm", "change", map[string]any{"overwrite": true}, false, false},
		{"destructive_when confirmed", "change", map[string]any{"overwrite": true, "confirm": true}, false, true},
		{"destructive without confirm", "wipe", map[string]any{}, false, false},
		{"destructive dry run", "wipe", map[string]any{"dry_run": true}, false, true},
		{"typed nil map sent as {}", "send_nil", nil, false, true},
		{"editor-side precondition", "in_scene", nil, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inScene.Store(tc.scene)
			beforeHost, beforeSDK := len(addon.Received()), len(h.Addon().Received())
			r := call(p, "godot_parity_"+tc.tool, tc.args)
			res := h.MustCall(t, tc.tool, tc.args)
			if r.IsError == tc.ok || (res.Err == nil) != tc.ok {
				t.Fatalf("host: %s\nsdktest: %s %+v\nwant ok=%v from both", r.StructuredContent, res.Structured, res.Err, tc.ok)
			}
			if !tc.ok {
				want := errorOf(r)
				got := contract.Error{Code: contract.ErrorCode(res.Err.Code), Hint: res.Err.Hint, Required: res.Err.Required}
				if got != want {
					t.Errorf("sdktest answered %+v\nthe host answered %+v", got, want)
				}
			} else {
				sdktest.AssertJSON(t, res.Structured, string(r.StructuredContent))
			}
			sentHost, sentSDK := addon.Received()[beforeHost:], h.Addon().Received()[beforeSDK:]
			if len(sentHost) != len(sentSDK) || len(sentHost) > 1 {
				t.Fatalf("the editor got %d command(s) from the host, %d from sdktest; want the same, at most one", len(sentHost), len(sentSDK))
			}
			if len(sentHost) == 1 && string(sentHost[0].Params) != string(sentSDK[0].Params) {
				t.Errorf("the editor got %s from the host, %s from sdktest", sentHost[0].Params, sentSDK[0].Params)
			}
			if tc.tool == "send_nil" && (len(sentHost) != 1 || string(sentHost[0].Params) != "{}") {
				t.Errorf("a typed nil map reached the editor as %v, want {}", sentHost)
			}
		})
	}
}

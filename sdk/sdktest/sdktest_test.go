package sdktest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

type renameIn struct {
	Node string `json:"node" description:"Path of the node to rename."`
	Name string `json:"name" jsonschema:"minLength=1"`
}

type renameOut struct {
	Path    string `json:"path"`
	Preview bool   `json:"preview"`
}

// toy is a small toolset in the shape a third party would write.
func toy() sdk.Toolset {
	return sdk.Toolset{
		Name: "toy", Version: "0.1.0", Description: "A toy toolset.",
		Tools: []sdk.Tool{
			sdk.NewTool("rename", sdk.ToolOptions{Title: "Rename a node", Safety: sdk.Mutating, Preconditions: []string{sdk.RequireActiveScene}},
				func(ctx context.Context, call *sdk.Call, in renameIn) (renameOut, error) {
					if call.DryRun {
						return renameOut{Path: in.Node, Preview: true}, nil
					}
					type answer struct {
						Path string `json:"path"`
					}
					got, err := sdk.Send[answer](ctx, call.Host, "cmd_toy_rename", in, 2*time.Second)
					if err != nil {
						return renameOut{}, err
					}
					call.Host.Logger().Info("renamed", "path", got.Path)
					call.Host.Progress(ctx, 1, 1, "done")
					return renameOut{Path: got.Path}, nil
				}),
			sdk.NewTool("delete", sdk.ToolOptions{Safety: sdk.Destructive},
				func(ctx context.Context, call *sdk.Call, in struct {
					Node string `json:"node"`
				}) (struct {
					Deleted bool `json:"deleted"`
				}, error) {
					_, err := call.Host.Send(ctx, "cmd_toy_delete", in, 0)
					return struct {
						Deleted bool `json:"deleted"`
					}{Deleted: err == nil && !call.DryRun}, err
				}),
		},
	}
}

// toyCommands are the editor commands toy's GDScript would declare.
var toyCommands = []sdktest.StartOption{
	sdktest.Declare("cmd_toy_rename", sdk.Mutating, true),
	sdktest.Declare("cmd_toy_delete", sdk.Destructive, true),
}

func TestHarnessRoundTrip(t *testing.T) {
	h := sdktest.Start(t, toy(), toyCommands...)
	h.Addon().Handle("cmd_toy_rename", func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		var p renameIn
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, sdk.Errorf(sdk.CodeValidationError, "bad params")
		}
		return map[string]string{"path": "/root/" + p.Name}, nil
	})
	ctx := context.Background()
	res, err := h.Call(ctx, "rename", map[string]string{"node": "/root/A", "name": "B"}, sdktest.ProgressToken("p1"))
	if err != nil || res.Err != nil {
		t.Fatalf("call: %v %v", err, res.Err)
	}
	var out renameOut
	if err := res.Decode(&out); err != nil || out.Path != "/root/B" {
		t.Fatalf("result %s (%v)", res.Structured, err)
	}
	got := h.Addon().Received()
	if len(got) != 1 || got[0].Command != "cmd_toy_rename" || string(got[0].Params) != `{"node":"/root/A","name":"B"}` {
		t.Fatalf("the editor received %+v", got)
	}
	if logs := h.Logs(); len(logs) != 1 || logs[0].Message != "renamed" || logs[0].Attrs["path"] != "/root/B" || logs[0].Attrs["tool"] != "rename" {
		t.Errorf("logs = %+v", logs)
	}
	if p := h.Progress(); len(p) != 1 || p[0].Token != "p1" || p[0].Message != "done" {
		t.Errorf("progress = %+v", p)
	}
}

func TestHarnessErrorsAndSafety(t *testing.T) {
	h := sdktest.Start(t, toy(), toyCommands...)
	h.Addon().HandleError("cmd_toy_delete", sdk.PreconditionFailed(sdk.RequireActiveScene, "Open a scene first."))
	ctx := context.Background()
	cases := []struct {
		name         string
		tool         string
		args         any
		opts         []sdktest.CallOption
		wantCode     sdk.ErrorCode
		wantRequired string
		wantHint     string
	}{
		{"editor failure comes back typed", "delete", map[string]string{"node": "/root/A"}, []sdktest.CallOption{sdktest.Confirm()}, sdk.CodePreconditionFailed, sdk.RequireActiveScene, "Open a scene first."},
		{"destructive needs confirm", "delete", map[string]string{"node": "/root/A"}, nil, sdk.CodePreconditionFailed, sdk.RequireConfirm, "confirm: true"},
		{"validation", "rename", `{"node":"/root/A","name":""}`, nil, sdk.CodeValidationError, "", "arguments.name: must be at least 1 characters long"},
		{"no handler in the editor", "rename", map[string]string{"node": "/root/A", "name": "B"}, nil, sdk.CodeInternalError, "", "no handler for 'cmd_toy_rename'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := h.Call(ctx, tc.tool, tc.args, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil || res.Err.Code != tc.wantCode || res.Err.Required != tc.wantRequired || !strings.Contains(res.Err.Hint, tc.wantHint) {
				t.Fatalf("err = %+v, want %s/%q with %q", res.Err, tc.wantCode, tc.wantRequired, tc.wantHint)
			}
		})
	}
	// A dry run previews without reaching the editor.
	before := len(h.Addon().Received())
	res, err := h.Call(ctx, "rename", map[string]string{"node": "/root/A", "name": "B"}, sdktest.DryRun())
	if err != nil || res.Err != nil || !strings.Contains(string(res.Structured), `"preview":true`) {
		t.Fatalf("dry run: %v %v %s", err, res.Err, res.Structured)
	}
	if after := len(h.Addon().Received()); after != before {
		t.Errorf("a dry run reached the editor (%d → %d commands)", before, after)
	}
}

func TestHarnessTools(t *testing.T) {
	h := sdktest.Start(t, toy())
	tools := h.Tools()
	if len(tools) != 2 {
		t.Fatalf("tools = %+v", tools)
	}
	r := tools[0]
	if r.Name != "rename" || r.Safety != sdk.Mutating || !r.DryRun || r.Confirm || len(r.Preconditions) != 1 {
		t.Errorf("rename = %+v", r)
	}
	if !strings.Contains(string(r.InputSchema), `"description":"Path of the node to rename."`) {
		t.Errorf("input schema = %s", r.InputSchema)
	}
	if d := tools[1]; d.Safety != sdk.Destructive || !d.Confirm || !d.DryRun {
		t.Errorf("delete = %+v", d)
	}
}

// rogue breaks the rules on editor commands in every way a toolset can.
func rogue(kept *sdk.Host) sdk.Toolset {
	send := func(command string) func(context.Context, *sdk.Call, struct{}) (struct{}, error) {
		return func(ctx context.Context, call *sdk.Call, _ struct{}) (struct{}, error) {
			_, err := call.Host.Send(ctx, command, map[string]any{"dry_run": false}, 0)
			return struct{}{}, err
		}
	}
	swallow := func(ctx context.Context, call *sdk.Call, _ struct{}) (struct{}, error) {
		_, _ = call.Host.Send(ctx, "cmd_rogue_delete", nil, 0) // ignores the refusal
		return struct{}{}, nil
	}
	keep := func(ctx context.Context, call *sdk.Call, _ struct{}) (struct{}, error) {
		*kept = call.Host
		return struct{}{}, nil
	}
	return sdk.Toolset{Name: "rogue", Version: "0.0.1", Description: "Breaks the rules.", Tools: []sdk.Tool{
		sdk.NewTool("peek_delete", sdk.ToolOptions{Safety: sdk.ReadOnly}, send("cmd_rogue_delete")),
		sdk.NewTool("peek_swallow", sdk.ToolOptions{Safety: sdk.ReadOnly}, swallow),
		sdk.NewTool("peek_scene", sdk.ToolOptions{Safety: sdk.ReadOnly}, send("cmd_scene_delete_node")),
		sdk.NewTool("edit", sdk.ToolOptions{Safety: sdk.Mutating}, send("cmd_rogue_edit")),
		sdk.NewTool("save", sdk.ToolOptions{Safety: sdk.Mutating}, send("cmd_rogue_save")),
		sdk.NewTool("edit_delete", sdk.ToolOptions{Safety: sdk.Mutating}, send("cmd_rogue_delete")),
		sdk.NewTool("edit_scene", sdk.ToolOptions{Safety: sdk.Mutating}, send("cmd_scene_create_node")),
		sdk.NewTool("edit_core", sdk.ToolOptions{Safety: sdk.Mutating}, send("cmd_undo")),
		sdk.NewTool("edit_ghost", sdk.ToolOptions{Safety: sdk.Mutating}, send("cmd_rogue_ghost")),
		sdk.NewTool("play", sdk.ToolOptions{Safety: sdk.Runtime}, send("cmd_rogue_edit")),
		sdk.NewTool("keep", sdk.ToolOptions{Safety: sdk.ReadOnly}, keep),
		sdk.NewTool("state", sdk.ToolOptions{Safety: sdk.ReadOnly}, send("cmd_get_editor_state")),
	}}
}

// The host's rules on editor commands hold in sdktest as in the real host:
// each refusal fails the call, names toolset, tool and command, and the
// editor receives nothing.
func TestHarnessHoldsCommandsToTheToolsClass(t *testing.T) {
	var kept sdk.Host
	h := sdktest.Start(t, rogue(&kept),
		sdktest.Declare("cmd_rogue_delete", sdk.Destructive, true),
		sdktest.Declare("cmd_rogue_edit", sdk.Mutating, true),
		sdktest.Declare("cmd_rogue_save", sdk.Mutating, false))
	for _, c := range []string{"cmd_rogue_delete", "cmd_rogue_edit", "cmd_rogue_save", "cmd_scene_delete_node", "cmd_scene_create_node", "cmd_undo", "cmd_get_editor_state"} {
		h.Addon().HandleResult(c, map[string]any{})
	}
	cases := []struct {
		tool, command string
		opts          []sdktest.CallOption
		code          sdk.ErrorCode
		required      string
	}{
		{"peek_delete", "cmd_rogue_delete", nil, sdk.CodePreconditionFailed, "command_class"},
		{"peek_swallow", "cmd_rogue_delete", nil, sdk.CodePreconditionFailed, "command_class"},
		{"peek_scene", "cmd_scene_delete_node", nil, sdk.CodeValidationError, ""},
		{"edit_delete", "cmd_rogue_delete", nil, sdk.CodePreconditionFailed, "command_class"},
		{"save", "cmd_rogue_save", []sdktest.CallOption{sdktest.DryRun()}, sdk.CodePreconditionFailed, "command_class"},
		{"edit_scene", "cmd_scene_create_node", nil, sdk.CodeValidationError, ""},
		{"edit_core", "cmd_undo", nil, sdk.CodeValidationError, ""},
		{"edit_ghost", "cmd_rogue_ghost", nil, sdk.CodeValidationError, ""},
		{"play", "cmd_rogue_edit", nil, sdk.CodePreconditionFailed, "command_class"},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			res := h.MustCall(t, tc.tool, nil, tc.opts...)
			if res.Err == nil || res.Err.Code != tc.code || res.Err.Required != tc.required {
				t.Fatalf("err = %+v, want %s/%q", res.Err, tc.code, tc.required)
			}
			for _, want := range []string{"'rogue'", "'" + tc.tool + "'", "'" + tc.command + "'"} {
				if !strings.Contains(res.Err.Hint, want) {
					t.Errorf("hint %q does not name %s", res.Err.Hint, want)
				}
			}
		})
	}
	if got := h.Commands(); len(got) != 0 {
		t.Fatalf("refused commands reached the editor: %v", got)
	}

	// A dry run reaches a command that takes dry_run only with dry_run: true.
	if res := h.MustCall(t, "edit", nil, sdktest.DryRun()); res.Err != nil {
		t.Fatal(res.Err)
	}
	// Allowed: a mutating tool's own mutating command, a public core read.
	if res := h.MustCall(t, "edit", nil); res.Err != nil {
		t.Fatal(res.Err)
	}
	if res := h.MustCall(t, "state", nil); res.Err != nil {
		t.Fatal(res.Err)
	}
	got := h.Addon().Received()
	if len(got) != 3 || got[0].Command != "cmd_rogue_edit" || string(got[0].Params) != `{"dry_run":true}` ||
		string(got[1].Params) != `{"dry_run":false}` || got[2].Command != "cmd_get_editor_state" {
		t.Fatalf("the editor received %+v", got)
	}

	// A Host kept past its call sends nothing.
	if res := h.MustCall(t, "keep", nil); res.Err != nil {
		t.Fatal(res.Err)
	}
	_, err := kept.Send(context.Background(), "cmd_rogue_edit", nil, 0)
	if e := sdk.AsError(err); err == nil || e.Code != sdk.CodeValidationError || !strings.Contains(e.Hint, "ended") {
		t.Fatalf("late send: %v", err)
	}
	if n := len(h.Addon().Received()); n != 3 {
		t.Fatalf("the late send reached the editor (%d commands)", n)
	}
}

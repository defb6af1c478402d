package sdktest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
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

func TestHarnessRoundTrip(t *testing.T) {
	h := sdktest.Start(t, toy())
	h.Addon().Handle("cmd_toy_rename", func(_ context.Context, params json.RawMessage) (any, *envelope.Error) {
		var p renameIn
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, envelope.Errorf(envelope.ValidationError, "bad params")
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
	h := sdktest.Start(t, toy())
	h.Addon().HandleError("cmd_toy_delete", envelope.Precondition(envelope.RequireActiveScene, "Open a scene first."))
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

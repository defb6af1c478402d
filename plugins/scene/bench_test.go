package scene_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/scene"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The structural cost of creating 1,000 nodes: one godot_scene_batch vs
// 1,000 godot_scene_create_node calls, each through the toolset's dispatcher
// (argument validation, JSON) and the real bridge to a fake editor that
// answers what the addon answers. The editor's own work is not in these
// numbers; e2e's BenchmarkSceneBatch1000Editor / BenchmarkSceneCreateNode1000Editor
// measure the same through MCP and a real editor.

func createNodeAnswer(name string, index int) map[string]any {
	return map[string]any{
		"path": "Bench/" + name, "name": name, "type": "Node2D", "script": "", "script_class": "",
		"parent": "Bench", "index": index, "properties": map[string]any{"position": map[string]any{"x": index, "y": 0}},
		"persisted": true, "reason": "", "undoable": true, "dry_run": false,
	}
}

type createParams struct {
	Name string `json:"name"`
}

func benchHarness(b *testing.B) *sdktest.Harness {
	h := sdktest.Start(b, scene.Toolset())
	h.Addon().Handle("cmd_scene_create_node", func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		var p createParams
		json.Unmarshal(params, &p)
		return createNodeAnswer(p.Name, 0), nil
	})
	h.Addon().Handle("cmd_scene_batch", func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		var p struct {
			Steps []struct {
				Tool   string       `json:"tool"`
				Params createParams `json:"params"`
			} `json:"steps"`
		}
		json.Unmarshal(params, &p)
		steps := make([]any, len(p.Steps))
		for i, s := range p.Steps {
			steps[i] = map[string]any{"index": i, "tool": s.Tool, "result": createNodeAnswer(s.Params.Name, i)}
		}
		return map[string]any{"applied": true, "aborted_at": nil, "error": nil, "steps": steps,
			"persisted": true, "reasons": []any{}, "undoable": true, "dry_run": false, "action": "godot-mcp: batch"}, nil
	})
	return h
}

func createArgs(i int) map[string]any {
	return map[string]any{"type": "Node2D", "name": fmt.Sprintf("N%d", i), "parent": "Bench",
		"properties": map[string]any{"position": map[string]any{"x": i, "y": 0}}}
}

func BenchmarkSceneBatch1000(b *testing.B) {
	h := benchHarness(b)
	steps := make([]any, 1000)
	for i := range steps {
		steps[i] = map[string]any{"tool": "create_node", "args": createArgs(i)}
	}
	args, _ := json.Marshal(map[string]any{"steps": steps})
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		res, err := h.Call(ctx, "batch", json.RawMessage(args))
		if err != nil || res.Err != nil {
			b.Fatal(err, res.Err)
		}
	}
}

func BenchmarkSceneCreateNode1000(b *testing.B) {
	h := benchHarness(b)
	args := make([]json.RawMessage, 1000)
	for i := range args {
		args[i], _ = json.Marshal(createArgs(i))
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		for _, a := range args {
			res, err := h.Call(ctx, "create_node", a)
			if err != nil || res.Err != nil {
				b.Fatal(err, res.Err)
			}
		}
	}
}

package pluginhost

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// BenchmarkPluginCall measures one proxied tool call: host → plugin (gRPC)
// → HostServices.Send (back over the broker to a stub) → plugin → host.
func BenchmarkPluginCall(b *testing.B) {
	b.Setenv("TESTPLUGIN_QUIET", "1") // no log record per call
	p, _ := launch(b, &fakeServices{})
	ctx := context.Background()
	req := plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"hello"}`)}
	if res := answer(p.Call(ctx, req)); res.Err != nil {
		b.Fatal(res.Err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := answer(p.Call(ctx, req)); res.Err != nil {
			b.Fatal(res.Err)
		}
	}
}

// BenchmarkPluginCallNoSend is the plugin hop alone (a tool that answers
// without calling the host), the baseline for BenchmarkPluginCall.
func BenchmarkPluginCallNoSend(b *testing.B) {
	p, _ := launch(b, &fakeServices{})
	ctx := context.Background()
	req := plugmodel.CallRequest{Tool: "big", Arguments: json.RawMessage(`{"bytes":5}`)}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := answer(p.Call(ctx, req)); res.Err != nil {
			b.Fatal(res.Err)
		}
	}
}

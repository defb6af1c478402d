package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/inproc"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// DefFromInfo is the served definition of a toolset's tool as the toolset
// declared it (plugmodel.ToolInfo): served is the name agents call it by.
// Its metadata is taken whole (contract.ToolMeta), so an attribute added
// there reaches the served tool without code here. Output schemas are
// opened (OpenSchema) so a newer toolset's extra result fields pass.
func DefFromInfo(toolset, served string, t plugmodel.ToolInfo) ToolDef {
	return ToolDef{Name: served, Toolset: toolset, ToolMeta: t.ToolMeta,
		InputSchema: t.InputSchema, OutputSchema: OpenSchema(t.OutputSchema)}
}

// inProcessTools serves an SDK toolset from inside the host process: the
// SDK's own registry checks and dispatches each call exactly as it does in
// a plugin process, and the tools reach the editor through the bridge.
// served names each tool. The host's core tools are served this way.
func (s *Server) inProcessTools(ts sdk.Toolset, served func(tool string) string) ([]Tool, error) {
	reg, err := inproc.NewToolset(ts)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := reg.Setup(ctx, plugmodel.HostConfig{Host: inProcessHost{s}, ContractVersion: contract.ContractVersion}); err != nil {
		return nil, err
	}
	info, err := reg.Describe(ctx)
	if err != nil {
		return nil, err
	}
	tools := make([]Tool, 0, len(info.Tools))
	for _, t := range info.Tools {
		name := t.Name
		tools = append(tools, Tool{Def: DefFromInfo(ts.Name, served(name), t), Exec: func(ctx context.Context, call Call) Result {
			call.Tool = name
			res, err := reg.Call(ctx, call)
			if err != nil {
				return Fail(contract.AsError(err))
			}
			return res
		}})
	}
	return tools, nil
}

// inProcessHost is the host's services for an in-process toolset: its
// editor commands go to the bridge (the core's commands are the addon's
// own; no gate stands between), progress and log records to the caller.
type inProcessHost struct{ s *Server }

func (h inProcessHost) Send(ctx context.Context, _, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	resp := h.s.bridge.Send(ctx, command, params, timeout)
	if e := resp.Err(); e != nil {
		return nil, e
	}
	if len(resp.Result) == 0 {
		return json.RawMessage("{}"), nil
	}
	return resp.Result, nil
}

func (h inProcessHost) Progress(_ context.Context, token string, progress, total float64, message string) error {
	if token != "" {
		h.s.Progress(token, progress, total, message)
	}
	return nil
}

func (h inProcessHost) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	args := make([]any, 0, len(attrs))
	for _, a := range attrs {
		args = append(args, a)
	}
	h.s.log.Log(ctx, level, message, args...)
	if id := plugmodel.CallID(ctx); id != "" {
		h.s.LogCall(id, level, message, attrs)
	}
	return nil
}

// mustCoreTools are the core tools, served in-process.
func (s *Server) mustCoreTools() []Tool {
	tools, err := s.inProcessTools(coreToolset(s), coreToolName)
	if err != nil {
		panic(fmt.Sprintf("core tools: %v", err)) // a programming error every test catches
	}
	return tools
}

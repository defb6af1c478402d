package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/toolsets"
	"github.com/godot-mcp/godot-mcp/internal/inproc"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// buildSurface assembles the contract surface: the core tools plus every
// built-in toolset, each described by its real plugin process.
func buildSurface(ctx context.Context, self string) (mcpserver.Surface, error) {
	specs := toolsets.BuiltinSpecs(self, plugins.Names())
	var out []mcpserver.SurfaceToolset
	for _, spec := range specs {
		p, err := pluginhost.Launch(ctx, spec, noServices{}, slog.New(slog.DiscardHandler))
		if err != nil {
			return mcpserver.Surface{}, fmt.Errorf("describe %s: %w", spec.Name, err)
		}
		info := p.Info()
		_ = p.Stop(ctx)
		out = append(out, toolsets.SurfaceFromInfo(info))
	}
	return mcpserver.NewSurface(out...), nil
}

// noServices serves plugins that are only described, never called.
type noServices struct{}

func (noServices) Send(context.Context, string, json.RawMessage, time.Duration) envelope.Response {
	return envelope.Failure("", contract.Errorf(contract.BridgeDisconnected, "This plugin is only being described."))
}

func (noServices) EditorCommand(command string) (envelope.CommandInfo, bool, *contract.Error) {
	return envelope.CommandInfo{}, false, contract.Errorf(contract.BridgeDisconnected, "This plugin is only being described.")
}

func (noServices) Progress(context.Context, string, float64, float64, string) {}

// builtinSummaries are the built-in toolsets' declarations, read in this
// process: the server's instructions list them without starting a plugin.
func builtinSummaries(builtins ...sdk.Toolset) []mcpserver.ToolsetSummary {
	if builtins == nil {
		builtins = plugins.Builtins()
	}
	var out []mcpserver.ToolsetSummary
	for _, ts := range builtins {
		s := mcpserver.ToolsetSummary{Name: ts.Name, Description: ts.Description, Keywords: ts.Keywords, BuiltIn: true, ToolPreconditions: map[string][]string{},
			Version: ts.Version, MinGodot: ts.MinGodot, MaxTestedGodot: ts.MaxTestedGodot}
		for _, t := range ts.Tools {
			name := toolsets.QualifiedName(ts.Name, t.Name())
			s.Tools = append(s.Tools, name)
			s.ToolPreconditions[name] = t.Preconditions()
		}
		out = append(out, s)
	}
	return out
}

// builtinInfos reads the built-in toolsets' full descriptions in this
// process from the SDK registry, held to the checks of a plugin's
// description (pluginhost.Open): listing and enabling a built-in toolset
// starts no plugin process. The toolsets' manager calls it once, in the
// background. A toolset that fails here is left out and described by its
// plugin as before (the failure is logged).
func builtinInfos(log *slog.Logger, builtins []sdk.Toolset) func() map[string]plugmodel.ToolsetInfo {
	return func() map[string]plugmodel.ToolsetInfo { return readBuiltinInfos(log, builtins) }
}

func readBuiltinInfos(log *slog.Logger, builtins []sdk.Toolset) map[string]plugmodel.ToolsetInfo {
	out := map[string]plugmodel.ToolsetInfo{}
	if inproc.NewToolset == nil {
		return out
	}
	ctx := context.Background()
	for _, ts := range builtins {
		reg, err := inproc.NewToolset(ts)
		if err == nil {
			var p *pluginhost.Plugin
			if p, err = pluginhost.Open(ctx, pluginhost.Spec{Name: ts.Name, BuiltIn: true}, reg, noServices{}, log); err == nil {
				out[ts.Name] = p.Info()
				continue
			}
		}
		log.Warn("built-in toolset described by its plugin instead", "toolset", ts.Name, "err", err)
	}
	return out
}

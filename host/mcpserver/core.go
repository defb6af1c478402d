package mcpserver

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/addonversion"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// CoreToolset is the name of the always-on toolset served by the host itself.
const CoreToolset = "core"

// Default bridge timeouts of the core tools.
const (
	editorStateTimeout   = 5 * time.Second
	undoTimeout          = 10 * time.Second
	describeClassTimeout = 10 * time.Second
)

// ---- the tools ----

// coreToolset declares the host's own tools with the SDK, as any toolset
// declares its tools: one set of declaration checks (sdk.NewTool), one
// dispatcher, one way to reach the editor (Call.Host). It is served
// in-process (inprocess.go) under unprefixed names (godot_<tool>).
func coreToolset(s *Server) sdk.Toolset {
	pre := []string{contract.RequireBridgeConnected}
	return sdk.Toolset{
		Name: CoreToolset, Version: buildinfo.Version,
		Description: "The host's own tools: server info, toolsets, editor state, undo/redo, the class reference.",
		Tools: []sdk.Tool{
			sdk.NewTool("get_server_info", sdk.ToolOptions{Title: "Server info", Safety: sdk.ReadOnly,
				Description: "Versions (build, contract, MCP protocol), the bridge and the connected editor, version_notice when addon and server differ, " +
					"every toolset's state, plugin-directory files not served, and tools that cannot work here (unavailable). Call it first."},
				func(ctx context.Context, _ *sdk.Call, _ NoArgs) (ServerInfo, error) { return s.serverInfo(ctx), nil }),
			sdk.NewTool("list_toolsets", sdk.ToolOptions{Title: "List toolsets", Safety: sdk.ReadOnly,
				Description: "Every known toolset, built-in or third-party (with its path): enabled, state and last_error, tool count, min_godot, description, keywords; " +
					"one still being described is listed as describing."},
				func(ctx context.Context, _ *sdk.Call, _ NoArgs) (ToolsetList, error) {
					return ToolsetList{Toolsets: s.listToolsets(ctx)}, nil
				}),
			sdk.NewTool("enable_toolset", sdk.ToolOptions{Title: "Enable toolsets", Safety: sdk.ReadOnly,
				Description: "Starts toolsets so their tools appear (one tools/list_changed): name (one, or all), names or profile, all or nothing; " +
					"refused for a toolset needing a newer Godot. client_note: what your client will not show."},
				s.enableToolset),
			sdk.NewTool("disable_toolset", sdk.ToolOptions{Title: "Disable a toolset", Safety: sdk.ReadOnly,
				Description: "Stops a toolset's plugin and removes its tools (one tools/list_changed)."},
				s.disableToolset),
			sdk.NewTool("get_editor_state", sdk.ToolOptions{Title: "Editor state", Safety: sdk.ReadOnly, Preconditions: pre,
				Description: "One call to orient in the editor: project, Godot version, viewport size, open scenes and the active one (dirty or not), selection, " +
					"whether a game is playing, whether the filesystem is scanning, and what undo/redo would do."},
				passThrough[NoArgs, EditorState]("cmd_get_editor_state", editorStateTimeout)),
			sdk.NewTool("undo", sdk.ToolOptions{Title: "Undo", Safety: sdk.Mutating, Preconditions: pre, DestructiveWhen: []string{"count>1"},
				Description: "Undo the last editor action(s) (the active scene's history, else the global one). Each godot-mcp edit is one action. " +
					"dry_run lists what would be undone. Undoing more than one action (count > 1) can discard work of the user's too, so it needs confirm: true."},
				undoRedo("cmd_undo")),
			sdk.NewTool("redo", sdk.ToolOptions{Title: "Redo", Safety: sdk.Mutating, Preconditions: pre,
				Description: "Redo the last undone editor action(s). dry_run lists what would be redone."},
				undoRedo("cmd_redo")),
			sdk.NewTool("describe_class", sdk.ToolOptions{Title: "Describe a class", Safety: sdk.ReadOnly, Preconditions: pre,
				Description: "ClassDB reference for a Godot class: inheritance chain, properties (type, hint, default), methods, signals, constants and enums, " +
					"optionally filtered by a member-name substring. Unknown classes get a did-you-mean."},
				passThrough[DescribeClassArgs, ClassDescription]("cmd_describe_class", describeClassTimeout)),
		},
	}
}

// coreToolName is the served name of a core tool: godot_<tool>.
func coreToolName(tool string) string { return "godot_" + tool }

// CoreToolNames are the names of the tools the host itself serves; no
// toolset may serve a tool under one of them.
func CoreToolNames() []string {
	tools := coreToolset(nil).Tools // the functions are never called
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = coreToolName(t.Name())
	}
	return names
}

// passThrough sends the arguments as one editor command and answers the
// editor's result.
func passThrough[In, Out any](command string, timeout time.Duration) func(context.Context, *sdk.Call, In) (Out, error) {
	return func(ctx context.Context, call *sdk.Call, in In) (Out, error) {
		return sdk.Send[Out](ctx, call.Host, command, in, timeout)
	}
}

func undoRedo(command string) func(context.Context, *sdk.Call, UndoArgs) (UndoResult, error) {
	return func(ctx context.Context, call *sdk.Call, in UndoArgs) (UndoResult, error) {
		// The input schema bounds count (1-100) and history (auto, scene,
		// global): the host refused anything else before this runs.
		if in.Count == 0 {
			in.Count = 1
		}
		if in.History == "" {
			in.History = "auto"
		}
		return sdk.Send[UndoResult](ctx, call.Host, command, map[string]any{"count": in.Count, "dry_run": call.DryRun, "history": in.History}, undoTimeout)
	}
}

func (s *Server) serverInfo(ctx context.Context) ServerInfo {
	st := s.bridge.Status()
	info := ServerInfo{
		Name:                  "godot-mcp",
		Version:               buildinfo.Version,
		ContractVersion:       contract.ContractVersion,
		MinCompatibleContract: contract.MinCompatibleContract,
		MCPProtocolVersion:    negotiatedProtocol(ctx),
		Transport:             s.cfg.Transport,
		ProjectDir:            s.projectDir(),
		Bridge:                BridgeInfo{URL: st.URL, Listening: st.Listening, Connected: st.Connected},
		Toolsets:              s.listToolsets(ctx),
		PluginDir:             PluginDirInfo{Path: s.cfg.PluginDir, Skipped: s.skipped},
		Unavailable:           s.unavailableTools(),
	}
	if info.PluginDir.Skipped == nil {
		info.PluginDir.Skipped = []SkippedPlugin{}
	}
	if st.Peer != nil {
		info.Bridge.Peer = &PeerInfo{
			ProjectDir: st.Peer.ProjectDir, GodotVersion: st.Peer.GodotVersion,
			AddonVersion: st.Peer.AddonVersion, ConnectedAt: st.Peer.ConnectedAt,
		}
		info.Bridge.Peer.GodotTested, info.Bridge.Peer.GodotNote = buildinfo.GodotTested(st.Peer.GodotVersion)
		info.VersionNotice = addonversion.Notice(buildinfo.Version, st.Peer.AddonVersion)
	}
	return info
}

// negotiatedProtocol is the MCP revision in effect for the calling client:
// the one negotiated at initialize, or the one a 2026-07-28 (or later)
// request declares; the preferred revision when neither is known.
func negotiatedProtocol(ctx context.Context) string {
	if v := server.RequestProtocolVersion(ctx); v != "" {
		return v
	}
	return buildinfo.MCPProtocolVersion
}

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/addonversion"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/internal/schema"
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

func coreTools(s *Server) []Tool {
	return []Tool{
		coreTool[NoArgs, ServerInfo]("godot_get_server_info", "Server info", contract.ReadOnly, nil,
			"Versions (build, contract, MCP protocol), the bridge and the connected editor, version_notice when addon and server differ, "+
				"every toolset's state, plugin-directory files not served, and tools that cannot work here (unavailable). Call it first.",
			false, s.serverInfo),
		coreTool[NoArgs, ToolsetList]("godot_list_toolsets", "List toolsets", contract.ReadOnly, nil,
			"Every known toolset, built-in or third-party (with its path): enabled, state and last_error, tool count, min_godot, description, keywords; "+
				"one still being described is listed as describing.",
			false, func(ctx context.Context, _ Call, _ NoArgs) Result {
				return OK(ToolsetList{Toolsets: s.listToolsets(ctx)})
			}),
		coreTool[EnableArgs, EnableResult]("godot_enable_toolset", "Enable toolsets", contract.ReadOnly, nil,
			"Starts toolsets so their tools appear (one tools/list_changed): name (one, or all), names or profile, all or nothing; "+
				"refused for a toolset needing a newer Godot. client_note: what your client will not show.",
			false, s.enableToolset),
		coreTool[ToolsetName, DisableResult]("godot_disable_toolset", "Disable a toolset", contract.ReadOnly, nil,
			"Stops a toolset's plugin and removes its tools (one tools/list_changed).",
			false, s.disableToolset),
		coreTool[NoArgs, EditorState]("godot_get_editor_state", "Editor state", contract.ReadOnly, []string{contract.RequireBridgeConnected},
			"One call to orient in the editor: project, Godot version, viewport size, open scenes and the active one (dirty or not), selection, "+
				"whether a game is playing, whether the filesystem is scanning, and what undo/redo would do.",
			false, passThrough[NoArgs, EditorState](s, "cmd_get_editor_state", editorStateTimeout)),
		coreTool[UndoArgs, UndoResult]("godot_undo", "Undo", contract.Mutating, []string{contract.RequireBridgeConnected},
			"Undo the last editor action(s) (the active scene's history, else the global one). Each godot-mcp edit is one action. "+
				"dry_run lists what would be undone. Undoing more than one action (count > 1) can discard work of the user's too, so it needs confirm: true.",
			true, s.undoRedo("cmd_undo")).destructiveWhen("count>1"),
		coreTool[UndoArgs, UndoResult]("godot_redo", "Redo", contract.Mutating, []string{contract.RequireBridgeConnected},
			"Redo the last undone editor action(s). dry_run lists what would be redone.",
			true, s.undoRedo("cmd_redo")),
		coreTool[DescribeClassArgs, ClassDescription]("godot_describe_class", "Describe a class", contract.ReadOnly, []string{contract.RequireBridgeConnected},
			"ClassDB reference for a Godot class: inheritance chain, properties (type, hint, default), methods, signals, constants and enums, "+
				"optionally filtered by a member-name substring. Unknown classes get a did-you-mean.",
			false, passThrough[DescribeClassArgs, ClassDescription](s, "cmd_describe_class", describeClassTimeout)),
	}
}

// CoreToolNames are the names of the tools the host itself serves; no
// toolset may serve a tool under one of them.
func CoreToolNames() []string {
	tools := coreTools(nil) // the executors are never called
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Def.Name
	}
	return names
}

// coreTool builds a host-served tool from typed input and output structs.
func coreTool[In, Out any](name, title string, class contract.Class, pre []string, desc string, preview bool,
	fn func(ctx context.Context, call Call, in In) Result) Tool {
	// Declared like an SDK tool (sdk.NewTool): a misspelt precondition or
	// a malformed schema tag panics here, the first time the server starts.
	for _, p := range pre {
		if !slices.Contains(contract.Preconditions, p) {
			panic(fmt.Sprintf("core tool %s: unknown precondition %q (known: %s)", name, p, strings.Join(contract.Preconditions, ", ")))
		}
	}
	for _, f := range schema.Fields(reflect.TypeFor[In]()) {
		if slices.Contains(contract.ReservedArgs, f.Name) {
			panic(fmt.Sprintf("core tool %s: input field %q (%s) is reserved: the host owns dry_run and confirm (Call.DryRun, Call.Confirm)", name, f.Name, f.GoName))
		}
	}
	return Tool{
		Def: ToolDef{
			Name: name, Title: title, Description: desc, Toolset: CoreToolset, Class: class,
			Preconditions: pre, Preview: preview,
			InputSchema:  InputSchemaFor[In](),
			OutputSchema: OutputSchemaFor[Out](),
		},
		Exec: func(ctx context.Context, call Call) Result {
			var in In
			if err := json.Unmarshal(call.Arguments, &in); err != nil {
				return Fail(contract.Errorf(contract.ValidationError, "Arguments of %s: %v", name, err))
			}
			return fn(ctx, call, in)
		},
	}
}

// destructiveWhen marks calls that meet one of conds as destructive (see contract.Condition).
func (t Tool) destructiveWhen(conds ...string) Tool {
	t.Def.DestructiveWhen = conds
	return t
}

// passThrough sends the arguments (minus host-owned flags) as one bridge
// command and returns the editor's result.
func passThrough[In, Out any](s *Server, command string, timeout time.Duration) func(context.Context, Call, In) Result {
	return func(ctx context.Context, _ Call, in In) Result {
		resp := s.bridge.Send(ctx, command, in, timeout)
		if e := resp.Err(); e != nil {
			return Fail(e)
		}
		return Result{Structured: resp.Result}
	}
}

func (s *Server) undoRedo(command string) func(context.Context, Call, UndoArgs) Result {
	return func(ctx context.Context, call Call, in UndoArgs) Result {
		// The input schema bounds count (1-100) and history (auto, scene,
		// global): the host refused anything else before this runs.
		if in.Count == 0 {
			in.Count = 1
		}
		if in.History == "" {
			in.History = "auto"
		}
		resp := s.bridge.Send(ctx, command, map[string]any{"count": in.Count, "dry_run": call.DryRun, "history": in.History}, undoTimeout)
		if e := resp.Err(); e != nil {
			return Fail(e)
		}
		return Result{Structured: resp.Result}
	}
}

func (s *Server) serverInfo(ctx context.Context, _ Call, _ NoArgs) Result {
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
	return OK(info)
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

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
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

// ---- typed inputs and results ----

// NoArgs is the input of tools without parameters.
type NoArgs struct{}

// PeerInfo identifies the connected editor.
type PeerInfo struct {
	ProjectDir   string    `json:"project_dir"`
	GodotVersion string    `json:"godot_version"`
	GodotTested  bool      `json:"godot_tested" description:"a Godot version the e2e suite proves every tool on"`
	GodotNote    string    `json:"godot_note"`
	AddonVersion string    `json:"addon_version"`
	ConnectedAt  time.Time `json:"connected_at"`
}

// BridgeInfo is the bridge's state.
type BridgeInfo struct {
	URL       string    `json:"url"`
	Listening bool      `json:"listening"`
	Connected bool      `json:"connected"`
	Peer      *PeerInfo `json:"peer"`
}

// ServerInfo is the result of godot_get_server_info.
type ServerInfo struct {
	Name                  string            `json:"name"`
	Version               string            `json:"version" description:"CalVer build version YYYY.MM.DD[.N]"`
	ContractVersion       int               `json:"contract_version" description:"newest client contract served"`
	MinCompatibleContract int               `json:"min_compatible_contract" description:"oldest client contract still served"`
	MCPProtocolVersion    string            `json:"mcp_protocol_version" description:"the MCP revision negotiated with this client"`
	Transport             string            `json:"transport"`
	ProjectDir            string            `json:"project_dir"`
	Bridge                BridgeInfo        `json:"bridge"`
	VersionNotice         string            `json:"version_notice,omitempty" description:"set when the connected addon's version differs from the server's"`
	Toolsets              []ToolsetStatus   `json:"toolsets"`
	PluginDir             PluginDirInfo     `json:"plugin_dir"`
	Unavailable           []UnavailableTool `json:"unavailable" description:"tools that cannot work in this setup, served or of a built-in toolset not enabled yet (e.g. headless runs, test runs, the project check and shader compiles without a Godot binary), each with what is missing and the fix; empty when every one can"`
}

// ToolsetList is the result of godot_list_toolsets.
type ToolsetList struct {
	Toolsets []ToolsetStatus `json:"toolsets"`
}

// ToolsetName is the input of godot_enable_toolset / godot_disable_toolset.
type ToolsetName struct {
	Name string `json:"name" description:"toolset name, as listed by godot_list_toolsets"`
}

// AllToolsets stands for every known toolset in godot_enable_toolset (and
// GODOT_MCP_DEFAULT_TOOLSETS).
const AllToolsets = "all"

// EnableArgs is the input of godot_enable_toolset: name or names.
type EnableArgs struct {
	Name    string   `json:"name,omitempty" description:"one toolset, as listed by godot_list_toolsets, or all for every toolset"`
	Names   []string `json:"names,omitempty" description:"several toolsets at once; all stands for every toolset"`
	Profile string   `json:"profile,omitempty" description:"a profile's toolsets: minimal, 2d, 3d, world3d, playtest or all"`
}

// EnableResult is the result of godot_enable_toolset.
type EnableResult struct {
	Toolset        *ToolsetStatus  `json:"toolset,omitempty" description:"the toolset, when one was named"`
	Toolsets       []ToolsetStatus `json:"toolsets" description:"every toolset enabled by the call, in the order named"`
	Tools          []string        `json:"tools" description:"tool names now available from them"`
	AlreadyEnabled bool            `json:"already_enabled" description:"true when every one was enabled already (nothing changed)"`
	Restarted      []string        `json:"restarted,omitempty" description:"toolsets that were enabled already but whose executable changed: stopped and started again from the new file, with what changed"`
	ClientNote     string          `json:"client_note,omitempty" description:"set when your client is known not to show the new tools (it ignores tools/list_changed: how to call them by name) or to take fewer tools than are served now"`
}

// DisableResult is the result of godot_disable_toolset.
type DisableResult struct {
	Toolset         ToolsetStatus `json:"toolset"`
	RemovedTools    []string      `json:"removed_tools"`
	AlreadyDisabled bool          `json:"already_disabled"`
	Notes           []string      `json:"notes,omitempty" description:"what disabling could not undo, e.g. editor code files you changed, kept in the project"`
}

// OpenScene is one open scene tab.
type OpenScene struct {
	Path   string `json:"path"`
	Dirty  bool   `json:"dirty"`
	Active bool   `json:"active"`
}

// ActiveScene describes the edited scene.
type ActiveScene struct {
	Path     string `json:"path"`
	RootName string `json:"root_name"`
	RootType string `json:"root_type"`
	Dirty    bool   `json:"dirty"`
}

// Size is a width and height in pixels.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// UndoState tells what undo/redo would do.
type UndoState struct {
	HasUndo    bool   `json:"has_undo"`
	HasRedo    bool   `json:"has_redo"`
	UndoAction string `json:"undo_action"`
	RedoAction string `json:"redo_action"`
}

// EditorState is the result of godot_get_editor_state.
type EditorState struct {
	ProjectDir   string       `json:"project_dir"`
	ProjectName  string       `json:"project_name"`
	GodotVersion string       `json:"godot_version"`
	AddonVersion string       `json:"addon_version"`
	GodotExe     string       `json:"godot_executable,omitempty" description:"the editor's executable, the headless tools' fallback for GODOT_BIN"`
	ViewportSize *Size        `json:"viewport_size,omitempty" description:"the project's viewport (display/window/size)"`
	OpenScenes   []OpenScene  `json:"open_scenes"`
	ActiveScene  *ActiveScene `json:"active_scene" description:"null when no scene is open"`
	Selection    []string     `json:"selection" description:"selected node paths, relative to the scene root"`
	Playing      bool         `json:"playing"`
	PlayingScene string       `json:"playing_scene"`
	Scanning     bool         `json:"scanning" description:"the editor filesystem is (re)scanning"`
	ScanProgress float64      `json:"scan_progress"`
	Undo         UndoState    `json:"undo"`
}

// UndoArgs is the input of godot_undo / godot_redo.
type UndoArgs struct {
	Count   int    `json:"count,omitempty" description:"how many actions (1-100, default 1)" jsonschema:"minimum=1,maximum=100"`
	History string `json:"history,omitempty" description:"auto (default: the scene's, else global), scene, or global (project settings, input map, autoloads)" jsonschema:"enum=auto|scene|global"`
}

// UndoResult is the result of godot_undo / godot_redo.
type UndoResult struct {
	Requested int      `json:"requested"`
	Performed int      `json:"performed"`
	Actions   []string `json:"actions" description:"names of the actions undone/redone (or that would be, with dry_run), in order"`
	DryRun    bool     `json:"dry_run"`
	HasUndo   bool     `json:"has_undo"`
	HasRedo   bool     `json:"has_redo"`
	History   string   `json:"history,omitempty" description:"the history that was used: scene or global"`
}

// DescribeClassArgs is the input of godot_describe_class.
type DescribeClassArgs struct {
	ClassName        string `json:"class_name" description:"a ClassDB class, e.g. CharacterBody2D"`
	Filter           string `json:"filter,omitempty" description:"case-insensitive substring that member names must contain"`
	IncludeInherited bool   `json:"include_inherited,omitempty" description:"also list members inherited from parent classes"`
}

// ArgInfo is a method or signal argument.
type ArgInfo struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// PropertyInfo is a class property.
type PropertyInfo struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Hint       int    `json:"hint"`
	HintString string `json:"hint_string"`
	Default    any    `json:"default,omitempty"`
}

// MethodInfo is a class method.
type MethodInfo struct {
	Name       string    `json:"name"`
	ReturnType string    `json:"return_type"`
	Args       []ArgInfo `json:"args"`
	IsStatic   bool      `json:"is_static"`
	IsVirtual  bool      `json:"is_virtual"`
}

// SignalInfo is a class signal.
type SignalInfo struct {
	Name string    `json:"name"`
	Args []ArgInfo `json:"args"`
}

// ConstantInfo is a class constant.
type ConstantInfo struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// EnumInfo is a class enum.
type EnumInfo struct {
	Name   string           `json:"name"`
	Values map[string]int64 `json:"values"`
}

// ClassDescription is the result of godot_describe_class.
type ClassDescription struct {
	ClassName    string         `json:"class_name"`
	Inherits     []string       `json:"inherits" description:"parent chain, nearest first"`
	Instantiable bool           `json:"instantiable"`
	Properties   []PropertyInfo `json:"properties"`
	Methods      []MethodInfo   `json:"methods"`
	Signals      []SignalInfo   `json:"signals"`
	Constants    []ConstantInfo `json:"constants"`
	Enums        []EnumInfo     `json:"enums"`
}

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

func (s *Server) listToolsets(ctx context.Context) []ToolsetStatus {
	if s.toolsets == nil {
		return []ToolsetStatus{}
	}
	list := s.toolsets.List(ctx)
	// A built-in toolset whose plugin has not described itself (yet, or it
	// failed to start) still says what the host binary declares of it.
	for i := range list {
		st := &list[i]
		if !st.BuiltIn || st.Version != "" {
			continue
		}
		for _, b := range s.builtins {
			if b.Name == st.Name {
				st.Description, st.Keywords, st.Version, st.MinGodot, st.MaxTested, st.ToolCount =
					b.Description, b.Keywords, b.Version, b.MinGodot, b.MaxTestedGodot, len(b.Tools)
			}
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

func (s *Server) unknownToolset(ctx context.Context, name string) *contract.Error {
	var names []string
	for _, t := range s.listToolsets(ctx) {
		names = append(names, t.Name)
	}
	known := "none are installed"
	if len(names) > 0 {
		known = "known toolsets: " + strings.Join(names, ", ")
	}
	return contract.Errorf(contract.ValidationError, "Unknown toolset %q; %s. Call godot_list_toolsets to see them.", name, known)
}

func (s *Server) findToolset(ctx context.Context, name string) (ToolsetStatus, bool) {
	if one, ok := s.toolsets.(toolsetStatuser); ok {
		return one.Status(name) // without waiting on the other toolsets' descriptions
	}
	for _, t := range s.listToolsets(ctx) {
		if t.Name == name {
			return t, true
		}
	}
	return ToolsetStatus{}, false
}

func (s *Server) enableToolset(ctx context.Context, _ Call, in EnableArgs) Result {
	var names []string
	given := 0
	for _, set := range []bool{in.Name != "", len(in.Names) > 0, in.Profile != ""} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return Fail(contract.Errorf(contract.ValidationError, "Give one of name (one toolset), names (several) or profile, not more."))
	case in.Profile != "":
		var perr *contract.Error
		if names, perr = s.ProfileToolsets(ctx, in.Profile); perr != nil {
			return Fail(perr)
		}
	case in.Name != "":
		names = []string{in.Name}
	case len(in.Names) > 0:
		names = in.Names
	default:
		return Fail(contract.Errorf(contract.ValidationError, "Give name (a toolset, or all), names (several toolsets) or profile (minimal, 2d, 3d, world3d, playtest, all); godot_list_toolsets lists the toolsets."))
	}
	names = s.expandToolsets(ctx, names)
	outs, err := s.enable(ctx, names...)
	if err != nil {
		return Fail(err)
	}
	res := EnableResult{Toolsets: []ToolsetStatus{}, Tools: []string{}, AlreadyEnabled: true}
	for i, out := range outs {
		for _, t := range out.Tools {
			res.Tools = append(res.Tools, t.Def.Name)
		}
		st, _ := s.findToolset(ctx, names[i])
		res.Toolsets = append(res.Toolsets, st)
		res.AlreadyEnabled = res.AlreadyEnabled && out.AlreadyEnabled
		if out.Restarted != "" {
			res.Restarted = append(res.Restarted, names[i]+": "+out.Restarted)
		}
	}
	sort.Strings(res.Tools)
	if len(names) == 1 && in.Profile == "" && in.Name != AllToolsets && (len(in.Names) == 0 || in.Names[0] != AllToolsets) {
		res.Toolset = &res.Toolsets[0]
	}
	res.ClientNote = s.clientNote(ctx, !res.AlreadyEnabled)
	return OK(res)
}

// expandToolsets replaces "all" by every known toolset and drops repeats.
func (s *Server) expandToolsets(ctx context.Context, names []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range names {
		if n != AllToolsets {
			add(n)
			continue
		}
		for _, st := range s.listToolsets(ctx) {
			add(st.Name)
		}
	}
	return out
}

// EnableToolset enables a toolset as godot_enable_toolset does (used for
// GODOT_MCP_DEFAULT_TOOLSETS at start).
func (s *Server) EnableToolset(ctx context.Context, name string) *contract.Error {
	_, err := s.enable(ctx, name)
	return err
}

// enable enables the named toolsets, all or nothing, and serves their tools,
// resources and prompts with one change each (one tools/list_changed).
func (s *Server) enable(ctx context.Context, names ...string) ([]EnableOutcome, *contract.Error) {
	for _, name := range names {
		if _, ok := s.findToolset(ctx, name); !ok || s.toolsets == nil {
			return nil, s.unknownToolset(ctx, name)
		}
	}
	godot := ""
	if st := s.bridge.Status(); st.Peer != nil {
		godot = st.Peer.GodotVersion
	}
	// The toolsets' state and the served tools change together: a disable
	// racing this enable waits, so it never runs between the two. Locks
	// are taken in name order, so two multi-toolset enables never deadlock.
	locked := append([]string(nil), names...)
	sort.Strings(locked)
	for _, name := range locked {
		unlock := s.lockToolset(name)
		defer unlock()
	}
	// An enabled toolset whose executable changed is stopped here and
	// enabled again below from the new file (an untrusted one is refused
	// first, and nothing is stopped).
	restarted := map[string]string{}
	if ch, ok := s.toolsets.(toolsetChanges); ok {
		for _, name := range names {
			what, err := ch.Changed(name)
			if err != nil {
				return nil, err
			}
			if what != "" {
				restarted[name] = what
			}
		}
	}
	for name := range restarted {
		out, err := s.toolsets.Disable(ctx, name)
		if err != nil {
			return nil, err
		}
		s.RemoveTools(s.toolsOf(name, out.RemovedTools)...)
		s.RemoveResources(s.resourcesOf(name, out.RemovedResources)...)
		s.RemovePrompts(s.promptsOf(name, out.RemovedPrompts)...)
	}
	outs := make([]EnableOutcome, 0, len(names))
	var started []string // enabled by this call, disabled again on failure
	// A stager installs the toolsets' editor code only once the whole set
	// is accepted (names, resources), so a refused set leaves the project
	// and the editor as they were (#24.10).
	stager, staged := s.toolsets.(toolsetStager)
	installed := map[string]bool{}
	rollback := func() {
		for _, n := range started {
			if staged && !installed[n] {
				stager.AbortStaged(ctx, n)
				continue
			}
			_, _ = s.toolsets.Disable(ctx, n)
		}
	}
	var tools []Tool
	var content EnableOutcome
	for _, name := range names {
		enable := s.toolsets.Enable
		if staged {
			enable = stager.EnableStaged
		}
		out, err := enable(ctx, name, godot)
		if err != nil {
			rollback()
			if len(names) > 1 {
				err = &contract.Error{Code: err.Code, Required: err.Required,
					Hint: fmt.Sprintf("Toolset %q cannot be enabled: %s Nothing was enabled; enable the others by name (%s).", name, strings.TrimSpace(err.Hint), strings.Join(without(names, name), ", "))}
			}
			if len(restarted) > 0 {
				stopped := make([]string, 0, len(restarted))
				for n := range restarted {
					stopped = append(stopped, n)
				}
				sort.Strings(stopped)
				err.Hint = strings.TrimSpace(err.Hint) + fmt.Sprintf(" %s had a new executable and was stopped to restart from it, so it is disabled now.", strings.Join(stopped, ", "))
			}
			return nil, err
		}
		out.Restarted = restarted[name]
		outs = append(outs, out)
		if !out.AlreadyEnabled {
			started = append(started, name)
			tools = append(tools, out.Tools...)
			content.Resources = append(content.Resources, out.Resources...)
			content.Prompts = append(content.Prompts, out.Prompts...)
		}
	}
	if len(started) == 0 {
		return outs, nil
	}
	which := strings.Join(started, ", ")
	if aerr := s.AddTools(tools...); aerr != nil {
		rollback()
		var taken *NameTakenError
		if errors.As(aerr, &taken) {
			return nil, contract.Errorf(contract.ValidationError,
				"Toolset %s cannot be enabled: %v. Tool names are godot_<toolset>_<tool> and are never taken over; "+
					"disable the other toolset first, or ask the toolset's author to rename it (its executable's name).", which, aerr)
		}
		return nil, contract.Errorf(contract.InternalError, "toolset %s declared a tool the host cannot serve: %v. Report this to the toolset's author.", which, aerr)
	}
	if cerr := s.addContent(content); cerr != nil {
		s.RemoveTools(servedToolNames(tools)...)
		rollback()
		var taken *ResourceTakenError
		if errors.As(cerr, &taken) {
			return nil, contract.Errorf(contract.ValidationError,
				"Toolset %s cannot be enabled: %v. Resources are never shadowed; disable the other toolset first, or ask the toolset's author to change the URI.", which, cerr)
		}
		return nil, contract.Errorf(contract.InternalError, "toolset %s cannot be served: %v. Disable the other toolset first, or report this to the toolset's author.", which, cerr)
	}
	if staged {
		for _, name := range started {
			if err := stager.InstallEditorCode(ctx, name); err != nil {
				s.RemoveTools(servedToolNames(tools)...)
				s.removeContent(content)
				rollback()
				if len(names) > 1 {
					err.Hint = strings.TrimSpace(err.Hint) + " Nothing was enabled; enable the others by name (" + strings.Join(without(names, name), ", ") + ")."
				}
				return nil, err
			}
			installed[name] = true
		}
	}
	s.bridge.PushToolsets(s.toolsets.Enabled())
	return outs, nil
}

func without(names []string, drop string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n != drop {
			out = append(out, n)
		}
	}
	return out
}

// lockToolset serializes enabling and disabling one toolset (the plugin's
// state and the served tools); other toolsets are not held up.
func (s *Server) lockToolset(name string) (unlock func()) {
	mu, _ := s.toolsetLocks.LoadOrStore(name, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock
}

func (s *Server) disableToolset(ctx context.Context, _ Call, in ToolsetName) Result {
	if _, ok := s.findToolset(ctx, in.Name); !ok || s.toolsets == nil {
		return Fail(s.unknownToolset(ctx, in.Name))
	}
	unlock := s.lockToolset(in.Name)
	out, err := s.toolsets.Disable(ctx, in.Name)
	if err != nil {
		unlock()
		return Fail(err)
	}
	out.RemovedTools = s.toolsOf(in.Name, out.RemovedTools)
	s.RemoveTools(out.RemovedTools...)
	s.RemoveResources(s.resourcesOf(in.Name, out.RemovedResources)...)
	s.RemovePrompts(s.promptsOf(in.Name, out.RemovedPrompts)...)
	unlock()
	if !out.AlreadyDisabled {
		s.bridge.PushToolsets(s.toolsets.Enabled())
	}
	sort.Strings(out.RemovedTools)
	if out.RemovedTools == nil {
		out.RemovedTools = []string{}
	}
	st, _ := s.findToolset(ctx, in.Name)
	return OK(DisableResult{Toolset: st, RemovedTools: out.RemovedTools, AlreadyDisabled: out.AlreadyDisabled, Notes: out.Notes})
}

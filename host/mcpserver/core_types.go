package mcpserver

// The arguments and results of the core tools.

import "time"

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
	History    string `json:"history,omitempty" description:"the history godot_undo would use now: scene or global"`
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
	DirtyKnown   bool         `json:"dirty_known" description:"false when the editor did not say which open scenes have unsaved changes (their dirty flags are then false)"`
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
	Name    string `json:"name"`
	Type    string `json:"type"`
	Default any    `json:"default,omitempty" description:"the default value of an optional argument"`
}

// PropertyInfo is a class property.
type PropertyInfo struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Hint       int    `json:"hint"`
	HintString string `json:"hint_string"`
	Default    any    `json:"default,omitempty"`
	Enum       string `json:"enum,omitempty" description:"the enum an integer property takes its values from"`
}

// MethodInfo is a class method.
type MethodInfo struct {
	Name       string    `json:"name"`
	ReturnType string    `json:"return_type"`
	Args       []ArgInfo `json:"args"`
	IsStatic   bool      `json:"is_static"`
	IsVirtual  bool      `json:"is_virtual"`
	IsVararg   bool      `json:"is_vararg"`
}

// SignalInfo is a class signal.
type SignalInfo struct {
	Name string    `json:"name"`
	Args []ArgInfo `json:"args"`
}

// ConstantInfo is a class constant: an integer for an engine class, any
// value for a script's constant (const MAX_SPEED := 400.0).
type ConstantInfo struct {
	Name  string `json:"name"`
	Value any    `json:"value" description:"an integer for an engine class; a script constant's value in the godot://docs/values shapes"`
}

// EnumInfo is a class enum.
type EnumInfo struct {
	Name       string           `json:"name"`
	Values     map[string]int64 `json:"values"`
	IsBitfield bool             `json:"is_bitfield"`
}

// ClassDescription is the result of godot_describe_class.
type ClassDescription struct {
	ClassName    string         `json:"class_name"`
	Inherits     []string       `json:"inherits" description:"parent chain, nearest first"`
	Instantiable bool           `json:"instantiable"`
	IsScript     bool           `json:"is_script_class" description:"a class_name script's class, not a ClassDB class"`
	ScriptPath   string         `json:"script_path,omitempty" description:"the script of a script class"`
	Properties   []PropertyInfo `json:"properties"`
	Methods      []MethodInfo   `json:"methods"`
	Signals      []SignalInfo   `json:"signals"`
	Constants    []ConstantInfo `json:"constants"`
	Enums        []EnumInfo     `json:"enums"`
}

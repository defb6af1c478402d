package mcpserver

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ToolsetStatus describes one known toolset.
type ToolsetStatus struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Keywords    []string `json:"keywords,omitempty" description:"words an agent would search for to find this toolset (classes, features)"`
	Version     string   `json:"version"`
	BuiltIn     bool     `json:"builtin"`
	Path        string   `json:"path,omitempty" description:"executable of a third-party toolset"`
	Enabled     bool     `json:"enabled"`
	State       string   `json:"state" description:"stopped, describing (reading its description), starting, running, idle (enabled, no process until its next call), crashed (restarts on the next call), failed (could not start or describe: see last_error; retried when its executable changes or on godot_enable_toolset) or incompatible (needs a newer Godot than the connected editor: see last_error)"`
	SHA256      string   `json:"sha256,omitempty" description:"third-party executable's trusted hash"`
	ToolCount   int      `json:"tool_count"`
	MinGodot    string   `json:"min_godot,omitempty"`
	MaxTested   string   `json:"max_tested_godot,omitempty" description:"newest Godot it was tested on"`
	LastError   string   `json:"last_error,omitempty" description:"why it last failed to start, to describe itself or to answer, or why it was refused"`
	// EditorCode is set when the toolset ships editor-side GDScript.
	EditorCode *EditorCodeStatus `json:"editor_code,omitempty" description:"the GDScript this toolset installs into the project and runs in the editor with the editor's full power; absent when it ships none"`
}

// EditorCodeStatus is the editor code a toolset ships.
type EditorCodeStatus struct {
	Folder  string   `json:"folder" description:"where it is installed on enable (removed on disable)"`
	Version string   `json:"version"`
	Files   []string `json:"files"`
}

// EnableOutcome is what a Toolsets implementation returns on enable.
type EnableOutcome struct {
	Tools []Tool
	// Resources (fixed and templates) and Prompts the toolset serves; optional.
	Resources      []Resource
	Prompts        []Prompt
	AlreadyEnabled bool
	// Restarted says what changed when an enabled toolset was restarted
	// from a new executable (set by the server, see toolsetChanges).
	Restarted string
}

// DisableOutcome is what a Toolsets implementation returns on disable.
type DisableOutcome struct {
	RemovedTools []string
	// RemovedResources (URIs and templates) and RemovedPrompts (names).
	RemovedResources []string
	RemovedPrompts   []string
	AlreadyDisabled  bool
	// Notes say what disabling could not undo (e.g. editor code files the
	// user changed, kept in the project); shown to the agent.
	Notes []string
}

// toolsetStatuser is optionally implemented by Toolsets: one toolset's
// status, without describing (or waiting on) the others as List does.
type toolsetStatuser interface {
	Status(name string) (ToolsetStatus, bool)
}

// toolsetStager is a Toolsets that can enable a toolset without installing
// its editor code, install it later, or take such a toolset back without
// touching its editor code (host/toolsets.Manager).
// toolsetChanges is implemented by a Toolsets that can tell an enabled
// toolset's executable changed since it was enabled (what changed, or a
// refusal such as an untrusted new file); godot_enable_toolset then
// restarts it from the new file.
type toolsetChanges interface {
	Changed(name string) (string, *contract.Error)
}

type toolsetStager interface {
	EnableStaged(ctx context.Context, name, godotVersion string) (EnableOutcome, *contract.Error)
	InstallEditorCode(ctx context.Context, name string) *contract.Error
	AbortStaged(ctx context.Context, name string)
}

// Toolsets is the registry and gate of toolset plugins (host/toolsets).
type Toolsets interface {
	List(ctx context.Context) []ToolsetStatus
	// Enable starts the toolset and returns the tools to serve. godotVersion
	// is the connected editor's ("" when none) for min_godot gating.
	Enable(ctx context.Context, name, godotVersion string) (EnableOutcome, *contract.Error)
	Disable(ctx context.Context, name string) (DisableOutcome, *contract.Error)
	Enabled() []string
}

// PluginDirInfo is the third-party plugin directory as the server read it at start.
type PluginDirInfo struct {
	Path    string          `json:"path" description:"GODOT_MCP_PLUGIN_DIR (empty: none)"`
	Skipped []SkippedPlugin `json:"skipped" description:"executables in it that are not served as toolsets"`
}

// SkippedPlugin is one plugin-directory file that is not served, and why.
type SkippedPlugin struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

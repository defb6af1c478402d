package contract

// Machine-checkable names of preconditions, used in an error's Required
// field and in a tool's declared preconditions.
const (
	RequireActiveScene     = "active_scene"
	RequireConfirm         = "confirm"
	RequireBridgeConnected = "bridge_connected"
	RequireRuntimeProbe    = "runtime_probe"
	RequireGameNotBreaked  = "game_not_breaked"
	RequireGodotVersion    = "godot_version"
	RequireProjectDir      = "project_dir"
	// RequireGodotBinary: the tool starts a separate Godot process (a
	// headless run) and no Godot binary is found (GODOT_BIN, else godot on
	// PATH); godot_get_server_info lists the tool as unavailable then.
	RequireGodotBinary = "godot_binary"
	// RequireToolsetEnabled: the called tool's toolset is not enabled
	// (godot_enable_toolset; the hint names the toolset). Host only.
	RequireToolsetEnabled = "toolset_enabled"
	// RequireCommandClass: a toolset sent an editor command above its
	// tool's class (or a changing command during a dry run); see
	// docs/contract.md. Host only.
	RequireCommandClass = "command_class"
	// RequirePluginTrusted: a third-party toolset's executable is not the
	// one the user trusted (its SHA-256 changed); `godot-mcp toolset trust
	// NAME` trusts the new one (host/trust). Host only.
	RequirePluginTrusted = "plugin_trusted"
	// RequireExportTemplates: a whole-game export (godot_export_export,
	// godot_export_check_templates) lacks the platform's export templates
	// for this Godot version; the hint names the files and the directory.
	// A tool answers it; it is not declarable.
	RequireExportTemplates = "export_templates"
)

// Preconditions are the names a tool may declare
// (sdk.ToolOptions.Preconditions); the host refuses to serve a tool that
// declares any other. The host checks bridge_connected and project_dir
// itself before the call (and lists godot_binary tools as unavailable when
// no Godot is found; the tool checks it when it starts Godot); the editor
// command checks active_scene, runtime_probe, game_not_breaked and
// godot_version as part of its work (no round trip of its own); confirm is
// the class rule. The other Require* names are answered, never declared.
var Preconditions = []string{
	RequireActiveScene, RequireConfirm, RequireBridgeConnected, RequireRuntimeProbe,
	RequireGameNotBreaked, RequireGodotVersion, RequireProjectDir, RequireGodotBinary,
}

// Package audio is the built-in audio toolset: read and edit the project's
// audio bus layout (buses, sends, effects) as the editor's Audio panel does —
// one undo action per call, saved to the layout file the project loads — and
// read and set the import options of audio files (.wav, .ogg, .mp3), reimported
// and read back from the imported stream. Its editor side ships as GDScript in
// editor/ (installed into the project on enable). docs/audio.md describes the
// behaviours and limits.
package audio

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var (
	connected   = []string{sdk.RequireBridgeConnected}
	sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}
)

// Toolset is the audio toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "audio",
		Version:        "0.1.0",
		Description:    "Audio buses (volume, solo, mute, sends, effects) saved to the bus layout file, and audio import options; all undoable.",
		Keywords:       []string{"AudioBus", "bus layout", "audio effects", "volume", "AudioStreamPlayer", "loop", ".wav", ".ogg"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("get_buses", sdk.ToolOptions{
				Title: "Get audio buses",
				Description: "The audio bus layout in effect, in order: name, volume_db, solo, mute, bypass_effects, send, and each bus's effects " +
					"(class, enabled, properties); the layout file (project setting audio/buses/default_bus_layout) and whether it exists.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getBuses),
			sdk.NewTool("edit_buses", sdk.ToolOptions{
				Title: "Edit audio buses",
				Description: "Applies ops in order as ONE undo action, all or nothing: add/remove/rename/move a bus, set_bus (volume_db, solo, mute, bypass_effects, send: " +
					"a bus before it), add/remove/move/set an effect (AudioEffect class, enabled, properties). Master cannot be removed, renamed or moved. " +
					"Then saves the layout file, as the Audio panel does. Answers the layout after.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, editBuses),
			sdk.NewTool("get_import", sdk.ToolOptions{
				Title:         "Get audio import options",
				Description:   "The import options of audio files (.wav, .ogg, .mp3) from their .import file, and the imported stream (class, length, loop, bpm, ...).",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getImport),
			sdk.NewTool("set_import", sdk.ToolOptions{
				Title: "Set audio import options",
				Description: "Sets import options on audio files (.wav: edit/loop_mode, edit/loop_begin, edit/loop_end, compress/mode, force/...; .ogg/.mp3: loop, loop_offset, bpm, " +
					"beat_count, bar_beats), reimports them and answers the imported streams. One undo action; unknown options refused.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setImport),
			sdk.NewTool("assign", sdk.ToolOptions{
				Title:         "Assign an audio bus",
				Description:   "Sets the bus of AudioStreamPlayer(2D/3D) nodes of the edited scene, checked against the bus layout; one undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, assign),
		},
	}
}

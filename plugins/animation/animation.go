// Package animation is the built-in animation toolset: read the
// AnimationPlayers (and AnimationTrees) of the edited scene with their
// libraries, animations, tracks and keys; create, rename, duplicate and delete
// animations and libraries; add, retarget and remove tracks of every kind and
// write their keys, many at once; seek an animation in the editor and read
// the animated properties back. Every edit is one undo action; a dry run
// gives the real verdicts. Its editor code (editor/) ships with it.
// docs/animation.md describes the behaviours and limits.
package animation

import (
	"context"
	"embed"
	"encoding/json"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout = 30 * time.Second
	editTimeout = 60 * time.Second
)

//go:embed editor
var editorFiles embed.FS

var sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}

// send sends a command with params (a struct, marshalled as is) plus dry_run.
func send[Out any](ctx context.Context, call *sdk.Call, command string, in any, dry bool, timeout time.Duration) (Out, error) {
	p, err := sdk.Params(in)
	if err != nil {
		var zero Out
		return zero, err
	}
	if dry {
		p["dry_run"] = true
	}
	return sdk.Send[Out](ctx, call.Host, command, p, timeout)
}

func list(ctx context.Context, call *sdk.Call, in ListIn) (ListOut, error) {
	out, err := send[ListOut](ctx, call, "cmd_animation_list", in, false, readTimeout)
	if out.Players == nil {
		out.Players = []Mixer{}
	}
	return out, err
}

func get(ctx context.Context, call *sdk.Call, in GetIn) (GetOut, error) {
	if in.Track != nil && in.TrackPath != "" {
		return GetOut{}, sdk.Validation("give track or track_path, not both")
	}
	p := map[string]any{"player": in.Player, "animation": in.Animation, "key_offset": in.KeyOffset, "key_limit": in.KeyLimit}
	if in.Track != nil {
		p["track"] = *in.Track
	} else if in.TrackPath != "" {
		p["track"] = in.TrackPath
	}
	out, err := send[GetOut](ctx, call, "cmd_animation_get", p, false, readTimeout)
	if out.Tracks == nil {
		out.Tracks = []Track{}
	}
	return out, err
}

func seek(ctx context.Context, call *sdk.Call, in SeekIn) (SeekOut, error) {
	out, err := send[SeekOut](ctx, call, "cmd_animation_seek", in, false, readTimeout)
	if out.Values == nil {
		out.Values = []SeekValue{}
	}
	return out, err
}

func edit(ctx context.Context, call *sdk.Call, in EditIn) (EditOut, error) {
	switch in.Action {
	case "create_library", "rename_library":
		if in.Library == nil {
			return EditOut{}, sdk.Validation(in.Action + " needs library: the library's name (\"\" is the default library)")
		}
	default:
		if in.Animation == "" {
			return EditOut{}, sdk.Validation(in.Action + " needs animation: an animation name (godot_animation_list lists them)")
		}
	}
	if (in.Action == "duplicate" || in.Action == "rename" || in.Action == "rename_library") && in.NewName == "" {
		return EditOut{}, sdk.Validation(in.Action + " needs new_name")
	}
	return send[EditOut](ctx, call, "cmd_animation_edit", in, call.DryRun, editTimeout)
}

func editTracks(ctx context.Context, call *sdk.Call, in EditTracksIn) (EditTracksOut, error) {
	out, err := send[EditTracksOut](ctx, call, "cmd_animation_edit_tracks", in, call.DryRun, editTimeout)
	if out.Ops == nil {
		out.Ops = []json.RawMessage{}
	}
	return out, err
}

func del(ctx context.Context, call *sdk.Call, in DeleteIn) (DeleteOut, error) {
	if in.Animation == "" && in.Library == nil {
		return DeleteOut{}, sdk.Validation("name what to delete: animation (with tracks: only those tracks) or library")
	}
	if in.Animation == "" && len(in.Tracks) > 0 {
		return DeleteOut{}, sdk.Validation("tracks needs animation: the animation whose tracks to remove")
	}
	if in.Animation != "" && in.Library != nil {
		return DeleteOut{}, sdk.Validation("give animation or library, not both")
	}
	return send[DeleteOut](ctx, call, "cmd_animation_delete", in, call.DryRun, editTimeout)
}

func treeGet(ctx context.Context, call *sdk.Call, in TreeGetIn) (TreeGetOut, error) {
	out, err := send[TreeGetOut](ctx, call, "cmd_animation_tree_get", in, false, readTimeout)
	if out.Root == nil {
		out.Root = json.RawMessage("null")
	}
	return out, err
}

func treeEdit(ctx context.Context, call *sdk.Call, in TreeEditIn) (TreeEditOut, error) {
	out, err := send[TreeEditOut](ctx, call, "cmd_animation_tree_edit", in, call.DryRun, editTimeout)
	if out.Ops == nil {
		out.Ops = []json.RawMessage{}
	}
	return out, err
}

// Toolset is the animation toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "animation",
		Version:        "0.1.0",
		Description:    "Animations: read and edit AnimationPlayer libraries, animations, tracks and keys, and AnimationTree graphs; seek to check a pose. All undoable.",
		Keywords:       []string{"AnimationPlayer", "keyframes", "tracks", "AnimationLibrary", "AnimationTree", "state machine", "blend tree"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("list", sdk.ToolOptions{
				Title:         "List animation players",
				Description:   "The AnimationPlayers and AnimationTrees of the edited scene with their libraries and animations (length, loop mode, step, track and key counts).",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, list),
			sdk.NewTool("get", sdk.ToolOptions{
				Title: "Get an animation",
				Description: "One animation in full: length, loop mode, step, and each track (type, path, interpolation, update mode) with its keys (time, value " +
					"in godot://docs/values shapes, transition; bezier handles). Keys are paged per track: key_offset: next_key_offset.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, get),
			sdk.NewTool("seek", sdk.ToolOptions{
				Title: "Seek and read the pose",
				Description: "Seeks an AnimationPlayer to time in the editor, reads every property its tracks animate (value and the track's own expected value), " +
					"then puts the scene back. To check keys without running the game.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, seek),
			sdk.NewTool("edit", sdk.ToolOptions{
				Title: "Create, copy, rename or set an animation",
				Description: "action create|duplicate|rename|set an animation (length, loop_mode, step), or create_library|rename_library. " +
					"The AnimationPlayer itself is a node: godot_scene_create_node. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit),
			sdk.NewTool("edit_tracks", sdk.ToolOptions{
				Title: "Edit tracks and keys",
				Description: "Runs ops on one animation in order, all or nothing, as ONE undo action: set_animation, add_track (value, position_3d, rotation_3d, scale_3d, " +
					"blend_shape, method, bezier, audio, animation; with keys), set_track (retarget, interpolation, update_mode, loop_wrap, enabled, at), " +
					"insert_keys, set_keys (a whole track), change_keys (by key or time: new_time, value, transition), remove_keys. " +
					"Values are checked against the animated property's type; paths against the scene.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, editTracks),
			sdk.NewTool("delete", sdk.ToolOptions{
				Title:         "Delete an animation, library or tracks",
				Description:   "Deletes an animation, a library with its animations, or (animation + tracks) some tracks with their keys. One undo action.",
				Safety:        sdk.Destructive,
				Preconditions: sceneNeeded,
			}, del),
			sdk.NewTool("tree_get", sdk.ToolOptions{
				Title:         "Read an AnimationTree",
				Description:   "An AnimationTree's graph: its root (state machine, blend tree or blend space) with nested states, transitions, blend-tree nodes and connections, blend-space points.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, treeGet),
			sdk.NewTool("tree_edit", sdk.ToolOptions{
				Title: "Edit an AnimationTree",
				Description: "Runs ops on an AnimationTree's graph in order, all or nothing, as ONE undo action: set_root (a new tree), add_node/remove_node, " +
					"add_transition/set_transition/remove_transition (switch_mode, advance_mode, advance_condition, advance_expression, xfade_time), " +
					"connect/disconnect (blend tree), add_point/remove_point/set_blend_space. The AnimationTree node and its anim_player: godot_scene_create_node.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, treeEdit),
		},
	}
}

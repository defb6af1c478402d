package animation

import "encoding/json"

// Honesty is what every animation edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"the change is saved with the scene's next save"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"one godot_undo reverts exactly this call"`
	DryRun    bool   `json:"dry_run"`
}

// ---- reading ----

// ListIn narrows the listing to one player.
type ListIn struct {
	Player string `json:"player,omitempty" description:"node path of one AnimationPlayer/AnimationTree; omit for all in the edited scene"`
}

// AnimSummary is one animation of a listing.
type AnimSummary struct {
	Name       string  `json:"name" description:"the name to pass as animation (\"library/name\" outside the default library)"`
	Length     float64 `json:"length"`
	LoopMode   string  `json:"loop_mode"`
	Step       float64 `json:"step"`
	TrackCount int     `json:"track_count"`
	KeyCount   int     `json:"key_count"`
}

// Library is one AnimationLibrary of a mixer.
type Library struct {
	Name       string        `json:"name" description:"\"\" is the default library"`
	File       string        `json:"file,omitempty" description:"res:// file the library is saved in (not in the scene)"`
	Animations []AnimSummary `json:"animations"`
}

// Mixer is an AnimationPlayer or AnimationTree of the scene.
type Mixer struct {
	Path       string    `json:"path"`
	Type       string    `json:"type"`
	RootNode   string    `json:"root_node" description:"track paths are relative to this node (from the player)"`
	Active     bool      `json:"active"`
	Autoplay   string    `json:"autoplay,omitempty"`
	TreeRoot   string    `json:"tree_root,omitempty"`
	AnimPlayer string    `json:"anim_player,omitempty"`
	Libraries  []Library `json:"libraries"`
}

// ListOut lists the animation nodes of the edited scene.
type ListOut struct {
	Scene   string  `json:"scene"`
	Players []Mixer `json:"players"`
}

// GetIn names one animation.
type GetIn struct {
	Player    string `json:"player,omitempty" description:"node path of the AnimationPlayer; omit when the scene has one"`
	Animation string `json:"animation" jsonschema:"minLength=1"`
	Track     *int   `json:"track,omitempty" jsonschema:"minimum=0" description:"only this track (index)"`
	TrackPath string `json:"track_path,omitempty" description:"only the track with this path"`
	KeyOffset int    `json:"key_offset,omitempty" jsonschema:"minimum=0" description:"first key of each track to list (paging)"`
	KeyLimit  int    `json:"key_limit,omitempty" jsonschema:"default=500,minimum=1,maximum=5000" description:"most keys per track"`
}

// Track is one track with (a page of) its keys.
type Track struct {
	Index         int               `json:"index"`
	Type          string            `json:"type"`
	Path          string            `json:"path"`
	Enabled       bool              `json:"enabled"`
	Interpolation string            `json:"interpolation,omitempty"`
	LoopWrap      *bool             `json:"loop_wrap,omitempty"`
	UpdateMode    string            `json:"update_mode,omitempty"`
	UseBlend      *bool             `json:"use_blend,omitempty"`
	KeyCount      int               `json:"key_count"`
	Keys          []json.RawMessage `json:"keys" description:"{time, value, transition} ({in_handle, out_handle} for bezier)"`
	KeysTruncated bool              `json:"keys_truncated,omitempty"`
	NextKeyOffset int               `json:"next_key_offset,omitempty"`
}

// GetOut is one animation in full.
type GetOut struct {
	Player        string  `json:"player"`
	Animation     string  `json:"animation"`
	Library       string  `json:"library"`
	LibraryFile   string  `json:"library_file,omitempty"`
	Length        float64 `json:"length"`
	LoopMode      string  `json:"loop_mode"`
	Step          float64 `json:"step"`
	TrackCount    int     `json:"track_count"`
	KeyCount      int     `json:"key_count"`
	Tracks        []Track `json:"tracks"`
	KeysTruncated bool    `json:"keys_truncated" description:"some track has more keys: call again with key_offset: next_key_offset"`
	NextKeyOffset int     `json:"next_key_offset,omitempty"`
}

// SeekIn is where to seek.
type SeekIn struct {
	Player    string  `json:"player,omitempty" description:"node path of the AnimationPlayer; omit when the scene has one"`
	Animation string  `json:"animation" jsonschema:"minLength=1"`
	Time      float64 `json:"time" jsonschema:"minimum=0" description:"seconds (clamped to the length)"`
}

// SeekValue is one animated property after the seek.
type SeekValue struct {
	Track    int             `json:"track"`
	Type     string          `json:"type"`
	Path     string          `json:"path"`
	Node     string          `json:"node" description:"scene-relative path of the animated node"`
	Property string          `json:"property"`
	Value    json.RawMessage `json:"value" description:"what the property was at time, read from the node"`
	Expected json.RawMessage `json:"expected" description:"the track's own interpolated value at time"`
}

// SeekOut is what the seek applied.
type SeekOut struct {
	Player    string      `json:"player"`
	Animation string      `json:"animation"`
	Time      float64     `json:"time"`
	Values    []SeekValue `json:"values"`
	Restored  bool        `json:"restored" description:"the scene was put back as it was"`
}

// ---- editing ----

// EditIn is one animation- or library-level edit.
type EditIn struct {
	Player    string   `json:"player,omitempty" description:"node path of the AnimationPlayer/Tree; omit when the scene has one"`
	Action    string   `json:"action" jsonschema:"enum=create|duplicate|rename|set|create_library|rename_library"`
	Animation string   `json:"animation,omitempty" description:"the animation (create: the new one's name; \"lib/name\" for another library, created when missing)"`
	Library   *string  `json:"library,omitempty" description:"create_library, rename_library: the library (\"\" is the default)"`
	NewName   string   `json:"new_name,omitempty" description:"duplicate: the copy's name (\"lib/name\" allowed); rename, rename_library: the new name"`
	Length    *float64 `json:"length,omitempty" description:"seconds"`
	LoopMode  string   `json:"loop_mode,omitempty" jsonschema:"enum=none|linear|pingpong"`
	Step      *float64 `json:"step,omitempty" description:"the editor's snap, seconds"`
}

// EditOut is what the edit did.
type EditOut struct {
	Player         string   `json:"player"`
	Animation      string   `json:"animation,omitempty"`
	Library        string   `json:"library,omitempty"`
	OldName        string   `json:"old_name,omitempty"`
	Source         string   `json:"source,omitempty"`
	CreatedLibrary bool     `json:"created_library,omitempty"`
	Length         *float64 `json:"length,omitempty"`
	LoopMode       string   `json:"loop_mode,omitempty"`
	Step           *float64 `json:"step,omitempty"`
	TrackCount     *int     `json:"track_count,omitempty"`
	Honesty
}

// Key is a key to write (time, value, ...) or to name (key or time) for change_keys and remove_keys.
type Key struct {
	Key        *int            `json:"key,omitempty" jsonschema:"minimum=0" description:"change/remove: the key's index"`
	Time       *float64        `json:"time,omitempty" jsonschema:"minimum=0" description:"seconds; change/remove: names the key by time"`
	NewTime    *float64        `json:"new_time,omitempty" jsonschema:"minimum=0" description:"change: move the key"`
	Value      json.RawMessage `json:"value,omitempty" description:"typed by the target property (godot://docs/values); method {method, args}; audio {stream, start_offset, end_offset}; animation: a name"`
	Transition *float64        `json:"transition,omitempty" description:"easing: 1 linear, <1 out, >1 in, <0 in-out"`
	InHandle   json.RawMessage `json:"in_handle,omitempty" description:"bezier {x, y}"`
	OutHandle  json.RawMessage `json:"out_handle,omitempty" description:"bezier {x, y}"`
}

// TrackOp is one op of edit_tracks.
type TrackOp struct {
	Op            string   `json:"op" jsonschema:"enum=set_animation|add_track|set_track|insert_keys|set_keys|change_keys|remove_keys"`
	Track         *int     `json:"track,omitempty" jsonschema:"minimum=0" description:"the track by index (or give path)"`
	Path          string   `json:"path,omitempty" description:"add_track: the new track's path (\"Sprite2D:position\", relative to the player's root_node); else names the track"`
	Type          string   `json:"type,omitempty" jsonschema:"enum=value|position_3d|rotation_3d|scale_3d|blend_shape|method|bezier|audio|animation"`
	NewPath       string   `json:"new_path,omitempty" description:"set_track: retarget"`
	Interpolation string   `json:"interpolation,omitempty" jsonschema:"enum=nearest|linear|cubic|linear_angle|cubic_angle"`
	UpdateMode    string   `json:"update_mode,omitempty" jsonschema:"enum=continuous|discrete|capture"`
	LoopWrap      *bool    `json:"loop_wrap,omitempty"`
	Enabled       *bool    `json:"enabled,omitempty"`
	At            *int     `json:"at,omitempty" jsonschema:"minimum=0" description:"add_track/set_track: track position"`
	Keys          []Key    `json:"keys,omitempty" description:"insert_keys (replaces a key at the same time), set_keys (replaces all), change_keys, remove_keys, add_track"`
	All           bool     `json:"all,omitempty" description:"remove_keys: every key"`
	Length        *float64 `json:"length,omitempty" description:"set_animation: seconds"`
	LoopMode      string   `json:"loop_mode,omitempty" jsonschema:"enum=none|linear|pingpong"`
	Step          *float64 `json:"step,omitempty"`
}

// EditTracksIn is a list of ops on one animation.
type EditTracksIn struct {
	Player    string    `json:"player,omitempty" description:"node path of the AnimationPlayer/Tree; omit when the scene has one"`
	Animation string    `json:"animation" jsonschema:"minLength=1"`
	Ops       []TrackOp `json:"ops" jsonschema:"minItems=1"`
}

// EditTracksOut is what the ops did, one result each.
type EditTracksOut struct {
	Player     string            `json:"player"`
	Animation  string            `json:"animation"`
	Ops        []json.RawMessage `json:"ops" description:"per op: {op, track, keys_written, key_count, ...}"`
	TrackCount int               `json:"track_count"`
	Length     float64           `json:"length"`
	Warnings   []string          `json:"warnings,omitempty"`
	Honesty
}

// DeleteIn names what to delete.
type DeleteIn struct {
	Player    string            `json:"player,omitempty" description:"node path of the AnimationPlayer/Tree; omit when the scene has one"`
	Animation string            `json:"animation,omitempty" description:"the animation to delete (or whose tracks to remove)"`
	Tracks    []json.RawMessage `json:"tracks,omitempty" description:"with animation: remove only these tracks (indices or paths)"`
	Library   *string           `json:"library,omitempty" description:"without animation: delete this library and its animations"`
}

// DeleteOut is what was deleted.
type DeleteOut struct {
	Player      string            `json:"player"`
	Deleted     string            `json:"deleted" jsonschema:"enum=animation|library|tracks"`
	Animation   string            `json:"animation,omitempty"`
	Library     string            `json:"library,omitempty"`
	Animations  []string          `json:"animations,omitempty"`
	Tracks      []json.RawMessage `json:"tracks,omitempty"`
	KeysRemoved int               `json:"keys_removed,omitempty"`
	TrackCount  int               `json:"track_count"`
	Honesty
}

// ---- AnimationTree ----

// TreeGetIn names the AnimationTree.
type TreeGetIn struct {
	Tree string `json:"tree,omitempty" description:"node path of the AnimationTree; omit when the scene has one animation node"`
}

// TreeGetOut is the tree's graph.
type TreeGetOut struct {
	Tree       string          `json:"tree"`
	AnimPlayer string          `json:"anim_player"`
	Active     bool            `json:"active"`
	Root       json.RawMessage `json:"root" description:"{type, nodes [{name, type, position, animation?, inputs?, ...}], transitions [{from, to, switch_mode, advance_mode, advance_condition, advance_expression, xfade_time, priority, reset}] | connections [{to, input, from}] | points [{index, position, type, animation?}]}, nested; null without a root"`
}

// TreeOp is one op of tree_edit.
type TreeOp struct {
	Op                string          `json:"op" jsonschema:"enum=set_root|add_node|remove_node|add_transition|set_transition|remove_transition|connect|disconnect|add_point|remove_point|set_blend_space"`
	Graph             string          `json:"graph,omitempty" description:"the state machine, blend tree or blend space acted in: \"\" the root, \"Move\" its child, \"Move/Run\" deeper"`
	Type              string          `json:"type,omitempty" description:"set_root: state_machine|blend_tree|blend_space_1d|blend_space_2d; add_node/add_point: those or animation (default), blend2, blend3, add2, add3, sub2, one_shot, time_scale, time_seek, transition"`
	Name              string          `json:"name,omitempty" description:"add_node, remove_node"`
	Animation         string          `json:"animation,omitempty" description:"for an animation node"`
	Position          json.RawMessage `json:"position,omitempty" description:"graph {x, y}; blend point: a number (1D) or {x, y} (2D)"`
	From              string          `json:"from,omitempty"`
	To                string          `json:"to,omitempty"`
	Input             *int            `json:"input,omitempty" jsonschema:"minimum=0" description:"connect/disconnect: the input index of to"`
	SwitchMode        string          `json:"switch_mode,omitempty" jsonschema:"enum=immediate|sync|at_end"`
	AdvanceMode       string          `json:"advance_mode,omitempty" jsonschema:"enum=disabled|enabled|auto"`
	AdvanceCondition  *string         `json:"advance_condition,omitempty"`
	AdvanceExpression *string         `json:"advance_expression,omitempty"`
	XfadeTime         *float64        `json:"xfade_time,omitempty" jsonschema:"minimum=0"`
	Priority          *int            `json:"priority,omitempty" jsonschema:"minimum=0"`
	Reset             *bool           `json:"reset,omitempty"`
	Index             *int            `json:"index,omitempty" jsonschema:"minimum=0" description:"remove_point"`
	MinSpace          json.RawMessage `json:"min_space,omitempty"`
	MaxSpace          json.RawMessage `json:"max_space,omitempty"`
	Snap              json.RawMessage `json:"snap,omitempty"`
	BlendMode         string          `json:"blend_mode,omitempty" jsonschema:"enum=interpolated|discrete|discrete_carry"`
}

// TreeEditIn is a list of ops on one AnimationTree.
type TreeEditIn struct {
	Tree string   `json:"tree,omitempty" description:"node path of the AnimationTree; omit when the scene has one animation node"`
	Ops  []TreeOp `json:"ops" jsonschema:"minItems=1"`
}

// TreeEditOut is what the ops did.
type TreeEditOut struct {
	Tree     string            `json:"tree"`
	Ops      []json.RawMessage `json:"ops"`
	RootType string            `json:"root_type"`
	Honesty
}

package audio

import "encoding/json"

// Honesty is what every audio edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when the change is saved (layout and .import: written now; assign: with the scene)"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo (global history) reverts exactly this call"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// ---- buses ----

// GetBusesIn takes no arguments.
type GetBusesIn struct{}

// Effect is one effect of a bus.
type Effect struct {
	Index      int                        `json:"index"`
	Class      string                     `json:"class"`
	Enabled    bool                       `json:"enabled"`
	Properties map[string]json.RawMessage `json:"properties" description:"stored properties, codec-encoded"`
}

// Bus is one audio bus.
type Bus struct {
	Index         int      `json:"index"`
	Name          string   `json:"name"`
	VolumeDB      float64  `json:"volume_db"`
	Solo          bool     `json:"solo"`
	Mute          bool     `json:"mute"`
	BypassEffects bool     `json:"bypass_effects"`
	Send          string   `json:"send" description:"the bus it mixes into; empty for Master"`
	Effects       []Effect `json:"effects"`
}

// Layout is the bus layout file.
type Layout struct {
	Path   string `json:"path" description:"audio/buses/default_bus_layout"`
	Exists bool   `json:"exists"`
}

// BusesOut is the bus layout in effect.
type BusesOut struct {
	Buses  []Bus  `json:"buses"`
	Layout Layout `json:"layout"`
}

func (o *BusesOut) Normalize() {
	o.Buses = orEmpty(o.Buses)
	for i := range o.Buses {
		o.Buses[i].Effects = orEmpty(o.Buses[i].Effects)
		for j := range o.Buses[i].Effects {
			if o.Buses[i].Effects[j].Properties == nil {
				o.Buses[i].Effects[j].Properties = map[string]json.RawMessage{}
			}
		}
	}
}

// BusOp is one operation of edit_buses.
type BusOp struct {
	Op            string                     `json:"op" jsonschema:"enum=add_bus|remove_bus|rename_bus|move_bus|set_bus|add_effect|remove_effect|move_effect|set_effect"`
	Bus           string                     `json:"bus,omitempty" description:"the bus acted on (all but add_bus)"`
	Name          string                     `json:"name,omitempty" description:"add_bus, rename_bus: the new name"`
	At            *int                       `json:"at,omitempty" jsonschema:"minimum=0" description:"add_bus, add_effect: position, default last"`
	To            *int                       `json:"to,omitempty" jsonschema:"minimum=0" description:"move_bus, move_effect: final index"`
	Index         *int                       `json:"index,omitempty" jsonschema:"minimum=0" description:"remove/move/set_effect: effect index"`
	Effect        string                     `json:"effect,omitempty" description:"add_effect: class, e.g. AudioEffectReverb"`
	Enabled       *bool                      `json:"enabled,omitempty" description:"add_effect, set_effect"`
	Properties    map[string]json.RawMessage `json:"properties,omitempty" description:"add_effect, set_effect: effect properties"`
	VolumeDB      *float64                   `json:"volume_db,omitempty" jsonschema:"minimum=-80,maximum=24" description:"add_bus, set_bus"`
	Solo          *bool                      `json:"solo,omitempty"`
	Mute          *bool                      `json:"mute,omitempty"`
	BypassEffects *bool                      `json:"bypass_effects,omitempty"`
	Send          *string                    `json:"send,omitempty" description:"a bus before this one"`
}

// EditBusesIn is one edit_buses call.
type EditBusesIn struct {
	Ops []BusOp `json:"ops" jsonschema:"minItems=1,maxItems=256"`
}

// EditBusesOut is the layout after the call.
type EditBusesOut struct {
	BusesOut
	Applied int `json:"applied" description:"operations applied"`
	Honesty
}

// ---- import ----

// GetImportIn names audio files.
type GetImportIn struct {
	Paths []string `json:"paths" jsonschema:"minItems=1,maxItems=200" description:"res:// .wav, .ogg or .mp3 files"`
}

// Stream is an imported audio stream as loaded.
type Stream struct {
	Class      string                     `json:"class"`
	Length     float64                    `json:"length" description:"seconds"`
	Properties map[string]json.RawMessage `json:"properties" description:"loop_mode, loop_begin, mix_rate, loop, bpm, ..."`
}

// ImportFile is one audio file's import settings.
type ImportFile struct {
	Path     string                     `json:"path"`
	Importer string                     `json:"importer" jsonschema:"enum=wav|oggvorbis|mp3"`
	Options  map[string]json.RawMessage `json:"options" description:"the .import file's [params]"`
	Stream   *Stream                    `json:"stream" description:"null when it does not load"`
}

// ImportOut lists import settings.
type ImportOut struct {
	Files []ImportFile `json:"files"`
}

func (o *ImportOut) Normalize() { o.Files = orEmpty(o.Files) }

// SetImportIn sets import options on audio files.
type SetImportIn struct {
	Paths   []string                   `json:"paths" jsonschema:"minItems=1,maxItems=200" description:"res:// .wav, .ogg or .mp3 files"`
	Options map[string]json.RawMessage `json:"options" description:"option -> value, e.g. {\"edit/loop_mode\": \"forward\"}; enums by name or index"`
}

// SetImportOut is the files after reimport.
type SetImportOut struct {
	ImportOut
	Changed bool `json:"changed" description:"an option got a new value"`
	Honesty
}

// ---- assign ----

// AssignIn sets the bus of audio players.
type AssignIn struct {
	Nodes []string `json:"nodes" jsonschema:"minItems=1,maxItems=500" description:"AudioStreamPlayer(2D/3D) node paths"`
	Bus   string   `json:"bus" jsonschema:"minLength=1"`
}

// Assigned is one player.
type Assigned struct {
	Node     string `json:"node"`
	Class    string `json:"class"`
	Previous string `json:"previous" description:"its bus before"`
}

// AssignOut is what assign did.
type AssignOut struct {
	Bus     string     `json:"bus"`
	Nodes   []Assigned `json:"nodes"`
	Changed int        `json:"changed" description:"players whose bus changed"`
	Honesty
}

func (o *AssignOut) Normalize() { o.Nodes = orEmpty(o.Nodes) }

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

package audio

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout   = 30 * time.Second
	editTimeout   = 60 * time.Second
	importTimeout = 180 * time.Second // reimporting many files
)

// ---- buses ----

func getBuses(ctx context.Context, call *sdk.Call, _ GetBusesIn) (BusesOut, error) {
	return sdk.Send[BusesOut](ctx, call.Host, "cmd_audio_get_buses", map[string]any{}, readTimeout)
}

// fields each op takes (besides op); what it must have is in required.
var opFields = map[string][]string{
	"add_bus":       {"name", "at", "volume_db", "solo", "mute", "bypass_effects", "send"},
	"remove_bus":    {"bus"},
	"rename_bus":    {"bus", "name"},
	"move_bus":      {"bus", "to"},
	"set_bus":       {"bus", "volume_db", "solo", "mute", "bypass_effects", "send"},
	"add_effect":    {"bus", "effect", "at", "enabled", "properties"},
	"remove_effect": {"bus", "index"},
	"move_effect":   {"bus", "index", "to"},
	"set_effect":    {"bus", "index", "enabled", "properties"},
}

var required = map[string][]string{
	"add_bus":       {"name"},
	"remove_bus":    {"bus"},
	"rename_bus":    {"bus", "name"},
	"move_bus":      {"bus", "to"},
	"set_bus":       {"bus"},
	"add_effect":    {"bus", "effect"},
	"remove_effect": {"bus", "index"},
	"move_effect":   {"bus", "index", "to"},
	"set_effect":    {"bus", "index"},
}

// present lists the fields an op sets.
func (o BusOp) present() map[string]bool {
	return map[string]bool{
		"bus": o.Bus != "", "name": strings.TrimSpace(o.Name) != "", "at": o.At != nil, "to": o.To != nil, "index": o.Index != nil,
		"effect": o.Effect != "", "enabled": o.Enabled != nil, "properties": len(o.Properties) > 0, "volume_db": o.VolumeDB != nil,
		"solo": o.Solo != nil, "mute": o.Mute != nil, "bypass_effects": o.BypassEffects != nil, "send": o.Send != nil,
	}
}

func checkOp(i int, o BusOp) error {
	allowed, ok := opFields[o.Op]
	if !ok {
		return sdk.Validation(fmt.Sprintf("ops[%d].op %q is not an operation", i, o.Op))
	}
	has := o.present()
	for _, f := range required[o.Op] {
		if !has[f] {
			return sdk.Validation(fmt.Sprintf("ops[%d]: %s needs %s", i, o.Op, f))
		}
	}
	var extra []string
	for f, set := range has {
		if set && !contains(allowed, f) {
			extra = append(extra, f)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return sdk.Validation(fmt.Sprintf("ops[%d]: %s does not take %s (it takes %s)", i, o.Op, strings.Join(extra, ", "), strings.Join(allowed, ", ")))
	}
	if o.Send != nil && *o.Send == "" {
		return sdk.Validation(fmt.Sprintf("ops[%d].send is empty: name a bus before this one, e.g. \"Master\"", i))
	}
	if o.Op == "set_bus" && !(has["volume_db"] || has["solo"] || has["mute"] || has["bypass_effects"] || has["send"]) {
		return sdk.Validation(fmt.Sprintf("ops[%d]: set_bus needs at least one of volume_db, solo, mute, bypass_effects, send", i))
	}
	if o.Op == "set_effect" && !has["enabled"] && !has["properties"] {
		return sdk.Validation(fmt.Sprintf("ops[%d]: set_effect needs enabled and/or properties", i))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func editBuses(ctx context.Context, call *sdk.Call, in EditBusesIn) (EditBusesOut, error) {
	for i, o := range in.Ops {
		if err := checkOp(i, o); err != nil {
			return EditBusesOut{}, err
		}
	}
	b, err := json.Marshal(in.Ops)
	if err != nil {
		return EditBusesOut{}, err
	}
	var ops []any
	if err := json.Unmarshal(b, &ops); err != nil {
		return EditBusesOut{}, err
	}
	return sdk.Send[EditBusesOut](ctx, call.Host, "cmd_audio_edit_buses", map[string]any{"ops": ops, "dry_run": call.DryRun}, editTimeout)
}

func (o *EditBusesOut) Normalize() { o.BusesOut.Normalize() }

// ---- import ----

func cleanAudioPaths(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for i, p := range paths {
		clean, err := respath.Clean(p)
		if err != nil {
			return nil, sdk.Validation(fmt.Sprintf("paths[%d]: %s", i, sdk.AsError(err).Hint))
		}
		switch strings.ToLower(path.Ext(clean)) {
		case ".wav", ".ogg", ".mp3":
		default:
			return nil, sdk.Validation(fmt.Sprintf("paths[%d] %q is not a .wav, .ogg or .mp3 file", i, p))
		}
		out = append(out, clean)
	}
	return out, nil
}

func getImport(ctx context.Context, call *sdk.Call, in GetImportIn) (ImportOut, error) {
	paths, err := cleanAudioPaths(in.Paths)
	if err != nil {
		return ImportOut{}, err
	}
	return sdk.Send[ImportOut](ctx, call.Host, "cmd_audio_get_import", map[string]any{"paths": paths}, readTimeout)
}

func setImport(ctx context.Context, call *sdk.Call, in SetImportIn) (SetImportOut, error) {
	paths, err := cleanAudioPaths(in.Paths)
	if err != nil {
		return SetImportOut{}, err
	}
	if len(in.Options) == 0 {
		return SetImportOut{}, sdk.Validation("options is empty: name at least one import option, e.g. {\"edit/loop_mode\": \"forward\"} (.wav) or {\"loop\": true} (.ogg/.mp3); godot_audio_get_import lists them")
	}
	opts := map[string]any{}
	for k, v := range in.Options {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return SetImportOut{}, sdk.Validation(fmt.Sprintf("options[%q] is not a JSON value", k))
		}
		opts[k] = x
	}
	return sdk.Send[SetImportOut](ctx, call.Host, "cmd_audio_set_import", map[string]any{"paths": paths, "options": opts, "dry_run": call.DryRun}, importTimeout)
}

func (o *SetImportOut) Normalize() { o.ImportOut.Normalize() }

// ---- assign ----

func assign(ctx context.Context, call *sdk.Call, in AssignIn) (AssignOut, error) {
	return sdk.Send[AssignOut](ctx, call.Host, "cmd_audio_assign", map[string]any{"nodes": in.Nodes, "bus": in.Bus, "dry_run": call.DryRun}, editTimeout)
}

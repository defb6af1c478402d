package project

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// GetSettingsIn selects settings by key and/or prefix.
type GetSettingsIn struct {
	Keys     []string `json:"keys,omitempty" jsonschema:"maxItems=500" description:"exact setting keys, e.g. application/config/name"`
	Prefix   string   `json:"prefix,omitempty" description:"every setting whose key starts with this, e.g. display/window/"`
	Limit    int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=2000" description:"most settings to return (default 200)"`
	Cursor   string   `json:"cursor,omitempty" description:"next_cursor of the previous page, to continue a prefix listing"`
	WithInfo bool     `json:"with_info,omitempty" description:"also return each setting's type, hint_string, default and restart_required"`
}

// SettingInfo describes one setting's type and default.
type SettingInfo struct {
	Type            string `json:"type" description:"Variant type name: int, float, bool, String, Vector2i, Color, PackedStringArray, ..."`
	Hint            int    `json:"hint" description:"the PROPERTY_HINT_* value"`
	HintString      string `json:"hint_string" description:"e.g. the allowed names of an enum (\"disabled,canvas_items,viewport\") or a range (\"0,100,1\")"`
	HasDefault      bool   `json:"has_default" description:"an engine (or addon) setting with a default; false for custom settings"`
	Default         any    `json:"default" description:"the default value (null when has_default is false)"`
	RestartRequired bool   `json:"restart_required" description:"a change only takes effect after restarting the editor/game"`
}

// GetSettingsOut maps keys to values (Godot values in their JSON shapes).
type GetSettingsOut struct {
	Settings    map[string]any         `json:"settings"`
	Info        map[string]SettingInfo `json:"info,omitempty" description:"per key, with with_info"`
	Missing     []string               `json:"missing" description:"requested keys that do not exist"`
	Suggestions map[string][]string    `json:"suggestions,omitempty" description:"for each missing key, the closest existing keys"`
	Total       int                    `json:"total" description:"keys found plus prefix matches (all pages)"`
	Truncated   bool                   `json:"truncated" description:"more settings matched than limit; continue with next_cursor"`
	NextCursor  string                 `json:"next_cursor,omitempty" description:"pass as cursor to get the next page"`
}

func getSettings(ctx context.Context, call *sdk.Call, in GetSettingsIn) (GetSettingsOut, error) {
	if len(in.Keys) == 0 && in.Prefix == "" {
		return GetSettingsOut{}, sdk.Validation("give keys, a prefix, or both (e.g. prefix: \"application/\")")
	}
	for i, k := range in.Keys {
		if k == "" {
			return GetSettingsOut{}, sdk.Validation(fmt.Sprintf("keys[%d] is empty; give a setting key such as application/config/name", i))
		}
	}
	if err := checkCursor(in.Cursor); err != nil {
		return GetSettingsOut{}, err
	}
	if in.Cursor != "" && in.Prefix == "" {
		return GetSettingsOut{}, sdk.Validation("cursor continues a prefix listing; give the same prefix as the previous call")
	}
	if in.Limit == 0 {
		in.Limit = 200
	}
	out, err := sdk.Send[GetSettingsOut](ctx, call.Host, "cmd_project_get_settings", in, readTimeout)
	if err != nil {
		return GetSettingsOut{}, err
	}
	if out.Settings == nil {
		out.Settings = map[string]any{}
	}
	out.Missing = nonNil(out.Missing)
	return out, nil
}

// SetSettingsIn changes, creates and resets settings in one undo action.
type SetSettingsIn struct {
	Settings map[string]any    `json:"settings,omitempty" description:"setting key -> value in its type's JSON shape (godot://docs/values), e.g. {\"display/window/size/viewport_width\": 1280}"`
	Reset    []string          `json:"reset,omitempty" jsonschema:"maxItems=200" description:"keys to put back to their default (a custom setting without a default is removed)"`
	Create   bool              `json:"create,omitempty" description:"allow new keys (custom settings); else an unknown key is refused"`
	Types    map[string]string `json:"types,omitempty" description:"new keys only: the Variant type to store (int, float, String, Vector2, Color, …); default: from the JSON value"`
}

// SettingChange is one setting's old and new value.
type SettingChange struct {
	Key             string `json:"key"`
	Type            string `json:"type" description:"the setting's Variant type"`
	Old             any    `json:"old" description:"value before (null when created)"`
	New             any    `json:"new" description:"value after (null when removed)"`
	Changed         bool   `json:"changed" description:"false when the value was already this"`
	Created         bool   `json:"created,omitempty" description:"a new custom setting"`
	Removed         bool   `json:"removed,omitempty" description:"a custom setting removed by reset"`
	IsDefault       bool   `json:"is_default" description:"the new value is the default, so project.godot no longer lists the key"`
	RestartRequired bool   `json:"restart_required,omitempty" description:"takes effect after restarting the editor/game"`
}

// SetSettingsOut reports each change and whether it was saved.
type SetSettingsOut struct {
	Changes    []SettingChange `json:"changes"`
	DryRun     bool            `json:"dry_run"`
	Persisted  bool            `json:"persisted" description:"project.godot was saved and read back with these values"`
	Undoable   bool            `json:"undoable" description:"one godot_undo (global history) reverts the whole call"`
	UndoAction string          `json:"undo_action,omitempty" description:"the name of the undo action"`
	Warnings   []string        `json:"warnings,omitempty"`
}

// maxSettingsPerCall bounds one set_settings call.
const maxSettingsPerCall = 200

func setSettings(ctx context.Context, call *sdk.Call, in SetSettingsIn) (SetSettingsOut, error) {
	if len(in.Settings) == 0 && len(in.Reset) == 0 {
		return SetSettingsOut{}, sdk.Validation("give settings (key -> value) and/or reset (keys), e.g. settings: {\"application/config/name\": \"My Game\"}")
	}
	if len(in.Settings)+len(in.Reset) > maxSettingsPerCall {
		return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("at most %d settings per call; split the change", maxSettingsPerCall))
	}
	keys := make([]string, 0, len(in.Settings))
	for k := range in.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		where := "settings[" + k + "]"
		if err := checkSettingKey(where, k); err != nil {
			return SetSettingsOut{}, err
		}
		if err := ownedByOtherTool(where, k); err != nil {
			return SetSettingsOut{}, err
		}
		if in.Settings[k] == nil {
			return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("%s: null is not a setting value; to put a setting back to its default, list it in reset", where))
		}
	}
	seen := map[string]bool{}
	for i, k := range in.Reset {
		where := fmt.Sprintf("reset[%d]", i)
		if err := checkSettingKey(where, k); err != nil {
			return SetSettingsOut{}, err
		}
		if err := ownedByOtherTool(where, k); err != nil {
			return SetSettingsOut{}, err
		}
		if _, both := in.Settings[k]; both {
			return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("%s: %q is both set and reset; pick one", where, k))
		}
		if seen[k] {
			return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("%s: %q is listed twice", where, k))
		}
		seen[k] = true
	}
	for k, t := range in.Types {
		if !in.Create {
			return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("types[%s]: types only apply to new settings; pass create: true (an existing setting keeps its own type)", k))
		}
		if _, ok := in.Settings[k]; !ok {
			return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("types[%s]: no value for %q in settings", k, k))
		}
		if strings.TrimSpace(t) == "" {
			return SetSettingsOut{}, sdk.Validation(fmt.Sprintf("types[%s]: give a Variant type name such as int, float, String or Vector2", k))
		}
	}
	params := struct {
		Settings map[string]any    `json:"settings"`
		Reset    []string          `json:"reset"`
		Create   bool              `json:"create"`
		Types    map[string]string `json:"types"`
		DryRun   bool              `json:"dry_run"`
	}{nonNilMap(in.Settings), nonNil(in.Reset), in.Create, nonNilMap(in.Types), call.DryRun}
	out, err := sdk.Send[SetSettingsOut](ctx, call.Host, "cmd_project_set_settings", params, editTimeout)
	if err != nil {
		return SetSettingsOut{}, err
	}
	out.Changes = nonNil(out.Changes)
	return out, nil
}

func nonNilMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

// Package project is the built-in project toolset: settings, input map, autoloads.
package project

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// GetSettingsIn selects settings by key and/or prefix.
type GetSettingsIn struct {
	Keys   []string `json:"keys,omitempty" description:"exact setting keys, e.g. application/config/name"`
	Prefix string   `json:"prefix,omitempty" description:"every setting whose key starts with this, e.g. display/window/"`
	Limit  int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=2000" description:"most settings to return (default 200)"`
}

// GetSettingsOut maps keys to values (Godot values in their JSON shapes).
type GetSettingsOut struct {
	Settings  map[string]any `json:"settings"`
	Missing   []string       `json:"missing" description:"requested keys that do not exist"`
	Truncated bool           `json:"truncated" description:"more settings matched than limit"`
}

func getSettings(ctx context.Context, call *sdk.Call, in GetSettingsIn) (GetSettingsOut, error) {
	if len(in.Keys) == 0 && in.Prefix == "" {
		return GetSettingsOut{}, sdk.Validation("give keys, a prefix, or both (e.g. prefix: \"application/\")")
	}
	if in.Limit == 0 {
		in.Limit = 200
	}
	out, err := sdk.Send[GetSettingsOut](ctx, call.Host, "cmd_project_get_settings", in, 10*time.Second)
	if out.Missing == nil {
		out.Missing = []string{}
	}
	return out, err
}

// Toolset is the project toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        "project",
		Version:     "0.1.0",
		Description: "Project settings, the input map and autoloads, saved to project.godot.",
		MinGodot:    "4.4",
		Tools: []sdk.Tool{
			sdk.NewTool("get_settings", sdk.ToolOptions{
				Title:         "Get project settings",
				Description:   "Project settings by exact key or by prefix, values typed through the value codec.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, getSettings),
		},
	}
}

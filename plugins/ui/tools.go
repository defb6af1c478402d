package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout = 30 * time.Second
	editTimeout = 60 * time.Second
)

func getLayout(ctx context.Context, call *sdk.Call, in GetLayoutIn) (GetLayoutOut, error) {
	offset := 0
	if in.Cursor != "" {
		n, err := strconv.Atoi(in.Cursor)
		if err != nil || n < 0 {
			return GetLayoutOut{}, sdk.Validation(fmt.Sprintf("cursor %q is not a next_cursor this tool gave; omit it to start from the first node", in.Cursor))
		}
		offset = n
	}
	p := map[string]any{"node": in.Node, "depth": in.Depth, "offset": offset, "limit": in.Limit}
	if in.Scene != "" {
		clean, err := respath.Clean(in.Scene)
		if err != nil {
			return GetLayoutOut{}, err
		}
		p["scene"] = clean
	}
	type answer struct {
		GetLayoutOut
		NextOffset int `json:"next_offset"`
	}
	a, err := sdk.Send[answer](ctx, call.Host, "cmd_ui_get_layout", p, readTimeout)
	if err != nil {
		return GetLayoutOut{}, err
	}
	out := a.GetLayoutOut
	out.Normalize()
	out.Returned = len(out.Nodes)
	if a.NextOffset > 0 {
		out.Truncated, out.NextCursor = true, strconv.Itoa(a.NextOffset)
	}
	return out, nil
}

var sizeFlags = map[string]bool{"shrink_begin": true, "fill": true, "expand": true, "expand_fill": true, "shrink_center": true, "shrink_end": true}

func setLayout(ctx context.Context, call *sdk.Call, in SetLayoutIn) (SetLayoutOut, error) {
	seen := map[string]int{}
	for i, it := range in.Items {
		at := fmt.Sprintf("items[%d]", i)
		if j, dup := seen[it.Node]; dup {
			return SetLayoutOut{}, sdk.Validation(fmt.Sprintf("%s: node %q is also items[%d]; give each Control once", at, it.Node, j))
		}
		seen[it.Node] = i
		if it.Preset != "" && (it.Anchors != nil || it.Offsets != nil) {
			return SetLayoutOut{}, sdk.Validation(at + ": give preset or anchors/offsets, not both (a preset sets anchors and offsets)")
		}
		if it.Preset == "" && (it.ResizeMode != "" || it.Margin != 0) {
			return SetLayoutOut{}, sdk.Validation(at + ": resize_mode and margin go with preset")
		}
		if a := it.Anchors; a != nil {
			for k, v := range a {
				if v < 0 || v > 1 {
					return SetLayoutOut{}, sdk.Validation(fmt.Sprintf("%s.anchors[%d] = %v: anchors are fractions of the parent, 0..1", at, k, v))
				}
			}
			if a[0] > a[2] || a[1] > a[3] {
				return SetLayoutOut{}, sdk.Validation(at + ".anchors: left must not exceed right, nor top bottom ([left, top, right, bottom])")
			}
		}
		for _, f := range [2]struct {
			name  string
			flags []string
		}{{"size_flags_h", it.SizeFlagsH}, {"size_flags_v", it.SizeFlagsV}} {
			for _, n := range f.flags {
				if !sizeFlags[n] {
					return SetLayoutOut{}, sdk.Validation(fmt.Sprintf("%s.%s: %q is not a size flag; use shrink_begin, fill, expand, expand_fill, shrink_center or shrink_end", at, f.name, n))
				}
			}
		}
		if c := it.CustomMinSize; c != nil && (c[0] < 0 || c[1] < 0) {
			return SetLayoutOut{}, sdk.Validation(at + ".custom_minimum_size must not be negative")
		}
		if it.Preset == "" && it.Anchors == nil && it.Offsets == nil && it.Grow == nil && it.SizeFlagsH == nil && it.SizeFlagsV == nil &&
			it.StretchRatio == nil && it.CustomMinSize == nil {
			return SetLayoutOut{}, sdk.Validation(at + ": nothing to set: give preset, anchors, offsets, grow, size_flags_h/v, stretch_ratio or custom_minimum_size")
		}
	}
	p, err := sdk.Params(in)
	if err != nil {
		return SetLayoutOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[SetLayoutOut](ctx, call.Host, "cmd_ui_set_layout", p, editTimeout)
}

func themeGet(ctx context.Context, call *sdk.Call, in ThemeGetIn) (ThemeGetOut, error) {
	n := 0
	for _, b := range []bool{in.Path != "", in.Node != "", in.Project} {
		if b {
			n++
		}
	}
	if n != 1 {
		return ThemeGetOut{}, sdk.Validation("give exactly one of path (a Theme .tres), node (a Control of the edited scene) or project: true")
	}
	p := map[string]any{"node": in.Node, "project": in.Project, "type": in.Type}
	if in.Path != "" {
		clean, err := respath.Clean(in.Path)
		if err != nil {
			return ThemeGetOut{}, err
		}
		p["path"] = clean
	}
	out, err := sdk.Send[ThemeGetOut](ctx, call.Host, "cmd_ui_theme_get", p, readTimeout)
	if err == nil && out.Source == "" {
		// The source is what was asked for; an editor answer without it
		// would not match the declared result.
		switch {
		case in.Path != "":
			out.Source = "file"
		case in.Node != "":
			out.Source = "node"
		default:
			out.Source = "project"
		}
	}
	return out, err
}

func themeEdit(ctx context.Context, call *sdk.Call, in ThemeEditIn) (ThemeEditOut, error) {
	clean, err := respath.Clean(in.Path)
	if err != nil {
		return ThemeEditOut{}, err
	}
	if !strings.HasSuffix(clean, ".tres") && !strings.HasSuffix(clean, ".res") {
		return ThemeEditOut{}, sdk.Validation(fmt.Sprintf("path %q must end in .tres (or .res)", in.Path))
	}
	in.Path = clean
	if len(in.Set)+len(in.Remove)+len(in.Variations) == 0 && in.DefaultFont == nil && in.DefaultFontSize == nil && in.DefaultBaseScale == nil {
		return ThemeEditOut{}, sdk.Validation("nothing to edit: give set, remove, variations, default_font, default_font_size or default_base_scale")
	}
	for i, it := range in.Set {
		if it.Value == nil {
			return ThemeEditOut{}, sdk.Validation(fmt.Sprintf("set[%d].value is missing; to delete an item use remove", i))
		}
	}
	p, err := sdk.Params(in)
	if err != nil {
		return ThemeEditOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[ThemeEditOut](ctx, call.Host, "cmd_ui_theme_edit", p, editTimeout)
}

func setOverrides(ctx context.Context, call *sdk.Call, in OverridesIn) (OverridesOut, error) {
	if len(in.Set)+len(in.Remove) == 0 {
		return OverridesOut{}, sdk.Validation("nothing to change: give set and/or remove")
	}
	for i, it := range in.Set {
		if it.Value == nil {
			return OverridesOut{}, sdk.Validation(fmt.Sprintf("set[%d].value is missing; to drop an override use remove", i))
		}
	}
	p, err := sdk.Params(in)
	if err != nil {
		return OverridesOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[OverridesOut](ctx, call.Host, "cmd_ui_set_theme_overrides", p, editTimeout)
}

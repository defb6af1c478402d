package ui

// Honesty is what every ui edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when the change is saved by the next scene save (or was written to the file); false says why in reason"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// ---- layout ----

// GetLayoutIn picks a Control subtree of the edited scene.
type GetLayoutIn struct {
	Scene  string `json:"scene,omitempty" description:"res:// path of the scene meant; refused unless it is the edited one"`
	Node   string `json:"node,omitempty" jsonschema:"default=." description:"Control (or any node: its Control descendants) relative to the scene root"`
	Depth  int    `json:"depth,omitempty" jsonschema:"default=8,minimum=0,maximum=64" description:"levels below node; 0: node only"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default=200,minimum=1,maximum=2000"`
	Cursor string `json:"cursor,omitempty" description:"next_cursor of the previous answer"`
}

// Rect is a laid-out rectangle in pixels, relative to the parent.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// SizeFlags are a Control's container size flags.
type SizeFlags struct {
	H            []string `json:"h" description:"fill, expand, shrink_center, shrink_end; [] is shrink_begin"`
	V            []string `json:"v"`
	StretchRatio float64  `json:"stretch_ratio"`
}

// LayoutNode is one Control as laid out.
type LayoutNode struct {
	Path           string     `json:"path"`
	Class          string     `json:"class"`
	Rect           Rect       `json:"rect" description:"position and size relative to the parent"`
	GlobalPosition [2]float64 `json:"global_position"`
	Anchors        [4]float64 `json:"anchors" description:"left, top, right, bottom (0..1 of the parent)"`
	Offsets        [4]float64 `json:"offsets" description:"left, top, right, bottom in pixels from the anchors"`
	Grow           [2]string  `json:"grow" description:"horizontal, vertical: begin|end|both"`
	LayoutMode     string     `json:"layout_mode" jsonschema:"enum=position|anchors|container|uncontrolled"`
	SizeFlags      SizeFlags  `json:"size_flags"`
	CustomMinSize  [2]float64 `json:"custom_minimum_size"`
	MinSize        [2]float64 `json:"minimum_size" description:"combined minimum size (content and custom)"`
	InContainer    bool       `json:"in_container" description:"the parent is a Container, which sets this rect: use size flags, not anchors"`
	Visible        bool       `json:"visible" description:"visible in the tree"`
	Problems       []string   `json:"problems"`
}

// GetLayoutOut is a page of Controls in tree order.
type GetLayoutOut struct {
	Scene      string       `json:"scene"`
	Viewport   [2]float64   `json:"viewport" description:"size of the rect the scene root is laid out in"`
	Total      int          `json:"total"`
	Returned   int          `json:"returned"`
	Nodes      []LayoutNode `json:"nodes"`
	Truncated  bool         `json:"truncated"`
	NextCursor string       `json:"next_cursor,omitempty"`
}

func (o *GetLayoutOut) Normalize() { o.Nodes = normNodes(o.Nodes) }

// Grow sets grow directions.
type Grow struct {
	H string `json:"h,omitempty" jsonschema:"enum=begin|end|both"`
	V string `json:"v,omitempty" jsonschema:"enum=begin|end|both"`
}

// LayoutEdit is the layout to give one Control.
type LayoutEdit struct {
	Node          string      `json:"node" jsonschema:"minLength=1"`
	Preset        string      `json:"preset,omitempty" jsonschema:"enum=top_left|top_right|bottom_left|bottom_right|center_left|center_top|center_right|center_bottom|center|left_wide|top_wide|right_wide|bottom_wide|vcenter_wide|hcenter_wide|full_rect"`
	ResizeMode    string      `json:"resize_mode,omitempty" jsonschema:"enum=minsize|keep_width|keep_height|keep_size" description:"with preset; default minsize"`
	Margin        int         `json:"margin,omitempty" description:"with preset: pixels from the anchors"`
	Anchors       *[4]float64 `json:"anchors,omitempty" description:"left, top, right, bottom, 0..1; offsets are kept unless given"`
	Offsets       *[4]float64 `json:"offsets,omitempty" description:"left, top, right, bottom"`
	Grow          *Grow       `json:"grow,omitempty"`
	SizeFlagsH    []string    `json:"size_flags_h,omitempty" description:"of shrink_begin, fill, expand, expand_fill, shrink_center, shrink_end"`
	SizeFlagsV    []string    `json:"size_flags_v,omitempty"`
	StretchRatio  *float64    `json:"stretch_ratio,omitempty" jsonschema:"minimum=0"`
	CustomMinSize *[2]float64 `json:"custom_minimum_size,omitempty"`
}

// SetLayoutIn sets the layout of several Controls.
type SetLayoutIn struct {
	Items []LayoutEdit `json:"items" jsonschema:"minItems=1,maxItems=500"`
}

// SetLayoutOut is the Controls after the edit and the editor's layout.
type SetLayoutOut struct {
	Nodes []LayoutNode `json:"nodes"`
	Honesty
}

func (o *SetLayoutOut) Normalize() { o.Nodes = normNodes(o.Nodes) }

// ---- themes ----

// ThemeGetIn names a Theme: a file, the one a Control uses, or the project's.
type ThemeGetIn struct {
	Path    string `json:"path,omitempty" description:"a Theme .tres"`
	Node    string `json:"node,omitempty" description:"or a Control of the edited scene: the theme it uses"`
	Project bool   `json:"project,omitempty" description:"or the project's gui/theme/custom"`
	Type    string `json:"type,omitempty" description:"only this theme type (Button, a variation, ...)"`
}

// ThemeType is one type of a Theme.
type ThemeType struct {
	Name        string                    `json:"name"`
	VariationOf string                    `json:"variation_of,omitempty"`
	Items       map[string]map[string]any `json:"items" description:"data type -> item name -> value"`
}

// NodeTheme is what a Control's theming amounts to.
type NodeTheme struct {
	Node      string                    `json:"node"`
	ThemeType string                    `json:"theme_type" description:"the type its items are looked up under (its variation or class)"`
	ThemeFrom string                    `json:"theme_from" description:"the node whose theme applies (the answer's theme), or project, or default"`
	Overrides map[string]map[string]any `json:"overrides" description:"data type -> name -> value"`
	Effective map[string]map[string]any `json:"effective" description:"every item its type uses, as resolved now"`
}

// ThemeGetOut is a Theme in full.
type ThemeGetOut struct {
	Source           string      `json:"source" jsonschema:"enum=file|node|project" description:"where the theme came from"`
	Path             string      `json:"path" description:"empty when embedded or when there is no theme"`
	HasTheme         bool        `json:"has_theme" description:"false: no theme is set (the default theme applies)"`
	DefaultFont      string      `json:"default_font"`
	DefaultFontSize  int         `json:"default_font_size" description:"-1: unset"`
	DefaultBaseScale float64     `json:"default_base_scale"`
	Types            []ThemeType `json:"types"`
	Node             *NodeTheme  `json:"node,omitempty"`
}

func (o *ThemeGetOut) Normalize() {
	o.Types = orEmpty(o.Types)
	for i := range o.Types {
		if o.Types[i].Items == nil {
			o.Types[i].Items = map[string]map[string]any{}
		}
	}
}

// ThemeItem sets one item.
type ThemeItem struct {
	Type     string `json:"type" jsonschema:"minLength=1" description:"theme type, e.g. Button"`
	DataType string `json:"data_type" jsonschema:"enum=color|constant|font|font_size|icon|stylebox"`
	Name     string `json:"name" jsonschema:"minLength=1"`
	Value    any    `json:"value" description:"color: \"#rrggbb\" or {r,g,b,a}; constant, font_size: int; font, icon: res:// path; stylebox: {class, properties}"`
}

// ThemeItemRef names one item to remove.
type ThemeItemRef struct {
	Type     string `json:"type" jsonschema:"minLength=1"`
	DataType string `json:"data_type" jsonschema:"enum=color|constant|font|font_size|icon|stylebox"`
	Name     string `json:"name" jsonschema:"minLength=1"`
}

// Variation makes type a variation of base.
type Variation struct {
	Type string `json:"type" jsonschema:"minLength=1"`
	Base string `json:"base" description:"e.g. Button; empty makes it a plain type again"`
}

// ThemeEditIn edits a Theme file.
type ThemeEditIn struct {
	Path             string         `json:"path" jsonschema:"minLength=1" description:"res:// .tres; created when missing"`
	Set              []ThemeItem    `json:"set,omitempty"`
	Remove           []ThemeItemRef `json:"remove,omitempty"`
	Variations       []Variation    `json:"variations,omitempty"`
	DefaultFont      *string        `json:"default_font,omitempty" description:"res:// font; \"\" clears"`
	DefaultFontSize  *int           `json:"default_font_size,omitempty" jsonschema:"minimum=-1" description:"-1 clears"`
	DefaultBaseScale *float64       `json:"default_base_scale,omitempty" jsonschema:"minimum=0"`
}

// ThemeEditOut is the Theme after the edit.
type ThemeEditOut struct {
	Path     string   `json:"path"`
	Created  bool     `json:"created" description:"the file did not exist"`
	Types    []string `json:"types" description:"theme types it has now"`
	Items    int      `json:"items" description:"items it has now"`
	Warnings []string `json:"warnings" description:"items set that no built-in Control reads (with did-you-mean)"`
	Honesty
}

func (o *ThemeEditOut) Normalize() { o.Types, o.Warnings = orEmpty(o.Types), orEmpty(o.Warnings) }

// Override sets one theme override.
type Override struct {
	DataType string `json:"data_type" jsonschema:"enum=color|constant|font|font_size|icon|stylebox"`
	Name     string `json:"name" jsonschema:"minLength=1" description:"an item of the Control's type, e.g. font_color"`
	Value    any    `json:"value" description:"as theme_edit's values"`
}

// OverrideRef names one override to remove.
type OverrideRef struct {
	DataType string `json:"data_type" jsonschema:"enum=color|constant|font|font_size|icon|stylebox"`
	Name     string `json:"name" jsonschema:"minLength=1"`
}

// OverridesIn edits a Control's theme overrides.
type OverridesIn struct {
	Node   string        `json:"node" jsonschema:"minLength=1"`
	Set    []Override    `json:"set,omitempty"`
	Remove []OverrideRef `json:"remove,omitempty"`
}

// OverridesOut is the Control's overrides after the edit.
type OverridesOut struct {
	Node      string                    `json:"node"`
	ThemeType string                    `json:"theme_type"`
	Overrides map[string]map[string]any `json:"overrides" description:"data type -> name -> value"`
	Honesty
}

func (o *OverridesOut) Normalize() {
	if o.Overrides == nil {
		o.Overrides = map[string]map[string]any{}
	}
}

func normNodes(n []LayoutNode) []LayoutNode {
	n = orEmpty(n)
	for i := range n {
		n[i].Problems = orEmpty(n[i].Problems)
		n[i].SizeFlags.H, n[i].SizeFlags.V = orEmpty(n[i].SizeFlags.H), orEmpty(n[i].SizeFlags.V)
	}
	return n
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

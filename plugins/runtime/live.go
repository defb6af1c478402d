package runtime

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// nodePathHelp is how node paths of the running game are written.
const nodePathHelp = "absolute (\"/root/Main/Player\") or relative to the current scene (\"Player\", \".\" for the scene itself)"

func checkNodePath(where, p string, required bool) error {
	if p == "" && required {
		return sdk.Validation(fmt.Sprintf("%s is required: a node path, %s", where, nodePathHelp))
	}
	if strings.ContainsAny(p, "\x00") {
		return sdk.Validation(fmt.Sprintf("%s contains a NUL character", where))
	}
	return nil
}

// GetTreeIn selects part of the live tree.
type GetTreeIn struct {
	Root     string `json:"root,omitempty" jsonschema:"default=/root" description:"the node to list from: /root (everything, autoloads included), /root/Main, or a path relative to the current scene"`
	Depth    int    `json:"depth,omitempty" jsonschema:"minimum=1,maximum=64,default=6" description:"levels to descend (1 = the root only)"`
	MaxNodes int    `json:"max_nodes,omitempty" jsonschema:"minimum=1,maximum=5000,default=500" description:"most nodes to return"`
}

// TreeNode is one node of the live tree.
type TreeNode struct {
	Name       string     `json:"name"`
	Type       string     `json:"type" description:"the node's class"`
	Path       string     `json:"path" description:"absolute node path"`
	Script     string     `json:"script,omitempty" description:"res:// path of its script"`
	Scene      string     `json:"scene,omitempty" description:"res:// path of the scene it instances"`
	ChildCount int        `json:"child_count" description:"children it has (whether listed or not)"`
	Children   []TreeNode `json:"children"`
}

// GetTreeOut is the live tree.
type GetTreeOut struct {
	Root         TreeNode `json:"root"`
	NodeCount    int      `json:"node_count" description:"nodes listed"`
	Truncated    bool     `json:"truncated" description:"depth or max_nodes left some children out (child_count shows how many a node has)"`
	CurrentScene string   `json:"current_scene" description:"absolute path of the current scene's root"`
}

func getTree(ctx context.Context, call *sdk.Call, in GetTreeIn) (GetTreeOut, error) {
	if err := checkNodePath("root", in.Root, false); err != nil {
		return GetTreeOut{}, err
	}
	if in.Root == "" {
		in.Root = "/root"
	}
	if in.Depth == 0 {
		in.Depth = 6
	}
	if in.MaxNodes == 0 {
		in.MaxNodes = 500
	}
	out, err := sdk.Send[GetTreeOut](ctx, call.Host, "cmd_runtime_get_tree", in, gameTimeout)
	fillChildren(&out.Root)
	return out, err
}

func fillChildren(n *TreeNode) {
	if n.Children == nil {
		n.Children = []TreeNode{}
	}
	for i := range n.Children {
		fillChildren(&n.Children[i])
	}
}

// GetNodeIn names a live node and, optionally, properties.
type GetNodeIn struct {
	Path       string   `json:"path" description:"the node: /root/Main/Player, Main/Player, or Player (relative to the scene)"`
	Properties []string `json:"properties,omitempty" jsonschema:"maxItems=200" description:"property names to read; all inspector-visible and script properties when empty"`
}

// GetNodeOut is a live node.
type GetNodeOut struct {
	Path       string         `json:"path" description:"absolute node path"`
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Script     string         `json:"script" description:"res:// path of its script, empty when none"`
	Properties map[string]any `json:"properties" description:"property -> value in the JSON shapes of godot://docs/values"`
	Missing    []string       `json:"missing" description:"asked-for properties the node does not have"`
	Groups     []string       `json:"groups"`
	Children   []string       `json:"children" description:"names of its children"`
}

func getNode(ctx context.Context, call *sdk.Call, in GetNodeIn) (GetNodeOut, error) {
	if err := checkNodePath("path", in.Path, true); err != nil {
		return GetNodeOut{}, err
	}
	out, err := sdk.Send[GetNodeOut](ctx, call.Host, "cmd_runtime_get_node", in, gameTimeout)
	if out.Properties == nil {
		out.Properties = map[string]any{}
	}
	out.Missing = nonNil(out.Missing)
	out.Groups = nonNil(out.Groups)
	out.Children = nonNil(out.Children)
	return out, err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// SetPropertiesIn changes properties of a live node.
type SetPropertiesIn struct {
	Path       string         `json:"path" description:"the node: /root/Main/Player, Main/Player, or Player (relative to the scene)"`
	Properties map[string]any `json:"properties" description:"property -> value in its type's JSON shape (godot://docs/values), e.g. {\"position\": {\"x\": 10, \"y\": 20}}"`
}

// PropertyChange is one property's value before and after.
type PropertyChange struct {
	Property string `json:"property"`
	Old      any    `json:"old"`
	New      any    `json:"new" description:"read back after setting"`
}

// SetPropertiesOut reports the live changes.
type SetPropertiesOut struct {
	Path      string           `json:"path"`
	Changed   []PropertyChange `json:"changed"`
	Persisted bool             `json:"persisted" description:"always false (reason)"`
	Reason    string           `json:"reason"`
}

// maxLiveProperties bounds one set_properties call.
const maxLiveProperties = 100

func setProperties(ctx context.Context, call *sdk.Call, in SetPropertiesIn) (SetPropertiesOut, error) {
	if err := checkNodePath("path", in.Path, true); err != nil {
		return SetPropertiesOut{}, err
	}
	if len(in.Properties) == 0 {
		return SetPropertiesOut{}, sdk.Validation("properties is empty; give property -> value, e.g. {\"position\": {\"x\": 10, \"y\": 20}}")
	}
	if len(in.Properties) > maxLiveProperties {
		return SetPropertiesOut{}, sdk.Validation(fmt.Sprintf("at most %d properties per call", maxLiveProperties))
	}
	for k := range in.Properties {
		if k == "" {
			return SetPropertiesOut{}, sdk.Validation("a property name is empty")
		}
	}
	out, err := sdk.Send[SetPropertiesOut](ctx, call.Host, "cmd_runtime_set_properties", in, gameTimeout)
	out.Changed = nonNil(out.Changed)
	out.Persisted, out.Reason = false, "live only: the running game changed, not the scene file (godot_scene_set_properties edits the scene)"
	return out, err
}

// CallMethodIn calls a method of a live node.
type CallMethodIn struct {
	Path      string `json:"path" description:"the node: /root/Main/Player, Main/Player, or Player (relative to the scene)"`
	Method    string `json:"method" jsonschema:"minLength=1" description:"the method name"`
	Args      []any  `json:"args" jsonschema:"optional,maxItems=32" description:"arguments as JSON values, decoded by the method's argument types (godot://docs/values)"`
	TimeoutMs int    `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=300000,default=10000" description:"how long to wait for the method (and any await in it) to finish"`
}

// CallMethodOut is the method's result.
type CallMethodOut struct {
	Path      string `json:"path"`
	Method    string `json:"method"`
	Result    any    `json:"result" description:"the return value in its JSON shape (null for void)"`
	Persisted bool   `json:"persisted" description:"always false (reason)"`
	Reason    string `json:"reason"`
}

func callMethod(ctx context.Context, call *sdk.Call, in CallMethodIn) (CallMethodOut, error) {
	if err := checkNodePath("path", in.Path, true); err != nil {
		return CallMethodOut{}, err
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 10000
	}
	if in.Args == nil {
		in.Args = []any{}
	}
	timeout := time.Duration(in.TimeoutMs)*time.Millisecond + editorSlack
	out, err := sdk.Send[CallMethodOut](ctx, call.Host, "cmd_runtime_call_method", in, timeout)
	out.Persisted, out.Reason = false, "live only: a method call in the running game saves nothing"
	return out, err
}

// PerformanceIn takes no arguments.
type PerformanceIn struct{}

// PerformanceOut holds the game's Performance monitors.
type PerformanceOut struct {
	FPS                    float64        `json:"fps"`
	ProcessTimeMs          float64        `json:"process_time_ms" description:"time of the last process frame"`
	PhysicsTimeMs          float64        `json:"physics_time_ms" description:"time of the last physics frame"`
	NavigationTimeMs       float64        `json:"navigation_time_ms"`
	MemoryStaticBytes      int64          `json:"memory_static_bytes"`
	MemoryStaticMaxBytes   int64          `json:"memory_static_max_bytes"`
	Objects                int64          `json:"objects"`
	Resources              int64          `json:"resources"`
	Nodes                  int64          `json:"nodes"`
	OrphanNodes            int64          `json:"orphan_nodes" description:"nodes outside the tree (a leak when it keeps growing)"`
	DrawCalls              int64          `json:"draw_calls" description:"in the last frame (0 when headless)"`
	ObjectsDrawn           int64          `json:"objects_drawn"`
	PrimitivesDrawn        int64          `json:"primitives_drawn"`
	VideoMemoryBytes       int64          `json:"video_memory_bytes"`
	Physics2DActiveObjects int64          `json:"physics_2d_active_objects"`
	Physics3DActiveObjects int64          `json:"physics_3d_active_objects"`
	ProcessFrames          int64          `json:"process_frames"`
	PhysicsFrames          int64          `json:"physics_frames"`
	TimeScale              float64        `json:"time_scale"`
	Paused                 bool           `json:"paused"`
	Custom                 map[string]any `json:"custom" description:"custom monitors added with Performance.add_custom_monitor"`
}

func getPerformance(ctx context.Context, call *sdk.Call, _ PerformanceIn) (PerformanceOut, error) {
	out, err := sdk.Send[PerformanceOut](ctx, call.Host, "cmd_runtime_get_performance", nil, gameTimeout)
	if out.Custom == nil {
		out.Custom = map[string]any{}
	}
	return out, err
}

// PauseIn changes the game's pause state, time scale, or steps it.
type PauseIn struct {
	Paused     *bool    `json:"paused,omitempty" description:"true pauses (SceneTree.paused), false resumes"`
	TimeScale  *float64 `json:"time_scale,omitempty" jsonschema:"minimum=0,maximum=100" description:"Engine.time_scale: 1 normal, 0.5 half speed, 0 frozen time"`
	StepFrames int      `json:"step_frames,omitempty" jsonschema:"minimum=0,maximum=10000" description:"run this many frames, then pause (the game is paused at the end even if it was running)"`
}

// PauseOut is the game's state afterwards.
type PauseOut struct {
	Paused        bool    `json:"paused"`
	TimeScale     float64 `json:"time_scale"`
	SteppedFrames int     `json:"stepped_frames"`
	ProcessFrames int64   `json:"process_frames" description:"the game's frame counter now"`
	PhysicsFrames int64   `json:"physics_frames"`
}

func pause(ctx context.Context, call *sdk.Call, in PauseIn) (PauseOut, error) {
	if in.Paused == nil && in.TimeScale == nil && in.StepFrames == 0 {
		return PauseOut{}, sdk.Validation("give paused (true/false), time_scale, and/or step_frames")
	}
	if in.Paused != nil && !*in.Paused && in.StepFrames > 0 {
		return PauseOut{}, sdk.Validation("step_frames leaves the game paused; do not combine it with paused: false")
	}
	params := map[string]any{"step_frames": in.StepFrames}
	if in.Paused != nil {
		params["paused"] = *in.Paused
	}
	if in.TimeScale != nil {
		params["time_scale"] = *in.TimeScale
	}
	// A step runs at the game's frame rate; allow 100 ms a frame on a slow machine.
	editorTimeout := 10*time.Second + time.Duration(in.StepFrames)*100*time.Millisecond
	params["timeout_ms"] = editorTimeout.Milliseconds()
	return sdk.Send[PauseOut](ctx, call.Host, "cmd_runtime_pause", params, editorTimeout+editorSlack)
}

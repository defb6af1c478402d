package scene

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// CallMethodIn calls a method of a node of the edited scene, or of a resource
// inside it, in the editor.
type CallMethodIn struct {
	NodeIn
	Method      string            `json:"method" jsonschema:"minLength=1" description:"method name, e.g. \"look_at\""`
	Args        []json.RawMessage `json:"args,omitempty" description:"arguments in order, typed by the method's signature (godot://docs/values shapes)"`
	SubResource string            `json:"sub_resource,omitempty" description:"call it on a resource inside the node instead, e.g. \"mesh:material\""`
	AllowShared bool              `json:"allow_shared,omitempty" description:"the resource is used by other nodes or saved in its own file: call anyway"`
}

// MethodChange is one stored property the call changed.
type MethodChange struct {
	Object   string          `json:"object" description:"\".\" for the node, the sub_resource path, or the class of a resource it holds"`
	Property string          `json:"property"`
	Old      json.RawMessage `json:"old"`
	New      json.RawMessage `json:"new"`
}

// CallMethodOut reports a call.
type CallMethodOut struct {
	Path        string          `json:"path"`
	SubResource string          `json:"sub_resource,omitempty"`
	TargetType  string          `json:"target_type"`
	Method      string          `json:"method"`
	Signature   string          `json:"signature"`
	Return      json.RawMessage `json:"return" description:"the return value (godot://docs/values shapes)"`
	Changes     []MethodChange  `json:"changes" description:"stored properties of the target and the resources it holds that the call changed"`
	AddedNodes  []string        `json:"added_nodes" description:"nodes the call added to the scene"`
	SharedWith  []string        `json:"shared_with,omitempty"`
	SavedTo     string          `json:"saved_to,omitempty" description:"resource file the change was saved to"`
	Action      string          `json:"action" description:"name of the undo action, empty when none"`
	Honesty
}

func (in CallMethodIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if err := required("method", in.Method, `the name of a method of the node, e.g. "look_at"`); err != nil {
		return nil, err
	}
	sub := strings.TrimSpace(in.SubResource)
	if strings.HasPrefix(sub, ":") || strings.HasSuffix(sub, ":") || strings.Contains(sub, "::") {
		return nil, sdk.Validation(fmt.Sprintf("sub_resource %q has an empty segment; write property:sub_property, e.g. \"mesh:material\"", in.SubResource))
	}
	args := in.Args
	if args == nil {
		args = []json.RawMessage{}
	}
	return map[string]any{
		"node": in.Node, "method": in.Method, "args": args,
		"sub_resource": sub, "allow_shared": in.AllowShared,
	}, nil
}

func (o *CallMethodOut) normalize() {
	if o.Changes == nil {
		o.Changes = []MethodChange{}
	}
	if o.AddedNodes == nil {
		o.AddedNodes = []string{}
	}
	if len(o.Return) == 0 {
		o.Return = json.RawMessage("null")
	}
}

func callMethodTool() sdk.Tool {
	return sdk.NewTool("call_method", sdk.ToolOptions{
		Title: "Call a method in the editor",
		Description: "Calls a method of a node of the edited scene, or of a resource inside it (sub_resource \"mesh:material\"), " +
			"args typed by its signature; answers the return value and the stored properties it changed. Those (and nodes it added) " +
			"become one undo action; a call that removes or moves nodes answers undoable: false with the reason. dry_run checks without calling.",
		Safety:        sdk.Mutating,
		RunsCode:      true,
		Preconditions: sceneNeeded,
	}, edit[CallMethodIn, CallMethodOut]("cmd_scene_call_method", editTimeout))
}

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
	Method      string            `json:"method" jsonschema:"minLength=1"`
	Args        []json.RawMessage `json:"args,omitempty" description:"typed by the signature (godot://docs/values)"`
	SubResource string            `json:"sub_resource,omitempty" description:"path to a resource of the node"`
	AllowShared bool              `json:"allow_shared,omitempty" description:"call even when that resource is shared"`
}

// MethodChange is one stored property the call changed.
type MethodChange struct {
	Object   string          `json:"object" description:"\".\" (the node), the sub_resource, or a held resource's class"`
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
	Return      json.RawMessage `json:"return"`
	Changes     []MethodChange  `json:"changes"`
	AddedNodes  []string        `json:"added_nodes"`
	SharedWith  []string        `json:"shared_with,omitempty"`
	SavedTo     string          `json:"saved_to,omitempty"`
	Action      string          `json:"action"`
	Persisted   bool            `json:"persisted"`
	Reason      string          `json:"reason,omitempty" description:"why undoable or persisted is false"`
	Undoable    bool            `json:"undoable"`
	DryRun      bool            `json:"dry_run"`
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

func (o *CallMethodOut) Normalize() {
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
		Description: "Calls a method of a node of the edited scene, or of its resource sub_resource (\"mesh:material\"), in the editor (in the game: godot_runtime_call_method). " +
			"args typed by its signature; answers the return value and changed properties, one undo action (undoable: false + reason if it removed or moved nodes). dry_run only checks.",
		Safety:        sdk.Mutating,
		RunsCode:      true,
		Preconditions: sceneNeeded,
	}, edit[CallMethodIn, CallMethodOut]("cmd_scene_call_method", editTimeout))
}

package scene

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// How long the editor gets per command. Reads of large scenes and file
// operations (open, save) can take a while on a busy editor.
const (
	readTimeout  = 30 * time.Second
	editTimeout  = 30 * time.Second
	fileTimeout  = 60 * time.Second
	batchTimeout = 120 * time.Second
)

// editArgs is an edit tool's input: params validates it and builds the
// addon command's params (without dry_run). Batch steps use the same.
type editArgs interface {
	params() (map[string]any, error)
}

// edit is the tool function of a single edit: validate, add dry_run, send.
func edit[In editArgs, Out any](command string, timeout time.Duration) func(context.Context, *sdk.Call, In) (Out, error) {
	return func(ctx context.Context, call *sdk.Call, in In) (Out, error) {
		p, err := in.params()
		if err != nil {
			var zero Out
			return zero, err
		}
		p["dry_run"] = call.DryRun
		return sdk.Send[Out](ctx, call.Host, command, p, timeout)
	}
}

func required(field, value, example string) error {
	if strings.TrimSpace(value) == "" {
		return sdk.Validation(fmt.Sprintf("%s is required: %s", field, example))
	}
	return nil
}

// scenePath checks a res:// path of a scene file.
func scenePath(field, p string) (string, error) {
	clean, err := respath.Clean(p)
	if err != nil {
		return "", sdk.Validation(field + ": " + sdk.AsError(err).Hint)
	}
	if !strings.HasSuffix(clean, ".tscn") && !strings.HasSuffix(clean, ".scn") {
		return "", sdk.Validation(fmt.Sprintf("%s %q must be a scene file ending in .tscn (or .scn)", field, p))
	}
	return clean, nil
}

// optionalScene checks an optional scene selector.
func optionalScene(field, p string) (string, error) {
	if p == "" {
		return "", nil
	}
	return scenePath(field, p)
}

func orDot(p string) string {
	if strings.TrimSpace(p) == "" {
		return "."
	}
	return p
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

func rawProps(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}

// ---- reading ----

func getTree(ctx context.Context, call *sdk.Call, in GetTreeIn) (TreeOut, error) {
	scene, err := optionalScene("scene", in.Scene)
	if err != nil {
		return TreeOut{}, err
	}
	limit := in.Limit
	if limit == 0 {
		limit = 1000
	}
	return sdk.Send[TreeOut](ctx, call.Host, "cmd_scene_get_tree", map[string]any{
		"scene": scene, "root": orDot(in.Root), "max_depth": intOr(in.MaxDepth, -1),
		"type": in.Type, "name": in.Name, "expand_instances": in.ExpandInstances,
		"limit": limit, "cursor": in.Cursor,
	}, readTimeout)
}

func findNodes(ctx context.Context, call *sdk.Call, in FindNodesIn) (TreeOut, error) {
	scene, err := optionalScene("scene", in.Scene)
	if err != nil {
		return TreeOut{}, err
	}
	script := in.Script
	if script != "" {
		if script, err = respath.Clean(script); err != nil {
			return TreeOut{}, err
		}
	}
	limit := in.Limit
	if limit == 0 {
		limit = 200
	}
	return sdk.Send[TreeOut](ctx, call.Host, "cmd_scene_find_nodes", map[string]any{
		"scene": scene, "root": orDot(in.Root), "max_depth": -1,
		"name": in.Name, "type": in.Type, "group": in.Group, "script": script,
		"expand_instances": in.ExpandInstances, "limit": limit, "cursor": in.Cursor,
	}, readTimeout)
}

func (o *TreeOut) Normalize() {
	if o.Nodes == nil {
		o.Nodes = []TreeNode{}
	}
}

func getNode(ctx context.Context, call *sdk.Call, in GetNodeIn) (GetNodeOut, error) {
	scene, err := optionalScene("scene", in.Scene)
	if err != nil {
		return GetNodeOut{}, err
	}
	props := in.Properties
	if props == nil {
		props = []string{}
	}
	return sdk.Send[GetNodeOut](ctx, call.Host, "cmd_scene_get_node", map[string]any{
		"node": in.Node, "scene": scene, "properties": props,
	}, readTimeout)
}

func (o *GetNodeOut) Normalize() {
	for _, s := range []*[]string{&o.Groups, &o.Children, &o.OmittedProperties} {
		if *s == nil {
			*s = []string{}
		}
	}
	if o.Connections == nil {
		o.Connections = []Connection{}
	}
	if o.IncomingConnections == nil {
		o.IncomingConnections = []Connection{}
	}
	if o.Properties == nil {
		o.Properties = map[string]json.RawMessage{}
	}
}

func listOpen(ctx context.Context, call *sdk.Call, _ ListOpenIn) (ListOpenOut, error) {
	return sdk.Send[ListOpenOut](ctx, call.Host, "cmd_scene_list_open", nil, readTimeout)
}

func (o *ListOpenOut) Normalize() {
	if o.Scenes == nil {
		o.Scenes = []OpenScene{}
	}
}

// ---- scene files ----

func (in OpenIn) params() (map[string]any, error) {
	p, err := scenePath("path", in.Path)
	if err != nil {
		return nil, err
	}
	return map[string]any{"path": p}, nil
}

func (in CreateIn) params() (map[string]any, error) {
	p, err := scenePath("path", in.Path)
	if err != nil {
		return nil, err
	}
	rootType := strings.TrimSpace(in.RootType)
	if rootType == "" {
		rootType = "Node"
	}
	return map[string]any{"path": p, "root_type": rootType, "root_name": in.RootName, "open": boolOr(in.Open, true)}, nil
}

func (in SaveIn) params() (map[string]any, error) {
	scene, err := optionalScene("scene", in.Scene)
	if err != nil {
		return nil, err
	}
	target, err := optionalScene("path", in.Path)
	if err != nil {
		return nil, err
	}
	if in.All && (scene != "" || target != "") {
		return nil, sdk.Validation("all saves every open scene in place: leave scene and path out")
	}
	p := map[string]any{"scene": scene, "path": target, "overwrite": in.Overwrite}
	if in.All {
		p["all"] = true
	}
	return p, nil
}

func (in SetEditableChildrenIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return map[string]any{"node": in.Node, "enabled": in.Enabled == nil || *in.Enabled}, nil
}

func (in SelectIn) params() (map[string]any, error) {
	nodes := in.Nodes
	if nodes == nil {
		nodes = []string{}
	}
	for _, n := range nodes {
		if strings.TrimSpace(n) == "" {
			return nil, sdk.Validation(`nodes holds an empty path; give paths relative to the scene root, e.g. "Player" ("." is the root)`)
		}
	}
	return map[string]any{"nodes": nodes, "add": in.Add}, nil
}

func (in SceneIn) params() (map[string]any, error) {
	scene, err := optionalScene("scene", in.Scene)
	if err != nil {
		return nil, err
	}
	return map[string]any{"scene": scene}, nil
}

// ---- edits ----

func (in CreateNodeIn) params() (map[string]any, error) {
	if err := required("type", in.Type, `a Node class such as "Node2D" or a script class_name`); err != nil {
		return nil, err
	}
	script := in.Script
	if script != "" {
		var err error
		if script, err = respath.Clean(script); err != nil {
			return nil, err
		}
	}
	return map[string]any{
		"type": strings.TrimSpace(in.Type), "name": in.Name, "parent": orDot(in.Parent),
		"properties": rawProps(in.Properties), "script": script, "index": intOr(in.Index, -1),
	}, nil
}

func (o *CreateNodeOut) Normalize() {
	if o.Properties == nil {
		o.Properties = map[string]json.RawMessage{}
	}
}

func (in InstantiateIn) params() (map[string]any, error) {
	if err := required("scene", in.Scene, `the res:// path of a scene file, e.g. "res://enemy.tscn"`); err != nil {
		return nil, err
	}
	scene, err := scenePath("scene", in.Scene)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"scene": scene, "parent": orDot(in.Parent), "name": in.Name, "index": intOr(in.Index, -1),
		"properties": rawProps(in.Properties), "editable_children": in.EditableChildren,
	}, nil
}

func (o *InstantiateOut) Normalize() {
	if o.Properties == nil {
		o.Properties = map[string]json.RawMessage{}
	}
}

func (in NodeIn) check() error {
	return required("node", in.Node, `a node path relative to the scene root, e.g. "Player/Sprite2D"`)
}

func (in DeleteNodeIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return map[string]any{"node": in.Node}, nil
}

func (in DuplicateNodeIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return map[string]any{"node": in.Node, "name": in.Name, "parent": in.Parent}, nil
}

func (in RenameNodeIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if err := required("name", in.Name, "the new node name"); err != nil {
		return nil, err
	}
	return map[string]any{"node": in.Node, "name": in.Name}, nil
}

func (in MoveNodeIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return map[string]any{
		"node": in.Node, "new_parent": in.NewParent, "index": intOr(in.Index, -1),
		"keep_global_transform": boolOr(in.KeepGlobalTransform, true),
	}, nil
}

func (in SetPropertiesIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if len(in.Properties) == 0 {
		return nil, sdk.Validation(`properties is required: an object {property: value} with at least one property, e.g. {"position": {"x": 10, "y": 20}}`)
	}
	for k := range in.Properties {
		if strings.HasPrefix(k, ":") || strings.HasSuffix(k, ":") || strings.Contains(k, "::") {
			return nil, sdk.Validation(fmt.Sprintf("property path %q has an empty segment; write property:sub_property, e.g. \"mesh:material:albedo_color\"", k))
		}
	}
	p := map[string]any{"node": in.Node, "properties": in.Properties}
	if in.AllowShared {
		p["allow_shared"] = true
	}
	return p, nil
}

func (o *SetPropertiesOut) Normalize() {
	if o.Changes == nil {
		o.Changes = []Change{}
	}
}

func (in SignalIn) check() error {
	for _, f := range []struct{ name, value, example string }{
		{"source", in.Source, "the path of the node that emits the signal"},
		{"signal", in.Signal, `the signal's name, e.g. "pressed"`},
		{"target", in.Target, "the path of the node whose method is called"},
		{"method", in.Method, `the target's method, e.g. "_on_button_pressed"`},
	} {
		if err := required(f.name, f.value, f.example); err != nil {
			return err
		}
	}
	return nil
}

func (in SignalIn) fields() map[string]any {
	return map[string]any{"source": in.Source, "signal": in.Signal, "target": in.Target, "method": in.Method}
}

func (in ConnectSignalIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	p := in.fields()
	binds := in.Binds
	if binds == nil {
		binds = []json.RawMessage{}
	}
	p["binds"], p["deferred"], p["one_shot"] = binds, in.Deferred, in.OneShot
	return p, nil
}

func (o *ConnectSignalOut) Normalize() {
	if o.Binds == nil {
		o.Binds = []json.RawMessage{}
	}
}

func (in DisconnectSignalIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return in.fields(), nil
}

func (in SetGroupsIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if len(in.Add) == 0 && len(in.Remove) == 0 {
		return nil, sdk.Validation(`give add and/or remove: arrays of group names, e.g. {"add": ["enemies"]}`)
	}
	add, remove := in.Add, in.Remove
	if add == nil {
		add = []string{}
	}
	if remove == nil {
		remove = []string{}
	}
	return map[string]any{"node": in.Node, "add": add, "remove": remove}, nil
}

func (o *SetGroupsOut) Normalize() {
	for _, s := range []*[]string{&o.Groups, &o.Added, &o.Removed, &o.Unchanged} {
		if *s == nil {
			*s = []string{}
		}
	}
}

func (in ExtractBranchIn) params() (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	p, err := scenePath("path", in.Path)
	if err != nil {
		return nil, err
	}
	return map[string]any{"node": in.Node, "path": p, "replace": boolOr(in.Replace, true)}, nil
}

func (o *ExtractBranchOut) Normalize() {
	if o.DroppedConnections == nil {
		o.DroppedConnections = []Connection{}
	}
}

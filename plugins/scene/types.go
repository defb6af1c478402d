package scene

import "encoding/json"

// Honesty is what every scene edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when the change is part of the scene and will be written by the next save; false when the next save would lose it (reason says why)"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false, and how to make the change stick"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call (false when the call changed nothing)"`
	DryRun    bool   `json:"dry_run" description:"true when this was a preview: nothing was changed"`
}

// ---- reading ----

// GetTreeIn selects the part of a scene tree to list.
type GetTreeIn struct {
	Scene           string `json:"scene,omitempty" description:"res:// scene file to read instead of the edited scene"`
	Root            string `json:"root,omitempty" jsonschema:"default=." description:"start node (\".\" is the root)"`
	MaxDepth        *int   `json:"max_depth,omitempty" jsonschema:"minimum=0" description:"levels below root to list (0 = root only); omit for the whole tree"`
	Type            string `json:"type,omitempty" description:"only nodes of this class or a subclass (engine class or class_name)"`
	Name            string `json:"name,omitempty" description:"only names matching this pattern (* ?, any case)"`
	ExpandInstances bool   `json:"expand_instances,omitempty" description:"also nodes inside instances without Editable Children"`
	Limit           int    `json:"limit,omitempty" jsonschema:"default=1000,minimum=1,maximum=5000" description:"most nodes per answer"`
	Cursor          string `json:"cursor,omitempty" description:"next_cursor of the previous answer, to get the next page"`
}

// TreeNode is one node of a listing, in tree (pre-)order.
type TreeNode struct {
	Path             string `json:"path" description:"relative to the scene root; \".\" is the root"`
	Name             string `json:"name"`
	Type             string `json:"type" description:"engine class"`
	Depth            int    `json:"depth" description:"levels below the listing's root"`
	Children         int    `json:"children" description:"number of children"`
	Script           string `json:"script,omitempty" description:"res:// path of the attached script"`
	ScriptClass      string `json:"script_class,omitempty" description:"the script's class_name"`
	Instance         string `json:"instance,omitempty" description:"for the root of an instanced scene: that scene's res:// path"`
	EditableChildren bool   `json:"editable_children,omitempty" description:"the instance has Editable Children"`
	Foreign          bool   `json:"foreign,omitempty" description:"part of an instanced scene without Editable Children: edits to it are not saved"`
}

// TreeOut is a page of nodes.
type TreeOut struct {
	Scene                 string     `json:"scene" description:"res:// path of the scene read (empty for a never-saved edited scene)"`
	Source                string     `json:"source" jsonschema:"enum=editor|file" description:"editor: the live edited scene; file: read from the scene file"`
	Root                  string     `json:"root" description:"path of the node the listing starts from"`
	Nodes                 []TreeNode `json:"nodes"`
	Total                 int        `json:"total" description:"nodes that pass the filters in the whole walk"`
	Returned              int        `json:"returned"`
	Truncated             bool       `json:"truncated" description:"more nodes pass the filters than this answer lists; call again with cursor: next_cursor"`
	NextCursor            string     `json:"next_cursor,omitempty"`
	UnsavedChangesIgnored bool       `json:"unsaved_changes_ignored,omitempty" description:"the scene was read from its file while it is open with unsaved changes"`
}

// FindNodesIn filters the nodes of a scene.
type FindNodesIn struct {
	Scene           string `json:"scene,omitempty" description:"res:// path of a scene file to search instead of the edited scene"`
	Root            string `json:"root,omitempty" jsonschema:"default=." description:"search under this node only"`
	Name            string `json:"name,omitempty" description:"name pattern (* and ?, case-insensitive), e.g. \"Enemy*\""`
	Type            string `json:"type,omitempty" description:"class incl. subclasses (\"CollisionObject2D\": bodies, areas) or class_name"`
	Group           string `json:"group,omitempty" description:"only nodes in this group"`
	Script          string `json:"script,omitempty" description:"only nodes with this script attached (res:// path)"`
	ExpandInstances bool   `json:"expand_instances,omitempty" description:"also search inside instanced scenes without Editable Children"`
	Limit           int    `json:"limit,omitempty" jsonschema:"default=200,minimum=1,maximum=5000"`
	Cursor          string `json:"cursor,omitempty" description:"next_cursor of the previous answer"`
}

// GetNodeIn names one node.
type GetNodeIn struct {
	Node       string   `json:"node" jsonschema:"minLength=1" description:"node path relative to the scene root (\".\" is the root), e.g. \"Player/Sprite2D\""`
	Scene      string   `json:"scene,omitempty" description:"res:// path of a scene file to read instead of the edited scene"`
	Properties []string `json:"properties,omitempty" description:"names or sub-resource paths (\"mesh:material:albedo_color\"); default: all Inspector ones"`
}

// Connection is one persistent signal connection.
type Connection struct {
	Source string `json:"source" description:"node path of the emitter"`
	Signal string `json:"signal"`
	Target string `json:"target" description:"node path of the receiver"`
	Method string `json:"method"`
	Flags  int    `json:"flags,omitempty" description:"Object.ConnectFlags (2 = persist, 1 = deferred, 4 = one shot)"`
}

// InstanceInfo describes the root of an instanced scene.
type InstanceInfo struct {
	Scene            string `json:"scene" description:"res:// path of the instanced scene"`
	EditableChildren bool   `json:"editable_children"`
}

// GetNodeOut is everything about one node.
type GetNodeOut struct {
	Scene                 string                     `json:"scene"`
	Source                string                     `json:"source" jsonschema:"enum=editor|file"`
	Path                  string                     `json:"path"`
	Name                  string                     `json:"name"`
	Type                  string                     `json:"type"`
	Script                string                     `json:"script" description:"res:// path of the attached script, empty when none"`
	ScriptClass           string                     `json:"script_class"`
	Parent                string                     `json:"parent" description:"path of the parent, empty for the root"`
	Owner                 string                     `json:"owner" description:"\".\" when the scene owns the node; the path of an instance when the node comes from that instanced scene"`
	Foreign               bool                       `json:"foreign" description:"edits to this node are not saved (reason says why)"`
	Reason                string                     `json:"reason,omitempty"`
	Instance              *InstanceInfo              `json:"instance" description:"set when the node is the root of an instanced scene"`
	Groups                []string                   `json:"groups"`
	Children              []string                   `json:"children" description:"names of the children"`
	Connections           []Connection               `json:"connections" description:"persistent connections of this node's signals"`
	IncomingConnections   []Connection               `json:"incoming_connections" description:"persistent connections of other nodes' signals to this node"`
	Properties            map[string]json.RawMessage `json:"properties" description:"property values in the shapes of godot://docs/values"`
	OmittedProperties     []string                   `json:"omitted_properties" description:"properties left out because their value is larger than 16 KiB; ask for them by name"`
	UnsavedChangesIgnored bool                       `json:"unsaved_changes_ignored,omitempty"`
}

// ListOpenIn takes no arguments.
type ListOpenIn struct{}

// OpenScene is one open scene tab.
type OpenScene struct {
	Path   string `json:"path" description:"res:// path of the scene file (empty for a never-saved scene)"`
	Dirty  bool   `json:"dirty" description:"has unsaved changes"`
	Active bool   `json:"active" description:"is the edited scene"`
}

// ListOpenOut lists the open scene tabs.
type ListOpenOut struct {
	Scenes []OpenScene `json:"scenes"`
	Active string      `json:"active" description:"path of the edited scene, empty when none"`
}

// ---- scene files ----

// OpenIn names a scene file to open.
type OpenIn struct {
	Path string `json:"path" jsonschema:"minLength=1" description:"res:// path of a .tscn or .scn file"`
}

// OpenOut says which scene is now edited.
type OpenOut struct {
	Path        string `json:"path"`
	AlreadyOpen bool   `json:"already_open" description:"it was open already; its tab was made current"`
	Active      bool   `json:"active" description:"it is now the edited scene"`
	RootName    string `json:"root_name"`
	RootType    string `json:"root_type"`
	DryRun      bool   `json:"dry_run"`
}

// CreateIn describes a new scene file.
type CreateIn struct {
	Path     string `json:"path" jsonschema:"minLength=1" description:"res:// .tscn (or .scn) to write; folders are created; never overwrites"`
	RootType string `json:"root_type,omitempty" jsonschema:"default=Node" description:"Node class or class_name, e.g. Node3D"`
	RootName string `json:"root_name,omitempty" description:"name of the root node; default: the file name in PascalCase"`
	Open     *bool  `json:"open,omitempty" jsonschema:"default=true" description:"open the new scene in the editor"`
}

// CreateOut reports the written scene file.
type CreateOut struct {
	Path      string `json:"path"`
	RootName  string `json:"root_name"`
	RootType  string `json:"root_type"`
	Script    string `json:"script,omitempty" description:"script of the root when root_type was a script class"`
	Opened    bool   `json:"opened"`
	Persisted bool   `json:"persisted" description:"the file was written"`
	Undoable  bool   `json:"undoable" description:"always false: writing a file is not an editor action"`
	DryRun    bool   `json:"dry_run"`
}

// SaveIn selects the scene to save and where.
type SaveIn struct {
	Scene     string `json:"scene,omitempty" description:"res:// path of an open scene; default: the edited scene"`
	Path      string `json:"path,omitempty" description:"save as this res:// .tscn path instead (the scene then lives there)"`
	Overwrite bool   `json:"overwrite,omitempty" description:"save over a file changed on disk, or replace one when saving as"`
	All       bool   `json:"all,omitempty" description:"save every open scene with unsaved changes (all or none)"`
}

// SaveOut reports the save.
type SaveOut struct {
	Path           string       `json:"path" description:"where the scene was saved"`
	PreviousPath   string       `json:"previous_path,omitempty" description:"the scene's path before a save-as"`
	Saved          bool         `json:"saved"`
	WasDirty       bool         `json:"was_dirty" description:"the scene had unsaved changes"`
	OverwroteNewer bool         `json:"overwrote_newer,omitempty" description:"a newer file on disk was replaced (overwrite: true)"`
	Persisted      bool         `json:"persisted"`
	Undoable       bool         `json:"undoable" description:"always false: saving is not an editor action"`
	DryRun         bool         `json:"dry_run"`
	Scenes         []SavedScene `json:"scenes,omitempty" description:"all: the scenes saved"`
}

// SceneIn selects an open scene.
type SceneIn struct {
	Scene string `json:"scene,omitempty" description:"res:// path of an open scene; default: the edited scene"`
}

// CloseOut reports a closed scene tab.
type CloseOut struct {
	Path             string `json:"path"`
	Closed           bool   `json:"closed"`
	DiscardedChanges bool   `json:"discarded_changes" description:"it had unsaved changes, which are gone"`
	Active           string `json:"active" description:"the edited scene afterwards, empty when none"`
	Undoable         bool   `json:"undoable" description:"always false"`
	DryRun           bool   `json:"dry_run"`
}

// ReloadOut reports a scene reloaded from its file.
type ReloadOut struct {
	Path             string `json:"path"`
	Reloaded         bool   `json:"reloaded"`
	DiscardedChanges bool   `json:"discarded_changes" description:"it had unsaved changes, which are gone (and so is its undo history)"`
	Undoable         bool   `json:"undoable" description:"always false"`
	DryRun           bool   `json:"dry_run"`
}

// ---- edits ----

// CreateNodeIn describes a new node.
type CreateNodeIn struct {
	Type       string                     `json:"type" jsonschema:"minLength=1" description:"Node class (\"Node2D\", \"Sprite2D\", \"Label\", …) or a script class_name"`
	Name       string                     `json:"name,omitempty" description:"default: the type, numbered to be free; a taken name is refused"`
	Parent     string                     `json:"parent,omitempty" jsonschema:"default=." description:"parent path relative to the scene root"`
	Properties map[string]json.RawMessage `json:"properties,omitempty" description:"initial property values, in the shapes of godot://docs/values"`
	Script     string                     `json:"script,omitempty" description:"res:// path of a script to attach"`
	Index      *int                       `json:"index,omitempty" jsonschema:"minimum=0" description:"position among the parent's children; default: last"`
}

// CreateNodeOut reports the new node.
type CreateNodeOut struct {
	Path        string                     `json:"path"`
	Name        string                     `json:"name"`
	Type        string                     `json:"type"`
	Script      string                     `json:"script,omitempty"`
	ScriptClass string                     `json:"script_class,omitempty"`
	Parent      string                     `json:"parent"`
	Index       int                        `json:"index"`
	Properties  map[string]json.RawMessage `json:"properties" description:"the initial properties as set (read back)"`
	Honesty
}

// InstantiateIn places an instance of a scene.
type InstantiateIn struct {
	Scene            string                     `json:"scene" jsonschema:"minLength=1" description:"res:// path of the scene to instance"`
	Parent           string                     `json:"parent,omitempty" jsonschema:"default=." description:"parent path relative to the scene root"`
	Name             string                     `json:"name,omitempty" description:"node name; default: the scene's root name, numbered to be free"`
	Index            *int                       `json:"index,omitempty" jsonschema:"minimum=0" description:"position among the parent's children; default: last"`
	Properties       map[string]json.RawMessage `json:"properties,omitempty" description:"property overrides on the instance root"`
	EditableChildren bool                       `json:"editable_children,omitempty" description:"turn on Editable Children, so the instance's own nodes can be edited and saved"`
}

// InstantiateOut reports the new instance.
type InstantiateOut struct {
	Path             string                     `json:"path"`
	Name             string                     `json:"name"`
	Scene            string                     `json:"scene"`
	Type             string                     `json:"type" description:"class of the instance's root"`
	Parent           string                     `json:"parent"`
	Index            int                        `json:"index"`
	EditableChildren bool                       `json:"editable_children"`
	Properties       map[string]json.RawMessage `json:"properties"`
	Honesty
}

// NodeIn names one node of the edited scene.
type NodeIn struct {
	Node string `json:"node" jsonschema:"minLength=1" description:"node path relative to the scene root"`
}

// DeleteNodeIn names the node to delete.
type DeleteNodeIn struct {
	NodeIn
}

// DeleteNodeOut reports a deleted node.
type DeleteNodeOut struct {
	Path        string `json:"path"`
	Type        string `json:"type"`
	Deleted     bool   `json:"deleted"`
	Descendants int    `json:"descendants" description:"nodes deleted with it"`
	Honesty
}

// DuplicateNodeIn names the node to copy.
type DuplicateNodeIn struct {
	NodeIn
	Name   string `json:"name,omitempty" description:"name of the copy; default: the original's, numbered to be free"`
	Parent string `json:"parent,omitempty" description:"default: the original's parent, right after it"`
}

// DuplicateNodeOut reports the copy.
type DuplicateNodeOut struct {
	Source      string `json:"source"`
	Path        string `json:"path"`
	Name        string `json:"name"`
	Parent      string `json:"parent"`
	Descendants int    `json:"descendants"`
	Honesty
}

// RenameNodeIn renames a node.
type RenameNodeIn struct {
	NodeIn
	Name string `json:"name" jsonschema:"minLength=1" description:"new name; refused when a sibling has it"`
}

// RenameNodeOut reports a rename.
type RenameNodeOut struct {
	OldPath string `json:"old_path"`
	Path    string `json:"path"`
	OldName string `json:"old_name"`
	Name    string `json:"name"`
	Honesty
}

// MoveNodeIn reparents and/or reorders a node.
type MoveNodeIn struct {
	NodeIn
	NewParent           string `json:"new_parent,omitempty" description:"new parent path; default: the current parent (reorder only)"`
	Index               *int   `json:"index,omitempty" jsonschema:"minimum=0" description:"among the parent's children; default: last on reparent, else unchanged"`
	KeepGlobalTransform *bool  `json:"keep_global_transform,omitempty" jsonschema:"default=true" description:"stay in place on screen/in the world"`
}

// MoveNodeOut reports a move.
type MoveNodeOut struct {
	OldPath             string `json:"old_path"`
	Path                string `json:"path"`
	OldParent           string `json:"old_parent"`
	Parent              string `json:"parent"`
	OldIndex            int    `json:"old_index"`
	Index               int    `json:"index"`
	GlobalTransformKept bool   `json:"global_transform_kept" description:"still where it was on screen (a reorder always is)"`
	Honesty
}

// SetPropertiesIn sets several properties of one node.
type SetPropertiesIn struct {
	NodeIn
	Properties  map[string]json.RawMessage `json:"properties" description:"{property or path \"a:b:c\": value} (godot://docs/values); all or nothing"`
	AllowShared bool                       `json:"allow_shared,omitempty" description:"change a sub-resource other nodes or files use too"`
}

// Change is one property's old and new value.
type Change struct {
	Property string          `json:"property"`
	Old      json.RawMessage `json:"old"`
	New      json.RawMessage `json:"new" description:"the value read back after setting it"`
	// Set for sub-resource paths only.
	SharedWith []string `json:"shared_with,omitempty" description:"other users of the resource: \"Node:property\" or a res:// file"`
	SavedTo    string   `json:"saved_to,omitempty" description:"the file the change was saved to"`
}

// SetPropertiesOut reports the changes.
type SetPropertiesOut struct {
	Path        string   `json:"path"`
	Changes     []Change `json:"changes"`
	AlsoChanged []Change `json:"also_changed,omitempty" description:"what the setters changed besides"`
	Honesty
}

// SignalIn names a connection.
type SignalIn struct {
	Source string `json:"source" jsonschema:"minLength=1" description:"path of the node that emits the signal"`
	Signal string `json:"signal" jsonschema:"minLength=1" description:"signal name, e.g. pressed, body_entered"`
	Target string `json:"target" jsonschema:"minLength=1" description:"path of the node whose method is called"`
	Method string `json:"method" jsonschema:"minLength=1" description:"method name on the target, e.g. _on_button_pressed"`
}

// ConnectSignalIn adds a persistent connection.
type ConnectSignalIn struct {
	SignalIn
	Binds    []json.RawMessage `json:"binds,omitempty" description:"extra arguments passed after the signal's own"`
	Deferred bool              `json:"deferred,omitempty" description:"call at idle time (CONNECT_DEFERRED)"`
	OneShot  bool              `json:"one_shot,omitempty" description:"disconnect after the first emission (CONNECT_ONE_SHOT)"`
}

// ConnectSignalOut reports a connection.
type ConnectSignalOut struct {
	Source       string            `json:"source"`
	Signal       string            `json:"signal"`
	Target       string            `json:"target"`
	Method       string            `json:"method"`
	Flags        int               `json:"flags"`
	Binds        []json.RawMessage `json:"binds"`
	MethodExists bool              `json:"method_exists" description:"the target has this method now (write it with the scripts tools if not)"`
	Honesty
}

// DisconnectSignalIn removes a connection.
type DisconnectSignalIn struct {
	SignalIn
}

// DisconnectSignalOut reports a removed connection.
type DisconnectSignalOut struct {
	Source string `json:"source"`
	Signal string `json:"signal"`
	Target string `json:"target"`
	Method string `json:"method"`
	Flags  int    `json:"flags"`
	Honesty
}

// SetGroupsIn adds and removes groups.
type SetGroupsIn struct {
	NodeIn
	Add    []string `json:"add,omitempty" description:"groups to join (persistent, saved with the scene)"`
	Remove []string `json:"remove,omitempty" description:"groups to leave"`
}

// SetGroupsOut reports the node's groups.
type SetGroupsOut struct {
	Path      string   `json:"path"`
	Groups    []string `json:"groups" description:"the node's groups afterwards"`
	Added     []string `json:"added"`
	Removed   []string `json:"removed"`
	Unchanged []string `json:"unchanged" description:"asked for but already so"`
	Honesty
}

// ExtractBranchIn saves a subtree as its own scene.
type ExtractBranchIn struct {
	NodeIn
	Path    string `json:"path" jsonschema:"minLength=1" description:"res:// path of the new .tscn; never overwritten"`
	Replace *bool  `json:"replace,omitempty" jsonschema:"default=true" description:"replace the branch with an instance of the new scene"`
}

// ExtractBranchOut reports the new scene.
type ExtractBranchOut struct {
	Path               string       `json:"path" description:"the new scene file"`
	Node               string       `json:"node" description:"the branch that was extracted"`
	Replaced           bool         `json:"replaced"`
	Instance           string       `json:"instance" description:"path of the instance that replaced the branch"`
	NodeCount          int          `json:"node_count" description:"nodes written to the new scene"`
	DroppedConnections []Connection `json:"dropped_connections" description:"connections between the branch and the rest of the scene, which neither file keeps"`
	FileWritten        bool         `json:"file_written" description:"undo does not delete the file"`
	Honesty
}

// ---- batch ----

// Step is one edit of a batch.
type Step struct {
	Tool string          `json:"tool" jsonschema:"enum=create_node|instantiate|delete_node|duplicate_node|rename_node|move_node|set_properties|connect_signal|disconnect_signal|set_groups" description:"the edit tool's short name"`
	Args json.RawMessage `json:"args,omitempty" description:"that tool's arguments (without dry_run/confirm)"`
}

// BatchIn is several edits applied as one undo action.
type BatchIn struct {
	// confirm (needed when a step is destructive) and dry_run are the
	// host's flags: Call.Confirm and Call.DryRun (ToolOptions.MayDestroy).
	Steps      []Step `json:"steps" jsonschema:"minItems=1,maxItems=10000" description:"edits applied in order; later steps see earlier ones"`
	FullValues bool   `json:"full_values,omitempty" description:"echo inline resources in full (default: summarised)"`
}

// StepResult is one step's verdict: the result its own tool would give.
type StepResult struct {
	Index  int             `json:"index"`
	Tool   string          `json:"tool"`
	Result json.RawMessage `json:"result"`
}

// StepError is why a batch stopped.
type StepError struct {
	Error    string `json:"error" description:"the stable error code"`
	Hint     string `json:"hint"`
	Required string `json:"required,omitempty"`
}

// BatchOut reports a batch.
type BatchOut struct {
	Applied   bool         `json:"applied" description:"every step was applied; false on a dry run or when a step failed (then nothing was changed)"`
	AbortedAt *int         `json:"aborted_at" description:"index of the step that failed; null when none did"`
	Error     *StepError   `json:"error" description:"why that step failed"`
	Steps     []StepResult `json:"steps" description:"verdicts of the steps that ran (all of them, or those before aborted_at, which were rolled back)"`
	Persisted bool         `json:"persisted" description:"every change will be saved with the scene"`
	Reasons   []string     `json:"reasons" description:"why some step's change would not be saved"`
	Undoable  bool         `json:"undoable" description:"one godot_undo reverts the whole batch"`
	DryRun    bool         `json:"dry_run"`
	Action    string       `json:"action" description:"name of the undo action"`
}

// SetEditableChildrenIn turns Editable Children of an instance on or off.
type SetEditableChildrenIn struct {
	NodeIn
	Enabled *bool `json:"enabled,omitempty" jsonschema:"default=true" description:"false: off (edits inside are dropped at the next save)"`
}

// SetEditableChildrenOut reports the instance's Editable Children.
type SetEditableChildrenOut struct {
	Path             string `json:"path"`
	Scene            string `json:"scene" description:"the instanced scene file"`
	EditableChildren bool   `json:"editable_children"`
	Changed          bool   `json:"changed"`
	Honesty
}

// SelectIn sets the editor's selection.
type SelectIn struct {
	Nodes []string `json:"nodes" description:"node paths relative to the scene root; [] clears"`
	Add   bool     `json:"add,omitempty" description:"add to the selection instead of replacing it"`
}

// SelectOut is the selection afterwards.
type SelectOut struct {
	Selection []string `json:"selection"`
	DryRun    bool     `json:"dry_run"`
}

// SavedScene is one scene saved by save with all.
type SavedScene struct {
	Path           string `json:"path"`
	Saved          bool   `json:"saved"`
	WasDirty       bool   `json:"was_dirty"`
	OverwroteNewer bool   `json:"overwrote_newer,omitempty"`
}

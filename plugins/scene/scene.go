// Package scene is the built-in scene toolset: read the edited scene, open,
// create, save, close and reload scene files, and edit nodes (create,
// instance, delete, duplicate, rename, move, properties, signals, groups,
// extract a branch, batches), every edit one undo action in the editor.
//
// Node paths are relative to the scene root ("." is the root). Every edit
// answers persisted (with a reason when the next save would lose it),
// undoable and dry_run; a dry run gives the verdicts of the real run and
// changes nothing. docs/scene.md describes the behaviours and limits.
package scene

import (
	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

var (
	connected   = []string{sdk.RequireBridgeConnected}
	sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}
)

// Toolset is the scene toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "scene",
		Version:        "0.2.0",
		Description:    "Scenes and nodes: read the tree, create, edit, move and delete nodes, save scenes, all undoable.",
		Keywords:       []string{"Node2D", "Node3D", "scene tree", ".tscn", "instance", "reparent", "signals", "groups", "batch edits"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("get_tree", sdk.ToolOptions{
				Title:         "Get the scene tree",
				Description:   "Lists the nodes of the edited scene (or of the scene file scene) in tree order: path, name, type, depth, child count, script, instance info; narrowed by type, name, root, max_depth. Paged (cursor).",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getTree),
			sdk.NewTool("get_node", sdk.ToolOptions{
				Title:         "Get a node",
				Description:   "Everything about one node: its properties (all Inspector ones, or those named), groups, persistent connections (both ways), script, owner, children, instance info. foreign: true means edits to it are not saved.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getNode),
			sdk.NewTool("find_nodes", sdk.ToolOptions{
				Title: "Find nodes",
				Description: "Finds nodes of the edited scene (or of a scene file) by name pattern (* and ?), type (subclasses included; engine class or " +
					"script class_name), group or script. Same answer shape and paging as get_tree.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, findNodes),
			sdk.NewTool("list_open", sdk.ToolOptions{
				Title:         "List open scenes",
				Description:   "The editor's open scene tabs with their unsaved-changes flags, and which one is being edited.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, listOpen),
			sdk.NewTool("open", sdk.ToolOptions{
				Title:         "Open a scene",
				Description:   "Opens a .tscn/.scn file in the editor and makes it the edited scene (switches to its tab when it is open already).",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, edit[OpenIn, OpenOut]("cmd_scene_open", fileTimeout)),
			sdk.NewTool("create", sdk.ToolOptions{
				Title: "Create a scene",
				Description: "Writes a new .tscn with one root node of root_type (and name root_name) and opens it. Never overwrites an existing file. " +
					"Writing the file is not an undo action (undoable: false).",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, edit[CreateIn, CreateOut]("cmd_scene_create", fileTimeout)),
			sdk.NewTool("save", sdk.ToolOptions{
				Title: "Save a scene",
				Description: "Saves the edited scene (or scene; all: every unsaved open one) to its file, or to path (save as). " +
					"Refuses with PRECONDITION_FAILED a file changed on disk since the editor loaded or saved it, unless overwrite (godot_scene_reload takes the disk version). " +
					"overwrite: true replaces a file, so it needs confirm: true.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   sceneNeeded,
			}, edit[SaveIn, SaveOut]("cmd_scene_save", fileTimeout)),
			sdk.NewTool("close", sdk.ToolOptions{
				Title:         "Close a scene",
				Description:   "Closes the edited scene's tab (or an open scene given as scene), discarding unsaved changes and its undo history. dry_run tells whether changes would be lost.",
				Safety:        sdk.Destructive,
				Preconditions: sceneNeeded,
			}, edit[SceneIn, CloseOut]("cmd_scene_close", fileTimeout)),
			sdk.NewTool("reload", sdk.ToolOptions{
				Title:         "Reload a scene from disk",
				Description:   "Reloads the edited scene (or an open scene given as scene) from its file, discarding unsaved changes and its undo history.",
				Safety:        sdk.Destructive,
				Preconditions: sceneNeeded,
			}, edit[SceneIn, ReloadOut]("cmd_scene_reload", fileTimeout)),
			sdk.NewTool("create_node", sdk.ToolOptions{
				Title:         "Create a node",
				Description:   "Adds a node of a type (engine class or script class_name) under parent, with a name, properties (godot://docs/values shapes), a script and an index. One undo action. A taken name is refused; without one a free name is picked.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[CreateNodeIn, CreateNodeOut]("cmd_scene_create_node", editTimeout)),
			sdk.NewTool("instantiate", sdk.ToolOptions{
				Title:         "Instance a scene",
				Description:   "Adds an instance of a scene file (PackedScene) under parent, optionally with Editable Children and property overrides. One undo action. A scene cannot contain itself.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[InstantiateIn, InstantiateOut]("cmd_scene_instantiate", editTimeout)),
			sdk.NewTool("delete_node", sdk.ToolOptions{
				Title:         "Delete a node",
				Description:   "Deletes a node and its children. One undo action (godot_undo brings them back). The root and nodes that belong to an instanced scene cannot be deleted.",
				Safety:        sdk.Destructive,
				Preconditions: sceneNeeded,
			}, edit[DeleteNodeIn, DeleteNodeOut]("cmd_scene_delete_node", editTimeout)),
			sdk.NewTool("duplicate_node", sdk.ToolOptions{
				Title:         "Duplicate a node",
				Description:   "Copies a node with its children, groups, signals and scripts, right after the original or under another parent. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[DuplicateNodeIn, DuplicateNodeOut]("cmd_scene_duplicate_node", editTimeout)),
			sdk.NewTool("rename_node", sdk.ToolOptions{
				Title:         "Rename a node",
				Description:   "Renames a node; a name a sibling has is refused. One undo action. NodePath properties elsewhere that point at it are not rewritten.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[RenameNodeIn, RenameNodeOut]("cmd_scene_rename_node", editTimeout)),
			sdk.NewTool("move_node", sdk.ToolOptions{
				Title: "Move a node",
				Description: "Reparents a node and/or changes its position among its siblings, keeping its global transform by default. One undo action. " +
					"Refused: the root, a move into its own branch, a name the new parent's children already have.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[MoveNodeIn, MoveNodeOut]("cmd_scene_move_node", editTimeout)),
			sdk.NewTool("set_properties", sdk.ToolOptions{
				Title:         "Set node properties",
				Description:   "Sets several properties of one node, typed by each property (godot://docs/values shapes), all or nothing; answers old and new values. \"mesh:material:albedo_color\" sets one value in a sub-resource (a shared one needs allow_shared). Unknown properties and wrong shapes are refused with the expected shape. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[SetPropertiesIn, SetPropertiesOut]("cmd_scene_set_properties", editTimeout)),
			sdk.NewTool("connect_signal", sdk.ToolOptions{
				Title:         "Connect a signal",
				Description:   "Adds a persistent (saved) connection from a node's signal to a method of another node, with optional binds, deferred and one_shot. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[ConnectSignalIn, ConnectSignalOut]("cmd_scene_connect_signal", editTimeout)),
			sdk.NewTool("disconnect_signal", sdk.ToolOptions{
				Title:         "Disconnect a signal",
				Description:   "Removes a connection from a node's signal to a method of another node. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[DisconnectSignalIn, DisconnectSignalOut]("cmd_scene_disconnect_signal", editTimeout)),
			sdk.NewTool("set_groups", sdk.ToolOptions{
				Title:         "Set a node's groups",
				Description:   "Adds the node to groups and/or removes it from groups (persistent: saved with the scene). One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[SetGroupsIn, SetGroupsOut]("cmd_scene_set_groups", editTimeout)),
			sdk.NewTool("set_editable_children", sdk.ToolOptions{
				Title:         "Editable Children of an instance",
				Description:   "Turns Editable Children of an instance on (default) or off, so edits inside it are saved with this scene. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[SetEditableChildrenIn, SetEditableChildrenOut]("cmd_scene_set_editable_children", editTimeout)),
			sdk.NewTool("select", sdk.ToolOptions{
				Title:         "Select nodes in the editor",
				Description:   "Sets (or adds to) the editor's selection of nodes in the edited scene. Not an undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[SelectIn, SelectOut]("cmd_scene_select", editTimeout)),
			sdk.NewTool("extract_branch", sdk.ToolOptions{
				Title: "Extract a branch to a scene",
				Description: "Saves a node and its children as a new .tscn and, by default, replaces them with an instance of it (one undo action; the file stays). " +
					"Lists the connections between the branch and the rest of the scene, which are dropped.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, edit[ExtractBranchIn, ExtractBranchOut]("cmd_scene_extract_branch", fileTimeout)),
			sdk.NewTool("batch", sdk.ToolOptions{
				Title:         "Several edits as one undo action",
				Description:   "Runs scene edits (steps [{tool, args}], tool an edit tool's short name, e.g. create_node) in order as ONE undo action, all or nothing: a failing step answers applied: false, aborted_at and error, and nothing changed. delete_node steps need confirm: true.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
				MayDestroy:    true,
			}, batch),
			callMethodTool(),
		},
	}
}

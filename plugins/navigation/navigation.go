// Package navigation is the built-in navigation toolset: NavigationRegion2D/3D
// with their NavigationPolygon/NavigationMesh baking settings, baking in the
// editor (one undo action, an empty bake refused with the reason), named
// navigation layers set on regions, agents and links, NavigationAgent2D/3D and
// NavigationLink2D/3D set-up, path queries on the baked data (in the editor,
// and in the running game through the runtime toolset's probe) and the
// navigation debug drawing of games run from the editor. Its editor side ships
// as GDScript in editor/, its game side (the game path query, run by the
// runtime probe) in game/. docs/navigation.md describes the behaviours and limits.
package navigation

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

// The game code (game/game.gd, "navigation:path"): the probe runs the game
// path query with it.
//
//go:embed game
var gameFiles embed.FS

var (
	connected   = []string{sdk.RequireBridgeConnected}
	sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}
)

// Toolset is the navigation toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "navigation",
		Version:        "0.1.0",
		Description:    "Navigation regions baked in the editor (polygon counts, why a bake is empty), agents, links, navigation layers by name, path queries with length (editor and running game), navigation debug drawing; all undoable.",
		Keywords:       []string{"NavigationRegion3D", "NavigationRegion2D", "NavigationMesh", "navmesh bake", "NavigationAgent", "NavigationLink", "pathfinding", "navigation layers"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		GameCode:       sdk.Subdir(gameFiles, "game"),
		Tools: []sdk.Tool{
			sdk.NewTool("get", sdk.ToolOptions{
				Title:         "Get navigation set-up",
				Description:   "The edited scene's navigation regions (baking settings, baked polygon and vertex counts), agents and links with their navigation layers, the project's named navigation layers and whether games draw navigation.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, get),
			sdk.NewTool("set_layers", sdk.ToolOptions{
				Title:         "Name and set navigation layers",
				Description:   "Names navigation layers (layer_names/2d_navigation, 3d_navigation in project.godot), then sets navigation_layers of regions, agents and links by names or numbers (set, add, remove); ONE undo action, all or nothing, did-you-mean for unknown names.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setLayers),
			sdk.NewTool("region", sdk.ToolOptions{
				Title:         "Create or configure a navigation region",
				Description:   "Creates a NavigationRegion2D/3D under parent, or updates node: what the bake parses (geometry, source_mode, source_group), agent size, cell size, 2D walkable outline, layers. ONE undo action. Bake it with godot_navigation_bake.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, region),
			sdk.NewTool("agent", sdk.ToolOptions{
				Title:         "Create or configure a navigation agent",
				Description:   "Creates a NavigationAgent2D/3D under parent (the body it steers), or updates node: radius, height, path and target desired distances, max_speed, avoidance, layers. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, agent),
			sdk.NewTool("link", sdk.ToolOptions{
				Title:         "Create or configure a navigation link",
				Description:   "Creates a NavigationLink2D/3D under parent, or updates node: start and end (local), bidirectional, enter/travel cost, enabled, layers. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, link),
			sdk.NewTool("bake", sdk.ToolOptions{
				Title:         "Bake a navigation region",
				Description:   "Bakes a region's NavigationMesh/NavigationPolygon in the editor from its source geometry; ONE undo action restores the previous data. Answers polygon and vertex counts; a bake with no polygon changes nothing and is refused with why (no source geometry, agent_radius or cell_size too large...).",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, bake),
			sdk.NewTool("path", sdk.ToolOptions{
				Title:         "Query a path (editor)",
				Description:   "The path between two global points over the edited scene's baked regions and links (a temporary NavigationServer map in the editor): points, length, straight-line distance, whether it reaches to.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, editorPath),
			sdk.NewTool("game_path", sdk.ToolOptions{
				Title:         "Query a path (running game)",
				Description:   "The path between two global points on the running game's own navigation map (root viewport's world), through the runtime toolset's probe: points, length, straight-line distance. Needs the runtime toolset and a game played with godot_runtime_play.",
				Safety:        sdk.Runtime,
				Preconditions: connected,
			}, gamePath),
			sdk.NewTool("debug", sdk.ToolOptions{
				Title:         "Navigation debug drawing",
				Description:   "Switches the editor's Debug > Visible Navigation for games run from the editor (they start with --debug-navigation and draw navigation meshes, links and agent paths; for godot_runtime_screenshot). ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, debug),
		},
	}
}

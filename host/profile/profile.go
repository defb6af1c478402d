// Package profile names sets of toolsets (profiles) and what the server
// knows of MCP clients: whether they re-read tools/list after
// notifications/tools/list_changed, how many tools they take, and the
// profile each one starts with. One table drives the server
// (GODOT_MCP_PROFILE, godot_enable_toolset {"profile"}, the default per
// client) and docs/clients.md.
package profile

import (
	"fmt"
	"strings"
)

// Profile is a named set of built-in toolsets.
type Profile struct {
	Name, Description string
	// Toolsets are built-in toolset names; nil for All (every known
	// toolset, third-party ones included).
	Toolsets []string
}

// All stands for every known toolset; None for none (GODOT_MCP_PROFILE).
const (
	All  = "all"
	None = "none"
)

// Profiles are the named profiles, smallest first.
var Profiles = []Profile{
	{Name: "minimal", Description: "build scenes and write scripts", Toolsets: []string{"scene", "scripts"}},
	{Name: "2d", Description: "make and play a 2D game: files, settings and input map, tile maps, animation", Toolsets: []string{"scene", "scripts", "resources", "project", "runtime", "tilemap", "animation"}},
	{Name: "3d", Description: "make and play a 3D game: files, settings, physics shapes and layers, shaders, animation", Toolsets: []string{"scene", "scripts", "resources", "project", "runtime", "physics", "shader", "animation"}},
	{Name: "world3d", Description: "dress a 3D world: environment and sky, lights, cameras, meshes and CSG, materials, particles, visual shaders, navigation", Toolsets: []string{"scene", "resources", "world", "material", "particles", "visual_shader", "navigation"}},
	{Name: "playtest", Description: "run, drive, step and debug the game, keep what it proved as tests; fix scripts", Toolsets: []string{"runtime", "playtest", "debugger", "diagnostics", "tests", "scripts"}},
	{Name: All, Description: "every toolset, third-party ones included"},
}

// Names lists the profile names.
func Names() []string {
	out := make([]string, len(Profiles))
	for i, p := range Profiles {
		out[i] = p.Name
	}
	return out
}

// Lookup finds a profile by name.
func Lookup(name string) (Profile, bool) {
	for _, p := range Profiles {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// Check accepts a profile name, or None.
func Check(name string) error {
	if name == None {
		return nil
	}
	if _, ok := Lookup(name); !ok {
		return fmt.Errorf("unknown profile %q: want %s or %s", name, strings.Join(Names(), ", "), None)
	}
	return nil
}

// Client is what the server knows of one MCP client.
type Client struct {
	// Name is the client as users know it.
	Name string
	// Match are lower-case substrings of the clientInfo.name it sends in
	// initialize.
	Match []string
	// IgnoresListChanged: it never re-reads tools/list after
	// notifications/tools/list_changed, so tools enabled later stay unseen.
	IgnoresListChanged bool
	// ToolCap is the most tools it takes (0: no known cap), and CapNote
	// what happens past it.
	ToolCap int
	CapNote string
	// Profile is enabled when it connects, unless the user chose the
	// toolsets enabled at start (GODOT_MCP_PROFILE or
	// GODOT_MCP_DEFAULT_TOOLSETS).
	Profile string
}

// Clients are the clients with known limits, the first match wins (Cursor
// before VS Code: Cursor's name may contain "vscode"); any other client
// starts with the core tools alone and enables toolsets as it needs them.
var Clients = []Client{
	{Name: "Codex", Match: []string{"codex"}, IgnoresListChanged: true, Profile: "2d"},
	{Name: "Antigravity", Match: []string{"antigravity"}, ToolCap: 100, CapNote: "refuses a server with more tools", Profile: "2d"},
	{Name: "Cursor", Match: []string{"cursor"}, ToolCap: 40, CapNote: "degrades past about that many tools", Profile: "minimal"},
	{Name: "VS Code (Copilot)", Match: []string{"visual studio code", "vscode"}, ToolCap: 128, CapNote: "sends at most that many tools per request", Profile: "2d"},
}

// ForClient finds the client whose clientInfo.name this is.
func ForClient(clientName string) (Client, bool) {
	n := strings.ToLower(clientName)
	for _, c := range Clients {
		for _, m := range c.Match {
			if strings.Contains(n, m) {
				return c, true
			}
		}
	}
	return Client{}, false
}

// Markdown renders the profiles and clients tables of docs/clients.md;
// counts are each profile's tool count with the core tools (nil: none shown).
func Markdown(counts map[string]int) string {
	var b strings.Builder
	b.WriteString("| profile | toolsets | tools (with the 8 core tools) | for |\n|---|---|---|---|\n")
	for _, p := range Profiles {
		ts := "every toolset, third-party ones included"
		if p.Toolsets != nil {
			ts = strings.Join(p.Toolsets, ", ")
		}
		n := "?"
		if c, ok := counts[p.Name]; ok {
			n = fmt.Sprint(c)
			if p.Toolsets == nil {
				n += " (built-in only)"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.Name, ts, n, p.Description)
	}
	b.WriteString("\n| client | clientInfo.name contains | sees tools enabled later | tool cap | profile enabled when it connects |\n|---|---|---|---|---|\n")
	for _, c := range Clients {
		sees := "yes"
		if c.IgnoresListChanged {
			sees = "**no**: ignores `notifications/tools/list_changed`"
		}
		cap := "none known"
		if c.ToolCap > 0 {
			cap = fmt.Sprintf("%d (%s)", c.ToolCap, c.CapNote)
		}
		match := make([]string, len(c.Match))
		for i, m := range c.Match {
			match[i] = "`" + m + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | `%s` |\n", c.Name, strings.Join(match, ", "), sees, cap, c.Profile)
	}
	b.WriteString("| any other | | yes | none known | none: the core tools alone |\n")
	return b.String()
}

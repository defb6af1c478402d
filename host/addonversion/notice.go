// Package addonversion compares the server's and the editor addon's versions.
package addonversion

import "fmt"

// Notice returns a human-and-agent readable notice when the connected addon's
// version differs from the server's, or "" when they match.
func Notice(server, addon string) string {
	if addon == "" {
		return "The connected editor did not report an addon version; reinstall the addon with `godot-mcp addon install --project DIR` so both halves come from the same release."
	}
	if addon == server {
		return ""
	}
	return fmt.Sprintf("Addon version %s differs from server version %s: run `godot-mcp addon install --project DIR` to install the matching addon, then re-enable the plugin in the editor.", addon, server)
}

// Package engines holds the Godot versions the built-in toolsets are proven
// on: the engines the real-editor e2e suite runs against in CI
// (host/buildinfo.TestedGodot, docs/godot-versions.md). Every built-in
// toolset declares these, so godot_list_toolsets says what the matrix
// proved and nothing more.
package engines

import "github.com/godot-mcp/godot-mcp/host/buildinfo"

const (
	// MinGodot is the oldest engine of the e2e matrix (4.4.1).
	MinGodot = buildinfo.MinTestedGodot
	// MaxTestedGodot is the newest engine of the e2e matrix (4.8-dev,
	// engine master of August 2026).
	MaxTestedGodot = buildinfo.MaxTestedGodot
)

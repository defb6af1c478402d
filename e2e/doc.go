// Package e2e proves godot-mcp against a real Godot 4 editor.
//
// The tests copy the sample project in testdata/project to a temporary
// directory, install the addon there (host/addoninstall), import it with
// `godot --headless --import`, open it with `godot --headless --editor` on an
// ephemeral bridge port, and drive the godot-mcp binary over stdio with a real
// MCP client. Everything the editor prints is kept; a test fails when it
// contains a SCRIPT ERROR or a Parse Error.
//
// Godot is found through GODOT_BIN, else `godot` on PATH. Without a Godot 4
// binary the suite prints one line saying why and passes without running:
//
//	go test ./e2e/...   (or: make e2e)
//
// The latency of godot_get_editor_state in a real editor is measured by
// BenchmarkEditorStateLatency (picked up by `make bench`) and, with exactly
// 200 sequential calls and the editor's idle CPU, by TestEditorStateLatency
// when E2E_BENCH=1:
//
//	E2E_BENCH=1 go test -count=1 -v -run TestEditorStateLatency ./e2e/
//
// The tests toolset's tests need copies of the GUT and gdUnit4 frameworks,
// which are not part of this repository: GODOT_MCP_TEST_GUT_DIR and
// GODOT_MCP_TEST_GDUNIT4_DIR name their addons/gut and addons/gdUnit4
// folders; a test whose variable is unset is skipped, saying so.
package e2e

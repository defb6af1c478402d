// Package e2e proves godot-mcp against a real Godot 4 editor.
//
// The tests copy the sample project in testdata/project to a temporary
// directory, install the addon there (host/projectfiles), import it with
// `godot --headless --import`, open it with `godot --headless --editor` on an
// ephemeral bridge port, and drive the godot-mcp binary over stdio with a real
// MCP client. Everything the editor prints is kept; a test fails when it
// contains a SCRIPT ERROR or a Parse Error, or an engine ERROR raised in a
// script of the addon or a toolset's editor code.
//
// The suite runs on one Godot engine per run: GODOT_BIN names it. `make test`
// and `make e2e` (tools/e2erun) run it once per engine found: GODOT_BINS (a
// list), GODOT_BIN (one or a list), else `godot` on PATH plus every
// ~/.cache/godot-mcp/engines/<version>/godot (docs/godot-versions.md). Each
// run prints "e2e: engine: LABEL PATH" first, and make test's last line
// counts each engine's run apart. Without a Godot 4 binary the suite prints
// one line saying why and how many tests did not run, and passes:
//
//	go test ./e2e/...   (first engine found)   make e2e   (every engine)
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
// folders, else ~/.cache/godot-mcp/frameworks/{gut,gdUnit4}/addons/<name>
// (docs/godot-versions.md); a test with neither is skipped, saying so.
package e2e

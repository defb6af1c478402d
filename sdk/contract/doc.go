// Package contract holds the small words of the godot-mcp contract once:
// the error codes and the error type, the precondition names, the safety
// classes and the MCP annotations they imply, the destructive_when
// condition grammar, the reserved argument names, the secret environment
// variable names and the contract version.
//
// The host (host/...), the SDK (sdk, sdk/sdktest), the plugin RPC
// (internal/pluginrpc), the plugin model (internal/plugmodel) and the fake
// editor (sdk/sdktest/fakeaddon) all use these definitions; none keeps a
// copy. host/envelope keeps only the editor's JSON frames.
//
// The package is a leaf: it imports nothing of this module (a test in
// internal/archtest checks it), so anything may import it. The string
// values here are wire values: changing one is a breaking change of the
// contract (docs/contract.md).
package contract

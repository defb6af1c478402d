// Package sdkhook connects package sdk to package sdk/sdktest without adding
// test-only API to sdk: sdk installs its constructor here in an init
// function, and sdktest calls it. Nothing outside this module can import it.
// The types a toolset is seen through are those of internal/plugmodel.
package sdkhook

import "github.com/godot-mcp/godot-mcp/internal/plugmodel"

// NewToolset validates an sdk.Toolset (passed as any) and returns it as the
// host sees a toolset, in-process (the SDK's registry; Setup it before
// calling). Package sdk sets it in init.
var NewToolset func(toolset any) (plugmodel.Toolset, error)

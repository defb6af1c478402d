// Package inproc lets the host build, in its own process, the toolset the
// SDK serves over gRPC (the SDK's validated registry), so that it reads a
// built-in toolset's description without starting its plugin. Package sdk
// sets NewToolset in an init function; sdk/internal/sdkhook does the same
// for sdk/sdktest, but only packages under sdk/ can import that one.
package inproc

import "github.com/godot-mcp/godot-mcp/internal/plugmodel"

// NewToolset validates an sdk.Toolset (passed as any) and returns it as the
// host sees a toolset (Setup it before calling it). Nil until package sdk
// is linked in.
var NewToolset func(toolset any) (plugmodel.Toolset, error)

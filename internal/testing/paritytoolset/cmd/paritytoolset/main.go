// Command paritytoolset serves the paritytoolset fixture as a plugin.
package main

import (
	"github.com/godot-mcp/godot-mcp/internal/testing/paritytoolset"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() { sdk.Serve(paritytoolset.Toolset()) }

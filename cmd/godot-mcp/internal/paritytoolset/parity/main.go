// Command parity serves paritytoolset as a plugin process.
package main

import (
	"github.com/godot-mcp/godot-mcp/cmd/godot-mcp/internal/paritytoolset"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() { sdk.Serve(paritytoolset.Toolset()) }

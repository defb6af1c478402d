// Package contract holds the compatibility numbers of the godot-mcp surface
// and the build version.
package contract

// ContractVersion is the newest client contract this server serves. Bump it
// only for breaking changes (see docs/contract.md).
const ContractVersion = 2

// MinCompatibleContract is the oldest client contract still served.
const MinCompatibleContract = 2

// Version is the CalVer build version (YYYY.MM.DD[.N]); overridden at link
// time with -ldflags "-X github.com/godot-mcp/godot-mcp/host/contract.Version=…".
var Version = "2026.11.29"

// MCPProtocolVersion is the MCP protocol revision the server prefers.
const MCPProtocolVersion = "2025-11-25"

// Package buildinfo holds the build version, the MCP protocol revision the
// server prefers and the Godot versions it is tested with. The contract
// version and the rest of the contract's words are in sdk/contract.
package buildinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is the CalVer build version (YYYY.MM.DD[.N]; a build from a commit
// says YYYY.MM.DD+hash, see tools/release); overridden at link
// time with -ldflags "-X github.com/godot-mcp/godot-mcp/host/buildinfo.Version=…".
var Version = "2026.11.29"

// MCPProtocolVersion is the MCP protocol revision the server prefers.
const MCPProtocolVersion = "2025-11-25"

// The Godot versions (major.minor) the real-editor e2e suite runs on in CI,
// oldest first: the built-in toolsets declare MinTestedGodot as their
// MinGodot and MaxTestedGodot as their newest tested version, and
// godot_get_server_info and doctor say whether the connected editor is one
// of these (docs/godot-versions.md).
const (
	MinTestedGodot = "4.4"
	MaxTestedGodot = "4.8"
)

// TestedGodot lists every tested version, MinTestedGodot to MaxTestedGodot.
var TestedGodot = []string{MinTestedGodot, MaxTestedGodot}

// GodotTested says whether a Godot version string ("4.8.dev.custom_build",
// "4.4.1.stable") is of a tested major.minor, and a sentence for a person.
func GodotTested(version string) (bool, string) {
	mm := majorMinor(version)
	if mm == "" {
		return false, fmt.Sprintf("Godot %q is not a version godot-mcp knows; tested: %s", version, strings.Join(TestedGodot, ", "))
	}
	for _, v := range TestedGodot {
		if v == mm {
			return true, fmt.Sprintf("Godot %s is tested (the e2e suite runs on %s)", mm, strings.Join(TestedGodot, ", "))
		}
	}
	if lessVersion(mm, MinTestedGodot) {
		return false, fmt.Sprintf("Godot %s is older than any tested version (%s); the toolsets need %s or newer", mm, strings.Join(TestedGodot, ", "), MinTestedGodot)
	}
	return false, fmt.Sprintf("Godot %s is not tested (tested: %s); it is expected to work, report what does not", mm, strings.Join(TestedGodot, ", "))
}

// majorMinor is "4.8" of "4.8.dev.custom_build", "" when there is none.
func majorMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return ""
	}
	for _, p := range parts[:2] {
		if _, err := strconv.Atoi(p); err != nil || p == "" {
			return ""
		}
	}
	return parts[0] + "." + parts[1]
}

// lessVersion compares two major.minor versions.
func lessVersion(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 2; i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x < y
		}
	}
	return false
}

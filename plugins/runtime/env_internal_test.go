package runtime

import (
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
)

// The runtime's list of secrets is the server's.
func TestSecretEnvMatchesTheServer(t *testing.T) {
	want := config.SecretEnv()
	got := slices.Clone(secretEnv)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("plugins/runtime scrubs %v from games; host/config's secrets are %v", got, want)
	}
	env := gameEnv([]string{"HOME=/h", "GODOT_MCP_AUTH_TOKEN=a", "GODOT_MCP_BRIDGE_TOKEN=b", "GODOT_MCP_APPROVAL_URL=c", "GODOT_MCP_PLUGIN=cookie", "PLUGIN_MIN_PORT=1", "GODOT_MCP_PROJECT_DIR=/p"})
	if !slices.Equal(env, []string{"HOME=/h", "GODOT_MCP_PROJECT_DIR=/p"}) {
		t.Fatalf("game env %v", env)
	}
}

package runtime

import (
	"slices"
	"testing"
)

// A game gets neither the server's secrets nor the plugin handshake's variables.
func TestGameEnvHasNoSecrets(t *testing.T) {
	env := gameEnv([]string{"HOME=/h", "GODOT_MCP_AUTH_TOKEN=a", "GODOT_MCP_BRIDGE_TOKEN=b", "GODOT_MCP_APPROVAL_URL=c", "GODOT_MCP_PLUGIN=cookie", "PLUGIN_MIN_PORT=1", "GODOT_MCP_PROJECT_DIR=/p"})
	if !slices.Equal(env, []string{"HOME=/h", "GODOT_MCP_PROJECT_DIR=/p"}) {
		t.Fatalf("game env %v", env)
	}
}

package contract

// SecretEnv are the server's secret environment variables: never logged,
// never passed to a child process (toolset plugins, games, headless Godot).
var SecretEnv = []string{"GODOT_MCP_BRIDGE_TOKEN", "GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_APPROVAL_URL"}

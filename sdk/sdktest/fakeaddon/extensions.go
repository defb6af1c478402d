package fakeaddon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// The real addon's cmd_ext_load / cmd_ext_unload (addon/command_router.gd),
// faked over the hello's project_dir: a load reads the folder's
// .godot_mcp_stamp.json and reports its version; both push the table.
const (
	cmdExtLoad   = "cmd_ext_load"
	cmdExtUnload = "cmd_ext_unload"
)

var prefixRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

type extParams struct {
	Prefix string `json:"prefix"`
}

func (a *Addon) extLoad(ctx context.Context, raw json.RawMessage) (any, *envelope.Error) {
	var p extParams
	if err := json.Unmarshal(raw, &p); err != nil || !prefixRE.MatchString(p.Prefix) {
		return nil, envelope.Errorf(envelope.ValidationError, "prefix must be a toolset name.")
	}
	dir := filepath.Join(a.projectDir, "addons", "godot_mcp_ext", p.Prefix)
	if _, err := os.Stat(filepath.Join(dir, "handlers.gd")); err != nil {
		return nil, envelope.Errorf(envelope.ResourceNotFound, "There is no res://addons/godot_mcp_ext/%s/handlers.gd.", p.Prefix)
	}
	var stamp struct {
		Version string `json:"version"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".godot_mcp_stamp.json")); err == nil {
		_ = json.Unmarshal(b, &stamp)
	}
	a.mu.Lock()
	a.extensions[p.Prefix] = stamp.Version
	a.mu.Unlock()
	if err := a.pushTable(ctx); err != nil {
		return nil, envelope.Errorf(envelope.InternalError, "push: %v", err)
	}
	return map[string]any{"prefix": p.Prefix, "version": stamp.Version, "commands": []string{}}, nil
}

func (a *Addon) extUnload(ctx context.Context, raw json.RawMessage) (any, *envelope.Error) {
	var p extParams
	if err := json.Unmarshal(raw, &p); err != nil || !prefixRE.MatchString(p.Prefix) {
		return nil, envelope.Errorf(envelope.ValidationError, "prefix must be a toolset name.")
	}
	a.mu.Lock()
	_, was := a.extensions[p.Prefix]
	delete(a.extensions, p.Prefix)
	a.mu.Unlock()
	if err := a.pushTable(ctx); err != nil {
		return nil, envelope.Errorf(envelope.InternalError, "push: %v", err)
	}
	return map[string]any{"prefix": p.Prefix, "unloaded": was}, nil
}

// Extensions is the extension folders the fake editor has loaded and
// their versions.
func (a *Addon) Extensions() map[string]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]string, len(a.extensions))
	for k, v := range a.extensions {
		out[k] = v
	}
	return out
}

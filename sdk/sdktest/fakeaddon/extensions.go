package fakeaddon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// The real addon's cmd_ext_load / cmd_ext_unload (addon/command_router.gd),
// faked over the hello's project_dir: a load reads the folder's
// .godot_mcp_stamp.json, reports its version and declares the commands its
// .gd files declare (ParseCommands; only cmd_<toolset>_* ones, as the real
// router keeps); an unload drops them; both push the table.
const (
	cmdExtLoad   = "cmd_ext_load"
	cmdExtUnload = "cmd_ext_unload"
)

var prefixRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

type extParams struct {
	Prefix string `json:"prefix"`
}

func (a *Addon) extLoad(ctx context.Context, raw json.RawMessage) (any, *contract.Error) {
	var p extParams
	if err := json.Unmarshal(raw, &p); err != nil || !prefixRE.MatchString(p.Prefix) {
		return nil, contract.Errorf(contract.ValidationError, "prefix must be a toolset name.")
	}
	dir := filepath.Join(a.projectDir, "addons", "godot_mcp_ext", p.Prefix)
	if _, err := os.Stat(filepath.Join(dir, "handlers.gd")); err != nil {
		// A folder with game code only loads with no commands (as the real router does).
		if _, gerr := os.Stat(filepath.Join(dir, "game", "game.gd")); gerr != nil {
			return nil, contract.Errorf(contract.ResourceNotFound, "There is no res://addons/godot_mcp_ext/%s/handlers.gd.", p.Prefix)
		}
	}
	var stamp struct {
		Version string `json:"version"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".godot_mcp_stamp.json")); err == nil {
		_ = json.Unmarshal(b, &stamp)
	}
	declared, err := ParseCommands(os.DirFS(dir), p.Prefix)
	if err != nil {
		return nil, contract.Precondition("toolset_editor_code", fmt.Sprintf("res://addons/godot_mcp_ext/%s/: %v.", p.Prefix, err))
	}
	names := []string{}
	a.mu.Lock()
	a.dropExtLocked(p.Prefix)
	next := make(map[string]envelope.CommandInfo, len(a.commands)+len(declared))
	for k, v := range a.commands {
		next[k] = v
	}
	for k, v := range declared {
		if _, taken := next[k]; taken || !strings.HasPrefix(k, "cmd_"+p.Prefix+"_") {
			continue
		}
		next[k] = v
		names = append(names, k)
	}
	sort.Strings(names)
	a.commands = next
	a.extCommands[p.Prefix] = names
	a.extensions[p.Prefix] = stamp.Version
	a.mu.Unlock()
	if err := a.pushTable(ctx); err != nil {
		return nil, contract.Errorf(contract.InternalError, "push: %v", err)
	}
	return map[string]any{"prefix": p.Prefix, "version": stamp.Version, "commands": names}, nil
}

func (a *Addon) extUnload(ctx context.Context, raw json.RawMessage) (any, *contract.Error) {
	var p extParams
	if err := json.Unmarshal(raw, &p); err != nil || !prefixRE.MatchString(p.Prefix) {
		return nil, contract.Errorf(contract.ValidationError, "prefix must be a toolset name.")
	}
	a.mu.Lock()
	_, was := a.extensions[p.Prefix]
	a.dropExtLocked(p.Prefix)
	delete(a.extensions, p.Prefix)
	a.mu.Unlock()
	if err := a.pushTable(ctx); err != nil {
		return nil, contract.Errorf(contract.InternalError, "push: %v", err)
	}
	return map[string]any{"prefix": p.Prefix, "unloaded": was}, nil
}

// dropExtLocked forgets the commands extension prefix declared. Caller
// holds a.mu.
func (a *Addon) dropExtLocked(prefix string) {
	names := a.extCommands[prefix]
	if len(names) == 0 {
		return
	}
	next := make(map[string]envelope.CommandInfo, len(a.commands))
	for k, v := range a.commands {
		next[k] = v
	}
	for _, k := range names {
		delete(next, k)
	}
	a.commands = next
	delete(a.extCommands, prefix)
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

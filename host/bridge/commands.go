package bridge

import (
	"encoding/json"
	"log/slog"
	"sort"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// The editor's command table: every command the connected editor's router
// serves, with its class, as the editor declared it in cmd_editor_hello and
// again in cmd_editor_commands pushes (after an extension loads). The host
// holds toolsets to it (host/pluginhost); it is never a hand-kept list.

// cleanCommands keeps the well-formed entries of a declared table; the
// others are logged and dropped, so an undeclared command is refused.
func cleanCommands(log *slog.Logger, table map[string]envelope.CommandInfo) map[string]envelope.CommandInfo {
	out := make(map[string]envelope.CommandInfo, len(table))
	var bad []string
	for name, info := range table {
		if name == "" || !contract.Class(info.Class).Valid() || info.Owner == "" {
			bad = append(bad, name)
			continue
		}
		out[name] = info
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		log.Warn("the editor declared commands without a valid class or owner; toolsets may not send them", "commands", bad)
	}
	return out
}

// updateCommands replaces the peer's table with a cmd_editor_commands push.
func (p *peer) updateCommands(params json.RawMessage) {
	var msg envelope.EditorCommands
	if err := json.Unmarshal(params, &msg); err != nil || msg.Commands == nil {
		p.b.log.Warn("ignored a malformed cmd_editor_commands push from the editor", "err", err)
		return
	}
	table := cleanCommands(p.b.log, msg.Commands)
	p.commands.Store(&table)
	if msg.Extensions != nil {
		exts := msg.Extensions
		p.extensions.Store(&exts)
	}
	p.b.log.Debug("the editor's command table changed", "commands", len(table))
}

// Command looks command up in the connected editor's command table. ok is
// false when the editor does not declare it. Without an editor, err is the
// BRIDGE_DISCONNECTED failure a Send would answer.
func (b *Bridge) Command(command string) (info envelope.CommandInfo, ok bool, err *contract.Error) {
	p := b.activePeer()
	if p == nil {
		return envelope.CommandInfo{}, false, b.notConnected(command)
	}
	table := *p.commands.Load()
	info, ok = table[command]
	return info, ok, nil
}

// Commands is a copy of the connected editor's command table (nil without
// an editor).
func (b *Bridge) Commands() map[string]envelope.CommandInfo {
	p := b.activePeer()
	if p == nil {
		return nil
	}
	table := *p.commands.Load()
	out := make(map[string]envelope.CommandInfo, len(table))
	for k, v := range table {
		out[k] = v
	}
	return out
}

// Extensions is a copy of the toolset extensions the connected editor
// reports loaded (folder name -> version), and the editor's project
// directory; ok is false without an editor.
func (b *Bridge) Extensions() (exts map[string]string, projectDir string, ok bool) {
	p := b.activePeer()
	if p == nil {
		return nil, "", false
	}
	out := map[string]string{}
	for k, v := range *p.extensions.Load() {
		out[k] = v
	}
	return out, p.info.ProjectDir, true
}

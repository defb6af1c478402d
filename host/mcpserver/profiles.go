package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file fits the server to its client (host/profile): the profile a
// known client gets when it connects, and what godot_enable_toolset tells
// an agent whose client will not show the new tools or caps how many it
// takes.

// clientStartWait bounds how long the first requests of a client that got
// its profile wait for it (see HoldUntil): as long as startWait, because a
// client that ignores tools/list_changed sees only what its first
// tools/list holds.
const clientStartWait = startWait

// ProfileToolsets are the toolsets of a profile; All is every known one.
func (s *Server) ProfileToolsets(ctx context.Context, name string) ([]string, *contract.Error) {
	p, ok := profile.Lookup(name)
	if !ok {
		return nil, contract.Errorf(contract.ValidationError, "Unknown profile %q; profiles: %s (godot_list_toolsets lists the toolsets to name instead).", name, strings.Join(profile.Names(), ", "))
	}
	if p.Toolsets == nil {
		return s.expandToolsets(ctx, []string{AllToolsets}), nil
	}
	return slices.Clone(p.Toolsets), nil
}

// clientName is the clientInfo.name of the session ctx belongs to.
func clientName(ctx context.Context) string {
	if sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return sess.GetClientInfo().Name
	}
	return ""
}

// clientOf is the known client of the session ctx belongs to.
func clientOf(ctx context.Context) (profile.Client, bool) { return profile.ForClient(clientName(ctx)) }

// startClientProfile is an after-initialize hook: a known client gets its
// profile enabled (once per server; the enabled toolsets are shared by
// every session), unless the user chose the toolsets enabled at start.
// Requests that depend on them wait until they are (HoldUntil), so the
// client's first tools/list holds them.
func (s *Server) startClientProfile(_ context.Context, _ any, req *mcp.InitializeRequest, _ *mcp.InitializeResult) {
	if req == nil || s.toolsets == nil || s.cfg.ChoseStartToolsets() {
		return
	}
	c, ok := profile.ForClient(req.Params.ClientInfo.Name)
	if !ok || c.Profile == "" {
		return
	}
	s.clientProfileOnce.Do(func() {
		names, err := s.ProfileToolsets(context.Background(), c.Profile)
		if err != nil {
			s.log.Error("the client's profile cannot be enabled", "client", c.Name, "profile", c.Profile, "err", err.Hint)
			return
		}
		ready := make(chan struct{})
		s.holdUntil(ready, clientStartWait)
		s.log.Info("enabling the client's profile", "client", c.Name, "profile", c.Profile, "toolsets", names)
		go func() {
			defer close(ready)
			var wg sync.WaitGroup
			for _, name := range names {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := s.EnableToolset(context.Background(), name); err != nil {
						s.log.Error("a toolset of the client's profile could not be enabled", "client", c.Name, "profile", c.Profile, "toolset", name, "err", err.Hint)
					}
				}()
			}
			wg.Wait()
		}()
	})
}

// clientNote says what the calling client does with the tools just
// enabled, when it is known to miss them or to cap how many it takes ("":
// nothing to say).
func (s *Server) clientNote(ctx context.Context, changed bool) string {
	c, ok := clientOf(ctx)
	if !ok {
		return ""
	}
	var notes []string
	if c.IgnoresListChanged && changed {
		enabled := s.toolsets.Enabled()
		notes = append(notes, fmt.Sprintf("Your client (%s) does not re-read tools/list after notifications/tools/list_changed, so the tools just enabled will not appear in its tool list. "+
			"Call them by their exact names (listed in tools; the resource godot://tool/{name} gives each one's input schema) if your client lets you call a tool it did not list; "+
			"otherwise ask the user to restart the client with %s in the server's environment, which lists them from the start.", c.Name, startSetting(enabled)))
	}
	if c.ToolCap > 0 {
		s.mu.RLock()
		n := len(s.tools)
		s.mu.RUnlock()
		if n > c.ToolCap {
			notes = append(notes, fmt.Sprintf("Your client (%s) takes at most %d tools (it %s); %d are served now. Disable the toolsets you do not need with godot_disable_toolset.", c.Name, c.ToolCap, c.CapNote, n))
		}
	}
	return strings.Join(notes, " ")
}

// startSetting is the setting that enables these toolsets at start: the
// smallest profile holding them all, else their list.
func startSetting(enabled []string) string {
	for _, p := range profile.Profiles {
		if p.Toolsets == nil {
			continue
		}
		all := true
		for _, e := range enabled {
			all = all && slices.Contains(p.Toolsets, e)
		}
		if all {
			return "GODOT_MCP_PROFILE=" + p.Name
		}
	}
	return "GODOT_MCP_DEFAULT_TOOLSETS=" + strings.Join(enabled, ",")
}

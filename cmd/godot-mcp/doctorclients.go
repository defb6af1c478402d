package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/internal/nolinks"
)

// clientConfig is one client config file doctor looked at.
type clientConfig struct {
	client  setupClient
	path    string
	project bool
}

// checkClients: the MCP clients' configs that name godot-mcp point at this
// binary (or at npx, when it runs from the npm package), and what the
// server knows of each client's limits. With only set, that client's
// config must have the entry.
func checkClients(r *doctorReport, project, only, name string) {
	want, err := selfLaunch()
	if err != nil {
		r.warn("clients", "this binary's path is unknown: "+err.Error(), "")
		return
	}
	var configs []clientConfig
	for _, c := range setupClientTable {
		if only != "" && c.name != only {
			continue
		}
		if project != "" && c.project != nil {
			configs = append(configs, clientConfig{c, c.project(project), true})
		}
		if p, err := c.user(); err == nil {
			configs = append(configs, clientConfig{c, p, false})
		}
	}
	found := map[string]bool{}
	for _, cc := range configs {
		what := "client " + cc.client.name
		doc, err := readClientConfig(cc, project)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			r.warn(what, fmt.Sprintf("%s could not be read: %v", cc.path, err), "")
			continue
		}
		entries, err := clientEntries(cc.client, doc, name)
		if err != nil {
			r.warn(what, fmt.Sprintf("%s: %v", cc.path, err), "fix the file; `godot-mcp setup "+cc.client.name+" --dry-run` shows what it would write")
			continue
		}
		for entryName, l := range entries {
			found[cc.client.name] = true
			fix := "godot-mcp setup " + cc.client.name
			if cc.project {
				fix += " --project " + shellQuote(project)
			}
			if entryName != name {
				fix += " --name " + shellQuote(entryName)
			}
			got := strings.Join(append([]string{l.Command}, l.Args...), " ")
			switch {
			case sameLaunch(l, want):
				r.ok(what, fmt.Sprintf("%s: %q runs this godot-mcp (%s); %s", cc.path, entryName, got, clientLimits(cc.client)))
			case want.Command == "npx" || want.Command == "cmd":
				r.warn(what, fmt.Sprintf("%s: %q runs %s, not this godot-mcp from the npm package (%s)", cc.path, entryName, got, strings.Join(append([]string{want.Command}, want.Args...), " ")), fix)
			default:
				detail := fmt.Sprintf("%s: %q runs %s, not this binary (%s)", cc.path, entryName, got, want.Command)
				if l.Command != "npx" && l.Command != "cmd" {
					if _, err := os.Stat(l.Command); err != nil {
						detail += "; that file does not exist"
						if only != "" {
							r.fail(what, detail, fix)
							continue
						}
					}
				}
				r.warn(what, detail, fix)
			}
		}
	}
	if only != "" && !found[only] {
		paths := []string{}
		for _, cc := range configs {
			paths = append(paths, cc.path)
		}
		r.fail("client "+only, fmt.Sprintf("no server entry for godot-mcp in %s", strings.Join(paths, " or ")), "godot-mcp setup "+only)
		return
	}
	if len(found) == 0 {
		r.skip("clients", "no MCP client config that setup knows names godot-mcp (godot-mcp setup CLIENT adds it)")
	}
}

func readClientConfig(cc clientConfig, project string) ([]byte, error) {
	if !cc.project {
		return os.ReadFile(cc.path)
	}
	d, err := nolinks.Open(project)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	rel, err := filepath.Rel(project, cc.path)
	if err != nil {
		return nil, err
	}
	return d.ReadFile(filepath.ToSlash(rel))
}

// clientEntries are the entries of a client config that run godot-mcp: the
// one named name, and any whose command is a godot-mcp binary or npx
// godot-mcp.
func clientEntries(c setupClient, doc []byte, name string) (map[string]launch, error) {
	keys := [][]string{c.key}
	if c.shape == shapeOpenCode {
		keys = append(keys, []string{"mcp", "servers"})
	}
	out := map[string]launch{}
	for _, key := range keys {
		servers, err := configServers(c.format, doc, key)
		if err != nil {
			return nil, err
		}
		for n, raw := range servers {
			l, err := c.launchOf(raw)
			if err != nil || l.Command == "" {
				continue
			}
			base := strings.TrimSuffix(filepath.Base(l.Command), ".exe")
			if n == name || base == "godot-mcp" || slices.Contains(l.Args, npmLauncherName) || slices.ContainsFunc(l.Args, func(a string) bool { return strings.HasPrefix(a, npmLauncherName+"@") }) {
				out[n] = l
			}
		}
	}
	return out, nil
}

func sameLaunch(a, b launch) bool {
	if a.Command != b.Command {
		if ap, err := filepath.EvalSymlinks(a.Command); err != nil || ap != b.Command {
			return false
		}
	}
	if b.Command == "npx" || b.Command == "cmd" {
		return slices.Equal(a.Args, b.Args)
	}
	return true
}

// clientLimits is what the server knows of the client, and the profile it
// starts with.
func clientLimits(c setupClient) string {
	for _, pc := range profile.Clients {
		if pc.Name != c.limits {
			continue
		}
		var what []string
		if pc.IgnoresListChanged {
			what = append(what, "ignores tools/list_changed (toolsets enabled later stay unseen)")
		}
		if pc.ToolCap > 0 {
			what = append(what, fmt.Sprintf("tool cap %d (%s)", pc.ToolCap, pc.CapNote))
		}
		return fmt.Sprintf("%s %s: starts with profile %q (GODOT_MCP_PROFILE in its env picks another)", c.display, strings.Join(what, ", "), pc.Profile)
	}
	return c.display + ": no known tool cap, sees toolsets enabled later: starts with the core tools and enables toolsets as it needs them (GODOT_MCP_PROFILE picks a profile)"
}

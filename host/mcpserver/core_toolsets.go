package mcpserver

// The core tools that list, enable and disable toolsets.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

func (s *Server) listToolsets(ctx context.Context) []ToolsetStatus {
	if s.toolsets == nil {
		return []ToolsetStatus{}
	}
	list := s.toolsets.List(ctx)
	// A built-in toolset whose plugin has not described itself (yet, or it
	// failed to start) still says what the host binary declares of it.
	for i := range list {
		st := &list[i]
		if !st.BuiltIn || st.Version != "" {
			continue
		}
		for _, b := range s.builtins {
			if b.Name == st.Name {
				st.Description, st.Keywords, st.Version, st.MinGodot, st.MaxTested, st.ToolCount =
					b.Description, b.Keywords, b.Version, b.MinGodot, b.MaxTestedGodot, len(b.Tools)
			}
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

func (s *Server) unknownToolset(ctx context.Context, name string) *contract.Error {
	var names []string
	for _, t := range s.listToolsets(ctx) {
		names = append(names, t.Name)
	}
	known := "none are installed"
	if len(names) > 0 {
		known = "known toolsets: " + strings.Join(names, ", ")
	}
	return contract.Errorf(contract.ValidationError, "Unknown toolset %q; %s. Call godot_list_toolsets to see them.", name, known)
}

func (s *Server) findToolset(ctx context.Context, name string) (ToolsetStatus, bool) {
	if one, ok := s.toolsets.(toolsetStatuser); ok {
		return one.Status(name) // without waiting on the other toolsets' descriptions
	}
	for _, t := range s.listToolsets(ctx) {
		if t.Name == name {
			return t, true
		}
	}
	return ToolsetStatus{}, false
}

func (s *Server) enableToolset(ctx context.Context, _ *sdk.Call, in EnableArgs) (EnableResult, error) {
	var names []string
	given := 0
	for _, set := range []bool{in.Name != "", len(in.Names) > 0, in.Profile != ""} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return EnableResult{}, contract.Errorf(contract.ValidationError, "Give one of name (one toolset), names (several) or profile, not more.")
	case in.Profile != "":
		var perr *contract.Error
		if names, perr = s.ProfileToolsets(ctx, in.Profile); perr != nil {
			return EnableResult{}, perr
		}
	case in.Name != "":
		names = []string{in.Name}
	case len(in.Names) > 0:
		names = in.Names
	default:
		return EnableResult{}, contract.Errorf(contract.ValidationError, "Give name (a toolset, or all), names (several toolsets) or profile (minimal, 2d, 3d, world3d, playtest, all); godot_list_toolsets lists the toolsets.")
	}
	names = s.expandToolsets(ctx, names)
	outs, err := s.enable(ctx, names...)
	if err != nil {
		return EnableResult{}, err
	}
	res := EnableResult{Toolsets: []ToolsetStatus{}, Tools: []string{}, AlreadyEnabled: true}
	for i, out := range outs {
		for _, t := range out.Tools {
			res.Tools = append(res.Tools, t.Def.Name)
		}
		st, _ := s.findToolset(ctx, names[i])
		res.Toolsets = append(res.Toolsets, st)
		res.AlreadyEnabled = res.AlreadyEnabled && out.AlreadyEnabled
		if out.Restarted != "" {
			res.Restarted = append(res.Restarted, names[i]+": "+out.Restarted)
		}
	}
	sort.Strings(res.Tools)
	if len(names) == 1 && in.Profile == "" && in.Name != AllToolsets && (len(in.Names) == 0 || in.Names[0] != AllToolsets) {
		res.Toolset = &res.Toolsets[0]
	}
	res.ClientNote = s.clientNote(ctx, !res.AlreadyEnabled)
	return res, nil
}

// expandToolsets replaces "all" by every known toolset and drops repeats.
func (s *Server) expandToolsets(ctx context.Context, names []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range names {
		if n != AllToolsets {
			add(n)
			continue
		}
		for _, st := range s.listToolsets(ctx) {
			add(st.Name)
		}
	}
	return out
}

// EnableToolset enables a toolset as godot_enable_toolset does (used for
// GODOT_MCP_DEFAULT_TOOLSETS at start).
func (s *Server) EnableToolset(ctx context.Context, name string) *contract.Error {
	_, err := s.enable(ctx, name)
	return err
}

// enable enables the named toolsets, all or nothing, and serves their tools,
// resources and prompts with one change each (one tools/list_changed).
func (s *Server) enable(ctx context.Context, names ...string) ([]EnableOutcome, *contract.Error) {
	for _, name := range names {
		if _, ok := s.findToolset(ctx, name); !ok || s.toolsets == nil {
			return nil, s.unknownToolset(ctx, name)
		}
	}
	godot := ""
	if st := s.bridge.Status(); st.Peer != nil {
		godot = st.Peer.GodotVersion
	}
	// The toolsets' state and the served tools change together: a disable
	// racing this enable waits, so it never runs between the two. Locks
	// are taken in name order, so two multi-toolset enables never deadlock.
	locked := append([]string(nil), names...)
	sort.Strings(locked)
	for _, name := range locked {
		unlock := s.lockToolset(name)
		defer unlock()
	}
	// An enabled toolset whose executable changed is stopped here and
	// enabled again below from the new file (an untrusted one is refused
	// first, and nothing is stopped).
	restarted := map[string]string{}
	if ch, ok := s.toolsets.(toolsetChanges); ok {
		for _, name := range names {
			what, err := ch.Changed(name)
			if err != nil {
				return nil, err
			}
			if what != "" {
				restarted[name] = what
			}
		}
	}
	for name := range restarted {
		out, err := s.toolsets.Disable(ctx, name)
		if err != nil {
			return nil, err
		}
		s.RemoveTools(s.toolsOf(name, out.RemovedTools)...)
		s.RemoveResources(s.resourcesOf(name, out.RemovedResources)...)
		s.RemovePrompts(s.promptsOf(name, out.RemovedPrompts)...)
	}
	outs := make([]EnableOutcome, 0, len(names))
	var started []string // enabled by this call, disabled again on failure
	// A stager installs the toolsets' editor code only once the whole set
	// is accepted (names, resources), so a refused set leaves the project
	// and the editor as they were (#24.10).
	stager, staged := s.toolsets.(toolsetStager)
	installed := map[string]bool{}
	rollback := func() {
		for _, n := range started {
			if staged && !installed[n] {
				stager.AbortStaged(ctx, n)
				continue
			}
			_, _ = s.toolsets.Disable(ctx, n)
		}
	}
	var tools []Tool
	var content EnableOutcome
	for _, name := range names {
		enable := s.toolsets.Enable
		if staged {
			enable = stager.EnableStaged
		}
		out, err := enable(ctx, name, godot)
		if err != nil {
			rollback()
			if len(names) > 1 {
				err = &contract.Error{Code: err.Code, Required: err.Required,
					Hint: fmt.Sprintf("Toolset %q cannot be enabled: %s Nothing was enabled; enable the others by name (%s).", name, strings.TrimSpace(err.Hint), strings.Join(without(names, name), ", "))}
			}
			if len(restarted) > 0 {
				stopped := make([]string, 0, len(restarted))
				for n := range restarted {
					stopped = append(stopped, n)
				}
				sort.Strings(stopped)
				err.Hint = strings.TrimSpace(err.Hint) + fmt.Sprintf(" %s had a new executable and was stopped to restart from it, so it is disabled now.", strings.Join(stopped, ", "))
			}
			return nil, err
		}
		out.Restarted = restarted[name]
		outs = append(outs, out)
		if !out.AlreadyEnabled {
			started = append(started, name)
			tools = append(tools, out.Tools...)
			content.Resources = append(content.Resources, out.Resources...)
			content.Prompts = append(content.Prompts, out.Prompts...)
		}
	}
	if len(started) == 0 {
		return outs, nil
	}
	which := strings.Join(started, ", ")
	if aerr := s.AddTools(tools...); aerr != nil {
		rollback()
		var taken *NameTakenError
		if errors.As(aerr, &taken) {
			return nil, contract.Errorf(contract.ValidationError,
				"Toolset %s cannot be enabled: %v. Tool names are godot_<toolset>_<tool> and are never taken over; "+
					"disable the other toolset first, or ask the toolset's author to rename it (its executable's name).", which, aerr)
		}
		return nil, contract.Errorf(contract.InternalError, "toolset %s declared a tool the host cannot serve: %v. Report this to the toolset's author.", which, aerr)
	}
	if cerr := s.addContent(content); cerr != nil {
		s.RemoveTools(servedToolNames(tools)...)
		rollback()
		var taken *ResourceTakenError
		if errors.As(cerr, &taken) {
			return nil, contract.Errorf(contract.ValidationError,
				"Toolset %s cannot be enabled: %v. Resources are never shadowed; disable the other toolset first, or ask the toolset's author to change the URI.", which, cerr)
		}
		return nil, contract.Errorf(contract.InternalError, "toolset %s cannot be served: %v. Disable the other toolset first, or report this to the toolset's author.", which, cerr)
	}
	if staged {
		for _, name := range started {
			if err := stager.InstallEditorCode(ctx, name); err != nil {
				s.RemoveTools(servedToolNames(tools)...)
				s.removeContent(content)
				rollback()
				if len(names) > 1 {
					err.Hint = strings.TrimSpace(err.Hint) + " Nothing was enabled; enable the others by name (" + strings.Join(without(names, name), ", ") + ")."
				}
				return nil, err
			}
			installed[name] = true
		}
	}
	s.bridge.PushToolsets(s.toolsets.Enabled())
	return outs, nil
}

func without(names []string, drop string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n != drop {
			out = append(out, n)
		}
	}
	return out
}

// lockToolset serializes enabling and disabling one toolset (the plugin's
// state and the served tools); other toolsets are not held up.
func (s *Server) lockToolset(name string) (unlock func()) {
	mu, _ := s.toolsetLocks.LoadOrStore(name, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock
}

func (s *Server) disableToolset(ctx context.Context, _ *sdk.Call, in ToolsetName) (DisableResult, error) {
	if _, ok := s.findToolset(ctx, in.Name); !ok || s.toolsets == nil {
		return DisableResult{}, s.unknownToolset(ctx, in.Name)
	}
	unlock := s.lockToolset(in.Name)
	out, err := s.toolsets.Disable(ctx, in.Name)
	if err != nil {
		unlock()
		return DisableResult{}, err
	}
	out.RemovedTools = s.toolsOf(in.Name, out.RemovedTools)
	s.RemoveTools(out.RemovedTools...)
	s.RemoveResources(s.resourcesOf(in.Name, out.RemovedResources)...)
	s.RemovePrompts(s.promptsOf(in.Name, out.RemovedPrompts)...)
	unlock()
	if !out.AlreadyDisabled {
		s.bridge.PushToolsets(s.toolsets.Enabled())
	}
	sort.Strings(out.RemovedTools)
	if out.RemovedTools == nil {
		out.RemovedTools = []string{}
	}
	st, _ := s.findToolset(ctx, in.Name)
	return DisableResult{Toolset: st, RemovedTools: out.RemovedTools, AlreadyDisabled: out.AlreadyDisabled, Notes: out.Notes}, nil
}

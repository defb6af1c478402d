package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/profile"
)

// This file writes the server's instructions: the one text a client loads
// at start besides tool names (Claude Code defers tool schemas and reads
// only these), so it maps the whole surface. Every toolset is listed from
// its own declaration (description and keywords, sdk.Toolset), built-in
// and third-party alike, never from a hand-kept list.
//
// Claude Code keeps only the first 2,048 characters of a server's
// instructions (its MCP docs; "… [truncated]"), so the text has two parts.
// The first, within InstructionsHeadBudget, is what every client reads:
// what the server is, how to enable toolsets, and an index naming every
// toolset with its first search words (as many as fit), third-party ones
// too (by name when their words do not fit). The second, read by clients
// that keep everything: profiles, conventions, guides, skills, and each
// toolset's description with all its search words, within
// InstructionsBudget whatever third-party toolsets are installed.

// InstructionsHeadBudget is the most bytes of the first part, the index
// of toolsets: what a client that cuts instructions short still reads.
const InstructionsHeadBudget = 2048

// InstructionsBudget is the most bytes the instructions take. Built-in
// toolsets are always described in full; third-party ones are described
// while the budget allows, then only named.
const InstructionsBudget = 12 * 1024

// instructionsWait bounds how long the answer to initialize waits for the
// descriptions of third-party toolsets still being read (their plugins are
// started to describe themselves when the server starts).
const instructionsWait = 2 * time.Second

// Limits of one third-party toolset's line: its plugin wrote them.
const (
	maxThirdPartyDescription = 200
	maxThirdPartyKeywords    = 160
)

// ToolsetSummary is what the instructions say of a toolset: its
// declaration, known for a built-in toolset without starting its plugin.
type ToolsetSummary struct {
	Name        string
	Description string
	Keywords    []string
	BuiltIn     bool
	// Version, MinGodot and MaxTestedGodot as the toolset declares them.
	Version, MinGodot, MaxTestedGodot string
	// Tools are the toolset's tools as agents call them
	// (godot_<toolset>_<tool>), when known without starting its plugin;
	// ToolPreconditions their declared preconditions, by the same names.
	Tools             []string
	ToolPreconditions map[string][]string
}

// thirdPartyLister is implemented by Toolsets (host/toolsets) that can
// report the third-party toolsets alone: describing them without starting
// the built-in toolsets' plugins, waiting at most wait for descriptions.
type thirdPartyLister interface {
	ThirdParty(ctx context.Context, wait time.Duration) []ToolsetStatus
}

// summaries are every toolset the instructions name: the built-ins of
// Options.Builtins, then those the toolsets report (third-party ones and
// any built-in missing from Options.Builtins), in their order.
func (s *Server) summaries(ctx context.Context, wait time.Duration) []ToolsetSummary {
	out := append([]ToolsetSummary(nil), s.builtins...)
	if s.toolsets == nil {
		return out
	}
	known := map[string]bool{}
	for _, b := range s.builtins {
		known[b.Name] = true
	}
	var list []ToolsetStatus
	if tp, ok := s.toolsets.(thirdPartyLister); ok {
		if wait <= 0 {
			wait = time.Millisecond // report what is known, start what is not
		}
		list = tp.ThirdParty(ctx, wait)
	} else {
		list = s.toolsets.List(ctx)
	}
	for _, st := range list {
		if known[st.Name] {
			continue
		}
		known[st.Name] = true
		out = append(out, ToolsetSummary{Name: st.Name, Description: st.Description, Keywords: st.Keywords, BuiltIn: st.BuiltIn})
	}
	return out
}

// instructions are the server's instructions as of now for a client of
// this clientInfo.name, waiting at most wait for third-party descriptions.
func (s *Server) instructions(ctx context.Context, clientName string, wait time.Duration) string {
	return buildInstructions(s.summaries(ctx, wait), s.clientParagraph(clientName))
}

// clientParagraph is what the instructions tell a known client about its
// limits ("" for any other client).
func (s *Server) clientParagraph(clientName string) string {
	c, ok := profile.ForClient(clientName)
	if !ok {
		return ""
	}
	start := "the toolsets the user enabled at start (GODOT_MCP_PROFILE, GODOT_MCP_DEFAULT_TOOLSETS)"
	if !s.cfg.ChoseStartToolsets() && c.Profile != "" {
		start = "the profile " + c.Profile + ", enabled for it at start"
		if p, ok := profile.Lookup(c.Profile); ok && p.Toolsets != nil {
			start += " (" + strings.Join(p.Toolsets, ", ") + ")"
		}
	}
	var b strings.Builder
	if c.IgnoresListChanged {
		fmt.Fprintf(&b, "\nYour client (%s) does not re-read tools/list after tools/list_changed: it shows the core tools and %s. godot_enable_toolset still enables others; its client_note says how to call their tools by name.\n", c.Name, start)
	}
	if c.ToolCap > 0 {
		fmt.Fprintf(&b, "\nYour client (%s) takes at most %d tools (it %s): it starts with %s; enable few toolsets at once and disable those you are done with.\n", c.Name, c.ToolCap, c.CapNote, start)
	}
	return b.String()
}

// setInstructions is an after-initialize (and after-discover) hook: the
// answer carries the instructions written for this moment and this
// client, third-party toolsets included.
func (s *Server) setInstructions(ctx context.Context, _ any, req *mcp.InitializeRequest, result *mcp.InitializeResult) {
	if result != nil && req != nil {
		result.Instructions = s.instructions(ctx, req.Params.ClientInfo.Name, instructionsWait)
	}
}

func (s *Server) setDiscoverInstructions(ctx context.Context, _ any, _ *mcp.DiscoverRequest, result *mcp.DiscoverResult) {
	if result != nil {
		result.Instructions = s.instructions(ctx, clientName(ctx), instructionsWait)
	}
}

const instructionsHead = `godot-mcp drives a live Godot 4 editor (scenes, scripts, resources, settings, through its API and undo) and the game it runs. Core tools are on at start (godot_get_server_info, godot_get_editor_state, godot_list_toolsets, godot_enable_toolset, godot_undo…); each toolset adds tools named godot_<toolset>_<tool> once enabled: godot_enable_toolset {"names": ["scene", "scripts"]}, or a profile {"profile": "2d"}. A tool of a disabled toolset answers PRECONDITION_FAILED naming it.
Toolsets (name: search words; more below):
`

// instructionsDetailHead opens the toolsets' descriptions in the second part.
const instructionsDetailHead = "\nToolsets in detail (name: what it does. Search words):\n"

// instructionsTail closes the instructions: the profiles, safety, guides,
// prompts and the skills (read from host/profile and docs/skills).
var instructionsTail = profilesLine() + instructionsTailText + skillsLine()

// profilesLine lists the profiles with their toolsets.
func profilesLine() string {
	var parts []string
	for _, p := range profile.Profiles {
		ts := "every toolset"
		if p.Toolsets != nil {
			ts = strings.Join(p.Toolsets, ", ")
		}
		parts = append(parts, p.Name+" ("+ts+")")
	}
	return "\nProfiles (godot_enable_toolset {\"profile\": name}, or GODOT_MCP_PROFILE at start): " + strings.Join(parts, "; ") + "."
}

const instructionsTailText = `
Mutating tools take dry_run: true to preview; destructive ones need confirm: true; every edit is one undo action (godot_undo).
Guides (MCP resources): godot://docs/<toolset> for each built-in toolset above, godot://docs/values (the JSON shapes of Godot values), godot://class/{name} (a class's properties and methods), godot://tool/{name} (a tool's full contract), godot://editor/state. Prompts: godot_start_2d_scene, godot_debug_crash.`

// skillsLine names the skills' resources.
func skillsLine() string {
	skills, err := Skills()
	if err != nil || len(skills) == 0 {
		return ""
	}
	uris := make([]string, len(skills))
	for i, sk := range skills {
		uris[i] = sk.URI
	}
	return "\nSkills (step-by-step workflows; " + SkillIndexURI + " describes them): " + strings.Join(uris, ", ") + "."
}

// buildInstructions writes the instructions for these toolsets, and the
// paragraph for the client, within InstructionsBudget.
func buildInstructions(toolsets []ToolsetSummary, client string) string {
	var builtin, third []ToolsetSummary
	for _, t := range toolsets {
		if t.BuiltIn {
			builtin = append(builtin, t)
		} else {
			third = append(third, t)
		}
	}
	var b strings.Builder
	b.WriteString(indexPart(builtin, third, client))
	b.WriteString(instructionsDetailHead)
	for _, t := range builtin {
		b.WriteString(toolsetLine(t, -1, -1))
	}
	tail := instructionsTail
	if len(third) == 0 {
		b.WriteString(tail)
		return b.String()
	}
	b.WriteString("Third-party (installed in the plugin directory; godot_list_toolsets has their state):\n")
	// What is left once the tail and a last line naming the rest are kept.
	left := InstructionsBudget - b.Len() - len(tail)
	for i, t := range third {
		line := toolsetLine(t, maxThirdPartyDescription, maxThirdPartyKeywords)
		rest := restLine(third[i+1:])
		if len(line)+len(rest) > left {
			b.WriteString(fitRestLine(third[i:], left))
			break
		}
		b.WriteString(line)
		left -= len(line)
	}
	b.WriteString(tail)
	return b.String()
}

// indexPart is the first part of the instructions, within
// InstructionsHeadBudget: the head, one line per built-in toolset with as
// many of its search words as fit an equal share of what is left, the
// third-party toolsets likewise while they fit (then by name, then
// counted), and the client's paragraph.
func indexPart(builtin, third []ToolsetSummary, client string) string {
	var b strings.Builder
	b.WriteString(instructionsHead)
	left := InstructionsHeadBudget - b.Len() - len(client)
	// Third-party toolsets get at least the room to be named (up to 300
	// bytes); the built-ins share the rest.
	reserve := min(len(restLine(third)), 300)
	for i, t := range builtin {
		line := indexLine(t, (left-reserve)/(len(builtin)-i))
		b.WriteString(line)
		left -= len(line)
	}
	for i, t := range third {
		line := indexLine(t, left/(len(third)-i))
		if len(line)+len(restLine(third[i+1:])) > left {
			b.WriteString(fitRestLine(third[i:], left))
			break
		}
		b.WriteString(line)
		left -= len(line)
	}
	b.WriteString(client)
	return b.String()
}

// indexLine is "- name: a, b, c" with as many search words as keep the
// line within max bytes (the name alone when none fits).
func indexLine(t ToolsetSummary, max int) string {
	line := "- " + t.Name
	n := 0
	for _, k := range t.Keywords {
		k = oneLine(k)
		if k == "" {
			continue
		}
		sep := ", "
		if n == 0 {
			sep = ": "
		}
		if len(line)+len(sep)+len(k)+1 > max {
			break
		}
		line += sep + k
		n++
	}
	return line + "\n"
}

// toolsetLine is "- name: description. Search words: a, b." with the
// description and the keywords cut to maxDesc and maxKeys bytes (-1: whole).
func toolsetLine(t ToolsetSummary, maxDesc, maxKeys int) string {
	desc := cut(oneLine(t.Description), maxDesc)
	if desc == "" {
		desc = "(not described yet)"
	}
	if !strings.HasSuffix(desc, ".") && !strings.HasSuffix(desc, "…") && !strings.HasSuffix(desc, ")") {
		desc += "."
	}
	line := "- " + t.Name + ": " + desc
	var keys []string
	for _, k := range t.Keywords {
		if k = oneLine(k); k != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		line += " Search words: " + cut(strings.Join(keys, ", "), maxKeys) + "."
	}
	return line + "\n"
}

// restLine names toolsets left undescribed ("" for none).
func restLine(rest []ToolsetSummary) string {
	if len(rest) == 0 {
		return ""
	}
	names := make([]string, len(rest))
	for i, t := range rest {
		names[i] = t.Name
	}
	return "- also: " + strings.Join(names, ", ") + " (godot_list_toolsets describes them).\n"
}

// fitRestLine is restLine within max bytes: as many names as fit, then
// how many more there are.
func fitRestLine(rest []ToolsetSummary, max int) string {
	if line := restLine(rest); len(line) <= max {
		return line
	}
	for n := len(rest) - 1; n >= 0; n-- {
		names := make([]string, n)
		for i := range n {
			names[i] = rest[i].Name
		}
		line := fmt.Sprintf("- also %d more toolsets (godot_list_toolsets describes them).\n", len(rest))
		if n > 0 {
			line = fmt.Sprintf("- also: %s and %d more (godot_list_toolsets describes them).\n", strings.Join(names, ", "), len(rest)-n)
		}
		if len(line) <= max || n == 0 {
			return line
		}
	}
	return ""
}

// oneLine folds s's whitespace runs (line breaks included) to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut shortens s to at most max bytes (on a rune boundary, with "…");
// max < 0 keeps it whole.
func cut(s string, max int) string {
	if max < 0 || len(s) <= max {
		return s
	}
	const ell = "…"
	end := max - len(ell)
	for end > 0 && !utf8RuneStart(s[end]) {
		end--
	}
	return strings.TrimSpace(s[:end]) + ell
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

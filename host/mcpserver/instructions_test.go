package mcpserver

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/host/profile"
)

func TestInstructionsBudgetHoldsWithManyThirdPartyToolsets(t *testing.T) {
	var all []ToolsetSummary
	for i := range 14 {
		all = append(all, ToolsetSummary{Name: fmt.Sprintf("builtin%d", i), Description: strings.Repeat("Builtin words. ", 10), Keywords: []string{"Node2D", "TileMapLayer"}, BuiltIn: true})
	}
	for _, n := range []int{0, 1, 5, 60} {
		list := append([]ToolsetSummary(nil), all...)
		for i := range n {
			list = append(list, ToolsetSummary{Name: fmt.Sprintf("ext%d", i), Description: strings.Repeat("é long third-party text\n", 40), Keywords: []string{strings.Repeat("k", 40), strings.Repeat("ü", 20)}})
		}
		text := buildInstructions(list, "\nYour client (Cursor) takes at most 40 tools (it degrades past about that many tools): it starts with the profile minimal, enabled for it at start (scene, scripts); enable few toolsets at once and disable those you are done with.\n")
		if len(text) > InstructionsBudget {
			t.Errorf("%d third-party: %d bytes, budget %d", n, len(text), InstructionsBudget)
		}
		if !utf8.ValidString(text) {
			t.Errorf("%d third-party: not valid UTF-8", n)
		}
		head, detail, _ := strings.Cut(text, instructionsDetailHead)
		if len(head) > InstructionsHeadBudget || !strings.Contains(head, "godot_enable_toolset") || !strings.Contains(head, "Your client (Cursor)") {
			t.Errorf("%d third-party: the first part is %d bytes (at most %d), or lacks how to enable or the client's paragraph:\n%s", n, len(head), InstructionsHeadBudget, head)
		}
		for i := range 14 {
			if !strings.Contains(text, fmt.Sprintf("- builtin%d: Builtin words", i)) {
				t.Errorf("%d third-party: builtin%d is not described", n, i)
			}
			if !strings.Contains(head, fmt.Sprintf("- builtin%d: Node2D", i)) {
				t.Errorf("%d third-party: builtin%d is not in the first part with a search word:\n%s", n, i, head)
			}
		}
		if n > 0 && !strings.Contains(head, "ext0") {
			t.Errorf("%d third-party: the first part does not name ext0:\n%s", n, head)
		}
		if n > 0 && !strings.Contains(text, "- ext0: ") {
			t.Errorf("%d third-party: the first is not described:\n%s", n, text)
		}
		if n == 60 && !strings.Contains(text, "ext59") {
			t.Errorf("60 third-party: the last is not named:\n%s", text)
		}
		if n == 60 && strings.Contains(detail, "- ext59: ") {
			t.Errorf("60 third-party: more are described than the budget allows?")
		}
		if !strings.HasSuffix(text, instructionsTail) {
			t.Errorf("%d third-party: the tail is cut", n)
		}
	}
}

func TestFitRestLineCountsWhatDoesNotFit(t *testing.T) {
	var rest []ToolsetSummary
	for i := range 500 {
		rest = append(rest, ToolsetSummary{Name: fmt.Sprintf("toolset_number_%d", i)})
	}
	got := fitRestLine(rest, 200)
	if len(got) > 200 || !strings.Contains(got, "more (godot_list_toolsets describes them)") || !strings.HasPrefix(got, "- also: toolset_number_0, ") {
		t.Errorf("got %q", got)
	}
}

func TestToolsetLineFoldsAndCuts(t *testing.T) {
	got := toolsetLine(ToolsetSummary{Name: "x", Description: "Two\nlines", Keywords: []string{"a", " ", "b\nc"}}, -1, -1)
	if got != "- x: Two lines. Search words: a, b c.\n" {
		t.Errorf("got %q", got)
	}
	if got := toolsetLine(ToolsetSummary{Name: "y"}, 10, 10); got != "- y: (not described yet)\n" {
		t.Errorf("got %q", got)
	}
	if got := cut("ééééé", 6); got != "é…" || !utf8.ValidString(got) {
		t.Errorf("cut: %q", got)
	}
}

// godot_enable_toolset's profile field names every profile.
func TestEnableProfileFieldNamesEveryProfile(t *testing.T) {
	f, _ := reflect.TypeOf(EnableArgs{}).FieldByName("Profile")
	for _, p := range profile.Profiles {
		if !strings.Contains(f.Tag.Get("description"), p.Name) {
			t.Errorf("the profile field's description does not name %s", p.Name)
		}
	}
}

package contract

import (
	"slices"
	"strings"
	"testing"
)

// The words are wire values: clients, the addon's GDScript and plugins
// built against an older SDK match on them, so none may change.
func TestWireValues(t *testing.T) {
	codes := make([]string, len(Codes))
	for i, c := range Codes {
		codes[i] = string(c)
		if !c.Valid() {
			t.Errorf("%s is not Valid", c)
		}
	}
	if want := "PRECONDITION_FAILED RESOURCE_NOT_FOUND VALIDATION_ERROR BRIDGE_DISCONNECTED TIMEOUT INTERNAL_ERROR APPROVAL_DENIED PEER_REPLACED"; strings.Join(codes, " ") != want {
		t.Errorf("codes %v, want %s", codes, want)
	}
	if ErrorCode("precondition_failed").Valid() {
		t.Error("a code is case-sensitive")
	}
	if want := "active_scene confirm bridge_connected runtime_probe game_not_breaked godot_version project_dir godot_binary"; strings.Join(Preconditions, " ") != want {
		t.Errorf("declarable preconditions %v, want %s", Preconditions, want)
	}
	for _, hostOnly := range []string{RequireToolsetEnabled, RequireCommandClass, RequirePluginTrusted, RequireExportTemplates} {
		if slices.Contains(Preconditions, hostOnly) {
			t.Errorf("%s is answered, never declared", hostOnly)
		}
	}
	if got := []string{string(ReadOnly), string(Mutating), string(Destructive), string(Runtime)}; strings.Join(got, " ") != "read_only mutating destructive runtime" {
		t.Errorf("classes %v", got)
	}
	if !slices.Equal(ReservedArgs, []string{"dry_run", "confirm"}) {
		t.Errorf("reserved arguments %v", ReservedArgs)
	}
	if !slices.Equal(SecretEnv, []string{"GODOT_MCP_BRIDGE_TOKEN", "GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_APPROVAL_URL"}) {
		t.Errorf("secret variables %v", SecretEnv)
	}
}

// What each class means for dry_run, confirm and the MCP hints.
func TestClassRules(t *testing.T) {
	for _, tc := range []struct {
		c               Class
		dryRun, confirm bool
		a               Annotations
	}{
		{ReadOnly, false, false, Annotations{ReadOnly: true, Idempotent: true}},
		{Mutating, true, false, Annotations{}},
		{Destructive, true, true, Annotations{Destructive: true}},
		{Runtime, false, false, Annotations{OpenWorld: true}},
	} {
		if !tc.c.Valid() || tc.c.TakesDryRun() != tc.dryRun || tc.c.NeedsConfirm() != tc.confirm || tc.c.Annotations() != tc.a {
			t.Errorf("%s: valid %v dry_run %v confirm %v %+v", tc.c, tc.c.Valid(), tc.c.TakesDryRun(), tc.c.NeedsConfirm(), tc.c.Annotations())
		}
	}
	if Class("readonly").Valid() || Class("").Valid() {
		t.Error("an unknown class is Valid")
	}
}

// An error reads as CODE (required: x): hint, and AsError keeps it through wrapping.
func TestError(t *testing.T) {
	e := Precondition(RequireActiveScene, "Open a scene.")
	if e.Error() != "PRECONDITION_FAILED (required: active_scene): Open a scene." {
		t.Error(e.Error())
	}
	if got := Errorf(Timeout, "after %ds", 5).Error(); got != "TIMEOUT: after 5s" {
		t.Error(got)
	}
	wrapped := AsError(wrap{e})
	if wrapped != e {
		t.Errorf("AsError lost the error: %v", wrapped)
	}
	if other := AsError(errString("boom")); other.Code != InternalError || !strings.Contains(other.Hint, "boom") {
		t.Errorf("AsError of a plain error: %+v", other)
	}
	if AsError(nil) != nil {
		t.Error("AsError(nil) is not nil")
	}
}

type wrap struct{ err error }

func (w wrap) Error() string { return "wrapped: " + w.err.Error() }
func (w wrap) Unwrap() error { return w.err }

type errString string

func (e errString) Error() string { return string(e) }

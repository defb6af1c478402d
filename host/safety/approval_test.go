package safety

import (
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

func args(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestScope(t *testing.T) {
	for in, want := range map[string]Scope{
		"": {}, "destructive": {}, "writes": {Writes: true}, "code": {Code: true},
		"destructive, code": {Code: true}, "all": {Writes: true, Code: true}, "CODE,writes": {Writes: true, Code: true},
	} {
		got, err := ParseScope(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v", in, got, err)
		}
	}
	if _, err := ParseScope("destructive,everything"); err == nil {
		t.Error("unknown word accepted")
	}
}

func TestApprovalReason(t *testing.T) {
	overwrite, _ := contract.ParseConditions([]string{"overwrite"})
	save := Tool{Name: "save", Class: contract.Mutating, DestructiveWhen: overwrite}
	del := Tool{Name: "delete", Class: contract.Destructive}
	batch := Tool{Name: "batch", Class: contract.Mutating}
	autoload := Tool{Name: "add_autoload", Class: contract.Mutating, RunsCode: true}
	play := Tool{Name: "play", Class: contract.Runtime, RunsCode: true}
	read := Tool{Name: "read", Class: contract.ReadOnly}
	none, code, writes := Scope{}, Scope{Code: true}, Scope{Writes: true}
	for _, tc := range []struct {
		tool  Tool
		args  string
		flags Flags
		scope Scope
		want  string
	}{
		{del, `{}`, Flags{Confirm: true}, none, ReasonDestructive},
		{del, `{}`, Flags{DryRun: true}, none, ""},
		{save, `{"overwrite": true}`, Flags{Confirm: true}, none, ReasonDestructive},
		{save, `{}`, Flags{}, none, ""},
		{save, `{}`, Flags{}, writes, ReasonWrite},
		{batch, `{}`, Flags{Confirm: true}, none, ReasonDestructive},
		{batch, `{}`, Flags{}, none, ""},
		{autoload, `{}`, Flags{}, none, ""},
		{autoload, `{}`, Flags{}, code, ReasonCode},
		{autoload, `{}`, Flags{DryRun: true}, code, ""},
		{play, `{}`, Flags{}, code, ReasonCode},
		{play, `{}`, Flags{}, writes, ""},
		{read, `{}`, Flags{}, Scope{Writes: true, Code: true}, ""},
	} {
		if got := ApprovalReason(tc.tool, args(t, tc.args), tc.flags, tc.scope); got != tc.want {
			t.Errorf("%s %s %+v %+v: %q, want %q", tc.tool.Name, tc.args, tc.flags, tc.scope, got, tc.want)
		}
	}
}

func TestCheckCallNeedsConfirmWhenAConditionHolds(t *testing.T) {
	conds, _ := contract.ParseConditions([]string{"overwrite", "count>1"})
	tool := Tool{Name: "t", Class: contract.Mutating, DestructiveWhen: conds}
	for _, a := range []string{`{"overwrite": true}`, `{"count": 5}`} {
		err := CheckCall(tool, args(t, a), Flags{})
		if err == nil || err.Code != contract.PreconditionFailed || err.Required != contract.RequireConfirm {
			t.Errorf("%s: %+v", a, err)
		}
		if err := CheckCall(tool, args(t, a), Flags{Confirm: true}); err != nil {
			t.Errorf("%s confirmed: %+v", a, err)
		}
		if err := CheckCall(tool, args(t, a), Flags{DryRun: true}); err != nil {
			t.Errorf("%s dry run: %+v", a, err)
		}
	}
	if err := CheckCall(tool, args(t, `{"count": 1}`), Flags{}); err != nil {
		t.Errorf("count 1: %+v", err)
	}
	schema, err := InjectFlagsFor(json.RawMessage(`{"type":"object","properties":{"overwrite":{"type":"boolean"}},"additionalProperties":false}`), tool)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]any `json:"properties"`
	}
	json.Unmarshal(schema, &s)
	if s.Properties["confirm"] == nil || s.Properties["dry_run"] == nil {
		t.Fatalf("schema lacks confirm or dry_run: %s", schema)
	}
}

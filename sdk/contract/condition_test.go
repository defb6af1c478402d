package contract

import (
	"encoding/json"
	"testing"
)

func args(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestConditions(t *testing.T) {
	for _, bad := range []string{"", "Overwrite", "count>", "count>=1", "a b", "count>1x"} {
		if _, err := ParseCondition(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	overwrite, _ := ParseCondition("overwrite")
	many, _ := ParseCondition("count>1")
	if many.String() != "count>1" || overwrite.String() != "overwrite" {
		t.Fatal(many, overwrite)
	}
	for _, tc := range []struct {
		c    Condition
		args string
		want bool
	}{
		{overwrite, `{"overwrite": true}`, true},
		{overwrite, `{"overwrite": false}`, false},
		{overwrite, `{"overwrite": "yes"}`, false},
		{overwrite, `{}`, false},
		{many, `{"count": 100}`, true},
		{many, `{"count": 1}`, false},
		{many, `{"count": 1.5}`, true},
		{many, `{}`, false},
	} {
		if got := tc.c.Holds(args(t, tc.args)); got != tc.want {
			t.Errorf("%s on %s: %v", tc.c, tc.args, got)
		}
	}
}

package bridge

import (
	"strings"
	"testing"
)

func TestSalvageID(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"id":"12","ok":tru`, "12"},
		{`{"ok":true,"id":"7","result":{`, "7"},
		{`{"result":{"a":[1,{"b":2}]},"id":"9"`, "9"},
		{`  {"id" : "x y"}`, "x y"},
		{`{"id":12}`, ""},
		{`{"result":"` + strings.Repeat("a", 5000) + `","id":"late"}`, ""},
		{`[{"id":"1"}]`, ""},
		{`nope`, ""},
		{``, ""},
		{`{"id":"` + "\\u0041" + `"`, "A"},
	} {
		if got := salvageID([]byte(tc.in)); got != tc.want {
			t.Errorf("salvageID(%.40q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHostAllowed(t *testing.T) {
	loop := &Bridge{host: "127.0.0.1"}
	lan := &Bridge{host: "192.168.1.5"}
	for _, tc := range []struct {
		b    *Bridge
		host string
		want bool
	}{
		{loop, "127.0.0.1:9080", true},
		{loop, "127.0.0.1", true},
		{loop, "127.255.0.1:1", true},
		{loop, "localhost", true},
		{loop, "LocalHost:9080", true},
		{loop, "[::1]:9080", true},
		{loop, "[::1]", true},
		{loop, "::1", true},
		{loop, "", false},
		{loop, ":9080", false},
		{loop, "evil.example", false},
		{loop, "localhost.evil.example:9080", false},
		{loop, "127.0.0.1.evil.example", false},
		{loop, "192.168.1.5:9080", false},
		{loop, "0.0.0.0:9080", false},
		{lan, "192.168.1.5:9080", true},
		{lan, "localhost:9080", true},
		{lan, "192.168.1.6:9080", false},
	} {
		if got := tc.b.hostAllowed(tc.host); got != tc.want {
			t.Errorf("hostAllowed(%q) with listen host %s = %v, want %v", tc.host, tc.b.host, got, tc.want)
		}
	}
}

func TestTokenMatches(t *testing.T) {
	b := &Bridge{tokenHash: hashToken("secret")}
	for _, tc := range []struct {
		in   string
		want bool
	}{{"secret", true}, {"secret ", false}, {"Secret", false}, {"", false}, {"secretsecret", false}} {
		if got := b.tokenMatches(tc.in); got != tc.want {
			t.Errorf("tokenMatches(%q) = %v", tc.in, got)
		}
	}
}

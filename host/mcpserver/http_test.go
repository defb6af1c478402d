package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
)

func TestHTTPGuard(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	loopback := testConfig()
	withToken := testConfig()
	withToken.AuthToken = "s3cret"
	public := testConfig()
	public.HTTPHost, public.AuthToken = "0.0.0.0", "s3cret"

	cases := []struct {
		name   string
		cfg    config.Config
		host   string
		header map[string]string
		want   int
	}{
		{"loopback host", loopback, "127.0.0.1:9090", nil, 200},
		{"localhost host", loopback, "localhost:9090", nil, 200},
		{"ipv6 loopback", loopback, "[::1]:9090", nil, 200},
		{"foreign host (DNS rebinding)", loopback, "evil.example:9090", nil, 421},
		{"foreign origin", loopback, "127.0.0.1:9090", map[string]string{"Origin": "https://evil.example"}, 403},
		{"null origin", loopback, "127.0.0.1:9090", map[string]string{"Origin": "null"}, 403},
		{"loopback origin", loopback, "127.0.0.1:9090", map[string]string{"Origin": "http://localhost:3000"}, 200},
		{"missing bearer", withToken, "127.0.0.1:9090", nil, 401},
		{"wrong bearer", withToken, "127.0.0.1:9090", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"right bearer", withToken, "127.0.0.1:9090", map[string]string{"Authorization": "Bearer s3cret"}, 200},
		{"public bind, auto: host not checked, bearer is", public, "203.0.113.7:9090", map[string]string{"Authorization": "Bearer s3cret"}, 200},
		{"public bind, no bearer", public, "203.0.113.7:9090", nil, 401},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHTTPGuard(tc.cfg).Wrap(ok)
			req := httptest.NewRequest(http.MethodPost, "http://"+tc.host+"/mcp", strings.NewReader("{}"))
			req.Host = tc.host
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("got %d, want %d (%s)", rec.Code, tc.want, rec.Body.String())
			}
		})
	}
}

func TestNonLoopbackBindNeedsToken(t *testing.T) {
	cfg := testConfig()
	cfg.Transport, cfg.HTTPHost = "http", "0.0.0.0"
	err := cfg.CheckHTTPBind()
	if err == nil || !strings.Contains(err.Error(), "GODOT_MCP_AUTH_TOKEN") {
		t.Fatalf("want a refusal naming GODOT_MCP_AUTH_TOKEN, got %v", err)
	}
	cfg.AuthToken = "x"
	if err := cfg.CheckHTTPBind(); err != nil {
		t.Fatal(err)
	}
	cfg.HTTPHost, cfg.AuthToken = "127.0.0.1", ""
	if err := cfg.CheckHTTPBind(); err != nil {
		t.Fatal(err)
	}
}

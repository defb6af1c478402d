package mcpserver

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// Wrong bearer tokens are limited per client address: after
// maxAuthFailures within authWindow that address gets 429 with Retry-After
// (even with the right token) until the block ends; another address is not
// affected; each refusal is logged, at most once per address and window.
func TestHTTPWrongTokensAreRateLimited(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	cfg := testConfig()
	cfg.AuthToken = "s3cret-token"
	var logs bytes.Buffer
	g := NewHTTPGuard(cfg)
	g.Log = slog.New(slog.NewTextHandler(&logs, nil))
	now := time.Unix(1000, 0)
	g.now = func() time.Time { return now }
	h := g.Wrap(ok)
	send := func(addr, token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9090/mcp", strings.NewReader("{}"))
		req.RemoteAddr = addr
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for i := range maxAuthFailures {
		if rec := send("10.0.0.1:5000", "wrong-"+string(rune('a'+i))); rec.Code != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i, rec.Code)
		}
	}
	rec := send("10.0.0.1:5001", "s3cret-token")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("after %d wrong tokens: %d %v", maxAuthFailures, rec.Code, rec.Header())
	}
	if rec := send("10.0.0.2:5000", "s3cret-token"); rec.Code != http.StatusOK {
		t.Fatalf("another address: %d", rec.Code)
	}
	if n := strings.Count(logs.String(), "wrong bearer token"); n < 1 || n > 2 {
		t.Fatalf("%d log lines for %d refusals:\n%s", n, maxAuthFailures, logs.String())
	}
	if strings.Contains(logs.String(), "wrong-a") {
		t.Fatal("a presented token was logged")
	}
	now = now.Add(authBlock + time.Second)
	if rec := send("10.0.0.1:5002", "s3cret-token"); rec.Code != http.StatusOK {
		t.Fatalf("after the block: %d", rec.Code)
	}
}

// The token check hashes both sides first, so it takes the same time
// whatever the presented token's length; only the exact token passes.
func TestHTTPBearerCompare(t *testing.T) {
	g := HTTPGuard{Token: "s3cret-token"}
	for tok, want := range map[string]bool{"s3cret-token": true, "s3cret-toke": false, "s3cret-token ": false, "S3CRET-TOKEN": false, "": false, strings.Repeat("x", 1<<16): false} {
		if got := g.tokenOK(tok); got != want {
			t.Errorf("%.20q: %v", tok, got)
		}
	}
}

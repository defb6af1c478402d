package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

type elicitAnswer func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f elicitAnswer) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, req)
}

func elicitClient(t *testing.T, s *Server, opts ...client.ClientOption) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(s.MCP(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestElicitApproval(t *testing.T) {
	cfg := testConfig()
	cfg.Approval = "elicit"
	cases := []struct {
		name    string
		answer  *mcp.ElicitationResult
		handler bool
		want    envelope.ErrorCode // "" = ran
	}{
		{"yes", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}}, true, ""},
		{"no", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": false}}}, true, envelope.ApprovalDenied},
		{"declined", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, true, envelope.ApprovalDenied},
		{"cancelled", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, true, envelope.ApprovalDenied},
		{"client without elicitation", nil, false, envelope.ApprovalDenied},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFakeToolsets("scene")
			s := New(Options{Config: cfg, Bridge: &stubBridge{}, Toolsets: ts})
			var opts []client.ClientOption
			asked := 0
			if tc.handler {
				opts = append(opts, client.WithElicitationHandler(elicitAnswer(func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
					asked++
					if !strings.Contains(req.Params.Message, "godot_scene_delete") {
						t.Errorf("the question does not name the tool: %q", req.Params.Message)
					}
					return tc.answer, nil
				})))
			}
			c := elicitClient(t, s, opts...)
			call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"})
			res := call(t, c, "godot_scene_delete", map[string]any{"path": "a", "confirm": true})
			if tc.want == "" {
				if res.IsError || ts.callCount() != 1 {
					t.Fatalf("approved call did not run: %+v calls=%d", res.Content, ts.callCount())
				}
			} else {
				wantError(t, res, tc.want, "")
				if ts.callCount() != 0 {
					t.Fatal("unapproved call reached the toolset")
				}
			}
			if tc.handler && asked != 1 {
				t.Fatalf("user asked %d times", asked)
			}
			// Mutating and read-only tools never ask.
			call(t, c, "godot_scene_edit", map[string]any{"path": "a"})
			if tc.handler && asked != 1 {
				t.Fatal("a mutating call asked for approval")
			}
		})
	}
}

func TestWebhookApproval(t *testing.T) {
	var got struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	verdicts := map[string]func(w http.ResponseWriter){
		"approve": func(w http.ResponseWriter) { w.Write([]byte(`{"approved":true}`)) },
		"deny":    func(w http.ResponseWriter) { w.Write([]byte(`{"approved":false,"reason":"not today"}`)) },
		"error":   func(w http.ResponseWriter) { http.Error(w, "boom", 500) },
		"garbage": func(w http.ResponseWriter) { w.Write([]byte(`yes please`)) },
		"slow":    func(w http.ResponseWriter) { time.Sleep(2 * time.Second); w.Write([]byte(`{"approved":true}`)) },
	}
	var mu sync.Mutex
	mode := "approve"
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		json.NewDecoder(r.Body).Decode(&got)
		verdict := verdicts[mode]
		mu.Unlock()
		verdict(w)
	}))
	defer hook.Close()
	approve := WebhookApprover(hook.URL, 300*time.Millisecond)
	for _, name := range []string{"approve", "deny", "error", "garbage", "slow"} {
		mu.Lock()
		mode = name
		mu.Unlock()
		err := approve(context.Background(), "godot_scene_delete", json.RawMessage(`{"path":"a","confirm":true}`))
		if name == "approve" {
			if err != nil {
				t.Fatalf("approve: %v", err)
			}
			mu.Lock()
			seen := got
			mu.Unlock()
			if seen.Tool != "godot_scene_delete" || !strings.Contains(string(seen.Arguments), `"path":"a"`) {
				t.Fatalf("webhook saw %+v", seen)
			}
			continue
		}
		if err == nil || err.Code != envelope.ApprovalDenied {
			t.Fatalf("%s: want APPROVAL_DENIED (fail closed), got %v", name, err)
		}
	}
	// Nobody listening: denied too.
	if err := WebhookApprover("http://127.0.0.1:1/", time.Second)(context.Background(), "x", nil); err == nil {
		t.Fatal("unreachable webhook approved")
	}
}

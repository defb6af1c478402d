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

	"github.com/godot-mcp/godot-mcp/sdk/contract"
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
		want    contract.ErrorCode // "" = ran
	}{
		{"yes", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}}, true, ""},
		{"no", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": false}}}, true, contract.ApprovalDenied},
		{"declined", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, true, contract.ApprovalDenied},
		{"cancelled", &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, true, contract.ApprovalDenied},
		{"client without elicitation", nil, false, contract.ApprovalDenied},
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
		if err == nil || err.Code != contract.ApprovalDenied {
			t.Fatalf("%s: want APPROVAL_DENIED (fail closed), got %v", name, err)
		}
	}
	// Nobody listening: denied too.
	if err := WebhookApprover("http://127.0.0.1:1/", time.Second)(context.Background(), "x", nil); err == nil {
		t.Fatal("unreachable webhook approved")
	}
}

// An elicited approval counts only for the question this server asked for
// this very call, once, within GODOT_MCP_APPROVAL_TIMEOUT (issue 14, M8).
func TestElicitedApprovalIsBoundToItsQuestion(t *testing.T) {
	yes := mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}}
	newServer := func(timeout time.Duration) (*Server, *fakeToolsets) {
		cfg := testConfig()
		cfg.Approval = "elicit"
		cfg.ApprovalTimeout = timeout
		ts := newFakeToolsets("scene")
		return New(Options{Config: cfg, Bridge: &stubBridge{}, Toolsets: ts}), ts
	}

	t.Run("an answer sent with the first call, unasked", func(t *testing.T) {
		// mcp-go's client only sends inputResponses the server asked for,
		// so this is the request a hand-written client could send.
		s, _ := newServer(time.Minute)
		for _, state := range []string{"", "approval-made-up"} {
			req := mcp.CallToolRequest{}
			req.Params.Name = "godot_scene_delete"
			req.Params.InputResponses = mcp.InputResponses{approvalInputID: mcp.NewElicitationInputResponse(yes)}
			req.Params.RequestState = state
			pending, err := s.elicitApproval(context.Background(), req, "godot_scene_delete", json.RawMessage(`{"path":"a","confirm":true}`))
			if pending != nil || err == nil || err.Code != contract.ApprovalDenied {
				t.Fatalf("state %q: an unasked approval counted (%v, %v)", state, pending, err)
			}
		}
	})

	t.Run("an answer after the timeout", func(t *testing.T) {
		s, ts := newServer(time.Nanosecond)
		c := elicitClient(t, s, client.WithElicitationHandler(elicitAnswer(func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			time.Sleep(time.Millisecond)
			return &yes, nil
		})))
		call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"})
		res := call(t, c, "godot_scene_delete", map[string]any{"path": "a", "confirm": true})
		wantError(t, res, contract.ApprovalDenied, "")
		if ts.callCount() != 0 {
			t.Fatal("a late approval ran the call")
		}
	})

	t.Run("arguments too long to show are refused, never cut", func(t *testing.T) {
		s, ts := newServer(time.Minute)
		asked := 0
		c := elicitClient(t, s, client.WithElicitationHandler(elicitAnswer(func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			asked++
			return &yes, nil
		})))
		call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"})
		res := call(t, c, "godot_scene_delete", map[string]any{"path": strings.Repeat("n", maxApprovalMessage), "confirm": true})
		wantError(t, res, contract.ApprovalDenied, "")
		if ts.callCount() != 0 || asked != 0 {
			t.Fatalf("calls %d, asked %d", ts.callCount(), asked)
		}
	})
}

// Whitespace padding in the raw arguments cannot push a field out of the
// question: every field is re-encoded compactly.
func TestApprovalQuestionShowsEveryField(t *testing.T) {
	raw := json.RawMessage(`{"confirm": true,` + strings.Repeat(" ", 3000) + `"path": "Level/Boss",` + strings.Repeat("\n", 3000) + `"keep_children": false}`)
	q := approvalQuestion(context.Background(), "godot_scene_delete_node", raw)
	for _, want := range []string{"godot_scene_delete_node", `"path": "Level/Boss"`, `"keep_children": false`, `"confirm": true`} {
		if !strings.Contains(q, want) {
			t.Errorf("question lacks %s:\n%s", want, q)
		}
	}
	if len(q) > 300 {
		t.Errorf("padding reached the question (%d bytes)", len(q))
	}
}

// A question is answered once, for its own call.
func TestApprovalLedger(t *testing.T) {
	var l approvalLedger
	args := json.RawMessage(`{"path":"a"}`)
	st := l.ask("godot_scene_delete", args, time.Minute)
	if why := l.answer(st, "godot_scene_delete", json.RawMessage(`{"path":"b"}`)); why == "" {
		t.Fatal("an answer for other arguments approved")
	}
	st = l.ask("godot_scene_delete", args, time.Minute)
	if why := l.answer(st, "godot_undo", args); why == "" {
		t.Fatal("an answer for another tool approved")
	}
	st = l.ask("godot_scene_delete", args, time.Minute)
	if why := l.answer(st, "godot_scene_delete", args); why != "" {
		t.Fatalf("the right answer: %s", why)
	}
	if why := l.answer(st, "godot_scene_delete", args); why == "" {
		t.Fatal("an answer counted twice")
	}
}

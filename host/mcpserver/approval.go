package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

const approvalInputID = "godot_mcp_approval"

type approvalReasonKey struct{}

// withApprovalReason tells the approver why the call is asked about:
// safety.ReasonDestructive, ReasonWrite or ReasonCode.
func withApprovalReason(ctx context.Context, reason string) context.Context {
	return context.WithValue(ctx, approvalReasonKey{}, reason)
}

// approvalReason is the reason given with withApprovalReason ("destructive" without one).
func approvalReason(ctx context.Context) string {
	if r, ok := ctx.Value(approvalReasonKey{}).(string); ok && r != "" {
		return r
	}
	return safety.ReasonDestructive
}

// reasonText says in words why a call needs approval.
func reasonText(reason string) string {
	switch reason {
	case safety.ReasonWrite:
		return "it changes the project"
	case safety.ReasonCode:
		return "it can make code run"
	}
	return "it destroys or overwrites"
}

// clientCanElicit reports whether the client declared elicitation support,
// for this request (protocol 2026-07-28+) or for its session (earlier).
func clientCanElicit(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.ClientCapabilities != nil && info.ClientCapabilities.Elicitation != nil
	}
	if sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return sess.GetClientCapabilities().Elicitation != nil
	}
	return false
}

// Bounds of an elicited approval's question.
const (
	// maxApprovalMessage is the longest question shown to the user. A call
	// whose arguments do not fit is refused, never cut short: a cut could
	// hide the very field (the node, the file) the user must see.
	maxApprovalMessage = 4000
	// maxPendingApprovals bounds the questions awaiting an answer.
	maxPendingApprovals = 1024
)

// pendingApproval is one question asked through elicitation: only an answer
// that echoes its requestState, for the same tool and arguments, before it
// expires, approves the call, and only once.
type pendingApproval struct {
	tool    string
	args    [sha256.Size]byte
	expires time.Time
}

// approvalLedger holds the questions asked and not yet answered.
type approvalLedger struct {
	mu      sync.Mutex
	pending map[string]pendingApproval
}

// ask records a question and returns its requestState.
func (l *approvalLedger) ask(tool string, args json.RawMessage, timeout time.Duration) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	state := "approval-" + hex.EncodeToString(b[:])
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		l.pending = map[string]pendingApproval{}
	}
	for k, p := range l.pending {
		if now.After(p.expires) || len(l.pending) >= maxPendingApprovals {
			delete(l.pending, k)
		}
	}
	l.pending[state] = pendingApproval{tool: tool, args: sha256.Sum256(args), expires: now.Add(timeout)}
	return state
}

// answer takes the question state stands for; it says why the answer
// cannot approve this call, or "".
func (l *approvalLedger) answer(state, tool string, args json.RawMessage) string {
	l.mu.Lock()
	p, ok := l.pending[state]
	delete(l.pending, state)
	l.mu.Unlock()
	switch {
	case !ok:
		return "this server asked no such question (or it was already answered)"
	case p.tool != tool || p.args != sha256.Sum256(args):
		return "the answer was given for another call"
	case time.Now().After(p.expires):
		return "the answer came after GODOT_MCP_APPROVAL_TIMEOUT"
	}
	return ""
}

// approvalQuestion is the question shown to the user: the tool, why it is
// asked, and every argument re-encoded compactly (so padding cannot push a
// field out of sight), or "" when that does not fit maxApprovalMessage.
func approvalQuestion(ctx context.Context, tool string, args json.RawMessage) string {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(args, &fields)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "An agent wants to run %s (%s).", tool, reasonText(approvalReason(ctx)))
	if len(keys) > 0 {
		b.WriteString(" Arguments:")
	}
	for _, k := range keys {
		var buf bytes.Buffer
		if err := json.Compact(&buf, fields[k]); err != nil {
			buf.Write(fields[k])
		}
		kq, _ := json.Marshal(k)
		fmt.Fprintf(&b, "\n- %s: %s", kq, buf.String())
	}
	b.WriteString("\nApprove?")
	if b.Len() > maxApprovalMessage {
		return ""
	}
	return b.String()
}

// elicitApproval asks the user, through MCP elicitation, whether a call
// may run. It returns an input-required result to send back (first round),
// or the verdict once the client has answered the question this server
// asked for this very call.
func (s *Server) elicitApproval(ctx context.Context, req mcp.CallToolRequest, tool string, args json.RawMessage) (*mcp.CallToolResult, *contract.Error) {
	if answer := server.ElicitationResponse(req.Params.InputResponses, approvalInputID); answer != nil {
		if why := s.approvals.answer(req.Params.RequestState, tool, args); why != "" {
			return nil, contract.Errorf(contract.ApprovalDenied,
				"The approval sent with %s does not count: %s. Call %s again without inputResponses; the user is then asked.", tool, why, tool)
		}
		if answer.Action != mcp.ElicitationResponseActionAccept {
			return nil, contract.Errorf(contract.ApprovalDenied, "The user did not approve %s (%s). Ask the user what they want instead; do not retry unchanged.", tool, answer.Action)
		}
		var content struct {
			Approve bool `json:"approve"`
		}
		raw, _ := json.Marshal(answer.Content)
		if json.Unmarshal(raw, &content) != nil || !content.Approve {
			return nil, contract.Errorf(contract.ApprovalDenied, "The user declined %s. Ask the user what they want instead; do not retry unchanged.", tool)
		}
		return nil, nil
	}
	if !clientCanElicit(ctx) {
		return nil, contract.Errorf(contract.ApprovalDenied,
			"%s needs the user's approval (GODOT_MCP_APPROVAL=elicit) but this MCP client does not support elicitation. "+
				"Use a client with elicitation, or ask the operator to change GODOT_MCP_APPROVAL.", tool)
	}
	question := approvalQuestion(ctx, tool, args)
	if question == "" {
		return nil, contract.Errorf(contract.ApprovalDenied,
			"The arguments of %s are too long (%d bytes) to show the user in full for approval, and a shortened question could hide what the call changes. Split it into smaller calls.", tool, len(args))
	}
	params := mcp.ElicitationParams{
		Message: question,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "title": "Approve", "description": "Run " + tool + " now"},
			},
			"required": []string{"approve"},
		},
	}
	state := s.approvals.ask(tool, args, s.cfg.ApprovalTimeout)
	return server.NewInputRequestBuilder(state).Elicit(approvalInputID, params).ToolResult(), nil
}

// WebhookApprover POSTs each pending destructive call to url as
// {"tool", "arguments"} and runs it only on a 2xx answer carrying
// {"approved": true}. Anything else — no answer within timeout, a transport
// error, another status, a refusal — denies: it fails closed.
func WebhookApprover(url string, timeout time.Duration) Approver {
	client := &http.Client{Timeout: timeout}
	return func(ctx context.Context, tool string, args json.RawMessage) *contract.Error {
		body, _ := json.Marshal(map[string]any{"tool": tool, "arguments": args, "reason": approvalReason(ctx), "requested_at": time.Now().UTC().Format(time.RFC3339)})
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return contract.Errorf(contract.ApprovalDenied, "The approval webhook URL is invalid (%v); %s was not run.", err, tool)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return contract.Errorf(contract.ApprovalDenied, "The approval webhook did not answer (%v); %s was not run. Retry later or ask the operator.", err, tool)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		var verdict struct {
			Approved bool   `json:"approved"`
			Reason   string `json:"reason"`
		}
		if resp.StatusCode/100 != 2 || json.Unmarshal(raw, &verdict) != nil || !verdict.Approved {
			reason := verdict.Reason
			if reason == "" {
				reason = fmt.Sprintf("HTTP %d", resp.StatusCode)
			}
			return contract.Errorf(contract.ApprovalDenied, "The approval webhook refused %s (%s). Do not retry unchanged; ask the user.", tool, reason)
		}
		return nil
	}
}

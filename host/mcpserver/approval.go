package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/safety"
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

// elicitApproval asks the user, through MCP elicitation, whether a
// destructive call may run. It returns an input-required result to send
// back (first round), or the verdict once the client has answered.
func elicitApproval(ctx context.Context, req mcp.CallToolRequest, tool string, args json.RawMessage) (*mcp.CallToolResult, *envelope.Error) {
	if answer := server.ElicitationResponse(req.Params.InputResponses, approvalInputID); answer != nil {
		if answer.Action != mcp.ElicitationResponseActionAccept {
			return nil, envelope.Errorf(envelope.ApprovalDenied, "The user did not approve %s (%s). Ask the user what they want instead; do not retry unchanged.", tool, answer.Action)
		}
		var content struct {
			Approve bool `json:"approve"`
		}
		raw, _ := json.Marshal(answer.Content)
		if json.Unmarshal(raw, &content) != nil || !content.Approve {
			return nil, envelope.Errorf(envelope.ApprovalDenied, "The user declined %s. Ask the user what they want instead; do not retry unchanged.", tool)
		}
		return nil, nil
	}
	if !clientCanElicit(ctx) {
		return nil, envelope.Errorf(envelope.ApprovalDenied,
			"%s needs the user's approval (GODOT_MCP_APPROVAL=elicit) but this MCP client does not support elicitation. "+
				"Use a client with elicitation, or ask the operator to change GODOT_MCP_APPROVAL.", tool)
	}
	params := mcp.ElicitationParams{
		Message: fmt.Sprintf("An agent wants to run %s (%s) with arguments %s. Approve?", tool, reasonText(approvalReason(ctx)), truncate(string(args), 2000)),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "title": "Approve", "description": "Run " + tool + " now"},
			},
			"required": []string{"approve"},
		},
	}
	return server.NewInputRequestBuilder("").Elicit(approvalInputID, params).ToolResult(), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// WebhookApprover POSTs each pending destructive call to url as
// {"tool", "arguments"} and runs it only on a 2xx answer carrying
// {"approved": true}. Anything else — no answer within timeout, a transport
// error, another status, a refusal — denies: it fails closed.
func WebhookApprover(url string, timeout time.Duration) Approver {
	client := &http.Client{Timeout: timeout}
	return func(ctx context.Context, tool string, args json.RawMessage) *envelope.Error {
		body, _ := json.Marshal(map[string]any{"tool": tool, "arguments": args, "reason": approvalReason(ctx), "requested_at": time.Now().UTC().Format(time.RFC3339)})
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return envelope.Errorf(envelope.ApprovalDenied, "The approval webhook URL is invalid (%v); %s was not run.", err, tool)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return envelope.Errorf(envelope.ApprovalDenied, "The approval webhook did not answer (%v); %s was not run. Retry later or ask the operator.", err, tool)
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
			return envelope.Errorf(envelope.ApprovalDenied, "The approval webhook refused %s (%s). Do not retry unchanged; ask the user.", tool, reason)
		}
		return nil
	}
}

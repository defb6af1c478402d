package mcpserver

// The call pipeline every tool call goes through: preconditions, the
// safety gate, the executor, and the result's shape.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// handler is the one pipeline every tool call goes through: validate,
// safety class, preconditions, approval, execute, shape. mcp-go calls it for
// every transport; on stdio the raw arguments and the raw structured result
// travel beside mcp-go (stdio.go).
func (s *Server) handler(reg *registered) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		stdio := stdioCallFrom(ctx)
		rawArgs := []byte("{}")
		switch {
		case stdio != nil && stdio.args != nil:
			rawArgs = stdio.args // as read by ServeStdio; mcp-go saw {}
		case req.Params.Arguments != nil:
			var err error
			if rawArgs, err = json.Marshal(req.Params.Arguments); err != nil {
				return shape(Fail(contract.Errorf(contract.ValidationError, "Arguments of %s could not be read: %v", reg.def.Name, err))), nil
			}
		}
		start := time.Now()
		res, pending := s.run(ctx, reg, rawArgs, req)
		if pending != nil {
			s.log.Debug("tool waits for approval", "tool", reg.def.Name)
			return pending, nil // waiting for the user's approval (elicitation)
		}
		if res.Err != nil {
			s.log.Debug("tool failed", "tool", reg.def.Name, "code", res.Err.Code, "took", time.Since(start))
		} else {
			s.log.Debug("tool ok", "tool", reg.def.Name, "took", time.Since(start))
		}
		out := shape(res)
		s.attachErrors(ctx, out)
		if stdio != nil {
			stdio.deferStructured(out)
		}
		return out, nil
	}
}

// run applies every host-side gate, then the executor. A non-nil
// *mcp.CallToolResult is an input-required answer (approval pending).
func (s *Server) run(ctx context.Context, reg *registered, rawArgs json.RawMessage, req mcp.CallToolRequest) (Result, *mcp.CallToolResult) {
	def := reg.def
	rawArgs, args, verr := validateArgs(def.Name, reg.input, rawArgs)
	if verr != nil {
		return Fail(verr), nil
	}
	flags, verr := safety.ReadFlags(args)
	if verr != nil {
		return Fail(verr), nil
	}
	if verr := safety.CheckCall(reg.decl, args, flags); verr != nil {
		return Fail(verr), nil
	}
	if verr := s.checkPreconditions(def); verr != nil {
		return Fail(verr), nil
	}
	if flags.DryRun && !def.DryRun {
		return OK(map[string]any{
			"dry_run":   true,
			"tool":      def.Name,
			"arguments": json.RawMessage(rawArgs),
			"note":      "This tool has no preview of its own: nothing was changed. Call it without dry_run to apply.",
		}), nil
	}
	// Approval: every call that destroys or overwrites, and what the
	// operator's GODOT_MCP_APPROVAL_SCOPE adds (writes, code).
	if reason := safety.ApprovalReason(reg.decl, args, flags, s.cfg.ApprovalScope); reason != "" {
		s.log.Debug("tool call needs approval", "tool", def.Name, "reason", reason)
		ctx := withApprovalReason(ctx, reason)
		if s.cfg.Approval == "elicit" {
			pending, aerr := s.elicitApproval(ctx, req, def.Name, rawArgs)
			if aerr != nil {
				return Fail(aerr), nil
			}
			if pending != nil {
				return Result{}, pending
			}
		}
		if s.approve != nil {
			if aerr := s.approve(ctx, def.Name, rawArgs); aerr != nil {
				return Fail(aerr), nil
			}
		}
	}
	// dry_run and confirm belong to the host: they travel as Call flags, and
	// the tool receives only its own arguments.
	toolArgs := rawArgs
	if _, hasDry := args[contract.ArgDryRun]; hasDry || args[contract.ArgConfirm] != nil {
		for _, name := range contract.ReservedArgs {
			delete(args, name)
		}
		var err error
		if toolArgs, err = json.Marshal(args); err != nil {
			return Fail(contract.Errorf(contract.InternalError, "could not re-encode the arguments of %s: %v", def.Name, err)), nil
		}
	}
	call := Call{Tool: def.Name, Arguments: toolArgs, DryRun: flags.DryRun, Confirm: flags.Confirm}
	var progressToken mcp.ProgressToken
	if req.Params.Meta != nil {
		progressToken = req.Params.Meta.ProgressToken
	}
	call.CallID = s.trackProgress(ctx, progressToken)
	defer s.finishCall(ctx, call.CallID)
	if progressToken != nil {
		call.ProgressToken = call.CallID
	}
	return reg.exec(ctx, call), nil
}

// checkPreconditions checks the preconditions the host can check without
// asking anyone: bridge_connected and project_dir. godot_binary is the
// tool's own to check, when it starts Godot (after checking its arguments
// and its project), so that it reports those first; the host only lists
// such tools as unavailable (unavailable.go). The editor-side ones
// (active_scene, runtime_probe, game_not_breaked, godot_version) cost no
// round trip of their own: the editor command the tool sends checks them as
// part of its work and answers PRECONDITION_FAILED with required; confirm
// is the class rule (safety.CheckCall).
func (s *Server) checkPreconditions(def ToolDef) *contract.Error {
	for _, p := range def.Preconditions {
		switch p {
		case contract.RequireBridgeConnected:
			if st := s.bridge.Status(); !st.Connected {
				// Same answer the bridge gives for a send without a peer.
				return &contract.Error{Code: contract.BridgeDisconnected, Required: contract.RequireBridgeConnected, Hint: bridgeHint(st)}
			}
		case contract.RequireProjectDir:
			if s.projectDir() == "" {
				return contract.Precondition(contract.RequireProjectDir, "No Godot project is known: connect an editor, or set GODOT_MCP_PROJECT_DIR.")
			}
		}
	}
	return nil
}

func bridgeHint(st bridge.Status) string {
	return fmt.Sprintf("No Godot editor is connected to the bridge at %s. Open the project in Godot 4 with the godot_mcp addon enabled "+
		"(install it with `godot-mcp addon install --project DIR --enable`); it connects by itself.", st.URL)
}

func (s *Server) projectDir() string {
	if s.cfg.ProjectDir != "" {
		return s.cfg.ProjectDir
	}
	if st := s.bridge.Status(); st.Peer != nil {
		return st.Peer.ProjectDir
	}
	return ""
}

// shape turns a Result into an MCP tool result: structuredContent plus a
// text fallback, or an isError result whose only content is the error
// object {error, hint, required?} as JSON text (ErrorText). A failure
// carries no structuredContent: it would not match the tool's outputSchema,
// and clients that check it (the TypeScript SDK v1, so Claude Code and the
// Inspector) would throw the answer away.
func shape(r Result) *mcp.CallToolResult {
	if r.Err != nil {
		return &mcp.CallToolResult{
			Content: []mcp.Content{mcp.NewTextContent(ErrorText(r.Err))},
			IsError: true,
		}
	}
	structured := r.Structured
	if len(structured) == 0 {
		structured = json.RawMessage("{}")
	}
	structured, err := cleanStructured(structured)
	if err != nil {
		return shape(Fail(err))
	}
	out := &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(textFallback(structured))},
		StructuredContent: structured,
	}
	for _, c := range r.Content {
		out.Content = append(out.Content, mcpContent(c))
	}
	return out
}

// ErrorText is the text content of a failed call: the error object
// {"error": CODE, "hint": ..., "required": ...} as one line of JSON.
func ErrorText(e *contract.Error) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return `{"error":"INTERNAL_ERROR","hint":"the error could not be encoded"}`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// maxTextFallback is the largest result repeated as text next to
// structuredContent; larger ones would double what every client must parse.
const maxTextFallback = 1 << 20

// textFallback is the text form of a structured result: the JSON itself, or
// for results over maxTextFallback a note saying where the result is.
func textFallback(structured json.RawMessage) string {
	if len(structured) <= maxTextFallback {
		return string(structured)
	}
	return fmt.Sprintf("The result is %d bytes of JSON; it is in structuredContent and not repeated here.", len(structured))
}

// cleanStructured makes sure a result is a JSON object of valid UTF-8
// (invalid bytes become U+FFFD, as in the text fallback): MCP requires an
// object for structuredContent, and the editor or a plugin may send anything.
func cleanStructured(raw json.RawMessage) (json.RawMessage, *contract.Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || !rawjson.Valid(trimmed) {
		return nil, contract.Errorf(contract.InternalError, "The editor or toolset answered with a result that is not a JSON object (%.40s). Reinstall the addon so it matches the server.", trimmed)
	}
	if utf8.Valid(trimmed) {
		return trimmed, nil
	}
	var v any
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return nil, contract.Errorf(contract.InternalError, "The result could not be decoded: %v.", err)
	}
	clean, err := json.Marshal(v)
	if err != nil {
		return nil, contract.Errorf(contract.InternalError, "The result could not be re-encoded: %v.", err)
	}
	return clean, nil
}

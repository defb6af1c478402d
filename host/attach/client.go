package attach

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// CallTool opens a short session on the owner's endpoint, calls one tool
// and returns its result (`godot-mcp doctor` asks the running server about
// its editor this way). The session is closed before it returns.
func CallTool(ctx context.Context, info Info, tool string, args any) (json.RawMessage, error) {
	session := ""
	client := HTTPClient(info)
	defer client.CloseIdleConnections()
	post := func(msg any) (json.RawMessage, error) {
		body, _ := json.Marshal(msg)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, info.URL, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+info.Token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		var answer json.RawMessage
		p := &Proxy{}
		err = p.relayBody(resp, func(m []byte) {
			if isResponse(m) {
				answer = append(json.RawMessage(nil), m...)
			}
		})
		return answer, err
	}
	defer func() {
		if session == "" {
			return
		}
		req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodDelete, info.URL, nil)
		if err == nil {
			req.Header.Set("Authorization", "Bearer "+info.Token)
			req.Header.Set("Mcp-Session-Id", session)
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}()
	if _, err := post(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "godot-mcp-doctor", "version": info.Version},
	}}); err != nil {
		return nil, err
	}
	if _, err := post(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return nil, err
	}
	raw, err := post(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		return nil, err
	}
	var r struct {
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			Content           []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("the server's answer to %s: %w", tool, err)
	}
	switch {
	case r.Error != nil:
		return nil, errors.New(r.Error.Message)
	case r.Result == nil:
		return nil, fmt.Errorf("no answer to %s", tool)
	case r.Result.IsError:
		text := ""
		if len(r.Result.Content) > 0 {
			text = r.Result.Content[0].Text
		}
		return nil, fmt.Errorf("%s failed: %s", tool, text)
	}
	return r.Result.StructuredContent, nil
}

// isResponse reports whether msg is a JSON-RPC response (an id, no method).
func isResponse(msg []byte) bool {
	m, err := rawjson.Object(msg)
	if err != nil {
		return false
	}
	_, hasMethod := rawjson.Get(m, "method")
	_, hasID := rawjson.Get(m, "id")
	return hasID && !hasMethod
}

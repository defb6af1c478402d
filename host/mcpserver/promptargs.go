package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// MCP prompt arguments are strings. mcp-go refuses a prompts/get whose
// arguments hold anything else with the text of Go's unmarshal error
// ("cannot unmarshal number into Go struct field GetPromptParams..."),
// which tells a client nothing it can act on. badPromptArguments spots
// such a request first, on every transport, and the answer names the
// argument and what to send instead (#24.13).

// badPromptArguments returns the JSON-RPC error answer to a prompts/get
// request msg whose arguments are not all strings; nil for any other
// message (which goes on to mcp-go unchanged).
func badPromptArguments(msg []byte) []byte {
	if !bytes.Contains(msg, []byte(`prompts/get`)) {
		return nil
	}
	top, err := rawjson.Object(msg)
	if err != nil {
		return nil
	}
	method, _ := rawjson.Get(top, "method")
	id, hasID := rawjson.Get(top, "id")
	if string(method) != `"prompts/get"` || !hasID {
		return nil
	}
	params, _ := rawjson.Get(top, "params")
	members, err := rawjson.Object(params)
	if err != nil {
		return nil
	}
	args, ok := rawjson.Get(members, "arguments")
	if !ok || string(args) == "null" {
		return nil
	}
	var why string
	if argMembers, err := rawjson.Object(args); err != nil {
		why = "prompts/get: arguments must be an object whose values are strings"
	} else {
		for _, a := range argMembers {
			if len(a.Value) > 0 && a.Value[0] != '"' {
				why = fmt.Sprintf("prompts/get: argument %q must be a string (MCP prompt arguments are strings): send %q", a.Key, string(a.Value))
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	out, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      json.RawMessage(id),
		"error":   map[string]any{"code": mcp.INVALID_PARAMS, "message": why},
	})
	return append(out, '\n')
}

// promptArgumentsChecked answers a POSTed prompts/get with non-string
// arguments itself; everything else reaches next with its body intact. A
// prompts/get is small: only bodies of at most 64 KiB are looked at, and a
// larger one streams on untouched (its limits are next's).
func promptArgumentsChecked(next http.Handler) http.Handler {
	const peek = 64 << 10
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || r.ContentLength > peek {
			next.ServeHTTP(w, r)
			return
		}
		head, err := io.ReadAll(io.LimitReader(r.Body, peek+1))
		if err == nil && len(head) <= peek {
			if answer := badPromptArguments(head); answer != nil {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(answer)
				return
			}
		}
		r.Body = readCloser{io.MultiReader(bytes.NewReader(head), errReader{err}, r.Body), r.Body}
		next.ServeHTTP(w, r)
	})
}

// readCloser reads r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }

// errReader fails with err (nil: ends at once, so a MultiReader goes on).
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

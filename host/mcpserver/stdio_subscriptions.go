package mcpserver

import (
	"bytes"
	"encoding/json"
	"sync"
)

// From MCP 2026-07-28 on, a client receives change notifications only
// through subscriptions/listen: it names the notification types it wants,
// and on stdio, where every subscription shares the one channel, each
// notification carries _meta["io.modelcontextprotocol/subscriptionId"], the
// id of the subscriptions/listen request it belongs to. A type the client
// did not ask for MUST NOT be sent. mcp-go answers subscriptions/listen and
// tags its acknowledgement, but its stdio layer neither tags nor filters the
// notifications that follow (its Streamable HTTP layer does both), so the
// stdio server does it here, on the line it writes: a list_changed or
// resources/updated notification goes out once per open subscription that
// asked for it, tagged; to a 2026-07-28 client without a subscription it
// does not go out at all; to an earlier client (initialize handshake) it
// goes out unchanged. Retire this when mcp-go's stdio layer tags and
// filters (see docs/clients.md).
type stdioSubscriptions struct {
	mu     sync.Mutex
	modern bool
	subs   []stdioSub // open subscriptions, in the order they were opened
}

type stdioSub struct {
	id     json.RawMessage // the subscriptions/listen request's id, as sent
	filter subscriptionFilter
}

type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged"`
	PromptsListChanged    bool     `json:"promptsListChanged"`
	ResourcesListChanged  bool     `json:"resourcesListChanged"`
	ResourceSubscriptions []string `json:"resourceSubscriptions"`
}

const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// observe notes what a client's line says about subscriptions: a
// subscriptions/listen request opens one, a cancellation of it closes it, an
// initialize marks an earlier-revision client and a request carrying the
// 2026-07-28 (or later) protocol version in _meta a stateless one.
func (s *stdioSubscriptions) observe(line []byte) {
	if !bytes.Contains(line, []byte("subscriptions/listen")) && !bytes.Contains(line, []byte("notifications/cancelled")) &&
		!bytes.Contains(line, []byte(`"initialize"`)) && !bytes.Contains(line, []byte(metaProtocolVersion)) {
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Notifications subscriptionFilter `json:"notifications"`
			RequestID     json.RawMessage    `json:"requestId"`
			Meta          map[string]any     `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := msg.Params.Meta[metaProtocolVersion].(string); ok && v >= "2026-07-28" {
		s.modern = true
	}
	switch msg.Method {
	case "initialize":
		s.modern = false
	case "subscriptions/listen":
		if len(msg.ID) > 0 {
			s.subs = append(s.subs, stdioSub{id: compactID(msg.ID), filter: msg.Params.Notifications})
		}
	case "notifications/cancelled":
		s.close(compactID(msg.Params.RequestID))
	}
}

func compactID(id json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return id
	}
	return b.Bytes()
}

func (s *stdioSubscriptions) close(id json.RawMessage) {
	for i, sub := range s.subs {
		if bytes.Equal(sub.id, id) {
			s.subs = append(s.subs[:i], s.subs[i+1:]...)
			return
		}
	}
}

// rewrite is what the server writes for one outgoing line: the line itself,
// or for a change notification, one tagged copy per subscription that asked
// for it (none when no one did).
//
// Only the start of a line is looked at unless it is a change notification
// (a few hundred bytes): results may be megabytes.
func (s *stdioSubscriptions) rewrite(line []byte) [][]byte {
	head := line[:min(len(line), 160)]
	if !bytes.Contains(head, []byte(`"method":"notifications/`)) {
		s.mu.Lock()
		defer s.mu.Unlock()
		// The answer to a subscriptions/listen request ends its stream.
		for _, sub := range s.subs {
			if i := bytes.Index(head, append([]byte(`"id":`), sub.id...)); i >= 0 {
				if rest := head[i+5+len(sub.id):]; len(rest) > 0 && (rest[0] == ',' || rest[0] == '}') {
					s.close(sub.id)
					break
				}
			}
		}
		return [][]byte{line}
	}
	if !bytes.Contains(head, []byte("list_changed")) && !bytes.Contains(head, []byte("resources/updated")) {
		return [][]byte{line}
	}
	var msg struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return [][]byte{line}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !changeNotification(msg.Method) {
		return [][]byte{line}
	}
	if meta, _ := msg.Params["_meta"].(map[string]any); meta != nil && meta["io.modelcontextprotocol/subscriptionId"] != nil {
		return [][]byte{line} // already tagged
	}
	if len(s.subs) == 0 {
		if s.modern {
			return nil
		}
		return [][]byte{line}
	}
	var out [][]byte
	for _, sub := range s.subs {
		if !sub.filter.allows(msg.Method, msg.Params) {
			continue
		}
		params := make(map[string]any, len(msg.Params)+1)
		for k, v := range msg.Params {
			params[k] = v
		}
		meta := map[string]any{}
		if m, ok := params["_meta"].(map[string]any); ok {
			for k, v := range m {
				meta[k] = v
			}
		}
		meta["io.modelcontextprotocol/subscriptionId"] = json.RawMessage(sub.id)
		params["_meta"] = meta
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": msg.Method, "params": params})
		if err != nil {
			continue
		}
		out = append(out, append(b, '\n'))
	}
	return out
}

func changeNotification(method string) bool {
	switch method {
	case "notifications/tools/list_changed", "notifications/prompts/list_changed",
		"notifications/resources/list_changed", "notifications/resources/updated":
		return true
	}
	return false
}

func (f subscriptionFilter) allows(method string, params map[string]any) bool {
	switch method {
	case "notifications/tools/list_changed":
		return f.ToolsListChanged
	case "notifications/prompts/list_changed":
		return f.PromptsListChanged
	case "notifications/resources/list_changed":
		return f.ResourcesListChanged
	case "notifications/resources/updated":
		uri, _ := params["uri"].(string)
		for _, u := range f.ResourceSubscriptions {
			if u == uri {
				return true
			}
		}
	}
	return false
}

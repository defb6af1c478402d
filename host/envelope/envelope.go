// Package envelope defines the JSON envelope spoken between the godot-mcp host
// and the Godot editor addon (see docs/envelope.md and the spec's envelope.md).
//
// Server → addon:   {"id": "42", "command": "cmd_x", "params": {...}}
// Addon → server:   {"id": "42", "ok": true, "result": {...}}
//
//	{"id": "42", "ok": false, "error": "CODE", "hint": "...", "required": "..."}
//
// Pushes (server → addon, no waiter) carry no id. The PEER_REPLACED notice is
// {"ok": false, "error": "PEER_REPLACED", "hint": "..."} with neither id nor command.
//
// The words inside the frames (error codes, the error type, precondition
// names, command classes) are the contract's, in sdk/contract; this package
// holds only the frames themselves.
package envelope

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Commands the host itself speaks on the bridge.
const (
	CmdPing           = "cmd_ping"
	CmdEditorHello    = "cmd_editor_hello"    // addon → server, first message
	CmdServerHello    = "cmd_server_hello"    // server → addon push
	CmdToolsetsUpdate = "cmd_toolsets_update" // server → addon push
	CmdEditorCommands = "cmd_editor_commands" // addon → server push: the command table changed
)

// MaxFrameBytes is the largest frame either side accepts (64 MiB).
const MaxFrameBytes = 64 << 20

// Command is a server → addon message. ID is empty for fire-and-forget pushes.
type Command struct {
	ID      string          `json:"id,omitempty"`
	Command string          `json:"command"`
	Params  json.RawMessage `json:"params"`
}

// Response is an addon → server answer to a Command.
type Response struct {
	ID       string             `json:"id,omitempty"`
	OK       bool               `json:"ok"`
	Result   json.RawMessage    `json:"result,omitempty"`
	Error    contract.ErrorCode `json:"error,omitempty"`
	Hint     string             `json:"hint,omitempty"`
	Required string             `json:"required,omitempty"`
}

// Err returns the response's failure as a *contract.Error, or nil when OK.
func (r Response) Err() *contract.Error {
	if r.OK {
		return nil
	}
	code := r.Error
	if !code.Valid() {
		return &contract.Error{Code: contract.InternalError, Hint: fmt.Sprintf("The editor answered with an unknown error code %q (hint: %s). Update the addon to match the server.", r.Error, r.Hint)}
	}
	return &contract.Error{Code: code, Hint: r.Hint, Required: r.Required}
}

// Failure builds a failed Response for id from err.
func Failure(id string, err *contract.Error) Response {
	return Response{ID: id, OK: false, Error: err.Code, Hint: err.Hint, Required: err.Required}
}

// Success builds a successful Response for id with result marshalled to JSON.
func Success(id string, result any) (Response, error) {
	raw, err := json.Marshal(result)
	if err != nil {
		return Response{}, err
	}
	return Response{ID: id, OK: true, Result: raw}, nil
}

// Frame is any message read from the editor: a Response (has ok) or a
// request from the editor (has command), e.g. cmd_editor_hello or cmd_ping.
type Frame struct {
	ID       string             `json:"id"`
	Command  string             `json:"command"`
	Params   json.RawMessage    `json:"params"`
	OK       *bool              `json:"ok"`
	Result   json.RawMessage    `json:"result"`
	Error    contract.ErrorCode `json:"error"`
	Hint     string             `json:"hint"`
	Required string             `json:"required"`
}

// IsResponse reports whether the frame answers a server command.
func (f Frame) IsResponse() bool { return f.OK != nil && f.Command == "" }

// Response converts a response frame to a Response.
func (f Frame) Response() Response {
	ok := f.OK != nil && *f.OK
	return Response{ID: f.ID, OK: ok, Result: f.Result, Error: f.Error, Hint: f.Hint, Required: f.Required}
}

// Decode errors.
var (
	ErrFrameTooLarge = errors.New("frame exceeds 64 MiB")
	ErrNotObject     = errors.New("frame is not a JSON object")
	ErrNoKind        = errors.New("frame has neither `ok` nor `command`")
)

// DecodeFrame parses one text frame from the editor. Unknown fields are
// ignored. It never panics; malformed input yields an error (and, when the
// id could be read, the id so that only its own waiter is failed).
func DecodeFrame(data []byte) (Frame, error) {
	if len(data) > MaxFrameBytes {
		return Frame{}, ErrFrameTooLarge
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Frame{}, ErrNotObject
	}
	f, ok := decodeKnown(trimmed)
	if !ok {
		f = Frame{}
		if err := json.Unmarshal(trimmed, &f); err != nil {
			// Keep the id when it is readable, so the caller can fail the call.
			var idOnly struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(trimmed, &idOnly) == nil {
				var s string
				if json.Unmarshal(idOnly.ID, &s) == nil {
					f = Frame{ID: s}
				}
			}
			return f, fmt.Errorf("malformed frame: %w", err)
		}
	}
	if f.OK == nil && f.Command == "" {
		return f, ErrNoKind
	}
	return f, nil
}

// decodeKnown decodes a frame whose members are all the envelope's, spelled
// exactly, reading the frame once: params and result (which can be
// megabytes) are kept as the raw bytes rawjson validated. ok is false for
// anything else (malformed JSON, a wrong type, other or case-folded keys),
// which encoding/json then decodes as before.
func decodeKnown(data []byte) (f Frame, ok bool) {
	members, err := rawjson.Object(data)
	if err != nil {
		return Frame{}, false
	}
	for _, m := range members {
		switch m.Key {
		case "id":
			err = json.Unmarshal(m.Value, &f.ID)
		case "command":
			err = json.Unmarshal(m.Value, &f.Command)
		case "params":
			f.Params = json.RawMessage(m.Value)
		case "ok":
			err = json.Unmarshal(m.Value, &f.OK)
		case "result":
			f.Result = json.RawMessage(m.Value)
		case "error":
			err = json.Unmarshal(m.Value, &f.Error)
		case "hint":
			err = json.Unmarshal(m.Value, &f.Hint)
		case "required":
			err = json.Unmarshal(m.Value, &f.Required)
		default:
			return Frame{}, false
		}
		if err != nil {
			return Frame{}, false
		}
	}
	return f, true
}

// HelloProof is the proof of the bridge token the two ends of the bridge
// exchange in the hello (#24.2): hex(HMAC-SHA256(token, "godot-mcp " +
// side + "\n" + nonce)), side "editor" (in cmd_editor_hello) or "server"
// (in its answer, server_proof). Neither end sends the token itself, so a
// program that took the bridge port learns nothing it can use, and the
// editor talks only to a server that knows the token.
func HelloProof(token, side, nonce string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("godot-mcp " + side + "\n" + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

// EditorHello is the params of the editor's first message, cmd_editor_hello.
type EditorHello struct {
	ProjectDir   string `json:"project_dir"`
	GodotVersion string `json:"godot_version"`
	AddonVersion string `json:"addon_version"`
	// GodotExecutable is the editor's own executable
	// (OS.get_executable_path()); the headless tools run it when GODOT_BIN
	// is unset and it passes internal/godotexe's checks.
	GodotExecutable string `json:"godot_executable,omitempty"`
	// Token is GODOT_MCP_BRIDGE_TOKEN itself, as addons before #24.2 sent
	// it (to whatever listened on the port). Today's addon sends Nonce and
	// TokenProof instead, and checks the answer's server_proof.
	Token string `json:"token,omitempty"`
	// Nonce is the editor's random challenge (64 hex digits): the server
	// answers it with HelloProof(token, "server", nonce).
	Nonce string `json:"nonce,omitempty"`
	// TokenProof is HelloProof(token, "editor", nonce): the editor knows
	// the token without handing it to whatever holds the bridge port.
	TokenProof string `json:"token_proof,omitempty"`
	// Commands is the editor's command table: every command its router
	// serves, with its class. The host refuses a toolset's command the
	// table does not declare (see docs/contract.md).
	Commands map[string]CommandInfo `json:"commands,omitempty"`
	// Extensions are the toolset extensions the editor loaded from
	// res://addons/godot_mcp_ext/: folder name -> version ("" when the
	// folder has no godot-mcp stamp).
	Extensions map[string]string `json:"extensions,omitempty"`
}

// CommandInfo is one entry of the editor's command table.
type CommandInfo struct {
	// Class is a contract.Class: "read_only", "mutating", "destructive" or "runtime".
	Class string `json:"class"`
	// DryRun: the command takes a dry_run flag and then changes nothing.
	DryRun bool `json:"dry_run,omitempty"`
	// Owner is "core" or the name of the toolset the command belongs to.
	Owner string `json:"owner"`
}

// EditorCommands is the params of the cmd_editor_commands push: the whole
// table again, replacing the one the hello (or an earlier push) carried,
// e.g. after an extension's handlers were loaded.
type EditorCommands struct {
	Commands map[string]CommandInfo `json:"commands"`
	// Extensions: as in EditorHello (absent from an older addon).
	Extensions map[string]string `json:"extensions,omitempty"`
}

// ServerHello is the params of the cmd_server_hello push.
type ServerHello struct {
	ServerVersion         string   `json:"server_version"`
	ContractVersion       int      `json:"contract_version"`
	MinCompatibleContract int      `json:"min_compatible_contract"`
	EnabledToolsets       []string `json:"enabled_toolsets"`
}

// ToolsetsUpdate is the params of the cmd_toolsets_update push.
type ToolsetsUpdate struct {
	EnabledToolsets []string `json:"enabled_toolsets"`
}

// Marshal encodes v compactly without HTML escaping.
func Marshal(v any) ([]byte, error) {
	if r, ok := v.(Response); ok {
		return r.marshal()
	}
	return marshalValue(v)
}

func marshalValue(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// marshal encodes r as Marshal would encode its struct, except that Result
// is written as it is (after one fast validity check) instead of being
// compacted: an answer can carry megabytes.
func (r Response) marshal() ([]byte, error) {
	if len(r.Result) > 0 && !rawjson.Valid(r.Result) {
		return nil, errors.New("json: the response's result is not valid JSON")
	}
	b := make([]byte, 0, len(r.Result)+len(r.Hint)+len(r.ID)+64)
	b = append(b, '{')
	if r.ID != "" {
		b = appendMember(b, "id", r.ID)
		b = append(b, ',')
	}
	b = append(b, `"ok":`...)
	b = strconv.AppendBool(b, r.OK)
	if len(r.Result) > 0 {
		b = append(b, `,"result":`...)
		b = append(b, r.Result...)
	}
	for _, m := range [...]struct{ key, value string }{{"error", string(r.Error)}, {"hint", r.Hint}, {"required", r.Required}} {
		if m.value != "" {
			b = append(b, ',')
			b = appendMember(b, m.key, m.value)
		}
	}
	return append(b, '}'), nil
}

func appendMember(b []byte, key, value string) []byte {
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `":`...)
	s, _ := marshalValue(value) // a string always encodes
	return append(b, s...)
}

package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// Host is a tool call's handle on the godot-mcp host.
type Host interface {
	// Send sends one command to the editor addon and waits for its answer,
	// at most timeout (0 means the host's default). params is marshalled to
	// a JSON object (nil sends {}; a json.RawMessage is sent as is). When
	// the editor answers ok:false, or no editor is connected, the error is
	// an *Error with the editor's code, hint and required field.
	Send(ctx context.Context, command string, params any, timeout time.Duration) (json.RawMessage, error)
	// Progress reports progress of the current call to the agent. It does
	// nothing when the agent asked for no progress notifications.
	Progress(ctx context.Context, progress, total float64, message string)
	// Logger logs to the host's log (stderr), tagged with the toolset and
	// tool; during a tool call the records also reach the calling client as
	// MCP log messages when it asked for their level. Never print to stdout.
	Logger() *slog.Logger
}

// Normalizer is a result type that fixes itself up after it is decoded from
// an editor answer, typically turning nil slices and maps into empty ones so
// that the tool's result has [] rather than null where its output schema
// promises an array:
//
//	func (o *ListOut) Normalize() {
//		if o.Items == nil {
//			o.Items = []Item{}
//		}
//	}
//
// Send calls Normalize on a *R that implements it.
type Normalizer interface {
	Normalize()
}

// Send is Host.Send with the result decoded into R. When *R is a
// Normalizer, Normalize runs on the decoded result, only after a
// successful decode: on an error the result is R's zero value.
func Send[R any](ctx context.Context, h Host, command string, params any, timeout time.Duration) (R, error) {
	var out R
	raw, err := h.Send(ctx, command, params, timeout)
	if err != nil {
		return out, err
	}
	if err := notAnObject[R](raw); err != nil {
		return out, Internal(fmt.Sprintf("the editor's answer to %s does not have the expected shape (%v); reinstall the addon so it matches the server", command, err))
	}
	if err := Unmarshal(raw, &out); err != nil {
		var zero R
		return zero, Internal(fmt.Sprintf("the editor's answer to %s does not have the expected shape (%v); reinstall the addon so it matches the server", command, err))
	}
	if ch, ok := h.(*callHost); ok && ch.result == reflect.TypeFor[R]() && strictAnswers() {
		if err := allFieldsKnown[R](raw); err != nil {
			var zero R
			return zero, Internal(fmt.Sprintf("the editor's answer to %s has a field its result type lacks, which the agent would never see (%v; %s is set)", command, err, StrictAnswersEnv))
		}
	}
	if n, ok := any(&out).(Normalizer); ok {
		n.Normalize()
	}
	return out, nil
}

// StrictAnswersEnv, set to 1 in the environment of the host (its plugins
// inherit it), makes Send refuse an editor answer that has a field R does
// not declare when R is the calling tool's result type (Out of NewTool):
// that answer is what the tool passes on, and such a field is dropped on
// the way to the agent and missing from the output schema. A Send of
// another type reads only the fields it names, as always. The e2e suite
// runs so, which proves each tool's result type against its real editor
// code.
const StrictAnswersEnv = "GODOT_MCP_STRICT_ANSWERS"

func strictAnswers() bool { return os.Getenv(StrictAnswersEnv) == "1" }

// allFieldsKnown decodes raw into a fresh R refusing unknown object keys.
func allFieldsKnown[R any](raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(new(R))
}

// callHost is the Host of one call. Every command it sends carries the id
// of its call: the host sends a command only while that call runs, and only
// when the call's class allows it.
type callHost struct {
	backend plugmodel.Host
	token   string
	callID  string
	toolset string
	tool    string
	// result is the calling tool's result type (nil outside a tool call).
	result reflect.Type

	logOnce sync.Once
	logger  *slog.Logger // made on first use: most calls never log
}

// newCallHostForCall is the Host of the call (tool call, resource read or
// prompt) the host knows as callID: its commands and log records carry the
// id.
func newCallHostForCall(backend plugmodel.Host, token, callID, toolset, tool string) *callHost {
	return &callHost{backend: backend, token: token, callID: callID, toolset: toolset, tool: tool}
}

func (h *callHost) Send(ctx context.Context, command string, params any, timeout time.Duration) (json.RawMessage, error) {
	raw, err := encodeParams(params)
	if err != nil {
		return nil, Internal(fmt.Sprintf("params of %s: %v; this is a bug in the toolset", command, err))
	}
	res, err := h.backend.Send(ctx, h.callID, command, raw, timeout)
	if err != nil {
		return nil, AsError(err)
	}
	return res, nil
}

// encodeParams turns Send's params into a JSON object.
func encodeParams(params any) (json.RawMessage, error) {
	var raw []byte
	if params == nil {
		return json.RawMessage("{}"), nil
	}
	// A typed nil map or pointer (var p map[string]any) means "no params"
	// too: it would otherwise encode as null.
	if v := reflect.ValueOf(params); (v.Kind() == reflect.Map || v.Kind() == reflect.Pointer) && v.IsNil() {
		return json.RawMessage("{}"), nil
	}
	switch p := params.(type) {
	case json.RawMessage:
		raw = bytes.TrimSpace(p)
	default:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(params); err != nil {
			return nil, err
		}
		raw = bytes.TrimSpace(buf.Bytes())
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("params must encode to a JSON object")
	}
	return raw, nil
}

func (h *callHost) Progress(ctx context.Context, progress, total float64, message string) {
	if h.token == "" {
		return
	}
	if err := h.backend.Progress(ctx, h.token, progress, total, message); err != nil {
		h.Logger().Debug("progress notification failed", "error", err)
	}
}

func (h *callHost) Logger() *slog.Logger {
	h.logOnce.Do(func() {
		h.logger = slog.New(&logHandler{backend: h.backend, callID: h.callID}).With("toolset", h.toolset, "tool", h.tool)
	})
	return h.logger
}

// logHandler sends records to the host through Backend.Log.
type logHandler struct {
	backend plugmodel.Host
	callID  string
	attrs   []slog.Attr
	group   string
}

func (l *logHandler) Enabled(context.Context, slog.Level) bool { return true }

func (l *logHandler) Handle(ctx context.Context, r slog.Record) error {
	attrs := append([]slog.Attr(nil), l.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, l.qualify(a))
		return true
	})
	// A log line must not hang a tool: bound it, and keep it even when the
	// call's context is already done.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return l.backend.Log(plugmodel.WithCallID(ctx, l.callID), r.Level, r.Message, attrs)
}

func (l *logHandler) qualify(a slog.Attr) slog.Attr {
	if l.group != "" {
		a.Key = l.group + "." + a.Key
	}
	return a
}

func (l *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *l
	c.attrs = append([]slog.Attr(nil), l.attrs...)
	for _, a := range attrs {
		c.attrs = append(c.attrs, l.qualify(a))
	}
	return &c
}

func (l *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return l
	}
	c := *l
	if c.group != "" {
		c.group += "." + name
	} else {
		c.group = name
	}
	return &c
}

// GameMessageCommand is the core editor command that relays a toolset's
// game message to the running game (GameMessage).
const GameMessageCommand = "cmd_game_message"

// GameMessage sends the toolset's game message "<toolset>:<message>" to the
// running game and decodes its answer into R. The game side is the
// toolset's GameCode (game.gd's get_messages()), loaded by the runtime
// toolset's probe when the game started. Only a tool of class Runtime may
// send it (the host refuses any other with PRECONDITION_FAILED, required
// command_class), and only to its own toolset's messages: the host fills in
// the toolset. timeout bounds the wait for the game's answer (0: 10 s).
// Without a game with the probe the error is PRECONDITION_FAILED (required
// runtime_probe); when the game runs without this toolset's game code, or
// an older version of it, PRECONDITION_FAILED (required toolset_game_code)
// says to play the game again.
func GameMessage[R any](ctx context.Context, h Host, message string, params any, timeout time.Duration) (R, error) {
	var out R
	raw, err := encodeParams(params)
	if err != nil {
		return out, Internal(fmt.Sprintf("params of game message %s: %v; this is a bug in the toolset", message, err))
	}
	ms := timeout.Milliseconds()
	if ms <= 0 {
		ms = 10000
	}
	ms = min(ms, 60000)
	// The editor waits ms for the game; the host waits a little longer for the editor.
	res, err := h.Send(ctx, GameMessageCommand, map[string]any{"message": message, "params": raw, "timeout_ms": ms}, time.Duration(ms)*time.Millisecond+5*time.Second)
	if err != nil {
		return out, err
	}
	if err := Unmarshal(res, &out); err != nil {
		return out, Internal(fmt.Sprintf("the game's answer to %s does not have the expected shape (%v); play the game again so it runs the toolset's current game code", message, err))
	}
	return out, nil
}

// notAnObject refuses an answer that is not a JSON object when R is a
// struct or a map: decoding null (or nothing) into one would succeed and
// report a result the editor never gave.
func notAnObject[R any](raw json.RawMessage) error {
	t := reflect.TypeFor[R]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct && t.Kind() != reflect.Map {
		return nil
	}
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] != '{' {
		if len(b) > 40 {
			b = b[:40]
		}
		return fmt.Errorf("want an object, got %q", b)
	}
	return nil
}

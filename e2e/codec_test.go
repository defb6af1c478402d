package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// bridgeSession is an editor connected straight to an in-process bridge, for
// addon commands that have no MCP tool (cmd_value_roundtrip, cmd_ping, …).
type bridgeSession struct {
	b       *bridge.Bridge
	editor  *editor
	project string
}

var sharedBridge struct {
	once sync.Once
	s    *bridgeSession
	err  error
}

// bridgeEditor returns the bridge session: started on first use, it lives
// until TestMain ends, so the tests that need it share one editor. The
// editor's output printed during the test is checked when the test ends.
func bridgeEditor(t *testing.T) *bridgeSession {
	t.Helper()
	sharedBridge.once.Do(func() { sharedBridge.s, sharedBridge.err = startBridgeSession() })
	if sharedBridge.err != nil {
		t.Fatal(sharedBridge.err)
	}
	s := sharedBridge.s
	if !s.editor.running() {
		t.Fatalf("the bridge session's editor has exited:\n%s", s.editor.out.String())
	}
	mark := s.editor.out.Len()
	t.Cleanup(func() { checkEditorOutput(t, "bridge-session editor", s.editor.out.since(mark)) })
	return s
}

func startBridgeSession() (*bridgeSession, error) {
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: buildinfo.Version})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if err := b.Start(ctx); err != nil {
		return nil, err
	}
	project, err := scratchProject("bridge-")
	if err != nil {
		b.Close()
		return nil, err
	}
	e, err := startEditor(project, b.URL())
	if err != nil {
		b.Close()
		return nil, err
	}
	if err := b.WaitConnected(ctx); err != nil {
		b.Close()
		e.kill()
		return nil, err
	}
	s := &bridgeSession{b: b, editor: e, project: project}
	closers = append(closers, func() { b.Close(); e.kill() })
	return s, nil
}

func (s *bridgeSession) send(t *testing.T, command string, params any) envelope.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return s.b.Send(ctx, command, params, 10*time.Second)
}

// The addon introduces itself with the project dir and both versions, and
// answers what it does not know with the documented INTERNAL_ERROR.
func TestAddonDirectCommands(t *testing.T) {
	s := bridgeEditor(t)
	p := s.b.Status().Peer
	if p == nil {
		t.Fatal("no peer")
	}
	if !sameDir(p.ProjectDir, s.project) || !strings.HasPrefix(p.GodotVersion, "4.") || p.AddonVersion != buildinfo.Version {
		t.Errorf("hello: %+v; want project %s, Godot 4.x, addon %s", *p, s.project, buildinfo.Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := s.b.Ping(ctx); err != nil {
		t.Errorf("cmd_ping: %v", err)
	}
	r := s.send(t, "cmd_no_such_thing", map[string]any{})
	if r.OK || r.Error != contract.InternalError || !strings.Contains(r.Hint, "no handler for 'cmd_no_such_thing'") {
		t.Errorf("unknown command answered %+v, want INTERNAL_ERROR naming the command", r)
	}
	r = s.send(t, "cmd_describe_class", map[string]any{"class_name": 5})
	if r.OK || r.Error != contract.ValidationError {
		t.Errorf("class_name 5 answered %+v, want VALIDATION_ERROR", r)
	}
	r = s.send(t, "cmd_undo", map[string]any{"count": "two"})
	if r.OK || r.Error != contract.ValidationError {
		t.Errorf("count \"two\" answered %+v, want VALIDATION_ERROR", r)
	}
}

// Property hints (PROPERTY_HINT_* values of Godot 4).
const (
	hintResourceType = 17
	hintArrayType    = 31
)

// The value codec round-trips every type docs/values.md lists, in a real
// editor, and refuses shapes that do not fit instead of zeroing them.
func TestValueCodecRoundTrip(t *testing.T) {
	s := bridgeEditor(t)
	basis := `{"x": {"x": 1, "y": 0, "z": 0}, "y": {"x": 0, "y": 1, "z": 0}, "z": {"x": 0, "y": 0, "z": 1}}`
	roundTrips := []struct {
		typ        string
		value      string
		want       string // "" = value itself
		wantType   string // "" = typ
		hint       int
		hintString string
		approx     bool // compare numbers to 1e-6 (hand-written wants of 8-bit colour channels)
	}{
		{typ: "bool", value: `true`},
		{typ: "int", value: `42`},
		{typ: "int", value: `-9007199254740991`},
		{typ: "float", value: `0.5`},
		{typ: "float", value: `"inf"`},
		{typ: "float", value: `"-inf"`},
		{typ: "String", value: `"héllo ✓"`},
		{typ: "StringName", value: `"jump"`},
		{typ: "NodePath", value: `"Player/Sprite2D:position"`},
		{typ: "NodePath", value: `"../Camera2D"`},
		{typ: "Vector2", value: `{"x": 10.5, "y": -3}`},
		{typ: "Vector2", value: `{"x": 0.1, "y": 0.2}`},
		{typ: "Vector2i", value: `{"x": 10, "y": -3}`},
		{typ: "Vector3", value: `{"x": 0, "y": 1.25, "z": -2}`},
		{typ: "Vector3i", value: `{"x": 1, "y": 2, "z": 3}`},
		{typ: "Vector4", value: `{"x": 1, "y": 2, "z": 3, "w": 4.5}`},
		{typ: "Vector4i", value: `{"x": 1, "y": 2, "z": 3, "w": 4}`},
		{typ: "Color", value: `{"r": 1, "g": 0.5, "b": 0, "a": 0.25}`},
		{typ: "Color", value: `{"r": 1, "g": 0.5, "b": 0}`, want: `{"r": 1, "g": 0.5, "b": 0, "a": 1}`},
		{typ: "Color", value: `"#ff8000"`, want: `{"r": 1, "g": 0.5019608, "b": 0, "a": 1}`, approx: true},
		{typ: "Color", value: `"#00ff0080"`, want: `{"r": 0, "g": 1, "b": 0, "a": 0.5019608}`, approx: true},
		{typ: "Rect2", value: `{"position": {"x": 0, "y": 0.5}, "size": {"x": 64, "y": 32}}`},
		{typ: "Rect2i", value: `{"position": {"x": -1, "y": 2}, "size": {"x": 64, "y": 32}}`},
		{typ: "Transform2D", value: `{"x": {"x": 1, "y": 0}, "y": {"x": 0, "y": 1}, "origin": {"x": 100, "y": 50}}`},
		{typ: "Transform2D", value: `{"x": {"x": 0, "y": 2}, "y": {"x": -2, "y": 0}, "origin": {"x": -1.5, "y": 0}}`},
		{typ: "Basis", value: basis},
		{typ: "Basis", value: `{"x": {"x": 0, "y": 0, "z": -1}, "y": {"x": 0, "y": 1, "z": 0}, "z": {"x": 1, "y": 0, "z": 0}}`},
		{typ: "Transform3D", value: `{"basis": ` + basis + `, "origin": {"x": 0, "y": 2, "z": -5}}`},
		{typ: "Quaternion", value: `{"x": 0, "y": 0.7071068, "z": 0, "w": 0.7071068}`},
		{typ: "AABB", value: `{"position": {"x": -1, "y": -1, "z": -1}, "size": {"x": 2, "y": 2, "z": 2}}`},
		{typ: "Plane", value: `{"normal": {"x": 0, "y": 1, "z": 0}, "d": 2.5}`},
		{typ: "Projection", value: `{"x": {"x": 1, "y": 0, "z": 0, "w": 0}, "y": {"x": 0, "y": 1, "z": 0, "w": 0}, "z": {"x": 0, "y": 0, "z": 1, "w": 0}, "w": {"x": 0, "y": 0, "z": 0, "w": 1}}`},
		{typ: "Array", value: `[1, "a", [true, null], {"k": 2.5}]`},
		{typ: "Array", value: `[1, 2, 3]`, hint: hintArrayType, hintString: "int"},
		{typ: "Dictionary", value: `{"hp": 10, "name": "Bob", "pos": {"x": 1, "y": 2}, "tags": ["a"]}`},
		{typ: "PackedByteArray", value: `[0, 137, 255]`},
		{typ: "PackedInt32Array", value: `[1, -2, 2147483647]`},
		{typ: "PackedInt64Array", value: `[1, -2, 9007199254740991]`},
		{typ: "PackedFloat32Array", value: `[0.5, 1.5, 0.1]`},
		{typ: "PackedFloat64Array", value: `[0.1, 2.5, -1e300]`},
		{typ: "PackedStringArray", value: `["a", "b", ""]`},
		{typ: "PackedVector2Array", value: `[{"x": 0, "y": 0}, {"x": 10, "y": 0.5}]`},
		{typ: "PackedVector3Array", value: `[{"x": 1, "y": 2, "z": 3}]`},
		{typ: "PackedVector4Array", value: `[{"x": 1, "y": 2, "z": 3, "w": 4}]`},
		{typ: "PackedColorArray", value: `["#ff0000", {"r": 0, "g": 1, "b": 0}]`, want: `[{"r": 1, "g": 0, "b": 0, "a": 1}, {"r": 0, "g": 1, "b": 0, "a": 1}]`},
		{typ: "Object", value: `"res://shape.tres"`, hint: hintResourceType, hintString: "Shape2D",
			want: `{"type": "RectangleShape2D", "path": "res://shape.tres"}`, wantType: "Object"},
		{typ: "Object", value: `{"type": "RectangleShape2D", "path": "res://shape.tres"}`, hint: hintResourceType, hintString: "Shape2D",
			want: `{"type": "RectangleShape2D", "path": "res://shape.tres"}`, wantType: "Object"},
		{typ: "Object", value: `"res://icon.svg"`, hint: hintResourceType, hintString: "Texture2D",
			want: `{"type": "CompressedTexture2D", "path": "res://icon.svg"}`, wantType: "Object"},
		{typ: "Object", value: `null`, hint: hintResourceType, hintString: "Texture2D", want: `null`, wantType: "Nil"},
	}
	for _, c := range roundTrips {
		name := c.typ + " " + c.value
		t.Run(name, func(t *testing.T) {
			want := c.want
			if want == "" {
				want = c.value
			}
			params := map[string]any{"type": c.typ, "value": json.RawMessage(c.value)}
			if c.hint != 0 {
				params["hint"], params["hint_string"] = c.hint, c.hintString
			}
			r := s.send(t, "cmd_value_roundtrip", params)
			if !r.OK {
				t.Fatalf("refused: %s: %s", r.Error, r.Hint)
			}
			var got struct {
				Type  string          `json:"type"`
				Value json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal(r.Result, &got); err != nil {
				t.Fatal(err)
			}
			wantType := c.wantType
			if wantType == "" {
				wantType = c.typ
			}
			if got.Type != wantType {
				t.Errorf("decoded to a %s, want %s", got.Type, wantType)
			}
			equal := jsonEqual
			if c.approx {
				equal = jsonApprox
			}
			if !equal(got.Value, json.RawMessage(want)) {
				t.Errorf("round trip gave %s, want %s", got.Value, want)
			}
		})
	}

	// An inline resource comes back inline with its stored properties.
	t.Run("inline resource", func(t *testing.T) {
		r := s.send(t, "cmd_value_roundtrip", map[string]any{"type": "Object", "hint": hintResourceType, "hint_string": "Shape2D",
			"value": json.RawMessage(`{"type": "RectangleShape2D", "properties": {"size": {"x": 32, "y": 16}}}`)})
		if !r.OK {
			t.Fatalf("refused: %s: %s", r.Error, r.Hint)
		}
		var got struct {
			Value struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"value"`
		}
		json.Unmarshal(r.Result, &got)
		if got.Value.Type != "RectangleShape2D" || !jsonEqual(got.Value.Properties["size"], json.RawMessage(`{"x": 32, "y": 16}`)) {
			t.Errorf("inline resource came back as %s", r.Result)
		}
	})

	refusals := []struct {
		typ, value, hintPart string
		hint                 int
		hintString           string
	}{
		{typ: "Vector2", value: `{"x": 1, "y": 2, "z": 3}`, hintPart: "{x: number, y: number}"},
		{typ: "Vector2", value: `{"x": 1}`, hintPart: "{x: number, y: number}"},
		{typ: "Vector2", value: `[1, 2]`, hintPart: "{x: number, y: number}"},
		{typ: "Vector2", value: `{"x": "1", "y": 2}`},
		{typ: "Vector2i", value: `{"x": 1.5, "y": 2}`, hintPart: "expected an integer"},
		{typ: "Vector3", value: `{"x": 1, "y": 2}`},
		{typ: "Vector4i", value: `{"x": 1, "y": 2, "z": 3}`},
		{typ: "Color", value: `"orange"`, hintPart: "#rrggbb"},
		{typ: "Color", value: `{"r": 1, "g": 0}`},
		{typ: "Rect2", value: `{"position": {"x": 0, "y": 0}, "size": 3}`, hintPart: "size"},
		{typ: "Transform2D", value: `{"x": {"x": 1, "y": 0}, "y": {"x": 0, "y": 1}}`},
		{typ: "Basis", value: `{"x": {"x": 1, "y": 0}, "y": {"x": 0, "y": 1, "z": 0}, "z": {"x": 0, "y": 0, "z": 1}}`},
		{typ: "Transform3D", value: `{"origin": {"x": 0, "y": 0, "z": 0}}`},
		{typ: "Quaternion", value: `{"x": 0, "y": 0, "z": 0}`},
		{typ: "AABB", value: `{"position": {"x": 0, "y": 0, "z": 0}}`},
		{typ: "Plane", value: `{"normal": {"x": 0, "y": 1, "z": 0}}`},
		{typ: "int", value: `2.5`, hintPart: "expected an integer"},
		{typ: "int", value: `"3"`},
		{typ: "int", value: `1e300`},
		{typ: "bool", value: `1`},
		{typ: "String", value: `5`},
		{typ: "NodePath", value: `5`},
		{typ: "Array", value: `{"a": 1}`},
		{typ: "Array", value: `[1, "x"]`, hint: hintArrayType, hintString: "int"},
		{typ: "Dictionary", value: `[1]`},
		{typ: "PackedByteArray", value: `[256]`, hintPart: "0..255"},
		{typ: "PackedInt32Array", value: `[2147483648]`},
		{typ: "PackedVector2Array", value: `[{"x": 1}]`},
		{typ: "PackedColorArray", value: `["nope"]`},
		{typ: "Object", value: `"res://does/not/exist.tres"`, hint: hintResourceType, hintString: "Texture2D", hintPart: "no resource at"},
		{typ: "Object", value: `"res://shape.tres"`, hint: hintResourceType, hintString: "Texture2D", hintPart: "expected a Texture2D"},
		{typ: "Object", value: `"icon.svg"`, hint: hintResourceType, hintString: "Texture2D"},
		{typ: "RID", value: `1`},
	}
	for _, c := range refusals {
		t.Run("refuse "+c.typ+" "+c.value, func(t *testing.T) {
			params := map[string]any{"type": c.typ, "value": json.RawMessage(c.value)}
			if c.hint != 0 {
				params["hint"], params["hint_string"] = c.hint, c.hintString
			}
			r := s.send(t, "cmd_value_roundtrip", params)
			if r.OK {
				t.Fatalf("accepted (as %s), want VALIDATION_ERROR", r.Result)
			}
			if r.Error != contract.ValidationError {
				t.Errorf("error %s (%s), want VALIDATION_ERROR", r.Error, r.Hint)
			}
			if c.hintPart != "" && !strings.Contains(r.Hint, c.hintPart) {
				t.Errorf("hint %q should mention %q", r.Hint, c.hintPart)
			}
		})
	}
}

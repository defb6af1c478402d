package envelope

import (
	"encoding/json"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"reflect"
	"testing"
)

// FuzzDecodeKnown: whenever the one-pass decoder takes a frame, it gives
// exactly what encoding/json gives for it.
func FuzzDecodeKnown(f *testing.F) {
	for _, seed := range []string{
		`{"id":"1","ok":true,"result":{"a":[1,2,{"b":null}]}}`,
		`{"id":"2","ok":false,"error":"PRECONDITION_FAILED","hint":"open a <scene> & retry","required":"active_scene"}`,
		`{"id":"3","command":"cmd_ping","params":{}}`,
		`{"command":"cmd_toolsets_update","params":{"enabled_toolsets":["scene"]}}`,
		`{"id":"4","ok":null,"ok":true,"result":null}`,
		`{"id":"5","ok":"yes"}`,
		`{"id":7,"ok":true}`,
		`{"ID":"6","ok":true}`,
		`{"id":"8","ok":true,"result":"\u00e9\ud800"}`,
		"{\"id\":\"9\",\"ok\":true,\"hint\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := decodeKnown(data)
		if !ok {
			return
		}
		var want Frame
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("decodeKnown took %q, which encoding/json refuses: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeKnown(%q) = %+v, encoding/json gives %+v", data, got, want)
		}
	})
}

// A response's encoding is its struct's, with the result spliced in.
func TestResponseMarshalMatchesStruct(t *testing.T) {
	for _, r := range []Response{
		{ID: "1", OK: true, Result: json.RawMessage(`{"a":"<b>&"}`)},
		{OK: true},
		{ID: "2", OK: false, Error: contract.PreconditionFailed, Hint: "needs <scene> & \"quotes\"", Required: contract.RequireActiveScene},
		{ID: "3", OK: false, Error: contract.InternalError, Hint: "\u2028 line sep"},
	} {
		got, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err := marshalValue(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("Marshal(%+v):\n got  %s\n want %s", r, got, want)
		}
	}
	if _, err := Marshal(Response{ID: "4", OK: true, Result: json.RawMessage(`{"a":`)}); err == nil {
		t.Error("a response with a broken result encoded")
	}
}

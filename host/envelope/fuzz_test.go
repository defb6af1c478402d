package envelope_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// FuzzDecodeFrame feeds arbitrary bytes to DecodeFrame, the first thing that
// touches every frame the editor sends. The seed corpus lives in
// testdata/fuzz/FuzzDecodeFrame and runs with plain `go test`.
//
// Properties:
//   - it never panics;
//   - without an error the frame is exactly one of a response (has ok, no
//     command) or a request (has command);
//   - a response re-encoded with Marshal decodes to the same response, and
//     a second encoding is byte-identical to the first (the encoding is a
//     fixed point after one normalisation);
//   - a frame larger than MaxFrameBytes is refused with ErrFrameTooLarge.
func FuzzDecodeFrame(f *testing.F) {
	checkOversize(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := envelope.DecodeFrame(data)
		if err != nil {
			if errors.Is(err, envelope.ErrFrameTooLarge) {
				t.Fatalf("%d bytes refused as too large", len(data))
			}
			return
		}
		isRequest := fr.Command != ""
		if fr.IsResponse() == isRequest {
			t.Fatalf("frame is response=%v request=%v; want exactly one: %+v", fr.IsResponse(), isRequest, fr)
		}
		if isRequest {
			checkRequest(t, fr)
			return
		}
		checkResponseRoundTrip(t, fr.Response())
	})
}

// checkOversize runs once per fuzz process: a frame one byte over the limit
// is refused, one exactly at the limit is still decoded. (Generating 64 MiB
// inputs in the fuzz loop itself would make iterations far too slow.)
func checkOversize(f *testing.F) {
	f.Helper()
	frame := []byte(`{"id":"1","ok":true,"result":{}}`)
	buf := bytes.Repeat([]byte(" "), envelope.MaxFrameBytes+1)
	copy(buf, frame)
	atLimit := buf[:envelope.MaxFrameBytes]
	if fr, err := envelope.DecodeFrame(atLimit); err != nil || !fr.IsResponse() || fr.ID != "1" {
		f.Fatalf("frame of exactly MaxFrameBytes: got %+v, %v; want the response with id 1", fr, err)
	}
	over := buf // one trailing space more
	if _, err := envelope.DecodeFrame(over); !errors.Is(err, envelope.ErrFrameTooLarge) {
		f.Fatalf("frame of MaxFrameBytes+1: got %v, want ErrFrameTooLarge", err)
	}
}

// checkRequest re-encodes a request as a Command and decodes it again.
func checkRequest(t *testing.T, fr envelope.Frame) {
	t.Helper()
	params := fr.Params
	if len(params) == 0 {
		params = []byte("{}")
	}
	data, err := envelope.Marshal(envelope.Command{ID: fr.ID, Command: fr.Command, Params: params})
	if err != nil {
		// A params value that was accepted but cannot be re-encoded would
		// be a decoder that lets through something the encoder rejects.
		t.Fatalf("request decoded but cannot be re-encoded: %v (%+v)", err, fr)
	}
	again, err := envelope.DecodeFrame(data)
	if err != nil {
		t.Fatalf("re-encoded request %s does not decode: %v", data, err)
	}
	if again.IsResponse() || again.ID != fr.ID || again.Command != fr.Command {
		t.Fatalf("request changed on a round trip: %+v -> %s -> %+v", fr, data, again)
	}
}

// checkResponseRoundTrip encodes r, decodes it, encodes again and compares.
func checkResponseRoundTrip(t *testing.T, r envelope.Response) {
	t.Helper()
	first, err := envelope.Marshal(r)
	if err != nil {
		t.Fatalf("response decoded but cannot be re-encoded: %v (%+v)", err, r)
	}
	fr, err := envelope.DecodeFrame(first)
	if err != nil {
		t.Fatalf("re-encoded response %s does not decode: %v", first, err)
	}
	if !fr.IsResponse() {
		t.Fatalf("re-encoded response %s decodes as a request: %+v", first, fr)
	}
	back := fr.Response()
	if back.ID != r.ID || back.OK != r.OK || back.Error != r.Error || back.Hint != r.Hint || back.Required != r.Required {
		t.Fatalf("response changed on a round trip:\n in  %+v\n wire %s\n out %+v", r, first, back)
	}
	if (back.Err() == nil) != r.OK {
		t.Fatalf("Err() of %+v is %v, want nil exactly when ok", back, back.Err())
	}
	if e := back.Err(); e != nil {
		if !e.Code.Valid() {
			t.Fatalf("Err() of %+v has the code %q, which is not in the enum", back, e.Code)
		}
		if !r.Error.Valid() && (e.Code != contract.InternalError || e.Hint == "") {
			t.Fatalf("Err() of %+v with an unknown code is %+v; want INTERNAL_ERROR with a hint", back, e)
		}
	}
	second, err := envelope.Marshal(back)
	if err != nil {
		t.Fatalf("second encoding failed: %v", err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("encoding is not stable:\n first  %s\n second %s", first, second)
	}
}

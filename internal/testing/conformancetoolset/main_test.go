package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The suite's own checks run in conformance/; these pin the fixtures'
// content without npm.
func TestFixtureTools(t *testing.T) {
	h := sdktest.Start(t, Toolset())
	ctx := context.Background()
	cases := []struct {
		tool      string
		wantTypes []string
		check     func(t *testing.T, c []sdktest.Content)
	}{
		{"test_simple_text", []string{"text"}, func(t *testing.T, c []sdktest.Content) {
			if c[0].Text != "This is a simple text response for testing." {
				t.Errorf("text = %q", c[0].Text)
			}
		}},
		{"test_image_content", []string{"image"}, func(t *testing.T, c []sdktest.Content) {
			if c[0].MimeType != "image/png" || !bytes.HasPrefix(c[0].Data, []byte("\x89PNG\r\n\x1a\n")) {
				t.Errorf("image = %+v", c[0])
			}
		}},
		{"test_audio_content", []string{"audio"}, func(t *testing.T, c []sdktest.Content) {
			d := c[0].Data
			if c[0].MimeType != "audio/wav" || len(d) != 44+16 || string(d[:4]) != "RIFF" || string(d[8:16]) != "WAVEfmt " || string(d[36:40]) != "data" {
				t.Errorf("audio = %s %q", c[0].MimeType, d)
			}
		}},
		{"test_embedded_resource", []string{"resource"}, func(t *testing.T, c []sdktest.Content) {
			if c[0].URI != "test://embedded-resource" || c[0].MimeType != "text/plain" || c[0].Text == "" {
				t.Errorf("resource = %+v", c[0])
			}
		}},
		{"test_multiple_content_types", []string{"text", "image", "resource"}, nil},
		{"test_tool_with_logging", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			res, err := h.Call(ctx, tc.tool, nil)
			if err != nil || res.Err != nil {
				t.Fatalf("%v %v", err, res.Err)
			}
			var types []string
			for _, c := range res.Content {
				types = append(types, c.Type)
			}
			if len(types) != len(tc.wantTypes) {
				t.Fatalf("content types %v, want %v", types, tc.wantTypes)
			}
			for i := range types {
				if types[i] != tc.wantTypes[i] {
					t.Fatalf("content types %v, want %v", types, tc.wantTypes)
				}
			}
			if tc.check != nil {
				tc.check(t, res.Content)
			}
		})
	}
	if n := len(h.Logs()); n != 3 {
		t.Errorf("test_tool_with_logging logged %d records, want 3", n)
	}

	res, err := h.Call(ctx, "test_error_handling", nil)
	if err != nil || res.Err == nil || res.Err.Code != sdk.CodeInternalError {
		t.Errorf("test_error_handling: %v %+v", err, res)
	}

	if res, err := h.Call(ctx, "test_tool_with_progress", nil, sdktest.ProgressToken("tok")); err != nil || res.Err != nil {
		t.Fatalf("test_tool_with_progress: %v %+v", err, res)
	}
	var got []float64
	for _, p := range h.Progress() {
		if p.Token != "tok" || p.Total != 100 {
			t.Errorf("progress event %+v", p)
		}
		got = append(got, p.Progress)
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 50 || got[2] != 100 {
		t.Errorf("progress = %v, want 0, 50, 100", got)
	}
}

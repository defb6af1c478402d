package resources

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestDrawImage(t *testing.T) {
	red, blue := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}
	img, err := drawImage(MakeImageIn{Kind: "solid", Width: 4, Height: 3, Colors: []string{"#ff0000"}})
	if err != nil || img.Bounds().Dx() != 4 || img.Bounds().Dy() != 3 || img.NRGBAAt(3, 2) != red {
		t.Fatalf("solid: %v %v", err, img.NRGBAAt(3, 2))
	}
	img, _ = drawImage(MakeImageIn{Kind: "checker", Width: 8, Height: 8, Cell: 2, Colors: []string{"#f00", "#0000ff"}})
	if img.NRGBAAt(0, 0) != red || img.NRGBAAt(2, 0) != blue || img.NRGBAAt(2, 2) != red || img.NRGBAAt(1, 3) != blue {
		t.Fatalf("checker: %v %v %v %v", img.NRGBAAt(0, 0), img.NRGBAAt(2, 0), img.NRGBAAt(2, 2), img.NRGBAAt(1, 3))
	}
	img, _ = drawImage(MakeImageIn{Kind: "gradient", Width: 11, Height: 2, Colors: []string{"#000000", "#ffffff"}})
	if img.NRGBAAt(0, 0).R != 0 || img.NRGBAAt(10, 1).R != 255 || img.NRGBAAt(5, 0).R < 120 || img.NRGBAAt(5, 0).R > 135 {
		t.Fatalf("gradient: %v %v %v", img.NRGBAAt(0, 0), img.NRGBAAt(5, 0), img.NRGBAAt(10, 1))
	}
	img, _ = drawImage(MakeImageIn{Kind: "gradient", Direction: "vertical", Width: 2, Height: 3, Colors: []string{"#ff0000", "#00ff00", "#0000ff"}})
	if img.NRGBAAt(0, 0) != red || img.NRGBAAt(1, 1) != (color.NRGBA{0, 255, 0, 255}) || img.NRGBAAt(0, 2) != blue {
		t.Fatalf("vertical gradient with three stops")
	}
	img, _ = drawImage(MakeImageIn{Kind: "circle", Width: 16, Height: 16, Colors: []string{"#ff0000"}})
	if img.NRGBAAt(8, 8) != red || img.NRGBAAt(0, 0).A != 0 {
		t.Fatalf("circle: centre %v, corner %v", img.NRGBAAt(8, 8), img.NRGBAAt(0, 0))
	}
	a, _ := drawImage(MakeImageIn{Kind: "noise", Width: 32, Height: 32, Seed: 7})
	b, _ := drawImage(MakeImageIn{Kind: "noise", Width: 32, Height: 32, Seed: 7})
	c, _ := drawImage(MakeImageIn{Kind: "noise", Width: 32, Height: 32, Seed: 8})
	if !bytes.Equal(a.Pix, b.Pix) || bytes.Equal(a.Pix, c.Pix) {
		t.Fatal("noise is not determined by its seed")
	}
	lo, hi := uint8(255), uint8(0)
	for i := 0; i < len(a.Pix); i += 4 {
		lo, hi = min(lo, a.Pix[i]), max(hi, a.Pix[i])
	}
	if hi-lo < 100 {
		t.Fatalf("noise barely varies: %d..%d", lo, hi)
	}
	for _, bad := range []struct {
		in   MakeImageIn
		want string
	}{
		{MakeImageIn{Kind: "solid", Colors: []string{"red"}}, "#rrggbb"},
		{MakeImageIn{Kind: "solid", Colors: []string{"#fff", "#000"}}, "one color"},
		{MakeImageIn{Kind: "gradient", Colors: []string{"#fff"}}, "two or more"},
		{MakeImageIn{Kind: "checker", Direction: "vertical"}, "direction is for kind gradient"},
		{MakeImageIn{Kind: "noise", Width: 2000}, "1 to 1024"},
	} {
		if _, err := drawImage(bad.in); err == nil || !strings.Contains(sdk.AsError(err).Hint, bad.want) {
			t.Errorf("%+v: %v, want %q", bad.in, err, bad.want)
		}
	}
}

// make_image sends the editor one PNG of the asked size and colors, to the
// path asked; a path that is not a .png is refused before the editor.
func TestMakeImageSendsAPNG(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_resources_write_image", map[string]any{"path": "res://art/floor.png", "width": 32, "height": 16, "created": true, "persisted": true, "undoable": true, "undo_history": "global", "ready": true, "written": []string{"res://art/floor.png"}})
	res := h.MustCall(t, "make_image", map[string]any{"path": "res://art/floor.png", "kind": "checker", "width": 32, "height": 16, "cell": 8, "colors": []string{"#336633", "#224422"}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	got := h.Addon().Received()
	if len(got) == 0 || got[0].Command != "cmd_resources_write_image" {
		t.Fatalf("sent %+v", got)
	}
	var p struct {
		Path      string `json:"path"`
		PNG       string `json:"png_base64"`
		Overwrite bool   `json:"overwrite"`
	}
	json.Unmarshal(got[0].Params, &p)
	raw, _ := base64.StdEncoding.DecodeString(p.PNG)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || p.Path != "res://art/floor.png" || img.Bounds().Dx() != 32 || img.Bounds().Dy() != 16 {
		t.Fatalf("params %s: %v", got[0].Params, err)
	}
	if r, g, b, _ := img.At(0, 0).RGBA(); r>>8 != 0x33 || g>>8 != 0x66 || b>>8 != 0x33 {
		t.Fatalf("pixel 0,0: %v", img.At(0, 0))
	}
	if !strings.Contains(string(res.Structured), `"width":32`) {
		t.Fatalf("answer %s", res.Structured)
	}
	h2 := start(t)
	h2.MustFail(t, "make_image", map[string]any{"path": "res://a.jpg", "kind": "solid"}, sdk.CodeValidationError, ".png")
	h2.MustFail(t, "make_image", map[string]any{"path": "res://a.png", "kind": "solid", "overwrite": true}, sdk.CodePreconditionFailed, "confirm")
	if n := len(h2.Addon().Received()); n != 0 {
		t.Fatalf("the editor received %d commands", n)
	}
	// With confirm, overwrite reaches the editor.
	h2.Addon().HandleResult("cmd_resources_write_image", map[string]any{"path": "res://a.png", "width": 64, "height": 64, "persisted": true, "ready": true})
	if res := h2.MustCall(t, "make_image", map[string]any{"path": "res://a.png", "kind": "solid", "overwrite": true}, sdktest.Confirm()); res.Err != nil {
		t.Fatal(res.Err)
	}
}

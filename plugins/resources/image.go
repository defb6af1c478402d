package resources

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/resfs"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// ---- make_image ----

// MakeImageIn describes a simple image to write as a PNG.
type MakeImageIn struct {
	Path      string   `json:"path" jsonschema:"minLength=1" description:"res:// .png to write"`
	Kind      string   `json:"kind" jsonschema:"enum=solid|gradient|noise|checker|circle"`
	Width     int      `json:"width,omitempty" jsonschema:"minimum=1,maximum=1024,default=64"`
	Height    int      `json:"height,omitempty" jsonschema:"minimum=1,maximum=1024,default=64"`
	Colors    []string `json:"colors,omitempty" jsonschema:"maxItems=16" description:"#rrggbb[aa]: solid 1, gradient stops, others 2 (fore, back)"`
	Direction string   `json:"direction,omitempty" jsonschema:"enum=horizontal|vertical|radial" description:"gradient"`
	Cell      int      `json:"cell,omitempty" jsonschema:"minimum=1,maximum=1024" description:"checker square / noise feature size in px (default 8)"`
	Seed      int      `json:"seed,omitempty" description:"noise"`
	Overwrite bool     `json:"overwrite,omitempty" description:"replace an existing file"`
}

// MakeImageOut reports the written image.
type MakeImageOut struct {
	Path          string `json:"path"`
	Width         int    `json:"width"`
	Height        int    `json:"height"`
	UID           string `json:"uid,omitempty"`
	Created       bool   `json:"created" description:"false when an existing file was replaced"`
	Persisted     bool   `json:"persisted" description:"the file is on disk"`
	Undoable      bool   `json:"undoable"`
	UndoHistory   string `json:"undo_history,omitempty"`
	RescanPending bool   `json:"rescan_pending" description:"not imported yet when the wait ended"`
	DryRun        bool   `json:"dry_run,omitempty"`
}

func makeImage(ctx context.Context, call *sdk.Call, in MakeImageIn) (MakeImageOut, error) {
	p, err := resfs.CleanPath("path", in.Path, false)
	if err != nil {
		return MakeImageOut{}, err
	}
	if strings.ToLower(path.Ext(p)) != ".png" {
		return MakeImageOut{}, sdk.Validation(fmt.Sprintf("path %q must end in .png", p))
	}
	img, err := drawImage(in)
	if err != nil {
		return MakeImageOut{}, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return MakeImageOut{}, sdk.Internal("encoding the PNG failed: " + err.Error())
	}
	out, m, err := resfs.SendChange[MakeImageOut](ctx, call, "cmd_resources_write_image", map[string]any{
		"path": p, "png_base64": base64.StdEncoding.EncodeToString(buf.Bytes()), "overwrite": in.Overwrite, "dry_run": call.DryRun,
	}, 30*time.Second)
	if err != nil {
		return MakeImageOut{}, err
	}
	if call.DryRun {
		out.DryRun, out.Persisted, out.Undoable = true, false, false
		return out, nil
	}
	out.RescanPending, err = resfs.Settle(ctx, call, m, 0)
	return out, err
}

// drawImage draws what in describes.
func drawImage(in MakeImageIn) (*image.NRGBA, error) {
	w, h := in.Width, in.Height
	if w == 0 {
		w = 64
	}
	if h == 0 {
		h = 64
	}
	if w < 1 || h < 1 || w > 1024 || h > 1024 {
		return nil, sdk.Validation("width and height must be 1 to 1024")
	}
	var cols []color.NRGBA
	for i, s := range in.Colors {
		c, err := parseHexColor(s)
		if err != nil {
			return nil, sdk.Validation(fmt.Sprintf("colors[%d]: %v", i, err))
		}
		cols = append(cols, c)
	}
	white, black, clear := color.NRGBA{255, 255, 255, 255}, color.NRGBA{0, 0, 0, 255}, color.NRGBA{}
	pick := func(i int, def color.NRGBA) color.NRGBA {
		if i < len(cols) {
			return cols[i]
		}
		return def
	}
	cell := in.Cell
	if cell == 0 {
		cell = 8
	}
	if in.Kind != "gradient" && in.Direction != "" {
		return nil, sdk.Validation("direction is for kind gradient")
	}
	if len(cols) > 2 && in.Kind != "gradient" {
		return nil, sdk.Validation(in.Kind + " takes at most two colors (fore, back)")
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	switch in.Kind {
	case "solid":
		if len(cols) > 1 {
			return nil, sdk.Validation("solid takes one color")
		}
		c := pick(0, white)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetNRGBA(x, y, c)
			}
		}
	case "gradient":
		stops := cols
		if len(stops) == 0 {
			stops = []color.NRGBA{black, white}
		}
		if len(stops) == 1 {
			return nil, sdk.Validation("gradient takes two or more colors (its stops)")
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var t float64
				switch in.Direction {
				case "", "horizontal":
					t = frac(x, w)
				case "vertical":
					t = frac(y, h)
				case "radial":
					dx, dy := (float64(x)+0.5)/float64(w)-0.5, (float64(y)+0.5)/float64(h)-0.5
					t = math.Min(1, math.Hypot(dx, dy)*2)
				default:
					return nil, sdk.Validation("direction must be horizontal, vertical or radial")
				}
				img.SetNRGBA(x, y, ramp(stops, t))
			}
		}
	case "noise":
		fore, back := pick(0, white), pick(1, black)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetNRGBA(x, y, lerp(back, fore, valueNoise(float64(x)/float64(cell), float64(y)/float64(cell), in.Seed)))
			}
		}
	case "checker":
		fore, back := pick(0, white), pick(1, black)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := back
				if (x/cell+y/cell)%2 == 0 {
					c = fore
				}
				img.SetNRGBA(x, y, c)
			}
		}
	case "circle":
		fore, back := pick(0, white), pick(1, clear)
		r := math.Min(float64(w), float64(h)) / 2
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := back
				if math.Hypot(float64(x)+0.5-float64(w)/2, float64(y)+0.5-float64(h)/2) <= r {
					c = fore
				}
				img.SetNRGBA(x, y, c)
			}
		}
	default:
		return nil, sdk.Validation("kind must be solid, gradient, noise, checker or circle")
	}
	return img, nil
}

// parseHexColor reads #rgb, #rrggbb or #rrggbbaa.
func parseHexColor(s string) (color.NRGBA, error) {
	h, ok := strings.CutPrefix(strings.TrimSpace(s), "#")
	if !ok || (len(h) != 3 && len(h) != 6 && len(h) != 8) {
		return color.NRGBA{}, fmt.Errorf("%q is not #rrggbb or #rrggbbaa", s)
	}
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) == 6 {
		h += "ff"
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return color.NRGBA{}, fmt.Errorf("%q is not #rrggbb or #rrggbbaa", s)
	}
	return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

func frac(i, n int) float64 {
	if n <= 1 {
		return 0
	}
	return float64(i) / float64(n-1)
}

func lerp(a, b color.NRGBA, t float64) color.NRGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return color.NRGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), m(a.A, b.A)}
}

// ramp is the color at t (0..1) of evenly spaced stops.
func ramp(stops []color.NRGBA, t float64) color.NRGBA {
	seg := t * float64(len(stops)-1)
	i := int(math.Floor(seg))
	if i >= len(stops)-1 {
		return stops[len(stops)-1]
	}
	return lerp(stops[i], stops[i+1], seg-float64(i))
}

// valueNoise is smooth value noise in 0..1: random values on an integer
// lattice (from seed), blended with a smoothstep.
func valueNoise(x, y float64, seed int) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	sx, sy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	at := func(ix, iy float64) float64 {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d,%d,%d", int(ix), int(iy), seed)
		return float64(h.Sum32()%65536) / 65535
	}
	top := at(x0, y0) + (at(x0+1, y0)-at(x0, y0))*sx
	bottom := at(x0, y0+1) + (at(x0+1, y0+1)-at(x0, y0+1))*sx
	return top + (bottom-top)*sy
}

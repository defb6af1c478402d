package runtime

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// ScreenshotIn says what to capture.
type ScreenshotIn struct {
	Target  string `json:"target,omitempty" jsonschema:"enum=game|editor|editor_2d|editor_3d,default=game" description:"game (its viewport), editor (the window), editor_2d or editor_3d (a viewport)"`
	MaxSize int    `json:"max_size,omitempty" jsonschema:"minimum=0,maximum=16384" description:"scale down so the longer side is at most this many pixels (0: full size)"`
}

// ScreenshotOut describes the image, which comes as an MCP image content item.
type ScreenshotOut struct {
	Target         string `json:"target"`
	Width          int    `json:"width" description:"of the returned image"`
	Height         int    `json:"height"`
	OriginalWidth  int    `json:"original_width" description:"of the captured viewport before scaling"`
	OriginalHeight int    `json:"original_height"`
	MimeType       string `json:"mime_type" description:"image/png"`
	Bytes          int    `json:"bytes" description:"size of the PNG"`
}

// screenshotAnswer is the editor's answer to cmd_runtime_screenshot.
type screenshotAnswer struct {
	Target         string `json:"target"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	OriginalWidth  int    `json:"original_width"`
	OriginalHeight int    `json:"original_height"`
	PNGBase64      string `json:"png_base64"`
}

func screenshot(ctx context.Context, call *sdk.Call, in ScreenshotIn) (ScreenshotOut, error) {
	if in.Target == "" {
		in.Target = "game"
	}
	ans, err := sdk.Send[screenshotAnswer](ctx, call.Host, "cmd_runtime_screenshot", in, gameTimeout)
	if err != nil {
		return ScreenshotOut{}, err
	}
	data, derr := base64.StdEncoding.DecodeString(ans.PNGBase64)
	if derr != nil || len(data) == 0 {
		return ScreenshotOut{}, sdk.Internal("the editor's screenshot is not valid base64 PNG data; reinstall the addon (godot-mcp addon install) so it matches the server")
	}
	cfg, perr := png.DecodeConfig(bytes.NewReader(data))
	if perr != nil {
		return ScreenshotOut{}, sdk.Internal(fmt.Sprintf("the editor's screenshot is not a PNG (%v); reinstall the addon so it matches the server", perr))
	}
	if cfg.Width != ans.Width || cfg.Height != ans.Height {
		return ScreenshotOut{}, sdk.Internal(fmt.Sprintf("the editor said the screenshot is %dx%d but the PNG is %dx%d; reinstall the addon so it matches the server", ans.Width, ans.Height, cfg.Width, cfg.Height))
	}
	call.AddImage(data, "image/png")
	return ScreenshotOut{
		Target:         ans.Target,
		Width:          cfg.Width,
		Height:         cfg.Height,
		OriginalWidth:  ans.OriginalWidth,
		OriginalHeight: ans.OriginalHeight,
		MimeType:       "image/png",
		Bytes:          len(data),
	}, nil
}

package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// noHost answers before Setup, which the host always calls first.
type noHost struct{}

func (noHost) Send(_ context.Context, _, command string, _ json.RawMessage, _ time.Duration) (json.RawMessage, error) {
	return nil, Internal(fmt.Sprintf("the toolset cannot send %s: the host has not set up its services yet; this is a bug in the host", command))
}

func (noHost) Progress(context.Context, string, float64, float64, string) error { return nil }

func (noHost) Log(_ context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	args := make([]any, 0, len(attrs))
	for _, a := range attrs {
		args = append(args, a)
	}
	slog.New(slog.NewJSONHandler(os.Stderr, nil)).Log(context.Background(), level, message, args...)
	return nil
}

package pluginhost

import (
	"bytes"
	"context"
	"io"
	"log"
	"log/slog"
	"sync"

	hclog "github.com/hashicorp/go-hclog"
)

// hcLogger adapts slog to the hclog.Logger go-plugin wants, so that
// go-plugin's logs (and the plugin's stderr, which it parses) land in the
// host's slog logger instead of on a terminal or stdout.
type hcLogger struct {
	l     *slog.Logger
	name  string
	level hclog.Level
	args  []any
}

func newHCLogger(l *slog.Logger) hclog.Logger {
	return &hcLogger{l: l, level: hclog.Debug}
}

func slogLevel(l hclog.Level) slog.Level {
	switch l {
	case hclog.Trace:
		return slog.LevelDebug - 4
	case hclog.Debug:
		return slog.LevelDebug
	case hclog.Warn:
		return slog.LevelWarn
	case hclog.Error:
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}

func (h *hcLogger) Log(level hclog.Level, msg string, args ...any) {
	if level == hclog.Off || (level != hclog.NoLevel && level < h.level) {
		return
	}
	all := make([]any, 0, len(h.args)+len(args)+2)
	if h.name != "" {
		all = append(all, "logger", h.name)
	}
	all = append(all, h.args...)
	all = append(all, args...)
	h.l.Log(context.Background(), slogLevel(level), msg, all...)
}

func (h *hcLogger) Trace(msg string, args ...any) { h.Log(hclog.Trace, msg, args...) }
func (h *hcLogger) Debug(msg string, args ...any) { h.Log(hclog.Debug, msg, args...) }
func (h *hcLogger) Info(msg string, args ...any)  { h.Log(hclog.Info, msg, args...) }
func (h *hcLogger) Warn(msg string, args ...any)  { h.Log(hclog.Warn, msg, args...) }
func (h *hcLogger) Error(msg string, args ...any) { h.Log(hclog.Error, msg, args...) }

func (h *hcLogger) enabled(l hclog.Level) bool {
	return h.level <= l && h.l.Enabled(context.Background(), slogLevel(l))
}

func (h *hcLogger) IsTrace() bool { return h.enabled(hclog.Trace) }
func (h *hcLogger) IsDebug() bool { return h.enabled(hclog.Debug) }
func (h *hcLogger) IsInfo() bool  { return h.enabled(hclog.Info) }
func (h *hcLogger) IsWarn() bool  { return h.enabled(hclog.Warn) }
func (h *hcLogger) IsError() bool { return h.enabled(hclog.Error) }

func (h *hcLogger) ImpliedArgs() []any { return h.args }

func (h *hcLogger) With(args ...any) hclog.Logger {
	c := *h
	c.args = append(append([]any(nil), h.args...), args...)
	return &c
}

func (h *hcLogger) Name() string { return h.name }

func (h *hcLogger) Named(name string) hclog.Logger {
	c := *h
	if c.name != "" {
		c.name += "." + name
	} else {
		c.name = name
	}
	return &c
}

func (h *hcLogger) ResetNamed(name string) hclog.Logger {
	c := *h
	c.name = name
	return &c
}

func (h *hcLogger) SetLevel(level hclog.Level) { h.level = level }
func (h *hcLogger) GetLevel() hclog.Level      { return h.level }

func (h *hcLogger) StandardLogger(opts *hclog.StandardLoggerOptions) *log.Logger {
	return log.New(h.StandardWriter(opts), "", 0)
}

func (h *hcLogger) StandardWriter(*hclog.StandardLoggerOptions) io.Writer {
	return newLineLogger(h.l, "log")
}

// lineLogger logs each line written to it; it stands in for the plugin's
// stdout and stderr (go-plugin forwards them after the handshake).
type lineLogger struct {
	l      *slog.Logger
	stream string
	mu     sync.Mutex
	buf    []byte
}

func newLineLogger(l *slog.Logger, stream string) *lineLogger {
	return &lineLogger{l: l, stream: stream}
}

// maxLine bounds a line kept while waiting for its newline.
const maxLine = 64 << 10

func (w *lineLogger) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			if len(w.buf) > maxLine {
				w.emit(w.buf)
				w.buf = w.buf[:0]
			}
			return len(p), nil
		}
		w.emit(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}

func (w *lineLogger) emit(line []byte) {
	line = bytes.TrimRight(line, "\r")
	if len(line) == 0 {
		return
	}
	w.l.Info("toolset output", "stream", w.stream, "line", string(line))
}

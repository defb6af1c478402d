package pluginhost

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestLineLogger(t *testing.T) {
	var buf bytes.Buffer
	w := newLineLogger(slog.New(slog.NewTextHandler(&buf, nil)), "stdout")
	for _, chunk := range []string{"one\ntw", "o\r\n", "\n", "three"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	out := buf.String()
	if strings.Count(out, "msg=\"toolset output\"") != 2 || !strings.Contains(out, "line=one") || !strings.Contains(out, "line=two") || strings.Contains(out, "three") {
		t.Fatalf("logged:\n%s", out)
	}
}

func TestHCLogAdapter(t *testing.T) {
	var buf bytes.Buffer
	l := newHCLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Named("plugin").With("a", 1).Warn("careful", "b", 2)
	l.Trace("dropped: below debug")
	if got := buf.String(); !strings.Contains(got, `level=WARN msg=careful logger=plugin a=1 b=2`) || strings.Contains(got, "dropped") {
		t.Fatalf("logged:\n%s", got)
	}
	if !l.IsDebug() || l.IsTrace() {
		t.Errorf("IsDebug %v IsTrace %v", l.IsDebug(), l.IsTrace())
	}
}

package logcap_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/logcap"
)

func TestValue(t *testing.T) {
	if got := logcap.Value("short"); got != "short" {
		t.Fatalf("got %q", got)
	}
	long := strings.Repeat("é", 1<<19) // 1 MiB of two-byte runes
	got := logcap.Value(long)
	if len(got) > logcap.MaxValue+32 || !strings.HasSuffix(got, "(1048576 bytes)") {
		t.Fatalf("got %d bytes ending %q", len(got), got[len(got)-20:])
	}
	if !strings.HasPrefix(got, "éé") || strings.ContainsRune(got, '\uFFFD') {
		t.Fatal("cut inside a rune")
	}
}

func TestLimiter(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	l := logcap.NewLimiter(100 * time.Millisecond)
	for i := 0; i < 1000; i++ {
		l.Warn(log, "refused", "i", i)
		l.Warn(log, "other")
	}
	if n := strings.Count(buf.String(), "msg=refused"); n != 1 {
		t.Fatalf("%d 'refused' lines for 1000 in a burst, want 1", n)
	}
	if n := strings.Count(buf.String(), "msg=other"); n != 1 {
		t.Fatalf("%d 'other' lines, want 1 (kinds are limited apart)", n)
	}
	time.Sleep(120 * time.Millisecond)
	l.Warn(log, "refused")
	if !strings.Contains(buf.String(), "suppressed=999") {
		t.Fatalf("the next line does not count the 999 held back:\n%s", buf.String())
	}
}

func TestWarnAsKeys(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	l := logcap.NewLimiter(time.Minute)
	for i := 0; i < 10; i++ {
		l.WarnAs(log, "a", "refused", "reason", "a")
		l.WarnAs(log, "b", "refused", "reason", "b")
	}
	if n := strings.Count(buf.String(), "msg=refused"); n != 2 {
		t.Fatalf("%d lines, want one per key:\n%s", n, buf.String())
	}
}

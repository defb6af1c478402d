// Package logcap keeps logs that strangers can trigger small: values they
// send are truncated before they are logged, and a warning they can repeat
// at will is written at most once per interval, with a count of the ones
// left out.
package logcap

import (
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxValue is the longest value Value keeps, in bytes.
const MaxValue = 256

// Value returns s cut to MaxValue bytes (on a rune boundary), marked with
// the full length when cut.
func Value(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	cut := MaxValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...(" + strconv.Itoa(len(s)) + " bytes)"
}

// Limiter writes each kind of warning at most once per Every.
type Limiter struct {
	Every time.Duration

	mu    sync.Mutex
	last  map[string]time.Time
	quiet map[string]int
}

// NewLimiter returns a Limiter that lets one message of each kind through per every.
func NewLimiter(every time.Duration) *Limiter {
	return &Limiter{Every: every, last: map[string]time.Time{}, quiet: map[string]int{}}
}

// Warn logs msg with args at warn level unless a message of the same kind
// (msg itself) was logged less than Every ago. A message that goes through
// after some were held back says how many with "suppressed".
func (l *Limiter) Warn(log *slog.Logger, msg string, args ...any) {
	l.WarnAs(log, msg, msg, args...)
}

// WarnAs is Warn with its kind named by key, for one message whose
// variants (e.g. a refusal's reason) are limited apart.
func (l *Limiter) WarnAs(log *slog.Logger, key, msg string, args ...any) {
	l.mu.Lock()
	now := time.Now()
	if t, ok := l.last[key]; ok && now.Sub(t) < l.Every {
		l.quiet[key]++
		l.mu.Unlock()
		return
	}
	n := l.quiet[key]
	l.last[key] = now
	delete(l.quiet, key)
	l.mu.Unlock()
	if n > 0 {
		args = append(args, "suppressed", n, "suppressed_window", l.Every.String())
	}
	log.Warn(msg, args...)
}

// Package suggest finds the name an agent most likely meant, for the
// "did you mean" part of the toolsets' VALIDATION_ERROR hints.
package suggest

import (
	"fmt"
	"strings"
)

// Closest is the name of names nearest to s (case-insensitive edit
// distance), and whether it is near enough to suggest.
func Closest(s string, names []string) (string, bool) {
	best, bestD := "", 1<<30
	for _, n := range names {
		if d := levenshtein(strings.ToLower(s), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best, best != "" && bestD <= max(3, len(s)/3)
}

// Hint is ` (did you mean "name"?)` for name, or "" for no name.
func Hint(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", name)
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(b)]
}

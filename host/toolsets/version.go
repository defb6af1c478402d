package toolsets

import (
	"strconv"
	"strings"
)

// parseVersion reads "4.4", "4.4.1", "4.4.1.stable" or "4.5.dev3" into
// numeric parts (missing parts are 0). ok is false when no number leads.
func parseVersion(v string) (parts [3]int, ok bool) {
	fields := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' || r == ' ' })
	for i := 0; i < len(fields) && i < 3; i++ {
		n, err := strconv.Atoi(fields[i])
		if err != nil {
			break
		}
		parts[i] = n
		ok = true
	}
	return parts, ok
}

// versionBelow reports whether have < want; unknown versions never block.
func versionBelow(have, want string) bool {
	h, okh := parseVersion(have)
	w, okw := parseVersion(want)
	if !okh || !okw {
		return false
	}
	for i := range 3 {
		if h[i] != w[i] {
			return h[i] < w[i]
		}
	}
	return false
}

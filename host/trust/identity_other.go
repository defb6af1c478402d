//go:build !linux

package trust

import (
	"os"
	"time"
)

// identity is unknown here: the file is hashed on every check.
func identity(os.FileInfo) (string, time.Time, bool) { return "", time.Time{}, false }

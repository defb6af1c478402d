//go:build !unix

package godotexe

import "os"

// ownedSafely has no owner check where there are no Unix owners.
func ownedSafely(string, os.FileInfo) error { return nil }

//go:build !unix

package analysis

import "os"

// readFile reads a file.
func readFile(name string, _ int64) ([]byte, error) { return os.ReadFile(name) }

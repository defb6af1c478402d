//go:build !unix

package main

import "os"

// pollableStdin returns stdin as it is where non-blocking pipes are not
// the runtime's way of reading them.
func pollableStdin(f *os.File) (*os.File, func()) { return f, func() {} }

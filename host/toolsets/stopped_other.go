//go:build !linux

package toolsets

// processStopped cannot tell here; a stopped plugin is caught by the call
// timeout.
func processStopped(int) bool { return false }

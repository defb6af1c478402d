//go:build !linux

package main

// nonDumpable does nothing where the platform has no such switch: there,
// same-user processes can read the server's memory (docs/security.md).
func nonDumpable() error { return nil }

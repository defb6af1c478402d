//go:build !linux

package e2e

import "syscall"

// procAttr puts a child in its own process group, so the suite can end it
// and everything it started.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

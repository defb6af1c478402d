package e2e

import "syscall"

// procAttr puts a child in its own process group (so the suite can end it
// and everything it started) and has the kernel kill it if the test binary
// dies first (a -timeout panic must not leave editors running).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

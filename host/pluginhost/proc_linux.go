package pluginhost

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the plugin in a process group of its own (so that
// stopping it ends the children it left in the group) and has the kernel
// send it SIGTERM when the host dies: a plugin built with the SDK then ends
// its whole group, children included, and one without it dies of the
// signal.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// killGroup SIGKILLs every process left in the plugin's process group.
func killGroup(pid int) {
	if pid > 1 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

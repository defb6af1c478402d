package pluginhost

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the plugin in a process group of its own (so that
// stopping it ends the children it left in the group) and makes the kernel
// SIGKILL it when the host dies.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup SIGKILLs every process left in the plugin's process group.
func killGroup(pid int) {
	if pid > 1 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

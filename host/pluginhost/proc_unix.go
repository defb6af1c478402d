//go:build unix && !linux

package pluginhost

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the plugin in a process group of its own; there is no
// Pdeathsig here: the SDK's parent watchdog ends the plugin with the host.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup SIGKILLs every process left in the plugin's process group.
func killGroup(pid int) {
	if pid > 1 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

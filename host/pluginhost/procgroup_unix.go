//go:build unix

package pluginhost

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the plugin the leader of a new process group, so
// that killGroup reaches everything it started.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup SIGKILLs the process group led by pid (the plugin's).
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

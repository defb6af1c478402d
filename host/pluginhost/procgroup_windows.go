package pluginhost

import "os/exec"

// setProcessGroup has no equivalent here: only the plugin itself is killed.
func setProcessGroup(*exec.Cmd) {}

// killGroup is a no-op on Windows.
func killGroup(int) {}

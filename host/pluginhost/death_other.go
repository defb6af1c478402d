//go:build !linux

package pluginhost

import "os/exec"

// setDeathSignal has no equivalent here; the SDK's parent watchdog covers it.
func setDeathSignal(*exec.Cmd) {}

//go:build !unix

package pluginhost

import "os/exec"

// setProcAttr has no process groups or death signal here; the SDK's parent
// watchdog ends the plugin with the host.
func setProcAttr(*exec.Cmd) {}

func killGroup(int) {}

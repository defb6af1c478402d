//go:build !windows

package sdk

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// parentGone reports whether the parent that started us has exited: on Unix
// an orphan is re-parented, so the parent pid changes.
func parentGone(ppid int) bool { return os.Getppid() != ppid }

// exitWithGroup ends the toolset and, when it leads a process group of its
// own (the host starts it so), every process it started and left in it:
// nothing a toolset started outlives it.
func exitWithGroup(code int) {
	if pid := os.Getpid(); syscall.Getpgrp() == pid {
		_ = syscall.Kill(-pid, syscall.SIGKILL) // the group, this process included
	}
	os.Exit(code)
}

// exitOnTerm ends the toolset with its process group on SIGTERM: the signal
// the host has the kernel send when the host dies (Linux), or anyone's
// request to stop.
func exitOnTerm(name string) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM)
	go func() {
		<-ch
		fmt.Fprintf(os.Stderr, "godot-mcp toolset %s: terminated; exiting with the processes it started\n", name)
		exitWithGroup(0)
	}()
}

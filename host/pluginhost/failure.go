package pluginhost

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// The plugin host reports what happened to a plugin as facts: the types
// below. It writes no words for the agent: host/toolsets, which owns a
// plugin's life (restarts, backoff, what the agent is told), turns these
// facts into the hints the agent sees.

// FailureKind is why a call got no answer from its plugin.
type FailureKind int

const (
	// NotRunning: the plugin could serve no call (its process had exited
	// or its connection broken) before this one began.
	NotRunning FailureKind = iota + 1
	// Crashed: the connection failed during the call; the process exited
	// (Failure.Exit says how) or, lingering with a broken connection, was
	// killed.
	Crashed
	// TimedOut: the call's context deadline passed before the plugin answered.
	TimedOut
	// Cancelled: the call's context was cancelled before the plugin answered.
	Cancelled
	// OverLimit: the answer or the request was larger than the plugin
	// protocol carries (Failure.Limit bytes a message); the plugin runs on.
	OverLimit
	// Failed: a toolset in this process (Open) returned an error (Failure.Err).
	Failed
)

func (k FailureKind) String() string {
	switch k {
	case NotRunning:
		return "not running"
	case Crashed:
		return "crashed"
	case TimedOut:
		return "timed out"
	case Cancelled:
		return "cancelled"
	case OverLimit:
		return "over the message limit"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("FailureKind(%d)", int(k))
}

// Failure is a call (a tool call, a resource read, a prompt) that got no
// answer from its plugin. Call, ReadResource and GetPrompt return it as
// their error; an answer from the plugin, even an error answer, is their
// result instead.
type Failure struct {
	Kind    FailureKind
	Toolset string // the toolset's name
	Op      string // the tool, "resources/read URI" or "prompts/get NAME"
	// Exit is how the plugin process ended (Crashed; zero when it had not
	// exited within a grace period and was killed).
	Exit Exit
	// Limit is the protocol's message limit in bytes (OverLimit).
	Limit int
	// Err is the underlying error (gRPC's, or the in-process toolset's).
	Err error
}

func (f *Failure) Error() string {
	s := fmt.Sprintf("toolset %q: %s: %s", f.Toolset, f.Op, f.Kind)
	if f.Kind == Crashed && f.Exit.Known() {
		s += " (" + f.Exit.String() + ")"
	}
	if f.Kind == OverLimit {
		s += fmt.Sprintf(" (%d MiB)", f.Limit>>20)
	}
	if f.Err != nil {
		s += ": " + f.Err.Error()
	}
	return s
}

func (f *Failure) Unwrap() error { return f.Err }

// Exit is how a plugin process ended.
type Exit struct {
	Exited bool   // it exited (or was ended by a signal)
	Code   int    // its exit code (-1: ended by a signal)
	Signal string // the signal that ended it ("" when it exited by itself)
}

// Known reports whether the process was seen to end.
func (e Exit) Known() bool { return e.Exited }

func (e Exit) String() string {
	switch {
	case !e.Exited:
		return "still running"
	case e.Signal != "":
		return "killed by signal " + e.Signal
	}
	return fmt.Sprintf("exited with code %d", e.Code)
}

// exitOf reads how a process ended from exec.Cmd.Wait's error.
func exitOf(waitErr error) Exit {
	if waitErr == nil {
		return Exit{Exited: true}
	}
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) || ee.ProcessState == nil {
		return Exit{Exited: true, Code: -1}
	}
	x := Exit{Exited: true, Code: ee.ExitCode()}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		x.Signal = signalName(ws.Signal())
	}
	return x
}

// signalName is "SIGKILL" for syscall.SIGKILL, or the signal's description.
func signalName(s syscall.Signal) string {
	for _, n := range []struct {
		s    syscall.Signal
		name string
	}{{syscall.SIGKILL, "SIGKILL"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGSEGV, "SIGSEGV"}, {syscall.SIGABRT, "SIGABRT"}, {syscall.SIGINT, "SIGINT"}} {
		if n.s == s {
			return n.name
		}
	}
	return s.String()
}

// StartKind is why Launch failed.
type StartKind int

const (
	// StartFailed: see StartError.Err (the executable could not be run, or
	// setup, describe or the description's checks failed).
	StartFailed StartKind = iota
	// HandshakeTimeout: the process did not complete go-plugin's handshake
	// within StartError.Timeout.
	HandshakeTimeout
	// HandshakeExited: the process exited before completing the handshake.
	HandshakeExited
	// HandshakeInvalid: the process wrote something else than the
	// handshake to its stdout (StartError.Err quotes it).
	HandshakeInvalid
	// StartCancelled: the start's context was cancelled.
	StartCancelled
)

// StartError is a Launch (or Open) that did not give a running plugin.
type StartError struct {
	Kind    StartKind
	Toolset string
	Path    string        // the executable ("" for a toolset in this process)
	Timeout time.Duration // the start's bound (HandshakeTimeout)
	Output  string        // the last of what the plugin wrote to stderr
	Err     error
}

func (e *StartError) Error() string {
	where := e.Path
	if where == "" {
		where = "in-process"
	}
	var what string
	switch e.Kind {
	case HandshakeTimeout:
		what = fmt.Sprintf("start: it did not complete the godot-mcp plugin handshake within %s", e.Timeout)
	case HandshakeExited:
		what = "start: it exited before completing the godot-mcp plugin handshake"
	case StartCancelled:
		what = "start: cancelled"
	default:
		what = e.Err.Error()
	}
	if e.Output != "" {
		what += "; the plugin's last output: " + e.Output
	}
	return fmt.Sprintf("toolset %q (%s): %s", e.Toolset, where, what)
}

func (e *StartError) Unwrap() error { return e.Err }

// handshakeKind classifies go-plugin's error for a plugin that did not
// complete its handshake (StartFailed: something else).
func handshakeKind(err error) StartKind {
	switch msg := err.Error(); {
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return HandshakeTimeout
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Unrecognized remote plugin message: \nFailed to read any lines"):
		return HandshakeExited
	case strings.Contains(msg, "Unrecognized remote plugin message:"):
		return HandshakeInvalid
	}
	return StartFailed
}

package toolsets

import (
	"errors"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// The words the agent sees when a toolset's plugin fails, in one place.
// host/pluginhost reports what happened as facts (*pluginhost.StartError,
// *pluginhost.Failure); the manager, which decides a plugin's life
// (restart, backoff, kill), words them here.

// handshakeHint is what a plugin that never completed its handshake lacks.
const handshakeHint = "A toolset must be built with the godot-mcp SDK (sdk.Serve) for this OS and architecture, and print nothing to stdout before sdk.Serve"

// startWords says why a plugin did not start (Launch's error): the fact,
// plus what to check when it never completed the plugin handshake.
func startWords(err error) string {
	var se *pluginhost.StartError
	if errors.As(err, &se) && (se.Kind == pluginhost.HandshakeTimeout || se.Kind == pluginhost.HandshakeExited || se.Kind == pluginhost.HandshakeInvalid) {
		return err.Error() + ". " + handshakeHint
	}
	return err.Error()
}

// asFailure is the fact of a call that got no answer (nil: it answered).
// An error that is not a *pluginhost.Failure is the toolset's failure.
func asFailure(toolset, op string, err error) *pluginhost.Failure {
	if err == nil {
		return nil
	}
	var f *pluginhost.Failure
	if errors.As(err, &f) {
		return f
	}
	return &pluginhost.Failure{Kind: pluginhost.Failed, Toolset: toolset, Op: op, Err: err}
}

// exitedWhy is the last_error of a toolset whose plugin died during op.
func exitedWhy(op string, f *pluginhost.Failure) string {
	if f != nil && f.Exit.Known() {
		return fmt.Sprintf("the plugin process %s during %s", f.Exit, op)
	}
	return "the plugin process exited during " + op
}

// crashedWords answers a call (op: a tool, a resource read, a prompt) whose
// plugin died during it; back says when it can restart ("now", "in 1s").
// f, when set, tells how the process ended.
func crashedWords(toolset, op string, f *pluginhost.Failure, back string, tool bool) *contract.Error {
	how := ""
	if f != nil && f.Exit.Known() {
		how = " (its process " + f.Exit.String() + ")"
	}
	if !tool {
		return contract.Errorf(contract.InternalError, "Toolset %q crashed during %s%s; the next request restarts it (possible %s).", toolset, op, how, back)
	}
	return contract.Errorf(contract.InternalError, "Toolset %q crashed during %s%s; the next call restarts it (possible %s). Check the editor's state before retrying: the tool may have partly run.", toolset, op, how, back)
}

// frozenWords answers a call whose plugin process was found stopped
// (SIGSTOP, a debugger) and was killed.
func frozenWords(toolset, op, back string) *contract.Error {
	return contract.Errorf(contract.Timeout, "Toolset %q stopped (its process was frozen, e.g. by SIGSTOP or a debugger) during %s; its plugin was killed and the next call restarts it (possible %s). Check the editor's state before retrying: the tool may have partly run.", toolset, op, back)
}

// hungWords answers a call whose plugin did not answer within limit and was killed.
func hungWords(toolset, op string, limit time.Duration, back string) *contract.Error {
	return contract.Errorf(contract.Timeout, "Toolset %q did not answer %s within %s; its plugin was killed and the next call restarts it (possible %s). Check the editor's state before retrying: the tool may have partly run; if it hangs again, report it to the toolset's author.", toolset, op, limit, back)
}

// hungWhy and frozenWhy are the last_error of a toolset killed for a hang.
func hungWhy(op string, limit time.Duration) string {
	return fmt.Sprintf("the plugin did not answer %s within %s", op, limit)
}

func frozenWhy(op string) string {
	return fmt.Sprintf("the plugin process was stopped (SIGSTOP or a debugger) during %s", op)
}

// disabledDuringWords answers a call whose toolset was disabled (or its
// plugin replaced by the host) while it ran.
func disabledDuringWords(toolset, op string) *contract.Error {
	return contract.Precondition(contract.RequireToolsetEnabled, fmt.Sprintf("Toolset %q was disabled while %s ran; the call may not have completed. Enable it again and retry.", toolset, op))
}

// failureWords answers a call that got no answer for a reason that left
// the plugin as it was (the manager handles crashes and hangs itself):
// the context ended, the answer was over the protocol's limit, a toolset
// in this process failed.
func failureWords(f *pluginhost.Failure) *contract.Error {
	name, op := f.Toolset, f.Op
	switch f.Kind {
	case pluginhost.TimedOut:
		return contract.Errorf(contract.Timeout,
			"Toolset %q did not finish %s in time. Check the editor's state before retrying: the tool may have partly run.", name, op)
	case pluginhost.Cancelled:
		return contract.Errorf(contract.InternalError,
			"The call to %s was cancelled before toolset %q answered.", op, name)
	case pluginhost.OverLimit:
		return contract.Errorf(contract.InternalError,
			"Toolset %q answered %s with more than the plugin protocol carries (%d MiB a message), so the result was dropped; the toolset keeps running. Ask for less in one call (a page, a limit, a smaller region or fewer items).",
			name, op, f.Limit>>20)
	case pluginhost.NotRunning, pluginhost.Crashed:
		return crashedWords(name, op, f, "now", true)
	}
	return contract.Errorf(contract.InternalError,
		"Toolset %q failed during %s: %v. Retry; if it persists, check the server log (stderr).", name, op, f.Err)
}

// startFailedWords answers an enable whose plugin did not start.
func startFailedWords(spec pluginhost.Spec, err error) *contract.Error {
	where := "Check the server log (stderr)"
	if !spec.BuiltIn {
		where = fmt.Sprintf("Check its executable %s and the server log (stderr); it is retried when the file changes or on the next godot_enable_toolset", spec.Path)
	}
	return contract.Errorf(contract.InternalError, "Toolset %q failed to start: %s. %s.", spec.Name, startWords(err), where)
}

// restartFailedWords answers a call whose plugin could not be (re)started
// (verb: "started" or "restarted"); back says when it is retried.
func restartFailedWords(toolset, verb string, err error, back string) *contract.Error {
	return contract.Errorf(contract.InternalError, "Toolset %q could not be %s: %s. The next call retries it (possible %s); or disable and enable it.", toolset, verb, startWords(err), back)
}

package safety

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// A toolset's editor commands are held to its tool's class: every command
// the editor serves declares a class (the editor's command table, see
// envelope.CommandInfo), and CheckSend decides, for each command a toolset
// sends during a call, whether that call may send it.

// PublicCoreCommands are the core commands any toolset may send besides its
// own cmd_<toolset>_* commands. All are read_only (the editor's table must
// say so too). The list is part of the contract (docs/contract.md).
var PublicCoreCommands = map[string]bool{
	"cmd_ping":             true, // health check
	"cmd_get_editor_state": true, // project, open scenes, selection, playing, undo
	"cmd_describe_class":   true, // ClassDB reference
	"cmd_filesystem_sync":  true, // wait for the editor's filesystem to know written/removed files
}

// GameMessageCommand is the core command that relays a toolset's game
// message ("<toolset>:<message>") to the running game's probe, which runs
// the toolset's game code (sdk.Toolset.GameCode). The editor declares it
// runtime, so only a runtime tool may send it, and the host sets its
// "toolset" param to the calling toolset: a toolset reaches only its own
// game messages.
const GameMessageCommand = "cmd_game_message"

// PublicCoreList is PublicCoreCommands sorted, for hints and docs.
func PublicCoreList() []string {
	out := make([]string, 0, len(PublicCoreCommands))
	for c := range PublicCoreCommands {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// SendCall is what the host knows of the call an editor command serves.
type SendCall struct {
	Toolset string
	// Tool is the tool's name within its toolset, or what is being served
	// ("resource godot://...", "prompt review").
	Tool  string
	Class contract.Class
	// DryRun and Confirm are the call's flags as the host passed them (the
	// host calls a destructive tool without DryRun only once it is
	// confirmed and, when approval is on, approved).
	DryRun, Confirm bool
	// ProgressToken is the progress token the host handed the call (its
	// id, unguessable; "" when the client asked for no progress): the
	// toolset's progress notifications reach the call only under it.
	ProgressToken string
}

// CommandPrefix is the prefix of every command that belongs to toolset.
func CommandPrefix(toolset string) string { return "cmd_" + toolset + "_" }

// inNamespace reports whether command is cmd_<toolset>_<something>.
func inNamespace(command, toolset string) bool {
	rest, ok := strings.CutPrefix(command, "cmd_")
	if !ok {
		return false
	}
	rest, ok = strings.CutPrefix(rest, toolset)
	return ok && len(rest) > 1 && rest[0] == '_'
}

// allowed reports whether a tool of class tool may send a command of class cmd.
func allowed(tool, cmd contract.Class) bool {
	switch tool {
	case contract.ReadOnly:
		return cmd == contract.ReadOnly
	case contract.Mutating:
		return cmd == contract.ReadOnly || cmd == contract.Mutating
	case contract.Destructive:
		return cmd == contract.ReadOnly || cmd == contract.Mutating || cmd == contract.Destructive
	case contract.Runtime:
		return cmd == contract.ReadOnly || cmd == contract.Runtime
	}
	return false
}

// mayReach says which classes a tool of class c may send, for hints.
func mayReach(c contract.Class) string {
	switch c {
	case contract.ReadOnly:
		return "a read_only tool sends only read_only commands"
	case contract.Mutating:
		return "a mutating tool sends only read_only and mutating commands"
	case contract.Destructive:
		return "a destructive tool sends read_only, mutating and destructive commands"
	case contract.Runtime:
		return "a runtime tool sends only runtime and read_only commands"
	}
	return fmt.Sprintf("a tool of class %q sends nothing", c)
}

// CheckSend decides whether call may send command, whose entry in the
// connected editor's command table is info (declared false: the editor does
// not declare it). It returns the params to send — during a dry run, a
// command that takes dry_run gets dry_run: true whatever the toolset put
// there — or the refusal: VALIDATION_ERROR for a command outside the
// toolset's namespace or not declared by the editor, PRECONDITION_FAILED
// (required command_class, or confirm) for one above the call's class.
// Every hint names the toolset, the tool and the command.
func CheckSend(call SendCall, command string, info envelope.CommandInfo, declared bool, params json.RawMessage) (json.RawMessage, *contract.Error) {
	if command == GameMessageCommand {
		return checkGameMessage(call, info, declared, params)
	}
	own := inNamespace(command, call.Toolset)
	public := PublicCoreCommands[command]
	if !own && !public {
		return nil, refuse(contract.ValidationError, "", call, "may not send '%s': a toolset sends only its own %s* commands and the public core commands (%s).",
			command, CommandPrefix(call.Toolset), strings.Join(PublicCoreList(), ", "))
	}
	if !declared {
		if own {
			return nil, contract.Errorf(contract.ValidationError,
				"%s sent '%s', which the connected editor does not declare: the toolset's editor code is not loaded there, or it is older than the toolset. Reinstall the toolset's editor files and reload the project.", who(call), command)
		}
		return nil, contract.Errorf(contract.ValidationError,
			"%s sent '%s', which the connected editor does not declare (with a class): its godot_mcp addon is older than the server. Reinstall it with `godot-mcp addon install --project DIR` and reload the project.", who(call), command)
	}
	if own && info.Owner != call.Toolset || public && !own && info.Owner != "core" {
		return nil, refuse(contract.ValidationError, "", call, "may not send '%s': the editor says it belongs to '%s'.", command, info.Owner)
	}
	cmdClass := contract.Class(info.Class)
	if public && !own && cmdClass != contract.ReadOnly {
		return nil, refuse(contract.ValidationError, "", call, "may not send '%s': the editor declares it %s, and only read_only core commands are public.", command, cmdClass)
	}
	if !allowed(call.Class, cmdClass) {
		return nil, refuse(contract.PreconditionFailed, contract.RequireCommandClass, call, "may not send '%s' (%s): %s.", command, cmdClass, mayReach(call.Class))
	}
	if call.DryRun && cmdClass != contract.ReadOnly {
		if !info.DryRun {
			return nil, refuse(contract.PreconditionFailed, contract.RequireCommandClass, call,
				"may not send '%s' (%s) during a dry_run call: a preview sends only read_only commands and commands that take dry_run.", command, cmdClass)
		}
		forced, err := withDryRun(params)
		if err != nil {
			return nil, refuse(contract.ValidationError, "", call, "sent '%s' with params that are not a JSON object (%v).", command, err)
		}
		return forced, nil
	}
	if cmdClass == contract.Destructive && !(call.Class == contract.Destructive && call.Confirm) {
		return nil, refuse(contract.PreconditionFailed, contract.RequireConfirm, call, "may not send '%s' (destructive) outside a confirmed destructive call.", command)
	}
	return params, nil
}

// checkGameMessage decides a toolset's GameMessageCommand: the editor must
// declare it as core's and runtime, the call's class must allow runtime
// (PRECONDITION_FAILED, required command_class, otherwise: a read_only,
// mutating or destructive tool never reaches the game), and its "toolset"
// param is set to the calling toolset whatever the toolset put there.
func checkGameMessage(call SendCall, info envelope.CommandInfo, declared bool, params json.RawMessage) (json.RawMessage, *contract.Error) {
	if !declared {
		return nil, contract.Errorf(contract.ValidationError,
			"%s sent '%s' (a game message), which the connected editor does not declare: its godot_mcp addon is older than the server. Reinstall it with `godot-mcp addon install --project DIR` and reload the project.", who(call), GameMessageCommand)
	}
	if info.Owner != "core" || contract.Class(info.Class) != contract.Runtime {
		return nil, refuse(contract.ValidationError, "", call, "may not send '%s': the editor declares it %s of '%s', not runtime of core; reinstall the godot_mcp addon.", GameMessageCommand, info.Class, info.Owner)
	}
	if !allowed(call.Class, contract.Runtime) {
		return nil, refuse(contract.PreconditionFailed, contract.RequireCommandClass, call,
			"may not send a game message ('%s'): only a tool of class runtime reaches the running game (%s). Declare the tool runtime (sdk.Runtime) to send game messages.", GameMessageCommand, mayReach(call.Class))
	}
	if call.DryRun {
		return nil, refuse(contract.PreconditionFailed, contract.RequireCommandClass, call,
			"may not send a game message ('%s') during a dry_run call: a preview never reaches the game; check Call.DryRun before sending.", GameMessageCommand)
	}
	m := map[string]json.RawMessage{}
	if len(params) > 0 {
		if err := json.Unmarshal(params, &m); err != nil {
			return nil, refuse(contract.ValidationError, "", call, "sent '%s' with params that are not a JSON object (%v).", GameMessageCommand, err)
		}
		if m == nil {
			m = map[string]json.RawMessage{}
		}
	}
	name, _ := json.Marshal(call.Toolset)
	m["toolset"] = name
	out, _ := json.Marshal(m)
	return out, nil
}

// who names the toolset, the tool and its class, to start a hint.
func who(call SendCall) string {
	return fmt.Sprintf("Toolset '%s' (tool '%s', %s)", call.Toolset, call.Tool, call.Class)
}

// refuse builds a refusal: who, what (format), and what to do about it.
func refuse(code contract.ErrorCode, required string, call SendCall, format string, args ...any) *contract.Error {
	return &contract.Error{Code: code, Required: required, Hint: who(call) + " " + fmt.Sprintf(format, args...) +
		fmt.Sprintf(" Nothing was sent to the editor. This is a bug in toolset '%s': report it to its author, or disable it with godot_disable_toolset.", call.Toolset)}
}

// withDryRun sets "dry_run": true at the top of a JSON object.
func withDryRun(params json.RawMessage) (json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if len(params) > 0 {
		if err := json.Unmarshal(params, &m); err != nil {
			return nil, err
		}
		if m == nil {
			m = map[string]json.RawMessage{}
		}
	}
	m["dry_run"] = json.RawMessage("true")
	return json.Marshal(m)
}

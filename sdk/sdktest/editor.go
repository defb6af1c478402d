package sdktest

import (
	"context"
	"encoding/json"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// Editor is the fake Godot editor a Harness's tools talk to, in the SDK's
// terms: handlers answer a result or an *sdk.Error, as the real addon's
// GDScript answers ok or a failure (error, hint, required).
type Editor struct{ a *fakeaddon.Addon }

// Command is one editor command the fake editor received.
type Command struct {
	ID      string
	Command string
	Params  json.RawMessage
}

// HandlerFunc answers one editor command: a result (marshalled to JSON; nil
// means {}) or a failure. ctx ends when the harness stops.
type HandlerFunc func(ctx context.Context, params json.RawMessage) (any, *sdk.Error)

// Handle installs h for command, replacing any previous handler and
// clearing Silence for it.
func (e *Editor) Handle(command string, h HandlerFunc) {
	e.a.Handle(command, func(ctx context.Context, params json.RawMessage) (any, *contract.Error) {
		out, err := h(ctx, params)
		if err != nil {
			return nil, &contract.Error{Code: contract.ErrorCode(err.Code), Hint: err.Hint, Required: err.Required}
		}
		return out, nil
	})
}

// HandleResult answers command with result every time.
func (e *Editor) HandleResult(command string, result any) { e.a.HandleResult(command, result) }

// HandleError answers command with the failure err every time, e.g.
// sdk.PreconditionFailed(sdk.RequireActiveScene, "No scene is open.").
func (e *Editor) HandleError(command string, err *sdk.Error) {
	e.a.HandleError(command, &contract.Error{Code: contract.ErrorCode(err.Code), Hint: err.Hint, Required: err.Required})
}

// Silence makes the editor record command but never answer it (the call
// times out).
func (e *Editor) Silence(command string) { e.a.Silence(command) }

// Delay holds every answer back by d (a slow editor); 0 turns it off.
func (e *Editor) Delay(d time.Duration) { e.a.Delay(d) }

// Received returns the commands received, in order, answered or not.
func (e *Editor) Received() []Command {
	var out []Command
	for _, c := range e.a.Received() {
		out = append(out, Command{ID: c.ID, Command: c.Command, Params: c.Params})
	}
	return out
}

// WaitCommand returns the next command named command (each call for the
// same name returns the following one, in arrival order).
func (e *Editor) WaitCommand(ctx context.Context, command string) (Command, error) {
	c, err := e.a.WaitCommand(ctx, command)
	return Command{ID: c.ID, Command: c.Command, Params: c.Params}, err
}

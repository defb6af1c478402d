package scene

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// stepDecoder turns one batch step's args into the addon params of its tool.
type stepDecoder func(args json.RawMessage) (map[string]any, error)

// decodeStep validates args against In's input schema as the host validates
// a single call of the tool (unknown fields, enums, bounds, required fields),
// decodes them with the schema's defaults, and checks them as the tool does.
func decodeStep[In editArgs](args json.RawMessage) (map[string]any, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = json.RawMessage("{}")
	}
	if args[0] != '{' {
		return nil, sdk.Validation("args must be an object with the tool's arguments")
	}
	// The safety flags are the batch's; in a step they are refused with a
	// clearer word than "unknown field". Only parse for them when they may be
	// there: a batch can hold 10,000 steps.
	if bytes.Contains(args, []byte(`"dry_run"`)) || bytes.Contains(args, []byte(`"confirm"`)) {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(args, &keys); err != nil {
			return nil, sdk.Validation("args must be an object with the tool's arguments")
		}
		for _, flag := range []string{"dry_run", "confirm"} {
			if _, ok := keys[flag]; ok {
				return nil, sdk.Validation(flag + " belongs to the batch itself, not to a step")
			}
		}
	}
	// The same schema, engine and words as a single call of the tool.
	in, err := sdk.DecodeArgs[In](args)
	if err != nil {
		return nil, err
	}
	return in.params()
}

// stepTools are the edits a batch can hold, by short name.
var stepTools = map[string]stepDecoder{
	"create_node":       decodeStep[CreateNodeIn],
	"instantiate":       decodeStep[InstantiateIn],
	"delete_node":       decodeStep[DeleteNodeIn],
	"duplicate_node":    decodeStep[DuplicateNodeIn],
	"rename_node":       decodeStep[RenameNodeIn],
	"move_node":         decodeStep[MoveNodeIn],
	"set_properties":    decodeStep[SetPropertiesIn],
	"connect_signal":    decodeStep[ConnectSignalIn],
	"disconnect_signal": decodeStep[DisconnectSignalIn],
	"set_groups":        decodeStep[SetGroupsIn],

	"set_editable_children": decodeStep[SetEditableChildrenIn],
}

// destructiveSteps need the batch's confirm, as their own tools need confirm.
var destructiveSteps = map[string]bool{"delete_node": true}

func stepNames() string {
	names := make([]string, 0, len(stepTools))
	for n := range stepTools {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func batch(ctx context.Context, call *sdk.Call, in BatchIn) (BatchOut, error) {
	dryRun := call.DryRun
	steps := make([]map[string]any, 0, len(in.Steps))
	var destructive []string
	for i, s := range in.Steps {
		decode, ok := stepTools[s.Tool]
		if !ok {
			return aborted(i, sdk.Validation(fmt.Sprintf("%q is not an edit a batch can hold; use one of %s", s.Tool, stepNames())), dryRun), nil
		}
		p, err := decode(s.Args)
		if err != nil {
			e := sdk.AsError(err)
			e = &sdk.Error{Code: e.Code, Hint: "args: " + e.Hint, Required: e.Required}
			return aborted(i, e, dryRun), nil
		}
		if destructiveSteps[s.Tool] {
			destructive = append(destructive, fmt.Sprintf("%d (%s)", i, s.Tool))
		}
		steps = append(steps, map[string]any{"tool": s.Tool, "params": p})
	}
	if len(destructive) > 0 && !dryRun && !call.Confirm {
		return BatchOut{}, sdk.PreconditionFailed(sdk.RequireConfirm, fmt.Sprintf(
			"step %s is destructive: call the batch again with confirm: true, or preview it with dry_run: true. Nothing was changed.",
			strings.Join(destructive, ", ")))
	}
	params := map[string]any{"steps": steps, "dry_run": dryRun}
	if in.FullValues {
		params["full_values"] = true
	}
	out, err := sdk.Send[BatchOut](ctx, call.Host, "cmd_scene_batch", params, batchTimeout)
	if err != nil {
		return BatchOut{}, err
	}
	return out, nil
}

// aborted is the answer for a step refused before anything reached the editor.
func aborted(index int, e *sdk.Error, dryRun bool) BatchOut {
	at := index
	hint := fmt.Sprintf("Step %d failed: %s. Nothing was changed.", index, strings.TrimSuffix(e.Hint, "."))
	out := BatchOut{AbortedAt: &at, Error: &StepError{Error: string(e.Code), Hint: hint, Required: e.Required}, DryRun: dryRun}
	out.Normalize()
	return out
}

func (o *BatchOut) Normalize() {
	if o.Steps == nil {
		o.Steps = []StepResult{}
	}
	if o.Reasons == nil {
		o.Reasons = []string{}
	}
}

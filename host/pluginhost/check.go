package pluginhost

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file checks what a toolset hands the host, so that a plugin not
// built with the SDK (or a buggy one) cannot hand the host a malformed
// tool, result or error. It applies alike to plugin processes and
// in-process toolsets.

// ReservedToolsetName may not name a toolset: its namespace, cmd_ext_*,
// holds the core addon's extension loader commands.
const ReservedToolsetName = "ext"

// toolNameRE is the name rule the SDK enforces, checked again here for
// plugins built without it.
var toolNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

var editorVersionRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// checkInfo checks a toolset's description.
func checkInfo(info plugmodel.ToolsetInfo) error {
	if !toolNameRE.MatchString(info.Name) {
		return fmt.Errorf("toolset name %q is not lower case letters, digits and '_'", info.Name)
	}
	if info.Name == ReservedToolsetName {
		return fmt.Errorf("the toolset name %q is reserved: cmd_%s_* are the addon's own commands (cmd_ext_load, cmd_ext_unload)", info.Name, info.Name)
	}
	if len(info.Tools) == 0 {
		return errors.New("the toolset declares no tools")
	}
	if err := checkEditorFiles(info); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, ti := range info.Tools {
		if !toolNameRE.MatchString(ti.Name) {
			return fmt.Errorf("tool name %q is not lower case letters, digits and '_'", ti.Name)
		}
		if seen[ti.Name] {
			return fmt.Errorf("two tools are named %q", ti.Name)
		}
		seen[ti.Name] = true
		if !contract.Class(ti.Safety).Valid() {
			return fmt.Errorf("tool %q: unknown safety class %q", ti.Name, ti.Safety)
		}
		if _, err := contract.ParseConditions(ti.DestructiveWhen); err != nil {
			return fmt.Errorf("tool %q: %w", ti.Name, err)
		}
		if err := checkObjectSchema(ti.InputSchema); err != nil {
			return fmt.Errorf("tool %q: input schema: %w", ti.Name, err)
		}
		if err := checkObjectSchema(ti.OutputSchema); err != nil {
			return fmt.Errorf("tool %q: output schema: %w", ti.Name, err)
		}
	}
	for _, r := range info.Resources {
		if r.URI == "" || r.Name == "" {
			return fmt.Errorf("a resource needs a URI and a name (got %q, %q)", r.URI, r.Name)
		}
	}
	for _, r := range info.ResourceTemplates {
		if r.URI == "" || r.Name == "" {
			return fmt.Errorf("a resource template needs a URI template and a name (got %q, %q)", r.URI, r.Name)
		}
	}
	prompts := map[string]bool{}
	for _, p := range info.Prompts {
		if !toolNameRE.MatchString(p.Name) {
			return fmt.Errorf("prompt name %q is not lower case letters, digits and '_'", p.Name)
		}
		if prompts[p.Name] {
			return fmt.Errorf("two prompts are named %q", p.Name)
		}
		prompts[p.Name] = true
	}
	return nil
}

// checkEditorFiles checks a toolset's editor code: clean relative paths
// (nothing escapes its folder), a handlers.gd or game code with its
// game/game.gd, and a version stamp.
func checkEditorFiles(info plugmodel.ToolsetInfo) error {
	if len(info.EditorFiles) == 0 {
		if info.EditorVersion != "" {
			return errors.New("the toolset declares an editor code version but no editor files")
		}
		return nil
	}
	if !editorVersionRE.MatchString(info.EditorVersion) {
		return fmt.Errorf("editor code version %q is not 1-64 letters, digits, '.', '_' or '-'", info.EditorVersion)
	}
	seen := map[string]bool{}
	hasHandlers, hasGame, hasGameEntry := false, false, false
	for _, f := range info.EditorFiles {
		p := f.Path
		if p == "" || path.Clean(p) != p || path.IsAbs(p) || p == "." || strings.HasPrefix(p, "../") || p == ".." ||
			strings.ContainsAny(p, "\\:\x00") || strings.HasPrefix(path.Base(p), ".") {
			return fmt.Errorf("editor file path %q is not a clean relative path inside the toolset's folder", p)
		}
		if seen[p] {
			return fmt.Errorf("two editor files are named %q", p)
		}
		seen[p] = true
		hasHandlers = hasHandlers || p == "handlers.gd"
		hasGame = hasGame || strings.HasPrefix(p, "game/")
		hasGameEntry = hasGameEntry || p == "game/game.gd"
	}
	// Game code (sdk.Toolset.GameCode) travels under game/ with game.gd at
	// its root; a toolset may ship game code without editor code.
	if hasGame && !hasGameEntry {
		return errors.New("the toolset's game files (game/) have no game/game.gd")
	}
	if !hasHandlers && !hasGame {
		return errors.New("the toolset's editor files have no handlers.gd")
	}
	return nil
}

// checkObjectSchema requires a JSON Schema whose root is an object, as MCP
// requires of inputSchema and outputSchema.
func checkObjectSchema(raw json.RawMessage) error {
	var s struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if s.Type != "object" {
		return fmt.Errorf(`root "type" must be "object", got %v`, s.Type)
	}
	return nil
}

// checkError refuses an unknown error code.
func checkError(toolset string, e *contract.Error) *contract.Error {
	if !e.Code.Valid() {
		return contract.Errorf(contract.InternalError,
			"Toolset '%s' answered with an unknown error code %q (hint: %s). This is a bug in the toolset.", toolset, e.Code, e.Hint)
	}
	return e
}

// checkContent refuses a content item of unknown type.
func checkContent(toolset string, c plugmodel.Content) *contract.Error {
	switch c.Type {
	case "text", "image", "audio":
	case "resource":
		if c.URI == "" {
			return contract.Errorf(contract.InternalError,
				"Toolset '%s' returned an embedded resource without a URI. This is a bug in the toolset.", toolset)
		}
	default:
		return contract.Errorf(contract.InternalError,
			"Toolset '%s' returned a content item of unknown type %q. This is a bug in the toolset.", toolset, c.Type)
	}
	return nil
}

// checkResult refuses a malformed answer to a call.
func checkResult(toolset string, r plugmodel.CallResult) plugmodel.CallResult {
	if r.Err != nil {
		return plugmodel.CallResult{Err: checkError(toolset, r.Err)}
	}
	if len(r.Structured) == 0 || r.Structured[0] != '{' || !rawjson.Valid(r.Structured) {
		return plugmodel.CallResult{Err: contract.Errorf(contract.InternalError,
			"Toolset '%s' returned a result that is not a JSON object. This is a bug in the toolset.", toolset)}
	}
	for _, c := range r.Content {
		if err := checkContent(toolset, c); err != nil {
			return plugmodel.CallResult{Err: err}
		}
	}
	return r
}

func checkResourceResult(toolset string, r plugmodel.ResourceResult) plugmodel.ResourceResult {
	if r.Err != nil {
		return plugmodel.ResourceResult{Err: checkError(toolset, r.Err)}
	}
	if len(r.Contents) == 0 {
		return plugmodel.ResourceResult{Err: contract.Errorf(contract.InternalError,
			"Toolset '%s' read a resource with no contents. This is a bug in the toolset.", toolset)}
	}
	return r
}

func checkPromptResult(toolset string, r plugmodel.PromptResult) plugmodel.PromptResult {
	if r.Err != nil {
		return plugmodel.PromptResult{Err: checkError(toolset, r.Err)}
	}
	for _, m := range r.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return plugmodel.PromptResult{Err: contract.Errorf(contract.InternalError,
				"Toolset '%s' returned a prompt message with role %q. This is a bug in the toolset.", toolset, m.Role)}
		}
		if err := checkContent(toolset, m.Content); err != nil {
			return plugmodel.PromptResult{Err: err}
		}
	}
	return r
}

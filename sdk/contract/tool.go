package contract

// ToolMeta is what a tool declares about itself besides its name and its
// schemas: the words an agent reads and the rules the host applies. One
// struct carries it the whole way: the SDK fills it from sdk.ToolOptions,
// the plugin protocol carries it as one JSON document (the Tool message's
// meta_json), the host serves it unchanged (mcpserver.ToolDef embeds it)
// and the contract surface lists it. Nothing in between names its fields,
// so a new attribute is a field here, its option in sdk.ToolOptions, the
// host code that acts on it, its docs and its test: the recipe in
// docs/plugin-authoring.md ("Adding a tool attribute").
//
// The JSON names are wire names: renaming one is a breaking change of the
// contract. A host reads attributes it does not know as absent, and a
// plugin built before an attribute existed sends it absent (its zero
// value), so the zero value of a new field must mean "as before".
type ToolMeta struct {
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	// Safety is the tool's class; the host enforces it.
	Safety Class `json:"safety"`
	// DryRun: the tool takes dry_run and previews its effect itself. When
	// false the host answers a dry_run call with its own preview and never
	// calls the tool.
	DryRun bool `json:"dry_run,omitempty"`
	// Confirm: the tool refuses to run without confirm: true.
	Confirm bool `json:"confirm,omitempty"`
	// Preconditions are the names (Preconditions) checked before the tool acts.
	Preconditions []string `json:"preconditions,omitempty"`
	// DestructiveWhen lists conditions on the arguments that make one call
	// destructive ("overwrite", "count>1", see Condition): it then needs
	// confirm: true and goes through the approver.
	DestructiveWhen []string `json:"destructive_when,omitempty"`
	// RunsCode: the tool can make code run (approval scope "code").
	RunsCode bool `json:"runs_code,omitempty"`
}

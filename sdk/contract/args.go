package contract

// The arguments the host owns: it adds them to a tool's input schema as the
// class implies (dry_run for Mutating and Destructive tools, confirm for
// Destructive ones and those with destructive_when) and passes them to the
// toolset as flags (sdk.Call.DryRun, sdk.Call.Confirm), never as
// arguments. A tool's input type cannot declare them.
const (
	ArgDryRun  = "dry_run"
	ArgConfirm = "confirm"
)

// ReservedArgs lists the arguments the host owns.
var ReservedArgs = []string{ArgDryRun, ArgConfirm}

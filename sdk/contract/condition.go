package contract

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// Condition is one entry of a tool's destructive_when
// (sdk.ToolOptions.DestructiveWhen): a condition on one call's arguments
// under which that call destroys or overwrites though the tool's class does
// not say so. Written "overwrite" (a boolean argument that is true) or
// "count>1" (a number argument above a bound).
type Condition struct {
	Arg   string
	Above *float64 // nil: Arg is a boolean that must be true
}

var conditionRE = regexp.MustCompile(`^([a-z][a-z0-9_]{0,63})(?:>(-?[0-9]+(?:\.[0-9]+)?))?$`)

// ParseCondition reads "name" or "name>N".
func ParseCondition(s string) (Condition, error) {
	m := conditionRE.FindStringSubmatch(s)
	if m == nil {
		return Condition{}, fmt.Errorf("destructive_when %q: want an argument name (a boolean that is true) or name>N (a number above N)", s)
	}
	c := Condition{Arg: m[1]}
	if m[2] != "" {
		n, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return Condition{}, fmt.Errorf("destructive_when %q: %v", s, err)
		}
		c.Above = &n
	}
	return c, nil
}

// ParseConditions reads every entry of a DestructiveWhen list.
func ParseConditions(list []string) ([]Condition, error) {
	var out []Condition
	for _, s := range list {
		c, err := ParseCondition(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (c Condition) String() string {
	if c.Above == nil {
		return c.Arg
	}
	return c.Arg + ">" + strconv.FormatFloat(*c.Above, 'f', -1, 64)
}

// Holds reports whether the call's arguments meet the condition.
func (c Condition) Holds(args map[string]json.RawMessage) bool {
	raw, ok := args[c.Arg]
	if !ok {
		return false
	}
	if c.Above == nil {
		var b bool
		return json.Unmarshal(raw, &b) == nil && b
	}
	var n float64
	return json.Unmarshal(raw, &n) == nil && n > *c.Above
}

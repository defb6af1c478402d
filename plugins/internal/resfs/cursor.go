package resfs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// cursorState is what an opaque next_cursor carries: which listing it
// belongs to, where the next page starts, and (for search) how many matches
// of the file at Offset were already returned.
type cursorState struct {
	Kind   string `json:"k"`
	Offset int    `json:"o"`
	Skip   int    `json:"s,omitempty"`
}

// EncodeCursor makes the opaque next_cursor of a paginated listing of kind
// ("list", "search", "scripts_list", …) that resumes at offset.
func EncodeCursor(kind string, offset, skip int) string {
	b, _ := json.Marshal(cursorState{Kind: kind, Offset: offset, Skip: skip})
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor reads a cursor made by EncodeCursor for the same kind. An
// empty cursor is the first page. Anything else is VALIDATION_ERROR.
func DecodeCursor(kind, c string) (offset, skip int, err error) {
	if c == "" {
		return 0, 0, nil
	}
	bad := sdk.Validation(fmt.Sprintf("cursor %q is not a next_cursor of this tool; pass the next_cursor of the previous page unchanged, or omit it for the first page", c))
	b, derr := base64.RawURLEncoding.DecodeString(c)
	if derr != nil {
		return 0, 0, bad
	}
	var st cursorState
	if json.Unmarshal(b, &st) != nil || st.Kind != kind || st.Offset < 0 || st.Skip < 0 {
		return 0, 0, bad
	}
	return st.Offset, st.Skip, nil
}

package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The skills are served as skill:// resources with an index, and the
// instructions name each one.
func TestSkillsServedAsResources(t *testing.T) {
	skills, err := Skills()
	if err != nil {
		t.Fatal(err)
	}
	if len(skills) < 4 || len(skills) > 6 {
		t.Errorf("%d skills, want 4 to 6", len(skills))
	}
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	c := newClient(t, s)
	ctx := context.Background()
	res, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: SkillIndexURI}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("index: %+v %v", res, err)
	}
	var index struct {
		Skills []Skill `json:"skills"`
	}
	if err := json.Unmarshal([]byte(res.Contents[0].(mcp.TextResourceContents).Text), &index); err != nil || len(index.Skills) != len(skills) {
		t.Fatalf("index: %+v %v", index, err)
	}
	text := buildInstructions(nil, "")
	for _, sk := range index.Skills {
		r, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: sk.URI}})
		if err != nil || len(r.Contents) != 1 || !strings.HasPrefix(r.Contents[0].(mcp.TextResourceContents).Text, "---\nname: "+sk.Name+"\n") {
			t.Errorf("%s: %+v %v", sk.URI, r, err)
		}
		if !strings.Contains(text, sk.URI) {
			t.Errorf("the instructions do not name %s", sk.URI)
		}
	}
}

func TestFrontMatterRefusesWhatIsNotOne(t *testing.T) {
	for _, bad := range []string{"# no front matter", "---\nname: x\n# never closed", "---\njust words\n---\n"} {
		if _, err := frontMatter(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	m, err := frontMatter("---\nname: x\ndescription: a: b\n---\nbody")
	if err != nil || m["name"] != "x" || m["description"] != "a: b" {
		t.Errorf("%v %v", m, err)
	}
}

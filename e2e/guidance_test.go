package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The core's resources that ask the editor answer from the real one: a
// class reference by URI, the editor state, and an unknown class's
// did-you-mean as the read's error.
func TestGuidanceResourcesFromTheEditor(t *testing.T) {
	s := sharedSession(t)
	read := func(uri string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		res, err := s.host.c.ReadResource(ctx, req)
		if err != nil {
			return "", err
		}
		if len(res.Contents) != 1 {
			t.Fatalf("%s: %d contents", uri, len(res.Contents))
		}
		tc, ok := res.Contents[0].(mcp.TextResourceContents)
		if !ok || tc.MIMEType != "application/json" {
			t.Fatalf("%s: contents %#v", uri, res.Contents[0])
		}
		return tc.Text, nil
	}

	text, err := read("godot://class/CharacterBody2D")
	if err != nil {
		t.Fatal(err)
	}
	var cls struct {
		ClassName  string   `json:"class_name"`
		Inherits   []string `json:"inherits"`
		Properties []struct {
			Name string `json:"name"`
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(text), &cls); err != nil || cls.ClassName != "CharacterBody2D" || !slices.Contains(cls.Inherits, "PhysicsBody2D") {
		t.Fatalf("class = %.300s (%v)", text, err)
	}
	found := false
	for _, p := range cls.Properties {
		found = found || p.Name == "velocity"
	}
	if !found {
		t.Errorf("CharacterBody2D lists no velocity property: %.300s", text)
	}

	text, err = read("godot://editor/state")
	var st struct {
		GodotVersion string `json:"godot_version"`
	}
	if err != nil || json.Unmarshal([]byte(text), &st) != nil || !strings.HasPrefix(st.GodotVersion, "4.") {
		t.Fatalf("editor state = %.300s (%v)", text, err)
	}

	if _, err := read("godot://class/CharacterBody2d"); err == nil || !strings.Contains(err.Error(), "RESOURCE_NOT_FOUND") || !strings.Contains(err.Error(), "CharacterBody2D") {
		t.Errorf("misspelt class: %v", err)
	}
}

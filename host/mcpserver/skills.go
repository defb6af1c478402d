package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/docs"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file serves the workflow skills (docs/skills/<name>/SKILL.md, in the
// Agent Skills format: YAML front matter with name and description, then
// the steps) as MCP resources, under the skill:// URIs of the MCP Skills
// extension (SEP-2640): skill://<name>/SKILL.md, and skill://index.json
// listing them. The extension itself is not declared: it also requires the
// methods skills/list and skills/get, which mcp-go gives no way to serve;
// clients read the skills as the plain resources they are.

// Skill URIs.
const (
	SkillIndexURI  = "skill://index.json"
	skillURIPrefix = "skill://"
	skillFile      = "SKILL.md"
)

// Skill is one workflow skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	URI         string `json:"uri"`
	// Body is the whole SKILL.md.
	Body string `json:"-"`
}

// Skills reads the embedded skills, sorted by name.
func Skills() ([]Skill, error) {
	dirs, err := fs.ReadDir(docs.Skills, "skills")
	if err != nil {
		return nil, err
	}
	var out []Skill
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		body, err := fs.ReadFile(docs.Skills, path.Join("skills", d.Name(), skillFile))
		if err != nil {
			return nil, err
		}
		meta, err := frontMatter(string(body))
		if err != nil {
			return nil, fmt.Errorf("skill %s: %w", d.Name(), err)
		}
		if meta["name"] != d.Name() || meta["description"] == "" {
			return nil, fmt.Errorf("skill %s: its front matter must give name: %s and a description", d.Name(), d.Name())
		}
		out = append(out, Skill{Name: d.Name(), Description: meta["description"], URI: skillURIPrefix + d.Name() + "/" + skillFile, Body: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// frontMatter reads the "key: value" lines between the leading "---" lines.
func frontMatter(text string) (map[string]string, error) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, fmt.Errorf("no front matter (a first line ---)")
	}
	block, _, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, fmt.Errorf("the front matter does not end with a line ---")
	}
	out := map[string]string{}
	for _, line := range strings.Split(block, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("front matter line %q is not key: value", line)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// skillResources are the skills and their index, as core resources.
func skillResources() []Resource {
	skills, err := Skills()
	if err != nil {
		panic(err) // the embedded skills are checked by every test
	}
	out := make([]Resource, 0, len(skills)+1)
	index, _ := json.Marshal(map[string]any{"skills": skills})
	out = append(out, Resource{
		URI: SkillIndexURI, Name: "skills_index", Title: "Skills",
		Description: "The workflow skills this server serves (build and run a 2D scene, playtest a feature, fix a crash, a tile map level, animate a character, add a third-party toolset): name, description and the skill://<name>/SKILL.md to read.",
		MimeType:    "application/json", Toolset: CoreToolset,
		Read: func(context.Context, string, map[string]string) ([]ResourceContents, *contract.Error) {
			return []ResourceContents{{MimeType: "application/json", Text: string(index)}}, nil
		},
	})
	for _, sk := range skills {
		body := sk.Body
		out = append(out, Resource{
			URI: sk.URI, Name: "skill_" + strings.ReplaceAll(sk.Name, "-", "_"), Title: "Skill: " + sk.Name,
			Description: sk.Description, MimeType: "text/markdown", Toolset: CoreToolset,
			Read: func(context.Context, string, map[string]string) ([]ResourceContents, *contract.Error) {
				return []ResourceContents{{MimeType: "text/markdown", Text: body}}, nil
			},
		})
	}
	return out
}

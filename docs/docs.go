// Package docs embeds the guides that the server also serves as MCP
// resources (godot://docs/...), so the pages in this folder are the one
// source of what an agent reads.
package docs

import "embed"

// Guides are the pages served as resources, by file name.
//
//go:embed values.md scene.md scripts.md resources.md project.md runtime.md security.md tests.md diagnostics.md animation.md tilemap.md debugger.md audio.md shader.md physics.md ui.md playtest.md export.md analysis.md particles.md world.md assets.md navigation.md material.md visual_shader.md
var Guides embed.FS

// Skills are the workflow skills served as skill://<name>/SKILL.md, one
// folder each (skills/<name>/SKILL.md, Agent Skills format).
//
//go:embed skills
var Skills embed.FS

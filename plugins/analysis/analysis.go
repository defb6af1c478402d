// Package analysis is the built-in analysis toolset: read-only, offline
// answers about a whole project from its files on disk (no editor needed):
// files nothing uses, circular dependencies, the signal connections of
// every scene, broken references inside scenes and resources, and project
// statistics. Each call walks the project once (symbolic links are not
// followed; .godot, hidden folders and folders holding .gdignore are
// skipped) and parses the files in parallel.
package analysis

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/plugins/internal/resfs"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const defaultLimit = 100

// load resolves the project and walks it.
func load(ctx context.Context, call *sdk.Call, in ScanIn) (*project, Scanned, error) {
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "the analysis toolset")
	if err != nil {
		return nil, Scanned{}, err
	}
	p, err := scan(dir)
	if err != nil {
		return nil, Scanned{}, sdk.Internal(fmt.Sprintf("reading the project %s failed: %v", dir, err))
	}
	return p, Scanned{FilesScanned: len(p.paths), LinksSkipped: p.nLinks, SkippedLinks: p.links}, nil
}

// filterPath checks the path filter.
func filterPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	return respath.Clean(p)
}

// page cuts one page of items for the tool named kind.
func page[T any](items []T, in PageIn, kind string) ([]T, Page, error) {
	offset, _, err := resfs.DecodeCursor(kind, in.Cursor)
	if err != nil {
		return nil, Page{}, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	pg := Page{Total: len(items)}
	if offset > len(items) {
		offset = len(items)
	}
	end := min(offset+limit, len(items))
	out := append([]T{}, items[offset:end]...)
	if end < len(items) {
		pg.Truncated = true
		pg.NextCursor = resfs.EncodeCursor(kind, end, 0)
	}
	return out, pg, nil
}

func unusedFiles(ctx context.Context, call *sdk.Call, in UnusedIn) (UnusedOut, error) {
	filter, err := filterPath(in.Path)
	if err != nil {
		return UnusedOut{}, err
	}
	p, sc, err := load(ctx, call, in.ScanIn)
	if err != nil {
		return UnusedOut{}, err
	}
	all := p.unusedFiles(in.IncludeAddons, in.Transitive, filter)
	out := UnusedOut{Scanned: sc}
	for _, f := range all {
		out.TotalBytes += f.Bytes
	}
	out.Files, out.Page, err = page(all, in.PageIn, "analysis_unused")
	return out, err
}

func cycles(ctx context.Context, call *sdk.Call, in CyclesIn) (CyclesOut, error) {
	filter, err := filterPath(in.Path)
	if err != nil {
		return CyclesOut{}, err
	}
	p, sc, err := load(ctx, call, in.ScanIn)
	if err != nil {
		return CyclesOut{}, err
	}
	all := p.cycles(in.IncludeAddons, filter)
	for i := range all {
		all[i].Text = cycleText(all[i])
	}
	out := CyclesOut{Scanned: sc}
	out.Cycles, out.Page, err = page(all, in.PageIn, "analysis_cycles")
	return out, err
}

func signals(ctx context.Context, call *sdk.Call, in SignalsIn) (SignalsOut, error) {
	filter, err := filterPath(in.Path)
	if err != nil {
		return SignalsOut{}, err
	}
	p, sc, err := load(ctx, call, in.ScanIn)
	if err != nil {
		return SignalsOut{}, err
	}
	all := p.signalGraph(in.IncludeAddons, filter)
	out := SignalsOut{Scanned: sc}
	var shown []Connection
	for _, c := range all {
		switch c.Status {
		case statusMissingNode, statusMissingMethod:
			out.Flagged++
		case statusUnverified:
			out.Unverified++
		}
		if !in.OnlyProblems || c.Status == statusMissingNode || c.Status == statusMissingMethod {
			shown = append(shown, c)
		}
	}
	out.Connections, out.Page, err = page(shown, in.PageIn, "analysis_signals")
	return out, err
}

func sceneIntegrity(ctx context.Context, call *sdk.Call, in IntegrityIn) (IntegrityOut, error) {
	filter, err := filterPath(in.Path)
	if err != nil {
		return IntegrityOut{}, err
	}
	p, sc, err := load(ctx, call, in.ScanIn)
	if err != nil {
		return IntegrityOut{}, err
	}
	all := p.integrity(in.IncludeAddons, filter)
	out := IntegrityOut{Scanned: sc}
	for _, res := range p.paths {
		f := p.files[res]
		if !inScope(res, in.IncludeAddons, filter) {
			continue
		}
		if f.doc != nil {
			out.FilesChecked++
		} else if f.ext == "scn" || f.ext == "res" {
			out.BinarySkipped++
		}
	}
	for _, is := range all {
		if is.Severity == severityError {
			out.Errors++
		} else {
			out.Warnings++
		}
	}
	out.Issues, out.Page, err = page(all, in.PageIn, "analysis_integrity")
	return out, err
}

func stats(ctx context.Context, call *sdk.Call, in StatsIn) (StatsOut, error) {
	p, sc, err := load(ctx, call, in.ScanIn)
	if err != nil {
		return StatsOut{}, err
	}
	top := in.Top
	if top <= 0 {
		top = 10
	}
	out := p.stats(in.IncludeAddons, top)
	out.Scanned = sc
	return out, nil
}

// Toolset is the analysis toolset.
func Toolset() sdk.Toolset {
	const offline = " Reads the files on disk (save first); needs no editor. Paged: pass next_cursor as cursor."
	return sdk.Toolset{
		Name:           "analysis",
		Version:        "0.1.0",
		Description:    "Whole-project analysis from the files, no editor needed: unused and orphaned files, circular dependencies, every scene's signal connections checked, broken references in scenes, statistics.",
		Keywords:       []string{"unused files", "orphan resources", "dead assets", "cyclic dependency", "preload cycle", "signal connections", "missing method", "dangling NodePath", "broken ext_resource", "project statistics"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		Tools: []sdk.Tool{
			sdk.NewTool("unused_files", sdk.ToolOptions{
				Title: "Unused and orphaned files",
				Description: "Files nothing uses, with sizes: scenes, resources, scripts, shaders and assets that no file names by res:// path, uid:// or class_name, " +
					"and are not the main scene, an autoload, another project setting or taken by an export preset's include filter; plus .import/.uid sidecars whose file is gone. " +
					"Paths a script builds (\"res://levels/\" + name, \"level_%d.tscn\") keep the folder or prefix in use; code that builds paths otherwise is not seen: check before deleting." + offline,
				Safety: sdk.ReadOnly,
			}, unusedFiles),
			sdk.NewTool("cycles", sdk.ToolOptions{
				Title: "Circular dependencies",
				Description: "Circular preload/load/extends/scene dependencies (instanced scenes, scripts and other ext_resources of .tscn/.tres, shader #include), " +
					"each as its shortest cycle path with the line of every step, and how many files are tangled with it." + offline,
				Safety: sdk.ReadOnly,
			}, cycles),
			sdk.NewTool("signals", sdk.ToolOptions{
				Title: "Signal connections of every scene",
				Description: "The [connection] entries of every .tscn (signal, from, to, method, file:line), instanced scenes' nodes resolved. " +
					"Flags connections whose from/to node is not in the scene (missing_node) and methods not defined by func in the target node's script or the project scripts it extends (missing_method). " +
					"A method a built-in class might have cannot be checked offline: such connections are unverified, never flagged. Connections made in code are not listed." + offline,
				Safety: sdk.ReadOnly,
			}, signals),
			sdk.NewTool("scene_integrity", sdk.ToolOptions{
				Title: "Broken references in scenes and resources",
				Description: "Checks every text scene and resource: ext_resources whose uid and path name no file (missing_script when it is a script), ExtResource/SubResource ids never declared, " +
					"nodes whose parent is not in the scene, NodePath properties of nodes that point to no node of the scene (dangling_node_path), uids no file declares, parse errors; each with file:line." + offline,
				Safety: sdk.ReadOnly,
			}, sceneIntegrity),
			sdk.NewTool("stats", sdk.ToolOptions{
				Title:       "Project statistics",
				Description: "Counts and sizes of the project's files by kind and resource type, scenes (nodes, connections), scripts, and the largest scenes and resources." + " Reads the files on disk; needs no editor.",
				Safety:      sdk.ReadOnly,
			}, stats),
		},
	}
}

package analysis

// ScanIn says which project and whether addons are reported.
type ScanIn struct {
	ProjectDir    string `json:"project_dir,omitempty" description:"absolute path of the Godot project; default: GODOT_MCP_PROJECT_DIR, else the connected editor's project"`
	IncludeAddons bool   `json:"include_addons,omitempty" description:"also report files under res://addons (they are always read for references)"`
}

// PageIn filters and pages a list.
type PageIn struct {
	Path   string `json:"path,omitempty" description:"only report files under this res:// folder, or this one file"`
	Limit  int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=1000" description:"most items per page (default 100)"`
	Cursor string `json:"cursor,omitempty" description:"next_cursor of the previous page; omit for the first"`
}

// Page says where a list stands.
type Page struct {
	Total      int    `json:"total" description:"items in all pages"`
	Truncated  bool   `json:"truncated" description:"more items follow: call again with next_cursor"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// Scanned says what the walk read.
type Scanned struct {
	FilesScanned int      `json:"files_scanned" description:"files walked (hidden folders, .godot and folders with .gdignore are skipped)"`
	LinksSkipped int      `json:"links_skipped,omitempty" description:"symbolic links met and not followed; nothing behind them is read"`
	SkippedLinks []string `json:"skipped_links,omitempty" description:"the first 20 of them"`
}

// UnusedIn selects unused files.
type UnusedIn struct {
	ScanIn
	PageIn
	Transitive bool `json:"transitive,omitempty" description:"also list files referenced only by files that nothing reaches from the project's roots (project settings: main scene, autoloads; export presets and their include filters; GDExtensions)"`
}

// UnusedFile is a file nothing uses.
type UnusedFile struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	Kind   string `json:"kind" description:"scene, resource, script, shader, texture, audio, model, font, data, video; import or uid for a sidecar"`
	Reason string `json:"reason" jsonschema:"enum=unreferenced|unreachable|orphaned_import|orphaned_uid" description:"unreferenced: no file names it by path, uid or class_name; unreachable (transitive): only unused files do; orphaned_import/orphaned_uid: a .import or .uid sidecar whose file is gone"`
}

// UnusedOut is a page of unused files.
type UnusedOut struct {
	Files      []UnusedFile `json:"files"`
	TotalBytes int64        `json:"total_bytes" description:"bytes of all listed files, every page"`
	Page
	Scanned
}

// CyclesIn selects cycles.
type CyclesIn struct {
	ScanIn
	PageIn
}

// CycleStep is one file of a cycle and the dependency to the next.
type CycleStep struct {
	File string `json:"file"`
	Via  string `json:"via" description:"how it depends on the next file (the last on the first): preload, load, extends, instance, script, ext_resource, include"`
	Line int    `json:"line,omitempty" description:"where in file"`
}

// Cycle is a circular dependency.
type Cycle struct {
	Text     string      `json:"text" description:"the cycle as a -via-> b -via-> a"`
	Steps    []CycleStep `json:"steps"`
	Kinds    []string    `json:"kinds" description:"the dependency kinds on the cycle"`
	LoadOnly bool        `json:"load_only" description:"every step is a load() call: the cycle happens only when that code runs"`
	Files    int         `json:"files" description:"files in the tangle (strongly connected component) this cycle belongs to"`
	Members  []string    `json:"members,omitempty" description:"those files (first 50) when there are more than the cycle shows"`
}

// CyclesOut is a page of cycles.
type CyclesOut struct {
	Cycles []Cycle `json:"cycles"`
	Page
	Scanned
}

// SignalsIn selects connections.
type SignalsIn struct {
	ScanIn
	PageIn
	OnlyProblems bool `json:"only_problems,omitempty" description:"only connections flagged missing_node or missing_method"`
}

// Connection is one [connection] of a scene.
type Connection struct {
	Scene  string `json:"scene"`
	Line   int    `json:"line"`
	Signal string `json:"signal"`
	From   string `json:"from" description:"node path from the scene root"`
	To     string `json:"to"`
	Method string `json:"method"`
	Status string `json:"status" jsonschema:"enum=ok|missing_node|missing_method|unverified" description:"ok: the method is a func of the target's script chain; missing_*: flagged; unverified: may be a built-in class's method, which cannot be known offline"`
	Note   string `json:"note,omitempty"`
}

// SignalsOut is a page of connections.
type SignalsOut struct {
	Connections []Connection `json:"connections"`
	Flagged     int          `json:"flagged" description:"missing_node and missing_method connections, every page"`
	Unverified  int          `json:"unverified"`
	Page
	Scanned
}

// IntegrityIn selects scene and resource issues.
type IntegrityIn struct {
	ScanIn
	PageIn
}

// Issue is one problem of a text scene or resource.
type Issue struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Kind     string `json:"kind" jsonschema:"enum=parse_error|broken_ext_resource|missing_script|unknown_resource_id|missing_parent|dangling_node_path|invalid_uid"`
	Severity string `json:"severity" jsonschema:"enum=error|warning"`
	Detail   string `json:"detail"`
}

// IntegrityOut is a page of issues.
type IntegrityOut struct {
	Issues        []Issue `json:"issues"`
	FilesChecked  int     `json:"files_checked" description:"text scenes and resources checked"`
	Errors        int     `json:"errors" description:"error issues, every page"`
	Warnings      int     `json:"warnings"`
	BinarySkipped int     `json:"binary_skipped,omitempty" description:"binary .scn/.res files, which are not checked"`
	Page
	Scanned
}

// StatsIn says which project and how many largest files.
type StatsIn struct {
	ScanIn
	Top int `json:"top,omitempty" jsonschema:"minimum=1,maximum=100" description:"largest scenes and resources listed (default 10)"`
}

// KindCount is files of one kind.
type KindCount struct {
	Kind  string `json:"kind"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// TypeCount is files of one resource type.
type TypeCount struct {
	Type  string `json:"type"`
	Files int    `json:"files"`
}

// SizedFile is a file and its size.
type SizedFile struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	Type  string `json:"type,omitempty"`
	Nodes int    `json:"nodes,omitempty" description:"a text scene's nodes"`
}

// SceneCounts totals the scenes.
type SceneCounts struct {
	Count       int `json:"count"`
	Nodes       int `json:"nodes" description:"nodes declared in text scenes"`
	Connections int `json:"connections"`
}

// ScriptCounts totals the scripts.
type ScriptCounts struct {
	Count         int `json:"count"`
	WithClassName int `json:"with_class_name"`
}

// StatsOut is the project's statistics.
type StatsOut struct {
	Files            int          `json:"files" description:"files, .import and .uid sidecars not counted"`
	Bytes            int64        `json:"bytes"`
	ByKind           []KindCount  `json:"by_kind"`
	ByType           []TypeCount  `json:"by_type" description:"resource types: a text resource's type, an imported file's, GDScript, PackedScene"`
	Scenes           SceneCounts  `json:"scenes"`
	Scripts          ScriptCounts `json:"scripts"`
	LargestScenes    []SizedFile  `json:"largest_scenes"`
	LargestResources []SizedFile  `json:"largest_resources"`
	Scanned
}

package analysis

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godottext"
)

// Limits of what is read.
const (
	maxTextBytes  = 64 << 20 // scenes, resources, scripts, config: larger ones are not parsed
	maxOtherBytes = 4 << 20  // other text files scanned for res:// paths
	maxLinks      = 20       // skipped links named in an answer
)

// Kinds of files, by extension.
var kindByExt = map[string]string{
	"tscn": "scene", "scn": "scene", "escn": "scene",
	"tres": "resource", "res": "resource",
	"gd": "script", "cs": "script",
	"gdshader": "shader", "gdshaderinc": "shader", "shader": "shader",
	"png": "texture", "jpg": "texture", "jpeg": "texture", "webp": "texture", "svg": "texture", "bmp": "texture", "tga": "texture",
	"exr": "texture", "hdr": "texture", "ktx": "texture", "ktx2": "texture", "dds": "texture",
	"wav": "audio", "ogg": "audio", "mp3": "audio",
	"glb": "model", "gltf": "model", "fbx": "model", "blend": "model", "obj": "model", "dae": "model",
	"ttf": "font", "otf": "font", "woff": "font", "woff2": "font", "fnt": "font", "font": "font", "pfb": "font", "pfm": "font",
	"json": "data", "csv": "data", "translation": "data", "po": "data", "mo": "data", "ogv": "video",
}

// binaryExts are never read as text (scanning them for paths is pointless).
var binaryExts = map[string]bool{
	"png": true, "jpg": true, "jpeg": true, "webp": true, "bmp": true, "tga": true, "exr": true, "hdr": true, "ktx": true, "ktx2": true, "dds": true,
	"wav": true, "ogg": true, "mp3": true, "glb": true, "fbx": true, "blend": true, "blend1": true, "ttf": true, "otf": true, "woff": true, "woff2": true,
	"ogv": true, "mo": true, "so": true, "dll": true, "dylib": true, "a": true, "lib": true, "exe": true, "pck": true, "zip": true, "wasm": true,
	"translation": true, "svg": true, "pfb": true, "pfm": true, "dae": true, "uid": false,
}

// file is one file of the project and what was read from it.
type file struct {
	res     string // res:// path
	size    int64
	ext     string // lower case, without the dot
	kind    string
	addon   bool   // under res://addons
	uid     string // the uid://… the file declares (header, .uid sidecar, .import)
	resType string // a text resource's type, or an imported file's type
	refs    []rawRef
	gd      *gdScript
	doc     *textDoc
	errs    []godottext.Error
	// exportIncludes are the include filters of export_presets.cfg.
	exportIncludes []string
	unread         bool  // too large or unreadable: its references are unknown
	mtime          int64 // modification time (ns) when read
}

// project is the index of one walk.
type project struct {
	dir     string
	files   map[string]*file
	paths   []string // every file, sorted
	dirs    map[string]bool
	uids    map[string]string // uid://… -> res:// path of the file that declares it
	classes map[string]string // class_name -> script
	links   []string          // symbolic links met (not followed)
	nLinks  int
}

func resOf(rel string) string { return "res://" + filepath.ToSlash(rel) }

func extOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return strings.ToLower(name[i+1:])
	}
	return ""
}

// scan walks the project at dir (symbolic links are not followed; .godot,
// hidden folders and folders holding .gdignore are skipped) and parses
// every file it can use.
func scan(dir string) (*project, error) {
	// The project folder is the user's choice and may be reached through a
	// link; nothing below it is followed.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	p := &project{dir: dir, files: map[string]*file{}, dirs: map[string]bool{"res://": true}, uids: map[string]string{}, classes: map[string]string{}}
	var list, reused []*file
	cached := parsed.get(dir)
	// A file changed within the clock's granularity of its last read may
	// still show the same size and time: only older files are trusted.
	settled := time.Now().Add(-2 * time.Second)
	err := filepath.WalkDir(dir, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			if full == dir {
				return err
			}
			return nil
		}
		if full == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, full)
		name := d.Name()
		if d.Type()&fs.ModeSymlink != 0 {
			p.nLinks++
			if len(p.links) < maxLinks {
				p.links = append(p.links, resOf(rel))
			}
			return nil
		}
		if d.IsDir() {
			if strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(full, ".gdignore")); err == nil {
				return filepath.SkipDir
			}
			p.dirs[resOf(rel)] = true
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(name, ".") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		res := resOf(rel)
		if c := cached[res]; c != nil && c.size == info.Size() && c.mtime == info.ModTime().UnixNano() && info.ModTime().Before(settled) {
			reused = append(reused, c)
			return nil
		}
		f := &file{res: res, size: info.Size(), ext: extOf(name), addon: strings.HasPrefix(res, "res://addons/"), mtime: info.ModTime().UnixNano()}
		f.kind = kindByExt[f.ext]
		if f.kind == "" {
			f.kind = "other"
		}
		list = append(list, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Read and parse in parallel (reads wait on the disk: more readers
	// than cores); merging is done after.
	workers := max(4*runtime.GOMAXPROCS(0), 8)
	var wg sync.WaitGroup
	next := make(chan *file, 256)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				p.read(f)
			}
		}()
	}
	for _, f := range list {
		next <- f
	}
	close(next)
	wg.Wait()
	list = append(list, reused...)
	p.paths = make([]string, 0, len(list))
	for _, f := range list {
		p.files[f.res] = f
		p.paths = append(p.paths, f.res)
	}
	sort.Strings(p.paths)
	parsed.put(dir, p.files)
	for _, res := range p.paths {
		f := p.files[res]
		if f.uid != "" {
			target := res
			if f.ext == "uid" || f.ext == "import" {
				target = strings.TrimSuffix(strings.TrimSuffix(res, ".uid"), ".import")
			}
			if _, dup := p.uids[f.uid]; !dup || target == res {
				p.uids[f.uid] = target
			}
		}
		if f.gd != nil && f.gd.className != "" {
			if _, dup := p.classes[f.gd.className]; !dup {
				p.classes[f.gd.className] = res
			}
		}
	}
	return p, nil
}

// parsed keeps the files read by the last walk of a project, so the next
// call re-reads only files whose size or time changed (and those changed
// lately). One project at a time, at most cacheFiles files.
var parsed fileCache

const cacheFiles = 200000

type fileCache struct {
	mu    sync.Mutex
	dir   string
	files map[string]*file
}

func (c *fileCache) get(dir string) map[string]*file {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dir != dir {
		return nil
	}
	return c.files
}

func (c *fileCache) put(dir string, files map[string]*file) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(files) > cacheFiles {
		c.dir, c.files = "", nil
		return
	}
	c.dir, c.files = dir, files
}

var (
	includeRE = regexp.MustCompile(`(?m)^\s*#include\s+"([^"]+)"`)
	uriRE     = regexp.MustCompile(`"uri"\s*:\s*"([^"]+)"`)
	mtlRE     = regexp.MustCompile(`(?m)^\s*(?:mtllib|map_\w+|bump|disp|decal|norm)\s+(?:-\S+\s+\S+\s+)*(\S[^\r\n]*?)\s*$`)
)

// read parses one file by its kind.
func (p *project) read(f *file) {
	if binaryExts[f.ext] {
		return
	}
	limit := int64(maxTextBytes)
	switch f.ext {
	case "tscn", "tres", "escn", "gd", "gdshader", "gdshaderinc", "shader", "import", "uid", "godot", "cfg", "gdextension", "scn", "res", "gltf", "obj", "mtl", "json", "cs":
	default:
		limit = maxOtherBytes
	}
	if f.size > limit {
		f.unread = true
		return
	}
	data, err := readFile(filepath.Join(p.dir, filepath.FromSlash(strings.TrimPrefix(f.res, "res://"))), f.size)
	if err != nil {
		f.unread = true
		return
	}
	switch f.ext {
	case "tscn", "tres", "escn":
		p.readTextResource(f, data)
	case "gd":
		f.gd = parseGDScript(string(data))
		f.refs = f.gd.refs
	case "uid":
		f.uid = strings.TrimSpace(string(data))
	case "import", "godot", "cfg", "gdextension":
		p.readConfig(f, data)
	case "gdshader", "gdshaderinc", "shader":
		for _, m := range includeRE.FindAllSubmatchIndex(data, -1) {
			f.refs = append(f.refs, rawRef{text: string(data[m[2]:m[3]]), line: 1 + bytes.Count(data[:m[2]], []byte("\n")), kind: refInclude})
		}
		f.refs = append(f.refs, scanRefs(string(data), 1)...)
	case "scn", "res": // binary resources: paths are stored as plain strings
		f.refs = scanRefs(string(data), 1)
		for i := range f.refs {
			f.refs[i].line = 0
		}
	case "gltf":
		for _, m := range uriRE.FindAllSubmatch(data, -1) {
			if u := string(m[1]); !strings.HasPrefix(u, "data:") {
				f.refs = append(f.refs, rawRef{text: u, kind: refRelative})
			}
		}
	case "obj", "mtl":
		for _, m := range mtlRE.FindAllSubmatch(data, -1) {
			f.refs = append(f.refs, rawRef{text: string(m[1]), kind: refRelative})
		}
	default:
		if bytes.IndexByte(data[:min(len(data), 1024)], 0) >= 0 {
			return
		}
		f.refs = scanRefs(string(data), 1)
	}
}

// readConfig reads a ConfigFile (project.godot, .import, export_presets.cfg,
// plugin.cfg, .gdextension): every res:// or uid:// string is a reference.
func (p *project) readConfig(f *file, data []byte) {
	doc := godottext.Parse(data)
	f.errs = doc.Errors
	base := path.Base(f.res)
	for _, s := range doc.Sections {
		for _, kv := range s.Props {
			switch {
			case f.ext == "import" && s.Tag == "remap" && kv.Key == "uid":
				f.uid, _ = godottext.Unquote(kv.Value)
				continue
			case f.ext == "import" && s.Tag == "remap" && kv.Key == "type":
				f.resType, _ = godottext.Unquote(kv.Value)
				continue
			case f.ext == "import" && s.Tag == "deps" && (kv.Key == "source_file" || kv.Key == "dest_files" || kv.Key == "files"):
				continue // the imported file itself and its copies in .godot
			case f.ext == "import" && s.Tag == "remap" && (kv.Key == "path" || strings.HasPrefix(kv.Key, "path.")):
				continue
			case base == "plugin.cfg" && s.Tag == "plugin" && kv.Key == "script":
				if v, ok := godottext.Unquote(kv.Value); ok && v != "" && !strings.Contains(v, "://") {
					f.refs = append(f.refs, rawRef{text: v, line: kv.Line, kind: refRelative})
					continue
				}
			case base == "export_presets.cfg" && kv.Key == "include_filter":
				if v, ok := godottext.Unquote(kv.Value); ok {
					for _, pat := range strings.Split(v, ",") {
						if pat = strings.TrimSpace(pat); pat != "" {
							f.exportIncludes = append(f.exportIncludes, pat)
						}
					}
				}
				continue
			case f.ext == "gdextension":
				if v, ok := godottext.Unquote(kv.Value); ok && v != "" && !strings.Contains(v, "://") && strings.Contains(v, ".") {
					f.refs = append(f.refs, rawRef{text: v, line: kv.Line, kind: refRelative})
					continue
				}
			}
			if strings.Contains(kv.Value, "://") {
				for _, str := range godottext.Strings(kv.Value) {
					f.refs = append(f.refs, scanRefs(str, kv.Line)...)
				}
			}
		}
	}
}

// resolve turns a reference written in from into the res:// path it names
// ("" when it names nothing the analysis can place). A path's "::" sub-
// resource part is dropped.
func (p *project) resolve(from string, r rawRef) string {
	t := r.text
	if strings.HasPrefix(t, "uid://") {
		return p.uids[t]
	}
	if i := strings.Index(t, "::"); i >= 0 {
		t = t[:i]
	}
	if strings.HasPrefix(t, "res://") {
		rest := strings.TrimPrefix(t, "res://")
		if rest == "" {
			return "res://"
		}
		return "res://" + strings.TrimPrefix(path.Clean("/"+rest), "/")
	}
	switch r.kind {
	case refPreload, refLoad, refExtends, refInclude, refRelative:
		if strings.Contains(t, "://") || strings.HasPrefix(t, "/") || t == "" {
			return ""
		}
		dir := path.Dir(strings.TrimPrefix(from, "res://"))
		j := path.Clean("/" + path.Join(dir, t))
		if strings.HasPrefix(path.Join(dir, t), "..") {
			return "" // above res://
		}
		return "res://" + strings.TrimPrefix(j, "/")
	}
	return ""
}

// under returns the sorted files whose path starts with prefix.
func (p *project) under(prefix string) []string {
	i := sort.SearchStrings(p.paths, prefix)
	j := i
	for j < len(p.paths) && strings.HasPrefix(p.paths[j], prefix) {
		j++
	}
	return p.paths[i:j]
}

// inScope says whether a file is reported: addons only when asked, and
// only under the filter path (a folder or a file) when one is given.
func inScope(res string, includeAddons bool, filter string) bool {
	if !includeAddons && strings.HasPrefix(res, "res://addons/") {
		return false
	}
	if filter == "" || filter == "res://" {
		return true
	}
	return res == filter || strings.HasPrefix(res, strings.TrimSuffix(filter, "/")+"/")
}

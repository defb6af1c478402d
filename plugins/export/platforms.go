package export

import (
	"github.com/godot-mcp/godot-mcp/plugins/internal/suggest"
	"sort"
	"strings"
)

// platformInfo is what this toolset knows of an export platform of Godot
// 4.4 to 4.8: the name the editor writes as platform=, the export options
// it writes in [preset.N.options] with their Variant types (complete for
// Linux and Web; the common ones elsewhere), and its export template files.
type platformInfo struct {
	Name string
	// complete: Options lists every option this platform has (an unknown
	// name is refused without allow_unknown_options on the others too,
	// but the hint says the list is partial).
	complete bool
	Options  map[string]string // option -> bool|int|float|string|strings
	// templates returns the template files a debug or release export
	// needs, given the preset's options (raw Variant text).
	templates func(opts map[string]string, debug bool) []string
}

func optString(opts map[string]string, key, def string) string {
	if raw, ok := opts[key]; ok {
		if s, err := unquote(raw); err == nil && s != "" {
			return s
		}
	}
	return def
}

func optBool(opts map[string]string, key string, def bool) bool {
	if raw, ok := opts[key]; ok {
		return raw == "true"
	}
	return def
}

func debugOr(debug bool, d, r string) string {
	if debug {
		return d
	}
	return r
}

var sshDeploy = map[string]string{
	"ssh_remote_deploy/enabled": "bool", "ssh_remote_deploy/host": "string", "ssh_remote_deploy/port": "string",
	"ssh_remote_deploy/extra_args_ssh": "string", "ssh_remote_deploy/extra_args_scp": "string",
	"ssh_remote_deploy/run_script": "string", "ssh_remote_deploy/cleanup_script": "string",
}

var pcOptions = map[string]string{
	"custom_template/debug": "string", "custom_template/release": "string",
	"debug/export_console_wrapper": "int", "binary_format/embed_pck": "bool",
	"texture_format/s3tc_bptc": "bool", "texture_format/etc2_astc": "bool",
	"shader_baker/enabled": "bool", "binary_format/architecture": "string",
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

var platforms = []platformInfo{
	{
		Name: "Linux", complete: true,
		Options: merge(pcOptions, sshDeploy),
		templates: func(o map[string]string, debug bool) []string {
			return []string{"linux_" + debugOr(debug, "debug", "release") + "." + optString(o, "binary_format/architecture", "x86_64")}
		},
	},
	{
		Name: "Windows Desktop",
		Options: merge(pcOptions, sshDeploy, map[string]string{
			"codesign/enable": "bool", "codesign/timestamp": "bool", "codesign/timestamp_server_url": "string",
			"codesign/digest_algorithm": "int", "codesign/description": "string", "codesign/custom_options": "strings",
			"application/modify_resources": "bool", "application/icon": "string", "application/console_wrapper_icon": "string",
			"application/icon_interpolation": "int", "application/file_version": "string", "application/product_version": "string",
			"application/company_name": "string", "application/product_name": "string", "application/file_description": "string",
			"application/copyright": "string", "application/trademarks": "string", "application/export_angle": "int",
			"application/export_d3d12": "int", "application/d3d12_agility_sdk_multiarch": "bool",
		}),
		templates: func(o map[string]string, debug bool) []string {
			return []string{"windows_" + debugOr(debug, "debug", "release") + "_" + optString(o, "binary_format/architecture", "x86_64") + ".exe"}
		},
	},
	{
		Name: "macOS",
		Options: map[string]string{
			"custom_template/debug": "string", "custom_template/release": "string", "debug/export_console_wrapper": "int",
			"binary_format/architecture": "string", "application/icon": "string", "application/icon_interpolation": "int",
			"application/bundle_identifier": "string", "application/signature": "string", "application/app_category": "string",
			"application/short_version": "string", "application/version": "string", "application/copyright": "string",
			"application/min_macos_version_x86_64": "string", "application/min_macos_version_arm64": "string",
			"display/high_res": "bool", "codesign/codesign": "int", "notarization/notarization": "int",
			"texture_format/s3tc_bptc": "bool", "texture_format/etc2_astc": "bool", "shader_baker/enabled": "bool",
		},
		templates: func(map[string]string, bool) []string { return []string{"macos.zip"} },
	},
	{
		Name: "Web", complete: true,
		Options: map[string]string{
			"custom_template/debug": "string", "custom_template/release": "string",
			"variant/extensions_support": "bool", "variant/thread_support": "bool",
			"vram_texture_compression/for_desktop": "bool", "vram_texture_compression/for_mobile": "bool",
			"threads/emscripten_pool_size": "int", "threads/godot_pool_size": "int", "progressive_web_app/background_color": "other",
			"html/export_icon": "bool", "html/custom_html_shell": "string", "html/head_include": "string",
			"html/canvas_resize_policy": "int", "html/focus_canvas_on_start": "bool", "html/experimental_virtual_keyboard": "bool",
			"progressive_web_app/enabled": "bool", "progressive_web_app/ensure_cross_origin_isolation_headers": "bool",
			"progressive_web_app/offline_page": "string", "progressive_web_app/display": "int", "progressive_web_app/orientation": "int",
			"progressive_web_app/icon_144x144": "string", "progressive_web_app/icon_180x180": "string", "progressive_web_app/icon_512x512": "string",
		},
		templates: func(o map[string]string, debug bool) []string {
			name := "web"
			if optBool(o, "variant/extensions_support", false) {
				name += "_dlink"
			}
			if !optBool(o, "variant/thread_support", false) {
				name += "_nothreads"
			}
			return []string{name + "_" + debugOr(debug, "debug", "release") + ".zip"}
		},
	},
	{
		Name: "Android",
		Options: map[string]string{
			"custom_template/debug": "string", "custom_template/release": "string",
			"gradle_build/use_gradle_build": "bool", "gradle_build/export_format": "int", "gradle_build/min_sdk": "string", "gradle_build/target_sdk": "string",
			"architectures/armeabi-v7a": "bool", "architectures/arm64-v8a": "bool", "architectures/x86": "bool", "architectures/x86_64": "bool",
			"version/code": "int", "version/name": "string", "package/unique_name": "string", "package/name": "string",
			"package/signed": "bool", "screen/immersive_mode": "bool", "permissions/internet": "bool",
		},
		templates: func(o map[string]string, debug bool) []string {
			if optBool(o, "gradle_build/use_gradle_build", false) {
				return []string{"android_source.zip"}
			}
			return []string{"android_" + debugOr(debug, "debug", "release") + ".apk"}
		},
	},
	{
		Name: "iOS",
		Options: map[string]string{
			"custom_template/debug": "string", "custom_template/release": "string",
			"application/app_store_team_id": "string", "application/bundle_identifier": "string", "application/signature": "string",
			"application/short_version": "string", "application/version": "string", "application/min_ios_version": "string",
			"application/export_method_debug": "int", "application/export_method_release": "int",
		},
		templates: func(map[string]string, bool) []string { return []string{"ios.zip"} },
	},
}

// secretOptions are the options Godot marks secret (PROPERTY_USAGE_SECRET):
// the editor keeps them in .godot/export_credentials.cfg, never in
// export_presets.cfg, which projects commit.
var secretOptions = map[string]bool{
	"keystore/debug": true, "keystore/debug_user": true, "keystore/debug_password": true,
	"keystore/release": true, "keystore/release_user": true, "keystore/release_password": true,
	"codesign/identity": true, "codesign/identity_type": true, "codesign/password": true,
	"codesign/certificate_file": true, "codesign/certificate_password": true, "codesign/provisioning_profile": true,
	"application/provisioning_profile_uuid_debug": true, "application/provisioning_profile_uuid_release": true,
	"notarization/api_key": true, "notarization/api_key_id": true, "notarization/api_uuid": true,
	"notarization/apple_id_name": true, "notarization/apple_id_password": true,
}

func platformNames() []string {
	out := make([]string, len(platforms))
	for i, p := range platforms {
		out[i] = p.Name
	}
	return out
}

func findPlatform(name string) (*platformInfo, bool) {
	for i := range platforms {
		if platforms[i].Name == name {
			return &platforms[i], true
		}
	}
	return nil, false
}

// didYouMean suggests the closest of names, else one that ends the same
// (architecture for binary_format/architecture).
func didYouMean(s string, names []string) string {
	if best, ok := suggest.Closest(s, names); ok {
		return suggest.Hint(best)
	}
	for _, n := range names {
		if strings.HasSuffix(n, "/"+s) {
			return suggest.Hint(n)
		}
	}
	return ""
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

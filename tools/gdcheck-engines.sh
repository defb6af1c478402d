#!/usr/bin/env bash
# GDScript parse check with each Godot engine's own parser: for every engine
# tools/e2erun finds (GODOT_BINS, GODOT_BIN, the engine cache, PATH; see
# docs/godot-versions.md), copies the addon and the toolsets' editor and game code into
# a throwaway project, imports it, and runs `godot --check-only --script` on
# every .gd file. Exits non-zero when any engine rejects any file; says so and
# exits 0 when there is no engine. Called by tools/gdparse.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"

engines="$(go run ./tools/e2erun -list)"
if [ -z "$engines" ]; then
	echo "gdparse: no Godot engine found: checked with tree-sitter-gdscript only" >&2
	exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
project="$work/project"
mkdir -p "$project/addons/godot_mcp"
(cd addon && find . \( -name '*.gd' -o -name plugin.cfg \) -print0 | xargs -0 cp --parents -t "$project/addons/godot_mcp/")
for ed in plugins/*/editor examples/*/editor; do
	[ -d "$ed" ] || continue
	ts="$(basename "$(dirname "$ed")")"
	mkdir -p "$project/addons/godot_mcp_ext/$ts"
	cp -r "$ed"/. "$project/addons/godot_mcp_ext/$ts/"
done
# Toolsets' game code (sdk.Toolset.GameCode) is installed as <toolset>/game/.
for gd in plugins/*/game examples/*/game; do
	[ -d "$gd" ] || continue
	ts="$(basename "$(dirname "$gd")")"
	mkdir -p "$project/addons/godot_mcp_ext/$ts/game"
	cp -r "$gd"/. "$project/addons/godot_mcp_ext/$ts/game/"
done
cat >"$project/project.godot" <<'CFG'
config_version=5

[application]

config/name="godot-mcp parse check"
CFG
mapfile -t files < <(cd "$project" && find addons -name '*.gd' | sort)

status=0
while IFS=$'\t' read -r godot label; do
	[ -n "$godot" ] || continue
	rm -rf "$project/.godot"
	export XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg"
	# The global class list (class_name) comes from the import.
	GODOT_MCP_BRIDGE_URL="ws://127.0.0.1:1" timeout 300 "$godot" --headless --import --path "$project" >"$work/import.log" 2>&1 || true
	bad=0
	for f in "${files[@]}"; do
		if ! out="$(timeout 60 "$godot" --headless --path "$project" --check-only --script "res://$f" 2>&1)" ||
			grep -qE "SCRIPT ERROR|Parse Error" <<<"$out"; then
			echo "gdparse: Godot $label rejects $f:" >&2
			grep -E "ERROR|Error|error|at:" <<<"$out" | head -20 >&2
			bad=$((bad + 1))
		fi
	done
	if [ "$bad" -gt 0 ]; then
		echo "gdparse: Godot $label ($godot): $bad of ${#files[@]} files do not parse" >&2
		status=1
	else
		echo "gdparse: Godot $label ($godot): all ${#files[@]} files parse" >&2
	fi
done <<<"$engines"
exit "$status"

#!/usr/bin/env bash
# Checks the addon against a real Godot 4 binary, when one exists:
#   1. opens a throwaway project with the addon enabled, and the built-in toolsets'
#      editor code (plugins/*/editor) installed as extensions, in the headless editor and
#      fails on any SCRIPT ERROR / Parse Error / error mentioning the addon;
#   2. runs the value-codec test (tools/godot/codec_test.gd) in that project;
#   3. plants symbolic links in it (leading out of the project and staying inside) and
#      runs the path-guard test (tools/godot/path_guard_test.gd).
# Finds Godot in $GODOT, then `godot` on PATH, then /opt/godot-src/*/bin/godot*.
# Exits 0 with a message when no Godot binary is found (nothing to check).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

godot="${GODOT:-}"
if [ -z "$godot" ]; then
	godot="$(command -v godot 2>/dev/null || true)"
fi
if [ -z "$godot" ]; then
	for f in /opt/godot-src/*/bin/godot*; do
		if [ -x "$f" ] && [ -f "$f" ]; then godot="$f"; break; fi
	done
fi
if [ -z "$godot" ]; then
	echo "godot-check: no Godot binary (set GODOT=/path/to/godot); skipped" >&2
	exit 0
fi

project="$(mktemp -d)"
outside="$project.outside"
trap 'rm -rf "$project" "$outside"' EXIT
mkdir -p "$project/addons/godot_mcp"
(cd "$repo/addon" && find . \( -name '*.gd' -o -name plugin.cfg \) -print0 | xargs -0 cp --parents -t "$project/addons/godot_mcp/")
for ed in "$repo"/plugins/*/editor; do
	ts="$(basename "$(dirname "$ed")")"
	mkdir -p "$project/addons/godot_mcp_ext/$ts"
	cp -r "$ed"/. "$project/addons/godot_mcp_ext/$ts/"
done
cp "$here/godot/codec_test.gd" "$here/godot/path_guard_test.gd" "$project/"
cat > "$project/project.godot" <<'CFG'
config_version=5

[application]

config/name="godot-mcp addon check"

[editor_plugins]

enabled=PackedStringArray("res://addons/godot_mcp/plugin.cfg")
CFG

status=0
log="$project/editor.log"
# Nobody listens on this port: the addon must stay quiet while it retries.
GODOT_MCP_BRIDGE_URL="ws://127.0.0.1:1" timeout 300 "$godot" --headless --editor --path "$project" --quit-after 300 >"$log" 2>&1 || true
if grep -nE "SCRIPT ERROR|Parse Error|res://addons/godot_mcp|godot_mcp" "$log" >&2; then
	echo "godot-check: the editor reported problems with the addon (above)" >&2
	status=1
fi
if ! timeout 120 "$godot" --headless --path "$project" -s res://codec_test.gd >&2; then
	echo "godot-check: value codec test failed" >&2
	status=1
fi
# The link layout of path_guard_test.gd, planted after the editor run (the editor would
# scan through it).
lt="$project/linktest"
mkdir -p "$lt/real" "$lt/deep/a" "$lt/c" "$outside"
echo secret >"$outside/secret.txt"
echo ok >"$lt/real/ok.txt"
ln -s "../../$(basename "$outside")" "$lt/rel"
ln -s "$outside" "$lt/abs"
ln -s chain2 "$lt/chain1"
ln -s "$lt/chain3" "$lt/chain2"
ln -s "../../$(basename "$outside")" "$lt/chain3"
ln -s ../../c "$lt/deep/a/up"
ln -s "../../../$(basename "$outside")" "$lt/c/esc"
ln -s "$outside/secret.txt" "$lt/leak.txt"
ln -s real/ok.txt "$lt/okfile.txt"
ln -s real "$lt/alias"
ln -s "$(printf './%.0s' $(seq 130))../../$(basename "$outside")" "$lt/long"
ln -s loop2 "$lt/loop1"
ln -s loop1 "$lt/loop2"
if ! timeout 120 "$godot" --headless --path "$project" -s res://path_guard_test.gd >&2; then
	echo "godot-check: path guard test failed" >&2
	status=1
fi
exit "$status"

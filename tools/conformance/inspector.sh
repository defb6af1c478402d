#!/usr/bin/env bash
# Runs the MCP Inspector's CLI (npm @modelcontextprotocol/inspector, pinned in
# package.json) with Node 22 from npm: inspector.sh <inspector --cli args...>
# e.g. inspector.sh bin/godot-mcp --method tools/list
set -euo pipefail
# shellcheck source=tools/conformance/env.sh
source "$(cd "$(dirname "$0")" && pwd)/env.sh"
exec mcp-inspector --cli "$@"

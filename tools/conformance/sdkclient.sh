#!/usr/bin/env bash
# Runs sdkclient.mjs (the official TypeScript SDK v1 client, pinned in
# package.json) with Node 22 from npm: sdkclient.sh PLAN_JSON
set -euo pipefail
# shellcheck source=tools/conformance/env.sh
source "$(cd "$(dirname "$0")" && pwd)/env.sh"
exec node "$conformance_dir/sdkclient.mjs" "$@"

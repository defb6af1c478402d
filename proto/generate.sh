#!/bin/sh
# Regenerates the plugin protocol's Go code with buf (pinned in package.json)
# and the protoc-gen-go/-go-grpc tools from go.mod.
#   proto/generate.sh            write into internal/pluginproto
#   proto/generate.sh check      fail if internal/pluginproto is stale
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
gen=internal/pluginproto
cd "$here"
if [ ! -x node_modules/.bin/buf ]; then
	npm ci --no-audit --no-fund --silent >&2
fi
buf=$here/node_modules/.bin/buf
"$buf" lint
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$buf" generate --output "$tmp"
case "${1:-}" in
check)
	fail=0
	for f in "$tmp/$gen"/*.pb.go; do
		name=$(basename "$f")
		if ! cmp -s "$f" "$root/$gen/$name"; then
			echo "proto-check: $gen/$name is stale; run 'make proto'" >&2
			diff -u "$root/$gen/$name" "$f" >&2 || true
			fail=1
		fi
	done
	for f in "$root/$gen"/*.pb.go; do
		[ -e "$f" ] || continue
		if [ ! -e "$tmp/$gen/$(basename "$f")" ]; then
			echo "proto-check: $gen/$(basename "$f") is no longer generated; run 'make proto'" >&2
			fail=1
		fi
	done
	exit $fail
	;;
"")
	mkdir -p "$root/$gen"
	rm -f "$root/$gen"/*.pb.go
	cp "$tmp/$gen"/*.pb.go "$root/$gen/"
	;;
*)
	echo "usage: $0 [check]" >&2
	exit 2
	;;
esac

#!/usr/bin/env bash
# Runs every Go benchmark in the module and prints one markdown table
# (tools/benchreport): median ns/op, B/op, allocs/op over COUNT runs, and the
# ratio to a baseline or the bound for benchmarks with a declared target.
# Called by `make bench`. Exits non-zero when a benchmark fails to build or
# run.
#
# Environment:
#   BENCHTIME  per-run -benchtime (default 1s)
#   COUNT      runs per benchmark, the median is taken over them (default 5)
#   BENCH      -bench regexp (default ".", every benchmark)
#   BENCH_RAW  where the raw `go test` output is kept (default bin/bench-raw.txt)
#   BENCH_VERBOSE=1 streams the raw output to stderr while it runs
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
BENCHTIME=${BENCHTIME:-1s}
COUNT=${COUNT:-5}
BENCH=${BENCH:-.}
BENCH_RAW=${BENCH_RAW:-bin/bench-raw.txt}

# Packages with at least one benchmark, discovered so new ones join by
# themselves. Third-party trees (node_modules) and fuzz corpora are skipped.
mapfile -t pkgs < <(grep -rl --include='*_test.go' --exclude-dir=node_modules --exclude-dir=testdata \
	--exclude-dir=.git -E '^func Benchmark[A-Z0-9_]' . | xargs -r -n1 dirname | sort -u)
if [ "${#pkgs[@]}" -eq 0 ]; then
	echo "bench: no package has a Benchmark function" >&2
	exit 1
fi

mkdir -p "$(dirname "$BENCH_RAW")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Build the report tool first: a broken tool should not cost a bench run.
"$GO" build -o "$tmp/benchreport" ./tools/benchreport

cmd=("$GO" test -run '^$' -bench "$BENCH" -benchmem -count "$COUNT" -benchtime "$BENCHTIME" "${pkgs[@]}")
cmdline="$GO test -run '^\$' -bench '$BENCH' -benchmem -count $COUNT -benchtime $BENCHTIME ${pkgs[*]}"
echo "bench: $cmdline" >&2
echo "bench: $((${#pkgs[@]})) package(s), about $(( ${#pkgs[@]} * COUNT ))+ runs of ${BENCHTIME}; raw output in $BENCH_RAW" >&2

status=0
if [ "${BENCH_VERBOSE:-0}" = 1 ]; then
	"${cmd[@]}" 2>&1 | tee "$BENCH_RAW" >&2 || status=$?
else
	"${cmd[@]}" >"$BENCH_RAW" 2>&1 || status=$?
fi

report_status=0
"$tmp/benchreport" -cmd "$cmdline" <"$BENCH_RAW" || report_status=$?
if [ "$status" -ne 0 ]; then
	echo "bench: go test exited with status $status; see $BENCH_RAW" >&2
	exit "$status"
fi
exit "$report_status"

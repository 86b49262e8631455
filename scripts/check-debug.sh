#!/usr/bin/env bash
# `make check-debug`: the VM selftests on the debug kernel (vm/debug-kernel.sh: KASAN,
# kmemleak, lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_NET, refcount trackers). The harness
# self-test first proves that this kernel's harness catches a WARNING, a leak and a
# use-after-free; then every selftest runs with a kmemleak scan after it
# (selftests/run_tests.sh). Results in build/results-debug/, totals on the last line.
# Usage: check-debug.sh [TEST...]
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
res=build/results-debug
mkdir -p "$res"
rm -f "$res"/*.tap

dbg=$(vm/debug-kernel.sh) || { echo "check-debug: the debug kernel did not build" >&2; exit 1; }
kver=$(cat "$dbg/release")
echo "check-debug: $kver ($dbg; first build took $(cat "$dbg/build-time" 2>/dev/null || echo ?))"
if ! KDIR=$dbg/obj scripts/build-modules.sh "$kver" >/dev/null; then
	echo "not ok 1 - module build for $kver" > "$res/build-$kver.tap"
	scripts/summary.sh "$res"
	exit 1
fi

scripts/harness-selftest.sh "$kver" "$res/harness-$kver.tap"
# KASAN and lockdep make the guest several times slower under TCG: more time and memory.
AIRFAIR_RESULTS=$repo/build/results/detail-$kver \
	vm/run.sh --debug --mem 3072 --timeout 7200 -- bash selftests/run_tests.sh "$@" |
	tee "$res/selftest-$kver.tap"
scripts/summary.sh "$res"

#!/usr/bin/env bash
# Run every test CI runs and total them. Host suites first (airtime model, tc plugin
# parsing, medium engine), then per kernel: the harness self-test and the VM selftests.
# Each suite leaves TAP in build/results/; the last line is "N passed, N failed, N skipped".
# Usage: check.sh [--vm-only] KVER...
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
res=build/results
vm_only=0
[ "${1:-}" = "--vm-only" ] && { vm_only=1; shift; }
kvers=("$@")
[ ${#kvers[@]} -gt 0 ] || mapfile -t kvers < <(scripts/kernels.sh)
mkdir -p "$res"
rm -f "$res"/*.tap

# Run a suite; if it fails without saying which test failed, record that it crashed.
suite() {
	local name=$1; shift
	local t0=$SECONDS
	echo "=== $name"
	"$@"
	local rc=$?
	if [ $rc -ne 0 ] && ! grep -qs '^not ok' "$res/$name.tap"; then
		echo "not ok 1 - $name exited $rc without reporting a failed test" >> "$res/$name.tap"
	fi
	echo "=== $name: exit $rc, $((SECONDS - t0)) s"
}

if [ $vm_only = 0 ]; then
	suite unit-airtime make -s -C tests/unit check
	suite tc-parse make -s -C tc-extension check
	suite medium-engine make -s -C testbed/medium check
fi

for k in "${kvers[@]}"; do
	scripts/build-modules.sh "$k" >/dev/null || echo "not ok 1 - module build for $k" > "$res/build-$k.tap"
	suite "harness-$k" scripts/harness-selftest.sh "$k" "$res/harness-$k.tap"
	suite "selftest-$k" bash -c "set -o pipefail; vm/run.sh --kver '$k' --timeout 2400 -- bash selftests/run_tests.sh | tee '$res/selftest-$k.tap'"
	# The mac80211 hook: the same kernel booted with the patched mac80211.ko.
	suite "hook-$k" bash -c "set -o pipefail
		mac80211-patches/build.sh '$k' >/dev/null || exit 1
		vm/run.sh --kver '$k' --timeout 600 --modules 'build/$k/mac80211' -- \
			bash selftests/run_tests.sh hook_basic.sh source_medium.sh | tee '$res/hook-$k.tap'"
done

scripts/summary.sh "$res"

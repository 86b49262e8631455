#!/usr/bin/env bash
# Prove the VM harness fails a run in which the guest kernel warns, even though the
# command itself succeeds, and passes the same run without the warning; that it tells an
# emulator's fault from the kernel's (vm/emulator-fault.sh on saved consoles) and runs
# again, once, a guest the emulator killed, the selftests that had finished kept; and that
# a single-step trap leaked into the kernel reruns its test and is not counted. TAP to $2.
set -uo pipefail
kver=$1 tap=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
ko=build/$kver/airfair_warn.ko
# The debug kernel (make check-debug) must also catch a leak and a use-after-free.
debug=0
case $kver in *-airfair-debug) debug=1 ;; esac
# expect_fail N WHAT PATTERN KIND: insmod airfair_warn kind=KIND must fail the run, and
# the harness's report must match PATTERN
expect_fail() {
	local out rc
	out=$(vm/run.sh --kver "$kver" --timeout 300 -- bash -c "insmod $ko kind=$4 && rmmod airfair_warn" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'kernel reported problems' <<<"$out" && grep -qE "$3" <<<"$out"; then
		echo "ok $1 - $2 fails the run (exit $rc)"
	else
		echo "not ok $1 - $2 fails the run (exit $rc)"
		echo "$out" | tail -n 20 | sed 's/^/# /'
	fi
}
# fault_fixture N FILE WANT: vm/emulator-fault.sh on a saved console exits WANT
fault_fixture() {
	vm/emulator-fault.sh "vm/fixtures/$2" >/dev/null
	local rc=$?
	if [ $rc = "$3" ]; then
		echo "ok $1 - $2: $([ "$3" = 0 ] && echo "an emulator fault" || echo "not an emulator fault")"
	else
		echo "not ok $1 - $2: emulator-fault.sh exit $rc, want $3"
	fi
}
{
	echo "TAP version 13"
	echo "1..$((10 + 2 * debug))"
	out=$(vm/run.sh --kver "$kver" --timeout 120 -- bash -c "true" 2>&1)
	rc=$?
	echo "$out" | grep -m1 'boot-to-test-start' | sed 's/^# vm:/# /'
	if [ $rc -eq 0 ]; then echo "ok 1 - clean run passes"; else echo "not ok 1 - clean run passes (exit $rc)"; fi
	expect_fail 2 "a kernel WARNING" 'airfair_warn' warn
	fault_fixture 3 tcg-double-fault-kmalloc.txt 0
	fault_fixture 4 tcg-double-fault-cmpxchg16b.txt 0
	fault_fixture 5 double-fault-sane-flags.txt 1
	fault_fixture 6 tcg-page-fault-net-rx-action.txt 0
	fault_fixture 7 page-fault-sane-flags.txt 1
	# the same death twice: one rerun, then the run fails
	out=$(AIRFAIR_VM_RERUNS=1 AIRFAIR_VM_RERUN_UNTIL="" \
		vm/run.sh --kver "$kver" --timeout 120 -- insmod "$ko" kind=emufault 2>&1)
	rc=$?
	n=$(grep -c '^# vm: rerun: the guest died of a kernel oops with impossible' <<<"$out")
	if [ $rc -ne 0 ] && [ "$n" = 1 ] && grep -q 'guest died before the command finished' <<<"$out"; then
		echo "ok 8 - an emulator fault: the command runs once more, then the run fails (exit $rc)"
	else
		echo "not ok 8 - an emulator fault: the command runs once more, then the run fails (exit $rc, $n reruns)"
		echo "$out" | tail -n 20 | sed 's/^/# /'
	fi
	# a rerun keeps the tests that finished before the guest died and runs the rest
	d=$(mktemp -d "$repo/build/vm/rerun.XXXXXX")
	out=$(AIRFAIR_VM_RERUNS=1 AIRFAIR_VM_RERUN_UNTIL="" AIRFAIR_RESULTS="$d" \
		AIRFAIR_WARN_KO="$repo/$ko" vm/run.sh --kver "$kver" --timeout 300 -- \
		bash selftests/run_tests.sh ../vm/fixtures/rerun-count.sh ../vm/fixtures/rerun-die-once.sh 2>&1)
	rc=$?
	after=$(awk '/^# vm: rerun/ { n = 0; next } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }' <<<"$out" |
		grep -cE '^ok [12] selftests: ')
	runs=$(wc -l < "$d/rerun-count" 2>/dev/null || echo 0)
	if [ $rc -eq 0 ] && [ "$after" = 2 ] && [ "$runs" = 1 ]; then
		echo "ok 9 - a rerun reports the finished test again without running it, and runs the one the guest died in"
	else
		echo "not ok 9 - a rerun keeps what finished (exit $rc, $after of 2 tests ok after the rerun, the first ran $runs times)"
		echo "$out" | tail -n 20 | sed 's/^/# /'
	fi
	rm -rf "$d"
	# a single-step trap leaked into the kernel (QEMU's TCG does it now and then): the
	# runner runs that test once more, and the harness does not count the warning
	d=$(mktemp -d "$repo/build/vm/dbtrap.XXXXXX")
	out=$(AIRFAIR_RESULTS="$d" AIRFAIR_WARN_KO="$repo/$ko" vm/run.sh --kver "$kver" --timeout 300 -- \
		bash selftests/run_tests.sh ../vm/fixtures/dbtrap-once.sh 2>&1)
	rc=$?
	runs=$(wc -l < "$d/dbtrap-count" 2>/dev/null || echo 0)
	if [ $rc -eq 0 ] && [ "$runs" = 2 ] && grep -qE 'traps.c:[0-9]+ exc_debug' <<<"$out" &&
		grep -q '^ok 1 selftests: ' <<<"$out"; then
		echo "ok 10 - a leaked debug trap: the test runs once more and the run passes"
	else
		echo "not ok 10 - a leaked debug trap: the test runs once more and the run passes (exit $rc, ran $runs times)"
		echo "$out" | tail -n 20 | sed 's/^/# /'
	fi
	rm -rf "$d"
	if [ $debug = 1 ]; then
		expect_fail 11 "a leaked allocation (kmemleak)" 'unreferenced object' leak
		expect_fail 12 "a use-after-free (KASAN)" 'KASAN: (slab-)?use-after-free' uaf
	fi
} | tee "$tap"
! grep -q '^not ok' "$tap"

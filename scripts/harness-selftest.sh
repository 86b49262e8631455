#!/usr/bin/env bash
# Prove the VM harness fails a run in which the guest kernel warns, even though the
# command itself succeeds, and passes the same run without the warning. TAP to $2.
set -uo pipefail
kver=$1 tap=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
ko=build/$kver/airfair_warn.ko
{
	echo "TAP version 13"
	echo "1..2"
	out=$(vm/run.sh --kver "$kver" --timeout 120 -- bash -c "true" 2>&1)
	rc=$?
	echo "$out" | grep -m1 'boot-to-test-start' | sed 's/^# vm:/# /'
	if [ $rc -eq 0 ]; then echo "ok 1 - clean run passes"; else echo "not ok 1 - clean run passes (exit $rc)"; fi
	out=$(vm/run.sh --kver "$kver" --timeout 120 -- bash -c "insmod $ko && rmmod airfair_warn" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'kernel reported problems' <<<"$out" &&
	   grep -q 'airfair_warn' <<<"$out"; then
		echo "ok 2 - a kernel WARNING fails the run (exit $rc)"
	else
		echo "not ok 2 - a kernel WARNING fails the run (exit $rc)"
		echo "$out" | tail -n 20 | sed 's/^/# /'
	fi
} | tee "$tap"
! grep -q '^not ok' "$tap"

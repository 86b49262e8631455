#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kselftest-style runner: each program of TEST_PROGS (selftests/Makefile) runs in turn with
# the timeout from `settings`; its output is nested as KTAP diagnostics; exit 4 counts as
# a skip. A kernel BUG/WARNING logged while a test ran fails that test.
# Usage: run_tests.sh [TEST...]
cd "$(dirname "$0")" || exit 1
# Each test's own TAP file goes beside the others of this kernel, not over them.
export AIRFAIR_RESULTS=${AIRFAIR_RESULTS-$(cd .. && pwd)/build/results/detail-$(uname -r)}
tests=("$@")
[ ${#tests[@]} -gt 0 ] || read -r -a tests <<<"$(sed -n '/^TEST_PROGS/,/[^\\]$/p' Makefile |
	sed 's/^TEST_PROGS *:= *//; s/\\$//' | tr '\n' ' ')"
timeout=$(sed -n 's/^timeout=//p' settings 2>/dev/null)
: "${timeout:=600}"
# KASAN, lockdep and kmemleak make the debug kernel's guest several times slower
case $(uname -r) in *-airfair-debug) timeout=$((timeout * 3)) ;; esac
kernel_complaints='BUG:|WARNING:|Oops|KASAN|UBSAN|possible (circular|recursive) locking|kmemleak|general protection fault|list_(add|del) corruption|refcount_t:|soft lockup|hung_task'

# On a kernel with kmemleak (the debug kernel of `make check-debug`) every test ends with
# a scan: what it leaked fails it. Objects from before the first test are not ours.
kmemleak=/sys/kernel/debug/kmemleak
[ -w "$kmemleak" ] && echo clear > "$kmemleak" 2>/dev/null || kmemleak=""

# A guest the emulator killed is booted again with the same command (vm/run.sh sets
# AIRFAIR_VM_RERUN): the tests that finished before it died keep their results, which
# are reported again, and only the rest run, so that a rerun costs what was left.
done_list=$AIRFAIR_RESULTS/run_tests.done
mkdir -p "$AIRFAIR_RESULTS"
[ -n "${AIRFAIR_VM_RERUN:-}" ] && [ -f "$done_list" ] || : > "$done_list"

# Runs test $1 once; sets rc, took and bad (the kernel's complaints logged meanwhile).
run_one() {
	before=$(dmesg 2>/dev/null | wc -l)
	start=$SECONDS
	timeout -k 10 "$timeout" bash "./$1" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	took=$((SECONDS - start))
	if [ -n "$kmemleak" ]; then
		# kmemleak reports only objects older than 5 s, and a second scan drops
		# the transient ones (a pointer that was only in a register)
		sleep 6
		echo scan > "$kmemleak"; echo scan > "$kmemleak"
		leaks=$(cat "$kmemleak")
		if [ -n "$leaks" ]; then
			echo "# kmemleak: $(grep -c '^unreferenced object' <<<"$leaks") unreferenced object(s) after $1:"
			head -n 40 <<<"$leaks" | sed 's/^/# kmemleak: /'
			echo clear > "$kmemleak"
			[ $rc -eq 0 ] && rc=1
		fi
	fi
	bad=$(dmesg 2>/dev/null | tail -n +$((before + 1)) | grep -E "$kernel_complaints" | head -n 5)
}

echo "TAP version 13"
echo "1..${#tests[@]}"
n=0 failed=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: airfair: $t"
	prev=$(awk -F '\t' -v n="$n" -v t="$t" '$1 == n && $2 == t { r = $3 } END { print r }' "$done_list")
	if [ -n "$prev" ]; then
		echo "# finished before the guest was booted again"
		echo "$prev"
		[[ $prev == "not ok"* ]] && failed=1
		continue
	fi
	for attempt in 1 2; do
		run_one "$t"
		# QEMU's TCG has leaked a single-step debug trap into a guest: the kernel warns
		# from exc_debug_kernel() in traps.c (6.1 names its caller, exc_debug; a comment
		# there names QEMU) and the process it hit crashes.
		# That is the emulator's fault, not the test's, and what the test measured
		# is suspect: it runs once more. The warning is once per boot, so a second
		# fault shows as the crash alone, and that fails the test.
		grep -qE 'traps.c:[0-9]+ exc_debug' <<<"$bad" && [ $attempt -eq 1 ] || break
		echo "$bad" | sed 's/^/# kernel: /'
		echo "# the emulator leaked a debug trap into the guest; $t runs again"
	done
	if [ -n "$bad" ]; then
		echo "$bad" | sed 's/^/# kernel: /'
		[ $rc -eq 0 ] && rc=1
	fi
	case $rc in
	0) line="ok $n selftests: airfair: $t # ${took}s" ;;
	4) line="ok $n selftests: airfair: $t # SKIP" ;;
	124) line="not ok $n selftests: airfair: $t # TIMEOUT ${timeout}s"; failed=1 ;;
	*) line="not ok $n selftests: airfair: $t # exit=$rc"; failed=1 ;;
	esac
	echo "$line"
	printf '%s\t%s\t%s\n' "$n" "$t" "$line" >> "$done_list"
done
exit $failed

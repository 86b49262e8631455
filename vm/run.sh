#!/usr/bin/env bash
# Run a command inside a throwaway qemu guest booted with a Debian kernel.
#
#   vm/run.sh [--kver KVER | --debug] [--timeout SEC] [--modules DIR]... [--mem MB] [--smp N] -- CMD...
#
# --debug boots the debug kernel (vm/debug-kernel.sh: KASAN, kmemleak, lockdep, ...),
# built on first use and cached outside the checkout.
#
# The repository is shared read-write at its own path; CMD runs under bash from the current
# directory (which must lie inside the repository). Output streams to stdout. Exit status:
# CMD's, or 1 if the guest's kernel logged a BUG/WARNING/Oops/KASAN/UBSAN/lockdep/kmemleak
# report while CMD ran, or 124 on timeout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
kver="" timeout=300 modules=() mem=2048 smp=2 debug=0
while [ $# -gt 0 ]; do
	case $1 in
	--kver) kver=$2; shift 2 ;;
	--debug) debug=1; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--modules) modules+=("$2"); shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,13p' "$0"; exit 0 ;;
	*) echo "vm/run.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "vm/run.sh: no command (see --help)" >&2; exit 2; }
modroot="" image=""
if [ $debug = 1 ]; then
	dbg=$("$here/debug-kernel.sh") || exit 2
	kver=$(cat "$dbg/release") image=$dbg/bzImage modroot=$dbg/modules
elif [ -z "$kver" ]; then
	mapfile -t kvers < <("$repo/scripts/kernels.sh")
	kver=${kvers[0]:-}
fi
if [ -z "$image" ] && [ -n "$kver" ] && [ ! -f "/boot/vmlinuz-$kver" ]; then
	# a debug kernel release names its cached build
	for d in "${AIRFAIR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/airfair}"/debug-kernel/*/; do
		[ -f "$d/done" ] && [ "$(cat "$d/release")" = "$kver" ] && image=$d/bzImage modroot=$d/modules
	done
fi
: "${image:=/boot/vmlinuz-$kver}"
[ -f "$image" ] || { echo "vm/run.sh: kernel $kver is not installed (scripts/deps.sh)" >&2; exit 2; }
case $PWD/ in "$repo"/*) cwd=$PWD ;; *) cwd=$repo ;; esac

vmdir=$repo/build/vm/$kver
"$here/mkinitramfs.sh" "$kver" "$vmdir" "$modroot"

run=$(mktemp -d "$repo/build/vm/run.XXXXXX")
trap 'rm -rf "$run"' EXIT
printf '%q ' "$@" > "$run/cmd"
echo "$cwd" > "$run/cwd"
# Pass through the variables tests use to pick their parameters.
env | grep -E '^(AIRFAIR_|KSFT_|TC_LIB_DIR=)' | sed 's/^\([^=]*\)=\(.*\)$/export \1=\x27\2\x27/' > "$run/env" || true
if [ ${#modules[@]} -gt 0 ]; then
	mkdir -p "$run/modules"
	for d in "${modules[@]}"; do cp "$d"/*.ko "$run/modules/"; done
fi

accel=$("$here/accel.sh" "$kver" "$image")
# A lockup panics (and -no-reboot ends the VM) with the stuck CPUs' stacks on the console,
# instead of hanging until the timeout with nothing to show.
append="console=ttyS0 quiet loglevel=4 panic=-1 softlockup_panic=1 softlockup_all_cpu_backtrace=1"
append+=" airfair.share=$repo airfair.run=$run"
boot() {
	local start=$EPOCHREALTIME
	rm -f "$run/started" "$run/rc" "$run/dmesg" "$run/kmemleak"
	: > "$run/console"
	set +e
	timeout --foreground -k 5 "$timeout" \
		qemu-system-x86_64 $accel -smp "$smp" -m "$mem" -nodefaults -no-reboot \
		-display none -serial stdio -monitor none \
		-kernel "$image" -initrd "$vmdir/initramfs.cpio.gz" -append "$append" \
		-virtfs "local,path=$repo,mount_tag=host0,security_model=none,id=host0" \
		< /dev/null 2>&1 | while IFS= read -r line; do
			line=${line%$'\r'}
			case $line in
			"AIRFAIR-VM: test start"*)
				: > "$run/started"
				awk -v s="$start" -v n="$EPOCHREALTIME" -v k="$kver" \
					-v a="${accel%% *} ${accel#* }" \
					'BEGIN{printf "# vm: %s boot-to-test-start %.1f s (%s)\n", k, n-s, a}' ;;
			"AIRFAIR-VM: test end"*) ;;
			*) printf '%s\n' "$line"; printf '%s\n' "$line" >> "$run/console" ;;
			esac
		done
	qrc=${PIPESTATUS[0]}
	set -e
}

# A stock kernel that dies while booting, before the command started and before
# anything of ours was loaded, is retried: under TCG, 6.12 now and then takes an int3
# in code it is patching at boot (seen with two guests on two cores).
#
# A guest that dies of a fault of the emulator itself (vm/emulator-fault.sh: an oops
# with impossible saved flags, QEMU's multi-threaded TCG under 6.12) runs the whole
# command again, once by default (AIRFAIR_VM_RERUNS), and not after the epoch second
# AIRFAIR_VM_RERUN_UNTIL if set (a time budget), with AIRFAIR_VM_RERUN=1 (the selftest
# runner then reruns only the tests that had not finished). The line "# vm: rerun" goes to
# stdout: TAP consumers (scripts/summary.sh) count only what follows the last.
reruns=${AIRFAIR_VM_RERUNS:-1}
while :; do
	for attempt in 1 2 3; do
		boot
		[ -f "$run/started" ] || [ "$qrc" = 124 ] || [ "$qrc" = 137 ] || [ "$attempt" = 3 ] && break
		echo "# vm: the guest died while booting (qemu exit $qrc), boot attempt $((attempt + 1))" >&2
	done
	[ ! -f "$run/rc" ] && [ "$qrc" != 124 ] && [ "$qrc" != 137 ] && [ "$reruns" -gt 0 ] || break
	why=$("$here/emulator-fault.sh" "$run/console") || break
	if [ -n "${AIRFAIR_VM_RERUN_UNTIL:-}" ] && [ "$(date +%s)" -ge "$AIRFAIR_VM_RERUN_UNTIL" ]; then
		echo "# vm: the guest died of $why; no time left to run it again" >&2
		break
	fi
	reruns=$((reruns - 1))
	# for selftests/run_tests.sh: keep what finished, run the rest
	echo "export AIRFAIR_VM_RERUN=1" >> "$run/env"
	echo "# vm: rerun: the guest died of $why"
	echo "# vm: the guest died of $why; running the command again" >&2
done

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "# vm: timed out after ${timeout}s" >&2
	exit 124
fi
if [ ! -f "$run/rc" ]; then
	echo "# vm: the guest died before the command finished (qemu exit $qrc)" >&2
	exit 1
fi
rc=$(cat "$run/rc")
# Kernel complaints while the command ran fail the run, whatever the command said.
bad=$(sed -n '/airfair-vm: test start/,$p' "$run/dmesg" |
	grep -E 'BUG:|WARNING:|Oops|KASAN|UBSAN|lockdep|possible (circular|recursive) locking|kmemleak|unreferenced object|general protection fault|Kernel panic|list_(add|del) corruption|refcount_t:|stack-protector|soft lockup|hung_task|RCU stall' || true)
# QEMU's TCG can leak a single-step debug trap into the guest: the kernel warns in
# exc_debug_kernel() in traps.c (6.1 names its caller, exc_debug), where a comment names
# QEMU, and the user process it hit crashes.
# The selftest runner runs such a test again; here the two lines are noted, not counted.
if grep -qE 'traps.c:[0-9]+ exc_debug' <<<"$bad"; then
	emulator_fault='traps.c:[0-9]+ exc_debug|traps: [^ ]+\[[0-9]+\] general protection fault'
	echo "# vm: the emulator leaked a debug trap into the guest (not counted):" >&2
	grep -E "$emulator_fault" <<<"$bad" | sed 's/^/#   /' >&2
	bad=$(grep -v -E "$emulator_fault" <<<"$bad" || true)
fi
if [ -s "$run/kmemleak" ]; then
	bad+=$'\n'"kmemleak: $(grep -c '^unreferenced object' "$run/kmemleak") unreferenced object(s) at the end of the run:"
	bad+=$'\n'$(head -n 30 "$run/kmemleak")
fi
bad=$(sed '/^$/d' <<<"$bad")
if [ -n "$bad" ]; then
	echo "# vm: kernel reported problems during the run:" >&2
	printf '%s\n' "$bad" | head -n 40 | sed 's/^/#   /' >&2
	cp "$run/dmesg" "$repo/build/vm/last-failed-dmesg.txt"
	echo "# vm: full log in build/vm/last-failed-dmesg.txt" >&2
	[ "$rc" = 0 ] && rc=1
fi
exit "$rc"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run scenarios (testbed/scenarios/NAME.toml) in the test VM, each seed on each kernel in
# its own guest, and keep the raw data under build/results/scenarios/NAME/KVER-sSEED/
# (testbed/run-scenario.sh). testbed/analysis turns them into figures (make report).
#
#   testbed/scenarios.sh [--kver K]... [--seeds "S..."] [--stock] [--seconds N] [--smoke]
#                        [--runs "R..."] [--qdiscs "Q..."] [--out DIR] [--progress]
#                        [--budget S] [--trace] [NAME...]
#
# Default: every scenario, every supported kernel (scripts/kernels.sh), the scenario's
# seeds, the patched mac80211 (the hook) where it builds. --stock boots the stock
# mac80211 (airfair then gets rates from airfair-feeder); its results go to
# KVER-stock-sSEED. --seconds overrides each run's measured seconds; --smoke runs only
# each scenario's first run under pfifo and airfair, 8 s, its first seed (make check).
# --runs/--qdiscs keep only those; --out: the results root instead of
# build/results/scenarios; --progress shows the guest's progress lines as they come.
# --budget S: after the first guest, boot none that would end more than S seconds after
# the start, by the longest guest so far, and with S = 0 none at all; a guest not booted
# leaves skipped.txt (make check on a slow machine: the smoke judge reports it as SKIP). --trace: airfair's qdisc
# and class stats about once a second while measured, saved as Q-DIR-class-trace.txt (a
# time, then the qdisc's JSON array, a station's JSON or the medium's links, per line;
# three forks a second in the guest), the TCP sockets' ss -ti as Q-DIR-tcp-trace.txt and
# the iperf flows' tcp:tcp_probe events as Q-DIR-tcp-probe.txt (airfair_analysis.ackpath).
# NAMEs run in the order given. A guest that died of an emulator artifact (tcg_artifact
# below) is booted once more; retried.txt beside its results says why.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# tcg_artifact CONSOLE: prints why a guest's death is the emulator's, not the code under
# test, and succeeds; fails otherwise. Under TCG with several vCPUs a CPU can run a
# stale translation of kernel text that text_poke_bp() has already finished patching
# (a static key turned on or off) and trap on its int3: "Oops: int3" with the RIP in
# the core kernel, not in a module. An oops anywhere else, or in a module, is a failure.
tcg_artifact() {
	local rip
	grep -q 'Oops: int3' "$1" || return 1
	rip=$(grep -m1 -A6 'Oops: int3' "$1" | grep -m1 'RIP: ') || return 1
	rip=${rip##*RIP: }
	case $rip in *' ['*) return 1 ;; esac	# "func+0x10/0x20 [module]"
	echo "int3 oops in core kernel text ($rip), a TCG text-patching race"
}
repo=$(cd "$here/.." && pwd)
kvers=() seeds="" stock=0 seconds="" smoke=0 outroot="" progress=0 filter=() names=() budget="" trace=0
while [ $# -gt 0 ]; do
	case $1 in
	--kver) kvers+=("$2"); shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--stock) stock=1; shift ;;
	--seconds) seconds=$2; shift 2 ;;
	--smoke) smoke=1; shift ;;
	--out) outroot=$2; shift 2 ;;
	--runs) filter+=(--runs "$2"); shift 2 ;;
	--qdiscs) filter+=(--qdiscs "$2"); shift 2 ;;
	--progress) progress=1; shift ;;
	--budget) budget=$2; shift 2 ;;
	--trace) trace=1; shift ;;
	-h|--help) sed -n '3,20p' "$0"; exit 0 ;;
	-*) echo "scenarios: unknown option '$1'" >&2; exit 2 ;;
	*) names+=("$1"); shift ;;
	esac
done
outroot=${outroot:-$repo/build/results/scenarios}
[ ${#kvers[@]} -gt 0 ] || mapfile -t kvers < <("$repo/scripts/kernels.sh")
[ ${#kvers[@]} -gt 0 ] || { echo "scenarios: no supported kernel installed (make deps)" >&2; exit 2; }
if [ ${#names[@]} = 0 ]; then
	for f in "$here"/scenarios/*.toml; do names+=("$(basename "$f" .toml)"); done
fi
plan() { PYTHONPATH=$here/analysis python3 -m airfair_analysis.scenario "$@"; }
for n in "${names[@]}"; do	# all checked before the first guest boots
	plan check "$here/scenarios/$n.toml" "${filter[@]}" > /dev/null || exit 2
done

show_progress() {
	if [ $progress = 1 ]; then
		sed -n -u '/^\(== \|scenario \|mac80211 \|skipped\|run failed\|# wifi\)/p'
	else
		cat > /dev/null
	fi
}
t0=$SECONDS fails=0 tag="" longest=0
[ $stock = 1 ] && tag=stock-
for n in "${names[@]}"; do
	toml=$here/scenarios/$n.toml
	for k in "${kvers[@]}"; do
		mods=()
		if [ $stock = 0 ]; then
			if "$repo/mac80211-patches/build.sh" "$k" > /dev/null; then
				mods=(--modules "$repo/build/$k/mac80211")
			else
				echo "scenarios: the patched mac80211 did not build for $k; stock mac80211" >&2
			fi
		fi
		# hwsim that hears A-MPDU status from the medium (changes nothing without `ampdu`)
		if "$here/hwsim-patches/build.sh" "$k" > /dev/null; then
			mods+=(--modules "$repo/build/$k/hwsim")
		else
			echo "scenarios: the testbed's hwsim did not build for $k; minstrel_ht freezes with A-MPDU" >&2
		fi
		for s in ${seeds:-$(plan seeds "$toml" $([ $smoke = 0 ] || echo --smoke))}; do
			dir=$outroot/$n/$k-${tag}s$s
			rm -rf "$dir"
			mkdir -p "$dir"
			if [ "$budget" = 0 ]; then
				echo "no time budget left for scenario guests" > "$dir/skipped.txt"
				echo "== $n on $k, seed $s: skipped, $(cat "$dir/skipped.txt")"
				continue
			fi
			if [ -n "$budget" ] && [ $longest -gt 0 ] &&
			   [ $((SECONDS - t0 + longest)) -gt "$budget" ]; then
				echo "the time budget of ${budget} s would be spent ($((SECONDS - t0)) s used, the longest guest took ${longest} s)" \
					> "$dir/skipped.txt"
				echo "== $n on $k, seed $s: skipped, $(cat "$dir/skipped.txt")"
				continue
			fi
			g0=$SECONDS
			plan plan "$toml" --seed "$s" ${seconds:+--seconds "$seconds"} "${filter[@]}" \
				$([ $smoke = 0 ] || echo --smoke) > "$dir/plan.in"
			[ $trace = 0 ] || echo "FAIR_CLASS_TRACE=1" >> "$dir/plan.in"
			tmo=$(sed -n 's/^SCEN_BUDGET_S=//p' "$dir/plan.in")
			echo "== $n on $k, seed $s (timeout ${tmo}s): $dir"
			for try in 1 2; do
				if (cd "$repo" && vm/run.sh --kver "$k" --timeout "$tmo" "${mods[@]}" -- \
					bash testbed/run-scenario.sh "$dir/plan.in" "$dir") 2>&1 |
					tee "$dir/console.txt" | show_progress; then
					break
				fi
				why=$(tcg_artifact "$dir/console.txt") || why=""
				if [ $try = 1 ] && [ -n "$why" ]; then
					mv "$dir/console.txt" "$dir/console-died.txt"
					find "$dir" -mindepth 1 -maxdepth 1 ! -name plan.in ! -name console-died.txt \
						-exec rm -rf {} +
					echo "the first guest died: $why (console-died.txt); booted once more" > "$dir/retried.txt"
					echo "scenarios: $n on $k seed $s: $(cat "$dir/retried.txt")" >&2
					continue
				fi
				echo "scenarios: $n on $k seed $s failed (see $dir/console.txt)" >&2
				fails=$((fails + 1))
				break
			done
			[ $((SECONDS - g0)) -gt $longest ] && longest=$((SECONDS - g0))
		done
	done
done
echo "scenarios: done in $((SECONDS - t0)) s, $fails failed"
[ $fails = 0 ]

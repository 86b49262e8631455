#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run one seed of a scenario inside the test VM: testbed/scenarios.sh writes PLAN (shell
# variables, from the scenario's TOML by testbed/analysis) and boots the guest with
#   bash testbed/run-scenario.sh PLAN OUTDIR
# Every run of the scenario under every qdisc; the raw data of each lands in
# OUTDIR/RUN/QDISC-* (medium statistics, iperf3 JSON, tc class JSON, station list),
# OUTDIR/meta.txt says what ran, OUTDIR/log.txt has the tables as the demo prints them.
# The figures are computed on the host from those files (testbed/analysis).
set -u
here=$(cd "$(dirname "$0")" && pwd)
plan=${1:?usage: run-scenario.sh PLAN OUTDIR}
out=${2:?usage: run-scenario.sh PLAN OUTDIR}
# shellcheck source=/dev/null
. "$plan" || { echo "run-scenario: cannot read $plan" >&2; exit 2; }
# shellcheck source=../selftests/lib.sh
. "$here/../selftests/lib.sh"
# shellcheck source=scenarios/fairness.sh
. "$here/scenarios/fairness.sh"
mkdir -p "$out" || exit 2
exec > >(tee "$out/log.txt") 2>&1

for cc in bbr vegas; do modprobe -q "tcp_$cc" 2>/dev/null; done
echo "scenario $SCEN_NAME seed $SCEN_SEED: kernel $(uname -r), ${SCEN_SECONDS}s per run (+${FAIR_OMIT}s left out), k=$FAIR_K"
fair_setup || { echo "run-scenario: set-up failed"; exit 1; }
hook=no	# mac80211 is loaded now
have_hook && hook=yes
echo "mac80211 hook: $hook"
fair_warmup "${SCEN_WARMUP:-4}"
if ! airfair_load 2> "$WIFI_DIR/airfair_load.err"; then
	echo "run-scenario: sch_airfair not loadable: $(tail -n 1 "$WIFI_DIR/airfair_load.err")"
	exit 1
fi
{
	echo "scenario $SCEN_NAME"
	echo "seed $SCEN_SEED"
	echo "kernel $(uname -r)"
	echo "hook $hook"
	echo "dilation $FAIR_K"
	echo "seconds $SCEN_SECONDS"
	echo "omit $FAIR_OMIT"
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		echo "station $i ${STA_MAC[i]} ${FAIR_RATE_DN[i]:-0} ${FAIR_RATE_UP[i]:-0} ${FAIR_LINK[i]}"
	done
} > "$out/meta.txt"
cp "$plan" "$out/plan.sh"

fails=0
for run in "${SCEN_RUNS[@]}"; do
	v=${run//./_}
	dack_var=SCEN_DACK_$v
	flows_var="SCEN_FLOWS_$v[@]"
	qdiscs_var=SCEN_QDISCS_$v
	FAIR_FLOWS=("${!flows_var}")
	fair_delayed_ack "${!dack_var}" || { echo "run-scenario: delayed ACK ${!dack_var} not set"; exit 1; }
	for q in ${!qdiscs_var}; do
		echo ""
		echo "== $run under $q (delayed ACK ${!dack_var}) =="
		# a variant: a known qdisc with more options (the scenario's `variants`)
		variant_var=SCEN_VARIANT_${q//[-.]/_}
		base=$q extra=""
		if [ -n "${!variant_var:-}" ]; then
			base=${!variant_var%%|*} extra=${!variant_var#*|}
		fi
		if ! fair_set_qdisc "$base" "$extra" > "$WIFI_DIR/qdisc.err"; then
			echo "skipped: $(head -n 1 "$WIFI_DIR/qdisc.err")"
			echo "$run $q skipped $(head -n 1 "$WIFI_DIR/qdisc.err")" >> "$out/skipped.txt"
			continue
		fi
		AIRFAIR_DEMO_SAVE=$out/$run FAIR_SAVE_PREFIX=$q
		export AIRFAIR_DEMO_SAVE FAIR_SAVE_PREFIX
		if ! fair_run "$base" mixed "$SCEN_SECONDS"; then
			echo "run failed"; fails=$((fails + 1)); continue
		fi
		echo "$FAIR_QNOTE" > "$out/$run/$q-qdisc.txt"
		fair_table "$base" mixed
	done
done
fair_delayed_ack 2
echo "scenario $SCEN_NAME seed $SCEN_SEED done: $fails failed runs"
[ "$fails" = 0 ]

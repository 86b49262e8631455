#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: the demo scenario (testbed/scenarios/demo.toml, its embedded default) in a
# guest of the first supported kernel, with the patched mac80211 where it builds, then
# its tables computed on the host from the raw data (testbed/analysis: demo.py).
# docs/fairness.md explains the figures.
#
# A mac80211_hwsim 802.11a AP and 3 stations at SNR 35 / 19 / 11 dB (minstrel: 54 / 24 /
# 6 Mbit/s) through airfair-medium (time dilation k); TCP to all 3 at once, then from all
# 3, under each root qdisc in turn; per qdisc a table of PHY rate, goodput, ground-truth
# airtime share (from the medium, never from the qdisc), Jain's index over the stations'
# airtime and the efficiency against the airtime-fair optimum.
#
# Environment:
#   KVER                     the kernel to boot (the first of scripts/kernels.sh)
#   AIRFAIR_DEMO_SCENARIO    another scenario of testbed/scenarios/ (mixed: 5 stations,
#                            6-54 Mbit/s, one lossy, TCP both ways and a UDP flood)
#   AIRFAIR_DEMO_SECONDS     measured seconds per run (the scenario's: 20)
#   AIRFAIR_DEMO_QDISCS      only these qdiscs (pfifo fq_codel airfair-naive
#                            airfair-estimated airfair-nowindow airfair airfair-default)
#   AIRFAIR_DEMO_DIRECTIONS  only these runs (down up)
#   AIRFAIR_DEMO_SEED        the medium's seed (the scenario's first)
#   AIRFAIR_DEMO_UTILISATION, AIRFAIR_DEMO_PENDING, AIRFAIR_DEMO_MEDIUM_CONF: passed into
#                            the guest (testbed/scenarios/fairness.sh); dilation, the
#                            seconds left out and the wired delay are the scenario's
# The raw data stays in build/results/demo/SCENARIO/KVER-sSEED/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
kver=${KVER:-$("$repo/scripts/kernels.sh" | head -n 1)}
[ -n "$kver" ] || { echo "demo: no supported kernel installed (make deps)" >&2; exit 1; }
name=${AIRFAIR_DEMO_SCENARIO:-demo}
[ -f "$here/scenarios/$name.toml" ] ||
	{ echo "demo: no scenario '$name' (testbed/scenarios/*.toml)" >&2; exit 2; }
export PYTHONPATH=$here/analysis
seed=${AIRFAIR_DEMO_SEED:-$(python3 -m airfair_analysis.scenario seeds "$here/scenarios/$name.toml" | cut -d' ' -f1)}
args=(--kver "$kver" --seeds "$seed" --out "$repo/build/results/demo" --progress)
[ -n "${AIRFAIR_DEMO_SECONDS:-}" ] && args+=(--seconds "$AIRFAIR_DEMO_SECONDS")
[ -n "${AIRFAIR_DEMO_QDISCS:-}" ] && args+=(--qdiscs "$AIRFAIR_DEMO_QDISCS")
[ -n "${AIRFAIR_DEMO_DIRECTIONS:-}" ] && args+=(--runs "$AIRFAIR_DEMO_DIRECTIONS")
t0=$SECONDS
rc=0
"$here/scenarios.sh" "${args[@]}" "$name" || rc=$?
dir=$repo/build/results/demo/$name/$kver-s$seed
if [ -f "$dir/meta.txt" ]; then
	echo ""
	python3 -m airfair_analysis.demo "$dir" || rc=1
fi
echo "demo wall time: $((SECONDS - t0)) s; raw data in ${dir#"$repo"/}"
exit $rc

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# utilisation auto with a queue below airfair that nothing reports, as on a stock
# mac80211: the grant must follow what the path carries, not climb over it. The
# veth topology's station namespace takes airfair's packets through an 8 Mbit/s tbf
# (af1's ingress redirected to an ifb) with room for a second of them, so what airfair
# lets through faster than that waits there, out of its reach. A TCP download through
# it under pfifo sets the reference: a queue stands in the tbf (35-60 KB, 6.1). Under airfair (defaults;
# the station at 54 Mbit/s, so 8 Mbit/s is about a fifth of real time in air) the
# timed TCP flow's AP -> station -> AP half above its minimum is the queue below
# (docs/qdisc.md, "The airtime meter"): the meter must have cut its grant for it
# (below_cuts), the tbf's queue must stay under half of pfifo's (session 56's code, with
# no such loop: 44 KB against pfifo's 61 KB; with it 0-15 KB against 29-145 KB), and the
# download must still fill most of the bottleneck. The grants and the charged air rate
# are logged.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
RATE_MBIT=8
SECS=14
trap veth_cleanup EXIT

ktap_header
airfair_require iperf3
ktap_set_plan 4
# the patched mac80211's pending limit would stand in for the loop: it is what this
# tests the absence of
have_hook &&
	ktap_skip_all "the mac80211 hook is bound: its pending-limit gives the backpressure here"
modprobe -q ifb numifbs=0 2>/dev/null
modprobe -q act_mirred 2>/dev/null
modprobe -q cls_matchall 2>/dev/null
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"
if ! ip -n "$AF_NS" link add ifb0 type ifb 2>/dev/null ||
   ! ip -n "$AF_NS" link set ifb0 up ||
   ! tc -n "$AF_NS" qdisc add dev ifb0 root tbf rate ${RATE_MBIT}mbit burst 16k \
	limit $((RATE_MBIT * 1000000 / 8)) ||
   ! tc -n "$AF_NS" qdisc add dev af1 handle ffff: ingress ||
   ! tc -n "$AF_NS" filter add dev af1 parent ffff: matchall \
	action mirred egress redirect dev ifb0; then
	ktap_skip_all "no ifb, matchall or mirred: cannot put a queue below airfair"
fi

# a TCP download of $SECS s to station 1; meanwhile (from 3 s in, 12 samples about
# 0.6 s apart with the tc and jq runs) the tbf's backlog (bytes) into $below, airfair's
# grant into $grants, the charged air per real time into $rate; goodput into $got
download() {
	local a0 t0 a1 t1 pid

	AF_IPERF_JSON=/tmp/below-iperf.json af_iperf 1 tcp-down "$SECS" > /tmp/below-got &
	pid=$!
	sleep 3
	a0=$(qdisc_counters $DEV airtime_us) t0=${EPOCHREALTIME/./}
	below="" grants=""
	for _ in $(seq 12); do
		sleep 0.4
		below+="$(tc -n "$AF_NS" -s -j qdisc show dev ifb0 | jq -r '.[0].backlog // 0') "
		grants+="$(qdisc_counters $DEV utilisation_q16) "
	done
	a1=$(qdisc_counters $DEV airtime_us) t1=${EPOCHREALTIME/./}
	wait $pid
	got=$(cat /tmp/below-got)
	rate=$(awk -v a="$((a1 - a0))" -v t="$((t1 - t0))" 'BEGIN{printf "%.3f", a / t}')
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)] + 0}'; }

tc qdisc replace dev $DEV root pfifo limit 1000
download
ref=$(median <<< "$below")
log "pfifo: $got Mbit/s, tbf backlog (B) $below"
# more than airfair's AQM target (5 ms) of it: the queue the loop has to keep short
if awk -v b="$ref" -v r=$RATE_MBIT 'BEGIN{exit !(b > r * 1e6 / 8 * 0.005)}'; then
	ktap_test_pass "pfifo: a queue stands below (median $ref B in the tbf)"
else
	ktap_test_fail "pfifo: a queue stands below (median $ref B in the tbf, want > 5 ms of it)"
fi

tc qdisc replace dev $DEV root airfair 11a station "$(sta_mac 1)" rate 54mbit
download
med=$(median <<< "$below")
read -r cuts wait_us < <(qdisc_counters $DEV below_cuts queue_below_us)
log "airfair: $got Mbit/s, tbf backlog (B) $below; grants (/65536) $grants; charged air per real time $rate; below_cuts $cuts, queue_below_us $wait_us"
if [ "${cuts:-0}" -gt 0 ]; then
	ktap_test_pass "the meter cut its grant for the queue below ($cuts intervals)"
else
	ktap_test_fail "the meter cut its grant for the queue below (below_cuts ${cuts:-none})"
fi
if awk -v m="$med" -v p="$ref" 'BEGIN{exit !(m * 2 < p)}'; then
	ktap_test_pass "the queue below stays short: median $med B in the tbf against pfifo's $ref"
else
	ktap_test_fail "the queue below stays short: median $med B in the tbf against pfifo's $ref (want under half)"
fi
if awk -v g="${got:-0}" -v r=$RATE_MBIT 'BEGIN{exit !(g >= 0.6 * r)}'; then
	ktap_test_pass "the download still fills the bottleneck ($got of $RATE_MBIT Mbit/s)"
else
	ktap_test_fail "the download still fills the bottleneck (${got:-0} of $RATE_MBIT Mbit/s, want >= 60 %)"
fi
rm -f /tmp/below-got /tmp/below-iperf.json
ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Upload caps: a metered station with a TCP upload in progress is held to its share of
# the grant even while the others have nothing queued here (their uploads' demand waits
# at the stations), and the shares are max-min: a light or rate-limited station keeps
# what it takes and leaves the rest to the others. On the wired topology, at a fixed
# `utilisation 40` and static rates, the air each station is charged per second of real
# time is read from the class statistics while the load runs:
#   1. one bulk upload beside a station that only answers pings: the upload takes
#      >= 80 % of the grant, not the half an equal split would give it;
#   2. one bulk upload beside a steady 0.5 Mbit/s upload: the bulk one takes what the
#      other leaves (>= 80 % of the grant less the other's air).
# The cap's own effect, holding a slow station whose DCF wins make it look busy, shows
# on a medium only: docs/fairness.md, "Upload caps". Two greedy uploads are not checked
# here: on this topology their split swings from run to run with or without the caps
# (docs/qdisc.md, "Upload caps").
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
UTIL=40
TMPD=$(mktemp -d /tmp/airfair-upcap.XXXXXX)
cleanup() { veth_cleanup; rm -rf "$TMPD"; }
trap cleanup EXIT

ktap_header
airfair_require iperf3
ktap_set_plan 2
veth_setup 2 || ktap_skip_all "cannot build the veth/macvlan topology"
# A radio acknowledges frame by frame; a 64 KB GSO send would come back as one ACK
# charged for all of it, and the grant would move in lumps no station can share.
for i in 1 2; do
	ip -n $AF_NS link set m$i gso_max_segs 1 2>/dev/null ||
		ktap_skip_all "cannot turn GSO off on the stations' devices"
done

sta_air() { sta_field $DEV "$(sta_mac "$1")" airtime_us; }
sta_bl() { sta_field $DEV "$(sta_mac "$1")" backlogged_us; }
now_us() { echo "${EPOCHREALTIME/./}"; }
fresh() {
	tc qdisc del dev $DEV root 2>/dev/null
	tc qdisc add dev $DEV root airfair 11a utilisation $UTIL \
		station "$(sta_mac 1)" rate "$1" station "$(sta_mac 2)" rate "$2"
}
# air_rates: each station's charged air per real time (fraction of the grant, in %)
# over 4 s, from 3 s into the load
# and the fraction of that time each had packets queued here (backlogged, in %)
air_rates() {
	local a1 a2 b1 b2 k1 k2 l1 l2 t0 t1
	sleep 3
	a1=$(sta_air 1) a2=$(sta_air 2) k1=$(sta_bl 1) k2=$(sta_bl 2) t0=$(now_us)
	sleep 4
	b1=$(sta_air 1) b2=$(sta_air 2) l1=$(sta_bl 1) l2=$(sta_bl 2) t1=$(now_us)
	awk -v x="$((b1 - a1))" -v y="$((b2 - a2))" -v t="$((t1 - t0))" -v u="$UTIL" \
		-v p="$((l1 - k1))" -v q="$((l2 - k2))" \
		'BEGIN {printf "%.1f %.1f %.0f %.0f", x / t * 10000 / u, y / t * 10000 / u,
			100 * p / t, 100 * q / t}'
}
# upload I SECS [RATE]; iperf3's output in $TMPD/upI.log. A server still closing the
# last test refuses the next one as busy: try again for a few seconds. A rate-limited
# upload writes 16 KB at a time: in iperf3's default 128 KB blocks 0.5 Mbit/s is one
# burst every two seconds, not a steady rate (docs/qdisc.md, "Upload caps").
upload() {
	local try
	for try in 1 2 3 4 5; do
		timeout -k 5 $(($2 + 30)) iperf3 -c "$(sta_addr "$1")" -p $((5200 + $1)) -t "$2" \
			-R --connect-timeout 5000 ${3:+-b "$3" -l 16K} > "$TMPD/up$1.log" 2>&1 && return
		grep -q busy "$TMPD/up$1.log" || break
		sleep 0.5
	done
	log "upload $1: $(tail -n 1 "$TMPD/up$1.log")"
}
# what the qdisc saw, for a failed check
qdisc_note() {
	log "cap_stalls $(qdisc_field $DEV cap_stalls) meter_stalls $(qdisc_field $DEV meter_stalls)" \
		"window_clamps $(qdisc_field $DEV window_clamps)" \
		"drops $(sta_field $DEV "$(sta_mac 1)" drops)/$(sta_field $DEV "$(sta_mac 2)" drops)"
}

# 1. a bulk upload beside a station that only answers pings
fresh 24mbit 24mbit
upload 1 9 & p1=$!
ping -q -i 0.05 -w 9 "$(sta_addr 2)" > /dev/null 2>&1 & p2=$!
read -r r1 r2 b1 b2 < <(air_rates)
qdisc_note
log "backlogged $b1 % and $b2 % of the time"
wait $p1 $p2
log "upload beside pings: $r1 % and $r2 % of the grant"
if awk -v a="$r1" 'BEGIN {exit !(a >= 80)}'; then
	ktap_test_pass "a station that only answers pings leaves the upload the grant ($r1 %, pings $r2 %)"
else
	ktap_test_fail_timing "a station that only answers pings leaves the upload >= 80 % of the grant ($r1 %, pings $r2 %)"
fi

# 2. a bulk upload beside a rate-limited one
fresh 24mbit 24mbit
upload 1 9 & p1=$!
upload 2 9 500K & p2=$!
read -r r1 r2 b1 b2 < <(air_rates)
qdisc_note
log "backlogged $b1 % and $b2 % of the time"
wait $p1 $p2
log "upload beside a 0.5 Mbit/s upload: $r1 % and $r2 % of the grant"
if awk -v a="$r1" -v b="$r2" 'BEGIN {exit !(b < 40 && a >= 0.8 * (100 - b))}'; then
	ktap_test_pass "a 0.5 Mbit/s upload leaves the bulk upload the rest of the grant ($r1 %, it $r2 %)"
else
	ktap_test_fail_timing "a 0.5 Mbit/s upload (< 40 %) leaves the bulk upload >= 80 % of the rest ($r1 %, it $r2 %)"
fi
ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unknown-unicast floods must not create stations. Frames to random made-up MACs (TCP
# ACKs with PSH: the ACK filter keeps every one) go
# through airfair beside TCP downloads to two real stations. While airfair-feeder keeps
# the station table (here: the two stations pushed with "source feeder", as the feeder
# does, every second), the table holds only those two, the flood goes to the one overflow class, whose
# memory stays within memlimit/8, and the real stations keep most of their goodput. With
# nothing keeping the table (plain tc on a wired device) airfair learns any address, as
# before: the flood fills it.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
trap veth_cleanup EXIT

ktap_header
airfair_require iperf3
airfair_helper ACKS tcp_acks
ktap_set_plan 4
veth_setup 2 || ktap_skip_all "cannot build the veth/macvlan topology"

memlimit=$((1024 * 1024))
fed() {
	tc qdisc del dev $DEV root 2>/dev/null
	tc qdisc add dev $DEV root airfair 11a memlimit $memlimit \
		station "$(sta_mac 1)" rate 24mbit source feeder \
		station "$(sta_mac 2)" rate 24mbit source feeder
}
goodput() {	# both stations' TCP download, concurrently
	af_iperf 1 tcp-down 4 > "$TMPD/g1" &
	af_iperf 2 tcp-down 4 > "$TMPD/g2"
	wait
	echo "$(cat "$TMPD/g1") $(cat "$TMPD/g2")"
}
TMPD=$(mktemp -d)

fed
read -r b1 b2 < <(goodput)
log "without a flood: $b1 / $b2 Mbit/s"

fed
# airfair-feeder pushes its stations every second: so does this loop
( while :; do
	sleep 1
	tc qdisc change dev $DEV root airfair station "$(sta_mac 1)" rate 24mbit source feeder \
		station "$(sta_mac 2)" rate 24mbit source feeder
  done ) &
feeder=$!
( while :; do "$ACKS" $DEV random 10.77.0.1 10.77.0.99 psh 50000; done ) &
flood=$!
( for _ in $(seq 20); do
	echo "$(sta_field $DEV 00:00:00:00:00:00 backlog_pkts) $(qdisc_field $DEV memory_used)"
	sleep 0.2
  done ) > "$TMPD/ovf" &
sampler=$!
read -r f1 f2 < <(goodput)
wait $sampler
nsta=$(qdisc_field $DEV stations)
kill $flood $feeder 2>/dev/null
pkill -f "$ACKS" 2>/dev/null
wait $flood $feeder 2>/dev/null
ovf=$(qdisc_field $DEV sta_overflow)
peak_ovf=$(awk '$1 > m { m = $1 } END { print m + 0 }' "$TMPD/ovf")
peak_mem=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$TMPD/ovf")
log "with the flood: $f1 / $f2 Mbit/s; stations $nsta, to the overflow class $ovf," \
	"its peak backlog $peak_ovf packets; peak memory $peak_mem B of $memlimit"

if [ "$nsta" = 2 ] && [ "${ovf:-0}" -gt 10000 ]; then
	ktap_test_pass "the flood creates no station (stations $nsta, overflow packets $ovf)"
else
	ktap_test_fail "the flood creates no station (stations $nsta, overflow packets $ovf)"
fi
# Unbounded, the flood would hold all of memlimit; held to memlimit/8 (plus the TCP
# flows' few packets), the qdisc stays far below it.
# The bound means something only if the flood queued at all; on the debug kernel the
# guest may send it slower than airfair drains it.
if [ "$peak_mem" -gt $((memlimit / 2)) ]; then
	ktap_test_fail "overflow class held to its share (peak $peak_ovf packets, memory $peak_mem of $memlimit B)"
elif [ "$peak_ovf" -eq 0 ]; then
	ktap_test_fail_timing "overflow class held to its share (the flood never queued: peak 0 packets, memory $peak_mem B)"
else
	ktap_test_pass "overflow class held to its share (peak $peak_ovf packets, memory $peak_mem B)"
fi
if awk -v a="$f1" -v b="$f2" -v x="$b1" -v y="$b2" \
	'BEGIN { exit !(a >= x / 2 && b >= y / 2 && a > 0.3 && b > 0.3) }'; then
	ktap_test_pass "real stations keep their goodput ($f1 / $f2 vs $b1 / $b2 Mbit/s)"
else
	ktap_test_fail "real stations keep their goodput ($f1 / $f2 vs $b1 / $b2 Mbit/s)"
fi

# Nothing keeps the table: any unicast address is learnt (wired use, tests).
tc qdisc del dev $DEV root
tc qdisc add dev $DEV root airfair 11a
"$ACKS" $DEV random 10.77.0.1 10.77.0.99 plain 300
n=$(qdisc_field $DEV stations)
if [ "${n:-0}" -ge 100 ]; then
	ktap_test_pass "without the feeder or hook, addresses are learnt ($n stations)"
else
	ktap_test_fail "without the feeder or hook, addresses are learnt ($n stations)"
fi
rm -rf "$TMPD"
ktap_finished

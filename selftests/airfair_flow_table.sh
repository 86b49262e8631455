#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A TCP flow's state survives other flows of its station. The upload window rests on the
# window scale the flow's SYN-ACK carried, which comes once; a station's flows share 32
# buckets in sets of 4, and a new flow may take an empty bucket of its set only if that
# holds no TCP state used in the last second (sch_airfair/classify.c,
# airfair_flow_bucket()). On the wired topology, a station uploads to the AP at 2 Mbit/s
# (the AP's ACKs carry the window airfair bounds; well inside the grant, they leave at
# once and their bucket is empty between two of them), and the AP then sends one UDP
# datagram to each of 256 ports of the station, 256 new flows that land in every set:
#   1. the upload's ACKs are bounded before the flood (window_clamps grows);
#   2. and still after it, in the 2 s that follow (with one bucket per hash, a datagram
#      that found the upload's bucket empty between two ACKs took it, and the upload
#      went on unbounded for the rest of its life).
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
PORT=5300
TMPD=$(mktemp -d /tmp/airfair-flows.XXXXXX)
cleanup() {
	[ -n "${SRV:-}" ] && kill "$SRV" 2>/dev/null
	veth_cleanup
	rm -rf "$TMPD"
}
trap cleanup EXIT

ktap_header
airfair_require iperf3
ktap_set_plan 2
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"
ip -n $AF_NS link set m1 gso_max_segs 1 2>/dev/null ||
	ktap_skip_all "cannot turn GSO off on the station's device"
# a short target keeps the bound below the window the AP's TCP advertises
tc qdisc add dev $DEV root airfair 11a utilisation 40 target 5ms interval 100ms \
	station "$(sta_mac 1)" rate 24mbit || ktap_skip_all "cannot add the qdisc"
iperf3 -s -B 10.77.0.1 -p $PORT > "$TMPD/server.log" 2>&1 & SRV=$!
sleep 0.5

clamps() { qdisc_field $DEV window_clamps; }
# long enough to outlast the flood, which takes 1-5 s under TCG (forks are dear); ended
# once the counts are read
ip netns exec $AF_NS timeout -k 5 40 iperf3 -c 10.77.0.1 -B "$(sta_addr 1)" -p $PORT -t 30 \
	-b 2M --connect-timeout 5000 > "$TMPD/up.log" 2>&1 & up=$!
sleep 2
c0=$(clamps)
sleep 1
c1=$(clamps)
t0=$EPOCHREALTIME
for p in $(seq 20000 20255); do
	echo x > "/dev/udp/$(sta_addr 1)/$p"
done 2>/dev/null
log "256 datagrams in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}') s"
sleep 0.5
c2=$(clamps)
sleep 2
c3=$(clamps)
kill "$up" 2>/dev/null
wait $up 2>/dev/null
log "window_clamps $c0 -> $c1 before the flood, $c2 -> $c3 after it;" \
	"new_flows $(qdisc_field $DEV new_flows)"

if [ "$((c1 - c0))" -gt 0 ]; then
	ktap_test_pass "the upload's ACKs are bounded ($((c1 - c0)) in 1 s)"
else
	ktap_test_fail "the upload's ACKs are bounded (window_clamps $c0 -> $c1 in 1 s)"
fi
if [ "$((c3 - c2))" -gt 0 ]; then
	ktap_test_pass "256 new flows of the station leave the upload its state ($((c3 - c2)) bounded in 2 s after)"
else
	ktap_test_fail "256 new flows of the station leave the upload its state (window_clamps $c2 -> $c3 in 2 s after)"
	log "upload: $(tail -n 3 "$TMPD/up.log")"
fi
ktap_finished

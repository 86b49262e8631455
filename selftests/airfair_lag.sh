#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bounded lag: a station whose queue here ran empty (a download whose ACKs stalled
# in its own uplink) comes back with up to 64 ms of the air it missed, per weight, and
# no more. Two stations at 6 Mbit/s behind a slow meter: station 1 has a long UDP
# backlog (150 datagrams); half a second later station 2, new, queues 70 at once. The
# airfair_dequeue tracepoint gives the order and each packet's charge:
#   - station 2 is served in one run of about 64 ms of charged air, station 1 waiting:
#     at least 64 ms less one packet; at most 64 ms, the turn station 1 had in progress
#     (its vtime when taken is the floor; a turn is 1 ms and the packet that ends it)
#     and a packet of station 2's own;
#   - after that run the two alternate turn by turn (no second run that long).
# Without the lag station 2 would be served one turn (1 ms and one packet) and then
# alternate, as a sparse station does.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
TMPD=$(mktemp -d /tmp/airfair-lag.XXXXXX)
LAG_NS=64000000	# sch_airfair/qdisc.c: AIRFAIR_LAG_NS
cleanup() { dequeue_trace_stop; veth_cleanup; rm -rf "$TMPD"; }
trap cleanup EXIT

ktap_header
airfair_require awk
airfair_helper ORDER udp_order
dequeue_trace_require
ktap_set_plan 3
veth_setup 2 || ktap_skip_all "cannot build the veth/macvlan topology"

MAC1=$(sta_mac 1) MAC2=$(sta_mac 2)
queued() { qdisc_counters $DEV qlen; }

# CoDel must not drop what waits behind the slow meter: the order is the point
tc qdisc replace dev $DEV root airfair 11a utilisation 5 target 1s interval 10s \
	station "$MAC1" rate 6mbit station "$MAC2" rate 6mbit ||
	ktap_skip_all "cannot set up airfair with two stations"
dequeue_trace_start
"$ORDER" send "$(sta_addr 1)" 1000 7001:6001:150
sleep 0.5
"$ORDER" send "$(sta_addr 2)" 1000 7002:6002:70
for t in $(seq 200); do [ "$(queued)" = 0 ] && break; sleep 0.1; done
dequeue_trace_stop "$TMPD/events"
ktap_diag "$(wc -l < "$TMPD/events") events, backlog left $(queued)"
tc qdisc del dev $DEV root

# The runs of station 2's dequeues in order: "COUNT SUM_OF_COSTS_NS" per run, from its
# first packet on.
awk -v m1="$MAC1" -v m2="$MAC2" '
	{ delete f; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2] }
	f["sta"] == m2 { seen = 1; n++; sum += f["cost"]; next }
	f["sta"] == m1 && seen && n { print n, sum; n = 0; sum = 0 }
	END { if (n) print n, sum }' "$TMPD/events" > "$TMPD/runs"
ktap_diag "station 2's runs (packets, charged ns): $(head -6 "$TMPD/runs" | tr '\n' ',')"
read -r n1 c1 < "$TMPD/runs"
n1=${n1:-0} c1=${c1:-0}
# one packet's charge, from station 2's first run
one=$(( n1 ? c1 / n1 : 0 ))

ktap_test_result "station 2 comes in with a run of at least the lag less one packet ($n1 packets, $c1 ns)" \
	test "$n1" -ge 2 -a "$c1" -ge $(( LAG_NS - one ))
ktap_test_result "and no more than the lag, a turn and two packets ($c1 ns, one packet $one ns)" \
	test "$n1" -ge 2 -a "$c1" -le $(( LAG_NS + 1000000 + 2 * one ))
longest=$(awk 'NR > 1 && $2 > max { max = $2 } END { print max + 0 }' "$TMPD/runs")
ktap_test_result "then the two alternate turn by turn (longest later run $longest ns)" \
	test "$(wc -l < "$TMPD/runs")" -ge 5 -a "$longest" -le $(( 1000000 + 2 * one ))
ktap_finished

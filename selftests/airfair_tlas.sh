#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# T-LAS, threshold least-attained service (gong-wu-williamson): within a station, a flow
# that has had fewer than `tlas` packets in its life goes out ahead of one that has had
# more, also when the older flow has just become active again after a pause. One station
# behind a slow meter (so that both flows wait in airfair); flow A sends 80 packets and
# drains, then a new flow B sends 30 and A 30 more, at once; the receiver records the
# order. With tlas 50, B (attained 0) keeps its priority and takes nearly all of the
# first 31 slots (A, back after its 80, gets one quantum as a re-entering flow); with
# no-tlas both lose it after a quantum and alternate.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
ORDER=$AIRFAIR_REPO/build/selftests/udp_order
TMPD=$(mktemp -d /tmp/airfair-tlas.XXXXXX)
cleanup() { veth_cleanup; rm -rf "$TMPD"; }
trap cleanup EXIT

ktap_header
require_root
require_cmd tc ip jq
airfair_load || ktap_skip_all "cannot load sch_airfair"
tc qdisc add dev lo root airfair help 2>&1 | grep -q Usage || ktap_skip_all "tc plugin q_airfair.so not found"
[ -x "$ORDER" ] || ktap_skip_all "$ORDER not built (make)"
ktap_set_plan 2
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"

DST=$(sta_addr 1)
queued() { qdisc_counters $DEV qlen; }
drain() {
	local t
	for t in $(seq 100); do [ "$(queued)" = 0 ] && return 0; sleep 0.1; done
	return 1
}

# The flow hash is seeded at boot and a station has 32 flow buckets: B's source port
# is chosen so that A and B do not share one (sharing, they are one FIFO and the order
# says nothing about the scheduler).
udp_buckets() {
	class_json $DEV | jq -r --arg m "$(sta_mac 1)" \
		'[.[] | (.station // .) | select(.addr == $m)][0].flows.udp // 0'
}
B_SPORT=
for sport in $(seq 6002 6040); do
	tc qdisc replace dev $DEV root airfair 11a utilisation 1 station "$(sta_mac 1)" rate 6mbit || break
	"$ORDER" send "$DST" 100 7001:6001:1 7002:$sport:1 || break
	n=$(udp_buckets)
	tc qdisc del dev $DEV root
	[ "$n" = 2 ] && { B_SPORT=$sport; break; }
	log "source port $sport: A and B share a flow bucket ($n), trying the next"
done
if [ -z "$B_SPORT" ]; then
	ktap_test_fail "tlas 50: no source port put B in a flow bucket of its own"
	ktap_test_fail "no-tlas: no source port put B in a flow bucket of its own"
	ktap_finished
fi

# order TLAS_OPT: the arrival order of A's 30 and B's 30 after A's 80 have gone
order() {
	local out
	# CoDel must not drop what waits behind the slow meter: the order is the point
	tc qdisc replace dev $DEV root airfair 11a "$@" utilisation 20 target 1s interval 10s \
		station "$(sta_mac 1)" rate 6mbit || return 1
	# A's history: 80 packets, all sent (its attained service is 80)
	"$ORDER" send "$DST" 1000 7001:6001:80 || return 1
	drain || { log "A's first 80 did not drain"; return 1; }
	ip netns exec $AF_NS "$ORDER" recv "$DST" 7001 7002 60 20 > "$TMPD/order" 2> "$TMPD/ready" &
	local pid=$! t
	for t in $(seq 50); do grep -q ready "$TMPD/ready" && break; sleep 0.1; done
	# both flows from one process: queued within a millisecond of each other (two
	# processes were far enough apart on the debug kernel for B to be half gone)
	"$ORDER" send "$DST" 1000 7002:$B_SPORT:30 7001:6001:30 || return 1
	wait $pid
	out=$(cat "$TMPD/order")
	log "$* order: $out"
	echo "$out"
}
first_b() { local o=${1:0:31}; o=${o//A/}; echo ${#o}; }

o=$(order tlas 50)
n=$(first_b "$o")
if [ ${#o} = 60 ] && [ "$n" -ge 27 ]; then
	ktap_test_pass "tlas 50: the new flow goes first ($n of the first 31 are B's; A attained 80)"
else
	ktap_test_fail "tlas 50: the new flow goes first (got $n of the first 31, order '$o')"
fi
o=$(order no-tlas)
n=$(first_b "$o")
if [ ${#o} = 60 ] && [ "$n" -le 22 ]; then
	ktap_test_pass "no-tlas: both re-enter as sparse flows and share ($n of the first 31 are B's)"
else
	ktap_test_fail "no-tlas: both share (got $n of the first 31, order '$o')"
fi
ktap_finished

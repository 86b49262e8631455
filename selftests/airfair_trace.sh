#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The airfair:airfair_dequeue tracepoint, and the access categories it shows the AP's
# best-effort packets leave in. One station behind a slow meter (the backlog waits in
# airfair), a TCP download to it and a ping every 0.2 s, the event on:
#   - one event per packet sent, each with the station's address and, for TCP data, the
#     cost it was charged;
#   - defer-data (leith-2005): the bulk flow's packets served from the old-flow list go
#     at 802.1d priority 1 (skb->priority 257: AC_BK), the pings (sparse: the new-flow
#     list) at their own, 0;
#   - no-defer-data: nothing at 257.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
TMPD=$(mktemp -d /tmp/airfair-trace.XXXXXX)
cleanup() {
	dequeue_trace_stop
	veth_cleanup
	rm -rf "$TMPD"
}
trap cleanup EXIT

ktap_header
airfair_require iperf3 ping awk
dequeue_trace_require
ktap_set_plan 5
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"

MAC=$(sta_mac 1)

# traced OPTION: a 4 s download and 15 pings under airfair with OPTION; the events for
# station 1 in $TMPD/OPTION
traced() {
	local opt=$1 gp
	tc qdisc replace dev $DEV root airfair 11a "$opt" utilisation 20 \
		station "$MAC" rate 6mbit || return 1
	dequeue_trace_start
	ping -q -i 0.2 -c 15 "$(sta_addr 1)" > /dev/null 2>&1 &
	gp=$(af_iperf 1 tcp-down 4)
	wait
	dequeue_trace_stop "$TMPD/all"
	grep "airfair_dequeue: .* sta=$MAC " "$TMPD/all" > "$TMPD/$opt"
	tc qdisc del dev $DEV root
	log "$opt: download $gp Mbit/s, $(wc -l < "$TMPD/$opt") events"
}

# count FILE AWK-CONDITION: events in FILE whose key=value fields meet the condition
# ($f["class"], $f["prio"], ...)
count() {
	awk -v cond="$2" '
		{ delete f; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2] }
		cond == "all" { n++; next }
		cond == "data" && f["class"] == "tcp-data" { n++; next }
		cond == "data-costed" && f["class"] == "tcp-data" && f["cost"] > 0 { n++; next }
		cond == "data-old" && f["class"] == "tcp-data" && f["list"] == "old" { n++; next }
		cond == "data-old-bk" && f["class"] == "tcp-data" && f["list"] == "old" &&
			f["prio"] == 257 { n++; next }
		cond == "ping" && f["class"] == "other" && f["len"] == 98 { n++; next }
		cond == "ping-be" && f["class"] == "other" && f["len"] == 98 &&
			f["prio"] == 0 { n++; next }
		cond == "bk" && f["prio"] == 257 { n++; next }
		END { print n + 0 }' "$1"
}

if ! traced defer-data; then
	ktap_test_fail "events with the station's address"
	ktap_skip_rest "airfair with defer-data not set up"
	ktap_finished
fi
f=$TMPD/defer-data
n=$(count "$f" all) data=$(count "$f" data) costed=$(count "$f" data-costed)
ktap_diag "defer-data: $n events for $MAC, $data of TCP data, $costed of them costed; one:"
ktap_diag "$(grep -m1 'class=tcp-data.*list=old\|list=old.*class=tcp-data' "$f" | sed 's/.*airfair_dequeue: //')"
ktap_test_result "events with the station's address, TCP data costed ($data of $n)" \
	test "$data" -ge 100 -a "$costed" = "$data"

old=$(count "$f" data-old) old_bk=$(count "$f" data-old-bk)
ktap_diag "defer-data: TCP data from the old-flow list $old, at priority 257 $old_bk"
ktap_test_result "defer-data: the bulk flow's old-flow packets in AC_BK ($old_bk of $old)" \
	test "$old" -ge 50 -a "$old_bk" = "$old"

ping=$(count "$f" ping) ping_be=$(count "$f" ping-be)
ktap_diag "defer-data: pings $ping, at priority 0 $ping_be"
ktap_test_result "defer-data: the pings (sparse) keep best effort ($ping_be of $ping)" \
	test "$ping" -ge 10 -a "$ping_be" = "$ping"

if ! traced no-defer-data; then
	ktap_test_fail "no-defer-data: TCP data traced"
	ktap_skip_rest "airfair with no-defer-data not set up"
	ktap_finished
fi
f=$TMPD/no-defer-data
data=$(count "$f" data) bk=$(count "$f" bk)
ktap_diag "no-defer-data: $data events of TCP data, $bk at priority 257"
ktap_test_result "no-defer-data: TCP data traced ($data)" test "$data" -ge 100
ktap_test_result "no-defer-data: nothing in AC_BK ($bk)" test "$bk" = 0
ktap_finished

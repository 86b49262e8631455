#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A download flow's delayed-ACK factor d, learnt from the station's own ACKs (chen-yan
# Eq. 7 charges each data frame 1/d of the station's TCP ACK). Two stations download at
# once on the veth topology; station 1's route has quickack (an ACK per segment, d = 1),
# station 2 delays its ACKs as Linux does (at most one per two full segments; its
# quick-ACK phases and window updates bring d below 2: 1.43 at 2.4 Mbit/s). The AP's
# GSO is off so that segments reach the stations one by one. The receive hook must learn
# d ~ 1 for station 1 and clearly more for station 2, and station 1's data frames must be
# charged more air each.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
TMPD=$(mktemp -d /tmp/airfair-delack.XXXXXX)
cleanup() { veth_cleanup; rm -rf "$TMPD"; }
trap cleanup EXIT

ktap_header
airfair_require iperf3
ktap_set_plan 4
veth_setup 2 || ktap_skip_all "cannot build the veth/macvlan topology"
ip link set $DEV gso_max_segs 1 2>/dev/null || ethtool -K $DEV gso off tso off >/dev/null 2>&1 ||
	ktap_skip_all "cannot turn GSO off on $DEV"
ip -n $AF_NS route replace 10.77.0.0/24 dev m1 src "$(sta_addr 1)" table 101 quickack 1

tc qdisc add dev $DEV root airfair 11a
af_iperf 1 tcp-down 5 > "$TMPD/dl1" &
p1=$!
af_iperf 2 tcp-down 5 > "$TMPD/dl2" &
p2=$!
# mid-transfer, while both flows are recent
sleep 4
class_json $DEV > "$TMPD/cls"
wait $p1 $p2
field() { jq -r --arg m "$(sta_mac "$1")" --arg k "$2" \
	'[.[] | (.station // .) | select(.addr == $m)][0][$k] // 0' "$TMPD/cls"; }
d1=$(field 1 delack_down) d2=$(field 2 delack_down)
log "downloads: station 1 $(cat "$TMPD/dl1") Mbit/s (quickack), station 2 $(cat "$TMPD/dl2") Mbit/s"
log "learnt d: station 1 $d1, station 2 $d2 (configured 2)"

ktap_test_result "quickack station: d learnt from its ACKs $d1 in [0.8, 1.4]" \
	awk -v d="$d1" 'BEGIN { exit !(d >= 0.8 && d <= 1.4) }'
ktap_test_result "delayed-ACK station: d $d2 in [1.2, 2.6], above the quickack station's $d1" \
	awk -v d="$d2" -v q="$d1" 'BEGIN { exit !(d >= 1.2 && d <= 2.6 && d >= q + 0.2) }'

# Air charged per packet (full-size segments both): station 1 pays an ACK per segment.
c1=$(jq -n --argjson a "$(field 1 airtime_us)" --argjson p "$(field 1 packets)" \
	'if $p > 0 then $a / $p else 0 end')
c2=$(jq -n --argjson a "$(field 2 airtime_us)" --argjson p "$(field 2 packets)" \
	'if $p > 0 then $a / $p else 0 end')
log "charged per packet: station 1 $c1 us, station 2 $c2 us"
ktap_test_result "the quickack station's data is charged more air per packet ($c1 > 1.02 x $c2 us)" \
	awk -v a="$c1" -v b="$c2" 'BEGIN { exit !(a > 0 && b > 0 && a > 1.02 * b) }'
# d is each flow's own: a new download learns it whatever the configured one.
tc qdisc replace dev $DEV root airfair 11a delack 1
af_iperf 2 tcp-down 1 > /dev/null
d2b=$(sta_field $DEV "$(sta_mac 2)" delack_down)
log "after replace with delack 1, a new download to station 2: delack_down $d2b"
ktap_test_result "a new flow learns its own d, not the configured 1 ($d2b)" \
	awk -v d="$d2b" 'BEGIN { exit !(d >= 1.2) }'
ktap_finished

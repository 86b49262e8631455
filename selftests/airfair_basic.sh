#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sch_airfair lifecycle and traffic on a wired test topology (veth + macvlan stations):
# add/change/replace/delete, TCP and UDP both ways, per-station classification and
# direction, airtime metering at a static rate, airtime shares by weight and rate (the
# qdisc's own accounting), the charge at dequeue, ACK filtering, and rmmod under traffic.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
TMPD=$(mktemp -d /tmp/airfair-basic.XXXXXX)
cleanup() { veth_cleanup; rm -rf "$TMPD"; }
trap cleanup EXIT

ktap_header
require_root
require_cmd tc ip iperf3 jq
airfair_load || ktap_skip_all "cannot load sch_airfair"
tc qdisc add dev lo root airfair help 2>&1 | grep -q Usage || ktap_skip_all "tc plugin q_airfair.so not found"
ktap_set_plan 16
veth_setup 3 || ktap_skip_all "cannot build the veth/macvlan topology"

check() {	# check NAME CONDITION-COMMAND...
	local name=$1; shift
	if "$@"; then ktap_test_pass "$name"; else ktap_test_fail "$name"; fi
}
near() {	# near VALUE EXPECTED TOLERANCE  (absolute)
	awk -v v="$1" -v e="$2" -v t="$3" 'BEGIN { exit !(v >= e - t && v <= e + t) }'
}

# 1. add / show / change / replace / delete
tc qdisc add dev $DEV root airfair 11g
check "add shows airfair 11g" bash -c "tc qdisc show dev $DEV | grep -q 'airfair.*11g'"
tc qdisc change dev $DEV root airfair model naive cwmin 31
check "change keeps the rest, applies model and cwmin" \
	bash -c "tc qdisc show dev $DEV | grep -q '11g .*cwmin 31 .*model naive'"
tc qdisc replace dev $DEV root airfair 11a
check "replace of the same kind changes in place: new preset, model kept" \
	bash -c "tc qdisc show dev $DEV | grep -q 'airfair.*11a.*model naive'"
fresh() {	# a new qdisc instance: counters from zero
	tc qdisc del dev $DEV root 2>/dev/null
	tc qdisc add dev $DEV root airfair "$@"
}

# 2. traffic both ways, classified per station and flow
fresh 11a
down=$(af_iperf 1 tcp-down 3)
log "tcp download to station 1: $down Mbit/s"
pk1=$(sta_field $DEV "$(sta_mac 1)" packets)
read -r tcpdown tcpbulk < <(class_json $DEV | jq -r --arg m "$(sta_mac 1)" \
	'[.[] | (.station // .) | select(.addr == $m)][0].flows | "\(.tcp_down) \(.tcp_bulk)"')
# the download is bulk; iperf3's control connection, a few segments, is not
check "TCP download flows through, station 1 counted ($pk1 pkts, tcp_down flows $tcpdown, bulk $tcpbulk)" \
	test "${pk1:-0}" -gt 100 -a "${tcpdown:-0}" -ge 1 -a "${tcpbulk:-0}" = 1
# Read the flow table mid-transfer, as for UDP below: once the upload ends, its bucket can
# go to iperf3's control connection (1 in 32), which CI saw once (tcp_up flows 0).
station_segs() { ip netns exec $AF_NS nstat -asz TcpOutSegs | awk '/TcpOutSegs/ { print $2 }'; }
out0=$(station_segs)
AF_IPERF_JSON=$TMPD/up.json af_iperf 2 tcp-up 3 > "$TMPD/up" &
sleep 2
tc -j -s class show dev $DEV 2>/dev/null | grep '^{' > "$TMPD/up-cls"
wait $!
up=$(cat "$TMPD/up")
tcpup=$(jq -s --arg m "$(sta_mac 2)" '[.[] | (.station // .) | select(.addr == $m)][0].flows.tcp_up' "$TMPD/up-cls")
delack=$(jq -s -r --arg m "$(sta_mac 2)" '[.[] | (.station // .) | select(.addr == $m)][0].delack // 0' "$TMPD/up-cls")
log "tcp upload from station 2: $up Mbit/s, tcp_up flows $tcpup, learned d $delack"
check "TCP upload: the AP's ACK flow is inferred as upload" test "${tcpup:-0}" -ge 1
# upload observed (default): the receive hook counts the station's data segments and they
# are charged to it; the count must match the segments the station's TCP sent (its
# TcpOutSegs, retransmissions included; iperf3's byte count is no measure, what was still in
# flight when the server closed never arrived). The sender's buffer drains after iperf3's
# timer, slowly while airfair holds its ACKs at the default 6 Mbit/s: wait until the count
# settles, at most 15 s.
upf=-1
for _ in $(seq 30); do
	sleep 0.5
	n=$(sta_field $DEV "$(sta_mac 2)" upload_frames)
	[ "$n" = "$upf" ] && break
	upf=$n
done
segs=$(( $(station_segs) - out0 ))
log "upload frames charged to station 2: $upf; the station's TCP sent $segs segments" \
    "(iperf3: $(jq '(.end.sum_sent.bytes // 0) / 1448 | round' "$TMPD/up.json") segments' worth written)"
check "upload observed: frames charged ($upf) = segments sent ($segs) within 15%" \
	awk -v f="${upf:-0}" -v s="$segs" 'BEGIN { exit !(s > 100 && f >= 0.85 * s && f <= 1.15 * s) }'
# Read the flow table while the UDP flow has a backlog: once it drains, its bucket goes to
# the next flow hashed there (1 in 32: iperf3's own TCP control connection).
# Poll: the stream starts after iperf3's control exchange, later on a loaded guest.
af_iperf 3 udp-down 3 20M > "$TMPD/udp" &
pid=$!
for _ in $(seq 12); do
	sleep 0.4
	udpf=$(tc -j -s class show dev $DEV 2>/dev/null | grep '^{' | jq -s --arg m "$(sta_mac 3)" \
		'[.[] | (.station // .) | select(.addr == $m)][0].flows.udp // 0')
	[ "${udpf:-0}" -ge 1 ] && break
done
wait $pid
udp=$(cat "$TMPD/udp")
check "UDP download counted as a UDP flow of station 3 ($udp Mbit/s)" test "${udpf:-0}" -ge 1

# 3. metering: a station pinned at 6 Mbit/s cannot get more than 6 Mbit/s of air when the
# meter grants all of real time (utilisation 100 %: the default, auto, follows the charged
# air rate, and nothing below a veth holds that down)
t0=$EPOCHREALTIME
fresh 11a utilisation 100 station "$(sta_mac 1)" rate 6mbit
slow=$(af_iperf 1 tcp-down 4)
log "tcp download at static 6 Mbit/s: $slow Mbit/s"
check "meter holds a 6 Mbit/s station to its air rate ($slow Mbit/s in (1, 6))" \
	awk -v v="$slow" 'BEGIN { exit !(v > 1 && v < 6) }'
check "backlog lives in airfair: meter stalls counted" \
	test "$(qdisc_field $DEV meter_stalls)" -gt 0
# The station's backlogged time: most of the metered 4 s, never more than the qdisc's age,
# and it stops once the queue is empty.
for _ in $(seq 20); do
	[ "$(sta_field $DEV "$(sta_mac 1)" backlog_pkts)" = 0 ] && break
	sleep 0.5
done
b1=$(sta_field $DEV "$(sta_mac 1)" backlogged_us)
age=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (b - a) * 1e6 }')
sleep 1
b2=$(sta_field $DEV "$(sta_mac 1)" backlogged_us)
log "station 1 backlogged ${b1:-?} us of the qdisc's $age us; 1 s later idle: ${b2:-?} us"
name="backlogged time: >= 2 s of the metered 4 s, <= the qdisc's age, still when idle"
if ! awk -v b="${b1:-0}" -v c="${b2:-0}" -v a="$age" 'BEGIN { exit !(b > 0 && b <= a && c == b) }'; then
	ktap_test_fail "$name"
elif [ "${b1:-0}" -lt 2000000 ]; then
	ktap_test_fail_timing "$name (a guest too slow to keep 6 Mbit/s queued?)"
else
	ktap_test_pass "$name"
fi

# 4. shares by the qdisc's own accounting: equal airtime across rates, then by weight
# share_run -> airtime share of stations 1 and 2 (percent), then the UDP rates station 2's
# sender sent and its receiver got (Mbit/s): the sender, not only the scheduler, decides
# a share when the guest is too slow to keep station 2 backlogged (the debug kernel).
share_run() {
	local pids=() i
	for i in 1 2; do
		AF_IPERF_JSON=$TMPD/share$i.json af_iperf $i udp-down 5 200M >/dev/null &
		pids+=($!)
	done
	wait "${pids[@]}"
	class_json $DEV | jq -r --arg a "$(sta_mac 1)" --arg b "$(sta_mac 2)" \
		--arg o "$(jq -r '"\((.end.sum_sent.bits_per_second // 0) / 1e6) \((.end.sum_received.bits_per_second // 0) / 1e6)"' "$TMPD/share2.json")" '
		[.[] | (.station // .)] as $s
		| ([$s[] | select(.addr == $a)][0].airtime_us) as $x
		| ([$s[] | select(.addr == $b)][0].airtime_us) as $y
		| "\($x * 100 / ($x + $y)) \($y * 100 / ($x + $y)) \($o)"'
}
# share_check NAME SHARE1 EXPECTED SENT2 GOT2: SHARE1 within 2 points of EXPECTED (on the
# debug kernel a miss is reported as the guest's, with station 2's rates)
share_check() {
	if near "$2" "$3" 2; then
		ktap_test_pass "$1"
	else
		ktap_test_fail_timing "$1 (station 2 sent $4, got $5 Mbit/s)"
	fi
}
fresh 11a utilisation 50 \
	station "$(sta_mac 1)" rate 6mbit station "$(sta_mac 2)" rate 54mbit
read -r s1 s2 sent2 got2 < <(share_run)
log "equal weights, 6 vs 54 Mbit/s: airtime shares $s1% / $s2%; station 2 sent $sent2, got $got2 Mbit/s"
share_check "equal airtime at 6 and 54 Mbit/s within 2% ($s1 / $s2)" "$s1" 50 "$sent2" "$got2"
fresh 11a utilisation 50 \
	station "$(sta_mac 1)" rate 6mbit weight 2 station "$(sta_mac 2)" rate 54mbit weight 1
read -r s1 s2 sent2 got2 < <(share_run)
log "weights 2:1, 6 vs 54 Mbit/s: airtime shares $s1% / $s2%; station 2 sent $sent2, got $got2 Mbit/s"
share_check "weights 2:1 give 66.7/33.3 within 2% ($s1 / $s2)" "$s1" 66.67 "$sent2" "$got2"

# 5. a fixed A-MPDU length applies to HT stations only: a legacy rate has no aggregate,
# and the class stats say what the charge assumes
fresh 11n-5g ampdu 8 station "$(sta_mac 1)" rate 24mbit station "$(sta_mac 2)" rate ht-mcs 7
ping -q -c 2 -i 0.2 "$(sta_addr 1)" >/dev/null; ping -q -c 2 -i 0.2 "$(sta_addr 2)" >/dev/null
a1=$(sta_field $DEV "$(sta_mac 1)" ampdu_used)
a2=$(sta_field $DEV "$(sta_mac 2)" ampdu_used)
log "ampdu 8 on 11n-5g: ampdu_used at 24 Mbit/s $a1, at HT MCS 7 $a2"
check "ampdu 8: 1 MPDU per PPDU charged at a legacy rate ($a1), 8 at HT MCS 7 ($a2)" \
	test "$a1" = 1 -a "$a2" = 8

# 6. a packet is charged at its station's costs when it leaves, not when it came: UDP
# queued behind the meter at 54 Mbit/s, the station set to 6 Mbit/s while it waits, and
# nothing sent after. Each datagram from its own socket (bash's /dev/udp): one socket's
# send buffer would hold the queue to a few dozen packets; CoDel held off.
fresh 11a utilisation 2 target 10s interval 100s station "$(sta_mac 1)" rate 54mbit
pay=$(printf '%1400s' '')
for _ in $(seq 400); do
	printf '%s' "$pay" > "/dev/udp/$(sta_addr 1)/9"
done
tc qdisc change dev $DEV root airfair station "$(sta_mac 1)" rate 6mbit
recost_sample() {
	class_json $DEV | jq -r --arg m "$(sta_mac 1)" \
		'[.[] | (.station // .) | select(.addr == $m)][0]
		 | "\(.airtime_us) \(.packets) \(.bytes) \(.backlog_pkts) \(.cost_a_ns) \(.cost_b_ns_per_byte)"'
}
read -r a1 p1 b1 q1 _ < <(recost_sample)
sleep 2
read -r a2 p2 b2 _ ca cb < <(recost_sample)
# the model's length is the L3 one: the qdisc's less the Ethernet header
read -r per want < <(awk -v a="$((a2 - a1))" -v p="$((p2 - p1))" -v b="$((b2 - b1))" \
	-v ca="$ca" -v cb="$cb" 'BEGIN { if (p < 1) p = 1
		printf "%.0f %.0f\n", a / p, (ca + cb * (b / p - 14)) / 1e3 }')
log "backlog $q1 packets at the change; $((p2 - p1)) of them left in 2 s, charged $per us" \
    "each; at 6 Mbit/s one costs $want us"
check "charged at dequeue: $((p2 - p1)) packets queued at 54 Mbit/s, left at 6 Mbit/s's cost ($per vs $want us)" \
	awk -v q="${q1:-0}" -v n="$((p2 - p1))" -v g="${per:-0}" -v w="${want:-0}" \
		'BEGIN { exit !(q >= 50 && n >= 5 && w > 1000 && g >= 0.98 * w && g <= 1.02 * w) }'

# 7. ACK filter drops redundant ACKs without stalling an upload
fresh 11a ack-filter station "$(sta_mac 2)" rate 6mbit
up=$(af_iperf 2 tcp-up 4)
af=$(qdisc_field $DEV drop_ackfilter)
log "upload with ack-filter at 6 Mbit/s: $up Mbit/s, ACKs filtered: $af"
check "ack-filter drops ACKs ($af) and the upload keeps going ($up Mbit/s)" \
	awk -v a="${af:-0}" -v u="$up" 'BEGIN { exit !(a > 0 && u > 0.5) }'

# 8. delete and unload while traffic runs
af_iperf 1 tcp-down 4 >/dev/null &
sleep 1
tc qdisc del dev $DEV root && rmmod sch_airfair
rc=$?
wait
airfair_load
check "qdisc delete and rmmod under traffic" test $rc -eq 0
ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The ACK filter drops an older pure ACK of a flow only when nothing but the
# cumulative ACK is lost with it. Twenty ACKs of one flow, each one segment further,
# are queued behind a meter at 0.1 % of the air that a 1400-byte ping just sent at
# 1 Mbit/s has put about 12 s in debt, so none leaves however slow the guest (the
# debug kernel); the filter must thin plain ones and Ethernet-padded ones (60-byte frames:
# the bytes after the TCP header are padding, not payload), and keep every one that
# carries PSH, the AE/reserved bit or a TCP-MD5 signature. Then nine plain ACKs under
# each mode: the conservative mode (the default) leaves the flow's two newest ACKs
# queued, the aggressive one only the newest (nine stay under the cap of eight ACKs
# folded into one).
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
trap veth_cleanup EXIT

ktap_header
airfair_require
airfair_helper ACKS tcp_acks
ktap_set_plan 7
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"

for kind in plain padded psh ae md5 conservative aggressive; do
	n=20 shape=$kind mode=ack-filter
	case $kind in
	conservative) n=9 shape=plain ;;
	aggressive) n=9 shape=plain mode=ack-filter-aggressive ;;
	esac
	tc qdisc del dev $DEV root 2>/dev/null
	tc qdisc add dev $DEV root airfair 11b utilisation 0.1 $mode \
		station "$(sta_mac 1)" rate 1mbit
	ping -c 1 -W 2 -s 1400 "$(sta_addr 1)" >/dev/null ||
		log "$kind: no reply to the ping that stalls the meter"
	"$ACKS" $DEV "$(sta_mac 1)" 10.77.0.1 "$(sta_addr 1)" $shape $n ||
		{ ktap_test_fail "$kind: tcp_acks failed"; continue; }
	sleep 0.3
	drops=$(qdisc_field $DEV drop_ackfilter)
	# The station's own queue: IPv6 ND/MLD multicast from the link sits in the
	# broadcast class at this meter rate and is not the filter's business.
	queued=$(sta_field $DEV "$(sta_mac 1)" backlog_pkts)
	log "$kind: $n ACKs sent, $drops dropped by the filter, $queued queued"
	case $kind in
	plain|padded) want="thinned"
		ok=$([ "${drops:-0}" -ge $((n / 2)) ] && [ $((drops + queued)) = "$n" ] && echo 1) ;;
	conservative) want="the newest two queued"
		ok=$([ "$queued" = 2 ] && [ "$drops" = $((n - 2)) ] && echo 1) ;;
	aggressive) want="the newest one queued"
		ok=$([ "$queued" = 1 ] && [ "$drops" = $((n - 1)) ] && echo 1) ;;
	*) want="all kept"; ok=$([ "${drops:-1}" -eq 0 ] && [ "$queued" = "$n" ] && echo 1) ;;
	esac
	if [ "$ok" = 1 ]; then
		ktap_test_pass "$kind ACKs: $want ($drops of $n dropped, $queued queued)"
	else
		ktap_test_fail "$kind ACKs: $want ($drops of $n dropped, $queued queued)"
	fi
done
ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The ACK filter drops an older pure ACK of a flow only when nothing but the
# cumulative ACK is lost with it. Twenty ACKs of one flow, each one segment further,
# are queued behind a meter at 0.1 % of the air; the filter must thin plain ones and
# Ethernet-padded ones (60-byte frames: the bytes after the TCP header are padding, not
# payload), and keep every one that carries PSH, the AE/reserved bit or a TCP-MD5
# signature.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
trap veth_cleanup EXIT

ktap_header
airfair_require
airfair_helper ACKS tcp_acks
ktap_set_plan 5
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"

n=20
for kind in plain padded psh ae md5; do
	tc qdisc del dev $DEV root 2>/dev/null
	tc qdisc add dev $DEV root airfair 11a utilisation 0.1 station "$(sta_mac 1)" rate 6mbit
	"$ACKS" $DEV "$(sta_mac 1)" 10.77.0.1 "$(sta_addr 1)" $kind $n ||
		{ ktap_test_fail "$kind: tcp_acks failed"; continue; }
	sleep 0.3
	drops=$(qdisc_field $DEV drop_ackfilter)
	queued=$(tc -j -s qdisc show dev $DEV | jq -r '.[0].qlen // 0')
	log "$kind: $n ACKs sent, $drops dropped by the filter, $queued queued"
	case $kind in
	plain|padded) want="thinned"; ok=$([ "${drops:-0}" -ge $((n / 2)) ] && echo 1) ;;
	*) want="all kept"; ok=$([ "${drops:-1}" -eq 0 ] && echo 1) ;;
	esac
	if [ "$ok" = 1 ]; then
		ktap_test_pass "$kind ACKs: $want ($drops of $n dropped)"
	else
		ktap_test_fail "$kind ACKs: $want ($drops of $n dropped, $queued queued)"
	fi
done
ktap_finished

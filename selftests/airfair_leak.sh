#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Nothing airfair holds is lost when it lets go: a local UDP sender fills the qdisc
# (metered to 0.1% of the air, so the packets stay) and then the qdisc is deleted,
# changed to a limit of one packet, replaced by another kind, reset by link down,
# destroyed with its device, or destroyed when the namespace holding the veth's peer
# goes (`ip netns del`: the pair dies in the namespace cleanup work, not in rtnl). Every packet it dropped or purged must be freed: the
# sender's socket (SIOCOUTQ, the truesize of its skbs still alive anywhere) must come
# back to zero, or to at most the one packet a limit of one keeps. A leaked skb would
# stay charged to the socket, and pin it and its namespace, for ever.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
trap veth_cleanup EXIT

ktap_header
airfair_require
airfair_helper OUTQ udp_outq
actions="delete change-limit replace link-down link-delete netns-delete"
ktap_set_plan 6
veth_setup 1 || ktap_skip_all "cannot build the veth/macvlan topology"
TMPD=$(mktemp -d)

for act in $actions; do
	tc qdisc del dev $DEV root 2>/dev/null
	tc qdisc add dev $DEV root airfair 11a utilisation 1 station "$(sta_mac 1)" rate 6mbit
	"$OUTQ" "$(sta_addr 1)" 9 400 1000 4 > "$TMPD/outq" &
	pid=$!
	for _ in $(seq 50); do grep -q '^sent' "$TMPD/outq" && break; sleep 0.1; done
	sleep 0.5
	held=$(qdisc_counters $DEV qlen)
	before=$(tail -n 1 "$TMPD/outq")
	allow=0
	case $act in
	delete)		tc qdisc del dev $DEV root ;;
	change-limit)	tc qdisc change dev $DEV root airfair limit 1; allow=4096 ;;
	replace)	tc qdisc replace dev $DEV root pfifo ;;
	link-down)	ip link set $DEV down ;;
	link-delete)	ip link del $DEV ;;
	netns-delete)	ip netns pids $AF_NS | xargs -r kill; ip netns del $AF_NS ;;
	esac
	sleep 1
	after=$(tail -n 1 "$TMPD/outq" | awk '{print $2}')
	wait $pid
	log "$act: airfair held $held packets (socket ${before#outq }B); afterwards the socket holds ${after}B"
	if [ "$held" -gt 100 ] && [ "${after:-1}" -le $allow ]; then
		ktap_test_pass "$act with $held packets queued frees them (socket ${after}B)"
	else
		ktap_test_fail "$act with $held packets queued: socket still holds ${after}B (allowed $allow)"
	fi
	case $act in
	link-down)
		# without the neighbour down flushed, the next burst waits for
		# ARP in the neighbour's queue, not in the qdisc (CI: 85 held)
		ip link set $DEV up
		veth_neighbours 1 ;;
	link-delete | netns-delete)
		veth_cleanup; veth_setup 1 || { ktap_test_fail "topology rebuilt"; break; } ;;
	esac
done
rm -rf "$TMPD"
ktap_finished

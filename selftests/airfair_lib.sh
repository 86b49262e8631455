# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# sch_airfair-specific selftest helpers, on top of lib.sh: a wired test topology with
# several "stations" (distinct MACs) and readers for the qdisc's statistics.
#
#   veth_setup N     root ns: af0 10.77.0.1/24; netns afpeer: af1 + macvlans m1..mN with
#                    MACs 02:af:00:00:00:0i and IPs 10.77.0.(10+i); iperf3 servers there
#   veth_cleanup
#   sta_mac I        MAC of station I
#   class_json DEV   per-station stats as a JSON array (tc -j -s class show)
#   sta_field DEV MAC KEY    one numeric field of one station (0 if absent)
#   qdisc_field DEV KEY      one field of the qdisc's xstats or options
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

AF_NS=afpeer
airfair_use_built_plugin

sta_mac() { printf '02:af:00:00:00:%02x' "$1"; }
sta_addr() { echo "10.77.0.$((10 + $1))"; }

veth_setup() {
	local n=$1 i
	# what a killed test may have left (tests run one after another)
	if ip netns list | grep -qw "^$AF_NS"; then
		log "veth_setup: removing a stale $AF_NS namespace"
		veth_cleanup
	fi
	ip netns add $AF_NS || return 1
	ip link add af0 type veth peer name af1 netns $AF_NS || return 1
	ip addr add 10.77.0.1/24 dev af0
	# IPv4 only: no ND/MLD multicast of our own in the queues the tests count.
	sysctl -qw net.ipv6.conf.af0.disable_ipv6=1 2>/dev/null
	ip link set af0 up
	ip -n $AF_NS link set lo up
	ip -n $AF_NS link set af1 up
	for i in $(seq 1 "$n"); do
		ip -n $AF_NS link add m$i link af1 address "$(sta_mac "$i")" type macvlan mode bridge
		ip -n $AF_NS addr add "$(sta_addr "$i")/24" dev m$i
		ip -n $AF_NS link set m$i up
	done
	# ARP replies only from the macvlan that owns the address, and each station's
	# packets leave through its own macvlan (source MAC = the station, as a radio's
	# transmitter address would be), not through the first route's device.
	ip netns exec $AF_NS sysctl -qw net.ipv4.conf.all.arp_ignore=1
	for i in $(seq 1 "$n"); do
		ip -n $AF_NS route add 10.77.0.0/24 dev m$i src "$(sta_addr "$i")" table $((100 + i))
		ip -n $AF_NS rule add from "$(sta_addr "$i")" table $((100 + i))
	done
	ip netns exec $AF_NS bash -c "for i in \$(seq 1 $n); do
		iperf3 -s -D -B 10.77.0.\$((10 + i)) -p \$((5200 + i)) >/dev/null 2>&1; done"
	veth_neighbours "$n"
}

# Static neighbours both ways for stations 1..N: no ARP in the queues the
# tests count, nor an answer stuck behind a stalled meter waiting for one.
# Setting af0 down flushes its side, permanent entries too: call again after.
veth_neighbours() {
	local n=$1 i ap_mac
	ap_mac=$(cat /sys/class/net/af0/address)
	for i in $(seq 1 "$n"); do
		ip neigh replace "$(sta_addr "$i")" lladdr "$(sta_mac "$i")" dev af0
		ip -n $AF_NS neigh replace 10.77.0.1 dev m$i lladdr "$ap_mac"
	done
}

veth_cleanup() {
	ip netns pids $AF_NS 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del $AF_NS 2>/dev/null
	ip link del af0 2>/dev/null
	true
}

# iperf3 client from the root namespace to station I: MODE is tcp-down (AP sends),
# tcp-up (station sends, -R) or udp-down; prints goodput in Mbit/s (iperf3's JSON also to
# $AF_IPERF_JSON if set).
af_iperf() {
	local i=$1 mode=$2 secs=$3 args=()
	case $mode in
	tcp-down) ;;
	tcp-up) args=(-R) ;;
	udp-down) args=(-u -b "${4:-100M}") ;;
	esac
	# bounded: a client whose control connection loses its last messages (the tests
	# delete the qdisc under traffic) can otherwise wait minutes for the server's results
	timeout -k 5 $((secs + 30)) iperf3 -c "$(sta_addr "$i")" -p $((5200 + i)) -t "$secs" -J \
		--connect-timeout 5000 "${args[@]}" 2>/dev/null | tee "${AF_IPERF_JSON:-/dev/null}" |
		jq -r '((.end.sum_received.bits_per_second // .end.sum.bits_per_second // 0) / 1e6 * 100 | round) / 100'
}

class_json() {
	tc -j -s class show dev "$1" 2>/dev/null | grep '^{' | jq -s .
}

sta_field() {
	class_json "$1" | jq -r --arg m "$2" --arg k "$3" \
		'[.[] | (.station // .) | select(.addr == $m)][0][$k] // 0'
}

qdisc_field() {
	tc -j -s qdisc show dev "$1" | jq -r --arg k "$2" \
		'.[0] | (.options[$k] // .xstats[$k] // .[$k]) // empty'
}

# The start of a test on the veth topology: root, the commands it needs besides tc, ip
# and jq, the module and the tc plugin; SKIPs saying what is missing.
airfair_require() {
	require_root
	require_cmd tc ip jq "$@"
	airfair_load || ktap_skip_all "cannot load sch_airfair"
	tc qdisc add dev lo root airfair help 2>&1 | grep -q Usage ||
		ktap_skip_all "tc plugin q_airfair.so not found"
}

# airfair_helper VAR NAME: VAR = the path of the selftests/helpers program NAME, built
# on the host by make; SKIPs without it.
airfair_helper() {
	local p=$AIRFAIR_REPO/build/selftests/$2
	[ -x "$p" ] || ktap_skip_all "$p not built (make)"
	printf -v "$1" '%s' "$p"
}

# The airfair:airfair_dequeue tracepoint. dequeue_trace_require: tracefs mounted, the
# event writable, else SKIP; dequeue_trace_start: an empty buffer, the event on;
# dequeue_trace_stop FILE: the event off, its lines ("airfair_dequeue: ...") in FILE.
AF_TRACE=/sys/kernel/tracing
AF_EVENT=$AF_TRACE/events/airfair/airfair_dequeue
dequeue_trace_require() {
	[ -d "$AF_TRACE/events" ] || mount -t tracefs tracefs "$AF_TRACE" 2>/dev/null
	[ -w "$AF_EVENT/enable" ] || ktap_skip_all "no $AF_EVENT (tracefs, CONFIG_EVENT_TRACING)"
}
dequeue_trace_start() {
	echo 0 > "$AF_TRACE/tracing_on"
	echo > "$AF_TRACE/trace"
	echo 1 > "$AF_EVENT/enable"
	echo 1 > "$AF_TRACE/tracing_on"
}
dequeue_trace_stop() {
	[ -w "$AF_EVENT/enable" ] && echo 0 > "$AF_EVENT/enable"
	[ -z "$1" ] || grep -o "airfair_dequeue: .*" "$AF_TRACE/trace" > "$1"
}

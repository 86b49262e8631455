#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sch_airfair on a bridged AP, the usual OpenWrt set-up: the AP's wlan is a port of
# br0 (with its own MAC, as when the bridge takes the LAN port's), and a wired host
# is another port. A station's uploads reach the bridge as frames for another host's
# MAC; the qdisc's receive hook must still count them ("upload observed"), both when
# the bridge forwards them to the wired host and when it delivers them to the AP.
. "$(dirname "$0")/airfair_lib.sh"

BR=afbr0
BR_MAC=02:af:b0:00:00:01
HOST_IP=$WIFI_NET.200

ktap_header
require_root
require_cmd tc ip iw hostapd wpa_supplicant iperf3 jq
require_module mac80211_hwsim
require_module bridge
airfair_load || ktap_skip_all "cannot load sch_airfair"
tc qdisc add dev lo root airfair help 2>&1 | grep -q Usage ||
	ktap_skip_all "tc plugin q_airfair.so not found"
ktap_set_plan 4

wifi_setup 1 band=2g mode=legacy || { ktap_test_fail "wifi setup"; ktap_finished; }
bridge_cleanup() {
	ip link del $BR 2>/dev/null
	ip link del wired0 2>/dev/null
	ip netns del "$SERVER_NS" 2>/dev/null
	wifi_cleanup
}
trap bridge_cleanup EXIT

# The AP's address moves to the bridge; the wired host sits in the same subnet.
ip netns del "$SERVER_NS" 2>/dev/null
ip link add $BR address $BR_MAC type bridge &&
	ip link set $BR type bridge stp_state 0 forward_delay 0 &&
	ip addr del "$WIFI_AP_IP/24" dev "$AP_IF" &&
	ip link set "$AP_IF" master $BR &&
	ip netns add "$SERVER_NS" &&
	ip link add wired0 type veth peer name eth0 netns "$SERVER_NS" &&
	ip link set wired0 master $BR && ip link set wired0 up &&
	ip addr add "$WIFI_AP_IP/24" dev $BR && ip link set $BR up &&
	nsrun "$SERVER_NS" "ip link set lo up; ip addr add $HOST_IP/24 dev eth0;
			    ip link set eth0 up" &&
	nsrun "$(sta_ns 1)" "ip neigh del $WIFI_AP_IP dev ${STA_IF[1]}" ||
	{ ktap_test_fail "bridge set-up"; ktap_finished; }
if sta_ping 1 "$HOST_IP" 3 && sta_ping 1 "$WIFI_AP_IP" 3; then
	ktap_test_pass "station reaches the wired host and the AP through $BR"
else
	ktap_test_fail "station reaches the wired host and the AP through $BR"
fi

# upload_check WHERE SERVER_ADDR [NETNS]: a 4 s TCP upload from the station to an
# iperf3 server in NETNS (default: the AP's own); the frames the qdisc charged to the
# station must match the frames the AP's wlan received meanwhile (its rx_packets:
# the upload's segments, a handful of pure ACKs and control packets). iperf3's byte
# counts are no measure: what the client wrote but was still in flight when the
# server closed its socket at the end never crossed the air.
ap_rx_packets() { ip -j -s link show dev "$AP_IF" | jq '.[0].stats64.rx.packets'; }
upload_check() {
	local where=$1 addr=$2 ns=${3:-} n upf=-1 rx0 rx sent recv
	tc qdisc del dev "$AP_IF" root 2>/dev/null
	tc qdisc add dev "$AP_IF" root airfair 11g
	if [ -n "$ns" ]; then
		ip netns exec "$ns" iperf3 -s -1 -D -p 5301
	else
		iperf3 -s -1 -D -p 5301
	fi
	sleep 0.5
	rx0=$(ap_rx_packets)
	ip netns exec "$(sta_ns 1)" timeout 40 iperf3 -c "$addr" -p 5301 -t 4 -J \
		--connect-timeout 3000 > "$WIFI_DIR/up-$where.json" 2>/dev/null
	for _ in $(seq 30); do
		sleep 0.5
		n=$(sta_field "$AP_IF" "${STA_MAC[1]}" upload_frames)
		[ "$n" = "$upf" ] && break
		upf=$n
	done
	rx=$(( $(ap_rx_packets) - rx0 ))
	read -r sent recv < <(jq -r '[.end.sum_sent.bytes // 0, .end.sum_received.bytes // 0] |
		map(. / 1448 | round) | @tsv' "$WIFI_DIR/up-$where.json")
	log "upload to the $where: AP's wlan received $rx frames, qdisc charged $upf;" \
	    "iperf3: $sent segments' worth written, $recv read"
	if [ "${rx:-0}" -gt 100 ] &&
	   awk -v c="$upf" -v s="$rx" 'BEGIN { exit !(c >= s * 0.95 && c <= s * 1.02) }'; then
		ktap_test_pass "bridged upload to the $where: frames charged ($upf) = frames received ($rx) within -5%/+2%"
	else
		ktap_test_fail "bridged upload to the $where: frames charged ($upf) = frames received ($rx) within -5%/+2%"
	fi
}

upload_check "wired host" "$HOST_IP" "$SERVER_NS"
upload_check "AP itself" "$WIFI_AP_IP"

# The hook must not see the AP's own transmissions as received data: a download
# charges no upload frames.
tc qdisc del dev "$AP_IF" root
tc qdisc add dev "$AP_IF" root airfair 11g
ip netns exec "$SERVER_NS" iperf3 -s -1 -D -p 5302
sleep 0.5
ip netns exec "$(sta_ns 1)" timeout 40 iperf3 -c "$HOST_IP" -p 5302 -t 3 -R \
	--connect-timeout 3000 > /dev/null 2>&1
upf=$(sta_field "$AP_IF" "${STA_MAC[1]}" upload_frames)
pk=$(sta_field "$AP_IF" "${STA_MAC[1]}" packets)
log "download through the bridge: $pk packets to the station, $upf upload frames charged"
if [ "${pk:-0}" -gt 100 ] && [ "${upf:-0}" -lt $((pk / 20)) ]; then
	ktap_test_pass "bridged download: the AP's own frames are not counted as uploads ($upf)"
else
	ktap_test_fail "bridged download: the AP's own frames are not counted as uploads ($upf of $pk)"
fi
ktap_finished

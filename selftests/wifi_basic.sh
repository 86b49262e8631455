#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Baseline WiFi path with the default qdisc: two hwsim stations associate with a hostapd
# AP, ping it, and move TCP both ways to a server behind the AP's wired link.
. "$(dirname "$0")/lib.sh"

SECS=${AIRFAIR_IPERF_SECONDS:-3}
NSTA=2

ktap_header
require_root
require_cmd ip iw hostapd hostapd_cli wpa_supplicant iperf3 jq
require_module mac80211_hwsim veth
ktap_set_plan 7

if wifi_setup $NSTA band=2g mode=ht; then
	ktap_test_pass "associate_${NSTA}_stations" "${WIFI_ASSOC_TIME}s"
else
	ktap_test_fail "associate_${NSTA}_stations" "see the log above"
	ktap_skip_all "no association"
fi

if hostapd_cli -p "$WIFI_DIR/hostapd" status 2>/dev/null | grep -q '^state=ENABLED'; then
	ktap_test_pass hostapd_enabled
else
	ktap_test_fail hostapd_enabled
fi

ok=1
for i in $(seq $NSTA); do
	sta_ping "$i" || { ok=0; ktap_diag "sta$i: ping $WIFI_AP_IP failed:"; ktap_diag "$(cat "$WIFI_DIR/ping-sta$i.log")"; }
done
ktap_test_result ping_ap [ $ok = 1 ]

if server_setup 2; then
	ok=1
	for i in $(seq $NSTA); do sta_ping "$i" "$SERVER_IP" 2 || ok=0; done
	ktap_test_result ping_server [ $ok = 1 ]
else
	ktap_test_fail ping_server "server_setup failed"
fi

# One station at a time, then both together; every run must move data: 0.5 Mbit/s each,
# 0.05 on the debug kernel (KASAN and lockdep make its guest several times slower, and
# with pfifo and no medium one of two concurrent TCP flows can get little).
case $(uname -r) in *-airfair-debug) MIN_MBIT=0.05 ;; *) MIN_MBIT=0.5 ;; esac
check_rates() {	# NAME RATES...
	local name=$1 r bad=0
	shift
	for r in "$@"; do awk -v r="$r" -v m="$MIN_MBIT" 'BEGIN{exit !(r > m)}' || bad=1; done
	ktap_diag "$name: $* Mbit/s"
	[ $bad = 0 ]
}
down=$(iperf_tcp_down 1 "$SECS")
ktap_test_result tcp_download check_rates tcp_download $down
up=$(iperf_tcp_up 2 "$SECS")
ktap_test_result tcp_upload check_rates tcp_upload $up
both=$(iperf_tcp_down "1 2" "$SECS")
ktap_test_result tcp_download_concurrent check_rates tcp_download_concurrent $both

ktap_finished

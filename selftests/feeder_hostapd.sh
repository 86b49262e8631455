#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Weights where admins already set them: hostapd's configuration has airtime_mode=1 and
# airtime_sta_weight for two of three stations; airfair-feeder --hostapd-conf puts them on
# the airfair qdisc (hostapd's 256 = airfair's 1) and reads the file again when it changes.
# With --hostapd it follows hostapd's station events: with a round only every 10
# minutes, a station that leaves goes back to default and one that comes back gets its
# weight again within seconds, from the event; a restarted hostapd is attached again, and
# so is one a feeder with a private /tmp (systemd's PrivateTmp=) talks to.
#   AIRFAIR_FEEDER_BIN   the feeder (default build/tools/airfair-feeder)
. "$(dirname "$0")/lib.sh"

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant wpa_cli jq
require_module mac80211_hwsim
[ -x "$FEEDER" ] || ktap_skip_all "$FEEDER not built (make -C tools/airfair-feeder)"
airfair_load || ktap_skip_all "cannot load sch_airfair"
ktap_set_plan 8

export WIFI_HOSTAPD_EXTRA='airtime_mode=1
airtime_sta_weight=@STA2@ 512
airtime_sta_weight=@STA3@ 1024'
wifi_setup 3 band=2g mode=legacy || { ktap_test_fail "wifi setup"; ktap_finished; }
trap 'feeder_stop; wifi_cleanup' EXIT
tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g ||
	{ ktap_test_fail "airfair on $AP_IF"; ktap_finished; }
CTRL=$WIFI_DIR/hostapd/$AP_IF

weight() {	# station I's weight in the qdisc ("" if it has no class)
	tc -j -s class show dev "$AP_IF" | grep '^{' | jq -s -r --arg a "${STA_MAC[$1]}" '
		[.[] | (.station // empty) | select(.addr == $a)][0].weight // empty'
}
# wait_weights W1 W2 W3 SECONDS: until the qdisc shows those weights (each a regex)
wait_weights() {
	local i t0=$SECONDS
	while [ $((SECONDS - t0)) -lt "$4" ]; do
		for i in 1 2 3; do
			[[ $(weight "$i") =~ ^(${!i})$ ]] || { sleep 0.2; continue 2; }
		done
		return 0
	done
	return 1
}
wpa() { nsrun "sta$1" "wpa_cli -p $WIFI_DIR/wpa-sta$1 -i ${STA_IF[$1]} $2" >/dev/null; }

# Without --hostapd-conf the feeder leaves weights alone.
"$FEEDER" -i "$AP_IF" --once 2> "$WIFI_DIR/once.log"
w="$(weight 1)/$(weight 2)/$(weight 3)"
if [ "$w" = 1/1/1 ]; then
	ktap_test_pass "without --hostapd-conf: weights stay 1/1/1"
else
	ktap_test_fail "without --hostapd-conf: weights stay 1/1/1 (got $w)"
fi

"$FEEDER" -i "$AP_IF" --hostapd-conf "$WIFI_DIR/hostapd.conf" --hostapd "$CTRL" \
	--interval 600000 -v > "$WIFI_DIR/feeder.log" 2>&1 &
FEEDER_PID=$!
if wait_weights 1 2 4 10 && grep -q ": 2 station weight(s)" "$WIFI_DIR/feeder.log"; then
	ktap_test_pass "--hostapd-conf: airtime_sta_weight 512/1024 are the qdisc's 2/4, the rest 1"
else
	ktap_test_fail "--hostapd-conf: airtime_sta_weight 512/1024 are the qdisc's 2/4 (got $(weight 1)/$(weight 2)/$(weight 3))"
fi
if grep -q "attached to hostapd at $CTRL" "$WIFI_DIR/feeder.log"; then
	ktap_test_pass "--hostapd: attached to hostapd's control socket"
else
	ktap_test_fail "--hostapd: attached to hostapd's control socket"
fi

# A leaving station: back to the default, at once (the next round is 10 minutes away).
wpa 3 disconnect
t0=$EPOCHREALTIME
# (the station's class is gone, or back to weight 1 and source default)
if wait_weights 1 2 '1|' 10 &&
   grep -q "hostapd: AP-STA-DISCONNECTED ${STA_MAC[3]}" "$WIFI_DIR/feeder.log"; then
	dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	ktap_test_pass "station 3 leaves: hostapd's event, its class back to default in ${dt}s"
else
	ktap_test_fail "station 3 leaves: hostapd's event, its class back to default (weight '$(weight 3)')"
fi

# Coming back: the weight again, from AP-STA-CONNECTED.
wpa 3 reconnect
t0=$EPOCHREALTIME
if wait_weights 1 2 4 20 &&
   grep -q "hostapd: AP-STA-CONNECTED ${STA_MAC[3]}" "$WIFI_DIR/feeder.log"; then
	dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	ktap_test_pass "station 3 returns: hostapd's event, weight 4 again in ${dt}s"
else
	ktap_test_fail "station 3 returns: hostapd's event, weight 4 again (weight '$(weight 3)')"
fi

# The admin edits the configuration: read again at the next round (an event here).
sed -i "s/^airtime_sta_weight=${STA_MAC[2]} 512$/airtime_sta_weight=${STA_MAC[2]} 768/" \
	"$WIFI_DIR/hostapd.conf"
wpa 1 disconnect; wpa 1 reconnect
if wait_weights 1 3 4 20; then
	ktap_test_pass "configuration edited (512 -> 768): station 2's weight 3 at the next round"
else
	ktap_test_fail "configuration edited: station 2's weight 3 (got $(weight 1)/$(weight 2)/$(weight 3))"
fi

# hostapd restarting: the feeder attaches to the new one.
kill "$(cat "$WIFI_DIR/hostapd.pid")"
sleep 1
hostapd -B -P "$WIFI_DIR/hostapd.pid" -f "$WIFI_DIR/hostapd2.log" "$WIFI_DIR/hostapd.conf"
for _ in $(seq 40); do
	[ "$(grep -c "attached to hostapd at $CTRL" "$WIFI_DIR/feeder.log")" -ge 2 ] && break
	sleep 0.5
done
n=$(grep -c "attached to hostapd at $CTRL" "$WIFI_DIR/feeder.log")
if [ "$n" -ge 2 ]; then
	ktap_test_pass "hostapd restarted: the feeder attached again"
else
	ktap_test_fail "hostapd restarted: the feeder attached again ($n attachments)"
fi
sed "s/^/# feeder: /" "$WIFI_DIR/feeder.log"

# A private /tmp, as airfair-feeder@.service gives it: hostapd replies to the feeder's
# address, which must not be a file there. The run's files are reached through a bind
# mount outside /tmp, the feeder from a copy there (the tree may live under /tmp).
feeder_stop
if ! command -v unshare > /dev/null; then
	ktap_test_skip "private /tmp: no unshare(1) here"
	ktap_finished
fi
PRIV=/run/airfair-feeder-private.$$
mkdir -p "$PRIV/wifi" && cp "$FEEDER" "$PRIV/airfair-feeder"
unshare --mount --propagation private sh -c 'mount --bind "$1" "$2/wifi" &&
	mount -t tmpfs private-tmp /tmp && exec "$2/airfair-feeder" -i "$3" \
	--hostapd-conf "$2/wifi/hostapd.conf" --hostapd "$2/wifi/hostapd/$3" --interval 600000 -v' \
	sh "$WIFI_DIR" "$PRIV" "$AP_IF" > "$WIFI_DIR/feeder-private.log" 2>&1 &
FEEDER_PID=$!
for _ in $(seq 20); do
	grep -q "attached to hostapd" "$WIFI_DIR/feeder-private.log" && break
	sleep 0.5
done
# (the stations associate again with the restarted hostapd first)
wait_weights 1 3 4 20 || ktap_diag "before station 3 leaves: weights $(weight 1)/$(weight 2)/$(weight 3)"
wpa 3 disconnect
if wait_weights 1 3 '1|' 10 &&
   grep -q "attached to hostapd at $PRIV/wifi/hostapd/$AP_IF" "$WIFI_DIR/feeder-private.log" &&
   grep -q "hostapd: AP-STA-DISCONNECTED ${STA_MAC[3]}" "$WIFI_DIR/feeder-private.log"; then
	ktap_test_pass "private /tmp: attached, station 3's leaving seen and its class back to default"
else
	ktap_test_fail "private /tmp: attached and station 3's event seen (weight '$(weight 3)')"
fi
feeder_stop
sed "s/^/# feeder (private \/tmp): /" "$WIFI_DIR/feeder-private.log"
rm -f "$PRIV/airfair-feeder"
rmdir "$PRIV/wifi" "$PRIV"

ktap_finished

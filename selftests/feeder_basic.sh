#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# airfair-feeder on a mac80211_hwsim AP with two stations (802.11g) and airfair as the AP's
# root qdisc. The feeder must, within a few seconds, give each station's class source
# "feeder" and the rate nl80211 reports (rate_kbps == `iw station get` tx bitrate) with a
# loss estimate; follow a station that leaves (its class goes back to source "default") and
# comes back; survive the qdisc being deleted and re-added; and never fight a higher source
# (a hook-sourced station is left alone) nor take back what it did not set (static).
#   AIRFAIR_FEEDER_BIN   the feeder (default build/tools/airfair-feeder)
. "$(dirname "$0")/lib.sh"

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant jq
require_module mac80211_hwsim
[ -x "$FEEDER" ] || ktap_skip_all "$FEEDER not built (make -C tools/airfair-feeder)"
airfair_load || ktap_skip_all "cannot load sch_airfair"
ktap_set_plan 10

wifi_setup 2 band=2g mode=legacy || { ktap_test_fail "wifi setup"; ktap_finished; }
trap 'feeder_stop; wifi_cleanup' EXIT	# after wifi_setup, which installs its own
tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g ||
	{ ktap_test_fail "airfair on $AP_IF"; ktap_finished; }
# Some traffic so that rate control has a current rate for each station.
for i in 1 2; do sta_ping "$i" "" 5 & done
wait

# station I's class as one JSON object: {"addr", "source", "rate_kbps", "loss", "weight"}
cls() {
	tc -j -s class show dev "$AP_IF" | grep '^{' | jq -s -c --arg a "${STA_MAC[$1]}" '
		[.[] | (.station // empty) | select(.addr == $a)][0] // {}'
}
field() { cls "$1" | jq -r ".$2 // empty"; }
# nl80211 TX bitrate to station I in 100 kbit/s ("54.0" -> 540), "" if none.
nl_rate() { ap_tx_bitrate "$1" | awk 'NF { printf "%d", $1 * 10 + 0.5 }'; }

# 1: --once pushes every station
if "$FEEDER" -i "$AP_IF" --once 2> "$WIFI_DIR/once.log" &&
   [ "$(field 1 source)" = feeder ] && [ "$(field 2 source)" = feeder ]; then
	ktap_test_pass "--once: both stations' source is feeder"
else
	ktap_test_fail "--once: both stations' source is feeder ($(field 1 source)/$(field 2 source))"
	sed 's/^/# /' "$WIFI_DIR/once.log"
fi
tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g

# 2, 3: the daemon: source feeder and rate_kbps == nl80211's TX bitrate, within 5 s
"$FEEDER" -i "$AP_IF" --interval 200 -v -v > "$WIFI_DIR/feeder.log" 2>&1 &
FEEDER_PID=$!
t0=$EPOCHREALTIME
for i in 1 2; do
	ok=0 last=""
	for _ in $(seq 50); do
		c=$(cls "$i")
		src=$(jq -r '.source // empty' <<<"$c")
		kbps=$(jq -r '.rate_kbps // empty' <<<"$c")
		nl=$(nl_rate "$i")
		last="source=$src rate_kbps=$kbps iw=${nl:-?}00kbit/s"
		if [ "$src" = feeder ] && [ -n "$nl" ] && [ -n "$kbps" ] &&
		   [ $(((kbps + 50) / 100)) -eq "$nl" ]; then
			ok=1
			break
		fi
		sleep 0.1
	done
	dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	if [ $ok = 1 ]; then
		ktap_test_pass "sta$i: source feeder, rate $kbps kbit/s == iw tx bitrate $(ap_tx_bitrate "$i") Mbit/s (${dt}s)"
	else
		ktap_test_fail "sta$i: source feeder and rate == iw tx bitrate ($last after ${dt}s)"
	fi
done

# 4: loss estimate present and small on a loss-free medium
pids=""
for i in 1 2; do sta_ping "$i" "" 10 & pids+=" $!"; done
wait $pids	# not the feeder
sleep 0.5
l1=$(field 1 loss) l2=$(field 2 loss)
ktap_diag "loss (1/65536): sta1 ${l1:-none} sta2 ${l2:-none}; iw: $(iw dev "$AP_IF" station dump | awk '/tx (retries|failed|packets)/{printf "%s %s ", $2, $3}')"
if [ -n "$l1" ] && [ -n "$l2" ] && [ "$l1" -lt 3277 ] && [ "$l2" -lt 3277 ]; then
	ktap_test_pass "loss estimate below 5% on hwsim without a medium ($l1, $l2)"
else
	ktap_test_fail "loss estimate below 5% on hwsim without a medium (${l1:-none}, ${l2:-none})"
fi

# 5: a station that leaves goes back to the default source
nsrun sta2 "wpa_cli -p $WIFI_DIR/wpa-sta2 -i ${STA_IF[2]} disconnect" > /dev/null
ok=0
for _ in $(seq 50); do
	[ "$(field 2 source)" = default ] && { ok=1; break; }
	sleep 0.1
done
if [ $ok = 1 ] && [ "$(field 1 source)" = feeder ]; then
	ktap_test_pass "station that left: source back to default, the other stays feeder"
else
	ktap_test_fail "station that left: source back to default ($(field 2 source)), other $(field 1 source)"
fi

# 6: ... and is fed again when it comes back
nsrun sta2 "wpa_cli -p $WIFI_DIR/wpa-sta2 -i ${STA_IF[2]} reconnect" > /dev/null
# Wait (by the clock: each poll is slow under TCG) for it to be associated and authorized
# again, then send it traffic: rate control has no TX rate for a station that got no data.
t_end=$((SECONDS + 25))
until iw dev "$AP_IF" station get "${STA_MAC[2]}" 2>/dev/null | grep -q 'authorized:.*yes' ||
	[ $SECONDS -ge $t_end ]; do
	sleep 0.3
done
sta_ping 2 "" 3 > /dev/null 2>&1
ok=0
t_end=$((SECONDS + 15))
while [ $SECONDS -lt $t_end ]; do
	[ "$(field 2 source)" = feeder ] && { ok=1; break; }
	sta_ping 2 "" 1 > /dev/null 2>&1
done
if [ $ok = 1 ]; then
	ktap_test_pass "station that came back: source feeder again"
else
	ktap_test_fail "station that came back: source feeder again ($(field 2 source))"
fi

# 7: the qdisc goes away and comes back: the feeder waits, then feeds the new one
tc qdisc del dev "$AP_IF" root
sleep 0.6
tc qdisc replace dev "$AP_IF" root handle 2: airfair 11g
ok=0
t_end=$((SECONDS + 15))
while [ $SECONDS -lt $t_end ]; do
	[ "$(field 1 source)" = feeder ] && [ "$(field 2 source)" = feeder ] && { ok=1; break; }
	sleep 0.2
done
if [ $ok = 1 ] && kill -0 "$FEEDER_PID" 2>/dev/null; then
	ktap_test_pass "qdisc deleted and re-added: stations fed again"
else
	ktap_test_fail "qdisc deleted and re-added: stations fed again ($(field 1 source)/$(field 2 source))"
fi

# 8: a higher source (hook) is not overridden; 9: a static station that leaves keeps its
# static settings (only what the feeder set is taken back)
tc qdisc change dev "$AP_IF" root airfair station "${STA_MAC[1]}" rate 6mbit erp source hook 2>/dev/null ||
	tc qdisc change dev "$AP_IF" root airfair station "${STA_MAC[1]}" rate 6mbit erp
sleep 0.6
s1=$(field 1 source) k1=$(field 1 rate_kbps)
if [ "$s1" = hook ] && [ "$k1" = 6000 ]; then
	ktap_test_pass "a hook-sourced station is left alone"
elif [ "$s1" != hook ]; then
	ktap_test_skip "a hook-sourced station is left alone" "tc cannot set source hook ($s1)"
else
	ktap_test_fail "a hook-sourced station is left alone ($s1 $k1 kbit/s)"
fi
tc qdisc change dev "$AP_IF" root airfair station "${STA_MAC[2]}" rate 6mbit erp source static 2>/dev/null
feeder_stop
"$FEEDER" -i "$AP_IF" --interval 200 -v > "$WIFI_DIR/feeder2.log" 2>&1 &
FEEDER_PID=$!
sleep 0.6
# sta2 is fed (feeder > static); after it leaves, the feeder takes back its own setting
nsrun sta2 "wpa_cli -p $WIFI_DIR/wpa-sta2 -i ${STA_IF[2]} disconnect" > /dev/null
sleep 1
s2=$(field 2 source)
fake=02:00:00:aa:bb:cc
tc qdisc change dev "$AP_IF" root airfair station $fake rate 12mbit erp weight 3
sleep 0.6
sf=$(tc -j -s class show dev "$AP_IF" | grep '^{' | jq -s -r --arg a $fake \
	'[.[] | (.station // empty) | select(.addr == $a)][0].source // "none"')
if [ "$s2" = default ] && [ "$sf" = static ]; then
	ktap_test_pass "feeder takes back only its own stations (left: $s2, static never associated: $sf)"
else
	ktap_test_fail "feeder takes back only its own stations (left: $s2, static: $sf)"
fi

# 10: still running, no crash; errors logged clearly, not per round
if kill -0 "$FEEDER_PID" 2>/dev/null; then
	ktap_test_pass "feeder still running"
else
	ktap_test_fail "feeder still running"
fi
feeder_stop
ktap_diag "feeder log (first round, -v -v):"
ktap_diag "$(grep -m 8 -E 'station|rate' "$WIFI_DIR/feeder.log")"
ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sch_airfair as the root qdisc of a mac80211_hwsim AP: two stations with static rates
# 6 and 54 Mbit/s receive a saturating UDP download. The qdisc's own airtime accounting
# must split the air 50/50 within 2%, and the backlog must sit in airfair, not in
# mac80211's queues (its debugfs aqm fq_backlog stays small).
. "$(dirname "$0")/lib.sh"

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant iperf3 jq
require_module mac80211_hwsim
airfair_load || ktap_skip_all "cannot load sch_airfair"
ktap_set_plan 3

wifi_setup 2 band=2g mode=legacy || { ktap_test_fail "wifi setup"; ktap_finished; }
server_setup 0 || { ktap_test_fail "server setup"; ktap_finished; }
aqm=$(ls /sys/kernel/debug/ieee80211/"$AP_PHY"/aqm 2>/dev/null)

tc qdisc replace dev "$AP_IF" root airfair 11g utilisation 50 \
	station "${STA_MAC[1]}" rate 6mbit station "${STA_MAC[2]}" rate 54mbit
if tc qdisc show dev "$AP_IF" | grep -q airfair; then
	ktap_test_pass "airfair is the AP's root qdisc"
else
	ktap_test_fail "airfair is the AP's root qdisc"
fi

# Airtime of both stations, as the qdisc accounted it, at one instant.
airtimes() {
	tc -j -s class show dev "$AP_IF" | grep '^{' | jq -s -r \
		--arg a "${STA_MAC[1]}" --arg b "${STA_MAC[2]}" '
		[.[] | (.station // .)] as $s
		| "\([$s[] | select(.addr == $a)][0].airtime_us // 0) \([$s[] | select(.addr == $b)][0].airtime_us // 0)"'
}
iperf_udp_down "1 2" 60M 10 > "$WIFI_DIR/goodput" &
pid=$!
peak_q=0 peak_m=0
# The clients start a little apart, and after they stop the slow station's backlog
# drains alone: measure only in a window while both are backlogged.
sleep 2.5
read -r a0 b0 < <(airtimes)
t_end=$((SECONDS + 4))
while [ $SECONDS -lt $t_end ]; do
	q=$(qdisc_counters "$AP_IF" qlen)
	m=$([ -n "$aqm" ] && sed -n 's/^R fq_backlog //p' "$aqm")
	[ "$q" -gt "$peak_q" ] && peak_q=$q
	[ "${m:-0}" -gt "$peak_m" ] && peak_m=${m:-0}
	sleep 0.15
done
read -r a1 b1 < <(airtimes)
wait $pid
read -r g1 g2 < <(tr '\n' ' ' < "$WIFI_DIR/goodput")
read -r s1 s2 < <(awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) \
	'BEGIN { if (a + b > 0) printf "%.2f %.2f\n", a * 100 / (a + b), b * 100 / (a + b); else print "0 0" }')
log "goodput 6 Mbit/s station: $g1 Mbit/s, 54 Mbit/s station: $g2 Mbit/s"
log "airtime shares (qdisc accounting): $s1% / $s2%"
if awk -v a="$s1" 'BEGIN { exit !(a >= 48 && a <= 52) }'; then
	ktap_test_pass "airtime split 50/50 within 2% at 6 vs 54 Mbit/s ($s1 / $s2)"
else
	ktap_test_fail_timing "airtime split 50/50 within 2% at 6 vs 54 Mbit/s ($s1 / $s2)"
fi
log "peak backlog: airfair $peak_q packets, mac80211 fq_backlog $peak_m packets"
if [ -z "$aqm" ]; then
	# Debian's kernels are built without CONFIG_MAC80211_DEBUGFS.
	ktap_test_skip "backlog lives in airfair ($peak_q packets)" \
		"mac80211 has no debugfs aqm file on this kernel (CONFIG_MAC80211_DEBUGFS)"
elif [ "$peak_q" -gt 50 ] && [ "$peak_m" -lt $((peak_q / 4)) ]; then
	ktap_test_pass "backlog lives in airfair ($peak_q) not in mac80211 ($peak_m)"
else
	ktap_test_fail_timing "backlog lives in airfair ($peak_q) not in mac80211 ($peak_m; aqm=${aqm:-missing})"
fi
ktap_finished

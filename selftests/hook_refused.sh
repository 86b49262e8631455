#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Frames the driver never sent are no loss, and hand their pending airtime back.
# airfair-medium's AP queue is cut to 6 frames and airfair on the AP passes everything
# down (no pending limit, the meter at 100 % of real time: several times what the
# dilated channel carries), so a UDP flood to a clean 802.11g link (SNR 35 dB)
# overflows the medium's queue and most frames come back refused, in a TX status that
# names no rate. The hook's loss for the station must be the air's (within 0.05 of the
# medium's failed attempts / attempts on the link; the loss weighs attempts by the air
# they took, mac80211 patch 393, and a refused frame took none), not the refused share;
# its MPDUs acknowledged per PPDU attempt (patch 396) must count no refused frame as an
# attempt (at least 0.9 of the medium's delivered / attempts); and once the flood is
# over nothing may stay pending (a refused frame's estimate is handed back on its
# status like any other), else a pending limit would hold the qdisc back for good.
# Needs the patched mac80211 (vm/run.sh --modules build/KVER/mac80211); skips without it.
# KTAP; exit 0 pass, 1 fail, 4 skip.   AIRFAIR_MEDIUM_K (default 6)
. "$(dirname "$0")/lib.sh"

MEDIUM=${AIRFAIR_MEDIUM_BIN:-$AIRFAIR_REPO/build/testbed/medium/airfair-medium}
K=${AIRFAIR_MEDIUM_K:-6}
SECS=10

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant iperf3 jq
require_module mac80211_hwsim
[ -x "$MEDIUM" ] || ktap_skip_all "$MEDIUM not built (make medium)"
require_hook
airfair_load || ktap_skip_all "cannot load sch_airfair"
for _ in $(seq 20); do dmesg | grep -q 'bound to the mac80211 TX report hook' && break; sleep 0.1; done
ktap_set_plan 5
trap wifi_cleanup EXIT

wifi_workdir
cat > "$WIFI_DIR/medium.conf" <<EOF
seed 9
dilation $K
stats-interval 500
phy 2g 11g
pair 0 1 snr 35
queue-limit 6
EOF
export AIRFAIR_MEDIUM_CMD="$MEDIUM -c $WIFI_DIR/medium.conf -S \$AIRFAIR_MEDIUM_STATS"
if ! wifi_setup 1 band=2g mode=legacy || ! server_setup 0 ||
	! tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g no-pending-limit utilisation 100%; then
	ktap_test_fail "medium (queue-limit 6), AP, 1 station and airfair up"
	ktap_skip_rest "no set-up"
	ktap_finished
fi
ktap_test_pass "medium (queue-limit 6), AP, 1 station and airfair up"
for _ in $(seq 10); do sta_ping 1 "" 1 > /dev/null 2>&1 && break; done

# ap->sta1: "attempts delivered queue_drops" from a copy of the medium's live stats
link1() {
	jq -r '"\([.medium.links[] | select(.tx == 0 and .rx == 1) | .attempts] | add // 0) \([.medium.links[] | select(.tx == 0 and .rx == 1) | .frames] | add // 0) \(.daemon.queue_drops // 0)"' "$1" 2>/dev/null || echo "0 0 0"
}
# the hook's figures for sta1 as the qdisc holds them: loss (1/65536), source, pending
# airtime of the station and of the PHY (us)
hook_sta() {
	tc -j -s class show dev "$AP_IF" 2>/dev/null | grep '^{' | jq -s -r --arg a "${STA_MAC[1]}" \
		'[.[] | (.station // .) | select(.addr == $a)][0] |
		"\(.loss // "-") \(.source // "-") \(.pending_airtime_us // "-") \(.phy_pending_airtime_us // "-") \(.acked // "-")"' 2>/dev/null
}

iperf_servers --persistent $((IPERF_PORT_BASE + 1)) || true
iperf_udp_client "$WIFI_DIR/iperf-sta1.json" $((SECS + 4)) "$(sta_ns 1)" -- \
	-c "$SERVER_IP" -p $((IPERF_PORT_BASE + 1)) -R -u -b 60M -l 1400 &
cli=$!
sleep 4	# the loss EWMA forgets the start
cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/m0.json"
sleep "$SECS"
cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/m1.json"
read -r loss src pend phy acked <<< "$(hook_sta)"
ktap_diag "under the flood: pending airtime sta1 ${pend:-?} us, PHY ${phy:-?} us"
wait "$cli"
sleep 2
read -r a0 f0 q0 <<< "$(link1 "$WIFI_DIR/m0.json")"
read -r a1 f1 q1 <<< "$(link1 "$WIFI_DIR/m1.json")"
att=$((a1 - a0)) del=$((f1 - f0)) refused=$((q1 - q0))
ktap_diag "ap->sta1 in ${SECS} s: $att attempts, $del delivered, $refused frames refused by the medium's full queue; hook loss ${loss:-?}/65536 (source ${src:-?})"

if [ "$refused" -ge "$att" ] && [ "$att" -ge 50 ]; then
	ktap_test_pass "the medium refused more frames than it tried ($refused refused, $att attempts)"
else
	ktap_test_fail "the medium refused more frames than it tried ($refused refused, $att attempts; want refused >= attempts >= 50)"
fi
if [ "$src" != hook ] || [ "$att" -lt 50 ]; then
	ktap_test_fail "the hook's loss is the air's, not the refused share (source ${src:-none}, $att attempts)"
elif awk -v l="$loss" -v a="$att" -v d="$del" \
	'BEGIN { m = (a - d) / a; exit !(l / 65536 <= m + 0.05 && l / 65536 >= m - 0.05) }'; then
	ktap_test_pass "the hook's loss is the air's: $(awk -v l="$loss" 'BEGIN{printf "%.3f", l / 65536}') against the medium's $(awk -v a="$att" -v d="$del" 'BEGIN{printf "%.3f", (a - d) / a}')"
else
	ktap_test_fail "the hook's loss is the air's: $(awk -v l="$loss" 'BEGIN{printf "%.3f", l / 65536}') against the medium's $(awk -v a="$att" -v d="$del" 'BEGIN{printf "%.3f", (a - d) / a}') (refused share $(awk -v r="$refused" -v a="$att" 'BEGIN{printf "%.2f", r / (r + a)}'))"
fi
# MPDUs acknowledged per PPDU attempt (patch 396): a refused frame's status names no
# rate and is no attempt, so on this clean link nearly every attempt delivers its MPDU
if awk -v k="$acked" -v a="$att" -v d="$del" 'BEGIN { exit !(a > 0 && k + 0 >= 0.9 * d / a) }'; then
	ktap_test_pass "the hook counts no refused frame as an attempt: acked $acked per PPDU (medium $(awk -v a="$att" -v d="$del" 'BEGIN{printf "%.3f", d / a}'))"
else
	ktap_test_fail "the hook counts no refused frame as an attempt: acked ${acked:-?} per PPDU (medium $(awk -v a="$att" -v d="$del" 'BEGIN{printf "%.3f", d / a}'); want >= 0.9 of it)"
fi
read -r _ _ pend phy _ <<< "$(hook_sta)"
# one frame's estimate may stay behind a status hwsim rejected (docs/mac80211-hook.md,
# "Pending airtime left over"): 1400 bytes at 54 Mbit/s take about 250 us
if [[ "$phy" =~ ^[0-9]+$ ]] && [ "$phy" -le 300 ]; then
	ktap_test_pass "nothing pending once the flood is over (sta1 $pend us, PHY $phy us) after $refused refused frames"
else
	ktap_test_fail "nothing pending once the flood is over (sta1 ${pend:-?} us, PHY ${phy:-?} us; want <= 300) after $refused refused frames"
	ktap_diag "medium: $(jq -c '.daemon | {kernel_rejects, status_retries, status_retry_rejects, queue_drops}' "$AIRFAIR_MEDIUM_STATS" 2>/dev/null)"
fi
ktap_finished

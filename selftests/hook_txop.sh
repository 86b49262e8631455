#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The AP's TXOP limits reach airfair through the mac80211 hook (patch 403): hostapd with
# tx_queue_data3_burst=1.8 (1792 us for AC_BK, where defer-data sends the AP's data), a
# hwsim 802.11g AP and one station, `airfair 11g` with no txop option. The station's
# cost per data frame (class stats, a_ns) must be the model's with a 1792 us TXOP in BK
# at the rate and loss the hook reports (airtime-calc --txop), not the one without (at
# 54 Mbit/s five frames fill the burst: about 104 us less); and `txop 0 0 0 0` from tc
# must not override what the hook says.
# Needs the patched mac80211 (vm/run.sh --modules build/KVER/mac80211); SKIPs otherwise.
. "$(dirname "$0")/lib.sh"

CALC=${AIRFAIR_AIRTIME_CALC:-$AIRFAIR_REPO/build/tools/airtime-calc}

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant jq
require_module mac80211_hwsim
require_hook
[ -x "$CALC" ] || ktap_skip_all "airtime-calc not built ($CALC)"
airfair_load || ktap_skip_all "cannot load sch_airfair"
ktap_set_plan 3

WIFI_HOSTAPD_EXTRA="tx_queue_data3_burst=1.8" wifi_setup 1 band=2g mode=legacy ||
	{ ktap_test_fail "wifi setup"; ktap_finished; }
tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g

sta() {
	tc -j -s class show dev "$AP_IF" | grep '^{' | jq -c --arg a "${STA_MAC[1]}" \
		'select(.station.addr == $a) | .station'
}
# the model's cost a (ns) of a deferred data frame at the station's rate and loss
model_a() {
	local kbps=$1 loss=$2
	shift 2
	"$CALC" --phy 11g --legacy "$(awk -v k="$kbps" 'BEGIN {printf "%g", k / 1000}')" --erp \
		--loss "$(awk -v l="$loss" 'BEGIN {printf "%.6f", l / 65536}')" --ppdu-loss 0 \
		--ac bk "$@" --json | jq -r .cost_a_ns
}

s=""
for _ in $(seq 30); do
	sta_ping 1 "" 3 > /dev/null 2>&1
	s=$(sta)
	[ "$(jq -r .source <<< "$s")" = hook ] && [ "$(jq -r '.rate_kbps // 0' <<< "$s")" -gt 0 ] && break
done
src=$(jq -r .source <<< "$s") kbps=$(jq -r '.rate_kbps // 0' <<< "$s") loss=$(jq -r '.loss // 0' <<< "$s")
if [ "$src" = hook ] && [ "$kbps" -gt 0 ]; then
	ktap_test_pass "station reported by the hook: $kbps kbit/s, loss $loss/65536"
else
	ktap_test_fail "station reported by the hook (source ${src:-none}, ${kbps} kbit/s)"
	ktap_finished
fi

# the station's own cost a and the model's with and without the TXOP, read together
# (the hook's loss moves between reports); its open network has no CCMP bytes
# (sec_len 0) where airtime-calc counts 16: a few us at most
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(d <= t)}'; }
check_txop() {
	local what=$1 a want none ok=0
	for _ in $(seq 10); do
		s=$(sta)
		a=$(jq -r .cost_a_ns <<< "$s")
		kbps=$(jq -r .rate_kbps <<< "$s") loss=$(jq -r .loss <<< "$s")
		want=$(model_a "$kbps" "$loss" --txop 1792) none=$(model_a "$kbps" "$loss")
		if near "$a" "$want" 5000 && ! near "$a" "$none" 50000; then
			ok=1
			break
		fi
		sta_ping 1 "" 2 > /dev/null 2>&1
	done
	if [ $ok = 1 ]; then
		ktap_test_pass "$what: cost a $a ns, the model's with the 1792 us TXOP $want (without $none)"
	else
		ktap_test_fail "$what: cost a ${a:-?} ns, the model's with the 1792 us TXOP ${want:-?}, without ${none:-?} (at $kbps kbit/s, loss $loss)"
	fi
}
check_txop "hostapd's tx_queue_data3_burst=1.8 through the hook"
tc qdisc change dev "$AP_IF" root handle 1: airfair txop 0 0 0 0
check_txop "tc's txop 0 0 0 0 does not override the hook"
ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sch_airfair bound to the patched mac80211's TX report hook (mac80211-patches/): hwsim AP
# (802.11g) + 2 stations, airfair on the AP. Each station's class must show source "hook"
# and rate_kbps == `iw station get` tx bitrate, loss ~0 on a loss-free medium; the feeder
# cannot override it; rmmod/insmod of the qdisc while the hook is live is safe.
# Needs the patched module in the guest: vm/run.sh --modules build/KVER/mac80211 (built by
# mac80211-patches/build.sh KVER); SKIPs with the reason otherwise.
. "$(dirname "$0")/lib.sh"

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant jq
require_module mac80211_hwsim
require_hook
airfair_load || ktap_skip_all "cannot load sch_airfair"
ktap_set_plan 6

for _ in $(seq 20); do dmesg | grep -q 'bound to the mac80211 TX report hook' && break; sleep 0.1; done
if dmesg | grep -q 'bound to the mac80211 TX report hook'; then
	ktap_test_pass "sch_airfair bound to the hook"
else
	ktap_test_fail "sch_airfair bound to the hook"
fi

wifi_setup 2 band=2g mode=legacy || { ktap_test_fail "wifi setup"; ktap_finished; }
tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g

cls() {
	tc -j -s class show dev "$AP_IF" | grep '^{' | jq -s -c --arg a "${STA_MAC[$1]}" '
		[.[] | (.station // empty) | select(.addr == $a)][0] // {}'
}
field() { cls "$1" | jq -r ".$2 // empty"; }
nl_rate() { ap_tx_bitrate "$1" | awk 'NF { printf "%d", $1 * 10 + 0.5 }'; }

pids=""
for i in 1 2; do sta_ping "$i" "" 10 & pids+=" $!"; done
wait $pids
ok=0 msg=""
for _ in $(seq 30); do
	ok=1 msg=""
	for i in 1 2; do
		src=$(field "$i" source) kbps=$(field "$i" rate_kbps) nl=$(nl_rate "$i")
		msg+="sta$i: $src ${kbps:-?} kbit/s vs iw ${nl:-?}00; "
		[ "$src" = hook ] && [ -n "$nl" ] && [ -n "$kbps" ] &&
			[ $(((kbps + 50) / 100)) -eq "$nl" ] || ok=0
	done
	[ $ok = 1 ] && break
	sta_ping 1 "" 2
done
if [ $ok = 1 ]; then
	ktap_test_pass "source hook, rate == iw tx bitrate ($msg)"
else
	ktap_test_fail "source hook, rate == iw tx bitrate ($msg)"
fi

# the uplink: the rate the AP last received data from each station at (iw's rx bitrate)
nl_rx_rate() {
	iw dev "$AP_IF" station get "${STA_MAC[$1]}" 2>/dev/null |
		awk '/rx bitrate:/{ printf "%d", $3 * 10 + 0.5; exit }'
}
ok=0 msg=""
for _ in $(seq 30); do
	ok=1 msg=""
	for i in 1 2; do
		kbps=$(field "$i" up.rate_kbps) nl=$(nl_rx_rate "$i")
		msg+="sta$i: ${kbps:-?} kbit/s vs iw ${nl:-?}00; "
		[ -n "$nl" ] && [ -n "$kbps" ] && [ $(((kbps + 50) / 100)) -eq "$nl" ] || ok=0
	done
	[ $ok = 1 ] && break
	sta_ping 1 "" 2
	sta_ping 2 "" 2
done
if [ $ok = 1 ]; then
	ktap_test_pass "hook uplink rate == iw rx bitrate ($msg)"
else
	ktap_test_fail "hook uplink rate == iw rx bitrate ($msg)"
fi

l1=$(field 1 loss) l2=$(field 2 loss)
if [ -n "$l1" ] && [ "$l1" -lt 3277 ] && [ -n "$l2" ] && [ "$l2" -lt 3277 ]; then
	ktap_test_pass "hook loss below 5% on a loss-free medium ($l1, $l2 /65536)"
else
	ktap_test_fail "hook loss below 5% on a loss-free medium (${l1:-none}, ${l2:-none})"
fi

if [ -x "$FEEDER" ]; then
	"$FEEDER" -i "$AP_IF" --once 2>/dev/null
	s=$(field 1 source)
	if [ "$s" = hook ]; then
		ktap_test_pass "the feeder does not override the hook"
	else
		ktap_test_fail "the feeder does not override the hook ($s)"
	fi
else
	ktap_test_skip "the feeder does not override the hook" "feeder not built"
fi

# rmmod/insmod of the qdisc with the hook live and traffic flowing
sta_ping 1 "" 20 > /dev/null 2>&1 &
ppid=$!
okr=1
for _ in 1 2 3; do
	tc qdisc del dev "$AP_IF" root 2>/dev/null
	rmmod sch_airfair || okr=0
	airfair_load || okr=0
	tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g || okr=0
	sleep 0.5
done
wait $ppid
if [ $okr = 1 ] && [ "$(dmesg | grep -c 'bound to the mac80211 TX report hook')" -ge 4 ]; then
	ktap_test_pass "rmmod/insmod with the hook live: unbinds and binds again"
else
	ktap_test_fail "rmmod/insmod with the hook live (ok=$okr, binds $(dmesg | grep -c 'bound to the mac80211 TX report hook'))"
fi
ktap_finished

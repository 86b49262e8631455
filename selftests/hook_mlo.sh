#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The mac80211 TX report hook with an MLO station: mac80211 cannot turn a legacy rate
# into a rate_info for a station of an AP MLD (ieee80211_get_sband() warns on an MLD
# interface), so the hook must report such stations without it. hwsim with mlo=1, a
# one-link AP MLD and one MLO station set up through nl80211 (helpers/mld_ap.c; bookworm's
# hostapd 2.10 cannot run an AP MLD), airfair at the root, unacknowledged traffic to the
# station: the station's class is fed by the hook and the kernel logs no warning.
# Needs the patched mac80211 (vm/run.sh --modules build/KVER/mac80211); SKIPs otherwise.
. "$(dirname "$0")/lib.sh"

MLD_AP=$AIRFAIR_REPO/build/selftests/mld_ap
STA_MLD=02:aa:00:00:00:01
# mac80211 finds the station of a TX status by the frame's addresses, and hwsim rewrites
# them to the link addresses: each link address is its MLD's, as hostapd's default.
STA_LINK=$STA_MLD

ktap_header
require_root
require_cmd tc iw jq ping
[ -x "$MLD_AP" ] || ktap_skip_all "helper $MLD_AP not built (make selftest-helpers)"
require_module mac80211
require_hook
airfair_load || ktap_skip_all "cannot load sch_airfair"

if [ -d /sys/module/mac80211_hwsim ]; then
	rmmod mac80211_hwsim || ktap_skip_all "mac80211_hwsim is in use"
fi
modprobe mac80211_hwsim radios=1 mlo=1 2>/dev/null ||
	ktap_skip_all "mac80211_hwsim has no mlo parameter on $(uname -r)"
cleanup() {
	tc qdisc del dev "$dev" root 2>/dev/null
	rmmod mac80211_hwsim 2>/dev/null
}
trap cleanup EXIT

dev=""
for _ in $(seq 20); do
	dev=$(ls /sys/class/ieee80211/*/device/net/ 2>/dev/null | head -n 1)
	[ -n "$dev" ] && break
	sleep 0.1
done
[ -n "$dev" ] || ktap_skip_all "no hwsim interface appeared"
ktap_set_plan 4

ap_link=$(cat "/sys/class/net/$dev/address")
iw dev "$dev" set type __ap && ip link set "$dev" up
"$MLD_AP" "$dev" 2412 "$ap_link" "$STA_MLD" "$STA_LINK"
rc=$?
[ $rc = 4 ] && ktap_skip_all "no AP MLD support on $(uname -r)"
if [ $rc = 0 ] && iw dev "$dev" station get "$STA_MLD" > /dev/null 2>&1; then
	ktap_test_pass "one-link AP MLD with an MLO station $STA_MLD (link $STA_LINK)"
else
	ktap_test_fail "one-link AP MLD with an MLO station (mld_ap exit $rc)"
	ktap_finished
fi

tc qdisc replace dev "$dev" root handle 1: airfair 11g
ip addr add 10.99.0.1/24 dev "$dev"
ip neigh replace 10.99.0.2 lladdr "$STA_MLD" dev "$dev" nud permanent
before=$(dmesg | wc -l)

cls() {
	tc -j -s class show dev "$dev" | grep '^{' | jq -s -c --arg a "$STA_MLD" '
		[.[] | (.station // empty) | select(.addr == $a)][0] // {}'
}
# No station answers: every frame goes out with all its retries and is reported lost.
src="" loss="" pkts="" kbps=""
for _ in $(seq 10); do
	ping -q -c 20 -i 0.02 -w 2 10.99.0.2 > /dev/null 2>&1
	c=$(cls)
	src=$(jq -r '.source // empty' <<<"$c") loss=$(jq -r '.loss // empty' <<<"$c")
	pkts=$(jq -r '.packets // empty' <<<"$c") kbps=$(jq -r '.rate_kbps // empty' <<<"$c")
	[ "$src" = hook ] && [ "${kbps:-0}" -gt 0 ] && [ "${loss:-0}" -gt 32768 ] && break
done
if [ -n "$pkts" ] && [ "$pkts" -gt 0 ]; then
	ktap_test_pass "the MLO station's traffic goes through its own class ($pkts packets)"
else
	ktap_test_fail "the MLO station's traffic goes through its own class (class: $(cls))"
fi
if [ "$src" = hook ] && [ "${kbps:-0}" -gt 0 ] && [ "${loss:-0}" -gt 32768 ]; then
	ktap_test_pass "the hook reports the MLO station (source hook, $kbps kbit/s, loss $loss/65536)"
else
	ktap_test_fail "the hook reports the MLO station (source ${src:-none}, ${kbps:-no} kbit/s, loss ${loss:-none})"
fi

bad=$(dmesg | tail -n +$((before + 1)) | grep -E 'WARNING:|BUG:' | head -n 3)
if [ -z "$bad" ]; then
	ktap_test_pass "no kernel warning while reporting the MLO station"
else
	ktap_test_fail "no kernel warning while reporting the MLO station: $bad"
fi
ktap_finished

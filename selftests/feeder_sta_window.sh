#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# airfair-feeder --sta-window: hostapd advertises the stations' best-effort CWmin by
# their number (7 for up to four, 15 for five to eight; a station the qdisc shows only
# uploading over TCP counts half), changed as stations come and go and as their
# traffic changes, and put back when the feeder stops. Without the option the feeder
# does so only where the mac80211 hook reports the stations (run in the selftests on
# the stock mac80211, and in the hook suite with it). Judged where it acts:
# airfair-medium reads the AP's WMM element as the stations do, and its stats show the
# window each station contends with. Five 802.11g stations, two of them away at first.
#   AIRFAIR_FEEDER_BIN   the feeder (default build/tools/airfair-feeder)
. "$(dirname "$0")/lib.sh"

MEDIUM=${AIRFAIR_MEDIUM_BIN:-$AIRFAIR_REPO/build/testbed/medium/airfair-medium}

ktap_header
require_root
require_cmd tc iw hostapd hostapd_cli wpa_supplicant wpa_cli jq
require_module mac80211_hwsim
[ -x "$FEEDER" ] || ktap_skip_all "$FEEDER not built (make -C tools/airfair-feeder)"
[ -x "$MEDIUM" ] || ktap_skip_all "$MEDIUM not built (make medium)"
airfair_load || ktap_skip_all "cannot load sch_airfair"
ktap_set_plan 9
trap 'feeder_stop; wifi_cleanup' EXIT

wifi_workdir
printf 'seed 7\ndilation 2\nstats-interval 250\nphy 2g 11g\ndefault snr 40\n' > "$WIFI_DIR/medium.conf"
export AIRFAIR_MEDIUM_CMD="$MEDIUM -c $WIFI_DIR/medium.conf -S \$AIRFAIR_MEDIUM_STATS"
if ! wifi_setup 5 band=2g mode=legacy || ! server_setup 0; then
	ktap_test_fail "wifi setup"
	ktap_finished
fi
tc qdisc replace dev "$AP_IF" root handle 1: airfair 11g ||
	{ ktap_test_fail "airfair on $AP_IF"; ktap_finished; }
CTRL=$WIFI_DIR/hostapd/$AP_IF

wpa() { nsrun "sta$1" "wpa_cli -p $WIFI_DIR/wpa-sta$1 -i ${STA_IF[$1]} $2" >/dev/null; }
associated() { hostapd_cli -p "$WIFI_DIR/hostapd" -i "$AP_IF" all_sta 2>/dev/null | grep -c '\[ASSOC\]'; }
# be_cwmin I...: the best-effort CWmin each station's radio contends with in the medium
# ("-" for a radio it does not show). One jq for all: each start costs a TCG guest
# about 0.4 s of CPU, which a poll loop takes from the traffic under test.
be_cwmin() {
	jq -r --arg rs "$*" '. as $s | [$rs | splits(" ") | tonumber | . as $r |
		(first($s.medium.radios[] | select(.radio == $r) | .edca.be[1]) // "-") |
		tostring] | join(" ")' "$AIRFAIR_MEDIUM_STATS" 2>/dev/null
}
# wait_cwmin WANT SECONDS I...: until every station I shows CWmin WANT
wait_cwmin() {
	local want=$1 secs=$2 t0=$SECONDS
	shift 2
	while [ $((SECONDS - t0)) -lt "$secs" ]; do
		[[ " $(be_cwmin "$@") " =~ ^(\ $want)+\ $ ]] && return 0
		sleep 0.5
	done
	return 1
}
wait_associated() { # N SECONDS
	local t0=$SECONDS
	while [ $((SECONDS - t0)) -lt "$2" ]; do
		[ "$(associated)" = "$1" ] && return 0
		sleep 0.25
	done
	return 1
}

# Bad invocations change nothing: refused before anything is set.
e1=$("$FEEDER" -i "$AP_IF" --sta-window --no-hostapd 2>&1); r1=$?
e2=$("$FEEDER" -i "$AP_IF" --hostapd "$CTRL" --sta-window --once 2>&1); r2=$?
if [ $r1 = 2 ] && [ $r2 = 2 ] && grep -q "needs hostapd" <<<"$e1$e2" &&
   [ "$(be_cwmin 1)" = 15 ]; then
	ktap_test_pass "--sta-window with --no-hostapd, or with --once: refused (exit 2), nothing set"
else
	ktap_test_fail "--sta-window misuse refused: exit $r1/$r2: $e1 / $e2; CWmin $(be_cwmin 1)"
fi

wpa 4 disconnect
wpa 5 disconnect
wait_associated 3 20 || ktap_diag "hostapd has $(associated) stations associated, not 3"
"$FEEDER" -i "$AP_IF" --hostapd "$CTRL" --sta-window --interval 600000 -v \
	> "$WIFI_DIR/feeder.log" 2>&1 &
FEEDER_PID=$!
if wait_cwmin 7 20 1 2 3 && grep -q ": 3 station(s), 0 of them uploading only: their best-effort CWmin 7" "$WIFI_DIR/feeder.log"; then
	ktap_test_pass "three stations: hostapd advertises CWmin 7, and they contend with it ($(be_cwmin 1 2 3))"
else
	ktap_test_fail "three stations: CWmin 7 at the stations (got $(be_cwmin 1 2 3))"
fi

# Five: back to 15, from hostapd's events (the feeder's rounds are ten minutes apart).
wpa 4 reconnect
wpa 5 reconnect
t0=$EPOCHREALTIME
if wait_associated 5 30 && wait_cwmin 15 20 1 2 3 4 5; then
	dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	ktap_test_pass "five stations: CWmin 15 at all five in ${dt}s"
else
	ktap_test_fail "five stations: CWmin 15 at all five (got $(be_cwmin 1 2 3 4 5), $(associated) associated)"
fi

# Two of the five upload over TCP: 2 + 2 + 2 + 1 + 1 slots, CWmin 7 while the qdisc
# counts their flows, then 15 again. (Their rates are the feeder's first, at association,
# with rounds ten minutes apart: slow uploads, enough to be counted.)
t0=$SECONDS
iperf_tcp_up "4 5" 16 > "$WIFI_DIR/uploads.out" &
UP_PID=$!
if wait_cwmin 7 14 1 2 3 4 5 &&
   grep -q ": 5 station(s), 2 of them uploading only: their best-effort CWmin 7" "$WIFI_DIR/feeder.log"; then
	ktap_test_pass "two of five uploading: CWmin 7 at all five ($(be_cwmin 1 2 3 4 5)) $((SECONDS - t0)) s after iperf3 started"
else
	ktap_test_fail "two of five uploading: CWmin 7 at all five (got $(be_cwmin 1 2 3 4 5))"
fi
wait "$UP_PID"
t0=$SECONDS
if wait_cwmin 15 25 1 2 3 4 5; then
	ktap_test_pass "uploads over ($(tr '\n' ' ' < "$WIFI_DIR/uploads.out")Mbit/s): CWmin 15 again $((SECONDS - t0)) s later"
else
	ktap_test_fail "uploads over: CWmin 15 again (got $(be_cwmin 1 2 3 4 5))"
fi

wpa 2 disconnect
if wait_associated 4 20 && wait_cwmin 7 20 1 3 4 5; then
	ktap_test_pass "station 2 leaves: four, CWmin 7 again ($(be_cwmin 1 3 4 5))"
else
	ktap_test_fail "station 2 leaves: CWmin 7 again (got $(be_cwmin 1 3 4 5), $(associated) associated)"
fi

# Stopping: hostapd's own window again (its default, 15: the configuration sets none).
feeder_stop
if wait_cwmin 15 20 1 3 4 5 && grep -q "the stations' best-effort CWmin back to 15" "$WIFI_DIR/feeder.log"; then
	ktap_test_pass "feeder stopped: hostapd's CWmin 15 put back ($(be_cwmin 1 3 4 5))"
else
	ktap_test_fail "feeder stopped: CWmin 15 put back (got $(be_cwmin 1 3 4 5))"
fi
if [ "$(jq -r '.daemon.wmm_taken' "$AIRFAIR_MEDIUM_STATS")" -ge 4 ]; then
	ktap_test_pass "the medium took $(jq -r '.daemon.wmm_taken' "$AIRFAIR_MEDIUM_STATS") changed WMM elements"
else
	ktap_test_fail "the medium took $(jq -r '.daemon.wmm_taken' "$AIRFAIR_MEDIUM_STATS") changed WMM elements, want 4 or more (7, 15, 7, 15)"
fi
sed "s/^/# feeder: /" "$WIFI_DIR/feeder.log"

# No option: the window follows with the hook's stations (a ping each, so that the hook
# reports them), and is hostapd's own on the stock mac80211. Last, so that its rounds
# (rates pushed at once) change nothing above.
"$FEEDER" -i "$AP_IF" --hostapd "$CTRL" --interval 600000 -v > "$WIFI_DIR/feeder.log" 2>&1 &
FEEDER_PID=$!
for i in 1 3 4 5; do sta_ping "$i"; done
if have_hook; then
	if wait_cwmin 7 20 1 3 4 5 &&
	   grep -q "the mac80211 hook reports the stations: following their window" "$WIFI_DIR/feeder.log"; then
		ktap_test_pass "no option, the hook's stations: CWmin 7 at four ($(be_cwmin 1 3 4 5))"
	else
		ktap_test_fail "no option, the hook's stations: CWmin 7 at four (got $(be_cwmin 1 3 4 5))"
	fi
else
	sleep 5
	if [ "$(be_cwmin 1 3 4 5)" = "15 15 15 15" ] &&
	   grep -q "no station reported by the mac80211 hook: their window stays hostapd's" "$WIFI_DIR/feeder.log"; then
		ktap_test_pass "no option, stock mac80211: hostapd's CWmin 15 stays"
	else
		ktap_test_fail "no option, stock mac80211: CWmin 15 stays (got $(be_cwmin 1 3 4 5))"
	fi
fi
feeder_stop
wait_cwmin 15 20 1 3 4 5 || ktap_diag "CWmin not back to 15 after the feeder stopped: $(be_cwmin 1 3 4 5)"
sed "s/^/# feeder (no option): /" "$WIFI_DIR/feeder.log"

ktap_finished

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# leith-2005 Table II at the AP, as the medium sees it. One 802.11g station and the AP,
# airfair-medium as the channel; the medium's ground truth counts the AP->station frames
# per access category.
#   ack-prio: the AP's pure TCP ACKs go in AC_VO. The station uploads over TCP: with
#   ack-prio almost all the AP's frames to it (the ACKs) go in VO, with no-ack-prio none.
#   defer-data: the AP's bulk best-effort data goes in AC_BK (AIFS four slots longer, so
#   that the stations' frames win the contention against it). The station downloads
#   under a meter that keeps the backlog in airfair (30 % of the dilated air), so that
#   its flow is bulk, not sparse: with defer-data almost all the AP's frames go in BK,
#   with no-defer-data none; and the station's cost per frame (class stats: a static
#   54 Mbit/s station without loss) differs by BK's four extra AIFS slots, 36 us at
#   802.11g's 9 us slot; with `txop` in BK it shares a burst's access (tc-airfair(8)).
#   The uploads, each the first after a qdisc change, run at least a third as fast as
#   under pfifo (the default meter and upload window let a lone station send).
. "$(dirname "$0")/lib.sh"

MEDIUM=${AIRFAIR_MEDIUM_BIN:-$AIRFAIR_REPO/build/testbed/medium/airfair-medium}
K=${AIRFAIR_MEDIUM_K:-6}
SECS=${AIRFAIR_AC_SECS:-6}

ktap_header
require_root
require_cmd tc iw hostapd wpa_supplicant iperf3 jq
require_module mac80211_hwsim
airfair_load || ktap_skip_all "cannot load sch_airfair"
[ -x "$MEDIUM" ] || ktap_skip_all "$MEDIUM not built (make medium)"
ktap_set_plan 8
trap wifi_cleanup EXIT

wifi_workdir
medium_conf_1link 11 "$K" > "$WIFI_DIR/medium.conf"
export AIRFAIR_MEDIUM_CMD="$MEDIUM -c $WIFI_DIR/medium.conf -S \$AIRFAIR_MEDIUM_STATS"
if ! wifi_setup 1 band=2g mode=legacy || ! server_setup 0; then
	ktap_test_fail "medium, AP and one station up"
	ktap_skip_rest "no set-up"
	ktap_finished
fi
ktap_test_pass "medium, AP and one station up"

declare -A share cost gp_first
# sta1 KEY: one field of station 1's class statistics
sta1() {
	tc -j -s class show dev "$AP_IF" | grep '^{' |
		jq -r --arg m "${STA_MAC[1]}" --arg k "$1" 'select(.station.addr == $m) | .station[$k]'
}
# ac_run OPTION up|down AC [TC OPTIONS]: airfair with OPTION, a TCP flow that way; the
# share of the AP's frames to sta1 that went in AC (vo or bk) -> share[OPTION], the
# station's cost a (ns) -> cost[OPTION], the first run's goodput -> gp_first[OPTION]
ac_run() {
	local opt=$1 dir=$2 ac=$3 gp vo0 vi0 be0 bk0 vo1 vi1 be1 bk1 n all try
	shift 3
	if ! tc qdisc replace dev "$AP_IF" root airfair 11g "$opt" "$@" \
		station "${STA_MAC[1]}" rate 54mbit; then
		ktap_test_fail "airfair with $opt on the AP"
		ktap_finished
	fi
	for try in 1 2 3; do
		sta_ping 1 "" 1 > /dev/null 2>&1
		sleep 0.5
		read -r vo0 vi0 be0 bk0 < <(medium_ac_frames 0 1)
		gp=$(iperf_run tcp "$dir" 1 "$SECS")
		sleep 0.5
		read -r vo1 vi1 be1 bk1 < <(medium_ac_frames 0 1)
		all=$((vo1 - vo0 + vi1 - vi0 + be1 - be0 + bk1 - bk0))
		case $ac in vo) n=$((vo1 - vo0)) ;; bk) n=$((bk1 - bk0)) ;; esac
		share[$opt]=$(awk -v n=$n -v a=$all 'BEGIN {printf "%.3f", a ? n / a : 0}')
		cost[$opt]=$(sta1 cost_a_ns)
		[ "$try" = 1 ] && gp_first[$opt]=$gp
		ktap_diag "$opt: $dir $gp Mbit/s; AP->sta1 frames in the medium: vo $((vo1 - vo0)) vi $((vi1 - vi0)) be $((be1 - be0)) bk $((bk1 - bk0)) (${ac^^} share ${share[$opt]}); cost a ${cost[$opt]} ns"
		[ "$all" -ge "$AC_MIN_FRAMES" ] && break
		ktap_diag "$opt: $all frames are too few to judge a share (want $AC_MIN_FRAMES): run $try of 3"
	done
}

# A share is judged over at least AC_MIN_FRAMES of the AP's frames to the station. The
# frames outside the flow (iperf3's control connection, its handshake and FIN, the ping:
# 21-32 per run) are a fixed count per run, not per second: a flow slowed to a tenth of
# its rate leaves too few frames for the share to say anything (CI at 6db950a: 124 ACKs
# in VO against 25 such frames, 0.832, at 0.41 Mbit/s against 3.4 in other runs; that
# slowness was airfair's, and the upload check below judges it). Such a run goes again,
# at most three times.
AC_MIN_FRAMES=400
# Warm minstrel up first: the first upload after association climbs from the lowest
# rate, and at a quarter of the rate the measured run has a quarter of the ACKs, against
# the same few dozen frames that carry data to the station (iperf3's control messages,
# the handshake): CI at 0151ec5 read 0.895 at 0.9 Mbit/s against 3.39 without ack-prio.
tc qdisc replace dev "$AP_IF" root pfifo
iperf_tcp_up 1 2 > /dev/null
gp_pfifo=$(iperf_run tcp up 1 "$SECS")
ac_run ack-prio up vo
ac_run no-ack-prio up vo
ac_run defer-data down bk utilisation $((30 / K))%
ac_run no-defer-data down bk utilisation $((30 / K))%

# share_check OPTION AC WHAT [MIN]: at least MIN (0.9) of the AP's frames (WHAT) in AC,
# or at most 0.05 for a no- option. Each share counts the frames outside the flow too
# (iperf3's control connection, the pings): a flow as slow as the debug kernel's guest
# makes leaves too few to judge the first.
share_check() {
	local opt=$1 ac=$2 what=$3 min=${4:-0.9} s=${share[$1]}
	case $opt in
	no-*) if awk -v s="$s" 'BEGIN {exit !(s <= 0.05)}'; then
		ktap_test_pass "$opt: $s of the AP's frames to the $what in AC_$ac (<= 0.05)"
	else
		ktap_test_fail "$opt: $s of the AP's frames to the $what in AC_$ac (<= 0.05)"
	fi ;;
	*) if awk -v s="$s" -v m="$min" 'BEGIN {exit !(s >= m)}'; then
		ktap_test_pass "$opt: $s of the AP's frames to the $what went in AC_$ac (>= $min)"
	else
		ktap_test_fail_timing "$opt: only $s of the AP's frames to the $what went in AC_$ac (>= $min)"
	fi ;;
	esac
}
# A lone station's upload, each the first after a qdisc change, at least a third as fast as
# under pfifo: the meter once cut its grant to its 1 % floor at an upload's start, and
# the upload window, sized from the grant, held the upload there (0.33-0.55 Mbit/s
# against 3.4 in 3 of 8 runs; docs/qdisc.md, the upload window).
up_ok=1
for o in ack-prio no-ack-prio; do
	awk -v g="${gp_first[$o]:-0}" -v p="${gp_pfifo:-0}" 'BEGIN {exit !(p > 0 && g >= p / 3)}' ||
		up_ok=0
done
up_msg="uploads under airfair: ack-prio ${gp_first[ack-prio]:-?}, no-ack-prio ${gp_first[no-ack-prio]:-?} Mbit/s against pfifo's ${gp_pfifo:-?} (each >= 1/3)"
if [ "$up_ok" = 1 ]; then
	ktap_test_pass "$up_msg"
else
	ktap_test_fail_timing "$up_msg"
fi
share_check ack-prio VO uploader
share_check no-ack-prio VO uploader
# the sparse flows' packets stay in BE: the pings' replies, iperf3's control
# connection, and the download's first 50 packets (T-LAS); 0.83 on 6.1
share_check defer-data BK downloader 0.75
share_check no-defer-data BK downloader
d=$(awk -v a="${cost[defer-data]:-0}" -v b="${cost[no-defer-data]:-0}" 'BEGIN {print a - b}')
if [ "$d" = 36000 ]; then
	ktap_test_pass "defer-data charges a frame AC_BK's AIFS: 36000 ns more per attempt"
else
	ktap_test_fail "defer-data: cost a ${cost[defer-data]} ns against ${cost[no-defer-data]} ns without (want 36000 ns more)"
fi

# A TXOP for the AP's deferred data: five 54 Mbit/s frames fill 1792 us, each pays a
# fifth of AIFS_BK + CWmin/2 slots and four fifths of a SIFS, (73 + 67.5 - 10) * 4/5
# = 104.4 us less; one in BE's TXOP changes nothing in BK.
txop_cost() {
	tc qdisc replace dev "$AP_IF" root airfair 11g defer-data txop "$@" \
		station "${STA_MAC[1]}" rate 54mbit || return 1
	sta1 cost_a_ns
}
c_bk=$(txop_cost 0 0 0 1792us) c_be=$(txop_cost 0 0 1792us 0)
d=$(awk -v a="${cost[defer-data]:-0}" -v b="${c_bk:-0}" 'BEGIN {print a - b}')
if [ "$(sta1 source)" = hook ]; then
	ktap_test_skip "txop from tc" "the mac80211 hook's TXOP limits replace tc's (hook_txop.sh)"
elif [ "$d" = 104400 ] && [ "$c_be" = "${cost[defer-data]}" ]; then
	ktap_test_pass "txop 1792us in BK: a deferred frame costs 104400 ns less; in BE: the same"
else
	ktap_test_fail "txop: cost a ${c_bk:-?} ns in BK, ${c_be:-?} ns in BE, against ${cost[defer-data]} ns (want 104400 ns less, the same)"
fi
ktap_finished

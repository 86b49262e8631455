#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A-MPDU in the medium with HT rate control that keeps adapting: an 802.11n AP (5 GHz)
# and three stations at SNR 35, 25 and 18 dB, whose best HT MCS by the medium's PER
# model (airfair-medium --per-table; two streams, as hwsim has, 3 dB apart per stream
# doubling) are 15, 12 and 10, each at least 10 % ahead of the next best. The medium
# aggregates (`ampdu 32`) and reports each A-MPDU to mac80211 through the testbed's
# hwsim patch (testbed/hwsim-patches: HWSIM_TX_STAT_AMPDU); without it minstrel_ht
# ignores every status of a BlockAck session and never leaves its first rates
# (docs/medium.md, limits). A fourth station has a clean link capped at 39.1 Mbit/s
# (every rate above fails outright): an A-MPDU that nothing of goes through must be
# told at its own rate, not at the rate that later carried its MPDUs (that made
# minstrel_ht keep the failing rates, and TCP stall on lost ACKs). After downlink UDP to
# all four, the AP's minstrel_ht must use each SNR station's best MCS most of the time
# (the capped station's is shown), and
# the medium's ground truth must show A-MPDUs on the links; then TCP to the capped
# station must lose hardly an MPDU to a spent retry chain. Last, under airfair with
# `ampdu auto`, each station's A-MPDU length as the mac80211 hook reports it must match
# the medium's within a factor 1.5 and be the one airfair charges (needs the patched
# mac80211 too); so must the length of the A-MPDUs each station sends, which the hook
# counts from the A-MPDU number the medium puts on received subframes (hwsim patch
# 0003, mac80211 patch 395; within 1.4) and airfair charges what the station sends by.
# The MPDUs acknowledged per PPDU attempt the hook reports (mac80211 patch 396) must
# match the medium's delivered MPDUs per PPDU attempt within a factor 1.5; the window
# its PPDU attempts waited, by the hook's running counts (patch 400), the medium's
# within 0.05 + 15 %. What airfair
# charges a station, settled by the hook's running counts of PPDU attempts (patch 400),
# must match the medium's air on its link and what its accesses waited (one AIFS and
# the backoff each: not the AIFS again of rounds another sender won) within 15 %,
# and the long training fields the hook counts per PPDU attempt (patch 402), by the
# streams of each attempt's rate, the medium's within 3 %.
# Needs the patched hwsim: vm/run.sh --modules build/KVER/hwsim (skips without it).
#   AIRFAIR_MEDIUM_K (default 20), AIRFAIR_AMPDU_SECS (default 16)
. "$(dirname "$0")/lib.sh"

MEDIUM=${AIRFAIR_MEDIUM_BIN:-$AIRFAIR_REPO/build/testbed/medium/airfair-medium}
K=${AIRFAIR_MEDIUM_K:-20}
SECS=${AIRFAIR_AMPDU_SECS:-16}
SNR=("" 35 25 18 45)
CAP=39.1	# sta4: HT20 MCS 4 and MCS 10 are 39.0 Mbit/s, the best under the cap

ktap_header
require_root
require_cmd iw hostapd wpa_supplicant iperf3 jq
[ -x "$MEDIUM" ] || ktap_skip_all "$MEDIUM not built (make medium)"
[ -f "/lib/modules/$(uname -r)/updates/mac80211_hwsim.ko" ] ||
	ktap_skip_all "needs the testbed's mac80211_hwsim (testbed/hwsim-patches/build.sh; vm/run.sh --modules build/KVER/hwsim)"
ktap_set_plan 14
trap wifi_cleanup EXIT

wifi_workdir
{
	echo "seed 5"
	echo "dilation $K"
	echo "stats-interval 250"
	echo "phy 5g 11n-5g"
	echo "ampdu 32"
	# The floods overload the AP on purpose. Refused at a full queue, iperf3's one UDP
	# handshake datagram to a station whose flood has not started was lost, and that
	# station got nothing (CI at d099b37): drop from the longest receiver's frames
	# instead, as mac80211's per-station queues would.
	echo "queue-drop fattest"
	for i in 1 2 3; do echo "pair 0 $i snr ${SNR[i]}"; done
	echo "pair 0 4 snr ${SNR[4]} rate-cap $CAP"
} > "$WIFI_DIR/medium.conf"
AIRFAIR_MEDIUM_CMD="$MEDIUM -c $WIFI_DIR/medium.conf -I 250"
AIRFAIR_MEDIUM_CMD+=' -S $AIRFAIR_MEDIUM_STATS'
export AIRFAIR_MEDIUM_CMD
if ! wifi_setup 4 band=5g mode=ht; then
	ktap_test_fail "medium, 802.11n AP and four stations up"
	ktap_skip_rest "no set-up"
	ktap_finished
fi
ktap_test_pass "medium, 802.11n AP and four stations up"

best=("") best_rate=("")
for i in 1 2 3; do
	read -r best[i] best_rate[i] < <("$MEDIUM" --per-table "${SNR[i]}" --len 1462 |
		awk '$1 == "best" && $2 == "mcs" {b = $3} $1 == "mcs" {r[$2] = $4} END{print b, r[b]}')
done
# downlink UDP, 1 Mbit/s real each (k x that simulated): more than the SNR-18 link
# carries at MCS 10, so frames queue at the AP and go out aggregated
for i in 1 2 3 4; do
	ip netns exec "$(sta_ns "$i")" iperf3 -s -D -p $((5300 + i))	# not -1: see iperf_udp_client
done
sleep 0.5
cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/before-udp.json"
clients=()
for i in 1 2 3 4; do
	iperf_udp_client "$WIFI_DIR/udp$i.json" "$SECS" --server "$(sta_ns "$i")" $((5300 + i)) -- \
		-c "$(sta_ip "$i")" -p $((5300 + i)) -u -b 1M -l 1400 &
	clients+=($!)
done
# The rate minstrel_ht settled on: the one the medium saw carry most of each link's bytes
# at their first attempt over the floods' last 6 s (minstrel_ht updates its statistics
# every 50-100 ms of real time, a few ms of air at k = 20: it needs seconds to settle;
# CI at 2842365 caught the capped station still on MCS 2 and 9 six seconds in). The
# medium counts every frame; the `iw station get` samples this used before were a
# handful under a loaded TCG guest (four in 6 s on this machine at b0faab9) and showed
# now and then a probe, and CI at b0faab9 failed here on 6.1 with them.
sleep $((SECS - 6))
cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/settling.json"
wait "${clients[@]}"	# not the medium, which wifi_setup left running in the background
sleep 0.5	# the live statistics are rewritten every 250 ms
first_rates() { # first_rates <station>: "Mbit/s bytes" of the AP's first attempts, most first
	jq -n -r --argjson i "$1" --slurpfile a "$WIFI_DIR/settling.json" \
		--slurpfile b "$AIRFAIR_MEDIUM_STATS" '
		def hist(s): [s.medium.links[] | select(.tx == 0 and .rx == $i and .ac == "be") |
			.first_rate_bytes | to_entries[]] | group_by(.key) |
			map({key: .[0].key, value: (map(.value) | add)}) | from_entries;
		hist($a[0]) as $x | hist($b[0]) | to_entries |
		map({k: .key, v: (.value - ($x[.key] // 0))}) | map(select(.v > 0)) |
		sort_by(-.v) | .[] | "\(.k) \(.v)"' 2>/dev/null
}
for i in 1 2 3 4; do
	first_rates "$i" > "$WIFI_DIR/rates$i"
	# the four rates that carried most, each at 1 % or more
	seen=$(awk '{t += $2; r[NR] = $1; b[NR] = $2}
		END{for (n = 1; n <= NR && n <= 4; n++) if (n == 1 || b[n] * 100 >= t)
			printf "%s%s %.0f %%", (n > 1 ? ", " : ""), r[n], b[n] * 100 / t}' "$WIFI_DIR/rates$i")
	mode=$(awk 'NR == 1 {print $1}' "$WIFI_DIR/rates$i")
	if [ "$i" = 4 ]; then
		# Shown, not judged: where every rate above the cap fails outright, minstrel_ht
		# under k = 20 still keeps one above it as its first rate for seconds at a time
		# (session 25, 6.1: 1 run in 5 with 46 % of the link's bytes first tried at
		# 52-130 Mbit/s while the fallback carried them at 39). What the A-MPDU
		# reporting at its own rate must prevent, TCP stalling on spent retry chains,
		# is judged below (TCP to the capped station).
		log "capped at $CAP Mbit/s: first attempts over the last 6 s at ${seen:-?} (want 39.0)"
	elif [ -n "$mode" ] && [ "$mode" = "${best_rate[i]}" ]; then
		ktap_test_pass "SNR ${SNR[i]} dB: minstrel_ht settled on MCS ${best[i]}'s ${best_rate[i]} Mbit/s, the model's best (first attempts: $seen)"
	else
		ktap_test_fail "SNR ${SNR[i]} dB: minstrel_ht mostly at ${mode:-?} Mbit/s, the model's best is MCS ${best[i]}'s ${best_rate[i]} (first attempts: ${seen:-none})"
		[ -n "$seen" ] || wifi_station_events "$i"
	fi
done
# the medium's ground truth: A-MPDUs on the AP's links, MPDUs per A-MPDU
agg=$(jq -r '[.medium.links[] | select(.tx == 0 and .rx > 0 and .ac == "be")] |
	"\(map(.ampdus) | add // 0) \(map(.ampdu_mpdus) | add // 0)"' "$AIRFAIR_MEDIUM_STATS" 2>/dev/null)
read -r n_ampdu n_mpdu <<< "${agg:-0 0}"
if [ "${n_ampdu:-0}" -gt 20 ]; then
	ktap_test_pass "the medium aggregated: $n_ampdu A-MPDUs, $(awk -v a="$n_mpdu" -v b="$n_ampdu" 'BEGIN{printf "%.1f", a / b}') MPDUs each"
else
	ktap_test_fail "the medium aggregated ($n_ampdu A-MPDUs of $n_mpdu MPDUs)"
fi
gp=$(for i in 1 2 3 4; do iperf_goodput "$WIFI_DIR/udp$i.json"; done | tr '\n' ' ')
log "UDP goodput (real Mbit/s): $gp; x k=$K simulated"
if awk -v g="$gp" 'BEGIN{n = split(g, x, " "); for (i = 1; i <= n; i++) if (x[i] <= 0) exit 1}'; then
	ktap_test_pass "every station received data ($gp Mbit/s real)"
else
	# The known A-MPDU stall (issue 15): the medium delivers a station's frames and its
	# stack receives nothing. Only that, each silent station fed by the medium, is XFAIL.
	ap_bytes() { # ap_bytes <stats file> <station>: bytes the AP delivered to it
		jq -r --argjson i "$2" '[.medium.links[] | select(.tx == 0 and .rx == $i) |
			.bytes] | add // 0' "$1" 2>/dev/null || echo 0
	}
	fed=1 i=0
	for g in $gp; do
		i=$((i + 1))
		awk -v g="$g" 'BEGIN{exit !(g <= 0)}' || continue
		b=$(( $(ap_bytes "$AIRFAIR_MEDIUM_STATS" $i) - $(ap_bytes "$WIFI_DIR/before-udp.json" $i) ))
		log "station $i: iperf3 received nothing, the medium delivered $b bytes to it"
		wifi_station_events "$i"
		[ "$b" -ge $((20 * 1400)) ] || fed=0
	done
	if [ "$fed" = 1 ]; then
		ktap_test_xfail "every station received data ($gp)" \
			"known A-MPDU stall: the medium delivered, the station's stack got nothing (issue 15)"
	else
		ktap_test_fail "every station received data ($gp)"
	fi
fi
# TCP to the capped station, alone: its TCP ACKs go up in A-MPDUs of their own, few and
# far between, where each report counts. Rate control that hears of its failed A-MPDUs
# keeps a rate under the cap in each retry chain, so hardly an MPDU either way runs out
# of attempts. (Told at the later rate, a VHT station capped at 78 Mbit/s lost 15 % of
# its uplink MPDUs that way and its TCP stalled; at these HT rates the old report got
# by, so this guards the HT path and testbed/scenarios/chen-yan-vht.toml the VHT one.)
links() { # links <stats file>: frames and failures of AP->sta4 and sta4->AP
	jq -r '[.medium.links[] | select(.ac == "be" and ((.tx == 0 and .rx == 4) or (.tx == 4 and .rx == 0)))] |
		"\(map(.frames) | add // 0) \(map(.failures) | add // 0)"' "$1" 2>/dev/null || echo "0 0"
}
ip netns exec "$(sta_ns 4)" iperf3 -s -1 -D -p 5310
sleep 0.5
cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/before-tcp.json"
iperf3 -c "$(sta_ip 4)" -p 5310 -t 6 -J > "$WIFI_DIR/tcp4.json" 2>&1
sleep 0.5
read -r f0 x0 <<< "$(links "$WIFI_DIR/before-tcp.json")"
read -r f1 x1 <<< "$(links "$AIRFAIR_MEDIUM_STATS")"
df=$((f1 - f0)) dx=$((x1 - x0))
tg=$(iperf_goodput "$WIFI_DIR/tcp4.json")
if [ "$df" -gt 100 ] && [ $((dx * 100)) -lt $((df + dx)) ]; then
	ktap_test_pass "TCP to the capped station: $dx of $((df + dx)) MPDUs ran out of attempts (< 1 %), $tg Mbit/s real"
else
	ktap_test_fail "TCP to the capped station: $dx of $((df + dx)) MPDUs ran out of attempts (want < 1 %, > 100 delivered), $tg Mbit/s real"
fi
# airfair `ampdu auto`: the hook's MPDUs per PPDU for each station against the medium's
# over the same seconds (MPDUs sent per PPDU attempt, frames sent alone included), and
# the charge using it as measured.
mpdus() { # mpdus <stats file> [up]: "PPDU-attempts MPDUs delivered-MPDUs failed-PPDUs"
	local dir=${2:-down}	# (sta->AP), a line each; the data's ACs: BE, and BK where
	for i in 1 2 3; do	# airfair's defer-data sends the AP's bulk data
		jq -r --argjson i "$i" --arg d "$dir" '[.medium.links[] | select((.ac == "be" or .ac == "bk") and
			(if $d == "up" then .tx == $i and .rx == 0 else .tx == 0 and .rx == $i end))] |
			"\(map(.attempts) | add // 0) \(map(.ampdu_mpdus + .attempts - .ampdus) | add // 0) \(map(.frames) | add // 0) \(map(.ppdu_failures) | add // 0)"' \
			"$1" 2>/dev/null || echo "0 0 0 0"
	done
}
# sample TAG: after 5 s, airfair's class stats 12 times, 0.5 s apart, into TAG-class.json,
# and the medium's before (before-TAG.json), at each sample (TAG-mK.json) and after
sample() {
	sleep 5
	cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/before-$1.json"
	: > "$WIFI_DIR/$1-class.json"
	for k in $(seq 12); do
		tc -j -s class show dev "$AP_IF" | grep '^{' >> "$WIFI_DIR/$1-class.json"
		cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/$1-m$k.json"
		sleep 0.5
	done
	cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/after-$1.json"
}
# quiet TAG: once the medium has written its stats twice since the channel went quiet,
# airfair's class stats (TAG-class.json) and the medium's (TAG-medium.json)
quiet() {
	sleep 1
	tc -j -s class show dev "$AP_IF" | grep '^{' > "$WIFI_DIR/$1-class.json"
	cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/$1-medium.json"
}
# span I FIELD...: each of station I's class stats FIELDs (a path: told.ppdus) from
# af-start to af-end, 0 where a dump has no such station
span() {
	local i=$1
	shift
	jq -n -r --arg a "${STA_MAC[i]}" --slurpfile s "$WIFI_DIR/af-start-class.json" \
		--slurpfile e "$WIFI_DIR/af-end-class.json" '
		def at(d; p): ([d[] | (.station // empty) | select(.addr == $a)][0] // {}) |
			getpath(p | split(".")) // 0;
		[$ARGS.positional[] as $p | at($e; $p) - at($s; $p)] | map(tostring) | join(" ")' \
		--args "$@"
}
# told_per_ppdu FIELD I: a running count the hook told (the class dump's .told) per PPDU
# attempt it told, station I, from the first af sample to the last
told_per_ppdu() {
	jq -r -s --arg a "${STA_MAC[$2]}" --arg f "$1" \
		'[.[] | (.station // empty) | select(.addr == $a)] |
		((.[-1].told[$f] // 0) - (.[0].told[$f] // 0)) as $n |
		((.[-1].told.ppdus // 0) - (.[0].told.ppdus // 0)) as $p |
		if $p > 0 then $n / $p else 0 end' "$WIFI_DIR/af-class.json"
}
# medium_per_attempt FIELD I: the medium's count on the AP's links to station I per
# PPDU attempt on them, between the first af sample and the last
medium_per_attempt() {
	for k in 1 12; do
		jq -r --argjson i "$2" --arg f "$1" '[.medium.links[] | select(.tx == 0 and .rx == $i)] |
			"\(map(.[$f] // 0) | add) \(map(.attempts) | add)"' "$WIFI_DIR/af-m$k.json"
	done | awk 'NR == 1 { n = $1; a = $2 }
		NR == 2 { if ($2 > a) printf "%.3f", ($1 - n) / ($2 - a); else print 0 }'
}
if ! have_hook; then
	ktap_test_skip "airfair charges the hook's A-MPDU length" "mac80211 without the TX report hook"
	ktap_test_skip "the hook's acknowledged MPDUs per PPDU attempt" "mac80211 without the TX report hook"
	ktap_test_skip "the hook's PPDU attempts without a BlockAck" "mac80211 without the TX report hook"
	ktap_test_skip "the window the hook's PPDU attempts waited" "mac80211 without the TX report hook"
	ktap_test_skip "the charge, settled by the hook's counts, against the medium's air" "mac80211 without the TX report hook"
	ktap_test_skip "the hook's long training fields per PPDU attempt" "mac80211 without the TX report hook"
elif ! airfair_load || ! tc qdisc replace dev "$AP_IF" root airfair 11n-5g; then
	ktap_test_fail "airfair charges the hook's A-MPDU length (airfair not installed)"
	ktap_test_fail "the hook's acknowledged MPDUs per PPDU attempt (airfair not installed)"
	ktap_test_fail "the hook's PPDU attempts without a BlockAck (airfair not installed)"
	ktap_test_fail "the window the hook's PPDU attempts waited (airfair not installed)"
	ktap_test_fail "the charge, settled by the hook's counts, against the medium's air (airfair not installed)"
	ktap_test_fail "the hook's long training fields per PPDU attempt (airfair not installed)"
else
	for i in 1 2 3; do
		ip netns exec "$(sta_ns "$i")" iperf3 -s -D -p $((5320 + i))
	done
	# the charge is held to the medium's air over the whole stage, from a quiet
	# channel to a drained one: between samples taken under load the medium's
	# stats file (written every 250 ms) and the hook's reports (every 100 ms,
	# a failed A-MPDU's attempts only with the next that got through) each lag
	# the class dump by their own amount, and a lossy station's few hundred
	# PPDUs in 5.5 s are a few long attempts at its lowest rate either way
	quiet af-start
	clients=()
	for i in 1 2 3; do
		iperf_udp_client "$WIFI_DIR/af$i.json" 13 --server "$(sta_ns "$i")" $((5320 + i)) -- \
			-c "$(sta_ip "$i")" -p $((5320 + i)) -u -b 1M -l 1400 &
		clients+=($!)
	done
	# the hook's figure covers a station's last 32-64 PPDUs or 128-256 MPDUs, which
	# still hold the UDP stage's before airfair: sampled 12 times, 0.5 s apart, after
	# 5 s, against the medium's over the same seconds
	sample af
	wait "${clients[@]}"
	quiet af-end
	mapfile -t m0 < <(mpdus "$WIFI_DIR/before-af.json")
	mapfile -t m1 < <(mpdus "$WIFI_DIR/after-af.json")
	ok=1 msg="" ack_ok=1 ack_msg="" pl_ok=1 pl_msg="" cw_ok=1 cw_msg="" ch_ok=1 ch_msg="" lt_ok=1 lt_msg=""
	for k in $(seq 12); do mpdus "$WIFI_DIR/af-m$k.json" > "$WIFI_DIR/af-m$k.txt"; done
	for i in 1 2 3; do
		read -r a0 n0 d0 f0 <<< "${m0[i - 1]}"
		read -r a1 n1 d1 f1 <<< "${m1[i - 1]}"
		read -r used last meas <<< "$(jq -r -s --arg a "${STA_MAC[i]}" \
			'[.[] | (.station // empty) | select(.addr == $a)] |
			"\(.[-1].ampdu_used // 0) \(.[-1].ampdu_measured // 0) \(map(.ampdu_measured // 0) | add / (length + 0.0001))"' \
			"$WIFI_DIR/af-class.json")"
		meas=$(awk -v m="$meas" 'BEGIN{printf "%.2f", m}')
		log "sta$i: hook A-MPDU length samples $(jq -r -s --arg a "${STA_MAC[i]}" \
			'[.[] | (.station // empty) | select(.addr == $a) | .ampdu_measured // 0] | map(tostring) | join(" ")' \
			"$WIFI_DIR/af-class.json")"
		truth=$(awk -v a=$((a1 - a0)) -v n=$((n1 - n0)) 'BEGIN{if (a > 0) printf "%.2f", n / a; else print 0}')
		msg+="sta$i: hook ${meas:-?} medium $truth charged ${used:-?}; "
		log "sta$i: uplink as the hook reports it: $(jq -r -s --arg a "${STA_MAC[i]}" \
			'[.[] | (.station // empty) | select(.addr == $a)][-1].up // {} |
			"\(.spec // "none"), Retry share \(.loss_pct // "?") %"' "$WIFI_DIR/af-class.json")"
		# the mean within a factor 1.5 of the medium's (mac80211 sees no PPDU that
		# none of whose MPDUs got through, and the figure follows with a lag); the
		# charge uses the figure of the moment as it is, in sixteenths
		awk -v m="${meas:-0}" -v t="$truth" -v u="${used:-0}" -v l="${last:-0}" 'BEGIN{
			exit !(m > 0 && t > 0 && m <= 1.5 * t && t <= 1.5 * m && u - l < 0.01 && l - u < 0.01)}' || ok=0
		awk -v t="$truth" 'BEGIN{exit !(t >= 2)}' && agg=1
		# MPDUs acknowledged per PPDU attempt (ABI 4): the medium's delivered MPDUs over
		# its PPDU attempts, the same tolerance; never above the A-MPDU length
		read -r acked alast <<< "$(jq -r -s --arg a "${STA_MAC[i]}" \
			'[.[] | (.station // empty) | select(.addr == $a)] |
			"\(map(.acked // 0) | add / (length + 0.0001)) \(.[-1].acked // 0)"' \
			"$WIFI_DIR/af-class.json")"
		acked=$(awk -v m="${acked:-0}" 'BEGIN{printf "%.2f", m}')
		atruth=$(awk -v a=$((a1 - a0)) -v d=$((d1 - d0)) 'BEGIN{if (a > 0) printf "%.2f", d / a; else print 0}')
		ack_msg+="sta$i: hook $acked medium $atruth; "
		awk -v m="$acked" -v t="$atruth" -v l="${alast:-0}" -v n="${last:-0}" 'BEGIN{
			exit !(m > 0 && t > 0 && m <= 1.5 * t && t <= 1.5 * m && l <= n + 0.001)}' || ack_ok=0
		# the share of PPDU attempts without a BlockAck (ABI 5) against the medium's
		# ppdu_failures over its attempts: within 0.1 + a quarter of it
		pl=$(jq -r -s --arg a "${STA_MAC[i]}" \
			'[.[] | (.station // empty) | select(.addr == $a) | .ppdu_loss // 0] |
			add / (length + 0.0001) / 65536' "$WIFI_DIR/af-class.json")
		pl=$(awk -v m="${pl:-0}" 'BEGIN{printf "%.2f", m}')
		ptruth=$(awk -v a=$((a1 - a0)) -v f=$((f1 - f0)) 'BEGIN{if (a > 0) printf "%.2f", f / a; else print 0}')
		pl_msg+="sta$i: hook $pl medium $ptruth; "
		awk -v m="$pl" -v t="$ptruth" 'BEGIN{d = m - t; if (d < 0) d = -d
			exit !(d <= 0.1 + 0.25 * t)}' || pl_ok=0
		# the window they waited, as the hook's running counts tell it (windows
		# over PPDU attempts, patch 400, the counts the settlement rests on)
		# against the medium's cw_units over its attempts to the station between
		# the first sample and the last: within 0.05 + 15 % of it. Beside it the
		# mean over the station's recent PPDUs (cw_scale, patch 397), which only
		# the charge at dequeue uses: weighed by the attempts since the sample
		# before, it read up to twice the medium's for the lossiest station (a
		# long retry chain brings many attempts and a high mean at once; CI,
		# 6.12: 2.91 against 1.45), so it is logged and not held to it
		cw=$(told_per_ppdu windows "$i")
		wtruth=$(medium_per_attempt cw_units "$i")
		cwmean=$(for k in $(seq 12); do sed -n "${i}p" "$WIFI_DIR/af-m$k.txt"; done |
			awk -v a0="$a0" -v cws="$(jq -r -s --arg a "${STA_MAC[i]}" \
				'[.[] | (.station // empty) | select(.addr == $a) | .cw_scale // 0] |
				map(tostring) | join(" ")' "$WIFI_DIR/af-class.json")" '
			BEGIN { split(cws, h, " ") }
			{ k++; da = $1 - a0; A += da; H += da * h[k]; a0 = $1 }
			END { if (A > 0) printf "%.2f", H / A; else print 0 }')
		cw=$(awk -v v="$cw" 'BEGIN{printf "%.3f", v}')
		cw_msg+="sta$i: hook $cw medium $wtruth (recent PPDUs $cwmean); "
		awk -v m="$cw" -v t="$wtruth" 'BEGIN{d = m - t; if (d < 0) d = -d
			exit !(t >= 1 && d <= 0.05 + 0.15 * t)}' || cw_ok=0
		# the charge over the whole stage, quiet to drained (at dequeue, and with
		# what the hook's running counts settled) over the medium's air to the
		# station and what its accesses waited (waited_us less rewaited_us, the
		# AIFS of rounds another sender won: the charge models one AIFS and the
		# backoff an attempt) over the same stage: within 15 %, settled (session 52,
		# 6.1: 0.93-0.99 in three guests, one station's told PPDU attempts 0.944 of
		# the medium's and the lossy stations' told wait 0.82-0.89 of what they
		# waited; 6.12: 1.01-1.05; the CI run before it read 0.897 against the
		# whole of waited_us; over the 12 samples alone CI read 1.140 and 1.226
		# for the SNR-25 station, its told air 1.288 of the medium's)
		read -r ch st <<< "$(span "$i" airtime_us settled_us)"
		# the medium's busy air, wait and PPDU attempts to the station over the
		# same stage; beside them what the settled reports told
		mt=$(for f in start end; do jq -r --argjson i "$i" '[.medium.links[] | select(.tx == 0 and .rx == $i)] |
			"\(map(.airtime_us) | add) \(map(.waited_us - (.rewaited_us // 0)) | add) \(map(.attempts) | add)"' \
			"$WIFI_DIR/af-$f-medium.json"; done | awk 'NR == 1 { b = $1; w = $2; a = $3 } NR == 2 { print $1 - b, $2 - w, $3 - a }')
		tw=$(span "$i" told_air_us told_wait_us told.ppdus)
		read -r r0 r1 told <<< "$(awk -v c="$ch" -v s="$st" -v t="$tw" -v m="$mt" 'BEGIN{
			split(t, x, " "); split(m, y, " "); a = y[1] + y[2]
			if (a > 0) printf "%.3f %.3f", c / a, (c + s) / a; else printf "0 0"
			# no comparison inside printf: an awk may read its ">" as a redirection
			for (j = 1; j <= 3; j++) q[j] = y[j] > 0 ? x[j] / y[j] : 0
			printf " air %.3f wait %.3f attempts %.3f", q[1], q[2], q[3]}')"
		ch_msg+="sta$i: $r1 (at dequeue $r0; told/medium: $told); "
		# what the medium's own reports told mac80211 over the same stage
		# against what it sent: attempts and the MPDUs' data at their rates
		log "sta$i: the medium's reports: $(for f in start end; do
			jq -r --argjson i "$i" '[.medium.links[] | select(.tx == 0 and .rx == $i)] |
				"\(map(.told) | add) \(map(.attempts) | add) \(map(.told_byte_us) | add) \(map(.mpdu_byte_us) | add) \(map(.data_us) | add) \(map(.overhead_us) | add) \(map(.collision_us) | add) \(map(.lost_us) | add)"' \
				"$WIFI_DIR/af-$f-medium.json"; done | awk 'NR == 1 { split($0, a, " ") }
			NR == 2 { split($0, b, " "); for (j = 1; j <= 8; j++) d[j] = b[j] - a[j]
				ta = d[2] > 0 ? d[1] / d[2] : 0; td = d[4] > 0 ? d[3] / d[4] : 0
				printf "told/attempts %.3f, told/sent data %.3f, data %.0f overhead %.0f collision %.0f lost %.0f us",
					ta, td, d[5], d[6], d[7], d[8] }')"
		log "sta$i: the hook's told: air $(echo "$tw" | cut -d' ' -f1) us, wait $(echo "$tw" | cut -d' ' -f2) us, $(echo "$tw" | cut -d' ' -f3) PPDUs; medium $mt"
		awk -v r="$r1" 'BEGIN{exit !(r >= 0.85 && r <= 1.15)}' || ch_ok=0
		# the preambles' LTFs per PPDU attempt over the settled reports, against the
		# medium's over its attempts between the first and last sample: the same
		# attempts, all but the few at either end
		lt=$(told_per_ppdu ltfs "$i")
		ltruth=$(medium_per_attempt ltfs "$i")
		lt_msg+="sta$i: hook $(awk -v v="$lt" 'BEGIN{printf "%.3f", v}') medium $ltruth; "
		awk -v m="$lt" -v t="$ltruth" 'BEGIN{d = m - t; if (d < 0) d = -d
			exit !(t >= 1 && d <= 0.03 * t)}' || lt_ok=0
	done
	[ "${agg:-0}" = 1 ] || ok=0	# the medium aggregated for some station
	if [ $ok = 1 ]; then
		ktap_test_pass "airfair charges the hook's A-MPDU length ($msg)"
	else
		# the medium's MPDUs per PPDU attempt between samples, beside the hook's samples
		prev=("${m0[@]}")
		per=("" "" "")
		for k in $(seq 12); do
			mapfile -t cur < <(mpdus "$WIFI_DIR/af-m$k.json")
			for i in 1 2 3; do
				read -r a0 n0 _ <<< "${prev[i - 1]}"
				read -r a1 n1 _ <<< "${cur[i - 1]}"
				per[i - 1]+=" $(awk -v a=$((a1 - a0)) -v n=$((n1 - n0)) \
					'BEGIN{if (a > 0) printf "%.1f", n / a; else print "-"}')"
			done
			prev=("${cur[@]}")
		done
		for i in 1 2 3; do log "sta$i: medium's MPDUs per PPDU between samples${per[i - 1]}"; done
		ktap_test_fail "airfair charges the hook's A-MPDU length ($msg)"
	fi
	if [ $ack_ok = 1 ]; then
		ktap_test_pass "the hook's acknowledged MPDUs per PPDU attempt ($ack_msg)"
	else
		ktap_test_fail "the hook's acknowledged MPDUs per PPDU attempt ($ack_msg)"
	fi
	if [ $pl_ok = 1 ]; then
		ktap_test_pass "the hook's PPDU attempts without a BlockAck ($pl_msg)"
	else
		ktap_test_fail "the hook's PPDU attempts without a BlockAck ($pl_msg)"
	fi
	if [ $cw_ok = 1 ]; then
		ktap_test_pass "the window the hook's PPDU attempts waited ($cw_msg)"
	else
		ktap_test_fail "the window the hook's PPDU attempts waited ($cw_msg)"
	fi
	if [ $ch_ok = 1 ]; then
		ktap_test_pass "the charge, settled by the hook's counts, against the medium's air ($ch_msg)"
	else
		ktap_test_fail "the charge, settled by the hook's counts, against the medium's air ($ch_msg)"
	fi
	if [ $lt_ok = 1 ]; then
		ktap_test_pass "the hook's long training fields per PPDU attempt ($lt_msg)"
	else
		ktap_test_fail "the hook's long training fields per PPDU attempt ($lt_msg)"
	fi
fi
# The uplink: TCP from each station to the AP, the hook's MPDUs per PPDU for what each
# sends (class stats' up.ampdu_measured) against the medium's over the same seconds.
# TCP, not UDP: mac80211 reports a station on the TX status of frames to it (here the
# AP's TCP ACKs), and a station the AP sends nothing to is not charged anything.
if ! have_hook; then
	ktap_test_skip "airfair charges the station's own A-MPDU length" "mac80211 without the TX report hook"
elif ! tc qdisc show dev "$AP_IF" | grep -q '^qdisc airfair'; then
	ktap_test_fail "airfair charges the station's own A-MPDU length (airfair not installed)"
else
	for i in 1 2 3; do
		iperf3 -s -D -1 -p $((5330 + i)) -I "$WIFI_DIR/iperf-up$i.pid"
	done
	sleep 0.5
	clients=()
	for i in 1 2 3; do
		timeout 40 ip netns exec "$(sta_ns "$i")" iperf3 -c "$WIFI_AP_IP" \
			-p $((5330 + i)) -t 13 -J > "$WIFI_DIR/up$i.json" 2>&1 &
		clients+=($!)
	done
	sample up
	wait "${clients[@]}"
	mapfile -t m0 < <(mpdus "$WIFI_DIR/before-up.json" up)
	mapfile -t m1 < <(mpdus "$WIFI_DIR/after-up.json" up)
	ok=1 agg=0 msg=""
	for i in 1 2 3; do
		read -r a0 n0 _ <<< "${m0[i - 1]}"
		read -r a1 n1 _ <<< "${m1[i - 1]}"
		read -r used last meas lo hi <<< "$(jq -r -s --arg a "${STA_MAC[i]}" \
			'[.[] | (.station // empty) | select(.addr == $a) | .up // empty] |
			"\(.[-1].ampdu_used // 0) \(.[-1].ampdu_measured // 0) \(map(.ampdu_measured // empty) |
			if length > 0 then "\(add / length) \(min) \(max)" else "0 0 0" end)"' \
			"$WIFI_DIR/up-class.json")"
		meas=$(awk -v m="$meas" 'BEGIN{printf "%.2f", m}')
		truth=$(awk -v a=$((a1 - a0)) -v n=$((n1 - n0)) 'BEGIN{if (a > 0) printf "%.2f", n / a; else print 0}')
		msg+="sta$i: hook ${meas:-?} (${lo:-?}-${hi:-?}) medium $truth charged ${used:-?}; "
		# within a factor 1.4 of the hook's samples through the measurement, lowest to
		# highest (the hook sees only the MPDUs that arrived, the medium counts every
		# PPDU attempt; and the hook's figure trails a length that moves: in CI runs on
		# 6.12 a station's samples fell from 4.9 to 2.8 and from 4.2 to 1.75 through the
		# measurement, means 3.64 and 2.81 against the medium's 2.79 and 1.82 over the
		# window, where runs otherwise read within 1.16); a TCP upload here aggregates
		# little (1-4 MPDUs, the most aggregating station 1.46-3.4), so some station
		# must go above that factor, where a hook that counted each MPDU as a PPDU of
		# its own (1.0) would fail the comparison
		awk -v lo="${lo:-0}" -v hi="${hi:-0}" -v t="$truth" -v u="${used:-0}" -v l="${last:-0}" 'BEGIN{
			exit !(lo > 0 && t > 0 && lo <= 1.4 * t && t <= 1.4 * hi && u - l < 0.01 && l - u < 0.01)}' || ok=0
		awk -v t="$truth" 'BEGIN{exit !(t > 1.4)}' && agg=1
	done
	[ "$agg" = 1 ] || ok=0
	if [ $ok = 1 ]; then
		ktap_test_pass "airfair charges the station's own A-MPDU length ($msg)"
	else
		for i in 1 2 3; do
			log "sta$i: hook's uplink A-MPDU length samples $(jq -r -s --arg a "${STA_MAC[i]}" \
				'[.[] | (.station // empty) | select(.addr == $a) | .up.ampdu_measured // 0] | map(tostring) | join(" ")' \
				"$WIFI_DIR/up-class.json")"
		done
		ktap_test_fail "airfair charges the station's own A-MPDU length ($msg)"
	fi
fi
ktap_finished

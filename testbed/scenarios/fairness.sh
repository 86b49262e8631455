# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The 3-station airtime-fairness scenario, shared by testbed/run-scenario.sh (the
# scenarios of testbed/scenarios/*.toml, make demo among them) and
# selftests/fairness_*.sh. Source after selftests/lib.sh. See docs/fairness.md.
#
#   fair_setup                  medium + hwsim AP (FAIR_PHY: 11a by default) + stations + wired server
#   fair_warmup SECS            TCP both ways so minstrel settles; rates sampled meanwhile
#   fair_read_rates             FAIR_RATE_DN[i] (AP->sta) and FAIR_RATE_UP[i] (sta->AP), Mbit/s
#   fair_set_qdisc Q [OPTS]     (OPTS: more options for tc, after the variant's own) pfifo | fq_codel | airfair[-precise] | airfair-naive |
#                               airfair-estimated | airfair-nowindow | airfair-static |
#                               airfair-pending | other. airfair-estimated: upload ACKs charged
#                               d data frames (Eq. 9) instead of the data observed;
#                               airfair-nowindow: upload ACKs' windows left alone (no-upload-window).
#                               airfair and airfair-naive take each
#                               station's rate and loss live from the mac80211 hook if the
#                               running mac80211 has it, else from airfair-feeder (nl80211);
#                               airfair-static gets the warm-up's rates, loss 0 (tc only);
#                               airfair-pending: unmetered, backpressure from the hook's
#                               pending airtime (pending-limit), needs the patched mac80211;
#                               airfair-default: the module's defaults and the preset only
#                               (pending-limit auto with the hook, the meter at 100 % of
#                               real time, i.e. 100k % of the dilated channel: no limit)
#                               airfair-window: airfair-default, and airfair-feeder on
#                               hostapd's socket sets the stations' best-effort CWmin
#                               by their number (its default with the hook, --sta-window
#                               on the stock path; the feeder stops, and hostapd's own
#                               window comes back, at the next fair_set_qdisc)
#   fair_run Q DIR SECS         TCP to/from all stations at once; fills FAIR_* results
#   fair_quiesce                wait until no station has data to the server outstanding
#   fair_table Q DIR SECS       prints the per-station table of the last fair_run
#
# Environment (all optional; AIRFAIR_* pass into the VM):
#   AIRFAIR_MEDIUM_K            dilation k (6)
#   AIRFAIR_DEMO_MEDIUM_CONF    a medium config file instead of the embedded one (its
#                               `dilation` is overridden by k)
#   AIRFAIR_MEDIUM_CMD          a whole medium command instead (see wifi_setup in lib.sh)
#   AIRFAIR_DEMO_UTILISATION    airfair's utilisation, % of real time (70/k)
#   AIRFAIR_DEMO_PENDING        airfair-pending's pending-limit (3ms)
#   AIRFAIR_DEMO_OMIT           seconds of each run left out of every figure (3)
#   AIRFAIR_DEMO_DELAY_MS       netem delay on the wired side, real ms (10)
#   AIRFAIR_DEMO_SEED           the medium's seed (7)
#   AIRFAIR_DEMO_SAVE           keep each run's raw data in this directory, files named
#                               ${FAIR_SAVE_PREFIX:-Q-DIR}-* (testbed/analysis reads them)

FAIR_K=${AIRFAIR_MEDIUM_K:-6}
FAIR_OMIT=${AIRFAIR_DEMO_OMIT:-3}
FAIR_DELAY=${AIRFAIR_DEMO_DELAY_MS:-10}
# The meter must bind (else the backlog sits below the qdisc, in mac80211 and the medium,
# where airfair cannot schedule it). The stations' TCP ACKs and the beacons use the same
# air without passing the qdisc. With each station's loss live from the hook (30 s runs,
# docs/fairness.md): 50/k Jain 0.999 down / 0.988 up but the air only 38-51 % busy; 70/k
# 0.998 / 0.981 with 18-45 % more goodput; 85/k 0.996 / 0.957 (upload: the air, not the
# meter, is the bottleneck again). Default 70/k.
FAIR_UTIL=${AIRFAIR_DEMO_UTILISATION:-$(awk -v k="$FAIR_K" 'BEGIN{printf "%.1f", 70 / k}')}
# airfair-pending: how much airtime (PHY µs, not dilated) the hook may report pending below
# the qdisc before airfair holds packets back.
FAIR_PENDING=${AIRFAIR_DEMO_PENDING:-3ms}
# CoDel runs in real time while the air is k times slower: scale target and interval by k.
FAIR_AIRFAIR_OPTS=${AIRFAIR_DEMO_AIRFAIR_OPTS:-target $((5 * FAIR_K))ms interval $((100 * FAIR_K))ms}
FAIR_MEDIUM_BIN=${AIRFAIR_MEDIUM_BIN:-$AIRFAIR_REPO/build/testbed/medium/airfair-medium}
# The stations: a scenario that sources this file after setting FAIR_NSTA, FAIR_SNR,
# FAIR_LINK (and FAIR_FLOWS for `fair_run Q mixed`) keeps its own. By default 3: SNR per
# station (radio i); station 3 is also rate-capped at 6 Mbit/s (attempts above fail) so
# that it settles on 6 with a clean link instead of hovering between 6 and 9 at 14 % PER.
[ -n "${FAIR_MEDIUM_EXTRA+set}" ] || FAIR_MEDIUM_EXTRA=()
# hostapd.conf lines of the AP's EDCA (a scenario's [hostapd]; FAIR_MEDIUM_EXTRA has the
# medium's side of them)
[ -n "${FAIR_HOSTAPD_EXTRA+set}" ] || FAIR_HOSTAPD_EXTRA=()
FAIR_PING_S=${FAIR_PING_S:-0.5}
# The PHY: the medium's preset, hostapd's mode and airfair's preset (all 5 GHz)
FAIR_PHY=${FAIR_PHY:-11a}
case $FAIR_PHY in
11a) FAIR_MODE=legacy ;;
11n-5g) FAIR_MODE=ht ;;
11ac) FAIR_MODE=vht ;;
*) echo "fairness.sh: FAIR_PHY '$FAIR_PHY': 11a, 11n-5g or 11ac" >&2; return 1 ;;
esac
if [ -z "${FAIR_NSTA:-}" ]; then
	FAIR_NSTA=3
	FAIR_SNR=("" 35 19 11)
	FAIR_LINK=("" "snr 35" "snr 19" "snr 11 rate-cap 6")
fi
# FAIR_FLOWS[i]: station i's flows in a mixed run, each tcp-down, tcp-up, udp-down[:RATE]
# or udp-up[:RATE] (RATE as iperf3's -b, 20M by default), a TCP one with @CC for its
# congestion control (tcp-down@reno), and +SIZE/EVERY for transfers of SIZE bytes (iperf3
# -n) every EVERY real seconds instead of one flow for the whole run (tcp-down+10K/3):
# jung-park's intermittent traffic, each transfer's iperf3 JSON in sess-staI-K-N.json;
# ~MS adds MS real milliseconds to the flow's wired delay (tcp-down~300: kliazovich's
# per-flow RTTs). Order: KIND[:RATE][+SIZE/EVERY][~MS][@CC]. An empty FAIR_FLOWS[i]: station
# i stays idle (associated, no flow); an unset one: one tcp-down.

# The embedded medium config: AP = radio 0, station i = radio i; `pair` = both directions.
fair_medium_conf() {
	local i
	cat <<EOF
# airfair demo medium (testbed/scenarios/fairness.sh)
seed ${AIRFAIR_DEMO_SEED:-7}
dilation $FAIR_K
stats-interval 250
phy 5g $FAIR_PHY
default snr 40
EOF
	for ((i = 1; i <= FAIR_NSTA; i++)); do echo "pair 0 $i ${FAIR_LINK[i]}"; done
	# a scenario's own lines (EDCA, queue limit: testbed/scenarios/*.toml `medium`)
	[ ${#FAIR_MEDIUM_EXTRA[@]} = 0 ] || printf '%s\n' "${FAIR_MEDIUM_EXTRA[@]}"
}

fair_setup() {
	wifi_workdir
	trap 'fair_stop_feeder; wifi_cleanup' EXIT
	if [ -z "${AIRFAIR_MEDIUM_CMD:-}" ]; then
		[ -x "$FAIR_MEDIUM_BIN" ] || { log "fair_setup: $FAIR_MEDIUM_BIN not built (make)"; return 1; }
		if [ -n "${AIRFAIR_DEMO_MEDIUM_CONF:-}" ]; then
			cp "$AIRFAIR_DEMO_MEDIUM_CONF" "$WIFI_DIR/medium.conf" || return 1
		else
			fair_medium_conf > "$WIFI_DIR/medium.conf"
		fi
		AIRFAIR_MEDIUM_CMD="$FAIR_MEDIUM_BIN -c $WIFI_DIR/medium.conf -k $FAIR_K -I 250"
		AIRFAIR_MEDIUM_CMD+=' -S $AIRFAIR_MEDIUM_STATS -o $WIFI_DIR/medium-final.json'
	fi
	export AIRFAIR_MEDIUM_CMD
	# a medium queue of more than 100 frames: hwsim (which frees its pending frames at
	# 200) must hold them and those on their way through netlink: twice the limit + 200
	local ql
	ql=$(awk '$1 == "queue-limit" {q = $2} END {print q + 0}' "$WIFI_DIR/medium.conf" 2>/dev/null)
	[ "${ql:-0}" -gt 100 ] && export WIFI_HWSIM_MAX_PENDING=$((2 * ql + 200))
	local hx=""
	[ ${#FAIR_HOSTAPD_EXTRA[@]} = 0 ] || hx=$(printf '%s\n' "${FAIR_HOSTAPD_EXTRA[@]}")
	WIFI_HOSTAPD_EXTRA=$hx WIFI_DILATION=$FAIR_K \
		wifi_setup "$FAIR_NSTA" band=5g mode="$FAIR_MODE" || return 1
	server_setup "$FAIR_DELAY" || return 1
	fair_reorder_probe
	[ -n "${AIRFAIR_MEDIUM_STATS:-}" ] && [ -s "$AIRFAIR_MEDIUM_STATS" ] ||
		{ log "fair_setup: no live stats from the medium"; return 1; }
}

# FAIR_RATE_DN[i] / FAIR_RATE_UP[i]: the AP's TX rate to station i and the station's to the
# AP, Mbit/s: the most frequent of the samples taken (fair_sample_rates), else the current one.
fair_read_rates() {
	local i
	[ -s "${FAIR_RATE_SAMPLES:-}" ] || { FAIR_RATE_SAMPLES=$WIFI_DIR/rate-samples; fair_sample_rates; }
	FAIR_RATE_DN=("") FAIR_RATE_UP=("")
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		FAIR_RATE_DN[i]=$(awk -v i="$i" '$1 == "dn" && $2 == i && $3 != "" {n[$3]++}
			END{for (r in n) if (n[r] > b) {b = n[r]; m = r}; print m}' "$FAIR_RATE_SAMPLES")
		FAIR_RATE_UP[i]=$(awk -v i="$i" '$1 == "up" && $2 == i && $3 != "" {n[$3]++}
			END{for (r in n) if (n[r] > b) {b = n[r]; m = r}; print m}' "$FAIR_RATE_SAMPLES")
	done
}

# TCP download then upload to all stations (self-limiting: nothing is left queued after),
# so that the AP's and the stations' minstrel settle. Meanwhile the TX bitrates are sampled;
# fair_read_rates then keeps each link's most frequent one (the max-throughput rate: the
# last-used rate alone is often one of minstrel's probes).
fair_warmup() {
	local secs=${1:-4} d i pid
	FAIR_RATE_SAMPLES=$WIFI_DIR/rate-samples
	: > "$FAIR_RATE_SAMPLES"
	for d in down up; do
		iperf_run tcp $d "$(seq -s ' ' 1 "$FAIR_NSTA")" "$secs" > /dev/null &
		pid=$!
		sleep 1.5
		for ((i = 0; i < 6; i++)); do fair_sample_rates $d; sleep 0.2; done
		wait "$pid"	# not a bare wait: the medium daemon is a background job too
	done
	fair_read_rates
	fair_quiesce
}

# fair_quiesce: wait (at most 30 s) until no station socket to the server holds data that is
# unsent or unacknowledged. iperf3 ends a test while the senders' buffers still hold data
# (a window grown on held-back ACKs), and that tail must not overlap the next run: under
# airfair its ACKs and their upload charges would hold up the next run's handshakes. The
# root qdisc becomes pfifo for the drain. FAIR_QUIESCE_S: seconds it took.
fair_quiesce() {
	local t0=$EPOCHREALTIME i left
	tc qdisc replace dev "$AP_IF" root pfifo limit 1000 > /dev/null 2>&1
	while :; do
		left=0
		for ((i = 1; i <= FAIR_NSTA; i++)); do
			left=$((left + $(ip netns exec "$(sta_ns "$i")" ss -tnH dst "$SERVER_IP" 2>/dev/null |
				awk '{s += $3} END{print s + 0}')))
		done
		[ "$left" = 0 ] && break
		awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{exit !(b - a > 30)}' && break
		sleep 0.5
	done
	FAIR_QUIESCE_S=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b - a}')
}

# fair_sample_rates [down|up]: the AP's TX rates (down), the stations' (up), or both. Only
# sampled while that side sends data: minstrel picks other rates for short frames (TCP ACKs).
fair_sample_rates() {
	local i
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		[ "${1:-down}" = down ] && echo "dn $i $(iw dev "$AP_IF" station get "${STA_MAC[i]}" 2>/dev/null |
			awk '/tx bitrate:/{print $3 + 0; exit}')"
		[ "${1:-up}" = up ] && echo "up $i $(ip netns exec "$(sta_ns "$i")" iw dev "${STA_IF[i]}" station dump 2>/dev/null |
			awk '/tx bitrate:/{print $3 + 0; exit}')"
	done >> "$FAIR_RATE_SAMPLES"
}

# Station clauses with the rates in use now (the AP's TX rate to each station).
fair_station_clauses() {
	local i s="" r
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		r=${FAIR_RATE_DN[i]:-}
		[ -n "$r" ] && [ "$r" != 0 ] && s+=" station ${STA_MAC[i]} rate ${r}mbit"
	done
	echo "$s"
}

FAIR_FEEDER_BIN=${AIRFAIR_FEEDER_BIN:-$AIRFAIR_REPO/build/tools/airfair-feeder}
FAIR_FEEDER_PID=""
fair_stop_feeder() {
	[ -n "$FAIR_FEEDER_PID" ] && kill "$FAIR_FEEDER_PID" 2>/dev/null && wait "$FAIR_FEEDER_PID" 2>/dev/null
	FAIR_FEEDER_PID=""
	return 0
}

# fair_codel_opts EXTRA: FAIR_AIRFAIR_OPTS less the CoDel target and interval EXTRA gives
# itself. tc refuses a key given twice, and a scenario's variant may set its own (a CoDel
# that never drops, as a bound).
fair_codel_opts() {
	local o=" $FAIR_AIRFAIR_OPTS " k
	for k in target interval; do
		[[ " $1 " == *" $k "* ]] && o=$(sed -E "s/ $k [^ ]+ / /" <<< "$o")
	done
	o=${o# }
	echo "${o% }"
}

# The windows airfair-feeder --sta-window had hostapd advertise, in turn, and the last
# count behind them (its log), for the run's qdisc note.
fair_window_note() {
	local l
	[ "${FAIR_WINDOW_NOTE:-0}" = 1 ] || return 0
	l=$(grep -o '[0-9]* station(s)[^:]*: their best-effort CWmin [0-9]*' "$WIFI_DIR/feeder.log")
	printf ", the stations' window by their number (CWmin %s: %s)" \
		"$(grep -o '[0-9]*$' <<< "$l" | paste -sd ' ' | sed 's/ /, then /g')" \
		"$(tail -n 1 <<< "$l" | sed 's/: their best-effort CWmin [0-9]*$//')"
}

# Install root qdisc Q on the AP. On failure prints why and returns 1.
fair_set_qdisc() {
	local q=$1 extra=${2:-} out model upload src opts window
	FAIR_QNOTE=""
	FAIR_WINDOW_NOTE=0
	fair_stop_feeder
	rm -f "$WIFI_DIR/feeder.log"
	opts=$(fair_codel_opts "$extra")
	case $q in
	pfifo) out=$(tc qdisc replace dev "$AP_IF" root pfifo limit 1000 $extra 2>&1) ;;
	airfair-pending)
		# backpressure from the mac80211 hook's pending airtime instead of the meter
		have_hook ||
			{ echo "airfair-pending: needs the mac80211 hook (boot with mac80211-patches/)"; return 1; }
		out=$(tc qdisc replace dev "$AP_IF" root airfair "$FAIR_PHY" model precise \
			unmetered pending-limit "$FAIR_PENDING" $opts $extra 2>&1) ||
			{ echo "airfair-pending: $out"; return 1; }
		FAIR_QNOTE="model precise, unmetered, pending-limit $FAIR_PENDING, ${opts:+$opts, }rate and loss live from the mac80211 hook" ;;
	airfair|airfair-precise|airfair-naive|airfair-estimated|airfair-nowindow|airfair-static|airfair-default|airfair-window)
		[ "$q" = airfair-naive ] && model=naive || model=precise
		[ "$q" = airfair-estimated ] && upload=estimated || upload=observed
		[ "$q" = airfair-nowindow ] && upload+=" no-upload-window" || upload+=" upload-window"
		if [ "$q" = airfair-default ] || [ "$q" = airfair-window ]; then
			out=$(tc qdisc replace dev "$AP_IF" root airfair "$FAIR_PHY" $opts $extra 2>&1) ||
				{ echo "airfair: $out"; return 1; }
		else
			out=$(tc qdisc replace dev "$AP_IF" root airfair "$FAIR_PHY" model $model upload $upload \
				utilisation "$FAIR_UTIL" $opts $extra 2>&1) ||
				{ echo "airfair model $model: $out"; return 1; }
		fi
		# airfair-window: the defaults, and the stations' best-effort window set through
		# hostapd by their number (airfair-feeder: by default where the hook reports the
		# stations, whose rates it then leaves alone; --sta-window on the stock path)
		window=()
		if [ "$q" = airfair-window ]; then
			[ -x "$FAIR_FEEDER_BIN" ] || { echo "airfair-window: $FAIR_FEEDER_BIN not built"; return 1; }
			window=(--hostapd "$WIFI_DIR/hostapd/$AP_IF")
		fi
		if [ "$q" != airfair-static ] && have_hook; then
			src="rate and loss live from the mac80211 hook"
			if [ ${#window[@]} -gt 0 ]; then
				"$FAIR_FEEDER_BIN" -i "$AP_IF" "${window[@]}" > "$WIFI_DIR/feeder.log" 2>&1 &
				FAIR_FEEDER_PID=$!
			fi
		elif [ "$q" != airfair-static ] && [ -x "$FAIR_FEEDER_BIN" ]; then
			# the feeder sets no window on the stock path unless told to
			[ ${#window[@]} = 0 ] || window+=(--sta-window)
			"$FAIR_FEEDER_BIN" -i "$AP_IF" --interval 200 "${window[@]}" > "$WIFI_DIR/feeder.log" 2>&1 &
			FAIR_FEEDER_PID=$!
			src="rate and loss live from airfair-feeder (nl80211, 200 ms)"
		else
			# shellcheck disable=SC2046
			out=$(tc qdisc change dev "$AP_IF" root airfair $(fair_station_clauses) 2>&1) ||
				{ echo "airfair station rates: $out"; return 1; }
			src="static rates:$(fair_station_clauses | sed 's/ station [^ ]* rate / /g'), loss 0"
		fi
		if [ "$q" = airfair-default ] || [ "$q" = airfair-window ]; then
			FAIR_QNOTE="defaults (pending-limit auto, utilisation auto), ${opts:+$opts, }$src"
		else
			FAIR_QNOTE="model $model, upload $upload, utilisation $FAIR_UTIL %, ${opts:+$opts, }$src"
		fi
		if [ ${#window[@]} -gt 0 ]; then
			# until hostapd's beacons carry it (the feeder attaches within a second)
			sleep 2
			FAIR_WINDOW_NOTE=1
		fi ;;
	*) out=$(tc qdisc replace dev "$AP_IF" root $q $extra 2>&1) ;;
	esac
	[ $? = 0 ] || { echo "$q $extra: $(head -n 1 <<< "$out")"; return 1; }
	[ -z "$extra" ] || FAIR_QNOTE+="${FAIR_QNOTE:+, }$extra"
}

# Airtime (µs, simulated) of every station in a medium stats file, one line per station:
# all links with the station as transmitter or as receiver, every AC, incl. its group-addressed
# frames; airtime_us = data PPDUs + SIFS/ACK (the ACK is counted with the frame it
# acknowledges) + collided + lost attempts. Then the channel's busy time and sim time.
# Then per station the same plus the AIFS and backoff that preceded those frames
# (backoff_idle_us): chen-yan's airtime, direct + all indirect parts.
fair_medium_read() {	# FILE
	jq -r --argjson n "$FAIR_NSTA" '.medium as $m
		| def sta($i): [$m.links[] | select(.tx == $i or .rx == $i)];
		  [range(1; $n + 1) as $i | sta($i) | map(.airtime_us) | add // 0][],
		  ($m.channels | map(.busy_us) | add // 0), $m.sim_time_us,
		  [range(1; $n + 1) as $i | sta($i) | map(.airtime_us + (.backoff_idle_us // 0)) | add // 0][]' "$1"
}

# The data bytes and their PPDU time on each station's data link (DIRS: one word per
# station, down: AP -> station, up: station -> AP; best effort, and background, where
# airfair's defer-data sends the AP's bulk data), one "bytes data_us" line per station.
fair_medium_links() {	# FILE DIRS
	jq -r --argjson n "$FAIR_NSTA" --arg dirs "$2" '.medium as $m
		| ($dirs | split(" ") | map(select(. != ""))) as $d
		| range(1; $n + 1) as $i
		| [$m.links[] | select((.ac == "be" or .ac == "bk") and (if $d[$i - 1] == "down" then .tx == 0 and .rx == $i
			else .tx == $i and .rx == 0 end))]
		| "\(map(.bytes) | add // 0) \(map(.data_us) | add // 0)"' "$1"
}

# fair_flows I DIR: station I's flows in a run in direction DIR (down, up or mixed)
fair_flows() {
	case $2 in
	down) echo tcp-down ;;
	up) echo tcp-up ;;
	*) echo "${FAIR_FLOWS[$1]-tcp-down}" ;;
	esac
}

# fair_run Q DIR SECS: one TCP flow per station (DIR down or up), or each station's
# FAIR_FLOWS (DIR mixed), all at once, for FAIR_OMIT + SECS seconds; the first FAIR_OMIT
# seconds are left out of goodput and airtime.
#   FAIR_GP[i]     goodput, simulated Mbit/s (iperf3 receiver x k, all its flows)
#   FAIR_AIR[i]    ground-truth airtime, simulated µs;  FAIR_SHARE[i] %
#   FAIR_EST[i]    airfair's own accounting share % (airfair only)
#   FAIR_BKL[i]    % of the measured time station i had packets queued in airfair
#                  (airfair only): below its fair share is max-min fair only if it
#                  was not backlogged
#   FAIR_GPA[i]    its goodput per second of its own air (simulated Mbit/s), for
#                  fair_efficiency
#   FAIR_JAIN      Jain's index over FAIR_AIR;  FAIR_BUSY channel busy %;  FAIR_TOTAL Mbit/s
#   FAIR_JAIN_CY   the same with each frame's AIFS + backoff counted (chen-yan's airtime)
#   FAIR_TC_STATS  `tc -s qdisc show` of the root qdisc at the end of the run
#   FAIR_MRATE[i]  the rate the medium carried station i's data at (delivered bytes x 8 /
#                  their PPDU time, Mbit/s; a little under the PHY rate: preamble, headers)
#   FAIR_HWLOST    "AP stations": frames hwsim freed unseen by the medium (fair_hwsim_lost)
#   FAIR_QPEAK / FAIR_MPEAK  peak backlog in the root qdisc / below it: the AP radio's queue
#                  in the medium (frames mac80211 and hwsim handed down, not yet finished;
#                  hwsim pulls mac80211's TXQs empty at once), sampled about once a second
# Frames hwsim freed unseen by the medium (hwsim_lost), "AP stations".
fair_hwsim_lost() {
	local i d f st=0
	read -r d f < <(hwsim_lost "$AP_IF")
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		st=$((st + $(hwsim_lost "${STA_IF[i]}" "$(sta_ns "$i")" | awk '{print $1 + $2}')))
	done
	echo "$((d + f)) $st"
}

fair_tcp_losses() {	# NETNS: "retransmitted-segments timeouts spurious-timeouts"
	ip netns exec "$1" nstat -az TcpRetransSegs TcpExtTCPTimeouts TcpExtTCPSpuriousRTOs 2>/dev/null |
		awk '$1 == "TcpRetransSegs" {r = $2} $1 == "TcpExtTCPTimeouts" {t = $2}
			$1 == "TcpExtTCPSpuriousRTOs" {s = $2} END{print r + 0, t + 0, s + 0}'
}

# fair_drops: a line per sender — station i (and "srv", the wired server) — with its TCP
# retransmitted segments, timeouts, the packets dropped below TCP on its side (its
# interface's root qdisc, which counts its children's, and where mac80211 has TXQs its
# TXQs: debugfs aqm "drops", which mac80211's CoDel counts), the timeouts TCP found
# spurious (F-RTO), and the expiries of its receiver's reorder timer (fair_reorder_probe;
# for "srv", the stations' timers on the AP's frames). Snapshotted as the omitted seconds begin and after the measured
# window ends, never inside it: where an upload's losses come from when the medium lost
# nothing.
# Each expiry of a receiver's reorder timer (mac80211 released frames past a hole: the
# missing MPDU, if it comes, is then freed as out of date), traced with the sender's
# address: the frames a TCP sender lost between the medium and its peer's stack.
fair_reorder_probe() {
	local tr=/sys/kernel/tracing
	[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null || return 0
	echo 'p:af_reorder_to mac80211:ieee80211_release_reorder_timeout addr=+64(%di):x8[6]' \
		>> "$tr/kprobe_events" 2>/dev/null || { log "reorder probe: kprobe refused"; return 0; }
	echo 1 > "$tr/events/kprobes/af_reorder_to/enable"
}

fair_reorder_count() {	# MAC: reorder-timer expiries for frames from MAC
	awk -v m="$1" '/af_reorder_to:/ { a = $NF; gsub(/addr=\{|\}|0x/, "", a); n = split(a, b, ",")
		s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? ":" : "") sprintf("%02s", b[i])
		gsub(/ /, "0", s); if (tolower(s) == tolower(m)) c++ } END {print c + 0}' \
		/sys/kernel/tracing/trace 2>/dev/null || echo 0
}

fair_drops() {
	local i ns qd aqm r t sp
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		ns=$(sta_ns "$i")
		qd=$(ip netns exec "$ns" tc -s qdisc show dev "${STA_IF[i]}" 2>/dev/null |
			awk '/dropped/ && !n++ {sub(",", "", $7); s = $7} END{print s + 0}')
		aqm=$(cat /sys/kernel/debug/ieee80211/"${STA_PHY[i]}"/netdev:"${STA_IF[i]}"/stations/*/aqm 2>/dev/null |
			awk '$1 ~ /^[0-9]+$/ && NF >= 11 {s += $6} END{print s + 0}')
		read -r r t sp <<< "$(fair_tcp_losses "$ns")"
		echo "$i $r $t $qd $aqm $sp $(fair_reorder_count "${STA_MAC[i]}")"
	done
	read -r r t sp <<< "$(fair_tcp_losses "$SERVER_NS")"
	echo "srv $r $t 0 0 $sp $(fair_reorder_count "$(cat /sys/class/net/"$AP_IF"/address)")"
}

# fair_tcp_trace: a line per TCP socket carrying data in the server's and the stations'
# namespaces, "TIME NS LOCAL PEER tcp_info..." (ss -ti); tcp-trace.txt while traced
fair_tcp_trace() {
	local i ns
	for ((i = 0; i <= FAIR_NSTA; i++)); do
		if [ "$i" = 0 ]; then ns=$SERVER_NS; else ns=$(sta_ns "$i"); fi
		ip netns exec "$ns" ss -tinH state established 2>/dev/null |
			awk -v t="$EPOCHREALTIME" -v n="$ns" 'NR % 2 {h = $3 " " $4; next}
				/bytes_acked|bytes_received/ {print t, n, h, $0}'
	done
}

# fair_tcp_probe on|off: the kernel's tcp:tcp_probe events of the iperf flows (cwnd, srtt,
# bytes in flight at each ACK) in a tracing instance of their own, saved as
# tcp-probe.txt when turned off, after a trace_marker line with the real time
fair_tcp_probe() {
	local i=/sys/kernel/tracing/instances/af_tcp
	if [ "$1" = on ]; then
		[ -d "$i" ] || mkdir "$i" 2>/dev/null || return 0
		[ -d "$i/events/tcp/tcp_probe" ] || return 0
		echo 8192 > "$i/buffer_size_kb"
		echo "sport >= $IPERF_PORT_BASE && sport < $((IPERF_PORT_BASE + 100)) ||" \
		     "dport >= $IPERF_PORT_BASE && dport < $((IPERF_PORT_BASE + 100))" \
			> "$i/events/tcp/tcp_probe/filter"
		echo > "$i/trace"
		echo "af_mark $EPOCHREALTIME" > "$i/trace_marker"
		echo 1 > "$i/events/tcp/tcp_probe/enable"
	elif [ -d "$i/events/tcp/tcp_probe" ]; then
		echo 0 > "$i/events/tcp/tcp_probe/enable"
		grep -v '^#' "$i/trace" > "$WIFI_DIR/tcp-probe.txt"
	fi
}

fair_run() {
	local q=$1 dir=$2 secs=$3 i k f r d args pids=() ports="" sports="" t0 dirs="" port delays=""
	FAIR_GP=("") FAIR_AIR=("") FAIR_SHARE=("") FAIR_EST=("") FAIR_BKL=("") FAIR_GPA=("") FAIR_MRATE=("") FAIR_JAIN=n/a FAIR_JAIN_CY=n/a FAIR_BUSY=0
	FAIR_QPEAK=0 FAIR_MPEAK=0 FAIR_TOTAL=0 FAIR_HWLOST="0 0"
	rm -f "$WIFI_DIR"/iperf-sta*-*.json "$WIFI_DIR"/sess-sta*-*.json "$WIFI_DIR"/ping-sta*.txt \
		"$WIFI_DIR/class-trace.txt" "$WIFI_DIR/tcp-trace.txt" "$WIFI_DIR/tcp-probe.txt" "$WIFI_DIR"/drops[01].txt
	# station i's k-th flow: server port IPERF_PORT_BASE + 10 i + k, iperf-staI-K.json
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		k=0
		for f in $(fair_flows "$i" "$dir"); do
			port=$((IPERF_PORT_BASE + 10 * i + k))
			case $f in
			*+*) sports+=" $port" ;;
			*) ports+=" $port" ;;
			esac
			case ${f%@*} in *~*) d=${f#*~}; delays+=" $port:${d%@*}" ;; esac
			k=$((k + 1))
		done
	done
	[ -z "$ports" ] || iperf_servers $ports || return 1
	[ -z "$sports" ] || iperf_servers --persistent $sports || return 1
	# per-flow wired delays in place before the first SYN
	[ -z "$delays" ] || fair_flow_delays $delays || return 1
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		k=0
		for f in $(fair_flows "$i" "$dir"); do
			port=$((IPERF_PORT_BASE + 10 * i + k))
			case $f in *+*)
				fair_sessions "$i" "$k" "$port" "$f" "$secs" &
				pids+=($!)
				k=$((k + 1))
				continue ;;
			esac
			args="-t $secs -O $FAIR_OMIT -J --connect-timeout 3000"
			case $f in *-down*) args+=" -R" ;; esac
			case $f in *@*) args+=" -C ${f#*@}" ;; esac
			case $f in udp-*)
				r=${f%@*}; r=${r%~*}; r=${r#*:}; [ "$r" = "${f%@*}" ] && r=20M
				args+=" -u -b $r -l 1400" ;;
			esac
			timeout $((secs + FAIR_OMIT + 30)) ip netns exec "$(sta_ns "$i")" \
				iperf3 -c "$SERVER_IP" -p "$port" $args \
				> "$WIFI_DIR/iperf-sta$i-$k.json" 2> "$WIFI_DIR/iperf-sta$i-$k.err" &
			pids+=($!)
			k=$((k + 1))
		done
		f=$(fair_flows "$i" "$dir"); f=${f%% *}; f=${f#*-}; dirs+=" ${f%%[:@+~]*}"
	done
	t0=$EPOCHREALTIME
	# the first drop snapshot in the omitted seconds: its forks load the guest
	fair_drops > "$WIFI_DIR/drops0.txt"
	sleep "$(awk -v t="$t0" -v o="$FAIR_OMIT" -v n="$EPOCHREALTIME" \
		'BEGIN{d = t + o - n; if (d < 0) d = 0; printf "%.3f", d}')"
	cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/m0.json"
	local hw0 hw1
	hw0=$(fair_hwsim_lost)
	# latency under load: each station pings the server every FAIR_PING_S real
	# seconds while measured (0: no pings, the stations' own frames left out)
	local ppids=()
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		[ "$FAIR_PING_S" = 0 ] && break
		ip netns exec "$(sta_ns "$i")" ping -i "$FAIR_PING_S" -w "$secs" "$SERVER_IP" \
			> "$WIFI_DIR/ping-sta$i.txt" 2>&1 &
		ppids+=($!)
	done
	[ "${FAIR_CLASS_TRACE:-0}" = 1 ] && fair_tcp_probe on
	local c0t c1t
	# airfair's classes, for airfair only: a previous run's must not be saved as this one's.
	# The window's ends are the middle of each class dump (tc forks slowly under TCG;
	# the stations' backlogged time is divided by it)
	rm -f "$WIFI_DIR/c0.json" "$WIFI_DIR/c1.json"
	c0t=$EPOCHREALTIME
	case $q in airfair*) tc -j -s class show dev "$AP_IF" | grep '^{' > "$WIFI_DIR/c0.json" ;; esac
	c0t=$(awk -v a="$c0t" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.6f", (a + b) / 2}')
	local end qv mv
	end=$(awk -v t="$t0" -v s="$secs" -v o="$FAIR_OMIT" 'BEGIN{printf "%.3f", t + o + s}')
	# Backlog samples while the measurement runs (about one a second: forks are dear under TCG).
	while awk -v n="$EPOCHREALTIME" -v e="$end" 'BEGIN{exit !(n < e - 1.2)}'; do
		qv=$(qdisc_counters "$AP_IF" qlen)
		mv=$(sed -n 's/.*{"radio": 0, .*"queued_peak": \([0-9]*\)}.*/\1/p' "$AIRFAIR_MEDIUM_STATS")
		[ "${qv:-0}" -gt "$FAIR_QPEAK" ] && FAIR_QPEAK=$qv
		[ "${mv:-0}" -gt "$FAIR_MPEAK" ] && FAIR_MPEAK=$mv
		case ${FAIR_CLASS_TRACE:-0}:$q in 1:airfair*)
			{ tc -j -s qdisc show dev "$AP_IF"; echo
			  tc -j -s class show dev "$AP_IF"
			  # the medium's ground truth beside them (its stats file, 250 ms old at most)
			  jq -c '{medium: {sim_time_us: .medium.sim_time_us, links: .medium.links}}' \
				"$AIRFAIR_MEDIUM_STATS"; } | grep '^[[{]' | sed "s/^/$EPOCHREALTIME /" \
				>> "$WIFI_DIR/class-trace.txt"
			# what limits each TCP sender (cwnd, rwnd, the application): its
			# tcp_info, a socket per line, the server's and each station's
			fair_tcp_trace >> "$WIFI_DIR/tcp-trace.txt" ;;
		esac
		sleep 0.8
	done
	sleep "$(awk -v n="$EPOCHREALTIME" -v e="$end" 'BEGIN{d = e - n; if (d < 0) d = 0; printf "%.3f", d}')"
	[ "${FAIR_CLASS_TRACE:-0}" = 1 ] && fair_tcp_probe off
	cp "$AIRFAIR_MEDIUM_STATS" "$WIFI_DIR/m1.json"
	c1t=$EPOCHREALTIME
	case $q in airfair*) tc -j -s class show dev "$AP_IF" | grep '^{' > "$WIFI_DIR/c1.json" ;; esac
	c1t=$(awk -v a="$c1t" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.6f", (a + b) / 2}')
	hw1=$(fair_hwsim_lost)
	FAIR_HWLOST=$(awk -v a="$hw0" -v b="$hw1" 'BEGIN {split(a, x, " "); split(b, y, " ")
		printf "%d %d", y[1] - x[1], y[2] - x[2]}')
	echo "$FAIR_HWLOST" > "$WIFI_DIR/hwsim-lost.txt"
	fair_drops > "$WIFI_DIR/drops1.txt"
	wait "${pids[@]}" "${ppids[@]}" 2>/dev/null
	for port in $sports; do kill "$(cat "$WIFI_DIR/iperf-server-$port.pid")" 2>/dev/null; done
	[ -z "$delays" ] || fair_flow_delays
	FAIR_TC_STATS=$(tc -s qdisc show dev "$AP_IF")
	fair_quiesce
	if [ -n "${AIRFAIR_DEMO_SAVE:-}" ]; then	# keep the raw data (a directory in the repo)
		mkdir -p "$AIRFAIR_DEMO_SAVE"
		printf '%s %s\n' "$c0t" "$c1t" > "$WIFI_DIR/window.txt"
		printf '%s %s\n' "$FAIR_QPEAK" "$FAIR_MPEAK" > "$WIFI_DIR/peaks.txt"
		printf '%s\n' "$FAIR_TC_STATS" > "$WIFI_DIR/tc.txt"
		for ((i = 1; i <= FAIR_NSTA; i++)); do echo "$i ${STA_MAC[i]}"; done > "$WIFI_DIR/stations.txt"
		# the clients' stderr and the servers' logs: why a flow got nothing
		for f in "$WIFI_DIR"/{m0,m1,c0,c1}.json "$WIFI_DIR"/iperf-sta*-*.json "$WIFI_DIR"/sess-sta*-*.json "$WIFI_DIR"/ping-sta*.txt \
			 "$WIFI_DIR"/iperf-sta*-*.err "$WIFI_DIR"/iperf-server-*.log \
			 "$WIFI_DIR"/{rate-samples,medium.conf,window.txt,stations.txt,peaks.txt,tc.txt,feeder.log,hwsim-lost.txt,class-trace.txt,tcp-trace.txt,tcp-probe.txt,drops0.txt,drops1.txt}; do
			[ -f "$f" ] && cp "$f" "$AIRFAIR_DEMO_SAVE/${FAIR_SAVE_PREFIX:-$q-$dir}-${f##*/}"
		done
	fi
	local a0 a1 l0 l1
	mapfile -t a0 < <(fair_medium_read "$WIFI_DIR/m0.json")
	mapfile -t a1 < <(fair_medium_read "$WIFI_DIR/m1.json")
	mapfile -t l0 < <(fair_medium_links "$WIFI_DIR/m0.json" "$dirs")
	mapfile -t l1 < <(fair_medium_links "$WIFI_DIR/m1.json" "$dirs")
	FAIR_MRATE=("")
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		FAIR_MRATE[i]=$(awk -v a="${l1[i - 1]:-0 0}" -v b="${l0[i - 1]:-0 0}" 'BEGIN{
			split(a, x, " "); split(b, y, " "); t = x[2] - y[2]
			if (t > 0) printf "%.1f", 8 * (x[1] - y[1]) / t; else print 0 }')
	done
	local tot=0 sim
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		FAIR_AIR[i]=$(awk -v a="${a1[i - 1]:-0}" -v b="${a0[i - 1]:-0}" 'BEGIN{printf "%.0f", a - b}')
		tot=$((tot + FAIR_AIR[i]))
		FAIR_GP[i]=$(for f in "$WIFI_DIR/iperf-sta$i"-*.json; do iperf_goodput "$f"; done |
			awk -v k="$FAIR_K" '{ g += $1 } END{ printf "%.2f", g * k }')
	done
	sim=$(awk -v a="${a1[FAIR_NSTA + 1]:-0}" -v b="${a0[FAIR_NSTA + 1]:-0}" 'BEGIN{print a - b}')
	FAIR_BUSY=$(awk -v b="$(awk -v a="${a1[FAIR_NSTA]:-0}" -v b="${a0[FAIR_NSTA]:-0}" 'BEGIN{print a - b}')" \
		-v s="$sim" 'BEGIN{ if (s > 0) printf "%.1f", 100 * b / s; else print 0 }')
	FAIR_SIM_S=$(awk -v s="$sim" 'BEGIN{printf "%.1f", s / 1e6}')
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		FAIR_GPA[i]=$(awk -v g="${FAIR_GP[i]}" -v s="$sim" -v a="${FAIR_AIR[i]}" \
			'BEGIN{ if (a > 0) printf "%.3f", g * s / a; else print 0 }')
	done
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		FAIR_SHARE[i]=$(awk -v a="${FAIR_AIR[i]}" -v t="$tot" 'BEGIN{ if (t > 0) printf "%.1f", 100 * a / t; else print 0 }')
	done
	FAIR_JAIN=$(for ((i = 1; i <= FAIR_NSTA; i++)); do echo "${FAIR_AIR[i]}"; done | fair_jain)
	FAIR_JAIN_CY=$(for ((i = 1; i <= FAIR_NSTA; i++)); do
		awk -v a="${a1[FAIR_NSTA + 1 + i]:-0}" -v b="${a0[FAIR_NSTA + 1 + i]:-0}" 'BEGIN{print a - b}'
	done | fair_jain)
	FAIR_TOTAL=$(for ((i = 1; i <= FAIR_NSTA; i++)); do echo "${FAIR_GP[i]}"; done |
		awk '{s += $1} END{printf "%.2f", s}')
	case $q in airfair*)
		local e
		mapfile -t e < <(jq -n -r --slurpfile c0 "$WIFI_DIR/c0.json" --slurpfile c1 "$WIFI_DIR/c1.json" \
			--arg macs "${STA_MAC[*]:1}" '
			def air($f): [$f[] | .station? | select(.)] | map({(.addr): .airtime_us}) | add // {};
			($macs | split(" ")) as $m
			| (air($c1)) as $b | (air($c0)) as $a
			| [$m[] | (($b[.] // 0) - ($a[.] // 0))] as $d | ($d | add) as $t
			| $d[] | if $t > 0 then (1000 * . / $t | round / 10) else 0 end' 2>/dev/null)
		for ((i = 1; i <= FAIR_NSTA; i++)); do FAIR_EST[i]=${e[i - 1]:-}; done
		mapfile -t e < <(jq -n -r --slurpfile c0 "$WIFI_DIR/c0.json" --slurpfile c1 "$WIFI_DIR/c1.json" \
			--arg macs "${STA_MAC[*]:1}" --argjson us "$(awk -v a="$c0t" -v b="$c1t" 'BEGIN{printf "%.0f", (b - a) * 1e6}')" '
			def bkl($f): [$f[] | .station? | select(.)] | map({(.addr): (.backlogged_us // 0)}) | add // {};
			(bkl($c1)) as $b | (bkl($c0)) as $a
			| ($macs | split(" "))[] | (($b[.] // 0) - ($a[.] // 0)) * 100 / $us | round' 2>/dev/null)
		for ((i = 1; i <= FAIR_NSTA; i++)); do FAIR_BKL[i]=${e[i - 1]:-}; done ;;
	esac
	return 0
}

# fair_flow_delays [PORT:MS]...: the server's egress delays each listed server port's
# packets (its downloads' data, its uploads' ACKs) FAIR_DELAY + MS real ms, the rest
# FAIR_DELAY (htb classes, u32 on the source port, a netem each); none: back to one netem.
fair_flow_delays() {
	local n=1 pd
	if [ $# = 0 ]; then
		ip netns exec "$SERVER_NS" tc qdisc replace dev eth0 root netem delay "${FAIR_DELAY}ms" limit 100000
		return
	fi
	nsrun "$SERVER_NS" "
		tc qdisc del dev eth0 root 2>/dev/null
		tc qdisc add dev eth0 root handle 1: htb default 1 &&
		tc class add dev eth0 parent 1: classid 1:1 htb rate 10gbit &&
		tc qdisc add dev eth0 parent 1:1 netem delay ${FAIR_DELAY}ms limit 100000" || return 1
	for pd in "$@"; do
		n=$((n + 1))
		nsrun "$SERVER_NS" "
			tc class add dev eth0 parent 1: classid 1:$n htb rate 10gbit &&
			tc qdisc add dev eth0 parent 1:$n netem delay $((FAIR_DELAY + ${pd#*:}))ms limit 100000 &&
			tc filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip sport ${pd%%:*} 0xffff flowid 1:$n" ||
			{ log "fair_flow_delays: $pd failed"; return 1; }
	done
}

# fair_sessions I K PORT FLOW SECS: station I's K-th flow FLOW (KIND+SIZE/EVERY[@CC]):
# after FAIR_OMIT seconds, one transfer of SIZE bytes every EVERY real seconds (the next
# at once if one takes longer) until SECS more have passed; transfer N's iperf3 JSON in
# sess-staI-K-N.json.
fair_sessions() {
	local i=$1 k=$2 port=$3 f=$4 secs=$5 n=0 size every args end t
	size=${f#*+}; size=${size%@*}; size=${size%~*}; every=${size#*/}; size=${size%/*}
	args="-n $size -J --connect-timeout 3000"
	case $f in *-down*) args+=" -R" ;; esac
	case $f in *@*) args+=" -C ${f#*@}" ;; esac
	sleep "$FAIR_OMIT"
	end=$(awk -v t="$EPOCHREALTIME" -v s="$secs" 'BEGIN{printf "%.3f", t + s}')
	while awk -v n="$EPOCHREALTIME" -v e="$end" 'BEGIN{exit !(n < e - 1)}'; do
		t=$EPOCHREALTIME
		# shellcheck disable=SC2086
		timeout 30 ip netns exec "$(sta_ns "$i")" iperf3 -c "$SERVER_IP" -p "$port" $args \
			> "$WIFI_DIR/sess-sta$i-$k-$n.json" 2>/dev/null
		n=$((n + 1))
		sleep "$(awk -v t="$t" -v p="$every" -v n="$EPOCHREALTIME" 'BEGIN{d = t + p - n; printf "%.3f", (d > 0 ? d : 0)}')"
	done
}

# fair_efficiency BUSY: the airtime-fair optimum and the last run's efficiency. BUSY is
# the channel busy % a plain FIFO reached in the same scenario and direction: the air a
# qdisc can keep busy. Each station's fair share of it, at the goodput per second of air
# it got in the last run, summed: FAIR_OPT (simulated Mbit/s); FAIR_EFF = goodput / that.
fair_efficiency() {
	local i
	FAIR_OPT=$(for ((i = 1; i <= FAIR_NSTA; i++)); do echo "${FAIR_GPA[i]:-0}"; done |
		awk -v b="$1" -v n="$FAIR_NSTA" '{ s += $1 * b / 100 / n } END{ printf "%.2f", s }')
	FAIR_EFF=$(awk -v g="$FAIR_TOTAL" -v o="$FAIR_OPT" 'BEGIN{ if (o > 0) printf "%.3f", g / o; else print "n/a" }')
}

# fair_delayed_ack D: D = 1 makes every TCP receiver ACK each segment (the route's
# quickack: the stations' for downloads, the server's for uploads), as chen-yan's
# DelACK 1; D = 2 restores Linux's delayed ACK (about every second full segment).
fair_delayed_ack() {
	local i q=""
	[ "$1" = 1 ] && q="quickack 1"
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		# shellcheck disable=SC2086
		ip -n "$(sta_ns "$i")" route replace default via "$WIFI_AP_IP" dev "${STA_IF[i]}" $q || return 1
	done
	# shellcheck disable=SC2086
	ip -n "$SERVER_NS" route replace "$WIFI_NET.0/24" via "$WIRED_AP_IP" $q
}

fair_jain() { awk '{ s += $1; q += $1 * $1; n++ } END { if (q > 0) printf "%.4f", s * s / (n * q); else print "n/a" }'; }

fair_table() {	# Q DIR
	local q=$1 dir=$2 i
	printf '%-6s %5s %13s %10s %12s %7s %9s %10s\n' station "SNR" "PHY Mbit/s" "goodput" "airtime ms" share \
		"$(case $q in airfair*) echo "airfair's";; esac)" "$(case $q in airfair*) echo "backlogged";; esac)"
	printf '%-6s %5s %13s %10s %12s %7s %9s %10s\n' "" dB "AP>sta sta>AP" "Mbit/s" "(medium)" "" \
		"$(case $q in airfair*) echo "estimate";; esac)" "$(case $q in airfair*) echo "in airfair";; esac)"
	for ((i = 1; i <= FAIR_NSTA; i++)); do
		printf '%-6s %5s %6s %6s %10s %12s %6s%% %8s %10s\n' "sta$i" "${FAIR_SNR[i]}" \
			"${FAIR_RATE_DN[i]:-?}" "${FAIR_RATE_UP[i]:-?}" "${FAIR_GP[i]}" \
			"$(awk -v a="${FAIR_AIR[i]}" 'BEGIN{printf "%.1f", a / 1000}')" "${FAIR_SHARE[i]}" \
			"${FAIR_EST[i]:+${FAIR_EST[i]}%}" "${FAIR_BKL[i]:+${FAIR_BKL[i]}%}"
	done
	printf "Jain's index (airtime, medium ground truth): %s   total goodput %s Mbit/s\n" "$FAIR_JAIN" "$FAIR_TOTAL"
	printf "  with each frame's AIFS + backoff counted too (chen-yan's airtime): %s\n" "$FAIR_JAIN_CY"
	[ -n "$FAIR_QNOTE" ] && printf '  %s%s\n' "$FAIR_QNOTE" "$(fair_window_note)"
	printf 'channel busy %s %% of %s s simulated; peak backlog: %s %s packets, below it (AP queue in the medium) %s\n' \
		"$FAIR_BUSY" "$FAIR_SIM_S" "$q" "$FAIR_QPEAK" "$FAIR_MPEAK"
	printf 'frames hwsim freed before the medium saw them (the guest fell behind): AP %s, stations %s\n' \
		"${FAIR_HWLOST% *}" "${FAIR_HWLOST#* }"
}

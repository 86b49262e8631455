#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sch_airfair demo, run inside the test VM (make demo). docs/fairness.md explains it.
#
# airfair-medium (the simulated 802.11a channel, time dilation k) carries a mac80211_hwsim
# AP and 3 stations at SNR 35 / 19 / 11 dB, which minstrel turns into 54 / 24 / 6 Mbit/s.
# TCP to all 3 at once, download then upload, under each root qdisc in turn; per qdisc a
# table of PHY rate, goodput, ground-truth airtime share (from the medium, never from the
# qdisc) and Jain's index over the stations' airtime; efficiency = goodput / the
# airtime-fair optimum (each station's fair share of the air pfifo keeps busy, at the
# goodput per second of air it got in that run: fair_efficiency).
#
# Environment (vm/run.sh passes AIRFAIR_* into the guest):
#   AIRFAIR_DEMO_SECONDS     measured seconds per run (20), after AIRFAIR_DEMO_OMIT (3)
#   AIRFAIR_DEMO_QDISCS      ("pfifo fq_codel airfair-naive airfair-estimated airfair-nowindow
#                            airfair airfair-default") airfair = model precise, upload observed,
#                            upload-window, metered; airfair-estimated = upload ACKs charged d
#                            frames (Eq. 9); airfair-nowindow = no-upload-window (both upload
#                            only); airfair-pending = unmetered with the mac80211 hook's
#                            backpressure (download only; needs the hook); airfair-default =
#                            the module's defaults (pending-limit auto) and the preset
#   AIRFAIR_DEMO_DIRECTIONS  ("down up"; "mixed" with AIRFAIR_DEMO_SCENARIO=mixed)
#   AIRFAIR_DEMO_SCENARIO    fairness (the 3 stations above) or mixed (testbed/scenarios/
#                            mixed.sh: 5 stations, 6-54 Mbit/s, one lossy, TCP both ways and
#                            a UDP flood at once)
#   AIRFAIR_MEDIUM_K, AIRFAIR_DEMO_MEDIUM_CONF, AIRFAIR_MEDIUM_CMD, AIRFAIR_DEMO_UTILISATION,
#   AIRFAIR_DEMO_DELAY_MS, AIRFAIR_DEMO_SEED: see testbed/scenarios/fairness.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../selftests/lib.sh
. "$here/../selftests/lib.sh"
SCENARIO=${AIRFAIR_DEMO_SCENARIO:-fairness}
case $SCENARIO in fairness|mixed) ;; *) echo "demo: no scenario '$SCENARIO' (fairness, mixed)" >&2; exit 2 ;; esac
# shellcheck source=scenarios/fairness.sh
. "$here/scenarios/$SCENARIO.sh"

SECS=${DEMO_SECONDS:-${AIRFAIR_DEMO_SECONDS:-20}}
QDISCS=${DEMO_QDISCS:-${AIRFAIR_DEMO_QDISCS:-pfifo fq_codel airfair-naive airfair-estimated airfair-nowindow airfair airfair-default}}
if [ "$SCENARIO" = mixed ]; then
	DIRS=${DEMO_DIRECTIONS:-${AIRFAIR_DEMO_DIRECTIONS:-mixed}}
else
	DIRS=${DEMO_DIRECTIONS:-${AIRFAIR_DEMO_DIRECTIONS:-down up}}
fi

say() { printf '%s\n' "$*"; }
T0=$EPOCHREALTIME
elapsed() { awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.0f", b - a}'; }

say "sch_airfair demo: kernel $(uname -r), $FAIR_NSTA stations, ${DIRS// / then }, ${SECS}s per run (+${FAIR_OMIT}s left out)"
fair_setup || { say "demo: set-up failed"; exit 1; }
say "medium: airfair-medium, 802.11a (5 GHz legacy), dilation k=$FAIR_K (goodput and airtime below are simulated: iperf3 x k)"
if grep -qw ieee80211_tx_report_register /proc/kallsyms; then
	say "mac80211: patched (mac80211-patches/): airfair takes rate, loss and pending airtime from its TX report hook"
else
	say "mac80211: stock: airfair takes rate and loss from airfair-feeder (nl80211); airfair-pending needs the patched one"
fi
say "AP $AP_IF ($AP_MAC); stations associated in ${WIFI_ASSOC_TIME}s; wired RTT +${FAIR_DELAY} ms real"
fair_warmup 4
for ((i = 1; i <= FAIR_NSTA; i++)); do
	say "  sta$i ${STA_MAC[i]}: ${FAIR_LINK[i]}; minstrel: AP->sta ${FAIR_RATE_DN[i]:-?} Mbit/s, sta->AP ${FAIR_RATE_UP[i]:-?} Mbit/s"
done

airfair_err=""
if ! airfair_load 2> "$WIFI_DIR/airfair_load.err"; then
	airfair_err="sch_airfair module not loadable: $(tail -n 1 "$WIFI_DIR/airfair_load.err" | sed 's/^# //')"
fi

declare -A SUMMARY FIFO_BUSY EFF
for dir in $DIRS; do
	for q in $QDISCS; do
		say ""
		case $dir in down) what="TCP download" ;; up) what="TCP upload" ;; *) what="mixed traffic" ;; esac
		say "== $q, $what =="

		if [[ $q == airfair* ]] && [ -n "$airfair_err" ]; then
			say "skipped: $airfair_err"; SUMMARY[$q/$dir]="skipped"; continue
		fi
		if [[ $q == airfair-estimated || $q == airfair-nowindow ]] && [ "$dir" != up ]; then
			say "skipped: it only changes how uploads are held; downloads run as airfair"
			SUMMARY[$q/$dir]="skipped"; continue
		fi
		if [ "$q" = airfair-pending ] && [ "$dir" = up ]; then
			say "skipped: the AP's pending airtime holds only the uploads' ACKs; uploads are held back by the meter (airfair)"
			SUMMARY[$q/$dir]="skipped"; continue
		fi
		if ! fair_set_qdisc "$q" > "$WIFI_DIR/qdisc.err"; then
			say "skipped: $(head -n 1 "$WIFI_DIR/qdisc.err")"; SUMMARY[$q/$dir]="skipped"; continue
		fi
		if ! fair_run "$q" "$dir" "$SECS"; then
			say "run failed"; SUMMARY[$q/$dir]="failed"; continue
		fi
		fair_table "$q" "$dir"
		[ "$q" = pfifo ] && FIFO_BUSY[$dir]=$FAIR_BUSY
		if [ -n "${FIFO_BUSY[$dir]:-}" ]; then
			fair_efficiency "${FIFO_BUSY[$dir]}"
			say "efficiency $FAIR_EFF: goodput $FAIR_TOTAL of an airtime-fair optimum of $FAIR_OPT Mbit/s (each station's 1/$FAIR_NSTA of pfifo's ${FIFO_BUSY[$dir]} % busy air at its goodput per second of air here)"
		else
			FAIR_EFF=n/a
		fi
		EFF[$q/$dir]=$FAIR_EFF
		SUMMARY[$q/$dir]="$FAIR_JAIN  $FAIR_JAIN_CY  $(printf '%6s ' "${FAIR_SHARE[@]:1}") $(printf '%6s %6s %5s' "$FAIR_TOTAL" "$FAIR_EFF" "$FAIR_BUSY")"
		case $q in airfair*) sed -n '1,6s/^/  tc: /p' <<< "$FAIR_TC_STATS" ;; esac
	done
done

say ""
say "== summary: Jain's index over the medium's ground-truth airtime (1.0 = equal; 1/3 = one station has it all) =="
say "   Jain: busy air (frames, SIFS, ACKs, collisions, losses); +backoff: with each frame's AIFS + backoff"
say "   (chen-yan's airtime); shares and goodput (simulated Mbit/s) as in the tables above;"
say "   eff: goodput / airtime-fair optimum (needs pfifo's run: its busy air is the reference); busy: channel %"
say "  $(printf '%-18s %-5s %-7s %-7s ' qdisc dir Jain +backoff)$(for ((i = 1; i <= FAIR_NSTA; i++)); do printf '%6s ' "sta$i%"; done) $(printf '%6s %6s %5s' Mbit/s eff busy)"
for dir in $DIRS; do
	for q in $QDISCS; do
		printf '  %-18s %-5s %s\n' "$q" "$dir" "${SUMMARY[$q/$dir]}"
	done
done
# for scripts: airfair's efficiency per direction
for q in airfair airfair-default; do
	line="efficiency: $q"
	for dir in $DIRS; do line+=" $dir ${EFF[$q/$dir]:-n/a}"; done
	say "$line"
done
say "demo wall time: $(elapsed) s"
exit 0

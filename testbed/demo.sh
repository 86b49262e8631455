#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sch_airfair demo, run inside the test VM (make demo):
#   a mac80211_hwsim AP with 3 stations at 3 distinct rates, TCP to all 3 at once under
#   each root qdisc in turn, a per-station table (throughput, airtime and its share) and
#   Jain's fairness index over airtime for each qdisc.
#
# Environment:
#   DEMO_SECONDS     traffic time per run (10)
#   DEMO_QDISCS      qdiscs to compare ("pfifo fq_codel airfair-naive airfair")
#   DEMO_DIRECTIONS  "down", "up" or "down up" (down)
#   DEMO_RATES       per-station rate caps, see wifi_setup in selftests/lib.sh ("mcs0 mcs3 mcs7")
#   DEMO_DELAY_MS    netem delay on the wired side, added to every RTT (10)
#   AIRFAIR_MEDIUM_CMD  medium simulator command; its live stats give the airtime ground
#                    truth (otherwise airtime is estimated as bytes*8/phy_rate)
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../selftests/lib.sh
. "$here/../selftests/lib.sh"

# vm/run.sh passes only AIRFAIR_* variables into the guest: AIRFAIR_DEMO_* work there too.
SECS=${DEMO_SECONDS:-${AIRFAIR_DEMO_SECONDS:-10}}
QDISCS=${DEMO_QDISCS:-${AIRFAIR_DEMO_QDISCS:-pfifo fq_codel airfair-naive airfair}}
DIRS=${DEMO_DIRECTIONS:-${AIRFAIR_DEMO_DIRECTIONS:-down}}
RATES=${DEMO_RATES:-${AIRFAIR_DEMO_RATES:-mcs0 mcs3 mcs7}}
DELAY=${DEMO_DELAY_MS:-${AIRFAIR_DEMO_DELAY_MS:-10}}
NSTA=$(wc -w <<< "$RATES")

say() { printf '%s\n' "$*"; }

say "sch_airfair demo: kernel $(uname -r), $NSTA stations, TCP $DIRS, ${SECS}s per run"
wifi_setup "$NSTA" band=2g mode=ht rates="$RATES" || { say "demo: WiFi setup failed"; exit 1; }
server_setup "$DELAY" || { say "demo: server setup failed"; exit 1; }
say "AP $AP_IF ($AP_MAC), 2.4 GHz 802.11n 20 MHz; stations associated in ${WIFI_ASSOC_TIME}s; wired RTT +${DELAY} ms"

airfair_err=""
if ! airfair_load 2> "$WIFI_DIR/airfair_load.err"; then
	airfair_err="sch_airfair module not loadable: $(tail -n 1 "$WIFI_DIR/airfair_load.err" | sed 's/^# //')"
fi

# The station clauses telling airfair each station's PHY rate (static source).
airfair_stations() {
	local i s="" r
	for ((i = 1; i <= NSTA; i++)); do
		r=${STA_RATE[i]}
		case $r in
		mcs*) s+=" station ${STA_MAC[i]} rate ht-mcs ${r#mcs}" ;;
		vmcs*) s+=" station ${STA_MAC[i]} rate vht-mcs ${r#vmcs} bw 80" ;;
		"") ;;
		*) s+=" station ${STA_MAC[i]} rate ${r}mbit" ;;
		esac
	done
	echo "$s"
}

# Install root qdisc $1 on the AP; on failure print the reason on stdout and return 1.
set_qdisc() {
	local q=$1 out model
	case $q in
	pfifo) out=$(tc qdisc replace dev "$AP_IF" root pfifo limit 1000 2>&1) ;;
	fq_codel|cake|fq) out=$(tc qdisc replace dev "$AP_IF" root "$q" 2>&1) ;;
	airfair|airfair-precise|airfair-naive)
		[ -n "$airfair_err" ] && { echo "$airfair_err"; return 1; }
		[ "$q" = airfair-naive ] && model=naive || model=precise
		# Create, then tell it the stations' static rates with "change" (station
		# clauses crash the 6.12 build: list_add corruption in airfair_sta_get, create or change).
		out=$(tc qdisc replace dev "$AP_IF" root airfair 11n-2g model $model 2>&1) ||
		out=$(tc qdisc replace dev "$AP_IF" root airfair model $model 2>&1) || {
			echo "tc qdisc replace ... airfair model $model: $(head -n 1 <<< "$out")"; return 1; }
		# The 6.12 crash is in airfair_sta_get on any new station (enqueue too), not the clauses;
		# AIRFAIR_DEMO_STATIC_RATES=0 leaves the rates to the default source.
		local sout
		if [ "${AIRFAIR_DEMO_STATIC_RATES:-1}" != 1 ]; then
			echo "station rates from the default source (AIRFAIR_DEMO_STATIC_RATES=0)" \
				> "$WIFI_DIR/qdisc-note"
		# shellcheck disable=SC2046
		elif sout=$(tc qdisc change dev "$AP_IF" root airfair $(airfair_stations) 2>&1); then
			echo "static station rates:$(airfair_stations)" > "$WIFI_DIR/qdisc-note"
		else
			echo "station rates not accepted ($(head -n 1 <<< "$sout")); rates from the default source" \
				> "$WIFI_DIR/qdisc-note"
		fi ;;
	*) out=$(tc qdisc replace dev "$AP_IF" root $q 2>&1) ;;
	esac
	local rc=$?
	[ $rc = 0 ] || { echo "tc qdisc replace ... $q: $(head -n 1 <<< "$out")"; return 1; }
	return 0
}

# Airtime per station (µs) from the medium's live stats: every link to or from the station.
# The medium names radios by their wiphy name (or radioN); MAC addresses are accepted too.
medium_airtime() {	# STATSFILE NAME...
	local f=$1
	shift
	jq -r --arg m " $* " '[.links[]? | ((.tx_name // "-") | ascii_downcase) as $t
		| ((.rx_name // "-") | ascii_downcase) as $r
		| select(($m | contains(" " + $t + " ")) or ($m | contains(" " + $r + " "))) | .airtime_us]
		| add // 0' \
		"$f" 2>/dev/null || echo 0
}

jain() { awk '{ s += $1; q += $1 * $1; n++ } END { if (q > 0) printf "%.3f", s * s / (n * q); else print "n/a" }'; }

declare -A SUMMARY
run_one() {	# QDISC DIR
	local q=$1 dir=$2 reason i src="estimated" use_medium=0
	say ""
	say "== $q, TCP $([ "$dir" = down ] && echo download || echo upload) =="
	rm -f "$WIFI_DIR/qdisc-note"
	if ! reason=$(set_qdisc "$q"); then
		say "skipped: $reason"
		SUMMARY[$q/$dir]="skipped"
		return 0
	fi
	[ -f "$WIFI_DIR/qdisc-note" ] && say "($(cat "$WIFI_DIR/qdisc-note"))"
	local before=$WIFI_DIR/medium-before.json after=$WIFI_DIR/medium-after.json
	if [ -n "${AIRFAIR_MEDIUM_STATS:-}" ] && [ -s "$AIRFAIR_MEDIUM_STATS" ]; then
		cp "$AIRFAIR_MEDIUM_STATS" "$before" && use_medium=1
	fi
	local tput=()
	mapfile -t tput < <(iperf_run tcp "$dir" "$(seq -s ' ' 1 "$NSTA")" "$SECS")
	if [ $use_medium = 1 ]; then
		sleep 1.2	# the medium rewrites its stats every second
		cp "$AIRFAIR_MEDIUM_STATS" "$after" || use_medium=0
		src="medium"
	fi
	local air=() bytes mbit total=0
	for ((i = 1; i <= NSTA; i++)); do
		if [ $use_medium = 1 ]; then
			air[i]=$(awk -v a="$(medium_airtime "$after" "${STA_MAC[i]}" "${STA_PHY[i]}" "radio$i")" \
				-v b="$(medium_airtime "$before" "${STA_MAC[i]}" "${STA_PHY[i]}" "radio$i")" 'BEGIN{printf "%.0f", a - b}')
		else
			bytes=$(iperf_bytes "$WIFI_DIR/iperf-sta$i.json")
			mbit=$(rate_mbit "${STA_RATE[i]}")
			air[i]=$(awk -v b="$bytes" -v r="${mbit:-0}" 'BEGIN{ if (r > 0) printf "%.0f", b * 8 / r; else print 0 }')
		fi
		total=$(awk -v t="$total" -v a="${air[i]}" 'BEGIN{print t + a}')
	done
	printf '%-8s %-19s %10s %14s %12s %7s\n' station mac "rate Mb/s" "tput Mbit/s" "airtime ms" share
	for ((i = 1; i <= NSTA; i++)); do
		printf '%-8s %-19s %10s %14s %12s %6s%%\n' "sta$i" "${STA_MAC[i]}" \
			"$(rate_mbit "${STA_RATE[i]}")${STA_RATE[i]:+ }" "${tput[i - 1]:-0}" \
			"$(awk -v a="${air[i]}" 'BEGIN{printf "%.1f", a / 1000}')" \
			"$(awk -v a="${air[i]}" -v t="$total" 'BEGIN{ if (t > 0) printf "%.1f", 100 * a / t; else print "0" }')"
	done
	local j
	j=$(for ((i = 1; i <= NSTA; i++)); do echo "${air[i]}"; done | jain)
	say "airtime ($src): Jain's index $j;  total throughput $(printf '%s\n' "${tput[@]}" | awk '{s+=$1} END{printf "%.1f", s}') Mbit/s"
	SUMMARY[$q/$dir]="$j ($src)"
	case $q in airfair*) tc -s qdisc show dev "$AP_IF" | sed -n '1,4s/^/  tc: /p' ;; esac
}

for dir in $DIRS; do
	for q in $QDISCS; do
		run_one "$q" "$dir"
	done
done

say ""
say "== summary: Jain's fairness index over airtime (1.0 = equal airtime) =="
for dir in $DIRS; do
	for q in $QDISCS; do
		printf '  %-15s %-5s %s\n' "$q" "$dir" "${SUMMARY[$q/$dir]}"
	done
done
exit 0

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# airfair-stat, the operators' export: after traffic to three stations, its Prometheus
# text and JSON carry the same numbers as tc's statistics; node_exporter's textfile
# collector scrapes the file it writes (-o) without an error; bad input fails cleanly.
. "$(dirname "$0")/airfair_lib.sh"

DEV=af0
work=$(mktemp -d)
cleanup() {
	[ -n "${ne_pid:-}" ] && kill "$ne_pid" 2>/dev/null
	veth_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

ktap_header
airfair_require iperf3 ping
if [ "${AIRFAIR_INSTALLED:-0}" = 1 ]; then
	stat_bin=$(command -v airfair-stat) || ktap_skip_all "airfair-stat not installed"
else
	stat_bin=$AIRFAIR_REPO/build/tools/airfair-stat
	[ -x "$stat_bin" ] || ktap_skip_all "$stat_bin not built (make)"
fi
ktap_set_plan 8
veth_setup 3 || ktap_skip_all "cannot build the veth/macvlan topology"

check() {
	local name=$1
	shift
	if "$@"; then ktap_test_pass "$name"; else ktap_test_fail "$name"; fi
}

tc qdisc add dev $DEV root airfair 11a limit 200 \
	station "$(sta_mac 1)" weight 2 station "$(sta_mac 2)" rate 12mbit loss 10
af_iperf 1 tcp-down 2 >/dev/null
af_iperf 2 udp-down 2 30M >/dev/null
ping -q -c 5 -i 0.2 "$(sta_addr 3)" >/dev/null
sleep 2		# idle: nothing changes between the reads below

# tc's numbers between two identical airfair-stat reads: nothing moved in between
for try in 1 2 3 4 5; do
	"$stat_bin" $DEV > "$work/prom" 2> "$work/err"
	rc=$?
	tc -j -s class show dev $DEV | grep '^{' | jq -s '[.[] | .station? | select(.)]' > "$work/tc_sta"
	tc -j -s qdisc show dev $DEV | jq '.[0]' > "$work/tc_qd"
	"$stat_bin" $DEV > "$work/prom_after" 2>/dev/null
	cmp -s "$work/prom" "$work/prom_after" && break
	log "read $try: the statistics moved while tc read them; again"
	sleep 1
done

# The exposition format, strictly: every sample's family declared once (HELP, TYPE)
# before it, names and labels well formed, a number, no sample twice.
prom_valid() {
	awk '
	/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* / { if (help[$3]++) bad("HELP twice: " $3); next }
	/^# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge)$/ {
		if (type[$3]++) bad("TYPE twice: " $3)
		if (!help[$3]) bad("TYPE before HELP: " $3)
		next }
	/^#/ { bad("comment: " $0); next }
	{
		if ($0 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*\{([a-zA-Z_][a-zA-Z0-9_]*="[^"\\]*",)*[a-zA-Z_][a-zA-Z0-9_]*="[^"\\]*"\} -?[0-9.]+(e[-+]?[0-9]+)?$/)
			bad("sample: " $0)
		name = $0; sub(/\{.*/, "", name)
		if (!type[name]) bad("no TYPE for " name)
		if (seen[$1]++) bad("sample twice: " $1)
		n++
	}
	function bad(m) { print m > "/dev/stderr"; err = 1 }
	END { if (!n) bad("no samples"); exit err }' "$1"
}
check "Prometheus text: exit $rc, $(grep -vc '^#' "$work/prom") samples, exposition format valid" \
	eval '[ $rc -eq 0 ] && [ ! -s "$work/err" ] && prom_valid "$work/prom"'

# value METRIC MAC: the sample of one station
value() {
	sed -n "s/^$1{interface=\"$DEV\",qdisc=\"[0-9a-f]*:\",station=\"$2\",source=\"[a-z]*\"} //p" "$work/prom"
}
# every station tc shows, field by field (integers; airtime in s vs us)
stations_match() {
	local mac want got bad=0 f
	for mac in $(jq -r '.[].addr' "$work/tc_sta"); do
		for f in "airtime_us airfair_station_airtime_seconds_total 1e-6" \
			 "bytes airfair_station_sent_bytes_total 1" \
			 "packets airfair_station_sent_packets_total 1" \
			 "drops airfair_station_drops_total 1" \
			 "weight airfair_station_weight 1" \
			 "rate_kbps airfair_station_rate_bits_per_second 1e3" \
			 "backlog_pkts airfair_station_backlog_packets 1"; do
			set -- $f
			want=$(jq -r --arg m "$mac" --arg k "$1" '.[] | select(.addr == $m) | .[$k]' "$work/tc_sta")
			got=$(value "$2" "$mac")
			# busybox awk: no ^; %.9g output: equal within 1e-8 relative
			if ! awk -v w="$want" -v g="$got" -v s="$3" 'BEGIN {
				d = w * s - g; if (d < 0) d = -d
				exit !(g != "" && d <= 1e-8 * w * s) }'; then
				log "$mac $2: airfair-stat '$got', tc $1 '$want' (x $3)"
				bad=1
			fi
		done
	done
	[ "$(jq length "$work/tc_sta")" -ge 3 ] && [ $bad = 0 ]
}
nsta=$(jq length "$work/tc_sta")
check "per station (all $nsta of tc's): airtime, bytes, packets, drops, weight, rate, backlog equal tc's" \
	stations_match

loss=$(value airfair_station_loss_ratio "$(sta_mac 2)")
src=$(sed -n "s/^airfair_station_weight{.*station=\"$(sta_mac 2)\",source=\"\([a-z]*\)\"}.*/\1/p" "$work/prom")
check "labels and units: station 2's loss 10 % as ratio $loss, its source '$src'" \
	eval '[ "$src" = static ] && awk -v l="$loss" "BEGIN { exit !(l > 0.099 && l < 0.101) }"'

qd_ok() {
	local b p d
	b=$(sed -n "s/^airfair_sent_bytes_total{interface=\"$DEV\",qdisc=\"[0-9a-f]*:\"} //p" "$work/prom")
	p=$(sed -n "s/^airfair_sent_packets_total{interface=\"$DEV\",qdisc=\"[0-9a-f]*:\"} //p" "$work/prom")
	d=$(sed -n "s/^airfair_drops_total{interface=\"$DEV\",qdisc=\"[0-9a-f]*:\",reason=\"limit\"} //p" "$work/prom")
	log "qdisc: bytes $b packets $p limit drops $d; tc: $(jq -c '{bytes, packets, drop_limit}' "$work/tc_qd")"
	[ "$b" = "$(jq .bytes "$work/tc_qd")" ] && [ "$p" = "$(jq .packets "$work/tc_qd")" ] &&
		[ "$d" = "$(jq '.drop_limit // .xstats.drop_limit' "$work/tc_qd")" ]
}
check "qdisc totals: sent bytes/packets and limit drops equal tc's" qd_ok

json_ok() {
	"$stat_bin" --json $DEV > "$work/json" || return 1
	jq -e --slurpfile p <(grep -v '^#' "$work/prom" |
		sed -n 's/^airfair_station_airtime_seconds_total{.*station="\([^"]*\)".*} \(.*\)/{"s":"\1","a":\2}/p' | jq -s .) \
		'.[0].interface == "af0" and (.[0].stations | length) == ($p[0] | length) and
		 ([.[0].stations[] | {s: .station, a: .airtime_seconds_total}] | sort) == ($p[0] | sort)' \
		"$work/json" >/dev/null
}
check "JSON (--json): the same stations and airtime as the text" json_ok

# the same samples as on stdout a moment later (values may have moved meanwhile)
file_ok() {
	"$stat_bin" -o "$work/tf/airfair.prom" $DEV && [ ! -e "$work/tf/airfair.prom.tmp" ] &&
		"$stat_bin" $DEV > "$work/prom2" &&
		diff <(sed 's/} .*/}/' "$work/tf/airfair.prom") <(sed 's/} .*/}/' "$work/prom2") >&2
}
mkdir -p "$work/tf"
check "-o FILE: written whole (renamed into place), the same samples as stdout" file_ok

# node_exporter's textfile collector reads the file: no scrape error, our samples there
ne=${AIRFAIR_NODE_EXPORTER:-$AIRFAIR_REPO/build/node-exporter/root/usr/bin/prometheus-node-exporter}
if [ -x "$ne" ]; then
	ip link set lo up
	"$ne" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$work/tf" --web.listen-address=127.0.0.1:19100 \
		> "$work/ne.log" 2>&1 &
	ne_pid=$!
	for _ in $(seq 50); do
		busybox wget -q -O "$work/scrape" http://127.0.0.1:19100/metrics 2>/dev/null && break
		sleep 0.2
	done
	want=$(value airfair_station_airtime_seconds_total "$(sta_mac 1)")
	got=$(sed -n "s/^airfair_station_airtime_seconds_total{interface=\"$DEV\",qdisc=\"[0-9a-f]*:\",source=\"[a-z]*\",station=\"$(sta_mac 1)\"} //p" "$work/scrape" 2>/dev/null)
	err=$(sed -n 's/^node_textfile_scrape_error //p' "$work/scrape" 2>/dev/null)
	log "node_exporter: scrape_error '$err', station 1 airtime '$got' (file '$want')"
	check "node_exporter scrapes the file: scrape_error 0, station 1's airtime $got s" \
		eval '[ "$err" = 0 ] && [ -n "$got" ] && awk -v a="$got" -v b="$want" "BEGIN { exit !(a == b) }"'
else
	ktap_test_skip "node_exporter scrapes the file" "no $ne (scripts/node-exporter.sh)"
fi

bad_ok() {
	local out rc
	out=$("$stat_bin" afnosuch0 2>&1 >/dev/null); rc=$?
	[ $rc = 1 ] && [[ $out == *"no interface 'afnosuch0'"* ]] || return 1
	out=$("$stat_bin" --frobnicate 2>&1); rc=$?
	[ $rc = 2 ] && [[ $out == *Usage* ]] || return 1
	# an interface without airfair: declarations only
	out=$("$stat_bin" lo) && ! grep -qv '^#' <<<"$out"
}
check "bad input: unknown interface exit 1, unknown option exit 2 with usage; no airfair: no samples" bad_ok

ktap_finished

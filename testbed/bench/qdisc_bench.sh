#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Per-packet enqueue+dequeue cost of sch_airfair against fq_codel and cake, measured side by
# side in one guest: pktgen (queue_xmit mode, so every packet goes through the qdisc) into
# a dummy device, for 1/100/10000 UDP flows spread over 1/16/256 destination MACs
# (stations). Each point runs the three qdiscs back to back, ROUNDS times, and keeps the
# median. Prints ns/packet and the ratio to fq_codel. A benchmark: it prints figures and
# fails only if it cannot run.
#
# Two placements. pktgen sends one packet at a time, so the root qdisc is empty whenever a
# packet arrives, and fq_codel (TCQ_F_CAN_BYPASS) then hands it straight to the device
# without its enqueue or dequeue running at all; airfair and cake never bypass (a meter and
# per-packet learning need every packet). "child": each qdisc under a one-band prio root,
# which does not bypass, so every packet runs the tested qdisc's enqueue and dequeue (the
# cost the three are compared on); "root": as attached in use (fq_codel mostly bypassing).
# Usage (in the VM): bash testbed/bench/qdisc_bench.sh   [AIRFAIR_BENCH_COUNT, _ROUNDS,
#                    AIRFAIR_BENCH_PLACEMENTS ("child root")]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib.sh"

count=${AIRFAIR_BENCH_COUNT:-100000}
rounds=${AIRFAIR_BENCH_ROUNDS:-3}
placements=${AIRFAIR_BENCH_PLACEMENTS:-child root}
dev=bench0
airfair_load || { echo "cannot load sch_airfair"; exit 4; }
modprobe pktgen || { echo "no pktgen"; exit 4; }
ip link add $dev type dummy 2>/dev/null
ip link set $dev up

pg() { echo "$2" > "/proc/net/pktgen/$1" || { echo "pktgen: '$2' rejected by $1" >&2; exit 1; }; }
thread=kpktgend_0

# attach PLACEMENT QDISC ARGS...: the tested qdisc as root, or as the child of a prio root
# whose every priority maps to its one band
attach() {
	local where=$1 qd=$2
	shift 2
	tc qdisc del dev $dev root 2>/dev/null
	if [ "$where" = root ]; then
		tc qdisc add dev $dev root "$qd" "$@"
	else
		tc qdisc add dev $dev root handle 1: prio bands 2 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
			tc qdisc add dev $dev parent 1:1 "$qd" "$@"
	fi
}

# run_one PLACEMENT QDISC FLOWS STATIONS -> ns per packet
run_one() {
	local where=$1 qd=$2 flows=$3 stas=$4
	case $qd in
	airfair) attach "$where" airfair unmetered max-stations 256 ;;
	*) attach "$where" "$qd" ;;
	esac || { echo "cannot attach $qd ($where)" >&2; exit 1; }
	pg $thread "rem_device_all"
	pg $thread "add_device $dev"
	pg $dev "count $count"
	pg $dev "pkt_size 1000"
	pg $dev "delay 0"
	pg $dev "xmit_mode queue_xmit"
	pg $dev "dst 10.99.0.2"
	pg $dev "dst_mac 02:be:00:00:00:00"
	pg $dev "dst_mac_count $stas"
	pg $dev "flag MACDST_RND"
	pg $dev "udp_src_min 1000"
	pg $dev "udp_src_max $((1000 + flows - 1))"
	pg $dev "flag UDPSRC_RND"
	echo start > /proc/net/pktgen/pgctrl
	local pps
	pps=$(grep -o '[0-9]*pps' /proc/net/pktgen/$dev | head -n 1 | tr -d pps)
	tc qdisc del dev $dev root 2>/dev/null
	awk -v p="${pps:-0}" 'BEGIN { if (p > 0) printf "%.0f\n", 1e9 / p; else print 0 }'
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

for where in $placements; do
printf '# %s: %d packets of 1000 B per run, median of %d rounds, qdiscs interleaved\n' \
	"$where" "$count" "$rounds"
printf '%-6s %-7s %-8s %12s %12s %12s %10s %10s\n' where flows stations fq_codel_ns cake_ns airfair_ns \
	cake/fqc airfair/fqc
for point in "1 1" "100 1" "10000 1" "1 16" "100 16" "10000 16" "1 256" "100 256" "10000 256"; do
	read -r flows stas <<<"$point"
	declare -A t=([fq_codel]="" [cake]="" [airfair]="")
	for _ in $(seq "$rounds"); do
		for qd in fq_codel cake airfair; do
			t[$qd]+=" $(run_one "$where" $qd "$flows" "$stas")"
		done
	done
	f=$(median <<<"${t[fq_codel]}") c=$(median <<<"${t[cake]}") a=$(median <<<"${t[airfair]}")
	awk -v w="$where" -v fl="$flows" -v st="$stas" -v f="$f" -v c="$c" -v a="$a" 'BEGIN {
		printf "%-6s %-7s %-8s %12d %12d %12d %10.2f %10.2f\n", w, fl, st, f, c, a, c / f, a / f }'
done
done
ip link del $dev

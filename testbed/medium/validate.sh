#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host validation of the airfair-medium engine against analytic models.
# TAP to stdout and build/results/medium-engine.tap; exit 1 on any failure.
#   O=<build dir> testbed/medium/validate.sh       (make -C testbed/medium check)
# MEDIUM_SIM_SECONDS (default 30) sets the simulated time per point.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
O=${O:-$repo/build/testbed/medium}
bin=$O/airfair-medium
secs=${MEDIUM_SIM_SECONDS:-30}
out=$repo/build/results/medium-engine.tap
mkdir -p "$(dirname "$out")"
exec > >(tee "$out")

n_tests=0 n_fail=0
ok() { n_tests=$((n_tests + 1)); echo "ok $n_tests - $*"; }
notok() { n_tests=$((n_tests + 1)); n_fail=$((n_fail + 1)); echo "not ok $n_tests - $*"; }
check() { # check <cond 0/1> <description>
	if [ "$1" = 1 ]; then ok "$2"; else notok "$2"; fi
}
field() { # field <name> <line>
	awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' <<<"$2"
}
cmp_le() { awk -v a="$1" -v b="$2" 'BEGIN{print (a <= b) ? 1 : 0}'; }

echo "TAP version 13"
echo "1..51"
[ -x "$bin" ] || { echo "Bail out! $bin not built"; exit 1; }

# 1-16: saturation throughput vs Bianchi, n = 1..8, two rate/length points
for point in "11a 54 1500" "11g 6 1000"; do
	set -- $point
	phy=$1 rate=$2 len=$3
	model=$(python3 "$repo/testbed/bianchi.py" --phy "$phy" --rate "$rate" --len "$len" --n 1-8) || {
		echo "Bail out! bianchi.py failed"; exit 1; }
	echo "# phy $phy rate $rate Mbit/s MPDU $len B, $secs s simulated per n"
	echo "#  n  bianchi_mbps  engine_mbps  error_%  p_coll(model)  p_coll(engine)"
	for n in 1 2 3 4 5 6 7 8; do
		m=$(awk -v n="$n" '$2 == n {print $8}' <<<"$model")
		mp=$(awk -v n="$n" '$2 == n {print $6}' <<<"$model")
		line=$("$bin" --simulate --phy "$phy" --rate "$rate" --len "$len" --stations "$n" \
			--duration "$secs" --seed "$n" 2>&1 | grep '^total')
		e=$(field throughput_mbps "$line")
		ep=$(field p_coll "$line")
		err=$(awk -v a="$e" -v b="$m" 'BEGIN{printf "%.2f", (a - b) / b * 100}')
		printf '# %2d  %12.4f  %11.4f  %7s  %13s  %14s\n' "$n" "$m" "$e" "$err" "$mp" "$ep"
		check "$(awk -v x="$err" 'BEGIN{print (x < 5 && x > -5) ? 1 : 0}')" \
			"bianchi $phy ${rate}M ${len}B n=$n: engine $e vs model $m Mbit/s (${err}%)"
	done
done

# 17-18: fixed channel loss p: attempts per frame = sum_{i=0}^{R} p^i, one station
for p in 0.1 0.3; do
	line=$("$bin" --simulate --phy 11a --rate 54 --len 1500 --stations 1 --loss "$p" \
		--duration "$secs" 2>&1 | grep '^total')
	apf=$(field attempts_per_frame "$line")
	exp=$(python3 -c "import sys; sys.path.insert(0, '$repo/testbed'); import airtime_ref as a; \
print('%.4f' % a.attempts($p, a.timing_preset(1)['retries']))")
	err=$(awk -v a="$apf" -v b="$exp" 'BEGIN{printf "%.2f", (a - b) / b * 100}')
	echo "# loss $p: attempts/frame engine $apf expected $exp (${err}%)"
	check "$(awk -v x="$err" 'BEGIN{print (x < 2 && x > -2) ? 1 : 0}')" \
		"loss p=$p: attempts/frame $apf vs $exp (${err}%)"
done

# 19: fixed loss p with 4 stations: throughput vs Bianchi with p_e
model=$(python3 "$repo/testbed/bianchi.py" --phy 11a --rate 54 --len 1500 --n 4 --loss 0.2 | awk '{print $8}')
line=$("$bin" --simulate --phy 11a --rate 54 --len 1500 --stations 4 --loss 0.2 --duration "$secs" | grep '^total')
e=$(field throughput_mbps "$line")
err=$(awk -v a="$e" -v b="$model" 'BEGIN{printf "%.2f", (a - b) / b * 100}')
echo "# 4 stations, loss 0.2: engine $e model $model Mbit/s (${err}%)"
check "$(awk -v x="$err" 'BEGIN{print (x < 5 && x > -5) ? 1 : 0}')" "bianchi n=4 loss 0.2: ${err}%"

# 20-21: EDCA, one VO and one BE station, saturated, default 802.11 parameters
# (VO: AIFSN 2, CW 3..7, TXOP 1504 us; BE: AIFSN 3, CW 15..1023)
model=$(python3 "$repo/testbed/bianchi.py" --phy 11a --rate 54 --len 1500 --classes vo:1,be:1)
res=$("$bin" --simulate --phy 11a --rate 54 --len 1500 --flows vo,be --duration "$secs")
mvo=$(awk '$2 == "vo" {print $14}' <<<"$model")
vo=$(awk '$4 == "vo" {print $6}' <<<"$res")
be=$(awk '$4 == "be" {print $6}' <<<"$res")
share=$(awk -v a="$vo" -v b="$be" 'BEGIN{printf "%.4f", a / (a + b)}')
echo "# EDCA vo vs be: VO throughput share engine $share, model (AIFS-zone Bianchi) $mvo"
echo "#   engine: VO $vo Mbit/s, BE $be Mbit/s"
check "$(awk -v s="$share" -v m="$mvo" 'BEGIN{print (s > 0.9 && s - m > -0.03 && s - m < 0.05) ? 1 : 0}')" \
	"EDCA defaults: VO share $share vs model $mvo"
# CW-only differentiation (same AIFSN, no TXOP): VO must still win
cfg=$(mktemp)
echo "edca * vo aifsn 3 txop 0" > "$cfg"
res=$("$bin" --simulate -c "$cfg" --phy 11a --rate 54 --len 1500 --flows vo,be --duration "$secs")
rm -f "$cfg"
vo=$(awk '$4 == "vo" {print $6}' <<<"$res")
be=$(awk '$4 == "be" {print $6}' <<<"$res")
mres=$(python3 - "$repo" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1] + '/testbed')
import bianchi as b, airtime_ref as ar
t = ar.timing_preset(1)
r = b.solve(t, b.make_rate(1, '54'), 1500, [b.Class(t, 0, 1, aifsn=3, txop_us=0), b.Class(t, 2, 1)])
print('%.4f' % (r['classes'][0]['throughput_bps'] / r['total_bps']))
EOF
)
share=$(awk -v a="$vo" -v b="$be" 'BEGIN{printf "%.4f", a / (a + b)}')
echo "# EDCA CW-only (VO CW 3..7 vs BE 15..1023, AIFSN 3 both): VO share engine $share, Bianchi $mres"
echo "#   (Bianchi lets busy slots decrement frozen counters, which overstates the"
echo "#    low-priority share with unequal CWs; see docs/medium.md)"
check "$(awk -v s="$share" -v m="$mres" 'BEGIN{print (s >= m - 0.01 && s - m < 0.08) ? 1 : 0}')" \
	"EDCA CW-only: VO share $share vs model $mres"

# 22-23: determinism: same seed -> identical ground truth, other seed -> different
j1=$(mktemp) j2=$(mktemp) j3=$(mktemp)
"$bin" --simulate --stations 5 --duration 5 --seed 9 -o "$j1" >/dev/null
"$bin" --simulate --stations 5 --duration 5 --seed 9 -o "$j2" >/dev/null
"$bin" --simulate --stations 5 --duration 5 --seed 10 -o "$j3" >/dev/null
check "$(cmp -s "$j1" "$j2" && echo 1 || echo 0)" "same seed, byte-identical ground-truth JSON"
check "$(cmp -s "$j1" "$j3" && echo 0 || echo 1)" "different seed, different ground truth"
rm -f "$j1" "$j2" "$j3"

# 24-25: config errors name the line and exit 2
cfg=$(mktemp)
printf 'seed 3\n# comment\nlink 0 1 loss 1.5\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
echo "# bad loss: rc $rc: $msg"
check "$([ $rc = 2 ] && grep -q "$cfg:3: loss '1.5'" <<<"$msg" && echo 1 || echo 0)" "config error names file:line (loss out of range)"
printf 'dilation 4\nedca 1 be cwmin 16\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
echo "# bad cwmin: rc $rc: $msg"
check "$([ $rc = 2 ] && grep -q "$cfg:2: cwmin 16" <<<"$msg" && echo 1 || echo 0)" "config error names file:line (cwmin not 2^n-1)"
rm -f "$cfg"

# 26-31: A-MPDU + BlockAck (HT MCS 7, 1500 B MPDUs): saturation throughput vs Bianchi
# with the A-MPDU exchange (bianchi.py --ampdu: N MPDUs per success, each lost on its
# own, the access failed only when all are); N = 64 is capped at 29 by aPPDUMaxTime
echo "# A-MPDU: phy 11n-5g rate mcs7 MPDU 1500 B, $secs s simulated per point"
echo "#  N  n  loss  bianchi_mbps  engine_mbps  error_%  MPDUs/PPDU(model)  MPDUs/PPDU(engine)"
for point in "8 1 0" "16 4 0" "64 1 0" "64 4 0" "16 1 0.2" "32 2 0.3"; do
	set -- $point
	N=$1 n=$2 p=$3
	mline=$(python3 "$repo/testbed/bianchi.py" --phy 11n-5g --rate mcs7 --len 1500 --n "$n" \
		--ampdu "$N" --loss "$p") || { echo "Bail out! bianchi.py --ampdu failed"; exit 1; }
	m=$(field throughput_mbps "$mline")
	magg=$(field ampdu "$mline")
	res=$("$bin" --simulate --phy 11n-5g --rate mcs7 --len 1500 --stations "$n" --ampdu "$N" \
		--loss "$p" --duration "$secs" --seed "$n" 2>&1)
	e=$(field throughput_mbps "$(grep '^total' <<<"$res")")
	eagg=$(field mpdus_per_ppdu "$(grep '^sta 1 ' <<<"$res")")
	err=$(awk -v a="$e" -v b="$m" 'BEGIN{printf "%.2f", (a - b) / b * 100}')
	printf '# %2d %2d  %4s  %12.4f  %11.4f  %7s  %17s  %18s\n' "$N" "$n" "$p" "$m" "$e" "$err" "$magg" "$eagg"
	check "$(awk -v x="$err" 'BEGIN{print (x < 5 && x > -5) ? 1 : 0}')" \
		"A-MPDU N=$N n=$n loss $p: engine $e vs model $m Mbit/s (${err}%), $eagg MPDUs/PPDU"
done
# 32: the cap the engine applies is the model's (aPPDUMaxTime, A-MPDU length)
check "$(awk -v a="$eagg" -v b="$magg" 'BEGIN{print (a > b - 0.5 && a <= b) ? 1 : 0}')" \
	"A-MPDU size: engine $eagg MPDUs per PPDU (lossy queue), model cap $magg"
# 33: ampdu beyond the BlockAck window is refused
cfg=$(mktemp)
printf 'ampdu 65\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
rm -f "$cfg"
check "$([ $rc = 2 ] && grep -q "$cfg:1: ampdu '65'" <<<"$msg" && echo 1 || echo 0)" \
	"config error names file:line (ampdu beyond the BlockAck window): $msg"

# 34: an output that is not a regular file (a FIFO here; /dev/null alike) is written in
# place, not renamed over: the JSON arrives through it and it stays a FIFO
d=$(mktemp -d)
mkfifo "$d/fifo"
cat "$d/fifo" > "$d/got" &
reader=$!
"$bin" --simulate --duration 0.01 -o "$d/fifo" > /dev/null
wait "$reader"	# not a bare wait: stdout's tee is a child too
check "$([ -p "$d/fifo" ] && grep -q '"sim_time_us"' "$d/got" && echo 1 || echo 0)" \
	"-o on a FIFO: written through it, still a FIFO (no rename over a special file)"
rm -rf "$d"

# 35-40: the qdisc's airtime model (airtime-calc, what airfair charges) against the
# medium's ground truth per MPDU, HT and VHT, with and without A-MPDU: one saturated
# station, 1500 B MPDUs (a 1450 B L3 packet in the model), busy air (PPDU share +
# SIFS + ACK/BlockAck share) and with AIFS + backoff (chen-yan's indirect part)
calc=$repo/build/tools/airtime-calc
if [ -x "$calc" ]; then
	echo "# model vs medium per MPDU (ns): rate  N  busy(medium) busy(model)  total(medium) total(model)  err"
	for point in "mcs0 1" "mcs4 8" "mcs7 32" "vht4/80 8" "vht6/80 16" "vht8/80 32"; do
		set -- $point
		j=$(mktemp)
		"$bin" --simulate --phy 11ac --rate "$1" --ampdu "$2" --len 1500 --duration "$secs" -o "$j" > /dev/null
		res=$(python3 "$here/model_vs_medium.py" "$j" "$calc" "$1" "$2")
		rm -f "$j"
		read -r mb b tm t err <<<"$res"
		printf '# %-8s %2d  %10s %10s  %10s %10s  %s%%\n' "$1" "$2" "$mb" "$b" "$tm" "$t" "$err"
		check "$(awk -v e="${err:-99}" 'BEGIN{print (e < 2) ? 1 : 0}')" \
			"airtime model vs medium, $1 A-MPDU $2: per-MPDU airtime within 2 % (${err:-?}%)"
	done
else
	for _ in 1 2 3 4 5 6; do ok "airtime model vs medium # SKIP $calc not built"; done
fi

# 41: beacons on the air: 1 in k (dilated, the default) or all; anything else an error
cfg=$(mktemp)
printf 'dilation 6\nbeacons dilated\nbeacons sometimes\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
echo "# bad beacons: rc $rc: $msg"
check "$([ $rc = 2 ] && grep -q "$cfg:3: beacons 'sometimes': want dilated or all" <<<"$msg" && echo 1 || echo 0)" "config error names file:line (beacons)"
rm -f "$cfg"

# 42: queue-drop fattest/tail (test_queue_drop: its own checks, shown); a bad value an error
res=$("$O/test_queue_drop" 2>&1); rc=$?
sed 's/^/#   /' <<<"$res"
check "$([ $rc = 0 ] && [ "$(grep -c '^ok' <<<"$res")" = 6 ] && echo 1 || echo 0)" \
	"queue full: tail refuses, fattest drops the longest receiver's newest ($(grep -c '^ok' <<<"$res")/6)"
# 43
cfg=$(mktemp)
printf 'queue-drop random\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
echo "# bad queue-drop: rc $rc: $msg"
check "$([ $rc = 2 ] && grep -q "$cfg:1: queue-drop 'random': want tail or fattest" <<<"$msg" && echo 1 || echo 0)" "config error names file:line (queue-drop)"
rm -f "$cfg"

# 44: delivery order on a BlockAck link (test_rx_order: its own checks, shown)
res=$("$O/test_rx_order" 2>&1); rc=$?
sed 's/^/#   /' <<<"$res"
check "$([ $rc = 0 ] && [ "$(grep -c '^ok' <<<"$res")" = 5 ] && echo 1 || echo 0)" \
	"a lost MPDU holds the later ones of its TID until it arrives or is dropped ($(grep -c '^ok' <<<"$res")/5)"

# 45-46: a queue of up to 2048 frames (a radio holding AQL's 24 ms at VHT 80 MHz) is
# taken; one more is refused with the range
cfg=$(mktemp)
printf 'queue-limit 2048\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
check "$([ $rc = 0 ] && echo 1 || echo 0)" "queue-limit 2048 taken (rc $rc)"
printf 'queue-limit 2049\n' > "$cfg"
msg=$("$bin" --simulate -c "$cfg" --duration 0.1 2>&1); rc=$?
check "$([ $rc = 2 ] && grep -q "$cfg:1: queue-limit '2049': want frames in \[1, 2048\]" <<<"$msg" && echo 1 || echo 0)" \
	"config error names file:line (queue-limit beyond 2048): $msg"
rm -f "$cfg"

# 47: the A-MPDU reports of a lossy BlockAck link tell each PPDU attempt once, at its rate,
# and the windows the attempts waited; the link prices its attempts as the settlement would
res=$("$O/test_reports" 2>&1); rc=$?
sed 's/^/#   /' <<<"$res"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<<"$res")
check "$([ $rc = 0 ] && [ -n "$plan" ] && [ "$(grep -c '^ok' <<<"$res")" = "$plan" ] && echo 1 || echo 0)" \
	"A-MPDU reports tell every PPDU attempt once, each at its own rate, its window, its MPDUs and what they took ($(grep -c '^ok' <<<"$res")/${plan:-?})"

# 48-49: waited_us, the AIFS + backoff each sender waited: a lone saturated sender's is
# the idle it is given; among four, each waited more than the idle it is given (the
# slots it counted down in rounds another won are that one's idle): an attempt waits
# its draw (7.5 slots, 67.5 us at 11a, more after collisions) and an AIFS (34 us) for
# each round, about four, where the idle given is a quarter of the channel's
j1=$(mktemp)
waited() { # waited <json>: "sum-idle sum-waited waited-per-attempt min(waited - idle)"
	jq -r '[.links[] | select(.attempts > 0)] |
		"\(map(.backoff_idle_us) | add) \(map(.waited_us) | add) \((map(.waited_us) | add) / (map(.attempts) | add)) \(map(.waited_us - .backoff_idle_us) | min)"' "$1"
}
"$bin" --simulate --phy 11a --rate 54 --len 1500 --stations 1 --duration 5 -o "$j1" >/dev/null
read -r idle wt per _ <<<"$(waited "$j1")"
check "$(awk -v i="$idle" -v w="$wt" 'BEGIN{d = i - w; print (i > 0 && d < 1 && d > -1) ? 1 : 0}')" \
	"one sender: waited $wt us = idle $idle us"
"$bin" --simulate --phy 11a --rate 54 --len 1500 --stations 4 --duration 5 -o "$j1" >/dev/null
read -r idle wt per mind <<<"$(waited "$j1")"
check "$(awk -v i="$idle" -v w="$wt" -v p="$per" -v m="$mind" 'BEGIN{
	print (w > 2 * i && w < 6 * i && m > 0 && p > 170 && p < 340) ? 1 : 0}')" \
	"four senders: waited $wt us > idle $idle us, each more; $per us an attempt"

# 50: rewaited_us, the part of waited_us that was not backoff (the AIFS of every round
# an access lost): without it, what each attempt of the four waited is one AIFS and its
# draw, as for the lone sender; the draws' mean is half the windows cw_units tells
own() { # own <json>: "AIFS-per-attempt rewaited": (waited - rewaited) / attempts - mean draw
	jq -r '[.links[] | select(.attempts > 0)] |
		(map(.attempts) | add) as $a | (map(.cw_units) | add) as $u |
		"\(((map(.waited_us - (.rewaited_us // 0)) | add) / $a) - 9 * (16 * $u / $a - 1) / 2) \(map(.rewaited_us // 0) | add)"' "$1"
}
"$bin" --simulate --phy 11a --rate 54 --len 1500 --stations 1 --duration 5 -o "$j1" >/dev/null
read -r aifs1 rw1 <<<"$(own "$j1")"
"$bin" --simulate --phy 11a --rate 54 --len 1500 --stations 4 --duration 5 -o "$j1" >/dev/null
read -r aifs4 rw4 <<<"$(own "$j1")"
check "$(awk -v a="$aifs1" -v b="$aifs4" -v r1="$rw1" -v r4="$rw4" 'BEGIN{d = a - b
	print (r1 == 0 && r4 > 0 && a > 30 && d < 3 && d > -3) ? 1 : 0}')" \
	"four senders: waited less rewaited, less the draws, is one AIFS an attempt ($aifs4 us; lone sender $aifs1 us, rewaited $rw1 us)"
rm -f "$j1"

# 51: a station's EDCA from its AP's WMM Parameter element (test_wmm: its own checks, shown)
res=$("$O/test_wmm" 2>&1); rc=$?
sed 's/^/#   /' <<<"$res"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<<"$res")
check "$([ $rc = 0 ] && [ -n "$plan" ] && [ "$(grep -c '^ok' <<<"$res")" = "$plan" ] && echo 1 || echo 0)" \
	"stations take the EDCA their AP's beacons and association responses advertise ($(grep -c '^ok' <<<"$res")/${plan:-?})"

echo "# $((n_tests - n_fail)) passed, $n_fail failed"
[ "$n_fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# airfair-medium on mac80211_hwsim: one AP (radio 0), one station (radio 1, own
# netns), 802.11g restricted to 6 Mbit/s. Checks that the daemon carries the
# association, ping and iperf3, that its ground truth counts the frames, and
# that goodput x dilation stays under the 6 Mbit/s PHY rate and near the
# analytic single-station exchange time (testbed/bianchi.py, n = 1), and that
# the station contends with the EDCA hostapd advertises, changed at run time.
# KTAP on stdout and build/results/medium-basic.tap; exit 0 pass, 1 fail, 4 skip.
#   AIRFAIR_MEDIUM_K     dilation factor (default 6)
#   AIRFAIR_MEDIUM_SECS  iperf3 seconds per run (default 6)
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
bin=${AIRFAIR_MEDIUM_BIN:-$repo/build/testbed/medium/airfair-medium}
K=${AIRFAIR_MEDIUM_K:-6}
SECS=${AIRFAIR_MEDIUM_SECS:-6}
out=${AIRFAIR_RESULTS:-$repo/build/results}/medium-basic.tap
mkdir -p "$(dirname "$out")"
exec > >(tee "$out") 2>&1
work=$(mktemp -d /tmp/medium.XXXXXX)
NTESTS=10
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $*"; }
# a bound on how fast the guest feeds the medium: on the debug kernel (KASAN, lockdep:
# several times slower under TCG) a miss is the guest's, reported as a skip
notok_timing() {
	case $(uname -r) in
	*-airfair-debug) n=$((n + 1)); echo "ok $n $* # SKIP debug kernel: the guest cannot load the channel" ;;
	*) notok "$@" ;;
	esac
}
skip_all() { echo "1..0 # SKIP $*"; exit 4; }
jqf() { jq -r "$1" "$work/live.json" 2>/dev/null; }

cleanup() {
	[ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	pkill_pids=$(cat "$work"/*.pid 2>/dev/null)
	for p in $pkill_pids; do kill "$p" 2>/dev/null; done
	ip netns del sta 2>/dev/null
	modprobe -r mac80211_hwsim 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "needs root"
for t in hostapd wpa_supplicant iperf3 iw jq; do
	command -v $t >/dev/null || skip_all "$t missing"
done
[ -x "$bin" ] || skip_all "$bin not built (make -C testbed/medium)"
modprobe mac80211_hwsim radios=2 2>/dev/null || skip_all "no mac80211_hwsim"
echo "1..$NTESTS"

cat > "$work/medium.conf" <<EOF
# two radios 3 m apart: clean link, 6 Mbit/s everywhere
seed 7
dilation $K
stats-interval 250
phy 2g 11g
pair 0 1 snr 35
EOF
"$bin" -c "$work/medium.conf" -S "$work/live.json" -o "$work/final.json" -v -l "$work/medium.log" \
	2> "$work/medium.err" &
dpid=$!
for _ in $(seq 50); do [ -s "$work/live.json" ] && break; sleep 0.1; done
if kill -0 $dpid 2>/dev/null && [ -s "$work/live.json" ]; then
	ok "daemon registered as the hwsim medium (dilation $K)"
else
	notok "daemon registered as the hwsim medium"; cat "$work/medium.err"
fi

# wiphy numbers keep counting across module reloads; radio i is the i-th phy now present.
mapfile -t phys < <(ls /sys/class/ieee80211 | sort -V)
wl0=$(ls "/sys/class/ieee80211/${phys[0]}/device/net/" 2>/dev/null | head -1)
wl1=$(ls "/sys/class/ieee80211/${phys[1]}/device/net/" 2>/dev/null | head -1)
: "${wl0:=wlan0}" "${wl1:=wlan1}"
ip netns add sta
iw phy "${phys[1]}" set netns name sta

cat > "$work/hostapd.conf" <<EOF
interface=$wl0
driver=nl80211
ssid=airfair-medium
hw_mode=g
channel=1
supported_rates=60
basic_rates=60
wmm_enabled=1
ieee80211n=0
ctrl_interface=$work/hostapd
EOF
hostapd -B -P "$work/hostapd.pid" "$work/hostapd.conf" > "$work/hostapd.log" 2>&1
for _ in $(seq 100); do
	hostapd_cli -p "$work/hostapd" -i "$wl0" status 2>/dev/null | grep -q state=ENABLED && break
	sleep 0.1
done
ip addr add 10.9.0.1/24 dev "$wl0"

cat > "$work/wpa.conf" <<EOF
ctrl_interface=$work/wpa
network={
	ssid="airfair-medium"
	key_mgmt=NONE
	scan_freq=2412
	freq_list=2412
}
EOF
ip netns exec sta bash -c "
	ip link set lo up
	wpa_supplicant -B -P $work/wpa.pid -i $wl1 -c $work/wpa.conf > $work/wpa.log 2>&1
	ip addr add 10.9.0.2/24 dev $wl1
	for _ in \$(seq 300); do
		wpa_cli -p $work/wpa -i $wl1 status 2>/dev/null | grep -q wpa_state=COMPLETED && exit 0
		sleep 0.1
	done
	exit 1" && assoc=1 || assoc=0
if [ $assoc = 1 ]; then
	ok "station associated through the medium"
else
	notok "station associated through the medium"
	tail -20 "$work/hostapd.log" "$work/wpa.log" | sed 's/^/# /'
fi

if ip netns exec sta ping -c 3 -i 0.3 -W 3 10.9.0.1 > "$work/ping.log" 2>&1; then
	ok "ping through the medium ($(grep -o 'min/avg/max.*' "$work/ping.log"))"
else
	notok "ping through the medium"; sed 's/^/# /' "$work/ping.log"
fi

# the station's best effort as the AP's beacons advertise it: hostapd's default CWmin
# 15, then 7 once `hostapd_cli set wmm_ac_be_cwmin 3` has reached a beacon
be_edca() { jqf '[.medium.radios[] | select(.radio == 1) | .edca.be[]] | @tsv' | tr '\t' ' '; }
before=$(be_edca)
hostapd_cli -p "$work/hostapd" -i "$wl0" set wmm_ac_be_cwmin 3 > "$work/set.log" 2>&1
after=
for _ in $(seq 40); do
	after=$(be_edca)
	[ "$after" = "3 7 1023 0" ] && break
	sleep 0.1
done
taken=$(jqf '.daemon.wmm_taken')
if [ "$before" = "3 15 1023 0" ] && [ "$after" = "3 7 1023 0" ] && [ "${taken:-0}" -ge 1 ]; then
	ok "station takes the AP's advertised EDCA: BE [aifsn cwmin cwmax txop] $before, then $after ($taken change(s))"
else
	notok "station takes the AP's advertised EDCA: BE '$before' then '$after' (want 3 15 1023 0, 3 7 1023 0), taken ${taken:-?}"
	sed 's/^/# /' "$work/set.log"
fi
hostapd_cli -p "$work/hostapd" -i "$wl0" set wmm_ac_be_cwmin 4 >/dev/null 2>&1

# analytic: one saturated station, UDP payload 1400 -> MPDU 24+2+8+20+8+1400 = 1462 B
model=$(python3 "$repo/testbed/bianchi.py" --phy 11g --rate 6 --len 1462 --n 1 2>/dev/null |
	awk '{printf "%.3f", $8 * 1400 / 1462}')
: "${model:=5.2}"

snap() { # frames_in wall_s cpu_s busy_us sim_us
	jq -r '[.daemon.frames_in, .daemon.wall_s, .daemon.cpu_s,
		([.medium.channels[] | select(.freq == 2412) | .busy_us] | add // 0),
		.medium.sim_time_us] | @tsv' "$work/live.json"
}

wait_listen() { # iperf3 port 5201 = 0x1451 in LISTEN (0A) state
	for _ in $(seq 100); do
		grep -qE ':1451 [0-9A-F]+:0000 0A' /proc/net/tcp /proc/net/tcp6 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
iperf3 -s -D -1 -J --logfile "$work/srv.json" >/dev/null 2>&1
wait_listen || echo "# iperf3 server not listening"
rate=$(awk -v k="$K" 'BEGIN{printf "%.2fM", 9 / k}')	# offered 1.5x the PHY rate
ip netns exec sta iperf3 -c 10.9.0.1 -u -b "$rate" -l 1400 -t "$SECS" -J > "$work/cli.json" 2>&1 &
cpid=$!
# sample the daemon in the steady middle of the run (iperf3 start-up is slow under TCG)
sleep 2.5
s0=$(snap)
sleep $((SECS - 3))
s1=$(snap)
wait $cpid
sleep 1
udp=$(jq -r '.end.sum_received.bits_per_second // empty' "$work/cli.json" 2>/dev/null)
udp_sim=$(awk -v b="${udp:-0}" -v k="$K" 'BEGIN{printf "%.3f", b * k / 1e6}')
read -r f0 w0 c0 b0 t0 <<<"$s0"
read -r f1 w1 c1 b1 t1 <<<"$s1"
fps=$(awk -v a="$f0" -v b="$f1" -v x="$w0" -v y="$w1" 'BEGIN{printf "%.0f", (b - a) / (y - x)}')
cpu=$(awk -v a="$c0" -v b="$c1" -v x="$w0" -v y="$w1" 'BEGIN{printf "%.1f", 100 * (b - a) / (y - x)}')
busy=$(awk -v a="$b0" -v b="$b1" -v x="$t0" -v y="$t1" 'BEGIN{printf "%.1f", 100 * (b - a) / (y - x)}')
[ -n "$udp" ] || { jq -r '.error // empty' "$work/cli.json" "$work/srv.json" 2>&1 | sed 's/^/# /'; head -c 600 "$work/cli.json" | sed 's/^/# /'; }
echo "# UDP: goodput ${udp:-?} bit/s real x k=$K = $udp_sim Mbit/s simulated; analytic $model Mbit/s; PHY 6 Mbit/s"
cap=$(awk -v f="$fps" -v c="$cpu" 'BEGIN{ if (c > 0) printf "%.0f", f * 100 / c; else print "?" }')
echo "# daemon: $fps frames/s from the kernel, CPU $cpu% of one vCPU (~$cap frames/s at 100%); channel busy $busy% of simulated time"
if awk -v u="$udp_sim" 'BEGIN{exit !(u > 0 && u < 6)}'; then
	ok "UDP goodput x k = $udp_sim Mbit/s < 6 Mbit/s PHY rate"
else
	notok "UDP goodput x k = $udp_sim Mbit/s < 6 Mbit/s PHY rate"
fi
if awk -v u="$udp_sim" -v m="$model" 'BEGIN{exit !(u > 0.85 * m && u < 1.05 * m)}'; then
	ok "UDP goodput within -15%/+5% of the analytic $model Mbit/s"
else
	notok "UDP goodput $udp_sim within -15%/+5% of the analytic $model Mbit/s"
fi
if awk -v b="$busy" 'BEGIN{exit !(b > 80)}'; then
	ok "medium is the bottleneck (busy $busy% during UDP, daemon CPU $cpu%, $fps frames/s)"
else
	notok_timing "medium is the bottleneck (busy $busy% during UDP, daemon CPU $cpu%, $fps frames/s)"
fi

# TCP upload: data and TCP ACKs contend; goodput must stay under the UDP figure
for _ in $(seq 50); do grep -qE ':1451 [0-9A-F]+:0000 0A' /proc/net/tcp /proc/net/tcp6 || break; sleep 0.1; done
iperf3 -s -D -1 -J --logfile "$work/srv2.json" >/dev/null 2>&1
wait_listen || echo "# iperf3 server not listening"
ip netns exec sta iperf3 -c 10.9.0.1 -t "$SECS" -J > "$work/cli2.json" 2>&1
sleep 1
tcp=$(jq -r '.end.sum_received.bits_per_second // empty' "$work/cli2.json" 2>/dev/null)
tcp_sim=$(awk -v b="${tcp:-0}" -v k="$K" 'BEGIN{printf "%.3f", b * k / 1e6}')
echo "# TCP: goodput ${tcp:-?} bit/s real x k=$K = $tcp_sim Mbit/s simulated"
if awk -v u="$tcp_sim" -v m="$model" 'BEGIN{exit !(u > 0.5 * m && u < 1.02 * m)}'; then
	ok "TCP goodput x k = $tcp_sim Mbit/s in (0.5, 1.02) x analytic UDP"
else
	notok "TCP goodput x k = $tcp_sim Mbit/s in (0.5, 1.02) x analytic UDP"
fi

kill "$dpid"
wait "$dpid"
drc=$?
dpid=
if [ $drc = 0 ] && jq -e . "$work/final.json" >/dev/null 2>&1; then
	ok "daemon exits cleanly on SIGTERM and writes valid JSON"
else
	notok "daemon exits cleanly on SIGTERM (rc $drc) and writes valid JSON"
fi
sta_ap=$(jq '[.medium.links[] | select(.tx == 1 and .rx == 0)] | map(.frames) | add // 0' "$work/final.json")
ap_sta=$(jq '[.medium.links[] | select(.tx == 0 and .rx == 1)] | map(.frames) | add // 0' "$work/final.json")
echo "# ground truth: sta->ap $sta_ap frames, ap->sta $ap_sta frames"
jq -r '.medium.links[] | select(.frames > 0) | "#   \(.tx_name)->\(.rx_name) \(.ac): \(.frames) frames, \(.bytes) B, airtime \(.airtime_us|floor) us (data \(.data_us|floor), ovh \(.overhead_us|floor), idle \(.backoff_idle_us|floor), coll \(.collision_us|floor)), attempts \(.attempts), failures \(.failures)"' \
	"$work/final.json"
if [ "$sta_ap" -gt 100 ] && [ "$ap_sta" -gt 10 ]; then
	ok "ground truth counts frames both ways"
else
	notok "ground truth counts frames both ways"
fi
echo "# $((n - fails)) passed, $fails failed"
[ $fails = 0 ] && exit 0 || exit 1

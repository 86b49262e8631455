# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared helpers for the sch_airfair selftests. Source it from a bash script:
#
#   . "$(dirname "$0")/lib.sh"
#
# KTAP output    ktap_header, ktap_set_plan N, ktap_test_pass|fail|skip NAME [REASON],
#                ktap_skip_all REASON, ktap_finished   (exit 0 pass, 1 fail, 4 skip)
# requirements   require_root, require_cmd CMD..., require_module MOD..., airfair_load
# WiFi           wifi_setup N_STA [band=2g|5g] [mode=legacy|ht|vht] [rates="R1 R2 ..."]
#                server_setup [DELAY_MS], wifi_cleanup (installed as an EXIT trap)
# traffic        iperf_tcp_down|iperf_tcp_up STAS SECONDS,
#                iperf_udp_down|iperf_udp_up STAS RATE SECONDS  -> Mbit/s, one line per station
#
# Runs under bash only (Debian's static busybox would run its own ip/tc/modprobe applets).
# Needs root, mac80211_hwsim, hostapd, wpa_supplicant, iw, iproute2, iperf3, jq.

[ -n "${BASH_VERSION:-}" ] || { echo "lib.sh: run under bash" >&2; exit 1; }

KSFT_PASS=0
KSFT_FAIL=1
KSFT_XFAIL=2
KSFT_XPASS=3
KSFT_SKIP=4

AIRFAIR_SELFTESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AIRFAIR_REPO=$(cd "$AIRFAIR_SELFTESTS_DIR/.." && pwd)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# Addressing plan.
WIFI_NET=10.42.0
WIFI_AP_IP=$WIFI_NET.1
WIRED_AP_IP=10.43.0.1
SERVER_IP=10.43.0.2
SERVER_NS=server
WIFI_SSID=${WIFI_SSID:-airfair-test}

# ------------------------------------------------------------------------------------------
# KTAP (Documentation/dev-tools/ktap.rst; names follow tools/testing/selftests/kselftest)

KTAP_TESTNO=0
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0
KSFT_NUM_TESTS=""
KTAP_SUITE=${KTAP_SUITE:-$(basename "$0" .sh)}
# Results also go to build/results/<suite>.tap (set AIRFAIR_RESULTS="" to disable).
AIRFAIR_RESULTS=${AIRFAIR_RESULTS-$AIRFAIR_REPO/build/results}
KTAP_FILE=""

ktap_print() {
	printf '%s\n' "$*"
	[ -n "$KTAP_FILE" ] && printf '%s\n' "$*" >> "$KTAP_FILE"
	return 0
}

# Diagnostic line ("# ...") on stdout and in the results file.
ktap_diag() {
	local l
	while IFS= read -r l; do ktap_print "# $l"; done <<< "$*"
}

ktap_header() {
	if [ -n "$AIRFAIR_RESULTS" ] && mkdir -p "$AIRFAIR_RESULTS" 2>/dev/null &&
	   : > "$AIRFAIR_RESULTS/$KTAP_SUITE.tap" 2>/dev/null; then
		KTAP_FILE=$AIRFAIR_RESULTS/$KTAP_SUITE.tap
	fi
	ktap_print "TAP version 13"
}
ktap_print_header() { ktap_header; }

ktap_set_plan() {
	KSFT_NUM_TESTS=$1
	ktap_print "1..$1"
}

ktap_test_pass() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
	ktap_print "ok $KTAP_TESTNO $1${2:+ # $2}"
}

ktap_test_fail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
	[ -n "${2:-}" ] && ktap_diag "$1: $2"
	ktap_print "not ok $KTAP_TESTNO $1"
}

ktap_test_skip() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
	ktap_print "ok $KTAP_TESTNO $1 # SKIP${2:+ $2}"
}

# A check failed by a known, open bug (named in the reason): reported as XFAIL, not
# counted as a failure.
ktap_test_xfail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_XFAIL=$((${KTAP_CNT_XFAIL:-0} + 1))
	ktap_print "ok $KTAP_TESTNO $1 # XFAIL${2:+ $2}"
}

# A failed figure that needs the guest to outrun the (simulated) air: shares under
# saturation, goodput, where the backlog builds. The debug kernel (KASAN, lockdep, kmemleak
# under TCG) runs several times slower and cannot load the channel; there such a figure is
# reported as a skip with the reason, not judged. Everywhere else it fails.
ktap_test_fail_timing() {
	case $(uname -r) in
	*-airfair-debug) ktap_test_skip "$1" "debug kernel: the guest cannot load the channel" ;;
	*) ktap_test_fail "$@" ;;
	esac
}

# ktap_test_result NAME CMD... : pass if CMD succeeds.
ktap_test_result() {
	local name=$1
	shift
	if "$@"; then ktap_test_pass "$name"; else ktap_test_fail "$name"; fi
}

# Mark every remaining planned test skipped.
ktap_skip_rest() {
	local reason=$1 i
	[ -n "$KSFT_NUM_TESTS" ] || return 0
	for ((i = KTAP_TESTNO; i < KSFT_NUM_TESTS; i++)); do
		ktap_test_skip "${2:-test_$((i + 1))}" "$reason"
	done
}

# Skip the whole test (before or after the plan) and exit 4.
ktap_skip_all() {
	if [ -z "$KSFT_NUM_TESTS" ]; then
		[ -n "$KTAP_FILE" ] || ktap_header >/dev/null
		ktap_print "1..0 # SKIP $1"
		KSFT_NUM_TESTS=0
		exit "$KSFT_SKIP"
	fi
	ktap_skip_rest "$1"
	ktap_finished
}

ktap_print_totals() {
	ktap_print "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:${KTAP_CNT_XFAIL:-0} xpass:0 skip:$KTAP_CNT_SKIP error:0"
}

# Exit per kselftest: 1 if anything failed (or the plan was not met), 4 if everything
# that ran was skipped, 0 otherwise.
ktap_finished() {
	if [ -n "$KSFT_NUM_TESTS" ] && [ "$KTAP_TESTNO" -ne "$KSFT_NUM_TESTS" ]; then
		ktap_diag "planned $KSFT_NUM_TESTS tests but ran $KTAP_TESTNO"
		KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
	fi
	ktap_print_totals
	if [ "$KTAP_CNT_FAIL" -gt 0 ]; then
		exit "$KSFT_FAIL"
	elif [ "$KTAP_CNT_PASS" -eq 0 ] && [ "$KTAP_CNT_SKIP" -gt 0 ]; then
		exit "$KSFT_SKIP"
	fi
	exit "$KSFT_PASS"
}

# ------------------------------------------------------------------------------------------
# Requirements: each skips the whole test with a reason when unmet.

log() { printf '# %s\n' "$*" >&2; }

require_root() {
	[ "$(id -u)" = 0 ] || ktap_skip_all "needs root"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || ktap_skip_all "command '$c' not found"
	done
}

require_module() {
	local m
	for m in "$@"; do
		[ -d "/sys/module/${m//-/_}" ] && continue
		modprobe -q "$m" 2>/dev/null || ktap_skip_all "kernel module '$m' not available"
	done
}

# Whether the running mac80211 is the patched one, with the TX report hook
# (mac80211-patches/).
have_hook() {
	grep -qw ieee80211_tx_report_register /proc/kallsyms
}

# The hook, or SKIP.
require_hook() {
	have_hook ||
		ktap_skip_all "mac80211 without the TX report hook (boot with --modules build/$(uname -r)/mac80211)"
}

# airfair-feeder under test ($AIRFAIR_FEEDER_BIN, else this tree's build); a test that
# starts it in the background keeps its pid in FEEDER_PID for feeder_stop.
FEEDER=${AIRFAIR_FEEDER_BIN:-$AIRFAIR_REPO/build/tools/airfair-feeder}
FEEDER_PID=""
feeder_stop() {
	[ -n "$FEEDER_PID" ] && kill "$FEEDER_PID" 2>/dev/null && wait "$FEEDER_PID" 2>/dev/null
	FEEDER_PID=""
}

# The tc plugin this tree built (its path; status 1 if none), unless AIRFAIR_INSTALLED=1:
# then the installed tools are under test and tc finds the plugin in its own directory.
airfair_built_plugin() {
	local so=$AIRFAIR_REPO/build/tc-extension/q_airfair.so
	[ "${AIRFAIR_INSTALLED:-0}" != 1 ] && [ -f "$so" ] && echo "$so"
}

# Point TC_LIB_DIR at the plugin this tree built, if it is unset and there is one.
airfair_use_built_plugin() {
	local so
	[ -z "${TC_LIB_DIR:-}" ] && so=$(airfair_built_plugin) && export TC_LIB_DIR=${so%/*}
	return 0
}

# Load sch_airfair: $AIRFAIR_KO, else build/$(uname -r)/sch_airfair.ko of this repository,
# else the system-wide module (modprobe). Returns 1 (and says why on stderr) on failure.
# Also points tc at the plugin this tree built (airfair_use_built_plugin).
airfair_load() {
	local ko=${AIRFAIR_KO:-$AIRFAIR_REPO/build/$(uname -r)/sch_airfair.ko}
	airfair_use_built_plugin
	[ -d /sys/module/sch_airfair ] && return 0
	if [ -f "$ko" ]; then
		insmod "$ko" && return 0
		log "airfair_load: insmod $ko failed"
		return 1
	fi
	if modprobe -q sch_airfair 2>/dev/null; then
		return 0
	fi
	log "airfair_load: no $ko and no installed sch_airfair module"
	return 1
}

# ------------------------------------------------------------------------------------------
# WiFi: mac80211_hwsim AP (root namespace) + N stations (netns sta1..staN)

WIFI_DIR=""
WIFI_NSTA=0
AP_IF=""
AP_PHY=""
AP_MAC=""
WIFI_BAND=2g
WIFI_MODE=ht
WIFI_FREQ=2412
STA_IF=()	# indexed 1..N
STA_PHY=()
STA_MAC=()
STA_RATE=()	# per-station rate spec as given ("" = uncapped)
MEDIUM_PID=""
WIFI_AP_UP_TIME=""	# seconds from wifi_setup's start to hostapd ENABLED
WIFI_ASSOC_TIME=""	# ... to every station associated

wifi_workdir() {
	[ -n "$WIFI_DIR" ] && return 0
	WIFI_DIR=$(mktemp -d /tmp/airfair-wifi.XXXXXX)
	trap wifi_cleanup EXIT
	trap 'exit 130' INT TERM
}

# airfair-medium config for the three-link 802.11g set-up of medium_rates.sh and
# source_medium.sh: sta1 at SNR 35 dB and sta2 at 19 dB (two different best rates),
# sta3 behind a fixed per-attempt loss.   medium_conf_3links SEED DILATION LOSS
medium_conf_3links() {
	cat <<EOF
seed $1
dilation $2
stats-interval 500
phy 2g 11g
default snr 40
pair 0 1 snr 35
pair 0 2 snr 19
pair 0 3 loss $3 signal -60
EOF
}

# airfair-medium config for one 802.11g station at SNR 35 dB.   medium_conf_1link SEED DILATION
medium_conf_1link() {
	cat <<EOF
seed $1
dilation $2
stats-interval 250
phy 2g 11g
pair 0 1 snr 35
EOF
}

# medium_ac_frames TX RX: the frames radio TX sent radio RX so far, per access category,
# "vo vi be bk", from the medium's live stats
medium_ac_frames() {
	jq -r --argjson t "$1" --argjson r "$2" '[.medium.links[] | select(.tx == $t and .rx == $r)] as $l |
		[("vo", "vi", "be", "bk") as $ac | [$l[] | select(.ac == $ac) | .frames] | add // 0] |
		map(tostring) | join(" ")' "$AIRFAIR_MEDIUM_STATS" 2>/dev/null
}

# Run one bash snippet in a namespace (one fork of ip per call: ~0.2 s under TCG).
nsrun() {
	local ns=$1
	shift
	ip netns exec "$ns" bash -c "$*"
}

sta_ns() { echo "sta$1"; }

# hwsim_lost IFACE [NETNS]: "dropped failed", the frames hwsim freed without the medium
# seeing them (ethtool -S: d_tx_dropped, its pending queue over 200; d_tx_failed, the
# medium's socket refused it). mac80211 counted them as sent: no air, no TX status.
hwsim_lost() {
	${2:+ip netns exec "$2"} ethtool -S "$1" 2>/dev/null |
		awk '$1 == "d_tx_dropped:" {d = $2} $1 == "d_tx_failed:" {f = $2} END {print d + 0, f + 0}'
}
sta_ip() { echo "$WIFI_NET.$((10 + $1))"; }

# Rate spec -> Mbit/s (20 MHz, 1 SS, long GI). mcsN is HT, vmcsN is VHT at 80 MHz.
rate_mbit() {
	case $1 in
	mcs*) local m=${1#mcs} n=1
		[ "$m" -ge 8 ] && { n=$((m / 8 + 1)); m=$((m % 8)); }
		awk -v m="$m" -v n="$n" 'BEGIN{split("6.5 13 19.5 26 39 52 58.5 65",r," "); print r[m+1]*n}' ;;
	vmcs*) awk -v m="${1#vmcs}" 'BEGIN{split("29.3 58.5 87.8 117 175.5 234 263.3 292.5 351 390",r," "); print r[m+1]}' ;;
	"") echo "" ;;
	*) echo "$1" ;;
	esac
}

# wifi_setup N_STA [band=2g|5g] [mode=legacy|ht|vht] [rates="R1 R2 ..."]
#   (positional form also accepted: wifi_setup 3 2g ht "mcs0 mcs3 mcs7")
# Rates, one per station ("-" or missing = uncapped):
#   mcsN   (ht/vht modes) the station advertises MCS 0..N only (wpa_supplicant ht_mcs), so the
#          AP's rate control sends to it at MCS N at most; its own TX is masked to MCS 0..N too.
#   vmcsN  (vht mode) same with the VHT MCS map (1 spatial stream).
#   R      legacy Mbit/s (1 2 5.5 11 6 9 ... 54): the station's own TX is fixed to R
#          (iw set bitrates); HT is disabled on it. The AP's TX to it is not capped by
#          hwsim (rate control picks the top rate on a perfect medium) unless every
#          station has the same R, in which case the AP's TX is fixed to R as well.
# With AIRFAIR_MEDIUM_CMD set, that command is started (in the background, after the radios
# exist and before any frame is sent) with WIFI_DIR, AP_MAC, STA_MACS and
# AIRFAIR_MEDIUM_STATS (a path it may write live stats to) in its environment; quote the
# variables so they expand then, e.g.
#   AIRFAIR_MEDIUM_CMD='build/testbed/medium/airfair-medium -c my.conf -S $AIRFAIR_MEDIUM_STATS'
# It is killed (SIGTERM) by wifi_cleanup.
# WIFI_HOSTAPD_EXTRA: lines added to the AP's hostapd.conf, @STAi@ replaced by station i's
# MAC (e.g. airtime_sta_weight=@STA2@ 512).
# WIFI_DILATION: the medium's dilation k, if any (TCP small queues, above the modprobe);
# WIFI_HWSIM_MAX_PENDING: hwsim's bound on frames awaiting TX status (above the modprobe).
# AIRFAIR_MINSTREL_DILATION=1: minstrel_ht's real-time intervals dilated with the medium.
# Sets AP_IF AP_PHY AP_MAC STA_IF[i] STA_PHY[i] STA_MAC[i] WIFI_ASSOC_TIME.
wifi_setup() {
	local n=$1 band=2g mode=ht rates="" a pos=0
	shift
	for a in "$@"; do
		case $a in
		band=*) band=${a#band=} ;;
		mode=*) mode=${a#mode=} ;;
		rates=*|legacy_rates=*) rates=${a#*=} ;;
		*) case $pos in 0) band=$a ;; 1) mode=$a ;; 2) rates=$a ;; esac
		   pos=$((pos + 1)) ;;
		esac
	done
	case $band in 2g|2.4|2.4g) band=2g ;; 5g|5) band=5g ;;
	*) log "wifi_setup: bad band '$band'"; return 1 ;; esac
	case $mode in legacy|ht|vht) ;; *) log "wifi_setup: bad mode '$mode'"; return 1 ;; esac
	[ "$mode" = vht ] && [ "$band" = 2g ] && { log "wifi_setup: vht needs band=5g"; return 1; }
	WIFI_BAND=$band WIFI_MODE=$mode WIFI_NSTA=$n
	[ "$band" = 2g ] && WIFI_FREQ=2412 || WIFI_FREQ=5180
	wifi_workdir
	local t0=$EPOCHREALTIME i

	# Radios. A leftover hwsim (another test, a previous run) is replaced.
	if [ -d /sys/module/mac80211_hwsim ]; then
		rmmod mac80211_hwsim 2>/dev/null || { log "wifi_setup: mac80211_hwsim is in use"; return 1; }
	fi
	# On a medium dilated k times (WIFI_DILATION), the testbed's hwsim (patch 0004) keeps
	# TCP small queues' budget at the air it covers at full speed: mac80211's pacing shift
	# less log2(k). A stock hwsim ignores the parameter.
	# (Integer arithmetic: the guest's awk has no log().)
	local hwargs=("radios=$((n + 1))") k=${WIFI_DILATION:-1} lg=0
	k=${k%%.*}
	while (((1 << (2 * lg + 1)) <= k * k)); do lg=$((lg + 1)); done
	[ "$lg" -gt 0 ] && hwargs+=("tx_sk_pacing_shift=$((lg > 7 ? 0 : 7 - lg))")
	# WIFI_HWSIM_MAX_PENDING: where hwsim starts freeing frames that await the medium's
	# TX status (patch 0005; a stock hwsim frees at 200), above a medium queue-limit of more
	[ -n "${WIFI_HWSIM_MAX_PENDING:-}" ] && hwargs+=("max_pending=$WIFI_HWSIM_MAX_PENDING")
	# minstrel_ht samples a rate and updates its statistics at real-time intervals, so on
	# a medium dilated k times it samples k times as often for the air. With
	# AIRFAIR_MINSTREL_DILATION=1 the testbed's mac80211 (testbed/mac80211-patches 0001)
	# dilates them too; set before the radios exist, whose rate control reads the update
	# interval when it is set up. Off by default: the documented figures were measured
	# without it (docs/medium.md).
	local mk=1
	[ "${AIRFAIR_MINSTREL_DILATION:-0}" = 1 ] && [ "$k" -gt 1 ] && mk=$k
	[ -d /sys/module/mac80211 ] || modprobe mac80211 2>/dev/null
	if [ -w /sys/module/mac80211/parameters/minstrel_dilation ]; then
		echo "$mk" > /sys/module/mac80211/parameters/minstrel_dilation
		[ "$mk" -gt 1 ] && log "wifi_setup: minstrel_ht's intervals dilated $mk times"
	elif [ "$mk" -gt 1 ]; then
		log "wifi_setup: this mac80211 has no minstrel_dilation (testbed/mac80211-patches 0001)"
	fi
	modprobe mac80211_hwsim "${hwargs[@]}" || { log "wifi_setup: cannot load mac80211_hwsim"; return 1; }
	[ -e /sys/module/mac80211_hwsim/parameters/tx_sk_pacing_shift ] && [ ${#hwargs[@]} -gt 1 ] &&
		log "wifi_setup: hwsim ${hwargs[*]:1} (dilation ${WIFI_DILATION:-1})"
	if [ -n "${WIFI_HWSIM_MAX_PENDING:-}" ] && [ ! -e /sys/module/mac80211_hwsim/parameters/max_pending ]; then
		log "wifi_setup: this hwsim has no max_pending (testbed/hwsim-patches 0005): it frees pending frames at 200"
	fi
	local phys=() p
	# hwsim radios in creation order (hwsimK), each with its phy and netdev.
	for p in $(for d in /sys/class/ieee80211/*; do
			[ -e "$d/device" ] || continue
			case $(readlink -f "$d/device") in */mac80211_hwsim/hwsim*) ;; *) continue ;; esac
			k=$(readlink -f "$d/device"); echo "${k##*hwsim} ${d##*/}"
		done | sort -n | awk '{print $2}'); do
		phys+=("$p")
	done
	[ ${#phys[@]} -eq $((n + 1)) ] || { log "wifi_setup: expected $((n + 1)) hwsim radios, found ${#phys[@]}"; return 1; }
	AP_PHY=${phys[0]}
	AP_IF=$(ls "/sys/class/ieee80211/$AP_PHY/device/net/" | head -n 1)
	AP_MAC=$(cat "/sys/class/net/$AP_IF/address")
	STA_IF=("") STA_PHY=("") STA_MAC=("") STA_RATE=("")
	local r=($rates)
	for ((i = 1; i <= n; i++)); do
		STA_PHY[i]=${phys[i]}
		STA_IF[i]=$(ls "/sys/class/ieee80211/${phys[i]}/device/net/" | head -n 1)
		STA_MAC[i]=$(cat "/sys/class/net/${STA_IF[i]}/address")
		STA_RATE[i]=${r[i - 1]:-}
		[ "${STA_RATE[i]}" = - ] && STA_RATE[i]=""
	done
	export AP_IF AP_MAC WIFI_DIR
	export STA_MACS="${STA_MAC[*]:1}"

	if [ -n "${AIRFAIR_MEDIUM_CMD:-}" ]; then
		export AIRFAIR_MEDIUM_STATS=$WIFI_DIR/medium-stats.json
		bash -c "exec $AIRFAIR_MEDIUM_CMD" > "$WIFI_DIR/medium.log" 2>&1 &
		MEDIUM_PID=$!
		# Ready when its stats file appears (if it writes one), else after 5 s.
		for i in $(seq 50); do
			[ -s "$AIRFAIR_MEDIUM_STATS" ] && break
			kill -0 "$MEDIUM_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$MEDIUM_PID" 2>/dev/null || {
			log "wifi_setup: medium '$AIRFAIR_MEDIUM_CMD' exited:"; sed 's/^/#   /' "$WIFI_DIR/medium.log" >&2
			MEDIUM_PID=""; return 1; }
	fi

	# AP.
	local tmpl=$AIRFAIR_SELFTESTS_DIR/hostapd/ap-$band-$mode.conf
	[ -f "$tmpl" ] || { log "wifi_setup: no template $tmpl"; return 1; }
	sed -e "s|@IFACE@|$AP_IF|" -e "s|@CTRL@|$WIFI_DIR/hostapd|" -e "s|@SSID@|$WIFI_SSID|" \
		"$tmpl" > "$WIFI_DIR/hostapd.conf"
	# a test's own hostapd settings; @STAi@ is station i's MAC
	if [ -n "${WIFI_HOSTAPD_EXTRA:-}" ]; then
		local extra=$WIFI_HOSTAPD_EXTRA
		for ((i = 1; i <= n; i++)); do extra=${extra//@STA$i@/${STA_MAC[i]}}; done
		printf '%s\n' "$extra" >> "$WIFI_DIR/hostapd.conf"
	fi
	ip link set "$AP_IF" up
	ip addr add "$WIFI_AP_IP/24" dev "$AP_IF"
	# Every station at the same legacy rate: the AP's TX is fixed to it too (before hostapd
	# starts, see below).
	local same="" allsame=1
	for ((i = 1; i <= n; i++)); do
		case ${STA_RATE[i]} in mcs*|vmcs*|"") allsame=0 ;;
		*) [ -z "$same" ] && same=${STA_RATE[i]}; [ "$same" = "${STA_RATE[i]}" ] || allsame=0 ;; esac
	done
	if [ "$allsame" = 1 ] && [ -n "$same" ]; then
		iw dev "$AP_IF" set bitrates "legacy-$([ "$band" = 2g ] && echo 2.4 || echo 5)" "$same" ||
			{ log "wifi_setup: AP: set bitrates legacy $same failed"; return 1; }
	fi
	hostapd -B -P "$WIFI_DIR/hostapd.pid" -f "$WIFI_DIR/hostapd.log" "$WIFI_DIR/hostapd.conf" ||
		{ log "wifi_setup: hostapd failed:"; tail -n 20 "$WIFI_DIR/hostapd.log" | sed 's/^/#   /' >&2; return 1; }

	# Stations: move each phy into its netns and write its wpa_supplicant config while the
	# AP comes up.
	local ns_cmd=()
	for ((i = 1; i <= n; i++)); do
		local ns extra="" rate=${STA_RATE[i]}
		ns=$(sta_ns "$i")
		ip netns del "$ns" 2>/dev/null
		ip netns add "$ns"
		iw phy "${STA_PHY[i]}" set netns name "$ns" ||
			{ log "wifi_setup: cannot move ${STA_PHY[i]} to $ns"; return 1; }
		case $rate in
		mcs*)	local m=${rate#mcs} mask="" b v
			for ((b = 0; b < 10; b++)); do
				v=0
				if [ "$m" -ge $((b * 8 + 7)) ]; then v=255
				elif [ "$m" -ge $((b * 8)) ]; then v=$(((1 << (m - b * 8 + 1)) - 1)); fi
				mask+=$(printf '%02x ' "$v")
			done
			extra="	ht_mcs=\"${mask% }\"" ;;
		vmcs*)	local vm=${rate#vmcs} code
			case $vm in 7) code=0 ;; 8) code=1 ;; 9) code=2 ;;
			*) log "wifi_setup: vmcs$vm: the VHT MCS map only caps at 7, 8 or 9"; return 1 ;; esac
			extra="	vht_rx_mcs_nss_1=$code
	vht_tx_mcs_nss_1=$code" ;;
		"")	;;
		*)	extra="	disable_ht=1
	disable_vht=1" ;;
		esac
		# The station's own TX mask goes on before it associates: mac80211 refuses a mask
		# without a basic rate of the BSS only on an active interface.
		local bands cmd=true
		[ "$band" = 2g ] && bands=2.4 || bands=5
		case $rate in
		mcs*)	cmd="iw dev ${STA_IF[i]} set bitrates ht-mcs-$bands $(seq -s ' ' 0 "${rate#mcs}")" ;;
		vmcs*)	cmd="iw dev ${STA_IF[i]} set bitrates vht-mcs-$bands 1:0-${rate#vmcs}" ;;
		"")	;;
		*)	cmd="iw dev ${STA_IF[i]} set bitrates legacy-$bands $rate" ;;
		esac
		sed -e "s|@CTRL@|$WIFI_DIR/wpa-$ns|" -e "s|@SSID@|$WIFI_SSID|" -e "s|@FREQ@|$WIFI_FREQ|" \
			"$AIRFAIR_SELFTESTS_DIR/hostapd/sta.conf" |
			awk -v e="$extra" '{ if ($0 == "@EXTRA@") { if (e != "") print e } else print }' \
			> "$WIFI_DIR/wpa-$ns.conf"
		ns_cmd[i]="
			ip link set lo up
			ip link set ${STA_IF[i]} up
			$cmd || { echo '# wifi_setup: $ns: $cmd failed' >&2; exit 1; }
			ip addr add $(sta_ip "$i")/24 dev ${STA_IF[i]}
			wpa_supplicant -B -D nl80211 -i ${STA_IF[i]} -c $WIFI_DIR/wpa-$ns.conf \
				-P $WIFI_DIR/wpa-$ns.pid -f $WIFI_DIR/wpa-$ns.log"
	done

	# A station scanning before the AP beacons backs off for seconds: wait for ENABLED
	# (hostapd's own wait for the channel), then start the stations (one scan of one channel).
	local tmo=${AIRFAIR_ASSOC_TIMEOUT:-30} deadline st=""
	deadline=$(awk -v t="$EPOCHREALTIME" -v d="$tmo" 'BEGIN{printf "%d", t + d}')
	while :; do
		st=$(hostapd_cli -p "$WIFI_DIR/hostapd" -i "$AP_IF" status 2>/dev/null | sed -n 's/^state=//p')
		[ "$st" = ENABLED ] && break
		if [ "${EPOCHREALTIME%.*}" -ge "$deadline" ]; then
			log "wifi_setup: hostapd not ENABLED after ${tmo}s (state=${st:-none}):"
			tail -n 15 "$WIFI_DIR/hostapd.log" | sed 's/^/#   hostapd: /' >&2
			return 1
		fi
		sleep 0.05
	done
	WIFI_AP_UP_TIME=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b - a}')
	for ((i = 1; i <= n; i++)); do
		nsrun "$(sta_ns "$i")" "${ns_cmd[i]}" ||
			{ log "wifi_setup: wpa_supplicant failed in $(sta_ns "$i")"; return 1; }
	done

	# Association: every station authorized, seen from the AP (no netns hops). Bounded by
	# AIRFAIR_ASSOC_TIMEOUT seconds.
	local got=0
	deadline=$(awk -v t="$EPOCHREALTIME" -v d="$tmo" 'BEGIN{printf "%d", t + d}')
	while :; do
		got=$(iw dev "$AP_IF" station dump 2>/dev/null | grep -c 'authorized:[[:space:]]*yes')
		[ "$got" -ge "$n" ] && break
		if [ "${EPOCHREALTIME%.*}" -ge "$deadline" ]; then
			log "wifi_setup: only $got of $n stations associated after ${tmo}s"
			log "hostapd: $(hostapd_cli -p "$WIFI_DIR/hostapd" status 2>/dev/null | grep '^state=')"
			tail -n 15 "$WIFI_DIR/hostapd.log" | sed 's/^/#   hostapd: /' >&2
			for ((i = 1; i <= n; i++)); do
				tail -n 8 "$WIFI_DIR/wpa-sta$i.log" | sed "s/^/#   sta$i: /" >&2
			done
			return 1
		fi
		sleep 0.1
	done
	WIFI_ASSOC_TIME=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b - a}')

	# Neighbours known up front, both ways: the tests overload the channel on purpose,
	# and an ARP exchange lost to the medium's full queue (hwsim has no flow control)
	# left a station unreachable for a whole test ("No route to host", CI at d099b37).
	for ((i = 1; i <= n; i++)); do
		nsrun "$(sta_ns "$i")" "ip route add default via $WIFI_AP_IP dev ${STA_IF[i]}
			ip neigh replace $WIFI_AP_IP lladdr $AP_MAC nud permanent dev ${STA_IF[i]}"
		ip neigh replace "$(sta_ip "$i")" lladdr "${STA_MAC[i]}" nud permanent dev "$AP_IF"
	done
	log "wifi: $n station(s) on $AP_IF ($band $mode, $WIFI_FREQ MHz) associated in ${WIFI_ASSOC_TIME}s (AP up at ${WIFI_AP_UP_TIME}s)"
	return 0
}

# The AP's current TX bitrate to station I, Mbit/s (from rate control), e.g. "65.0".
ap_tx_bitrate() {
	iw dev "$AP_IF" station get "${STA_MAC[$1]}" 2>/dev/null |
		awk '/tx bitrate:/{print $3; exit}'
}

# Why station I may have gone quiet, as diagnostics: its (dis)connections in hostapd's and
# its wpa_supplicant's logs, and what the AP holds for it now.
wifi_station_events() {
	local i=$1
	grep -h -i -e "${STA_MAC[i]}" "$WIFI_DIR/hostapd.log" 2>/dev/null | tail -n 8 |
		sed "s/^/#   hostapd: /" >&2
	grep -h -e CTRL-EVENT "$WIFI_DIR/wpa-$(sta_ns "$i").log" 2>/dev/null | tail -n 6 |
		sed "s/^/#   sta$i: /" >&2
	iw dev "$AP_IF" station get "${STA_MAC[i]}" 2>&1 |
		grep -E 'inactive|tx (bitrate|packets|retries|failed)|rx packets|authorized|connected time|Station' |
		tr -s ' \t' ' ' | sed "s/^/#   AP: /" >&2
}

# Ping from station I to ADDR (default the AP): COUNT packets, all must come back.
sta_ping() {
	local i=$1 addr=${2:-$WIFI_AP_IP} count=${3:-3}
	nsrun "$(sta_ns "$i")" "ping -c $count -i 0.2 -W 2 $addr" > "$WIFI_DIR/ping-sta$i.log" 2>&1
}

# server_setup [DELAY_MS]: netns "server" (10.43.0.2) behind the AP over a veth pair
# (wired0 here, eth0 there, 10.43.0.1 on this side); DELAY_MS > 0 adds a netem delay on the
# server's egress, i.e. DELAY_MS to every round trip through it. Forwarding on.
server_setup() {
	local delay=${1:-0}
	wifi_workdir
	ip netns del "$SERVER_NS" 2>/dev/null
	ip netns add "$SERVER_NS"
	ip link del wired0 2>/dev/null
	ip link add wired0 type veth peer name eth0 netns "$SERVER_NS" || return 1
	ip addr add "$WIRED_AP_IP/24" dev wired0
	ip link set wired0 up
	echo 1 > /proc/sys/net/ipv4/ip_forward
	nsrun "$SERVER_NS" "
		ip link set lo up
		ip addr add $SERVER_IP/24 dev eth0
		ip link set eth0 up
		ip route add $WIFI_NET.0/24 via $WIRED_AP_IP
		if [ $delay != 0 ]; then
			tc qdisc replace dev eth0 root netem delay ${delay}ms limit 100000 || exit 1
		fi" || { log "server_setup: failed"; return 1; }
}

# ------------------------------------------------------------------------------------------
# iperf3. STAS is one station number or several ("1 2 3" or 1,2,3); all run concurrently,
# each against its own server port (5200+i) in the server netns. Prints the goodput in
# Mbit/s (receiver side), one line per station in the given order; "0" for a failed run.
# The raw iperf3 -J output is left in $WIFI_DIR/iperf-staI.json.

IPERF_PORT_BASE=5200

# iperf_servers [--persistent] PORT...: one iperf3 server per port in the server netns,
# each for one test (-1), or for any number of them one after the other (--persistent;
# stop it with kill "$(cat $WIFI_DIR/iperf-server-PORT.pid)"). A server still there from
# an earlier test on the port is killed first: iperf3 serves one test at a time, and one
# whose client hung at the end of its test (its results exchange starved under a flood)
# would take the next client's connection into its listen backlog and never serve it.
iperf_servers() {
	local once=-1 p pid t
	[ "${1:-}" = --persistent ] && { once=""; shift; }
	local ports="$*"
	for p in $ports; do
		pid=$(cat "$WIFI_DIR/iperf-server-$p.pid" 2>/dev/null) || continue
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = iperf3 ] || continue
		log "iperf: port $p: the server of an earlier test is still there; killing it"
		kill "$pid" 2>/dev/null
		for t in $(seq 40); do
			[ -d "/proc/$pid" ] || break
			[ "$t" = 20 ] && kill -9 "$pid" 2>/dev/null
			sleep 0.05
		done
	done
	nsrun "$SERVER_NS" "
		for p in $ports; do iperf3 -s $once -D -p \$p --logfile $WIFI_DIR/iperf-server-\$p.log \
			--pidfile $WIFI_DIR/iperf-server-\$p.pid || exit 1; done
		for t in \$(seq 100); do
			ok=1
			for p in $ports; do ss -Hltn \"sport = :\$p\" | grep -q . || ok=0; done
			[ \$ok = 1 ] && exit 0
			sleep 0.05
		done
		exit 1" || { log "iperf: servers on ports $ports did not come up"; return 1; }
}

# iperf_udp_client OUT SECS [NS] [--server SNS PORT] -- IPERF3-ARGS...: an iperf3 -J UDP
# client (in netns NS, if given) for SECS seconds, its JSON in OUT. iperf3 3.12 (bookworm)
# sends its UDP handshake once: when a queue that other floods overflow drops it (the
# medium's queue-limit), the client fails at once ("unable to read from stream socket")
# or waits for good, and the station gets nothing. An early failure is retried, twice at
# most, for the time left; with --server (the server's netns and port), so is a client
# whose server has not taken the handshake (connected its UDP socket) within 6 s. Each
# retry is a diagnostic line. The server must outlive a failed test (iperf3 -s, no -1).
iperf_udp_client() {
	local out=$1 secs=$2 ns="" sns="" sport="" t0 left try err=${1%.json}.err pid why in=()
	shift 2
	[ "$1" != -- ] && [ "$1" != --server ] && { ns=$1; in=(ip netns exec "$ns"); shift; }
	[ "$1" = --server ] && { sns=$2 sport=$3; shift 3; }
	shift
	t0=$EPOCHREALTIME left=$secs
	for try in 0 1 2; do
		timeout $((left + 20)) "${in[@]}" iperf3 "$@" -t "$left" -J > "$out" 2> "$err" &
		pid=$!
		why=""
		if [ -n "$sns" ] && ! iperf_udp_handshake "$sns" "$sport" "$pid" 6; then
			kill "$pid" 2>/dev/null
			why="no handshake at the server in 6 s"
		fi
		wait "$pid"
		if [ -z "$why" ]; then
			jq -e '.error' "$out" > /dev/null 2>&1 || return 0
			why=$(jq -r .error "$out")
		fi
		left=$(awk -v t0="$t0" -v t="$EPOCHREALTIME" -v s="$secs" 'BEGIN{printf "%d", s - (t - t0)}')
		[ "$try" -lt 2 ] && [ "$left" -ge 3 ] || return 0
		log "iperf3 UDP${ns:+ in $ns} failed after $(awk -v t0="$t0" -v t="$EPOCHREALTIME" \
			'BEGIN{printf "%.1f", t - t0}') s ($why): retried for ${left} s"
	done
}

# iperf_udp_handshake NS PORT PID SECS: true once the UDP server on PORT in netns NS has a
# connected socket (iperf3 connects it to the client on the handshake), false after SECS
# seconds or if PID (the client) ended first.
iperf_udp_handshake() {
	local end
	end=$(awk -v t="$EPOCHREALTIME" -v s="$4" 'BEGIN{printf "%.2f", t + s}')
	while kill -0 "$3" 2>/dev/null; do
		ip netns exec "$1" ss -Hun state established "sport = :$2" 2>/dev/null | grep -q . && return 0
		awk -v t="$EPOCHREALTIME" -v e="$end" 'BEGIN{exit !(t > e)}' && return 1
		sleep 0.1
	done
	return 0	# ended: its JSON says how
}

# iperf_run {tcp|udp} {down|up} STAS SECONDS [RATE]
iperf_run() {
	local proto=$1 dir=$2 stas=${3//,/ } secs=$4 rate=${5:-} i ports="" pids=() args
	for i in $stas; do ports+=" $((IPERF_PORT_BASE + i))"; done
	# a UDP client may go again (iperf_udp_client): its server must outlive a failed test
	iperf_servers $([ "$proto" = udp ] && echo --persistent) $ports || return 1
	args="--connect-timeout 3000"
	[ "$dir" = down ] && args+=" -R"
	[ "$proto" = udp ] && args+=" -u -b ${rate:-10M} -l 1400"
	for i in $stas; do
		rm -f "$WIFI_DIR/iperf-sta$i.json"
		if [ "$proto" = udp ]; then
			iperf_udp_client "$WIFI_DIR/iperf-sta$i.json" "$secs" "$(sta_ns "$i")" -- \
				-c "$SERVER_IP" -p $((IPERF_PORT_BASE + i)) $args &
		else
			timeout $((secs + 20)) ip netns exec "$(sta_ns "$i")" \
				iperf3 -c "$SERVER_IP" -p $((IPERF_PORT_BASE + i)) -t "$secs" -J $args \
				> "$WIFI_DIR/iperf-sta$i.json" 2>"$WIFI_DIR/iperf-sta$i.err" &
		fi
		pids+=($!)
	done
	wait "${pids[@]}" 2>/dev/null
	if [ "$proto" = udp ]; then
		for i in $stas; do
			kill "$(cat "$WIFI_DIR/iperf-server-$((IPERF_PORT_BASE + i)).pid" 2>/dev/null)" 2>/dev/null
		done
	fi
	for i in $stas; do iperf_goodput "$WIFI_DIR/iperf-sta$i.json"; done
}

# qdisc_counters DEV [KEY...]: numeric top-level fields of DEV's root qdisc in tc's
# JSON (default: qlen backlog memory_used stations), 0 if absent, on one line. For
# samplers that run while traffic is measured: a jq start costs 0.4 s of a TCG
# guest's CPU, taken from the flows under test; awk costs a hundredth of that.
qdisc_counters() {
	local dev=$1
	shift
	tc -j -s qdisc show dev "$dev" root | awk -v keys="${*:-qlen backlog memory_used stations}" '
		BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) v[i] = 0 }
		{ for (i = 1; i <= n; i++)
			if (match($0, "\"" k[i] "\":[0-9]+"))
				v[i] = substr($0, RSTART + length(k[i]) + 3, RLENGTH - length(k[i]) - 3) }
		END { for (i = 1; i <= n; i++) printf "%s%s", v[i] + 0, (i < n ? " " : "\n") }'
}

# Goodput of one iperf3 -J result, Mbit/s (receiver's view).
# Its first JSON value only: iperf3 can print an error line after it. A download (-R)
# whose end-of-test exchange failed is measured from the receiver's own intervals
# (airfair_analysis.run.iperf_goodput_mbps does the same).
iperf_goodput() {
	jq -n -r 'input |
		if .end.sum_received then .end.sum_received.bits_per_second
		elif .error then
			(if .start.test_start.reverse == 1 then
				[.intervals[]?.sum | select(.omitted | not)] |
				(map(.seconds) | add // 0) as $s |
				(if $s > 0 then 8 * (map(.bytes) | add) / $s else 0 end)
			 else 0 end)
		elif .end.sum then
			(if .end.sum.lost_packets and .end.sum.packets and .end.sum.packets > 0
			 then .end.sum.bits_per_second * (1 - .end.sum.lost_packets / .end.sum.packets)
			 else .end.sum.bits_per_second end)
		else 0 end | . / 1e6 | . * 100 | round / 100' "$1" 2>/dev/null || echo 0
}

# Bytes received by the receiver in one iperf3 -J result.
iperf_bytes() {
	jq -n -r 'input | .end.sum_received.bytes // .end.sum.bytes // 0' "$1" 2>/dev/null || echo 0
}

iperf_tcp_down() { iperf_run tcp down "$1" "$2"; }
iperf_tcp_up() { iperf_run tcp up "$1" "$2"; }
iperf_udp_down() { iperf_run udp down "$1" "$3" "$2"; }
iperf_udp_up() { iperf_run udp up "$1" "$3" "$2"; }

# ------------------------------------------------------------------------------------------

wifi_cleanup() {
	local rc=$? f i
	trap - EXIT
	[ -n "$WIFI_DIR" ] || return "$rc"
	for f in "$WIFI_DIR"/*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	for ((i = 1; i <= WIFI_NSTA; i++)); do
		ip netns pids "sta$i" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "sta$i" 2>/dev/null
	done
	ip netns pids "$SERVER_NS" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$SERVER_NS" 2>/dev/null
	ip link del wired0 2>/dev/null
	if [ -n "$MEDIUM_PID" ]; then
		kill "$MEDIUM_PID" 2>/dev/null
		wait "$MEDIUM_PID" 2>/dev/null
	fi
	# hostapd must be gone before the radios can go.
	for i in $(seq 20); do
		[ -f "$WIFI_DIR/hostapd.pid" ] && kill -0 "$(cat "$WIFI_DIR/hostapd.pid")" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$AP_IF" ] && tc qdisc del dev "$AP_IF" root 2>/dev/null
	if [ -d /sys/module/mac80211_hwsim ]; then
		rmmod mac80211_hwsim 2>/dev/null || { sleep 0.5; rmmod mac80211_hwsim 2>/dev/null; }
	fi
	if [ -n "${AIRFAIR_KEEP:-}" ]; then
		log "kept $WIFI_DIR"
	else
		rm -rf "$WIFI_DIR"
	fi
	WIFI_DIR=""
	return "$rc"
}

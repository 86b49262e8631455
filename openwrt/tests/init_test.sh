#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The feed's init and hotplug scripts, run by busybox's ash (OpenWrt's shell) under a
# stand-in rc.common (procd, UCI) with tc, ubus and jsonfilter stubs; every tc command
# the script issues is parsed by the tc the feed builds (TC_AIRFAIR). TAP on stdout.
# Usage: init_test.sh TC_AIRFAIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
files=$here/../airfair-feeder/files
export MOCK_TC=${1:?usage: init_test.sh TC_AIRFAIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MOCK_BIN=$here/bin MOCK_LOG=$work/log MOCK_UCI_DIR=$work/config MOCK_TC_SHOW= MOCK_UBUS_JSON='{}'
mkdir -p "$MOCK_UCI_DIR"
ash=$(command -v busybox) && ash="$ash sh" || ash=sh
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	printf '# %s\n' "$@"
}

# run ACTION [ARGS] with config $1; the log is left in $MOCK_LOG
run() {
	local cfg=$1
	shift
	printf '%s\n' "$cfg" > "$MOCK_UCI_DIR/airfair"
	: > "$MOCK_LOG"
	PATH=$here/bin:$PATH $ash "$here/rc.common" "$files/airfair.init" "$@" 2> "$work/err"
}

# expect NAME EXPECTED-LOG
expect() {
	if diff -u <([ -z "$2" ] || printf '%s\n' "$2") "$MOCK_LOG" > "$work/diff" && [ ! -s "$work/err" ]; then
		ok "$1"
	else
		mapfile -t lines < <(cat "$work/diff" "$work/err")
		not_ok "$1" "${lines[@]}"
	fi
}

feeder_instance() {	# DEV INTERVAL EWMA
	printf '%s\n' "instance $1" "set command /usr/sbin/airfair-feeder -i $1 --interval $2 --ewma $3" \
		"set respawn 3600 2 0" "set stderr 1" "close"
}

for s in airfair.init airfair.hotplug; do
	if out=$($ash -n "$files/$s" 2>&1); then ok "$s: ash syntax"; else not_ok "$s: ash syntax" "$out"; fi
done

# the package's default configuration parses and changes nothing until enabled
run "$(cat "$files/airfair.config")" start
expect "default /etc/config/airfair: UCI syntax, disabled: no qdisc, no feeder" ""

run "config interface 'ap0'
	option enabled '1'
	option device 'lo'
	option phy '11ac'
	option options 'limit 2048 ack-filter'
	list weight '02:11:22:33:44:55 2'
	list weight '02:11:22:33:44:66 4'
	option interval '500'
config interface 'off'
	option enabled '0'
	option device 'lo'" start
expect "enabled interface: preset, options and weights in one tc command; one feeder" \
	"tc qdisc replace dev lo root airfair 11ac limit 2048 ack-filter station 02:11:22:33:44:55 weight 2 station 02:11:22:33:44:66 weight 4
$(feeder_instance lo 500 4)"

export MOCK_UBUS_JSON='{"radio0":{"up":true,"interfaces":[{"section":"default_radio0","ifname":"phy0-ap0"}]},
 "radio1":{"up":true,"interfaces":[{"section":"guest","ifname":"lo"}]}}'
run "config interface 'guest'
	option enabled '1'
	option wifi_iface 'guest'
	option phy '11g'
	option feeder '0'" start
expect "wifi_iface: the device netifd gave it (ubus); feeder off" \
	"tc qdisc replace dev lo root airfair 11g"

run "config interface 'hapd'
	option enabled '1'
	option device 'afnodev2'
	option hostapd_ctrl '/var/run/hostapd/afnodev2'
	option hostapd_conf '/var/run/hostapd-phy0.conf'
	option sta_window '1'" start
expect "hostapd_ctrl/hostapd_conf/sta_window: the feeder follows hostapd's events and weights, and sets the stations' window" \
	"instance afnodev2
set command /usr/sbin/airfair-feeder -i afnodev2 --interval 1000 --ewma 4
append command --hostapd /var/run/hostapd/afnodev2
append command --hostapd-conf /var/run/hostapd-phy0.conf
append command --sta-window
set respawn 3600 2 0
set stderr 1
close"

run "config interface 'later'
	option enabled 'yes'
	option device 'afnodev1'
	option phy '11a'" start
expect "device not there yet: no tc (hotplug does it), the feeder waits for it" \
	"$(feeder_instance afnodev1 1000 4)"

run "config interface 'down'
	option enabled '1'
	option wifi_iface 'nosuchsection'" start
expect "wifi_iface that is not up: logged, nothing started" \
	"logger -t airfair -p daemon.err down: neither 'device' nor a wifi_iface that is up"

run "config interface 'inject'
	option enabled '1'
	option wifi_iface 'guest\"]'" start
expect "wifi_iface that is not a section name: not looked up" \
	"logger -t airfair -p daemon.err inject: neither 'device' nor a wifi_iface that is up"

run "config interface 'nowin'
	option enabled '1'
	option device 'afnodev1'
	option sta_window '0'" start
expect "sta_window '0': the feeder never sets the stations' window (hostapd's default socket)" \
	"instance afnodev1
set command /usr/sbin/airfair-feeder -i afnodev1 --interval 1000 --ewma 4
append command --no-sta-window
set respawn 3600 2 0
set stderr 1
close"

run "config interface 'bad'
	option enabled '1'
	option device 'lo'
	option phy '11ac'
	option feeder '0'
	list weight '02:11:22:33:44:55'
	list weight '02:11:22:33:44:66 5000'" start
if grep -q "^logger .*bad: weight '02:11:22:33:44:55' is not 'MAC WEIGHT'" "$MOCK_LOG" &&
   grep -q "^logger .*bad: tc qdisc replace dev lo root airfair 11ac station 02:11:22:33:44:66 weight 5000: .*weight" "$MOCK_LOG"; then
	ok "bad weights: the malformed one logged, the out-of-range one rejected by tc with its reason"
else
	mapfile -t lines < "$MOCK_LOG"
	not_ok "bad weights: the malformed one logged, the out-of-range one rejected by tc with its reason" "${lines[@]}"
fi

cfg_lo="config interface 'ap0'
	option enabled '1'
	option device 'lo'
	option phy '11n-5g'
	option feeder '0'"
MOCK_TC_SHOW='qdisc airfair 8001: root refcnt 2 11n-5g' run "$cfg_lo" stop
expect "stop: the airfair root qdisc is deleted" \
	"tc qdisc show dev lo root
tc qdisc del dev lo root"
MOCK_TC_SHOW='qdisc fq_codel 0: root refcnt 2' run "$cfg_lo" stop
expect "stop: another root qdisc is left alone" "tc qdisc show dev lo root"
MOCK_TC_SHOW='qdisc airfair 8001: root refcnt 2' run "$cfg_lo" reload
expect "reload (uci commit): from scratch, so removed weights go" \
	"tc qdisc show dev lo root
tc qdisc del dev lo root
tc qdisc replace dev lo root airfair 11n-5g"
run "$cfg_lo" service_triggers
expect "reload on 'uci commit airfair'" "reload-trigger airfair"

# hotplug: the script as installed, with /etc/init.d/airfair pointing at the stand-in
sed "s|/etc/init.d/airfair|PATH=$here/bin:\$PATH $ash $here/rc.common $files/airfair.init|" \
	"$files/airfair.hotplug" > "$work/hotplug"
hotplug() {	# ACTION INTERFACE
	printf '%s\n' "$cfg_lo" > "$MOCK_UCI_DIR/airfair"
	: > "$MOCK_LOG"
	ACTION=$1 INTERFACE=$2 $ash "$work/hotplug" 2> "$work/err"
}
hotplug add lo
expect "hotplug: a configured interface appears: airfair on it" \
	"tc qdisc replace dev lo root airfair 11n-5g"
hotplug add eth9
expect "hotplug: any other interface: nothing" ""
hotplug remove lo
expect "hotplug: removal: nothing" ""

echo "1..$n"
[ "$failed" -eq 0 ]

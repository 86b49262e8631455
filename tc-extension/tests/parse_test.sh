#!/usr/bin/env bash
# Host-side tests of q_airfair.so with the distribution's stock tc, no kernel
# module needed. TAP to stdout and to build/results/tc-parse.tap.
#
#  1. "help" prints the usage.
#  2. Bad input is rejected in userspace with a message naming the offender,
#     before anything is sent (device "afnodev0" does not exist: if a bad
#     command got past the parser, tc would fail with "Cannot find device").
#  3. Good input parses, and round-trips: the netlink request is captured by
#     an LD_PRELOAD shim (nlcapture.so, exits before sending), printed back by
#     "tc monitor file", and the printed options, parsed again, must produce
#     the very same netlink bytes.
#
# Usage: TC_LIB_DIR=build/tc-extension tests/parse_test.sh
# Env:   TC (default: tc), AF_BUILD (dir with q_airfair.so and nlcapture.so)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
TC=${TC:-tc}
AF_BUILD=${AF_BUILD:-${TC_LIB_DIR:-$top/build/tc-extension}}
export TC_LIB_DIR=$(cd "$AF_BUILD" && pwd)
results=$top/build/results
mkdir -p "$results"
tap=$results/tc-parse.tap
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NODEV=afnodev0

exec > >(tee "$tap")

n=0 fails=0
lines=()
ok()     { n=$((n + 1)); lines+=("ok $n - $1"); }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); lines+=("not ok $n - $1"); shift
	   local l; while IFS= read -r l; do lines+=("#   $l"); done < <(printf '%s\n' "$@"); }

if [ ! -f "$TC_LIB_DIR/q_airfair.so" ]; then
	echo "1..0 # SKIP $TC_LIB_DIR/q_airfair.so not built (make -C tc-extension)"
	exit 4
fi

# --- 1. help ---------------------------------------------------------------
out=$($TC qdisc add dev $NODEV root airfair help 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'Usage: ... airfair' <<<"$out" && grep -q 'station MAC' <<<"$out"; then
	ok "help prints usage (exit $rc)"
else
	not_ok "help prints usage" "rc=$rc" "$out"
fi

# --- 2. bad input ------------------------------------------------------------
# each line: expected-message-regex <TAB> arguments after "airfair"
bad_cases() {
	grep -v '^[[:space:]]*\(#\|$\)' "$here/bad_cases.txt"
}
while IFS=$'\t' read -r want args; do
	# shellcheck disable=SC2086
	out=$($TC qdisc add dev $NODEV root airfair $args 2>&1); rc=$?
	if [ $rc -ne 0 ] && ! grep -q 'Cannot find device' <<<"$out" &&
	   grep -Eq -- "$want" <<<"$out"; then
		ok "rejects: airfair $args"
	else
		not_ok "rejects: airfair $args" "rc=$rc want /$want/" "got: $out"
	fi
done < <(bad_cases)

# --- 3. good input, round trip --------------------------------------------
shim=$TC_LIB_DIR/nlcapture.so
capture() {	# capture FILE ARGS...: the RTM_NEWQDISC request tc would send
	local f=$1; shift
	rm -f "$f"
	AF_NLCAPTURE=$f LD_PRELOAD=$shim $TC qdisc add dev lo root airfair "$@" 2>&1 &&
		[ -s "$f" ]
}
while IFS= read -r args; do
	name="round-trip: airfair $args"
	if [ ! -f "$shim" ]; then
		n=$((n + 1)); lines+=("ok $n - $name # SKIP nlcapture.so not built"); continue
	fi
	# shellcheck disable=SC2086
	if ! out=$(capture "$tmp/a.nl" $args); then
		not_ok "$name" "parse failed: $out"; continue
	fi
	shown=$($TC monitor file "$tmp/a.nl" 2>&1)
	opts=$(sed -n 's/^.* root refcnt [0-9]* //p' <<<"$shown" | sed 's/ *$//')
	# shellcheck disable=SC2086
	if ! out=$(capture "$tmp/b.nl" $opts); then
		not_ok "$name" "printed form does not parse: $opts" "$out"; continue
	fi
	# the same request, but for nlmsg_seq (bytes 9-12, from the clock)
	if cmp -s <(head -c 8 "$tmp/a.nl"; tail -c +13 "$tmp/a.nl") \
		  <(head -c 8 "$tmp/b.nl"; tail -c +13 "$tmp/b.nl"); then
		ok "$name => $opts"
	else
		not_ok "$name" "printed: $opts" "netlink differs after re-parse"
	fi
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/good_cases.txt")

# --- 4. statistics printing on a synthetic dump (tests/mkstats.c) ----------
if [ -x "$TC_LIB_DIR/mkstats" ]; then
	"$TC_LIB_DIR/mkstats" > "$tmp/st.nl"
	txt=$($TC -s monitor file "$tmp/st.nl" 2>&1)
	if grep -q 'airtime(us) 123456789012 stations' <<<"$txt" &&
	   grep -q 'station 02:00:00:00:00:42 weight 2 rate vht-mcs 9 nss 2 bw 80 sgi (866.7Mbit) source feeder' <<<"$txt" &&
	   grep -q 'airtime 5000000us settled -4321us (told air 3000000us wait 1995679us ppdus 12000 windows 19000 single 3000 data 4000000 ltfs 26000) deficit -500ns' <<<"$txt" &&
	   grep -q 'ampdu 7.375 (measured 7.4) acked 5.25 ppdu_loss 31.2% cw_scale 1.44' <<<"$txt" &&
	   grep -q 'expected 420000kbit pending 2500us phy 6000us rtt 20.3ms' <<<"$txt" &&
	   grep -q 'upload 1021 frames backlogged 12.3s' <<<"$txt" &&
	   grep -q 'retry 10.00% ampdu 12 (measured 12.2)' <<<"$txt" &&
	   grep -q 'rtt_samples 115 rtt_untracked 116' <<<"$txt"; then ok "xstats text (qdisc and class)"
	else not_ok "xstats text (qdisc and class)" "$txt"; fi
	js=$($TC -j -s monitor file "$tmp/st.nl" 2>&1 | grep '^{' | jq -s -c . 2>&1)
	keys() { awk -v re="$1" '/^##/ { on = ($0 ~ re) } on && /^\| `/ { split($0, a, "`"); print a[2] }' "$here/../json-keys.md"; }
	miss=
	for k in $(keys 'per-station statistics'); do
		jq -e --arg k "$k" '.[1].station | has($k)' >/dev/null <<<"$js" || miss+=" station.$k"; done
	for k in $(keys 'rate object'); do
		jq -e --arg k "$k" '.[1].station.rate | has($k)' >/dev/null <<<"$js" || miss+=" rate.$k"; done
	for k in spec rate_kbps loss loss_pct ampdu_used ampdu_used_x16 ampdu_x16 ampdu_measured; do
		jq -e --arg k "$k" '.[1].station.up | has($k)' >/dev/null <<<"$js" || miss+=" up.$k"; done
	for k in addr weight rate loss_pct loss; do
		jq -e --arg k "$k" '.[0].station_options | has($k)' >/dev/null <<<"$js" || miss+=" station_options.$k"; done
	if [ -z "$miss" ]; then ok "class JSON has every documented key"
	else not_ok "class JSON has every documented key" "missing:$miss" "$js"; fi
else
	n=$((n + 1)); lines+=("ok $n - xstats printing # SKIP mkstats not built")
fi

# --- 5. the man page's preset table agrees with sch_airfair/phy_params.h -----
pp=$top/sch_airfair/phy_params.h
if [ -f "$pp" ]; then
	# phy_params: X(AIRFAIR_PHY_11N_2G, sifs, slot, cwmin, cwmax, ..., basic, sigext)
	want=$(sed -n 's/^[[:space:]]*X(AIRFAIR_PHY_\([0-9A-Z_]*\),\(.*\)).*/\1 \2/p' "$pp" |
		tr -d ',' | awk '{ n = tolower($1); gsub(/_/, "-", n)
			r = $15 / 10; printf "%s %s %s %s %s %smbit\n", n, $2, $3, $4, $5, r }')
	got=$(sed -n '/^l l n n n n l\./,/^\.TE/p' "$here/../tc-airfair.8" |
		grep -v '^\(l l\|preset\|_\|\.TE\)' | sed 's/\\-/-/g' |
		awk -F'\t' '{ printf "%s %s %s %s %s %s\n", $1, $3, $4, $5, $6, $7 }')
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "tc-airfair.8 preset table matches sch_airfair/phy_params.h"
	else
		not_ok "tc-airfair.8 preset table matches sch_airfair/phy_params.h" \
			"phy_params.h:" "$want" "man page:" "$got"
	fi
	# the plugin spells out phy_params.h's name lists (it must build inside iproute2)
	names_match() {	# WHAT DEFINE ARRAY
		local want got
		want=$(sed -n "/^#define $2/,/}/p" "$pp" | grep -o '"[^"]*"' | tr -d '"' | xargs)
		got=$(sed -n "/^static const char \\* const $3/,/^};/p" "$here/../q_airfair.c" |
			grep -o '"[^"]*"' | tr -d '"' | xargs)
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			ok "q_airfair.c $1 names are $2 ($want)"
		else
			not_ok "q_airfair.c $1 names are $2" "phy_params.h: $want" "q_airfair.c: $got"
		fi
	}
	names_match preset AIRFAIR_PHY_NAMES af_phy_names
	names_match source AIRFAIR_SOURCE_NAMES af_source_names
	# ... and the model's legacy rates (airtime-calc --rates prints them)
	calc=$top/build/tools/airtime-calc
	if [ -x "$calc" ]; then
		want=$("$calc" --rates | awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf " %d", $i * 10; print "" }')
		got=$(for k in dsss ofdm; do
			sed -n "s/^static const __u16 af_${k}_rates\[\] = { \(.*\) };/$k \1/p" \
				"$here/../q_airfair.c" | tr -d ,
		done)
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			ok "q_airfair.c legacy rates are the model's ($(echo $want))"
		else
			not_ok "q_airfair.c legacy rates are the model's" "model: $want" "q_airfair.c: $got"
		fi
	else
		n=$((n + 1)); lines+=("ok $n - q_airfair.c legacy rates # SKIP $calc not built")
	fi
else
	n=$((n + 1)); lines+=("ok $n - man page preset table # SKIP no $pp")
fi

# --- 6. the plugin is found in the standard directory when installed ---------
std=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)/tc
if [ -f "$std/q_airfair.so" ]; then
	out=$(env -u TC_LIB_DIR $TC qdisc add dev $NODEV root airfair help 2>&1)
	if grep -q 'Usage: ... airfair' <<<"$out"; then ok "stock tc loads $std/q_airfair.so"
	else not_ok "stock tc loads $std/q_airfair.so" "$out"; fi
else
	n=$((n + 1)); lines+=("ok $n - stock tc loads $std/q_airfair.so # SKIP not installed (make install)")
fi

# --- 7. the upstream patch (generated, never committed) applies and builds ------------
pt=$tmp/patch
name="make patch: a format-patch for iproute2 that applies to its tree and compiles there"
if out=$(MKPATCH_OUT=$pt "$top/tc-extension/mkpatch.sh" 2>&1) &&
   src=$("$top/scripts/iproute2-src.sh") &&
   d=$(cd "$src" && patch -p1 --dry-run -s < "$pt"/0001-*.patch 2>&1) &&
   grep -q '^Subject: \[PATCH\] tc: add airfair qdisc support' "$pt"/0001-*.patch; then
	ok "$name"
else
	not_ok "$name" "$out" "$(head -n 20 <<<"${d:-}")"
fi

echo "TAP version 13"
echo "1..$n"
printf '%s\n' "${lines[@]}"
echo "# $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ] && exit 0 || exit 1

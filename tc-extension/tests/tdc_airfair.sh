#!/usr/bin/env bash
# tdc-style, table-driven tests of the airfair qdisc through the stock tc,
# run inside a guest where the sch_airfair module and q_airfair.so exist.
# Needs only bash, tc, ip, jq. TAP on stdout and in $AF_RESULTS/tc-airfair.tap.
# Exit: 0 all passed, 1 a failure, 4 skipped (reason printed).
#
# Env: AF_DEV      device to test on (default: a new dummy "afdummy0")
#      AF_MODULE   path of sch_airfair.ko for insmod if modprobe fails
#      TC_LIB_DIR  where tc finds q_airfair.so (default: tc's standard dir)
#      AF_RESULTS  TAP directory (default: <repo>/build/results if writable)
#
# Tables (same directory): tdc_cases.txt (good: ARGS, jq predicate),
# bad_cases.txt (rejected by tc), tdc_bad_kernel.txt (rejected by the module),
# and ../json-keys.md (the documented JSON keys).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
TC=${TC:-tc}
res=${AF_RESULTS:-$top/build/results}
mkdir -p "$res" 2>/dev/null || res=/tmp
tap=$res/tc-airfair.tap

n=0 fails=0 lines=()
ok()     { n=$((n + 1)); lines+=("ok $n - $1"); }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); lines+=("not ok $n - $1"); shift
	   local l; while IFS= read -r l; do lines+=("#   $l"); done < <(printf '%s\n' "$@"); }
finish() {
	{ echo "TAP version 13"; echo "1..$n"; printf '%s\n' "${lines[@]}"
	  echo "# $((n - fails)) passed, $fails failed"; } | tee "$tap"
	cleanup
	[ $fails -eq 0 ] && exit 0 || exit 1
}
skip_all() {
	echo "1..0 # SKIP $*" | tee "$tap"
	exit 4
}
made_dev=
cleanup() {
	[ -n "${DEV:-}" ] && $TC qdisc del dev "$DEV" root 2>/dev/null
	[ -n "$made_dev" ] && ip link del "$made_dev" 2>/dev/null
	return 0
}
trap cleanup EXIT

for t in "$TC" ip jq; do command -v "$t" >/dev/null || skip_all "$t not found"; done
if ! modprobe sch_airfair 2>/dev/null; then
	if [ -n "${AF_MODULE:-}" ] && [ -f "$AF_MODULE" ]; then
		insmod "$AF_MODULE" 2>/dev/null || grep -q '^sch_airfair ' /proc/modules ||
			skip_all "insmod $AF_MODULE failed"
	elif ! grep -q '^sch_airfair ' /proc/modules 2>/dev/null; then
		skip_all "cannot load sch_airfair (modprobe failed, AF_MODULE unset)"
	fi
fi
$TC qdisc add dev lo root airfair help 2>&1 | grep -q 'Usage: ... airfair' ||
	skip_all "tc cannot load q_airfair.so (TC_LIB_DIR=${TC_LIB_DIR:-unset})"

DEV=${AF_DEV:-}
if [ -z "$DEV" ]; then
	DEV=afdummy0
	ip link add "$DEV" type dummy 2>/dev/null || skip_all "no dummy device (set AF_DEV)"
	made_dev=$DEV
fi
ip link set "$DEV" up

# --- helpers -------------------------------------------------------------
q_json() { $TC -j qdisc show dev "$DEV" root | jq -c '.[0]'; }
q_opts() { $TC qdisc show dev "$DEV" root | sed -n 's/^qdisc airfair [0-9a-f]*: root refcnt [0-9]* //p' | sed 's/ *$//'; }
snapshot() { printf 'qdisc show dev %s\nclass show dev %s\n' "$DEV" "$DEV" | $TC -batch - 2>&1; }
reset_q() {	# one tc for both (-force: the del fails when nothing is there)
	printf 'qdisc del dev %s root\nqdisc add dev %s root airfair\n' "$DEV" "$DEV" |
		$TC -force -batch - 2>/dev/null
}

# --- 1. plugin from the standard directory ------------------------------
std=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)/tc
if [ -f "$std/q_airfair.so" ]; then
	if (unset TC_LIB_DIR; $TC qdisc add dev "$DEV" root airfair help 2>&1) | grep -q "Usage: ... airfair"
	then ok "stock tc loads $std/q_airfair.so"; else not_ok "stock tc loads $std/q_airfair.so"; fi
else
	n=$((n + 1)); lines+=("ok $n - stock tc loads $std/q_airfair.so # SKIP not installed")
fi

# --- 2. lifecycle: add / show / change / replace / delete ----------------
$TC qdisc del dev "$DEV" root 2>/dev/null
if out=$($TC qdisc add dev "$DEV" root handle 1: airfair 2>&1) && [ -n "$(q_opts)" ]; then
	ok "add with defaults: $(q_opts)"
else not_ok "add with defaults" "$out"; fi
defaults=$(q_opts)
if $TC qdisc change dev "$DEV" root airfair limit 777 2>/dev/null &&
   [ "$(q_json | jq '.options.limit')" = 777 ] &&
   [ "$(q_opts | sed 's/limit [0-9]*//')" = "$(sed 's/limit [0-9]*//' <<<"$defaults")" ]
then ok "change touches only the named option"; else not_ok "change touches only the named option" "$(q_opts)"; fi
# A replace by a qdisc of the same kind is a change in place (kernel semantics).
before_replace=$(q_opts)
if $TC qdisc replace dev "$DEV" root airfair 2>/dev/null && [ "$(q_opts)" = "$before_replace" ]
then ok "same-kind replace keeps the running settings"; else not_ok "same-kind replace keeps the running settings" "$(q_opts)"; fi
# The station table is sized at creation; resizing it needs a new qdisc.
$TC qdisc del dev "$DEV" root 2>/dev/null
if $TC qdisc add dev "$DEV" root airfair max-stations 64 2>/dev/null &&
   $TC qdisc show dev "$DEV" | grep -q 'max-stations 64 ' &&
   err=$($TC qdisc change dev "$DEV" root airfair max-stations 32 2>&1); [ $? -ne 0 ] &&
   grep -q 'only be set when the qdisc is created' <<<"$err" &&
   $TC qdisc show dev "$DEV" | grep -q 'max-stations 64 '
then ok "max-stations is set at creation; a change to it is refused"; else not_ok "max-stations at creation" "${err:-}"; fi
$TC qdisc del dev "$DEV" root 2>/dev/null
$TC qdisc add dev "$DEV" root airfair 2>/dev/null
if $TC qdisc del dev "$DEV" root 2>/dev/null && ! $TC qdisc show dev "$DEV" | grep -q airfair
then ok "delete"; else not_ok "delete"; fi
if $TC qdisc add dev "$DEV" root airfair 2>/dev/null && ! $TC qdisc add dev "$DEV" root airfair 2>/dev/null
then ok "second add is refused (exclusive)"; else not_ok "second add is refused"; fi

# --- 3. every option: replace, change, JSON predicate, round trip -----------
# jq starts slowly (0.4 s a call in a TCG guest): the shows are kept, and all the
# predicates are judged by one jq run after the table.
shows=$(mktemp) nshow=0 e_what=() e_show=() e_pred=() e_fail=()
case_result() {	# case_result WHAT SHOW-INDEX|-1 PRED FAILURE-LINES
	e_what+=("$1"); e_show+=("$2"); e_pred+=("$3"); e_fail+=("$4")
}
while IFS=$'\t' read -r args pred; do
	# shellcheck disable=SC2086
	for verb in replace change; do
		reset_q
		# shellcheck disable=SC2086
		if ! out=$($TC qdisc $verb dev "$DEV" root airfair $args 2>&1); then
			case_result "$verb: $args" -1 "" "$out"; continue
		fi
		case $args in station\ *)
			mac=$(awk '{print $2}' <<<"$args")
			if ! $TC class show dev "$DEV" | grep -qi "station $mac"; then
				case_result "$verb: $args" -1 "" "no class for $mac:
$($TC class show dev "$DEV")"
				continue
			fi;;
		esac
		$TC -j qdisc show dev "$DEV" root >> "$shows"
		case_result "$verb: $args" "$nshow" "$pred" ""
		nshow=$((nshow + 1))
	done
	# round trip: what show prints, given back, gives the same show
	reset_q; $TC qdisc replace dev "$DEV" root airfair $args 2>/dev/null
	shown=$(q_opts)
	# shellcheck disable=SC2086
	if $TC qdisc replace dev "$DEV" root airfair $shown 2>/dev/null && [ "$(q_opts)" = "$shown" ]
	then case_result "round-trip: $args" -1 "" ""
	else case_result "round-trip: $args" -1 "" "shown: $shown
again: $(q_opts)"; fi
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/tdc_cases.txt")
# One program: for each kept show, its predicate's verdict (an error is false).
verdict() {	# verdict SHOW-INDEX PRED
	echo "(try ([.[$1][0] | $2] | last | . != null and . != false) catch false)"
}
progs=() verdicts=()
for i in "${!e_what[@]}"; do
	[ "${e_show[i]}" -lt 0 ] || progs+=("$(verdict "${e_show[i]}" "${e_pred[i]}")")
done
if [ ${#progs[@]} -gt 0 ]; then
	mapfile -t verdicts < <(IFS=,; jq -s "${progs[*]}" "$shows" 2>&1)
	# A predicate that does not compile sinks the whole program: judge one by one.
	if [ ${#verdicts[@]} -ne ${#progs[@]} ] ||
	   printf '%s\n' "${verdicts[@]}" | grep -qvx 'true\|false'; then
		verdicts=()
		for p in "${progs[@]}"; do
			verdicts+=("$(jq -s "$p" "$shows" 2>&1 | head -n 1)")
		done
	fi
fi
k=0
for i in "${!e_what[@]}"; do
	if [ "${e_show[i]}" -lt 0 ]; then
		if [ -z "${e_fail[i]}" ]; then ok "${e_what[i]}"; else not_ok "${e_what[i]}" "${e_fail[i]}"; fi
		continue
	fi
	if [ "${verdicts[k]:-}" = true ]; then
		ok "${e_what[i]}"
	else
		not_ok "${e_what[i]}" "predicate: ${e_pred[i]}" "verdict: ${verdicts[k]:-none}" \
			"json: $(jq -s -c ".[${e_show[i]}][0]" "$shows" 2>&1)"
	fi
	k=$((k + 1))
done
rm -f "$shows"

# --- 4. bad input: a message, exit != 0, the running qdisc unchanged ------
reset_q
$TC qdisc change dev "$DEV" root airfair station 02:00:00:00:00:77 weight 3 2>/dev/null
before=$(snapshot)
check_bad() {	# check_bad REGEX ARGS
	local want=$1 args=$2 out rc
	# shellcheck disable=SC2086
	out=$($TC qdisc change dev "$DEV" root airfair $args 2>&1); rc=$?
	if [ $rc -ne 0 ] && [ -n "$out" ] && grep -Eq -- "$want" <<<"$out" &&
	   [ "$(snapshot)" = "$before" ]; then
		ok "rejects: $args ($(head -n1 <<<"$out"))"
	else
		not_ok "rejects: $args" "rc=$rc want /$want/ got: $out" \
			"$( [ "$(snapshot)" = "$before" ] || echo 'the running qdisc CHANGED')"
	fi
}
while IFS=$'\t' read -r want args; do check_bad "$want" "$args"
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/bad_cases.txt")
while IFS=$'\t' read -r want args; do check_bad "$want" "$args"
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/tdc_bad_kernel.txt")

# --- 5. JSON against json-keys.md ----------------------------------------
keys() {	# keys SECTION-REGEX: backquoted first-column keys of that section's table
	awk -v re="$1" '/^##/ { on = ($0 ~ re) } on && /^\| `/ { split($0, a, "`"); print a[2] }' \
		"$here/../json-keys.md"
}
reset_q
# keys_check JSON PREFIX JQ-TEST KEY...: one jq run, a TAP line per key (JQ-TEST sees $k)
keys_check() {
	local json=$1 prefix=$2 test=$3 line
	shift 3
	[ $# -gt 0 ] || return 0
	while IFS= read -r line; do
		case $line in
		ok\ *) ok "${line#ok }" ;;
		*) not_ok "${line#fail }" "$json" ;;
		esac
	done < <(jq -r --arg p "$prefix" --args \
		'$ARGS.positional[] as $k | if (try ('"$test"') catch false)
		 then "ok \($p)\($k)" else "fail \($p)\($k)" end' "$@" <<<"$json" 2>&1)
}
js=$($TC -j -s qdisc show dev "$DEV" root | jq -c '.[0]')
opt_keys=()
for k in $(keys 'object .options.'); do [ "$k" = stations ] || opt_keys+=("$k"); done
keys_check "$js" "json options." '.options | has($k)' "${opt_keys[@]}"
# shellcheck disable=SC2046
keys_check "$js" "json stats " 'has($k) and (.[$k] | type == "number")' $(keys 'global statistics')
# a station with traffic: static settings plus packets to its MAC
$TC qdisc change dev "$DEV" root airfair station 02:00:00:00:00:42 weight 2 rate ht-mcs 7 loss 1% 2>/dev/null
ip addr add 10.253.0.1/24 dev "$DEV" 2>/dev/null
ip neigh replace 10.253.0.2 lladdr 02:00:00:00:00:42 dev "$DEV" 2>/dev/null
ping -c 3 -i 0.2 -W 1 10.253.0.2 >/dev/null 2>&1
cj=$($TC -j -s class show dev "$DEV" | grep '^{' | jq -s -c '[.[] | .station? | select(.) | select(.addr == "02:00:00:00:00:42")][0]')
if [ "$cj" = null ] || [ -z "$cj" ]; then
	not_ok "json station 02:00:00:00:00:42 found" "$($TC -j -s class show dev "$DEV")"
else
	present=() absent=()
	# conditional keys: this station's rate is static, so they must be absent
	for k in $(keys 'per-station statistics'); do
		if grep -q "^| \`$k\`.*absent unless" "$here/../json-keys.md"
		then absent+=("$k"); else present+=("$k"); fi
	done
	keys_check "$cj" "json station." 'has($k)' "${present[@]}"
	keys_check "$cj" "json station (static, absent) ." 'has($k) | not' "${absent[@]}"
	# shellcheck disable=SC2046
	keys_check "$cj" "json station.rate." '.rate | has($k)' $(keys 'rate object')
	if jq -e '.weight == 2 and .rate.mode == "ht" and .rate.mcs == 7 and .source == "static"' >/dev/null <<<"$cj"
	then ok "json station values"; else not_ok "json station values" "$cj"; fi
fi
ip addr del 10.253.0.1/24 dev "$DEV" 2>/dev/null

finish

#!/usr/bin/env bash
# Generate build/iproute2-patch/0001-tc-add-airfair-qdisc-support.patch (`make patch`), an
# upstream-style (git format-patch) patch for an iproute2 tree, from the same
# files the plugin is built from (one source of truth), put in place by
# add-to-iproute2.sh (q_airfair.c, tc-airfair.8, the uapi header, tc/Makefile),
# against Debian's iproute2 source (scripts/iproute2-src.sh), then checks that
# the patched tree compiles tc/q_airfair.o.
# Usage: tc-extension/mkpatch.sh [IPROUTE2_TREE]
# Env:   MKPATCH_OUT: write the patch there instead
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
src=${1:-$("$top/scripts/iproute2-src.sh")}
out=${MKPATCH_OUT:-$top/build/iproute2-patch}
work=${MKPATCH_OUT:+$MKPATCH_OUT/tree}
work=${work:-$top/build/tc-extension/iproute2-git}
[ -f "$src/tc/Makefile" ] || { echo "mkpatch: no iproute2 tree at $src" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work" "$out"
cp -a "$src/." "$work/"
rm -rf "$work/.pc" "$work/debian"
cd "$work"
export GIT_AUTHOR_NAME="sch_airfair maintainers" GIT_AUTHOR_EMAIL="maintainers@users.noreply.a-seed-13261ddb.example"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2025-01-01T00:00:00Z" GIT_COMMITTER_DATE="2025-01-01T00:00:00Z"
git init -q .
git add -A . >/dev/null
git commit -q -m "iproute2 $(basename "$src") (Debian source)"

"$here/add-to-iproute2.sh" .
git add tc/q_airfair.c tc/Makefile man/man8/tc-airfair.8 include/uapi/linux/pkt_sched_airfair.h
git commit -q -F - <<'MSG'
tc: add airfair qdisc support

sch_airfair is an airtime-fair qdisc for WiFi access points: it charges
each packet the airtime its transmission takes at the destination
station's PHY rate (including the TCP ACKs it causes) and shares the
channel's airtime among stations, with per-station weights, per-flow
fair queuing and AQM, and switchable TCP ACK mechanisms.

Add the tc side: PHY presets (11b ... 11ax) and per-field timing
overrides (sifs, slot, cwmin, cwmax, aifsn, retries, basic-rate),
limits, model, utilisation, quantum, delack, ampdu, the ack-filter,
ack-prio, tlas and rtt-buffer switches, AQM target/interval/ecn,
station table size and ageing, and static per-station settings
(station MAC weight N rate RATE loss PERCENT). Options are printed
back in the same grammar, so "tc qdisc show" round-trips into
"tc qdisc add". Global and per-station (class) statistics are printed
in text and JSON. Add tc-airfair(8) and the uapi header.

Signed-off-by: sch_airfair maintainers <maintainers@users.noreply.a-seed-13261ddb.example>
MSG
rm -f "$out"/0001-*.patch
git format-patch -q -1 -o "$out" HEAD
echo "mkpatch: wrote $(ls "$out"/0001-*.patch)"

# the patched tree must compile the new module with its own headers only
if ${CC:-gcc} -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-Iinclude -Iinclude/uapi -Itc -c tc/q_airfair.c -o "$work/q_airfair.o" 2>"$work/build.err" &&
   [ ! -s "$work/build.err" ]; then
	echo "mkpatch: tc/q_airfair.c compiles cleanly in the patched tree"
else
	echo "mkpatch: tc/q_airfair.c does not compile cleanly in the patched tree:" >&2
	cat "$work/build.err" >&2
	exit 1
fi

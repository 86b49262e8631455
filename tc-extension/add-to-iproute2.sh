#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Add airfair to an iproute2 source tree's tc, built in like q_cake: tc/q_airfair.c,
# the uapi header, tc-airfair(8), and "TCMODULES += q_airfair.o" after q_cake.o in
# tc/Makefile. Used by mkpatch.sh (the upstream patch) and by the OpenWrt package
# tc-airfair (openwrt/tc-airfair), whose tc loads no plugins. Idempotent.
# Usage: add-to-iproute2.sh IPROUTE2_TREE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
[ $# -eq 1 ] && [ -f "$1/tc/Makefile" ] || {
	echo "add-to-iproute2: usage: add-to-iproute2.sh IPROUTE2_TREE (no tc/Makefile in '${1:-}')" >&2
	exit 2
}
tree=$1
install -m 0644 "$here/q_airfair.c" "$tree/tc/q_airfair.c"
install -m 0644 "$here/tc-airfair.8" "$tree/man/man8/tc-airfair.8"
install -m 0644 "$top/include/uapi/linux/pkt_sched_airfair.h" \
	"$tree/include/uapi/linux/pkt_sched_airfair.h"
grep -q '^TCMODULES += q_airfair.o' "$tree/tc/Makefile" ||
	sed -i '/^TCMODULES += q_cake.o$/a TCMODULES += q_airfair.o' "$tree/tc/Makefile"
grep -q '^TCMODULES += q_airfair.o' "$tree/tc/Makefile" || {
	echo "add-to-iproute2: $tree/tc/Makefile has no 'TCMODULES += q_cake.o' line" >&2
	exit 1
}

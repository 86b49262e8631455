#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The qdisc's netlink interface under bad input: helpers/nl_sweep.c sends boundary,
# wrong-type, wrong-length, unknown, duplicated and nested-garbage TCA_AIRFAIR_*
# attributes, a full station table (AIRFAIR_STATIONS_MAX) and random attribute soup
# as change requests to airfair on a dummy device that is down. Every request that
# must fail has to carry an extack message and leave `tc -s -d -j qdisc/class show`
# byte-identical; the runner fails the test on any kernel complaint (and, on the debug
# kernel, on any leak kmemleak finds afterwards).
. "$(dirname "$0")/airfair_lib.sh"

DEV=afnl0
ROUNDS=${AIRFAIR_NL_ROUNDS:-300}
cleanup() { ip link del "$DEV" 2>/dev/null; }
trap cleanup EXIT

require_root
require_cmd tc ip
airfair_helper sweep nl_sweep
airfair_load || ktap_skip_all "cannot load sch_airfair"
require_module dummy
ip link add "$DEV" type dummy || ktap_skip_all "cannot create a dummy device"
max=$(sed -n 's/^#define AIRFAIR_STATIONS_MAX[[:space:]]*\([0-9]*\).*/\1/p' \
	"$AIRFAIR_REPO/include/uapi/linux/pkt_sched_airfair.h")
tc qdisc add dev "$DEV" root handle 1: airfair max-stations "$max" ||
	ktap_skip_all "cannot add airfair with max-stations $max"
TC=$(command -v tc) "$sweep" "$DEV" "$max" "$ROUNDS"
rc=$?
# the qdisc with a full table goes away cleanly
tc qdisc del dev "$DEV" root || rc=1
exit $rc

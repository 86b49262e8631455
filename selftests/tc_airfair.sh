#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tc plugin against the real module: tdc-style table of every option (add, change,
# replace, show round-trip, JSON keys) and of bad inputs that must change nothing.
# The cases live with the plugin in tc-extension/tests/.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
airfair_load >/dev/null 2>&1
export AF_MODULE=${AIRFAIR_KO:-$AIRFAIR_REPO/build/$(uname -r)/sch_airfair.ko}
export AF_RESULTS=${AF_RESULTS:-/tmp}
# In the throwaway test VM, install the plugin where stock tc looks for it, so that
# loading from the standard directory is tested too.
if [ "${AIRFAIR_VM:-}" = 1 ] && so=$(airfair_built_plugin); then
	mkdir -p /usr/lib/x86_64-linux-gnu/tc
	cp "$so" /usr/lib/x86_64-linux-gnu/tc/
fi
exec bash "$AIRFAIR_REPO/tc-extension/tests/tdc_airfair.sh"

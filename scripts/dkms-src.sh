#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lay out the DKMS source tree of sch_airfair: the module's sources, the uapi header and
# a dkms.conf with the version from VERSION, in OUT/airfair-VERSION (default OUT:
# build/dkms-src). Prints the tree's path. Install on a machine with dkms:
#   dkms add "$(scripts/dkms-src.sh)" && dkms install airfair/$(cat VERSION)
# Usage: dkms-src.sh [OUT]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(cat "$repo/VERSION")
out=${1:-$repo/build/dkms-src}
tree=$out/airfair-$version
rm -rf "$tree"
"$repo/scripts/module-tree.sh" "$tree"
sed "s/@VERSION@/$version/" "$repo/packaging/dkms.conf.in" > "$tree/dkms.conf"
echo "$tree"

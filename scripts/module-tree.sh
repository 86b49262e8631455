#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Copy what an out-of-tree build of sch_airfair needs into DIR: sch_airfair/ (sources and
# Kbuild), include/ (the uapi header Kbuild adds to the include path) and LICENSE. Build
# with `make -C KDIR M=DIR/sch_airfair modules`. The DKMS tree (dkms-src.sh) and the
# OpenWrt package (openwrt/sched-airfair) are laid out by this script.
# Usage: module-tree.sh DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: module-tree.sh DIR" >&2; exit 2; }
tree=$1
mkdir -p "$tree/sch_airfair" "$tree/include"
cp -p "$repo"/sch_airfair/*.[ch] "$repo/sch_airfair/Kbuild" "$tree/sch_airfair/"
cp -rp "$repo/include/." "$tree/include/"
cp -p "$repo/LICENSE" "$tree/"

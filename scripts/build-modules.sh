#!/usr/bin/env bash
# Build the kernel modules out of tree for one kernel release, into build/KVER/:
# sch_airfair.ko and the harness self-test module airfair_warn.ko.
# Sources are mirrored into build/KVER/src so that several kernels can be built side by
# side from one checkout (Kbuild writes objects next to the sources).
# Usage: build-modules.sh KVER
set -euo pipefail
kver=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
kdir=${KDIR:-/lib/modules/$kver/build}
out=$repo/build/$kver
src=$out/src
[ -e "$kdir/Makefile" ] || { echo "build-modules: no kernel headers at $kdir (scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$src/sch_airfair" "$src/include" "$src/warn"
# cp -u keeps timestamps of unchanged files, so Kbuild rebuilds only what changed.
cp -pu "$repo"/sch_airfair/*.[ch] "$repo/sch_airfair/Kbuild" "$src/sch_airfair/"
cp -rpu "$repo/include/." "$src/include/"
cp -pu "$repo"/vm/selftest/*.c "$repo/vm/selftest/Kbuild" "$src/warn/"
jobs=$(nproc)
make -s -C "$kdir" M="$src/sch_airfair" -j"$jobs" modules
make -s -C "$kdir" M="$src/warn" -j"$jobs" modules
cp "$src/sch_airfair/sch_airfair.ko" "$src/warn/airfair_warn.ko" "$out/"
echo "build-modules: $out/sch_airfair.ko"

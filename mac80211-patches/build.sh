#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a patched mac80211.ko out of tree for one Debian kernel:
#
#   mac80211-patches/build.sh KVER        -> build/KVER/mac80211/mac80211.ko
#
# Extracts net/mac80211 and include/net/mac80211.h from Debian's linux-source-<series>
# tarball (the one matching KVER) into build/KVER/mac80211/src, applies
# mac80211-patches/<series>/series with patch -p1, then the testbed's own
# testbed/mac80211-patches/<series>/series (module parameters for a dilated medium that
# change nothing unless set; not part of what ships), builds against the installed headers
# (/lib/modules/KVER/build; the patched mac80211.h goes first on the include path through
# NOSTDINC_FLAGS) and strips debug info. Cached: nothing is redone while the tarball, the
# series and this script are unchanged. Boot with it: vm/run.sh --modules build/KVER/mac80211.
# Only new declarations are added to the public header, so the stock drivers
# (mac80211_hwsim, ...) load against the result without symbol-version errors.
#   JOBS (default 2)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=../scripts/patch-series.sh
. "$repo/scripts/patch-series.sh"
[ $# -eq 1 ] || { echo "usage: $0 KVER" >&2; exit 2; }
kver=$1
series=$(series_for "$kver") || exit 2
tarball=/usr/src/linux-source-$series.tar.xz
kdir=/lib/modules/$kver/build
pdir=$here/$series
tbdir=$repo/testbed/mac80211-patches/$series
out=$repo/build/$kver/mac80211
src=$out/src
[ -f "$tarball" ] || { echo "build.sh: $tarball missing (apt-get install linux-source-$series)" >&2; exit 1; }
[ -d "$kdir" ] || { echo "build.sh: $kdir missing (apt-get install linux-headers-$kver)" >&2; exit 1; }
[ -f "$pdir/series" ] || { echo "build.sh: $pdir/series missing" >&2; exit 1; }
[ -f "$tbdir/series" ] || { echo "build.sh: $tbdir/series missing" >&2; exit 1; }

stamp=$(series_stamp "$kver" "$tarball" "$pdir" "$0" "$repo/scripts/patch-series.sh" \
	"$tbdir/series" "$tbdir"/*.patch)
if series_cached "$out" mac80211.ko "$stamp"; then
	echo "build.sh: $out/mac80211.ko is up to date"
	exit 0
fi

rm -rf "$src" "$out/mac80211.ko" "$out/stamp"
mkdir -p "$src"
t0=$SECONDS
tar -xJf "$tarball" -C "$src" --strip-components=1 \
	"linux-source-$series/net/mac80211" "linux-source-$series/include/net/mac80211.h"
echo "build.sh: extracted net/mac80211 from $tarball in $((SECONDS - t0)) s"
series_apply "$src" "$pdir" | sed 's/^/build.sh: /'
series_apply "$src" "$tbdir" | sed 's/^/build.sh: testbed: /'

t0=$SECONDS
make -s -C "$kdir" M="$src/net/mac80211" NOSTDINC_FLAGS="-I$src/include" \
	-j"${JOBS:-2}" modules 2>&1 | grep -v 'Skipping BTF generation' || true
[ -f "$src/net/mac80211/mac80211.ko" ] || { echo "build.sh: build failed" >&2; exit 1; }
strip --strip-debug -o "$out/mac80211.ko" "$src/net/mac80211/mac80211.ko"
echo "$stamp" > "$out/stamp"
echo "build.sh: $out/mac80211.ko ($(du -k "$out/mac80211.ko" | cut -f1) KiB, built in $((SECONDS - t0)) s)"

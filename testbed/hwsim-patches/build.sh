#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the testbed's mac80211_hwsim.ko out of tree for one Debian kernel:
#
#   testbed/hwsim-patches/build.sh KVER    -> build/KVER/hwsim/mac80211_hwsim.ko
#
# The driver's two files from Debian's linux-source-<series> tarball, the series of
# testbed/hwsim-patches/<series>/ applied (HWSIM_TX_STAT_AMPDU: the medium reports
# A-MPDU TX status, so minstrel_ht adapts with aggregation on; HWSIM_RX_RATE_INFO:
# it tells the HT/VHT rate a frame was received at; the A-MPDU reference of received
# subframes; tx_sk_pacing_shift, TCP small queues' budget on a dilated medium; max_pending,
# the frames awaiting TX status hwsim holds before freeing the oldest), built against the
# installed headers. Testbed only: the product never needs it. Cached while the
# tarball, the series and this script are unchanged. Boot with it beside the patched
# mac80211: vm/run.sh --modules build/KVER/mac80211 --modules build/KVER/hwsim.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/patch-series.sh
. "$repo/scripts/patch-series.sh"
[ $# -eq 1 ] || { echo "usage: $0 KVER" >&2; exit 2; }
kver=$1
series=$(series_for "$kver") || exit 2
dir=drivers/net/wireless
[ "$series" = 6.1 ] || dir+=/virtual	# moved in 6.2
tarball=/usr/src/linux-source-$series.tar.xz
kdir=/lib/modules/$kver/build
pdir=$here/$series
out=$repo/build/$kver/hwsim
src=$out/src
[ -f "$tarball" ] || { echo "hwsim build.sh: $tarball missing (make deps)" >&2; exit 1; }
[ -d "$kdir" ] || { echo "hwsim build.sh: $kdir missing (make deps)" >&2; exit 1; }

stamp=$(series_stamp "$kver" "$tarball" "$pdir" "$0" "$repo/scripts/patch-series.sh")
if series_cached "$out" mac80211_hwsim.ko "$stamp"; then
	echo "hwsim build.sh: $out/mac80211_hwsim.ko is up to date"
	exit 0
fi
rm -rf "$src" "$out/mac80211_hwsim.ko" "$out/stamp"
mkdir -p "$src"
tar -xJf "$tarball" -C "$src" --strip-components=1 \
	"linux-source-$series/$dir/mac80211_hwsim.c" "linux-source-$series/$dir/mac80211_hwsim.h"
series_apply "$src" "$pdir" | sed 's/^/hwsim build.sh: /'
echo 'obj-m := mac80211_hwsim.o' > "$src/$dir/Kbuild"
make -s -C "$kdir" M="$src/$dir" -j"${JOBS:-2}" modules 2>&1 | grep -v 'Skipping BTF generation' || true
[ -f "$src/$dir/mac80211_hwsim.ko" ] || { echo "hwsim build.sh: build failed" >&2; exit 1; }
strip --strip-debug -o "$out/mac80211_hwsim.ko" "$src/$dir/mac80211_hwsim.ko"
echo "$stamp" > "$out/stamp"
echo "hwsim build.sh: $out/mac80211_hwsim.ko"

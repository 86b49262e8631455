# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by mac80211-patches/build.sh and testbed/hwsim-patches/build.sh: out-of-tree
# builds of a kernel module from Debian's linux-source tarball with a quilt-style series
# of patches applied. Source it; every function exits on error.
#
#   series_for KVER             -> "6.1" or "6.12" (the patch directory), or fails
#   series_stamp KVER TARBALL PDIR FILE...   a hash of everything the build depends on
#   series_cached OUT KO STAMP  true if OUT/KO exists and was built from STAMP
#   series_apply SRC PDIR       apply PDIR/series to SRC with patch -p1

series_for() {
	case $1 in
	6.1.*) echo 6.1 ;;
	6.12.*) echo 6.12 ;;
	*) echo "no patch series for kernel $1 (have: 6.1, 6.12)" >&2; return 1 ;;
	esac
}

series_stamp() {
	local kver=$1 tarball=$2 pdir=$3 p
	shift 3
	{ echo "$kver"; ls -l --time-style=+%s "$tarball"; cat "$@" "$pdir/series"
	  while read -r p; do [ -n "$p" ] && cat "$pdir/$p"; done < "$pdir/series"; } |
		sha1sum | cut -c1-16
}

series_cached() {
	[ -f "$1/$2" ] && [ "$(cat "$1/stamp" 2>/dev/null)" = "$3" ]
}

series_apply() {
	local src=$1 pdir=$2 p
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		echo "applying ${pdir##*/}/$p"
		patch -d "$src" -p1 --forward --no-backup-if-mismatch -s < "$pdir/$p" || return 1
	done < "$pdir/series"
}

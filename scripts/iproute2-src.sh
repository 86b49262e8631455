#!/usr/bin/env bash
# Fetch Debian's own iproute2 source package -- the exact version of the installed
# tc -- into build/iproute2-src/, unpacked and with Debian's patches applied.
# The tc plugin (tc-extension/) compiles against its internal headers (tc_util.h,
# utils.h, json_print.h, ...), and tc-extension/mkpatch.sh diffs against its tree.
#
# Uses a private apt configuration (a deb-src line in build/iproute2-src/apt/),
# so the system's /etc/apt is left untouched. Only deb.debian.org is contacted.
# Idempotent: does nothing when the tree for the installed version is present.
#
# Usage: scripts/iproute2-src.sh [--print-dir]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
base=$top/build/iproute2-src
ver=$(dpkg-query -W -f='${Version}' iproute2 2>/dev/null || true)
[ -n "$ver" ] || { echo "iproute2-src: iproute2 is not installed (dpkg)" >&2; exit 1; }
upver=${ver#*:}; upver=${upver%-*}
tree=$base/iproute2-$upver

if [ "${1:-}" = "--print-dir" ]; then echo "$tree"; exit 0; fi

if [ -f "$tree/include/utils.h" ] && [ -f "$tree/tc/tc_util.h" ] && \
   [ "$(cat "$base/.version" 2>/dev/null)" = "$ver" ]; then
	echo "$tree"
	exit 0
fi

command -v dpkg-source >/dev/null || {
	echo "iproute2-src: dpkg-source missing: apt-get install dpkg-dev" >&2; exit 1; }

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
mkdir -p "$base/apt/lists/partial" "$base/apt/cache/archives/partial" "$base/apt/sources.list.d"
cat > "$base/apt/sources.list" <<SRC
deb-src http://deb.debian.org/debian $codename main
deb-src http://deb.debian.org/debian $codename-updates main
deb-src http://deb.debian.org/debian-security $codename-security main
SRC
aptopts=(
	-o "Dir::Etc::SourceList=$base/apt/sources.list"
	-o "Dir::Etc::SourceParts=$base/apt/sources.list.d"
	-o "Dir::State::Lists=$base/apt/lists"
	-o "Dir::Cache=$base/apt/cache"
	-o "Debug::NoLocking=1"
)
echo "iproute2-src: fetching iproute2=$ver source from deb.debian.org" >&2
apt-get "${aptopts[@]}" -q update >&2
rm -rf "$tree"
(cd "$base" && apt-get "${aptopts[@]}" -q --only-source source "iproute2=$ver" >&2)
[ -f "$tree/tc/tc_util.h" ] || { echo "iproute2-src: unpack failed: $tree" >&2; exit 1; }
echo "$ver" > "$base/.version"
echo "$tree"

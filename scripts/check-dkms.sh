#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DKMS builds and installs sch_airfair for each given kernel, the way a user's
# `dkms add/build/install` does, but into private trees under build/dkms (dkms's
# --dkmstree/--sourcetree/--installtree): nothing lands in /usr/src, /var/lib/dkms or
# /lib/modules. dkms still runs depmod for the kernel, which rewrites that kernel's
# module index with the same contents. Module signing is left out (sign_file points
# nowhere), so no key is generated in /var/lib/dkms. TAP on stdout; the installed
# modules stay in build/dkms/install/KVER/updates/dkms/ for the VM selftests.
# Usage: check-dkms.sh [--source TREE] [--dir DIR] KVER...
#   --source TREE   a DKMS source tree to add (e.g. the airfair-dkms package's
#                   usr/src/airfair-VERSION) instead of the one dkms-src.sh lays out
#   --dir DIR       the private trees (default build/dkms)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(cat "$repo/VERSION")
d=$repo/build/dkms stage=""
while :; do
	case ${1:-} in
	--source) stage=$(cd "$2" && pwd); shift 2 ;;
	--dir) d=$2; shift 2 ;;
	*) break ;;
	esac
done
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }

if ! command -v dkms > /dev/null; then
	echo "1..0 # SKIP dkms not installed (make deps)"
	exit 0
fi
export sign_file=/nonexistent
# "COUNT HASH" of the symbols a module defines (compressed or not)
syms() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -dc "$1" ;;
	*) cat "$1" ;;
	esac > "$d/syms.ko"
	nm --defined-only "$d/syms.ko" | awk '{print $3}' | sort > "$d/syms.txt"
	echo "$(wc -l < "$d/syms.txt") $(md5sum < "$d/syms.txt" | cut -c1-12)"
}
dk() { dkms --dkmstree "$d/tree" --sourcetree "$d/src" --installtree "$d/install" "$@"; }

rm -rf "$d"
mkdir -p "$d/tree" "$d/src" "$d/install"
echo "1..$((1 + 3 * $#))"
# as README says: dkms add copies the tree dkms-src.sh lays out into the source tree
[ -n "$stage" ] || stage=$("$repo/scripts/dkms-src.sh" "$d/stage")
if dk add "$stage" > "$d/add.log" 2>&1 && [ -f "$d/src/airfair-$version/dkms.conf" ]; then
	ok "dkms add ${stage#"$repo"/} -> airfair/$version"
else
	not_ok "dkms add airfair/$version: $(tail -n 3 "$d/add.log" | tr '\n' ' ')"
fi
for k in "$@"; do
	mkdir -p "$d/install/$k"
	if dk build -m airfair -v "$version" -k "$k" > "$d/build-$k.log" 2>&1; then
		ok "dkms build for $k"
	else
		not_ok "dkms build for $k: $(grep -v readelf "$d/build-$k.log" | tail -n 5 | tr '\n' ' ')"
	fi
	dk install -m airfair -v "$version" -k "$k" > "$d/install-$k.log" 2>&1
	ko=$(find "$d/install/$k/updates/dkms" -name 'sch_airfair.ko*' 2>/dev/null | head -n 1)
	status=$(dk status -m airfair -v "$version" -k "$k" 2>/dev/null)
	if [ -n "$ko" ] && grep -q "installed" <<<"$status"; then
		ok "dkms install for $k: ${ko#"$repo"/} ($status)"
	else
		not_ok "dkms install for $k: no module in $d/install/$k ($status; $(grep -v readelf "$d/install-$k.log" | tail -n 3 | tr '\n' ' '))"
		continue
	fi
	# the module make builds from the same sources defines the same symbols
	magic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	mine=$(syms "$ko") ref=""
	[ -f "$repo/build/$k/sch_airfair.ko" ] && ref=$(syms "$repo/build/$k/sch_airfair.ko")
	same=""
	[ -n "$ref" ] && same=", the same symbols as the module make builds"
	if [ "${magic%% *}" = "$k" ] && [ "${mine%% *}" -gt 50 ] && { [ -z "$ref" ] || [ "$mine" = "$ref" ]; }; then
		ok "DKMS module for $k: vermagic $k, ${mine%% *} symbols$same"
	else
		not_ok "DKMS module for $k: vermagic '${magic%% *}', symbols '$mine' (make's: '${ref:-none}')"
	fi
done

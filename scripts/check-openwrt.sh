#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What can be checked of the OpenWrt feed (openwrt/) without an OpenWrt buildroot:
#  - each package Makefile evaluates under stand-ins for the buildroot's include/*.mk
#    (openwrt/tests/buildroot) and declares what it should (version from VERSION, ...);
#  - their recipes run for real with the host's compiler: kmod-sched-airfair is built
#    against KVER's headers, tc-airfair builds tc from Debian's iproute2 source (standing
#    in for OpenWrt's, whose 175-reduce-dynamic-syms is why tc gets airfair built in),
#    airfair-feeder builds and installs its files;
#  - the init and hotplug scripts behave under busybox ash (openwrt/tests/init_test.sh);
#  - the mac80211 patches in OpenWrt's subsys/ numbering apply, in order, to the
#    packaged 6.12 net/mac80211 tree.
# Not covered: OpenWrt's own toolchain, its iproute2 and backports versions, opkg/apk.
# TAP on stdout. Usage: check-openwrt.sh [KVER]   (default: the newest 6.12 installed)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
feed=$repo/openwrt
kver=${1:-$(cd "$repo" && scripts/kernels.sh | grep "^6\.12\." | tail -1)}
out=$repo/build/openwrt-check
rm -rf "$out" && mkdir -p "$out"
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && [ -f "$2" ] && tail -n 20 "$2" | sed 's/^/# /'
}
check() {	# NAME LOG CMD...: ok when CMD succeeds
	local name=$1 log=$2
	shift 2
	if "$@" > "$log" 2>&1; then ok "$name"; else not_ok "$name" "$log"; fi
}

# The stand-in buildroot: include/ from the feed's tests, and OpenWrt's iproute2 package
# as far as tc-airfair reads it (version, hash, patches) describing Debian's source.
ipr=$(cd "$repo" && scripts/iproute2-src.sh) || { echo "not ok 1 - iproute2 source (scripts/iproute2-src.sh)"; exit 1; }
iprver=$(basename "$ipr"); iprver=${iprver#iproute2-}
root=$out/buildroot
mkdir -p "$root/package/network/utils/iproute2/patches"
cp -r "$feed/tests/buildroot/." "$root/"
hash=$(sha256sum "$(dirname "$ipr")"/iproute2_"$iprver".orig.tar.xz 2>/dev/null | cut -d' ' -f1)
printf 'PKG_NAME:=iproute2\nPKG_VERSION:=%s\nPKG_HASH:=%s\n' "$iprver" "${hash:-unknown}" \
	> "$root/package/network/utils/iproute2/Makefile"
pmake() {	# PACKAGE-DIR TARGET [SOURCE]
	make -s -C "$feed/$1" TOPDIR="$root" STUB_OUT="$out" \
		STUB_KDIR="/lib/modules/$kver/build" STUB_SOURCE="${3:-/nonexistent}" "$2"
}
version=$(cat "$repo/VERSION")

# 1. the Makefiles and what they declare
field() { sed -n "s/^$2=//p" "$out/dump-$1"; }
for p in sched-airfair tc-airfair airfair-feeder; do
	if ! pmake "$p" dump > "$out/dump-$p" 2>&1; then
		not_ok "$p/Makefile evaluates" "$out/dump-$p"
		continue
	fi
	errs=()
	[ "$(field "$p" PKG_VERSION)" = "$version" ] || errs+=("PKG_VERSION $(field "$p" PKG_VERSION), VERSION $version")
	[ "$(field "$p" PKG_LICENSE)" = GPL-2.0-only ] || errs+=("PKG_LICENSE")
	[ -n "$(field "$p" TITLE)" ] || errs+=("no TITLE")
	[ "$(field "$p" DESCRIPTION)" = yes ] || errs+=("no description")
	case $p in
	sched-airfair)
		[ "$(field "$p" PACKAGE)" = kmod-sched-airfair ] || errs+=("package $(field "$p" PACKAGE)")
		[[ $(field "$p" FILES) == */sch_airfair/sch_airfair.ko ]] || errs+=("FILES")
		[ "$(field "$p" AUTOLOAD)" = sch_airfair ] || errs+=("AUTOLOAD") ;;
	tc-airfair)
		[ "$(field "$p" PKG_SOURCE)" = "iproute2-$iprver.tar.xz" ] || errs+=("PKG_SOURCE $(field "$p" PKG_SOURCE)")
		[ "$(field "$p" PKG_HASH)" = "${hash:-unknown}" ] || errs+=("PKG_HASH not iproute2's")
		[ "$(field "$p" ALTERNATIVES)" = 500:/sbin/tc:/usr/libexec/tc-airfair ] || errs+=("ALTERNATIVES")
		[ "$(field "$p" PROVIDES)" = tc ] || errs+=("PROVIDES") ;;
	airfair-feeder)
		[ "$(field "$p" CONFFILES)" = /etc/config/airfair ] || errs+=("conffiles")
		[[ " $(field "$p" DEPENDS) " == *" +kmod-sched-airfair "* ]] || errs+=("DEPENDS") ;;
	esac
	if [ ${#errs[@]} -eq 0 ]; then
		ok "$p/Makefile evaluates: $(field "$p" PACKAGE) $(field "$p" PKG_VERSION)-$(field "$p" PKG_RELEASE)"
	else
		printf '%s\n' "${errs[@]}" > "$out/errs-$p"
		not_ok "$p/Makefile evaluates and declares its package" "$out/errs-$p"
	fi
done

# 2. kmod-sched-airfair: Build/Prepare + Build/Compile against the 6.12 headers
pkgroot=$out/root
if pmake sched-airfair install > "$out/sched-airfair.log" 2>&1 &&
   ko=$pkgroot/kmod-sched-airfair/lib/modules/target/sch_airfair.ko && [ -f "$ko" ] &&
   [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ]; then
	ok "kmod-sched-airfair: builds out of tree for $kver ($(modinfo -F vermagic "$ko" | cut -d' ' -f1))"
else
	not_ok "kmod-sched-airfair: builds out of tree for $kver" "$out/sched-airfair.log"
fi

# 3. tc-airfair: tc from iproute2 with airfair built in, no plugins
tc=$pkgroot/tc-airfair/usr/libexec/tc-airfair
if pmake tc-airfair install "$ipr" > "$out/tc-airfair.log" 2>&1 && [ -x "$tc" ]; then
	ok "tc-airfair: tc built from iproute2 $iprver with airfair (Build/Prepare, Configure, Compile)"
else
	not_ok "tc-airfair: tc built from iproute2 $iprver with airfair" "$out/tc-airfair.log"
fi
e= e2=
[ -x "$tc" ] && e=$(TC_LIB_DIR=/nonexistent "$tc" qdisc add dev afnodev0 root airfair 11ac limit 100 2>&1)
[ -x "$tc" ] && e2=$(TC_LIB_DIR=/nonexistent "$tc" qdisc add dev afnodev0 root airfair frobnicate 2>&1)
if [[ $e == *'Cannot find device "afnodev0"'* && $e2 == airfair:* ]]; then
	ok "tc-airfair: parses airfair options without a plugin; a bad one: '${e2%%$'\n'*}'"
else
	echo "$e / ${e2:-}" > "$out/tc-parse.log"
	not_ok "tc-airfair: parses airfair options without a plugin" "$out/tc-parse.log"
fi

# 4. airfair-feeder: binary and service files where OpenWrt expects them
fr=$pkgroot/airfair-feeder
if pmake airfair-feeder install > "$out/airfair-feeder.log" 2>&1 &&
   [ -x "$fr/usr/sbin/airfair-feeder" ] && [ -x "$fr/usr/sbin/airfair-stat" ] &&
   [ -x "$fr/etc/init.d/airfair" ] &&
   [ "$(stat -c %a "$fr/etc/config/airfair")" = 600 ] && [ -f "$fr/etc/hotplug.d/net/40-airfair" ] &&
   "$fr/usr/sbin/airfair-feeder" --help 2>&1 | grep -q -- --interface; then
	ok "airfair-feeder: builds; installs /usr/sbin/airfair-{feeder,stat}, init.d/airfair, config/airfair, hotplug.d/net/40-airfair"
else
	ls -lR "$fr" >> "$out/airfair-feeder.log" 2>&1
	not_ok "airfair-feeder: builds and installs its files" "$out/airfair-feeder.log"
fi

# 5. init and hotplug scripts
if [ -x "$tc" ]; then
	"$feed/tests/init_test.sh" "$tc" > "$out/init.tap" 2>&1
	rc=$?
	sed -n 's/^\(not \)\?ok [0-9]* - /&/p' "$out/init.tap" | while read -r line; do echo "# init: $line"; done
	if [ $rc -eq 0 ]; then ok "init/hotplug scripts: $(grep -c '^ok' "$out/init.tap") checks (openwrt/tests/init_test.sh)"
	else not_ok "init/hotplug scripts (openwrt/tests/init_test.sh)" "$out/init.tap"; fi
else
	not_ok "init/hotplug scripts: no tc-airfair to parse their tc commands"
fi

# 6. mac80211 patches, in subsys/ order, on the packaged 6.12 net/mac80211
src=$out/mac80211-6.12
mkdir -p "$src"
if tar -xf /usr/src/linux-source-6.12.tar.xz -C "$src" --strip-components=1 \
	--wildcards 'linux-source-6.12/net/mac80211/*' 'linux-source-6.12/include/net/mac80211.h' \
	> "$out/mac80211.log" 2>&1; then
	good=1
	for p in $(cd "$feed/mac80211/patches/subsys" && ls ./*.patch | sort); do
		patch -d "$src" -p1 -s -N -i "$feed/mac80211/patches/subsys/$p" >> "$out/mac80211.log" 2>&1 || good=0
	done
	pats=$(cd "$feed/mac80211/patches/subsys" && ls ./*.patch | sed 's|^\./||' | tr '\n' ' ')
	if [ $good = 1 ] && [ -f "$src/net/mac80211/tx_report.c" ]; then
		ok "mac80211 patches apply to linux-source-6.12 in subsys/ order: $pats"
	else
		not_ok "mac80211 patches apply to linux-source-6.12 in subsys/ order" "$out/mac80211.log"
	fi
else
	not_ok "mac80211 patches: linux-source-6.12 tarball" "$out/mac80211.log"
fi

echo "1..$n"
[ "$failed" -eq 0 ]

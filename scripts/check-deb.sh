#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages as a user gets them: `make deb` builds airfair-dkms and
# airfair-tools (lintian must have nothing to say); DKMS builds the module from the
# airfair-dkms package's source for KVER; airfair-tools' files are where tc and the
# units look for them, and its binaries run. The packages stay unpacked in
# build/deb-root, the DKMS-built module in build/deb-dkms: make check runs the newest
# kernel's whole VM selftest suite against them (AIRFAIR_INSTALLED=1, see check.sh).
# With --vm, a VM of KVER gets the unpacked /usr and runs the tc plugin's, the feeder's
# and airfair-stat's selftests against the installed files.
# TAP on stdout (the VM's selftest lines indented).
# Usage: check-deb.sh [--vm] KVER
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
vm=0
[ "${1:-}" = --vm ] && { vm=1; shift; }
kver=$1
version=$(cat VERSION)
out=build/deb
root=build/deb-root
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }
echo "1..$((5 + 4 * vm))"

if scripts/make-deb.sh > build/make-deb.log 2>&1; then
	ok "make deb: $(cd "$out" && ls ./*.deb | sed 's|^\./||' | tr '\n' ' ')"
else
	not_ok "make deb: $(tail -n 5 build/make-deb.log | tr '\n' ' ')"
	for i in $(seq 2 $((5 + 4 * vm))); do echo "ok $i - # SKIP no packages"; done
	exit 1
fi
if [ ! -s "$out/lintian.txt" ]; then
	ok "lintian: nothing to report"
else
	not_ok "lintian: $(grep -c . "$out/lintian.txt") lines ($(head -n 3 "$out/lintian.txt" | tr '\n' ' '))"
fi

rm -rf "$root"
mkdir -p "$root"
for p in "$out"/airfair-dkms_"$version"_all.deb "$out"/airfair-tools_"$version"_*.deb; do
	dpkg-deb -x "$p" "$root"
done
scripts/check-dkms.sh --source "$root/usr/src/airfair-$version" --dir "$repo/build/deb-dkms" \
	"$kver" > build/deb-dkms.tap 2>&1
ko=$(find build/deb-dkms/install/"$kver" -name 'sch_airfair.ko*' 2>/dev/null | head -n 1)
if ! grep -q '^not ok' build/deb-dkms.tap && [ -n "$ko" ]; then
	ok "DKMS builds the airfair-dkms package's source for $kver: $ko"
else
	not_ok "DKMS from the airfair-dkms package for $kver: $(grep '^not ok' build/deb-dkms.tap | head -n 2 | tr '\n' ' ')"
fi

# what tc, systemd and a user's shell look for, and the tools run
files="usr/lib/x86_64-linux-gnu/tc/q_airfair.so usr/sbin/airfair-feeder usr/sbin/airfair-stat
	usr/bin/airtime-calc usr/share/man/man8/tc-airfair.8.gz lib/systemd/system/airfair-feeder@.service"
missing=""
for f in $files; do
	[ -e "$root/$f" ] || missing+=" $f"
done
if [ -z "$missing" ]; then
	ok "airfair-tools installs $(echo $files | wc -w) files where they are looked for"
else
	not_ok "airfair-tools lacks:$missing"
fi
calc=$("$root/usr/bin/airtime-calc" --mode legacy --legacy 54 --phy 11a 2>&1 | grep total)
if [ -n "$calc" ] && "$root/usr/sbin/airfair-feeder" --help 2>&1 | grep -qi usage; then
	ok "the installed airtime-calc and airfair-feeder run: $calc"
else
	not_ok "the installed airtime-calc / airfair-feeder do not run: $calc"
fi
[ $vm = 1 ] || exit $failed

# the VM copies the package's /usr over its own; tc then finds the plugin in its
# standard directory (TC_LIB_DIR unset)
unset TC_LIB_DIR
AIRFAIR_INSTALLED=1 AIRFAIR_KO=$repo/$ko AIRFAIR_FEEDER_BIN=/usr/sbin/airfair-feeder \
vm/run.sh --kver "$kver" --timeout 900 -- bash -c "
	cp -a '$repo/$root/usr/.' /usr/ &&
	ls -l /usr/lib/x86_64-linux-gnu/tc/q_airfair.so /usr/sbin/airfair-feeder /usr/sbin/airfair-stat \
		/usr/bin/airtime-calc &&
	/usr/bin/airtime-calc --mode legacy --legacy 54 --phy 11a | grep total &&
	bash selftests/run_tests.sh tc_airfair.sh feeder_basic.sh feeder_hostapd.sh airfair_stat.sh" \
	> build/deb-vm.log 2>&1
grep -v '^\[' build/deb-vm.log | sed 's/^/# /'
for t in tc_airfair.sh feeder_basic.sh feeder_hostapd.sh airfair_stat.sh; do
	if grep -q "^ok [0-9]* selftests: airfair: $t" build/deb-vm.log &&
		! grep -q "^ok [0-9]* selftests: airfair: $t # SKIP" build/deb-vm.log; then
		ok "$t against the installed airfair-tools and the DKMS-built module"
	else
		not_ok "$t against the installed airfair-tools (build/deb-vm.log)"
	fi
done
exit $failed

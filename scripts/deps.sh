#!/usr/bin/env bash
# The Debian packages sch_airfair needs, in three groups:
#   build  what `make` needs to compile the module, the tc plugin and the tools
#   deb    build + what `make deb` needs (debhelper, dh-dkms, lintian)
#   all    build + deb + what `make check` / `make demo` need: the two kernels the VM
#          boots, qemu and the guest's programs, kernel sources, clang, Python
#
# Usage: deps.sh [--check] [build|deb|all]     (default group: all)
#   --check   list what is missing and exit 1 if anything is; change nothing
#   (none)    install what is missing with apt-get (root); idempotent, so it is cheap
#             to call from `make deps`, `make check` and `make demo`
#
# Installing changes the system the way apt-get does (packages, their /etc files, the
# kernel images under /boot); this script edits nothing itself. The kernel packages'
# postinst hooks run with INITRD=No: the kernels are only ever booted in qemu with the
# project's own initramfs, so building one for the host would only cost minutes.
set -euo pipefail

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
group=${1:-all}

build_pkgs=(
	build-essential make gcc pkg-config bc flex bison libelf-dev libssl-dev
	libnl-3-dev libnl-genl-3-dev libnl-route-3-dev libmnl-dev
	# the tc plugin builds against the installed iproute2's Debian source
	dpkg-dev iproute2
)
test_pkgs=(
	# unit tests, libFuzzer targets (tests/fuzz)
	check clang libclang-rt-14-dev
	# the two kernel series the project supports, image and headers of one version each
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	# sources: checkpatch.pl and the mac80211 patch series
	linux-source-6.1 linux-source-6.12
	# VM harness and what the guest runs
	qemu-system-x86 busybox-static kmod cpio xz-utils zstd
	hostapd wpasupplicant iperf3 iw jq ethtool wireless-regdb procps
	# DKMS packaging (scripts/check-dkms.sh)
	dkms
	# analysis, plots, man page
	python3 python3-matplotlib man-db groff-base
)

# make deb: debhelper with the DKMS add-on, lintian
deb_pkgs=(debhelper dh-dkms lintian)

case $group in
build) pkgs=("${build_pkgs[@]}") ;;
deb) pkgs=("${build_pkgs[@]}" "${deb_pkgs[@]}") ;;
all) pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}" "${deb_pkgs[@]}") ;;
*) echo "deps: unknown group '$group' (build, deb or all)" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ $check = 1 ]; then
	echo "deps: missing Debian packages ($group): ${missing[*]}" >&2
	echo "deps: install them with 'make deps' (as root), or: apt-get install ${missing[*]}" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run as root (or: sudo $0)" >&2
	exit 1
fi

echo "deps: installing with apt-get: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive INITRD=No
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"

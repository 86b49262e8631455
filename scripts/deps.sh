#!/usr/bin/env bash
# Install everything sch_airfair needs to build and test, from Debian's packages.
# Idempotent: installs only what is missing, so it is cheap to call from every target.
set -euo pipefail

pkgs=(
	# build: module, tc plugin, daemons, unit tests
	build-essential make gcc pkg-config bc flex bison libelf-dev libssl-dev
	libnl-3-dev libnl-genl-3-dev libnl-route-3-dev libmnl-dev check dpkg-dev
	# libFuzzer targets (tests/fuzz)
	clang
	# the two kernel series the project supports, image and headers of one version each
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	# sources: checkpatch.pl and the mac80211 patch series
	linux-source-6.1 linux-source-6.12
	# VM harness and what the guest runs
	qemu-system-x86 busybox-static kmod cpio xz-utils zstd
	hostapd wpasupplicant iperf3 iw iproute2 jq ethtool wireless-regdb procps
	# analysis, plots, man page
	python3 python3-matplotlib man-db groff-base
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run as root (or: sudo $0)" >&2
	exit 1
fi

# The kernels are only ever booted in qemu with our own initramfs: skip building
# an initrd for the host for each one (saves minutes on a fresh machine).
conf=/etc/initramfs-tools/update-initramfs.conf
if [ -f "$conf" ] && ! grep -q '^update_initramfs=no' "$conf"; then
	sed -i 's/^update_initramfs=.*/update_initramfs=no/' "$conf"
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"

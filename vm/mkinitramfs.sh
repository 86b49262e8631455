#!/usr/bin/env bash
# Build (or reuse) the guest's base initramfs for one kernel release: busybox, bash, the
# real iproute2/kmod/WiFi tools with their libraries, and the module subset the tests use.
# Usage: mkinitramfs.sh KVER OUTDIR [MODROOT]   -> OUTDIR/initramfs.cpio.gz
# MODROOT: where lib/modules/KVER lies (default /; the debug kernel's is in its cache).
set -euo pipefail
kver=$1
out=$2
modroot=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
moddir=$modroot/lib/modules/$kver

# Real binaries; busybox fills in the rest but never shadows these names.
bins=(bash kmod sed grep ip tc bridge ss nstat iw hostapd hostapd_cli wpa_supplicant wpa_cli
      iperf3 jq ethtool timeout stdbuf taskset setsid nproc)
kmod_links=(modprobe insmod rmmod lsmod modinfo depmod)
# Modules the harness, selftests, demo and benchmarks load (dependencies are resolved).
mods=(virtio_pci 9pnet_virtio 9p mac80211_hwsim veth dummy ifb sch_netem sch_fq_codel
      sch_cake sch_fq sch_tbf sch_prio sch_ingress cls_u32 cls_matchall cls_flower act_mirred
      pktgen tcp_bbr macvlan tcp_diag sch_htb sch_hfsc sch_qfq sch_drr sch_ets bridge)
# Wanted where the kernel has them (the debug kernel's config builds no tcp_vegas):
# testbed scenarios that ask for Vegas fail there with iperf3's error.
opt_mods=(tcp_vegas)
# Libraries loaded with dlopen or by our own daemons, not visible to ldd of the above.
extra_libs=(libnl-3.so.200 libnl-genl-3.so.200 libnl-route-3.so.200 libmnl.so.0 libelf.so.1)

libdir=/usr/lib/x86_64-linux-gnu
stamp_src=$( { cat "$0" "$here/init"; echo "$kver"; ls -l --time-style=+%s "$moddir/modules.dep";
	for b in "${bins[@]}"; do p=$(command -v "$b" || true); [ -n "$p" ] && ls -lL --time-style=+%s "$p"; done; } | sha1sum | cut -c1-16)
if [ -f "$out/initramfs.cpio.gz" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp_src" ]; then
	exit 0
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/airfair-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
# Merged-/usr layout, as on the host, so #! lines and ldd paths resolve unchanged.
mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,proc,sys,dev,run,tmp,var,root,mnt}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
ln -s ../run "$root/var/run"
mkdir -p "$root/usr/lib/firmware"

copy_file() {	# copy a file to the same path in the root, following links
	local f=$1
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
}
copy_libs() {
	local l
	for l in $(ldd "$1" 2>/dev/null | awk '$2=="=>" && $3 ~ /^\//{print $3} $1 ~ /^\/.*ld-linux/{print $1}'); do
		[ -e "$root$l" ] || copy_file "$l"
	done
}

cp /bin/busybox "$root/bin/busybox"
for b in "${bins[@]}"; do
	p=$(command -v "$b") || { echo "mkinitramfs: $b not found (run scripts/deps.sh)" >&2; exit 1; }
	copy_file "$p"
	copy_libs "$p"
done
for l in "${kmod_links[@]}"; do ln -sf "$(command -v kmod)" "$root/sbin/$l"; done
for l in "${extra_libs[@]}"; do
	[ -e "$libdir/$l" ] && { copy_file "$libdir/$l"; copy_libs "$libdir/$l"; }
done
# iproute2 plugin/data directories (netem distributions) and config.
[ -d "$libdir/tc" ] && { mkdir -p "$root$libdir/tc"; cp -a "$libdir/tc/." "$root$libdir/tc/"; }
[ -d /usr/share/iproute2 ] && { mkdir -p "$root/usr/share"; cp -a /usr/share/iproute2 "$root/usr/share/"; }
[ -d /etc/iproute2 ] && cp -a /etc/iproute2 "$root/etc/"
cp /lib/firmware/regulatory.db* "$root/lib/firmware/"
# Busybox applets for everything that has no real binary.
for a in $("$root/bin/busybox" --list); do
	case " ${bins[*]} ${kmod_links[*]} " in *" $a "*) continue ;; esac
	[ -e "$root/bin/$a" ] || [ -e "$root/usr/bin/$a" ] || [ -e "$root/usr/sbin/$a" ] || [ -e "$root/sbin/$a" ] ||
		ln -s busybox "$root/bin/$a"
done

# Modules and their dependencies, then a fresh depmod for the subset.
for m in "${mods[@]}" "${opt_mods[@]}"; do
	if ! deps=$(modprobe -d "${modroot:-/}" -S "$kver" --show-depends "$m" 2>/dev/null); then
		case " ${opt_mods[*]} " in *" $m "*) continue ;; esac
		echo "mkinitramfs: module $m not found for $kver" >&2
		exit 1
	fi
	awk '$1=="insmod"{print $2}' <<< "$deps"
done | sort -u | while read -r ko; do
	dst=$root/lib/modules/$kver/${ko#"$moddir"/}
	mkdir -p "$(dirname "$dst")"
	cp -L "$ko" "$dst"
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$moddir/$f" ] && cp "$moddir/$f" "$root/lib/modules/$kver/"
done
depmod -b "$root" "$kver"

echo 'root:x:0:0:root:/root:/bin/bash' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$root/etc/hosts"
cp "$here/init" "$root/init"
chmod +x "$root/init"

mkdir -p "$out"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz.tmp"
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
echo "$stamp_src" > "$out/stamp"
echo "mkinitramfs: $out/initramfs.cpio.gz ($(du -h "$out/initramfs.cpio.gz" | cut -f1)) for $kver" >&2

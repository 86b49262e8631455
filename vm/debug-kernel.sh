#!/usr/bin/env bash
# Build (or reuse) the debug kernel `make check-debug` boots: Debian's packaged 6.12
# source with KASAN, kmemleak, lockdep (PROVE_LOCKING/PROVE_RCU), DEBUG_ATOMIC_SLEEP,
# DEBUG_NET, netdev/netns refcount trackers, UBSAN bounds and debug objects
# (vm/debug.config over defconfig + kvm_guest.config).
#
# The build lives outside the checkout, keyed by the source package version, the config
# fragment and the recipe number below, so every clone on the machine shares it:
#   ${AIRFAIR_CACHE:-${XDG_CACHE_HOME:-~/.cache}/airfair}/debug-kernel/<key>/
#     bzImage   release   obj/ (KDIR for out-of-tree modules)   modules/lib/modules/<release>/
# Prints that directory on stdout. The first build takes about 12 minutes on 2 cores
# (the time is kept in build-time); later calls return at once.
# Usage: debug-kernel.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
fragment=$here/debug.config
cache=${AIRFAIR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/airfair}/debug-kernel
# bump when the build steps below change what ends up in the cache
recipe=1

[ -f "$tarball" ] || { echo "debug-kernel: $tarball missing (make deps)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || stat -c %s-%Y "$tarball")
key=$( { echo "$srcver recipe $recipe"; cat "$fragment"; } | sha1sum | cut -c1-12)
dir=$cache/$key
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

log() { echo "debug-kernel: $*" >&2; }
mkdir -p "$cache"
exec 9> "$cache/lock"
flock 9	# one build at a time per machine; a second caller waits and reuses it
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

t0=$SECONDS
src=$cache/src-$srcver
if [ ! -f "$src/Makefile" ]; then
	log "extracting $tarball ($srcver)"
	rm -rf "$src.tmp" && mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
fi

rm -rf "$dir" && mkdir -p "$dir/obj"
obj=$dir/obj
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 "$@"; }
log "configuring in $dir"
kmake defconfig kvm_guest.config >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" >/dev/null
kmake olddefconfig >/dev/null

# Every option of the fragment must have survived olddefconfig (a missing dependency
# would silently drop a checker).
lost=$(grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$fragment" | while read -r line; do
	if [[ $line == "# "* ]]; then
		opt=${line#\# }; opt=${opt%% *}
		if grep -qE "^$opt=[ym]" "$obj/.config"; then echo "$line"; fi
	else
		if ! grep -qxF "$line" "$obj/.config"; then echo "$line"; fi
	fi
done)
if [ -n "$lost" ]; then
	log "options not in the resulting .config:"
	printf '%s\n' "$lost" | sed 's/^/  /' >&2
	exit 1
fi

log "building bzImage and modules with $(nproc) jobs (first build: ~12 min)"
kmake -j"$(nproc)" bzImage modules
kmake INSTALL_MOD_PATH="$dir/modules" INSTALL_MOD_STRIP=1 modules_install >/dev/null
kmake kernelrelease > "$dir/release"
cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage"
echo "$((SECONDS - t0)) s on $(nproc) cores ($(date -u +%F))" > "$dir/build-time"
touch "$dir/done"
log "$(cat "$dir/release") built in $((SECONDS - t0)) s"
echo "$dir"

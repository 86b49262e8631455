#!/usr/bin/env bash
# Print the kernel releases to test, one per line: the newest installed release of each
# supported series that has image, modules and headers of the very same version.
# Usage: kernels.sh [SERIES...]   (default: 6.1 6.12)
set -euo pipefail
series=("$@")
[ ${#series[@]} -gt 0 ] || series=(6.1 6.12)
for s in "${series[@]}"; do
	best=""
	for d in /lib/modules/"$s".*; do
		[ -d "$d" ] || continue
		r=${d##*/}
		[ -f "/boot/vmlinuz-$r" ] && [ -e "$d/build/Makefile" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$r" | sed '/^$/d' | sort -V | tail -n 1)
	done
	[ -n "$best" ] && echo "$best"
done
exit 0

#!/usr/bin/env bash
# Print the qemu acceleration options for this machine. KVM is used only where a guest
# actually boots with it (on some hosts qemu aborts on an MSR with Debian's kernel); the
# answer is probed once per kernel and cached. AIRFAIR_VM_ACCEL=tcg|kvm overrides.
set -euo pipefail
kver=$1
image=${2:-/boot/vmlinuz-$kver}
here=$(cd "$(dirname "$0")" && pwd)
cache=$here/../build/vm/$kver/accel
tcg="-accel tcg,thread=multi -cpu max"
kvm="-accel kvm -cpu host"
case ${AIRFAIR_VM_ACCEL:-auto} in
tcg) echo "$tcg"; exit 0 ;;
kvm) echo "$kvm"; exit 0 ;;
esac
if [ -f "$cache" ]; then cat "$cache"; exit 0; fi
choice=$tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	# A real boot: the failure seen in the wild happens once the kernel runs.
	if timeout 60 qemu-system-x86_64 $kvm -m 256 -nodefaults -no-reboot -display none \
		-serial stdio -kernel "$image" \
		-append "console=ttyS0 panic=-1 rdinit=/nonexistent" </dev/null 2>&1 |
		grep -q -m1 -E 'Kernel panic|No working init|Run /nonexistent'; then
		choice=$kvm
	fi
fi
mkdir -p "$(dirname "$cache")"
echo "$choice" > "$cache"
echo "$choice"

#!/usr/bin/env bash
# Did a guest die of a fault of the emulator rather than of its kernel? Reads a guest's
# console (file or stdin); prints the reason and exits 0 if so, exits 1 if not.
#
# The one signature recognised: a kernel oops (double fault, page fault, general
# protection fault, BUG) whose kernel-mode register dump shows a saved RFLAGS with a
# reserved bit set (bits 3, 5, 15 or 22-63 set, or bit 1 clear). The CPU pushes that
# frame as the exception is taken and no x86 CPU pushes such flags, so the state was
# the emulator's invention. QEMU 7.2's multi-threaded TCG produced exactly this under
# Debian's 6.12 kernel: double faults in SLUB's per-CPU fast path (EFLAGS 83160a02,
# 457bba42: the low half of a slab pointer in a register beside it) and a NULL pointer
# write in net_rx_action() from a list head on the stack that held 0 (ff681406). An
# oops with sane flags (a real NULL dereference, a stack overflow) is not matched.
set -uo pipefail
awk '
	/double fault|Oops:|BUG: |general protection fault|stack segment/ { oops = 1 }
	oops && /RSP: 0018:[0-9a-fA-F]+ +EFLAGS: [0-9a-fA-F]+/ {
		match($0, /EFLAGS: [0-9a-fA-F]+/)
		hex = tolower(substr($0, RSTART + 8, RLENGTH - 8))
		bad = length(hex) > 8
		if (!bad) {
			v = 0
			for (i = 1; i <= length(hex); i++)
				v = v * 16 + index("0123456789abcdef", substr(hex, i, 1)) - 1
			# reserved: 3, 5, 15, 22-31 set; 1 clear
			bad = int(v / 8) % 2 || int(v / 32) % 2 || int(v / 32768) % 2 ||
			      v >= 4194304 || int(v / 2) % 2 == 0
		}
		if (bad) {
			print "a kernel oops with impossible saved EFLAGS " hex \
			      " (reserved bits set): an emulator fault, not the guest kernel'"'"'s"
			found = 1
			exit
		}
		oops = 0
	}
	END { exit !found }' "${1:--}"

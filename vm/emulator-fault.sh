#!/usr/bin/env bash
# Did a guest die of a fault of the emulator rather than of its kernel? Reads a guest's
# console (file or stdin); prints the reason and exits 0 if so, exits 1 if not.
#
# The one signature recognised: a double fault whose saved RFLAGS has a reserved bit set
# (bits 3, 5, 15 or 22-63 set, or bit 1 clear). No x86 CPU pushes such a frame, so the
# frame is the emulator's invention. QEMU 7.2's multi-threaded TCG produced exactly this
# under Debian's 6.12 kernel: iperf3's UDP sends dying in SLUB's per-CPU fast path
# (kmalloc, kmem_cache_alloc_node) with EFLAGS 83160a02 and 457bba42, the low half of a
# slab pointer in a register beside it. A real double fault (a stack overflow, a bad
# IST) carries sane flags and is not matched.
set -uo pipefail
awk '
	/double fault/ { df = 1; next }
	df && /EFLAGS: [0-9a-fA-F]+/ {
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
			print "a double fault with impossible saved EFLAGS " hex \
			      " (reserved bits set): an emulator fault, not the guest kernel'"'"'s"
			found = 1
			exit
		}
		df = 0
	}
	END { exit !found }' "${1:--}"

/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for <linux/math64.h>. */
#ifndef _TOOLS_SHIM_LINUX_MATH64_H
#define _TOOLS_SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#define DIV64_U64_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* a * b / c with the 128-bit product (the quotient must fit in 64 bits) */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
#ifdef __SIZEOF_INT128__
	return (u64)((unsigned __int128)a * b / c);
#else
	/* 32-bit hosts (the feeder built for OpenWrt): shift and subtract */
	u64 a0 = a & 0xffffffffULL, a1 = a >> 32;
	u64 b0 = b & 0xffffffffULL, b1 = b >> 32;
	u64 m = a1 * b0 + ((a0 * b0) >> 32);
	u64 n = a0 * b1 + (m & 0xffffffffULL);
	u64 lo = (n << 32) | ((a0 * b0) & 0xffffffffULL);
	u64 hi = a1 * b1 + (m >> 32) + (n >> 32);
	u64 q = 0, r = 0;
	int i;

	for (i = 127; i >= 0; i--) {
		u64 bit = i >= 64 ? (hi >> (i - 64)) & 1 : (lo >> i) & 1;
		int carry = r >> 63;

		r = (r << 1) | bit;
		q <<= 1;
		if (carry || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
#endif
}

#endif

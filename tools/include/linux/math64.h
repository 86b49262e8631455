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

#endif

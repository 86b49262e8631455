/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for the few <linux/kernel.h> helpers the core uses. */
#ifndef _TOOLS_SHIM_LINUX_KERNEL_H
#define _TOOLS_SHIM_LINUX_KERNEL_H

#include <linux/types.h>

#ifndef U16_MAX
#define U16_MAX		((u16)~0U)
#endif
#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define BIT(n)		(1UL << (n))

#endif

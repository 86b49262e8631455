/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for <linux/bits.h>. */
#ifndef _TOOLS_SHIM_LINUX_BITS_H
#define _TOOLS_SHIM_LINUX_BITS_H

#include <linux/kernel.h>

#endif

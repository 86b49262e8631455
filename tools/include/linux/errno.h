/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for <linux/errno.h>: the uapi one has EINVAL, ERANGE, ... */
#ifndef _TOOLS_SHIM_LINUX_ERRNO_H
#define _TOOLS_SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif

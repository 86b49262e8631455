/* SPDX-License-Identifier: GPL-2.0 */
/* uapi <linux/tcp.h> (struct tcphdr, tcp_flag_word) plus the kernel part */
#include_next <linux/tcp.h>
#include "../kshim.h"

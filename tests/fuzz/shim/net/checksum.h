/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <net/checksum.h>: the incremental checksum update (RFC 1624, eqn. 3) with
 * the kernel's dispatch on ip_summed (net/core/utils.c). Sums are taken over
 * 16-bit words as they lie in memory, as the kernel's are.
 */
#ifndef _FUZZ_NET_CHECKSUM_H
#define _FUZZ_NET_CHECKSUM_H
#include "../kshim.h"

static inline u32 fuzz_csum_add(u32 a, u32 b)
{
	u64 s = (u64)a + b;

	return (u32)(s + (s >> 32));
}

static inline u16 fuzz_csum_fold(u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (u16)~s;
}

static inline void inet_proto_csum_replace2(__sum16 *sum, struct sk_buff *skb,
					    __be16 from, __be16 to,
					    bool pseudohdr)
{
	u32 diff = fuzz_csum_add((u16)~from, to);

	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		*sum = fuzz_csum_fold(fuzz_csum_add((u16)~*sum, diff));
		if (skb->ip_summed == CHECKSUM_COMPLETE && pseudohdr)
			skb->csum = fuzz_csum_add(skb->csum, diff);
	} else if (pseudohdr) {
		*sum = (u16)~fuzz_csum_fold(fuzz_csum_add(*sum, diff));
	}
}
#endif

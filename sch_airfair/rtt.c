// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair RTT-proportional buffer shares (kliazovich-rdqm): a TCP flow
 * needs about one bandwidth-delay product queued to keep its link busy, so
 * flows with a longer RTT are entitled to a larger part of the buffer. A flow
 * with no estimate yet counts as having the reference RTT.
 *
 * Not done yet: the passive RTT estimator. The qdisc only sees the AP's
 * egress, and both handshake and timestamp-echo timing need the station's
 * packets too (an ingress hook); until then rtt_us stays 0 and all TCP flows
 * get the reference share, which is why rtt-buffer is off by default.
 */
#include "airfair.h"

#define AIRFAIR_RTT_REF_US	50000

s64 airfair_rtt_share(const struct airfair_sched *q,
		      const struct airfair_flow *flow)
{
	u32 rtt = flow->rtt_us ?: AIRFAIR_RTT_REF_US;
	u32 floor = q->cfg.memlimit / 64;

	/* Scale so that a reference-RTT flow's share is 1/16 of the buffer. */
	return max_t(s64, floor,
		     div_u64((u64)q->cfg.memlimit * rtt, 16 * AIRFAIR_RTT_REF_US));
}

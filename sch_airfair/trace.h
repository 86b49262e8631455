/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of sch_airfair: each scheduling decision, for looking at why a
 * packet left when it did and in which access category, without a rebuild:
 *   echo 1 > /sys/kernel/tracing/events/airfair/airfair_dequeue/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM airfair

#if !defined(_AIRFAIR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _AIRFAIR_TRACE_H

#include <linux/tracepoint.h>
#include <net/sch_generic.h>
#include "airfair.h"

TRACE_DEFINE_ENUM(AIRFAIR_PKT_OTHER);
TRACE_DEFINE_ENUM(AIRFAIR_PKT_UDP);
TRACE_DEFINE_ENUM(AIRFAIR_PKT_TCP_DATA);
TRACE_DEFINE_ENUM(AIRFAIR_PKT_TCP_ACK);

TRACE_EVENT(airfair_dequeue,

	TP_PROTO(const struct Qdisc *sch, const struct airfair_sta *sta,
		 const struct airfair_flow *flow, const struct sk_buff *skb,
		 bool new_flow),

	TP_ARGS(sch, sta, flow, skb, new_flow),

	TP_STRUCT__entry(
		__field(int, ifindex)
		__field(u32, handle)
		__array(u8, addr, ETH_ALEN)
		__field(bool, new_flow)
		__field(u32, sent)
		__field(u8, pkt_class)
		__field(u32, priority)
		__field(u16, queue)
		__field(u32, len)
		__field(u32, cost_ns)
		__field(s32, deficit)
		__field(u32, flow_qlen)
	),

	TP_fast_assign(
		__entry->ifindex = qdisc_dev(sch)->ifindex;
		__entry->handle = sch->handle;
		memcpy(__entry->addr, sta->addr, ETH_ALEN);
		__entry->new_flow = new_flow;
		__entry->sent = flow->sent;
		__entry->pkt_class = airfair_cb(skb)->pkt_class;
		__entry->priority = skb->priority;
		__entry->queue = skb_get_queue_mapping(skb);
		__entry->len = qdisc_pkt_len(skb);
		__entry->cost_ns = airfair_cb(skb)->cost_ns;
		__entry->deficit = flow->deficit;
		__entry->flow_qlen = flow->qlen;
	),

	TP_printk("dev=%d handle=%x: sta=%pM list=%s sent=%u class=%s prio=%u queue=%u len=%u cost=%u deficit=%d qlen=%u",
		  __entry->ifindex, __entry->handle >> 16, __entry->addr,
		  __entry->new_flow ? "new" : "old", __entry->sent,
		  __print_symbolic(__entry->pkt_class,
				   { AIRFAIR_PKT_OTHER, "other" },
				   { AIRFAIR_PKT_UDP, "udp" },
				   { AIRFAIR_PKT_TCP_DATA, "tcp-data" },
				   { AIRFAIR_PKT_TCP_ACK, "tcp-ack" }),
		  __entry->priority, __entry->queue, __entry->len,
		  __entry->cost_ns, __entry->deficit, __entry->flow_qlen)
);

#endif /* _AIRFAIR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>

// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair ACK filter (gong-wu-williamson's SPM-AF, as in cake's
 * ack-filter): when a pure ACK is queued behind an older pure ACK of the same
 * flow that it makes redundant, the older one is dropped. An ACK is kept if it
 * carries anything the sender may need: SYN/FIN/RST/URG/ECE/CWR, options other
 * than timestamps (SACK blocks above all), or an ACK number the newer ACK does
 * not advance past (duplicate ACKs drive fast retransmit).
 *
 * The modes are cake's. Conservative (the default) drops the oldest redundant
 * ACK only while at least two are queued before the new one, so a flow never
 * goes from two ACKs in the queue to one: the sender keeps its ACK clock when
 * the queue is short. Aggressive also drops a single redundant ACK when it
 * directly precedes the new one.
 *
 * A dropped ACK's upload charge moves to the ACK that supersedes it, which
 * stands for at most AIRFAIR_ACK_MERGE_MAX dropped ones; past that the older
 * ACK stays. Unbounded merging turns a sender's whole window into one ACK
 * whose charge makes its station wait for every other station to catch up,
 * longer than the sender's retransmission timeout: in the demo's upload run
 * one station's TCP collapsed into repeated timeouts. Smaller ACKs go out one
 * per turn. (A cap on the charge instead would stop the filter altogether
 * where one ACK already covers many segments, as after GRO.)
 */
#define AIRFAIR_ACK_MERGE_MAX	8
#include <linux/tcp.h>
#include <net/tcp.h>
#include "airfair.h"

/* Only NOP, EOL and timestamp options: nothing but the ACK number to lose. */
static bool airfair_plain_options(const struct sk_buff *skb,
				  const struct tcphdr *th, u32 thoff)
{
	int len = th->doff * 4 - sizeof(*th), i = 0;
	const u8 *opt;
	u8 buf[40];

	if (len <= 0)
		return true;
	opt = skb_header_pointer(skb, thoff + sizeof(*th), len, buf);
	if (!opt)
		return false;
	while (i < len) {
		if (opt[i] == TCPOPT_EOL)
			return true;
		if (opt[i] == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (opt[i] != TCPOPT_TIMESTAMP || i + 1 >= len ||
		    opt[i + 1] != TCPOLEN_TIMESTAMP)
			return false;
		i += TCPOLEN_TIMESTAMP;
	}
	return true;
}

#define AIRFAIR_ACK_KEEP_FLAGS	(TCPHDR_SYN | TCPHDR_FIN | TCPHDR_RST | \
				 TCPHDR_URG | TCPHDR_ECE | TCPHDR_CWR)
/* tcp_flag_word(): the reserved bits, AE and all eight flags */
#define AIRFAIR_ACK_FLAG_MASK	cpu_to_be32(0x0FFF0000)

static const struct tcphdr *airfair_tcp_header(const struct sk_buff *skb,
					       struct tcphdr *buf)
{
	return skb_header_pointer(skb, airfair_cb(skb)->thoff, sizeof(*buf), buf);
}

static bool airfair_ack_redundant(const struct sk_buff *old,
				  const struct tcphdr *th, u32 ack, u32 hash)
{
	const struct airfair_skb_cb *ocb = airfair_cb(old);
	const struct tcphdr *oth;
	struct tcphdr obuf;

	if (ocb->pkt_class != AIRFAIR_PKT_TCP_ACK || ocb->hash != hash)
		return false;
	oth = airfair_tcp_header(old, &obuf);
	/*
	 * The older ACK goes only if ACK is its one flag: no PSH, no reserved
	 * or AE bit (their meaning may change; cake's rule), nor any flag the
	 * sender must see.
	 */
	return oth && oth->source == th->source && oth->dest == th->dest &&
	       (tcp_flag_word(oth) & AIRFAIR_ACK_FLAG_MASK) == TCP_FLAG_ACK &&
	       after(ack, ntohl(oth->ack_seq)) &&
	       airfair_plain_options(old, oth, ocb->thoff) &&
	       ocb->acks_merged < AIRFAIR_ACK_MERGE_MAX;
}

/*
 * @skb, a pure ACK, has just been queued at the tail of @flow. Unlink and
 * return an older ACK of the same flow that it makes redundant (accounted as
 * gone from the queues; the caller drops it and tells the parents), or NULL.
 */
struct sk_buff *airfair_ack_filter(struct Qdisc *sch, struct airfair_sta *sta,
				   struct airfair_flow *flow, struct sk_buff *skb,
				   u8 mode)
{
	struct sk_buff *prev = NULL, *old, *elig = NULL, *elig_prev = NULL;
	struct airfair_skb_cb *cb = airfair_cb(skb);
	unsigned int found = 0;
	const struct tcphdr *th;
	struct tcphdr buf;
	u32 ack, carry;

	th = airfair_tcp_header(skb, &buf);
	if (!th || (tcp_flag_byte(th) & AIRFAIR_ACK_KEEP_FLAGS))
		return NULL;
	ack = ntohl(th->ack_seq);

	for (old = flow->head; old && old != skb; prev = old, old = old->next) {
		if (!airfair_ack_redundant(old, th, ack, cb->hash))
			continue;
		if (!elig) {
			elig = old;
			elig_prev = prev;
		}
		if (++found >= 2)
			break;
	}
	if (!elig || (found < 2 && !(mode == AIRFAIR_ACK_FILTER_AGGRESSIVE &&
				     elig->next == skb)))
		return NULL;

	/*
	 * The survivor acknowledges the upload data the dropped ACK stood
	 * for: that airtime moves over, not the ACK's own. With two redundant
	 * ACKs queued, the nearer one to the head goes and its charge moves to
	 * the new ACK, which will be the last to leave.
	 */
	carry = airfair_ack_upload_ns(&sta->costs, elig);
	cb->cost_ns = min_t(u64, (u64)cb->cost_ns + carry, AIRFAIR_COST_MAX_NS);
	cb->acks_merged = airfair_cb(elig)->acks_merged + 1;

	if (elig_prev)
		elig_prev->next = elig->next;
	else
		flow->head = elig->next;
	if (flow->tail == elig)
		flow->tail = elig_prev;
	skb_mark_not_on_list(elig);
	airfair_unqueued(sch, sta, flow, elig);
	return elig;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair packet classification: which flow of its station a packet
 * belongs to, whether it is TCP data, a pure TCP ACK, UDP or other, which way
 * a TCP flow's data goes, how many segments each of an upload flow's ACKs
 * covers, and what the packet costs in airtime.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <net/flow_dissector.h>
#include <net/tcp.h>
#include "airfair.h"

/* Direction hysteresis: a flow must lean this far before it changes side. */
#define AIRFAIR_DIR_FLIP	4
#define AIRFAIR_DIR_CAP		8
/*
 * Where the IP packet ends in the skb: Ethernet pads short frames to 60
 * bytes, so a pure ACK can arrive with bytes after its TCP header that are
 * not payload. The IP header's own length says; GSO packets and IPv6
 * jumbograms (length 0) end where the skb does.
 */
u32 airfair_l3_end(const struct sk_buff *skb, const struct flow_keys *keys)
{
	u32 nhoff = skb_network_offset(skb), end = skb->len;

	if (skb_is_gso(skb) || nhoff >= keys->control.thoff)
		return end;
	if (keys->basic.n_proto == htons(ETH_P_IP)) {
		struct iphdr _iph;
		const struct iphdr *iph;

		iph = skb_header_pointer(skb, nhoff, sizeof(_iph), &_iph);
		/* the header the dissector walked: it ends at thoff */
		if (iph && iph->version == 4 && ntohs(iph->tot_len) &&
		    nhoff + iph->ihl * 4 == keys->control.thoff)
			end = min_t(u32, end, nhoff + ntohs(iph->tot_len));
	} else if (keys->basic.n_proto == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ip6h;
		const struct ipv6hdr *ip6h;

		ip6h = skb_header_pointer(skb, nhoff, sizeof(_ip6h), &_ip6h);
		if (ip6h && ip6h->version == 6 && ntohs(ip6h->payload_len) &&
		    nhoff + sizeof(*ip6h) <= keys->control.thoff)
			end = min_t(u32, end, nhoff + sizeof(*ip6h) +
				    ntohs(ip6h->payload_len));
	}
	return end;
}

/* A TCP packet's class and its payload (none if the header runs past it). */
static u8 airfair_tcp_class(const struct sk_buff *skb,
			    const struct flow_keys *keys,
			    const struct tcphdr *th, u32 *payload)
{
	u32 hdr = keys->control.thoff + th->doff * 4;
	u32 end = airfair_l3_end(skb, keys);

	*payload = end > hdr ? end - hdr : 0;
	if (th->syn || th->fin || th->rst || !th->ack || *payload)
		return AIRFAIR_PKT_TCP_DATA;
	return AIRFAIR_PKT_TCP_ACK;
}

/*
 * The flow hash, the same for both directions of a flow, so that the receive
 * path (rtt.c) finds the flow the qdisc keeps for the AP's side. The kernel's
 * flow_hash_from_keys() orders addresses and ports, but it also hashes the
 * IPv6 flow label, which each end chooses for itself: leave that out.
 */
u32 airfair_flow_hash(const struct sk_buff *skb, struct flow_keys *keys)
{
	/*
	 * Tunnelled packets are one flow of the tunnel: TCP inside is never
	 * taken for the AP's own (ACK filter, window rewrite, RTT).
	 */
	skb_flow_dissect_flow_keys(skb, keys, FLOW_DISSECTOR_F_STOP_AT_ENCAP);
	keys->tags.flow_label = 0;
	return flow_hash_from_keys(keys);
}

/*
 * Does the segment carry a TCP-MD5 (RFC 2385) or TCP-AO (RFC 5925)
 * signature? Rewriting any header field would break it.
 */
static bool airfair_tcp_signed(const struct sk_buff *skb,
			       const struct tcphdr *th, u32 thoff)
{
	int len = th->doff * 4 - (int)sizeof(*th), i = 0;
	const u8 *opt;
	u8 buf[40];

	if (len <= 0)
		return false;
	opt = skb_header_pointer(skb, thoff + sizeof(*th), len, buf);
	if (!opt)
		return true;	/* cannot tell: leave it alone */
	while (i < len) {
		u8 kind = opt[i];

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (kind == TCPOPT_MD5SIG || kind == AIRFAIR_TCPOPT_AO)
			return true;
		if (i + 1 >= len || opt[i + 1] < 2)
			break;
		i += opt[i + 1];
	}
	return false;
}

/*
 * Lower the receive window the TCP segment at @thoff advertises to @win (in
 * the units of its window scale); a window already at or below it stays. Only
 * a segment that changes is made writable (a clone gets its own copy), never
 * a signed one, and the checksum follows in whatever state ip_summed says it
 * is: the window is not part of the pseudo-header, so a CHECKSUM_PARTIAL
 * segment's check field and a CHECKSUM_COMPLETE skb's csum stay as they are.
 * Returns whether the segment changed.
 */
bool airfair_tcp_lower_window(struct sk_buff *skb, u32 thoff, __be16 win)
{
	const struct tcphdr *cur;
	struct tcphdr *th, buf;

	cur = skb_header_pointer(skb, thoff, sizeof(buf), &buf);
	if (!cur || ntohs(cur->window) <= ntohs(win) ||
	    airfair_tcp_signed(skb, cur, thoff) ||
	    skb_ensure_writable(skb, thoff + sizeof(*th)))
		return false;
	th = (struct tcphdr *)(skb->data + thoff);
	inet_proto_csum_replace2(&th->check, skb, th->window, win, false);
	th->window = win;
	return true;
}

/* MSS and timestamps; anything malformed ends the walk. */
void airfair_tcp_options(const struct sk_buff *skb, const struct tcphdr *th,
			 u32 thoff, struct airfair_tcp_opts *o)
{
	int len = th->doff * 4 - (int)sizeof(*th);
	u8 buf[40];
	const u8 *opt;
	int i = 0;

	memset(o, 0, sizeof(*o));
	o->wscale = -1;
	if (len <= 0)
		return;
	opt = skb_header_pointer(skb, thoff + sizeof(*th), len, buf);
	if (!opt)
		return;
	/* What Linux and most others send: NOP, NOP, timestamp, first. */
	if (len >= TCPOLEN_TSTAMP_ALIGNED &&
	    get_unaligned_be32(opt) == ((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) |
					(TCPOPT_TIMESTAMP << 8) |
					TCPOLEN_TIMESTAMP) && !th->syn) {
		o->ts = true;
		o->tsval = get_unaligned_be32(opt + 4);
		o->tsecr = get_unaligned_be32(opt + 8);
		return;
	}
	while (i < len) {
		u8 kind = opt[i], olen;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			break;
		olen = opt[i + 1];
		if (olen < 2 || i + olen > len)
			break;
		if (kind == TCPOPT_MSS && olen == TCPOLEN_MSS) {
			o->mss = get_unaligned_be16(&opt[i + 2]);
		} else if (kind == TCPOPT_WINDOW &&
			   olen == TCPOLEN_WINDOW) {
			o->wscale = min_t(u8, opt[i + 2], TCP_MAX_WSCALE);
		} else if (kind == TCPOPT_TIMESTAMP &&
			   olen == TCPOLEN_TIMESTAMP) {
			o->ts = true;
			o->tsval = get_unaligned_be32(&opt[i + 2]);
			o->tsecr = get_unaligned_be32(&opt[i + 6]);
		}
		i += olen;
	}
}

static void airfair_flow_reset(struct airfair_sched *q,
			       struct airfair_flow *flow, u32 tag, u8 kind)
{
	flow->tag = tag;
	flow->kind = kind;
	flow->dir = AIRFAIR_DIR_NONE;
	flow->dir_score = 0;
	flow->last_ack_seq = 0;
	flow->mss = AIRFAIR_DEFAULT_MSS;
	flow->delack_x256 = q->cfg.delack << 8;
	flow->wscale = -1;
	flow->rtt_us = 0;
	flow->path_rtt_us = 0;
	flow->rtt_weight = 0;
	flow->sent = 0;		/* T-LAS: the new occupant has attained nothing */
	q->new_flows_seen++;
}

static void airfair_update_dir(struct airfair_flow *flow, u8 pkt_class)
{
	int score = flow->dir_score;

	score += pkt_class == AIRFAIR_PKT_TCP_ACK ? 1 : -2;
	flow->dir_score = clamp(score, -AIRFAIR_DIR_CAP, AIRFAIR_DIR_CAP);
	if (flow->dir_score >= AIRFAIR_DIR_FLIP)
		flow->dir = AIRFAIR_DIR_UP;
	else if (flow->dir_score <= -AIRFAIR_DIR_FLIP)
		flow->dir = AIRFAIR_DIR_DOWN;
}

/* Segments per ACK from the cumulative ACK's advance (gong-wu-williamson's d). */
static void airfair_learn_delack(struct airfair_flow *flow, u32 ack_seq)
{
	if (flow->last_ack_seq && after(ack_seq, flow->last_ack_seq))
		flow->delack_x256 =
			airfair_delack_update(flow->delack_x256,
					      ack_seq - flow->last_ack_seq,
					      flow->mss);
	if (!flow->last_ack_seq || after(ack_seq, flow->last_ack_seq))
		flow->last_ack_seq = ack_seq;
}

/* Does the bucket keep its occupant: packets queued, or TCP state in use? */
static bool airfair_flow_kept(const struct airfair_flow *flow)
{
	return flow->qlen || (flow->wscale >= 0 &&
			      time_before(jiffies, flow->last_seen + AIRFAIR_FLOW_IDLE));
}

/*
 * A flow's bucket, set-associative as in sch_cake: the hash picks a set of
 * AIRFAIR_FLOW_WAYS buckets, and the flow takes the one it holds, else the
 * least recently used empty one, sparing a TCP flow's state (its window
 * scale comes once, in the SYN-ACK) until it has been idle for
 * AIRFAIR_FLOW_IDLE. With one bucket per hash, a ping or a connection's
 * control flow that landed on an upload's bucket between two of its ACKs
 * took it over, and the upload went on without a window bound for the rest
 * of its life. *take: the bucket is the flow's to reset. If none can be had,
 * the flow shares the set's first one with its occupant, whose state is left
 * alone (airfair_classify()).
 */
static struct airfair_flow *airfair_flow_bucket(struct airfair_sta *sta,
						u32 hash, bool *take)
{
	struct airfair_flow *set, *flow, *lru = NULL;
	int i;

	set = &sta->flows[reciprocal_scale(hash, AIRFAIR_FLOWS_PER_STA /
					   AIRFAIR_FLOW_WAYS) * AIRFAIR_FLOW_WAYS];
	*take = false;
	for (i = 0; i < AIRFAIR_FLOW_WAYS; i++) {
		flow = &set[i];
		if (flow->tag == hash)
			return flow;
		if (airfair_flow_kept(flow))
			continue;
		if (!lru || time_before(flow->last_seen, lru->last_seen))
			lru = flow;
	}
	*take = lru != NULL;
	return lru ?: set;
}

/* What a packet of a flow whose TCP state is not kept is charged as. */
static const struct airfair_flow airfair_flow_unknown = {
	.dir = AIRFAIR_DIR_NONE,
	.mss = AIRFAIR_DEFAULT_MSS,
	.wscale = -1,
};

/*
 * The packet's flow; its class, hash and cost in its cb. With upload
 * observed, the cost includes the flow's upload data the receive path counted
 * since the flow's previous packet.
 */
struct airfair_flow *airfair_classify(struct airfair_sched *q,
				      struct airfair_sta *sta,
				      struct sk_buff *skb)
{
	struct airfair_skb_cb *cb = airfair_cb(skb);
	u8 pkt_class = AIRFAIR_PKT_OTHER, kind = AIRFAIR_FLOW_OTHER;
	const struct tcphdr *th = NULL;
	struct airfair_upload_seen up = {};
	struct airfair_rtt_seen seen;
	struct airfair_tcp_opts opts;
	const struct airfair_flow *state;
	struct airfair_flow *flow;
	struct flow_keys keys;
	struct tcphdr _th;
	u32 hash, seg = 0;
	bool take;

	hash = airfair_flow_hash(skb, &keys);
	if (keys.basic.ip_proto == IPPROTO_UDP) {
		pkt_class = AIRFAIR_PKT_UDP;
		kind = AIRFAIR_FLOW_UDP;
	} else if (keys.basic.ip_proto == IPPROTO_TCP &&
		   !(keys.control.flags & FLOW_DIS_IS_FRAGMENT)) {
		th = skb_header_pointer(skb, keys.control.thoff, sizeof(_th), &_th);
		if (th) {
			pkt_class = airfair_tcp_class(skb, &keys, th, &seg);
			kind = AIRFAIR_FLOW_TCP;
			/* the size of each segment of the data it carries */
			if (seg && skb_is_gso(skb))
				seg = skb_shinfo(skb)->gso_size;
		}
	}

	flow = airfair_flow_bucket(sta, hash, &take);
	if (take)
		airfair_flow_reset(q, flow, hash, kind);
	flow->last_seen = jiffies;
	state = flow;

	/*
	 * A flow sharing the bucket while another one's packets are queued
	 * there: the TCP state (direction, MSS, window scale, RTT) is the
	 * occupant's, not this flow's. Neither reads nor writes it.
	 */
	if (th && flow->tag != hash) {
		airfair_tcp_options(skb, th, keys.control.thoff, &opts);
		airfair_rtt_egress(q, hash, sta->addr, th, &opts, seg, &seen,
				   q->cfg.upload == AIRFAIR_UPLOAD_OBSERVED ?
				   &up : NULL);
		state = &airfair_flow_unknown;
	} else if (th) {
		airfair_tcp_options(skb, th, keys.control.thoff, &opts);
		airfair_rtt_egress(q, hash, sta->addr, th, &opts, seg, &seen,
				   q->cfg.upload == AIRFAIR_UPLOAD_OBSERVED ?
				   &up : NULL);
		flow->rtt_us = seen.rtt_us;
		flow->path_rtt_us = seen.path_rtt_us;
		flow->rtt_weight = seen.weight;
		if (th->syn) {
			u16 mss = opts.mss;

			/* The MSS the other side will send us, less timestamps. */
			if (mss && opts.ts && mss > TCPOLEN_TSTAMP_ALIGNED)
				mss -= TCPOLEN_TSTAMP_ALIGNED;
			if (mss >= 64)
				flow->mss = mss;
			/*
			 * The SYN-ACK the AP passes on: the scale of the
			 * windows it sends from now on (RFC 7323; none if the
			 * option is absent).
			 */
			if (th->ack)
				flow->wscale = max_t(s8, opts.wscale, 0);
		} else {
			airfair_update_dir(flow, pkt_class);
		}
		/*
		 * d: an upload flow's from the AP's ACKs, a download flow's
		 * from the station's (the receive hook's)
		 */
		if (flow->dir != AIRFAIR_DIR_DOWN && th->ack &&
		    pkt_class == AIRFAIR_PKT_TCP_ACK)
			airfair_learn_delack(flow, ntohl(th->ack_seq));
		else if (flow->dir == AIRFAIR_DIR_DOWN && seen.down_delack_x256)
			flow->delack_x256 = seen.down_delack_x256;
	}

	cb->pkt_class = pkt_class;
	cb->rtt_timed = th && seen.timed;
	cb->acks_merged = 0;
	cb->hash = hash;
	cb->thoff = keys.control.thoff;
	cb->cost_ns = airfair_costed_at_dequeue(pkt_class) ? 0 :
		      airfair_flow_cost(q, sta, state, skb, pkt_class, &up);
	sta->upload_frames += up.frames;
	/*
	 * T-LAS's attained service counts the upload data the flow's ACKs
	 * stand for: the ACK filter thins an upload's ACKs to a few a second,
	 * each carrying the air of dozens of frames, and counted as packets
	 * they kept new-flow priority for tens of seconds, served first
	 * whatever their charge, while the station's other flows starved.
	 */
	flow->sent = min_t(u64, (u64)flow->sent + up.frames, U32_MAX);
	return flow;
}

/*
 * The L3 bytes of a packet, as the airtime model takes them (802.11 framing
 * replaces the Ethernet header), and the frames it goes out as (@segs: a
 * GSO packet is one per segment).
 */
u32 airfair_l3_len(const struct sk_buff *skb, u32 *segs)
{
	u32 len = qdisc_pkt_len(skb);

	*segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	return len > *segs * ETH_HLEN ? len - *segs * ETH_HLEN : 0;
}

u32 airfair_flow_cost(const struct airfair_sched *q,
		      const struct airfair_sta *sta,
		      const struct airfair_flow *flow,
		      const struct sk_buff *skb, u8 pkt_class,
		      const struct airfair_upload_seen *up)
{
	const struct airfair_sta_costs *c = &sta->costs;
	const struct airfair_affine *a;
	u32 segs, len = airfair_l3_len(skb, &segs);
	u32 fixed_ns;
	u64 cost;

	switch (pkt_class) {
	case AIRFAIR_PKT_TCP_DATA:
		a = flow->dir == AIRFAIR_DIR_UP ? &c->data : &c->tcp_down;
		fixed_ns = a->a_ns;
		/*
		 * A download flow whose d is known (the configured one until the
		 * station's ACKs tell): the station's ACK every d segments at
		 * that d (Eq. 7).
		 */
		if (flow->dir == AIRFAIR_DIR_DOWN && flow->delack_x256 &&
		    c->sta_ack_ns)
			fixed_ns = c->data.a_ns +
				   (u32)div_u64(((u64)c->sta_ack_ns << 8) +
						flow->delack_x256 / 2,
						flow->delack_x256);
		break;
	case AIRFAIR_PKT_TCP_ACK:
		a = &c->ack;
		fixed_ns = a->a_ns;
		break;
	default:
		a = &c->data;
		fixed_ns = a->a_ns;
		break;
	}
	/* A GSO packet becomes segs frames: each pays the fixed part once. */
	cost = (u64)fixed_ns * segs + (((u64)a->b_ns256 * len) >> 8);
	/*
	 * The flow's upload data: as the receive path counted it, else (chen-yan
	 * Eq. 9) the d data frames an upload flow's ACK acknowledges.
	 */
	if (up->tracked)
		cost += (u64)c->up.a_ns * up->frames +
			(((u64)c->up.b_ns256 * up->bytes) >> 8);
	else if (pkt_class == AIRFAIR_PKT_TCP_ACK && flow->dir == AIRFAIR_DIR_UP)
		cost += ((u64)flow->delack_x256 * c->up_data_ns) >> 8;
	return min_t(u64, cost, AIRFAIR_COST_MAX_NS);
}

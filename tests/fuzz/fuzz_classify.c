// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for sch_airfair's packet classifier and ACK filter
 * (classify.c, ackfilter.c, built unchanged over tests/fuzz/shim), with
 * AddressSanitizer and UBSan. The fuzzer's bytes are a station's packet
 * stream: Ethernet frames, raw or shaped into IPv4/IPv6 TCP/UDP around
 * fuzzed headers, options and lengths, enqueued into the station's flow
 * queues (the ACK filter runs on every pure ACK) and dequeued again.
 *
 * Findings besides crashes, leaks and undefined behaviour:
 *  - a packet's charge exceeds AIRFAIR_COST_MAX_NS;
 *  - a packet is classed a pure ACK that has payload by its IP length, a
 *    flag other than ACK/PSH/ECE/CWR/URG... beyond what the class allows, or
 *    is not TCP at all;
 *  - the options parser reports a window scale above 14 or a timestamp that
 *    is not in the options;
 *  - the filter drops an ACK that is not an older pure ACK of the same flow
 *    with ACK as its only flag, plain options and an ACK number the new one
 *    passes, or (conservative mode) the last such ACK before the new one;
 *  - a flow's queue, counts or backlog stop matching what is linked in it;
 *  - the upload window rewrite raises a window, touches a signed segment, a
 *    shared (cloned) buffer or any byte but the window and check fields, or
 *    leaves a checksum wrong for the skb's ip_summed state (every state is
 *    tried: NONE, UNNECESSARY, COMPLETE, PARTIAL).
 *
 * The flow dissector is the kernel's in the qdisc; here a small parser fills
 * the same keys (network header 14, IPv4 with fragments, IPv6 without
 * extension headers), so the target exercises what airfair does with them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kshim.h"
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include "airfair.h"

#define ASSERT(c) do { if (!(c)) abort(); } while (0)
#define MAX_FRAME 256
#define MAX_QUEUED 64
#define NET_IP_ALIGN 2

unsigned long jiffies = 1000;

static struct airfair_sched q;
static struct airfair_sta sta;
static struct Qdisc sch;
/* what the run exercised, printed at exit with FUZZ_STATS=1 */
static unsigned long n_packets, n_acks, n_dropped, n_windows;

/* --- stand-ins for the rest of the qdisc ------------------------------- */

void airfair_rtt_egress(struct airfair_sched *sq, u32 hash, const u8 *addr,
			const struct tcphdr *th,
			const struct airfair_tcp_opts *o, u32 seg,
			struct airfair_rtt_seen *seen,
			struct airfair_upload_seen *up)
{
	memset(seen, 0, sizeof(*seen));
	/* a download d as the receive hook learns it (1..16 segments), or none */
	if (hash & 1)
		seen->down_delack_x256 = 256 + (hash >> 1) % (15 << 8);
	seen->timed = hash & 2;
	if (up)
		memset(up, 0, sizeof(*up));
}

void airfair_unqueued(struct Qdisc *s, struct airfair_sta *st,
		      struct airfair_flow *flow, struct sk_buff *skb)
{
	ASSERT(flow->qlen && st->qlen);
	ASSERT(flow->backlog >= qdisc_pkt_len(skb));
	flow->qlen--;
	flow->backlog -= qdisc_pkt_len(skb);
	st->qlen--;
	st->backlog -= qdisc_pkt_len(skb);
}

bool skb_flow_dissect_flow_keys(const struct sk_buff *skb,
				struct flow_keys *keys, unsigned int flags)
{
	const u8 *d = skb->data;
	u32 nh = ETH_HLEN, l4;
	u16 proto;

	memset(keys, 0, sizeof(*keys));
	if (skb->len < ETH_HLEN)
		return false;
	proto = get_unaligned_be16(d + 12);
	keys->basic.n_proto = htons(proto);
	if (proto == ETH_P_IP) {
		const struct iphdr *iph = (const void *)(d + nh);

		if (skb->len < nh + sizeof(*iph) || iph->ihl < 5 ||
		    skb->len < nh + iph->ihl * 4u)
			return false;
		keys->basic.ip_proto = iph->protocol;
		memcpy(keys->addrs.src, &iph->saddr, 4);
		memcpy(keys->addrs.dst, &iph->daddr, 4);
		if (ntohs(iph->frag_off) & 0x3fff)
			keys->control.flags |= FLOW_DIS_IS_FRAGMENT;
		l4 = nh + iph->ihl * 4;
		if (iph->protocol == IPPROTO_IPIP &&
		    (flags & FLOW_DISSECTOR_F_STOP_AT_ENCAP)) {
			keys->control.thoff = l4;
			return true;
		}
	} else if (proto == ETH_P_IPV6) {
		const struct ipv6hdr *ip6h = (const void *)(d + nh);

		if (skb->len < nh + sizeof(*ip6h))
			return false;
		keys->basic.ip_proto = ip6h->nexthdr;
		memcpy(keys->addrs.src, &ip6h->saddr, 16);
		memcpy(keys->addrs.dst, &ip6h->daddr, 16);
		keys->tags.flow_label = get_unaligned_be32(d + nh) & 0xfffff;
		l4 = nh + sizeof(*ip6h);
	} else {
		return false;
	}
	keys->control.thoff = l4;
	if ((keys->basic.ip_proto == IPPROTO_TCP ||
	     keys->basic.ip_proto == IPPROTO_UDP) &&
	    !(keys->control.flags & FLOW_DIS_IS_FRAGMENT) && skb->len >= l4 + 4) {
		memcpy(&keys->ports.src, d + l4, 2);
		memcpy(&keys->ports.dst, d + l4 + 2, 2);
	}
	return true;
}

/* Symmetric in the two ends, like the kernel's (which orders them first). */
u32 flow_hash_from_keys(struct flow_keys *k)
{
	u32 h = 2166136261u, a = 0, b = 0;
	int i;

	for (i = 0; i < 16; i++) {
		a = a * 31 + k->addrs.src[i];
		b = b * 31 + k->addrs.dst[i];
	}
	h = (h ^ (a ^ b) ^ (a + b)) * 16777619u;
	h = (h ^ (u32)(k->ports.src ^ k->ports.dst) ^
	     (u32)(k->ports.src + k->ports.dst)) * 16777619u;
	h = (h ^ k->basic.ip_proto ^ k->basic.n_proto) * 16777619u;
	return h ?: 1;
}

/* --- the packet stream -------------------------------------------------- */

struct stream {
	const u8 *d;
	size_t n;
};

static u8 take8(struct stream *s)
{
	u8 v = 0;

	if (s->n) {
		v = *s->d++;
		s->n--;
	}
	return v;
}

static u32 take32(struct stream *s)
{
	return (u32)take8(s) << 24 | (u32)take8(s) << 16 |
	       (u32)take8(s) << 8 | take8(s);
}

/* --- the independent checks ------------------------------------------- */

/*
 * May the receiver lose nothing but the ACK number with this ACK? Its options
 * as a TCP receiver parses them (a malformed tail is ignored, as in Linux's
 * tcp_parse_options()): nothing but padding and timestamps.
 */
static bool ref_plain_options(const u8 *opt, int len)
{
	const u8 *end = opt + len;

	while (opt < end && *opt != TCPOPT_EOL) {
		u8 size = *opt == TCPOPT_NOP ? 1 : (opt + 1 < end ? opt[1] : 0);

		if (size < 1 || (*opt != TCPOPT_NOP && size < 2) || opt + size > end)
			return true;	/* the rest is not parsed */
		if (*opt != TCPOPT_NOP && *opt != TCPOPT_TIMESTAMP)
			return false;
		opt += size;
	}
	return true;
}

static const struct tcphdr *tcp_of(const struct sk_buff *skb,
				   struct tcphdr *buf)
{
	return skb_header_pointer(skb, airfair_cb(skb)->thoff, sizeof(*buf), buf);
}

/* The TCP options as bytes in the frame, @len of them. */
static const u8 *tcp_opts_of(const struct sk_buff *skb,
			     const struct tcphdr *th, int *len)
{
	u32 start = airfair_cb(skb)->thoff + sizeof(*th);

	*len = (int)min_t(u32, th->doff * 4u, skb->len - airfair_cb(skb)->thoff) -
	       (int)sizeof(*th);
	return skb->data + start;
}

/* The IP packet's end by its own header, as a receiver would see it. */
static u32 ip_end(const struct sk_buff *skb)
{
	const u8 *nh = skb->data + ETH_HLEN;
	u16 proto = get_unaligned_be16(skb->data + 12);
	u32 end = skb->len;

	if (proto == ETH_P_IP && get_unaligned_be16(nh + 2))
		end = min_t(u32, end, ETH_HLEN + get_unaligned_be16(nh + 2));
	else if (proto == ETH_P_IPV6 && get_unaligned_be16(nh + 4))
		end = min_t(u32, end, ETH_HLEN + 40 + get_unaligned_be16(nh + 4));
	return end;
}

static void check_classified(struct sk_buff *skb)
{
	const struct airfair_skb_cb *cb = airfair_cb(skb);
	struct airfair_tcp_opts o;
	const struct tcphdr *th;
	struct tcphdr tbuf;
	const u8 *opt;
	int len, i;

	ASSERT(cb->cost_ns <= AIRFAIR_COST_MAX_NS);
	if (cb->pkt_class != AIRFAIR_PKT_TCP_ACK &&
	    cb->pkt_class != AIRFAIR_PKT_TCP_DATA)
		return;
	th = tcp_of(skb, &tbuf);
	ASSERT(th);
	if (cb->pkt_class == AIRFAIR_PKT_TCP_ACK) {
		ASSERT(th->ack && !th->syn && !th->fin && !th->rst);
		ASSERT(ip_end(skb) <= cb->thoff + th->doff * 4u);
	}
	if (th->doff <= 5)
		return;
	airfair_tcp_options(skb, th, cb->thoff, &o);
	ASSERT(o.wscale >= -1 && o.wscale <= (s8)TCP_MAX_WSCALE);
	if (o.ts) {
		/* the TSval must be in the options as sent */
		bool found = false;

		opt = tcp_opts_of(skb, th, &len);
		for (i = 0; i + 4 <= len; i++)
			if (get_unaligned_be32(opt + i) == o.tsval)
				found = true;
		ASSERT(found);
	}
}

static void check_dropped(const struct sk_buff *old, const struct sk_buff *skb,
			  const struct airfair_flow *flow, u8 mode)
{
	struct tcphdr obuf, nbuf;
	const struct tcphdr *oth = tcp_of(old, &obuf), *th = tcp_of(skb, &nbuf);
	const struct sk_buff *p;
	int optlen, others = 0;
	const u8 *opt;

	ASSERT(airfair_cb(old)->pkt_class == AIRFAIR_PKT_TCP_ACK);
	ASSERT(airfair_cb(old)->hash == airfair_cb(skb)->hash);
	ASSERT(oth && th && oth->source == th->source && oth->dest == th->dest);
	ASSERT(tcp_flag_byte(oth) == TCPHDR_ACK);
	ASSERT(!(ntohl(tcp_flag_word(oth)) & 0x0f000000));	/* reserved, AE */
	ASSERT(after(ntohl(th->ack_seq), ntohl(oth->ack_seq)));
	ASSERT(airfair_cb(old)->thoff + oth->doff * 4u <= old->len);
	opt = tcp_opts_of(old, oth, &optlen);
	ASSERT(ref_plain_options(opt, optlen));
	ASSERT(airfair_cb(skb)->acks_merged <= 8);
	/* conservative: another redundant ACK of the flow is still queued */
	for (p = flow->head; p && p != skb; p = p->next)
		if (airfair_cb(p)->pkt_class == AIRFAIR_PKT_TCP_ACK &&
		    airfair_cb(p)->hash == airfair_cb(skb)->hash)
			others++;
	if (mode == AIRFAIR_ACK_FILTER_CONSERVATIVE)
		ASSERT(others >= 1);
}

/*
 * Would a receiver see a TCP-MD5/AO signature? A kind 19 or 29 where an option
 * starts, before the list ends or stops parsing; options past the frame's end
 * cannot be read and count as signed.
 */
static bool ref_signed(const u8 *opt, int len, bool truncated)
{
	const u8 *end = opt + len;

	if (truncated)
		return true;
	while (opt < end && *opt != TCPOPT_EOL) {
		if (*opt == TCPOPT_MD5SIG || *opt == AIRFAIR_TCPOPT_AO)
			return true;
		if (*opt == TCPOPT_NOP) {
			opt++;
			continue;
		}
		if (opt + 1 >= end || opt[1] < 2)
			break;
		opt += opt[1];
	}
	return false;
}

/* The one's complement sum of bytes [from, to), as 16-bit words in memory. */
static u32 sum16(const u8 *p, u32 from, u32 to)
{
	u32 s = 0, i;
	u16 w;

	for (i = from; i + 1 < to; i += 2) {
		memcpy(&w, p + i, 2);
		s = fuzz_csum_add(s, w);
	}
	if (i < to) {
		w = 0;
		memcpy(&w, p + i, 1);
		s = fuzz_csum_add(s, w);
	}
	return s;
}

/* One's complement equality: +0 and -0 are the same number. */
static bool csum_equal(u32 a, u32 b)
{
	return fuzz_csum_fold(a) == fuzz_csum_fold(b) ||
	       (fuzz_csum_fold(a) | fuzz_csum_fold(b)) == 0xffff;
}

/*
 * The upload window rewrite on a copy of the packet, in a fuzzed ip_summed
 * state, maybe as a clone whose data another skb shares: the window
 * only ever comes down, and only when the segment may be rewritten; nothing
 * but the window and check fields changes, a shared buffer never; the check
 * field follows so that the segment's sum is what it was (NONE, UNNECESSARY),
 * a CHECKSUM_COMPLETE skb's csum still covers its bytes, and a
 * CHECKSUM_PARTIAL segment's check field (the pseudo-header sum the device
 * completes) stays as it is.
 */
static void check_window_rewrite(const struct sk_buff *orig, struct stream *s)
{
	const u32 win_at = offsetof(struct tcphdr, window);
	const u32 check_at = offsetof(struct tcphdr, check);
	u8 how = take8(s), before[MAX_FRAME];
	u8 shared_buf[MAX_FRAME + 8] __attribute__((aligned(8)));
	u8 *shared = shared_buf + ((unsigned long)orig->data & 7);
	u32 thoff = airfair_cb(orig)->thoff, len = orig->len, i, sum0;
	__be16 win = htons((u16)(take8(s) << 8 | take8(s)));
	struct sk_buff skb = *orig;
	const struct tcphdr *th;
	struct tcphdr tbuf;
	bool lowered, expect;
	u16 check0;
	const u8 *opt;
	int optlen;

	th = tcp_of(orig, &tbuf);
	if (!th)
		return;
	memcpy(shared, orig->data, len);
	memcpy(before, orig->data, len);
	skb.data = shared;
	skb.own_data = NULL;
	skb.ip_summed = how & 3;
	skb.cloned = how & 4;
	skb.fail_alloc = (how & 0x18) == 0x18;
	sum0 = sum16(before, thoff, len);
	skb.csum = sum0;
	check0 = th->check;
	opt = tcp_opts_of(orig, th, &optlen);
	expect = ntohs(th->window) > ntohs(win) &&
		 !ref_signed(opt, optlen, thoff + th->doff * 4u > len) &&
		 !(skb.cloned && skb.fail_alloc);

	lowered = airfair_tcp_lower_window(&skb, thoff, win);
	ASSERT(lowered == expect);
	/* a clone's data belongs to someone else: never written */
	if (how & 4)
		ASSERT(!memcmp(shared, before, len));
	ASSERT(skb.csum == sum0);
	for (i = 0; i < len; i++)
		if (i < thoff + win_at || i >= thoff + check_at + 2)
			ASSERT(skb.data[i] == before[i]);
	if (!lowered) {
		ASSERT(!memcmp(skb.data, before, len));
	} else {
		const struct tcphdr *nth = (const void *)(skb.data + thoff);

		n_windows++;
		ASSERT(nth->window == win);
		if (skb.ip_summed == CHECKSUM_PARTIAL)
			ASSERT(nth->check == check0);
		else
			ASSERT(csum_equal(sum16(skb.data, thoff, len), sum0));
	}
	free(skb.own_data);
}

static void check_flows(void)
{
	u32 qlen = 0, backlog = 0;
	int f;

	for (f = 0; f < AIRFAIR_FLOWS_PER_STA; f++) {
		const struct airfair_flow *flow = &sta.flows[f];
		const struct sk_buff *p, *last = NULL;
		u32 n = 0, b = 0;

		for (p = flow->head; p; last = p, p = p->next) {
			ASSERT(n++ < MAX_QUEUED + 1);
			b += qdisc_pkt_len(p);
		}
		ASSERT(n == flow->qlen && b == flow->backlog);
		ASSERT(flow->tail == last || !flow->head);
		qlen += n;
		backlog += b;
	}
	ASSERT(qlen == sta.qlen && backlog == sta.backlog);
}

static void put16(u8 *p, u16 v) { p[0] = v >> 8; p[1] = (u8)v; }
static void put32(u8 *p, u32 v) { put16(p, v >> 16); put16(p + 2, (u16)v); }

/*
 * A frame: shaped (Ethernet + IPv4/IPv6 + TCP/UDP around fuzzed fields, one
 * of four flows) or raw bytes. Returns its length.
 */
static u32 build_frame(struct stream *s, u8 *f)
{
	u8 shape = take8(s), optlen, pad, l4, *ip, *th;
	bool v6 = shape & 1, udp = (shape & 6) == 6;
	u32 len, i, iplen, hdr;

	if ((shape & 0xf0) == 0xf0) {	/* raw */
		len = take8(s) % MAX_FRAME;
		for (i = 0; i < len; i++)
			f[i] = take8(s);
		return len;
	}
	memset(f, 0, MAX_FRAME);
	f[0] = 0x02; f[5] = 1; f[6] = 0x02; f[11] = 2;
	put16(f + 12, v6 ? ETH_P_IPV6 : ETH_P_IP);
	ip = f + ETH_HLEN;
	hdr = v6 ? 40 : 20;
	l4 = udp ? IPPROTO_UDP : IPPROTO_TCP;
	th = ip + hdr;
	optlen = udp ? 0 : (take8(s) % 11) * 4;
	pad = take8(s);
	/* payload: mostly none (ACKs), sometimes some */
	len = ETH_HLEN + hdr + (udp ? 8 : 20 + optlen) +
	      (pad & 0x80 ? pad & 0x3f : 0);
	iplen = len - ETH_HLEN;
	if (pad & 0x40)		/* Ethernet padding past the IP packet */
		len = max_t(u32, len, 60) + (pad & 7);
	if (v6) {
		ip[0] = 0x60;
		put16(ip + 4, (u16)(iplen - 40));
		ip[6] = l4;
		ip[7] = 64;
		ip[23] = 1; ip[39] = 2;
	} else {
		ip[0] = 0x45;
		put16(ip + 2, (u16)iplen);
		ip[6] = shape & 8 ? 0x20 : 0x40;	/* MF: a fragment */
		ip[8] = 64;
		ip[9] = l4;
		ip[15] = 1; ip[19] = 2;
	}
	put16(th, 1000 + ((shape >> 4) & 3));	/* four flows */
	put16(th + 2, 80);
	if (udp) {
		put16(th + 4, (u16)(iplen - hdr));
	} else {
		put32(th + 4, take32(s));			/* seq */
		put32(th + 8, 0x10000 + (take8(s) << 8));	/* ack: small steps */
		th[12] = (u8)((5 + optlen / 4) << 4) | (take8(s) & 0x0f);
		th[13] = take8(s);				/* flags */
		put16(th + 14, 0xffff);
		for (i = 0; i < optlen; i++)
			th[20 + i] = take8(s) % 4 ? take8(s) % 10 : take8(s);
	}
	for (i = ETH_HLEN + iplen; i < len; i++)
		f[i] = take8(s);
	return min_t(u32, len, MAX_FRAME);
}

static void dequeue_one(u8 which)
{
	struct airfair_flow *flow = &sta.flows[which % AIRFAIR_FLOWS_PER_STA];
	struct sk_buff *skb = flow->head;

	if (!skb)
		return;
	flow->head = skb->next;
	if (!flow->head)
		flow->tail = NULL;
	skb->next = NULL;
	airfair_unqueued(&sch, &sta, flow, skb);
	free(skb);
}

static void enqueue_one(struct stream *s, u8 mode)
{
	struct sk_buff *skb, *dropped;
	struct airfair_flow *flow;
	u8 frame[MAX_FRAME];
	u32 len = build_frame(s, frame);

	if (sta.qlen >= MAX_QUEUED)
		return;
	skb = calloc(1, sizeof(*skb) + NET_IP_ALIGN + len);
	ASSERT(skb);
	/* the IP header 4-byte aligned, as drivers leave it */
	skb->data = (unsigned char *)(skb + 1) + NET_IP_ALIGN;
	memcpy(skb->data, frame, len);
	skb->len = len;
	skb->network_header = ETH_HLEN;
	qdisc_skb_cb(skb)->pkt_len = len;
	if (take8(s) == 0xa5) {			/* a GSO packet */
		skb->shinfo.gso_size = 1448;
		skb->shinfo.gso_segs = 1 + take8(s) % 44;
	}

	flow = airfair_classify(&q, &sta, skb);
	n_packets++;
	n_acks += airfair_cb(skb)->pkt_class == AIRFAIR_PKT_TCP_ACK;
	ASSERT(flow >= sta.flows && flow < sta.flows + AIRFAIR_FLOWS_PER_STA);
	check_classified(skb);
	if (airfair_cb(skb)->pkt_class == AIRFAIR_PKT_TCP_ACK ||
	    airfair_cb(skb)->pkt_class == AIRFAIR_PKT_TCP_DATA)
		check_window_rewrite(skb, s);
	if (flow->tail)
		flow->tail->next = skb;
	else
		flow->head = skb;
	flow->tail = skb;
	flow->qlen++;
	flow->backlog += len;
	sta.qlen++;
	sta.backlog += len;
	if (airfair_cb(skb)->pkt_class == AIRFAIR_PKT_TCP_ACK && mode) {
		dropped = airfair_ack_filter(&sch, &sta, flow, skb, mode);
		if (dropped) {
			ASSERT(!dropped->next);
			check_dropped(dropped, skb, flow, mode);
			n_dropped++;
			free(dropped);
		}
	}
	check_flows();
}

static void print_stats(void)
{
	fprintf(stderr, "fuzz_classify: %lu packets, %lu pure ACKs, %lu ACKs filtered, %lu windows lowered\n",
		n_packets, n_acks, n_dropped, n_windows);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (getenv("FUZZ_STATS"))
		atexit(print_stats);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_airfair_rate rate = { .mode = AIRFAIR_MODE_LEGACY };
	static const u16 legacy[] = { 60, 120, 240, 540 };
	struct stream s = { data, size };
	struct airfair_timing t;
	u8 cfg = take8(&s), mode;
	u32 loss;
	int f;

	memset(&q, 0, sizeof(q));
	memset(&sta, 0, sizeof(sta));
	q.cfg.delack = 1 + (cfg >> 4) % AIRFAIR_DELACK_MAX;
	q.cfg.upload = AIRFAIR_UPLOAD_ESTIMATED;
	mode = cfg % 3;			/* off, conservative, aggressive */
	if (airfair_timing_preset(AIRFAIR_PHY_11A, &t))
		abort();
	rate.legacy = legacy[(cfg >> 2) & 3];
	loss = (cfg & 0x80) ? 19661 : 0;
	if (airfair_sta_costs(&t, &rate, loss, loss, AIRFAIR_AC_BE,
			      q.cfg.delack, AIRFAIR_AMPDU_ONE, AIRFAIR_DEFAULT_MSS,
			      AIRFAIR_MODEL_PRECISE, &sta.costs))
		abort();
	for (f = 0; f < AIRFAIR_FLOWS_PER_STA; f++)
		sta.flows[f].wscale = -1;

	while (s.n) {
		u8 op = take8(&s);

		jiffies += op & 3;
		if (op < 0xc0)
			enqueue_one(&s, mode);
		else
			dequeue_one(op);
	}
	for (f = 0; f < AIRFAIR_FLOWS_PER_STA; f++)
		while (sta.flows[f].head)
			dequeue_one((u8)f);
	ASSERT(!sta.qlen && !sta.backlog);
	return 0;
}

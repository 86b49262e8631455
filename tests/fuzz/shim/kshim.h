/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-ins for the kernel interfaces sch_airfair's classifier and
 * ACK filter use, so that classify.c and ackfilter.c build unchanged into a
 * libFuzzer target. Only what those files touch: a linear sk_buff, the
 * qdisc cb, flow keys (filled by the target's own dissector), list and tree
 * node types for the structs in airfair.h. Everything here is single-threaded.
 */
#ifndef _FUZZ_KSHIM_H
#define _FUZZ_KSHIM_H

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>

#define HZ			1000
#define NSEC_PER_SEC		1000000000ULL
extern unsigned long jiffies;
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)

#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)

static inline u16 htons(u16 v) { return __builtin_bswap16(v); }
static inline u16 ntohs(u16 v) { return __builtin_bswap16(v); }
static inline u32 htonl(u32 v) { return __builtin_bswap32(v); }
static inline u32 ntohl(u32 v) { return __builtin_bswap32(v); }
#define cpu_to_be32(v)		((__be32)__builtin_bswap32(v))

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

/* Node types of the structs in airfair.h; the target never walks them. */
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
#define DECLARE_HASHTABLE(name, bits)	struct hlist_head name[1 << (bits)]
struct rb_node { unsigned long parent_color; struct rb_node *right, *left; };
struct rb_root_cached { struct rb_node *root, *leftmost; };
typedef struct { int locked; } spinlock_t;
struct codel_vars { u32 count, lastcount; bool dropping; u16 rec_inv_sqrt;
		    u64 first_above_time, drop_next, ldelay; };
struct codel_params { u64 target, ce_threshold, interval; u32 mtu; bool ecn; };
struct codel_stats { u32 maxpacket, drop_count, drop_len, ecn_mark, ce_mark; };
struct packet_type { u16 type; void *dev, *func; };
struct qdisc_watchdog { u64 last_expires; void *qdisc; };
struct net_device { int ifindex; };
struct Qdisc { void *priv; };

/*
 * A linear skb: data[0, len), the network header at network_header. A cloned
 * one shares data with another skb until skb_ensure_writable() copies it;
 * with fail_alloc set that copy fails as on memory pressure.
 */
struct skb_shared_info { u16 gso_size, gso_segs; };
struct sk_buff {
	struct sk_buff *next, *prev;
	unsigned int len;
	u16 network_header;
	unsigned char *data;
	char cb[48];
	struct skb_shared_info shinfo;
	unsigned int truesize;
	u8 ip_summed;
	bool cloned, fail_alloc;
	__wsum csum;
	unsigned char *own_data;	/* the copy skb_ensure_writable() made */
};

#define CHECKSUM_NONE		0
#define CHECKSUM_UNNECESSARY	1
#define CHECKSUM_COMPLETE	2
#define CHECKSUM_PARTIAL	3

static inline int skb_ensure_writable(struct sk_buff *skb, unsigned int len)
{
	unsigned char *copy;
	unsigned long off;

	if (len > skb->len)
		return -ENOMEM;
	if (!skb->cloned)
		return 0;
	if (skb->fail_alloc)
		return -ENOMEM;
	/* the data keeps its alignment, as pskb_expand_head() keeps headroom */
	off = (unsigned long)skb->data & 7;
	copy = malloc(off + skb->len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy + off, skb->data, skb->len);
	skb->data = copy + off;
	skb->own_data = copy;
	skb->cloned = false;
	return 0;
}

#define skb_shinfo(skb)		(&(skb)->shinfo)
static inline bool skb_is_gso(const struct sk_buff *skb)
{
	return skb->shinfo.gso_size;
}

static inline int skb_network_offset(const struct sk_buff *skb)
{
	return skb->network_header;
}

static inline void *skb_header_pointer(const struct sk_buff *skb, int offset,
				       int len, void *buffer)
{
	if (offset < 0 || len < 0 || (unsigned int)offset + len > skb->len)
		return NULL;
	memcpy(buffer, skb->data + offset, len);	/* as for a paged skb */
	return buffer;
}

static inline void skb_mark_not_on_list(struct sk_buff *skb)
{
	skb->next = NULL;
}

struct qdisc_skb_cb {
	struct { unsigned int pkt_len; u16 slave_dev_queue_mapping, tc_classid; };
#define QDISC_CB_PRIV_LEN 20
	unsigned char data[QDISC_CB_PRIV_LEN];
};

static inline struct qdisc_skb_cb *qdisc_skb_cb(const struct sk_buff *skb)
{
	return (struct qdisc_skb_cb *)skb->cb;
}

static inline void qdisc_cb_private_validate(const struct sk_buff *skb, int sz)
{
	BUILD_BUG_ON(sizeof(((struct sk_buff *)0)->cb) < sizeof(struct qdisc_skb_cb));
	if (sz > QDISC_CB_PRIV_LEN)
		__builtin_trap();
}

static inline unsigned int qdisc_pkt_len(const struct sk_buff *skb)
{
	return qdisc_skb_cb(skb)->pkt_len;
}

/* The flow keys classify.c reads; the fuzz target's dissector fills them. */
#define FLOW_DIS_IS_FRAGMENT		1
#define FLOW_DISSECTOR_F_STOP_AT_ENCAP	4
struct flow_keys {
	struct { u16 thoff; u16 addr_type; u32 flags; } control;
	struct { __be16 n_proto; u8 ip_proto; } basic;
	struct { u32 flow_label; } tags;
	struct { __be16 src, dst; } ports;
	struct { u8 src[16], dst[16]; } addrs;
};

bool skb_flow_dissect_flow_keys(const struct sk_buff *skb,
				struct flow_keys *keys, unsigned int flags);
u32 flow_hash_from_keys(struct flow_keys *keys);

/* <net/tcp.h> */
#define TCPOPT_NOP		1
#define TCPOPT_EOL		0
#define TCPOPT_MSS		2
#define TCPOPT_WINDOW		3
#define TCPOPT_TIMESTAMP	8
#define TCPOPT_MD5SIG		19
#define TCPOLEN_MSS		4
#define TCPOLEN_WINDOW		3
#define TCPOLEN_TIMESTAMP	10
#define TCPOLEN_TSTAMP_ALIGNED	12
#define TCP_MAX_WSCALE		14U
#define TCPHDR_FIN		0x01
#define TCPHDR_SYN		0x02
#define TCPHDR_RST		0x04
#define TCPHDR_PSH		0x08
#define TCPHDR_ACK		0x10
#define TCPHDR_URG		0x20
#define TCPHDR_ECE		0x40
#define TCPHDR_CWR		0x80
#define tcp_flag_byte(th)	(((u8 *)(th))[13])

static inline bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}
#define after(seq2, seq1)	before(seq1, seq2)

#endif

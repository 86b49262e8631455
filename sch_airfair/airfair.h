/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_airfair internals shared by the qdisc, the station table and the
 * packet classifier.
 */
#ifndef _SCH_AIRFAIR_H
#define _SCH_AIRFAIR_H

#include <linux/hashtable.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/rbtree.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/tcp.h>
#include <net/codel.h>
#include <net/flow_dissector.h>
#include <net/pkt_sched.h>
#include "airtime.h"

#define AIRFAIR_FLOWS_PER_STA	32	/* flow buckets of one station */
#define AIRFAIR_FLOW_WAYS	4	/* in sets of this many (airfair_flow_bucket) */
#define AIRFAIR_FLOW_IDLE	HZ	/* a TCP flow's state is kept this long idle */
#define AIRFAIR_STA_HASH_BITS	8
#define AIRFAIR_WEIGHT_DEFAULT	1
#define AIRFAIR_DEFAULT_MSS	1448
#define AIRFAIR_MAX_SEC_LEN	64	/* a key's bytes per MPDU (GCMP-256: 24) */
#define AIRFAIR_FLOW_RECENT	(10 * HZ)	/* stats count flows seen this recently */
/* airfair-feeder pushes every second or so: this long after its last push */
#define AIRFAIR_FEEDER_HOLD	(10 * HZ)
/*
 * pending-limit auto: start at AQL's per-station low threshold, grow by a
 * quarter on an underrun, shrink by 1/16 after a second without one, within
 * [min, AQL's PHY threshold] and never under the turn of the station to be
 * served.
 */
#define AIRFAIR_PENDING_AUTO_START_US	5000
#define AIRFAIR_PENDING_AUTO_MIN_US	1000
#define AIRFAIR_PENDING_AUTO_MAX_US	24000
#define AIRFAIR_PENDING_AUTO_HOLD_NS	NSEC_PER_SEC
/*
 * A turn of a station at an HT, VHT or HE rate, downloading: long enough
 * for the radio to build full A-MPDUs from what it holds for the station
 * (qdisc.c, airfair_turn_us).
 */
#define AIRFAIR_AGG_TURN_US		4000
/* utilisation auto (qdisc.c, airfair_meter_adapt) */
#define AIRFAIR_UTIL_AUTO_INTERVAL_NS	(100 * NSEC_PER_MSEC)
/*
 * Past startup, an interval lasts until the best rate would have let through
 * this many bursts of air, up to AIRFAIR_UTIL_AUTO_INTERVAL_MAX_NS: at a few
 * per cent of real time 100 ms carries a handful of frames, and the best of
 * such samples reads well above the air's rate.
 */
#define AIRFAIR_UTIL_AUTO_BURSTS	8
#define AIRFAIR_UTIL_AUTO_INTERVAL_MAX_NS	NSEC_PER_SEC
/*
 * Startup, as BBR's: the grant is twice the best rate until three intervals
 * not limited by demand have not raised it by a quarter. Entered afresh when
 * the best rate has fallen under half of what startup ended at.
 */
#define AIRFAIR_UTIL_AUTO_STARTUP_GAIN_Q8	512
#define AIRFAIR_UTIL_AUTO_STARTUP_FLAT	3
#define AIRFAIR_UTIL_AUTO_WIN		6	/* intervals the best rate is kept */
#define AIRFAIR_UTIL_AUTO_MIN_Q16	655	/* 1 % of real time */
/*
 * A pending figure that has not moved for this long while packets wait is
 * stale (a frame the driver freed without TX status is never subtracted):
 * from then on it counts from that level (pend_floor_us). This long, or four
 * times the longest it has stood still before moving or being taken for
 * stale (a radio sending long A-MPDUs at low rates, a dilated testbed
 * medium), up to the max: a live figure still for less than that is taken
 * for stale twice at most.
 */
#define AIRFAIR_PENDING_STALE_NS	(200 * NSEC_PER_MSEC)
#define AIRFAIR_PENDING_STALE_MAX_NS	(2 * NSEC_PER_SEC)
#define AIRFAIR_RTT_REF_US	50000	/* a TCP flow's RTT until one is measured */
/* Delayed-ACK EWMA weight: 1/8 per ACK (advances clamped to AIRFAIR_DELACK_MAX). */
#define AIRFAIR_DELACK_SHIFT	3
/*
 * Most air one packet is charged, so that a flow's s32 deficit cannot wrap
 * (an ACK carrying uploads, or merged ACKs, can stand for much more).
 */
#define AIRFAIR_COST_MAX_NS	NSEC_PER_SEC

/* What a packet is, as far as airtime is concerned. */
enum airfair_pkt_class {
	AIRFAIR_PKT_OTHER,
	AIRFAIR_PKT_UDP,
	AIRFAIR_PKT_TCP_DATA,
	AIRFAIR_PKT_TCP_ACK,	/* pure ACK: no payload, no SYN/FIN/RST */
};

/* Which way a TCP flow's data goes, inferred from what the AP sends. */
enum airfair_flow_dir {
	AIRFAIR_DIR_NONE,
	AIRFAIR_DIR_DOWN,	/* AP sends data to the station */
	AIRFAIR_DIR_UP,		/* AP only returns ACKs for the station's data */
};

enum airfair_flow_kind {
	AIRFAIR_FLOW_OTHER,
	AIRFAIR_FLOW_UDP,
	AIRFAIR_FLOW_TCP,
};

struct airfair_config {
	u32 limit;		/* packets */
	u32 memlimit;		/* bytes of truesize */
	struct airfair_timing timing;
	u8 model;		/* enum airfair_model */
	u16 utilisation;	/* per mille */
	u16 util_auto_max;	/* per mille: the ceiling of utilisation auto */
	u32 quantum_us;
	u8 delack;
	u8 ack_filter;
	u8 ack_prio;
	u8 defer_data;		/* best-effort data in AC_BK (leith-2005) */
	u32 tlas;		/* packets, 0 = off */
	u8 rtt_buffer;
	u32 target_us;
	u32 interval_us;
	u8 ecn;
	u32 max_stations;
	u32 sta_timeout_ms;
	u8 ampdu;
	u32 pending_limit_us;	/* 0 = no limit; AIRFAIR_PENDING_LIMIT_AUTO */
	u8 upload;		/* enum airfair_upload */
	u8 upload_window;
};

/* The AC the AP's bulk best-effort data goes out in (airfair_sta_dequeue()). */
static inline enum airfair_ac airfair_data_ac(const struct airfair_config *c)
{
	return c->defer_data ? AIRFAIR_AC_BK : AIRFAIR_AC_BE;
}

/*
 * Per-packet state kept in the skb while it waits in the qdisc. CoDel's
 * helpers (net/codel_qdisc.h, included by qdisc.c only) use the first bytes
 * as their struct codel_skb_cb; qdisc.c checks the size at build time.
 */
#define AIRFAIR_CODEL_CB_LEN	8
struct airfair_skb_cb {
	u8 codel[AIRFAIR_CODEL_CB_LEN];
	u32 cost_ns;
	u32 hash;		/* flow hash: tells flows sharing a bucket apart */
	u16 thoff;		/* transport header offset */
	u8 pkt_class:7;
	u8 rtt_timed:1;		/* its flow's egress half is timed from it */
	u8 acks_merged;		/* ACKs the ACK filter folded into this one */
};

static inline struct airfair_skb_cb *airfair_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct airfair_skb_cb));
	return (struct airfair_skb_cb *)qdisc_skb_cb(skb)->data;
}

/*
 * A packet without TCP goes at the station's rate and loss of when it leaves,
 * so it is costed at dequeue (qdisc.c): a UDP flood that CoDel cannot drain
 * fast enough holds seconds of it here, and costed at enqueue a station whose
 * link had got worse meanwhile paid its old price for all of them. A TCP
 * packet is costed at enqueue, where the upload data its ACK stands for is
 * counted, and CoDel keeps its wait near the target.
 */
static inline bool airfair_costed_at_dequeue(u8 pkt_class)
{
	return pkt_class == AIRFAIR_PKT_UDP || pkt_class == AIRFAIR_PKT_OTHER;
}

/*
 * The part of a queued pure ACK's charge that is an upload flow's data (Eq. 9,
 * plus what the ACK filter moved onto it), not the ACK's own airtime.
 */
static inline u32 airfair_ack_upload_ns(const struct airfair_sta_costs *c,
					const struct sk_buff *skb)
{
	u32 cost = airfair_cb(skb)->cost_ns;

	return cost - min_t(u32, cost, airfair_affine_ns(&c->ack,
							 qdisc_pkt_len(skb)));
}

struct airfair_flow {
	struct sk_buff *head;
	struct sk_buff *tail;
	struct list_head chain;		/* station's new_flows or old_flows */
	struct codel_vars cvars;
	s32 deficit;			/* ns of airtime */
	u32 qlen;
	u32 backlog;			/* bytes */
	u32 sent;			/* T-LAS's attained service: packets, upload frames too */
	u32 tag;			/* flow hash of the current occupant */
	u8 kind;			/* enum airfair_flow_kind */
	u8 dir;				/* enum airfair_flow_dir */
	s8 dir_score;			/* > 0 leans upload, < 0 download */
	/* Upload flows: learnt delayed-ACK factor from the ACK stream. */
	u32 last_ack_seq;
	u16 mss;
	u16 delack_x256;		/* EWMA of ACKed segments per ACK, x256 */
	s8 wscale;			/* the AP side's window scale, -1 unknown */
	u32 rtt_us;			/* passive RTT estimate, 0 = unknown */
	u32 path_rtt_us;		/* its wired half + the air's floor */
	u8 rtt_weight;			/* its weight in the station's mean */
	unsigned long last_seen;	/* jiffies of the last packet */
};

/*
 * Passive RTT estimation (rtt.c): the AP's side of a TCP flow, kept apart from
 * the queues in a small table with its own lock, so that the receive path can
 * update it without the qdisc's root lock. Direction is as seen at the AP:
 * EGRESS packets go to a station (through the qdisc), INGRESS come from one.
 */
enum {
	AIRFAIR_RTT_EGRESS,
	AIRFAIR_RTT_INGRESS,
};

/* Minimum over the current and the previous window. */
struct airfair_wmin {
	u32 cur;			/* us, 0 = no sample */
	u32 prev;
	unsigned long start;		/* jiffies the current window began */
};

/*
 * A flow's weight in its station's mean RTT: the samples its weaker half rests
 * on, up to this many (see rtt.c).
 */
#define AIRFAIR_RTT_FULL_WEIGHT	64

struct airfair_rtt_ent {
	u32 tag;			/* symmetric flow hash, 0 = free */
	u8 hs_state;			/* handshake timing */
	u8 hs_dir;			/* direction the SYN went */
	u8 ts_seen;			/* bit d: a TSval went direction d */
	u8 nr_samples[2];		/* per half, up to AIRFAIR_RTT_FULL_WEIGHT */
	unsigned long last_seen;	/* jiffies */
	u64 hs_ns;
	/* One timed TSval per direction, matched against the echoed TSecr. */
	u64 ts_ns[2];			/* when it went by, 0 = none timed */
	u32 ts_val[2];
	u32 last_tsval[2];
	bool ts_queued;			/* the timed egress packet is still here */
	bool ts_data;			/* and it carried data */
	/*
	 * Half round trips, indexed by the direction of the packet that
	 * starts them: [EGRESS] AP -> station -> AP, [INGRESS] AP -> server
	 * -> AP. The flow's RTT is their sum.
	 */
	struct airfair_wmin half[2];
	/* Upload data received since the flow's last egress packet. */
	u32 up_frames;
	u32 up_bytes;
	u8 sta_addr[ETH_ALEN];		/* where its egress packets go */
	/*
	 * Downloads: the station's ACKs seen by the receive hook give the
	 * flow's delayed-ACK factor (segments of down_seg bytes per ACK).
	 */
	u16 down_seg;			/* last data segment size sent, bytes */
	u16 down_d_x256;		/* EWMA of segments per ACK, 0 = none */
	u32 down_ack_seq;		/* the station's last cumulative ACK */
};

struct airfair_rtt {
	spinlock_t lock;		/* entries and counters */
	struct airfair_rtt_ent *ents;
	u32 nr_sets;			/* two-way sets */
	u32 samples;
	u32 untracked;			/* new flows that found no room */
	struct airfair_wmin air_floor;	/* least AP -> station -> AP half */
	/* timestamp echoes' AP -> station -> AP halves over their minimum */
	u32 below_min_us;		/* the least since it was last taken */
	u32 below_samples;		/* samples behind it */
	bool hooked;
	struct packet_type pt;		/* receive tap on the qdisc's device */
};

/* A flow's upload data as the receive hook counted it (rtt.c). */
struct airfair_upload_seen {
	bool tracked;			/* the flow has a record */
	u32 frames;
	u32 bytes;			/* L3, headers of every frame included */
};

/* What the receive hook learnt about a flow, for its egress packet (rtt.c). */
struct airfair_rtt_seen {
	u32 rtt_us;			/* 0 = no estimate yet */
	u32 path_rtt_us;		/* server half + the air's floor, 0 = none */
	u8 weight;			/* samples behind it (its weaker half) */
	u16 down_delack_x256;		/* the station's segments per ACK, 0 = none */
	bool timed;			/* the egress half is timed from this packet */
};

/* TCP options the estimator and the classifier use. */
struct airfair_tcp_opts {
	u16 mss;			/* 0 = none */
	s8 wscale;			/* -1 = none */
	bool ts;
	u32 tsval;
	u32 tsecr;
};

/* how long a station counts as busy, or as uploading, after its last packet */
#define AIRFAIR_BUSY_WINDOW	(HZ / 2)
/*
 * An upload's part of an equal share is smoothed over recounts (weight 1/4:
 * from a full share, five recounts without air make it light) and judged
 * with hysteresis: light under a quarter, heavy again from three eighths
 * (or from half a share in one recount).
 */
#define AIRFAIR_UP_SHARE_ONE	256	/* an equal share, Q8 */
#define AIRFAIR_UP_LIGHT_ENTER	(AIRFAIR_UP_SHARE_ONE / 4)
#define AIRFAIR_UP_LIGHT_LEAVE	(AIRFAIR_UP_SHARE_ONE * 3 / 8)

/*
 * mac80211's running counts of a station's PPDU attempts per AC (hook ABI
 * 6, docs/mac80211-hook.md): the attempts, the windows they waited in CWmin
 * + 1, their MPDUs at 2^20 / Mbit/s each, and those of one MPDU; they wrap.
 */
struct airfair_told {
	u32 ppdus[AIRFAIR_NUM_ACS];
	u32 windows[AIRFAIR_NUM_ACS];
	u32 data[AIRFAIR_NUM_ACS];
	u32 single[AIRFAIR_NUM_ACS];
	u32 ltfs[AIRFAIR_NUM_ACS];
};

/* what the settled reports' counts moved by, in all (class stats) */
struct airfair_told_sum {
	u64 ppdus, windows, data, single, ltfs;
};

struct airfair_sta {
	struct hlist_node hnode;	/* sched->sta_hash, by address */
	struct list_head node;		/* sched->free_stas or sched->all_stas */
	struct rb_node rb;		/* sched->active, by vtime */
	u8 addr[ETH_ALEN];
	bool in_use;
	bool active;			/* in sched->active */
	bool pinned;			/* has static settings: never aged out */
	u16 weight;
	u32 inv_weight;			/* 2^18 / weight: vtime per ns of air */
	u64 vtime;			/* airtime received / weight, scaled */
	unsigned long last_active;	/* jiffies */
	u32 auto_interval;		/* utilisation auto: last interval charged */

	/* rate and loss in use, and where they came from */
	struct tc_airfair_rate rate;
	u32 loss_q16;
	u32 expected_kbps;		/* rate control's, 0 = unknown */
	u32 pending_us;			/* last reported by the hook */
	u16 ampdu_x16;			/* hook: its MPDUs per PPDU, 1/16; 0 = unknown */
	u16 up_ampdu_x16;		/* hook: the same of what it sends */
	u16 ack_x16;			/* hook: MPDUs acked per PPDU, 1/16 */
	u32 ppdu_loss_q16;		/* hook: PPDUs with no ACK/BlockAck */
	u16 cw_x16;			/* hook: their window, mean 2^retry, 1/16 */
	bool told_valid;		/* hook: told is set */
	struct airfair_told told;	/* hook: its running counts, as last told */
	u64 own_charged_ns;		/* its frames' own air charged since then */
	u64 sent_bytes;			/* their bytes and packets, since then */
	u32 sent_pkts;
	u32 sent_mean_len;		/* bytes per packet at the last report */
	s64 settled_ns;			/* what the counts moved its charges */
	u64 told_air_ns;		/* what the settled counts told: air, */
	u64 told_wait_ns;		/* and the AIFS + backoff waited */
	struct airfair_told_sum told_sum;	/* the counts, summed */
	bool has_up_rate;		/* hook: up_rate, up_loss_q16 are its uplink's */
	bool has_sec_len;		/* hook: sec_len is its key's */
	u8 sec_len;			/* bytes its key adds to an MPDU */
	bool has_txop;			/* hook: txop_us are its interface's */
	u16 txop_us[AIRFAIR_NUM_ACS];	/* the AP's TXOP limits to it */
	struct tc_airfair_rate up_rate;
	u32 up_loss_q16;		/* its received frames' Retry share */
	u8 source;			/* enum airfair_source */
	unsigned long source_changed;	/* jiffies */
	struct airfair_sta_costs costs;
	u32 flow_quantum;		/* ns: one full-size data frame */

	u32 qlen;
	u32 backlog;
	u32 memory;			/* truesize of its queued packets */
	u64 airtime_ns;
	u64 packets;
	u64 bytes;
	u64 upload_frames;		/* observed upload data charged */
	u32 drops;
	u64 backlogged_ns;		/* time with packets queued, to backlog_since */
	u64 backlog_since;		/* ktime ns: when qlen last left 0 */
	unsigned long up_seen;		/* jiffies: an upload's ACK last queued */
	s64 cap_tokens_ns;		/* upload cap: its share of the grant */
	u64 cap_last_ns;		/* ktime ns: tokens last topped up */
	u64 cap_mark_air;		/* airtime_ns at the last recount */
	u16 up_share_q8;		/* smoothed part of an equal share */
	bool up_light;			/* its upload counts as light */

	struct list_head new_flows;
	struct list_head old_flows;
	struct airfair_flow flows[AIRFAIR_FLOWS_PER_STA];
};

struct airfair_sched {
	struct airfair_config cfg;
	struct codel_params cparams;
	struct codel_stats cstats;

	struct airfair_sta *stas;	/* max_stations + multicast + overflow */
	u32 nr_slots;
	DECLARE_HASHTABLE(sta_hash, AIRFAIR_STA_HASH_BITS);
	u32 sta_hash_seed;
	struct list_head free_stas;
	struct list_head all_stas;	/* in use, oldest first */
	u32 nr_stas;
	struct airfair_sta *mcast;
	struct airfair_sta *overflow;
	struct rb_root_cached active;	/* stations with packets, by vtime */
	struct airfair_sta *cur;	/* station in its turn, out of the tree */
	u64 cur_used;			/* ns of air it has used this turn */
	struct airfair_sta *dq_sta;	/* station codel_dequeue() works on */
	u64 vtime_floor;		/* vtime a newly active station starts from */
	unsigned long next_gc;		/* jiffies */

	/* airtime meter */
	struct qdisc_watchdog watchdog;
	s64 tokens_ns;
	u64 meter_last_ns;
	u32 util_q16;
	s64 burst_ns;
	s64 turn_burst_ns;		/* the meter's burst in this turn */

	/* utilisation auto: the grant follows the measured air rate */
	bool util_auto;
	u32 util_auto_max_q16;		/* cfg.util_auto_max */
	u8 auto_slot, auto_phase;
	u8 auto_stations;		/* stations charged this interval, up to 2 */
	bool auto_emptied;		/* the queue ran empty this interval */
	bool auto_upload;		/* it sent an upload's ACKs */
	bool auto_metered;		/* the meter held packets */
	bool auto_air_full;		/* pending-limit held packets */
	bool auto_startup;		/* growing from a low rate, gain 2 */
	unsigned long up_seen;		/* jiffies: any station's upload ACK queued */
	u8 auto_flat;			/* startup intervals without growth */
	u32 auto_startup_q16;		/* best at the last growth, or at exit */
	u32 auto_best_q16;		/* the best of auto_rate_q16 */
	s64 auto_epoch_tokens;		/* tokens_ns as the interval began */
	u32 auto_interval;		/* intervals counted */
	u64 auto_epoch_ns;		/* start of the current interval */
	u64 auto_epoch_air;		/* airtime_ns then */
	u32 auto_rate_q16[AIRFAIR_UTIL_AUTO_WIN];	/* charged air per real time */
	/* without the hook: the queue below, as the timed flows saw it */
	u32 below_us;			/* its least excess, last look */
	u32 below_cuts;			/* times the grant was cut for it */
	u32 phy_pending_us;		/* last reported by the hook */

	/* pending-limit auto (qdisc.c, airfair_pending_adapt) */
	u32 pend_limit_us;		/* the limit in force */
	bool pend_held;			/* packets held back since it last let go */
	u64 pend_epoch_ns;		/* since the last underrun or decrease */
	u32 pend_underruns;
	u32 pend_last_us;		/* the PHY's figure at the last look */
	u64 pend_moved_ns;		/* when it last changed */
	u64 pend_still_ns;		/* longest it stood still while held */
	u32 pend_floor_us;		/* stale part of the figure, not counted */
	u32 pend_stale;			/* times the figure stood still while held */

	u32 memory_used;
	bool feeder_seen;		/* airfair-feeder has pushed stations */
	unsigned long feeder_until;	/* jiffies: it counts as running till then */
	u32 new_flows_seen;
	u64 airtime_ns;
	u32 drop_limit;
	u32 drop_memlimit;
	u32 drop_aqm;
	u32 drop_rtt;
	u32 drop_ackfilter;
	u32 ecn_mark;
	u32 meter_stalls;
	u32 pending_stalls;
	u32 window_clamps;
	u32 sta_overflow;

	/* stations that sent or received in the last AIRFAIR_BUSY_WINDOW */
	u32 busy_weight;		/* sum of their weights, at least 1 */
	u32 cap_stalls;			/* dequeues the upload caps held back */
	u32 cap_weight;			/* weights the caps share the grant by */
	u32 cap_avail_q16;		/* the grant less what light stations took */
	u64 cap_mark_ns;		/* ktime ns of the last recount */
	unsigned long next_busy;	/* jiffies of the next recount */

	struct airfair_rtt rtt;
};

/*
 * One cumulative ACK's advance of @adv bytes, in segments of @seg bytes, into
 * the EWMA @d_x256 of segments per ACK (gong-wu-williamson's d); 0 = none yet.
 */
static inline u16 airfair_delack_update(u16 d_x256, u32 adv, u32 seg)
{
	u32 segs = min_t(u32, div_u64((u64)adv << 8, seg),
			 AIRFAIR_DELACK_MAX << 8);

	segs = max_t(u32, segs, 1 << 8);
	if (!d_x256)
		return segs;
	return d_x256 + (((int)segs - (int)d_x256) >> AIRFAIR_DELACK_SHIFT);
}

/* station.c */
int airfair_stas_alloc(struct airfair_sched *q, u32 max_stations);
void airfair_stas_free(struct airfair_sched *q);
struct airfair_sta *airfair_sta_find(struct airfair_sched *q, const u8 *addr);
struct airfair_sta *airfair_sta_get(struct airfair_sched *q, const u8 *addr);
int airfair_costs_for(const struct airfair_config *c,
		      const struct tc_airfair_rate *rate, u32 loss_q16,
		      struct airfair_sta_costs *out);
int airfair_config_costable(const struct airfair_sched *q,
			    const struct airfair_config *c);
void airfair_sta_update_costs(struct airfair_sched *q, struct airfair_sta *sta);
s64 airfair_sta_settle_ns(struct airfair_sched *q, struct airfair_sta *sta,
			  const struct airfair_told *now, unsigned int acs);
void airfair_settle(struct airfair_sched *q, struct airfair_sta *sta, s64 ns);
u16 airfair_sta_ampdu(const struct airfair_config *c,
		      const struct airfair_sta *sta);
u16 airfair_sta_up_ampdu(const struct airfair_config *c,
			 const struct airfair_sta *sta);
void airfair_sta_set_weight(struct airfair_sta *sta, u16 weight);
void airfair_sta_release(struct airfair_sched *q, struct airfair_sta *sta);
void airfair_stas_gc(struct airfair_sched *q);
void airfair_stas_recompute(struct airfair_sched *q);

/* classify.c */
u32 airfair_flow_hash(const struct sk_buff *skb, struct flow_keys *keys);
u32 airfair_l3_end(const struct sk_buff *skb, const struct flow_keys *keys);
#define AIRFAIR_TCPOPT_AO	29	/* RFC 5925; TCPOPT_AO from 6.7 */
bool airfair_tcp_lower_window(struct sk_buff *skb, u32 thoff, __be16 win);
void airfair_tcp_options(const struct sk_buff *skb, const struct tcphdr *th,
			 u32 thoff, struct airfair_tcp_opts *o);
struct airfair_flow *airfair_classify(struct airfair_sched *q,
				      struct airfair_sta *sta,
				      struct sk_buff *skb);
u32 airfair_l3_len(const struct sk_buff *skb, u32 *segs);
u32 airfair_flow_cost(const struct airfair_sched *q,
		      const struct airfair_sta *sta,
		      const struct airfair_flow *flow,
		      const struct sk_buff *skb, u8 pkt_class,
		      const struct airfair_upload_seen *up);

/* ackfilter.c */
struct sk_buff *airfair_ack_filter(struct Qdisc *sch, struct airfair_sta *sta,
				   struct airfair_flow *flow, struct sk_buff *skb,
				   u8 mode);

/* rtt.c */
s64 airfair_rtt_share(const struct airfair_sched *q,
		      const struct airfair_flow *flow);
int airfair_rtt_init(struct Qdisc *sch, u32 max_stations);
void airfair_rtt_destroy(struct Qdisc *sch);
void airfair_rtt_egress(struct airfair_sched *q, u32 hash, const u8 *sta_addr,
			const struct tcphdr *th,
			const struct airfair_tcp_opts *o, u32 seg,
			struct airfair_rtt_seen *seen,
			struct airfair_upload_seen *up);
void airfair_rtt_dequeued(struct airfair_sched *q, u32 hash);
u32 airfair_rtt_below_take(struct airfair_sched *q, u32 *min_us);

/* hook.c: the optional mac80211 TX report hook (docs/mac80211-hook.md) */
void airfair_hook_init(void);
void airfair_hook_exit(void);
bool airfair_hook_bound(void);
int airfair_hook_query(struct net_device *dev, const u8 *addr,
		       u32 *expected_kbps, u32 *sta_pending_us,
		       u32 *phy_pending_us);

/* qdisc.c */
void airfair_unqueued(struct Qdisc *sch, struct airfair_sta *sta,
		      struct airfair_flow *flow, struct sk_buff *skb);

#endif /* _SCH_AIRFAIR_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair: airtime-fair queueing for WiFi access points.
 *
 * Packets are queued per station (destination MAC) and, within a station, per
 * flow. Each packet is charged its expected airtime (the airtime model in
 * airtime.c: direct + indirect time, TCP ACK airtime, upload data behind an
 * upload flow's ACKs). Stations are served in order of virtual time (airtime
 * received divided by weight), kept in an rbtree: O(log n) per packet, and a
 * backlogged station never trails another by more than one turn (a quantum,
 * longer at aggregating rates) plus one packet's cost, scaled by the weights
 * (start-time fair queueing bound; see docs/qdisc.md). Within a station,
 * flows are served by airtime deficit round robin with new-flow priority
 * (optionally for the first N packets, T-LAS) and per-flow CoDel. Dequeues
 * are metered by airtime in real time because mac80211 never stops the
 * netdev queue: without the meter the backlog would sit in mac80211's
 * queues, where nothing here could schedule it.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/codel.h>
#include <net/codel_impl.h>
#include <net/codel_qdisc.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include "airfair.h"
#include "compat.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static const struct airfair_config airfair_defaults = {
	.limit = 10240,
	.memlimit = 32 << 20,
	.model = AIRFAIR_MODEL_PRECISE,
	.utilisation = AIRFAIR_UTIL_AUTO,	/* the grant follows the air rate */
	.util_auto_max = AIRFAIR_UTIL_AUTO_MAX_DEFAULT,
	.quantum_us = 1000,
	.delack = 2,
	.ack_filter = AIRFAIR_ACK_FILTER_CONSERVATIVE,
	.ack_prio = 1,
	.defer_data = 1,
	.tlas = 50,	/* gong-wu-williamson's threshold */
	.rtt_buffer = 0,	/* opt-in: see rtt.c and docs/qdisc.md */
	.target_us = 5000,
	.interval_us = 100000,
	.ecn = 1,
	.max_stations = 128,
	.sta_timeout_ms = 60000,
	.ampdu = 0,	/* auto */
	.pending_limit_us = AIRFAIR_PENDING_LIMIT_AUTO,
	.upload = AIRFAIR_UPLOAD_OBSERVED,
	.upload_window = 1,
};

#define AIRFAIR_DEFAULT_PHY	AIRFAIR_PHY_11N_5G

/* ---------------------------------------------------------------------------
 * Queues
 */

static void flow_queue_add(struct airfair_flow *flow, struct sk_buff *skb)
{
	if (!flow->head)
		flow->head = skb;
	else
		flow->tail->next = skb;
	flow->tail = skb;
	skb->next = NULL;
}

static struct sk_buff *flow_queue_pop(struct airfair_flow *flow)
{
	struct sk_buff *skb = flow->head;

	flow->head = skb->next;
	skb_mark_not_on_list(skb);
	return skb;
}

/* Account for a packet leaving a flow's queue, whatever becomes of it. */
void airfair_unqueued(struct Qdisc *sch, struct airfair_sta *sta,
		      struct airfair_flow *flow, struct sk_buff *skb)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 len = qdisc_pkt_len(skb);

	flow->qlen--;
	flow->backlog -= len;
	if (!--sta->qlen)
		sta->backlogged_ns += ktime_get_ns() - sta->backlog_since;
	sta->backlog -= len;
	sch->q.qlen--;
	sch->qstats.backlog -= len;
	q->memory_used -= skb->truesize;
	sta->memory -= skb->truesize;
}

static struct sk_buff *airfair_codel_dequeue(struct codel_vars *vars, void *ctx)
{
	struct Qdisc *sch = ctx;
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_flow *flow = container_of(vars, struct airfair_flow, cvars);
	struct sk_buff *skb;

	if (!flow->head)
		return NULL;
	skb = flow_queue_pop(flow);
	airfair_unqueued(sch, q->dq_sta, flow, skb);
	return skb;
}

/*
 * The meter's debt is bounded by the most one packet is charged (its upload
 * carry is capped, rtt.c), so no single packet holds everyone back for longer
 * and the watchdog's delay arithmetic cannot overflow, however long the
 * qdisc runs.
 */
#define AIRFAIR_METER_DEBT_MAX_NS	AIRFAIR_COST_MAX_NS

/* Charge the station in its turn (out of the active tree) @cost ns of air. */
static void airfair_charge(struct airfair_sched *q, struct airfair_sta *sta,
			   u32 cost)
{
	sta->vtime += ((u64)cost * sta->inv_weight) >> 10;
	sta->airtime_ns += cost;
	if (q->util_auto && sta->auto_interval != q->auto_interval &&
	    sta != q->mcast) {
		sta->auto_interval = q->auto_interval;
		q->auto_stations = min_t(u8, q->auto_stations + 1, 2);
	}
	q->airtime_ns += cost;
	q->cur_used += cost;
	sta->cap_tokens_ns = max_t(s64, sta->cap_tokens_ns - cost,
				   -AIRFAIR_METER_DEBT_MAX_NS);
	/* Unmetered, nothing accrues: switching the meter on starts it even. */
	if (q->util_q16)
		q->tokens_ns = max_t(s64, q->tokens_ns - cost,
				     -AIRFAIR_METER_DEBT_MAX_NS);
}

static void airfair_codel_drop(struct sk_buff *skb, void *ctx)
{
	struct Qdisc *sch = ctx;
	struct airfair_sched *q = qdisc_priv(sch);
	const struct airfair_skb_cb *cb = airfair_cb(skb);

	/*
	 * An upload flow's ACK stands for data the station has already sent
	 * over the air: dropping the ACK does not give that airtime back.
	 */
	if (cb->pkt_class == AIRFAIR_PKT_TCP_ACK)
		airfair_charge(q, q->dq_sta,
			       airfair_ack_upload_ns(&q->dq_sta->costs, skb));
	q->drop_aqm++;
	q->dq_sta->drops++;
	kfree_skb(skb);
	qdisc_qstats_drop(sch);
}

/* Sort a backlogged station into the active tree at its virtual time. */
static void airfair_sta_insert(struct airfair_sched *q, struct airfair_sta *sta)
{
	struct rb_node **p = &q->active.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*p) {
		struct airfair_sta *s = rb_entry(*p, struct airfair_sta, rb);

		parent = *p;
		if (sta->vtime < s->vtime) {
			p = &parent->rb_left;
		} else {
			p = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&sta->rb, parent, p);
	rb_insert_color_cached(&sta->rb, &q->active, leftmost);
	sta->active = true;
}

static bool airfair_sta_uploading(const struct airfair_sta *sta)
{
	return time_before(jiffies, sta->up_seen + AIRFAIR_BUSY_WINDOW);
}

/*
 * What a station coming back from empty keeps of the air it missed, per
 * weight: wireless fair queueing's bounded lag. On a download its queue here
 * runs empty mostly while its TCP ACKs wait out DCF in its own uplink, with
 * the data they release still to come; with no credit it is max-min fair and
 * short of an equal share. Of the order of the longer such stalls, in air.
 */
#define AIRFAIR_LAG_NS		(64 * NSEC_PER_MSEC)

/*
 * A station that has packets again: credit for the air it missed, at most
 * the lag. None for an upload (its queue here is its ACKs, whose running
 * empty says nothing of the upload's demand at the station) or group frames.
 */
static void airfair_sta_activate(struct airfair_sched *q, struct airfair_sta *sta)
{
	u64 lag = 0, floor;

	if (sta != q->mcast && !airfair_sta_uploading(sta))
		lag = (AIRFAIR_LAG_NS * sta->inv_weight) >> 10;
	floor = q->vtime_floor - min(q->vtime_floor, lag);
	if (sta->vtime < floor)
		sta->vtime = floor;
	airfair_sta_insert(q, sta);
}

static void airfair_sta_deactivate(struct airfair_sched *q, struct airfair_sta *sta)
{
	rb_erase_cached(&sta->rb, &q->active);
	RB_CLEAR_NODE(&sta->rb);
	sta->active = false;
}

/*
 * Move a station's virtual time by @ns of air it took beyond what it was
 * charged (less, if negative). A station waiting in the tree is re-sorted
 * and keeps a refund; an idle one loses it on its return, as it would any
 * credit.
 */
void airfair_settle(struct airfair_sched *q, struct airfair_sta *sta, s64 ns)
{
	u64 dv = ((u64)abs(ns) * sta->inv_weight) >> 10;
	bool active = sta->active;

	if (!ns)
		return;
	if (active)
		airfair_sta_deactivate(q, sta);
	if (ns > 0)
		sta->vtime += dv;
	else
		sta->vtime -= min(sta->vtime, dv);
	sta->settled_ns += ns;
	if (active)
		airfair_sta_insert(q, sta);
}

/*
 * A station whose last packet has left: take its flows off the schedule now,
 * as DRR would on finding them empty, instead of leaving them for the next
 * dequeue to walk past. Its next packets start new (sparse) flows.
 */
static void airfair_sta_drained(struct airfair_sta *sta)
{
	struct airfair_flow *flow, *tmp;

	list_for_each_entry_safe(flow, tmp, &sta->new_flows, chain)
		list_del_init(&flow->chain);
	list_for_each_entry_safe(flow, tmp, &sta->old_flows, chain)
		list_del_init(&flow->chain);
}

/* ---------------------------------------------------------------------------
 * Enqueue
 */

/*
 * Stations that count as busy for the upload window: active in the last
 * AIRFAIR_BUSY_WINDOW, recounted every AIRFAIR_BUSY_RECOUNT (the table's
 * in-use list, O(stations) a few times a second, off the per-packet path).
 */
#define AIRFAIR_BUSY_RECOUNT	(HZ / 10)

static bool airfair_uploads_seen(const struct airfair_sched *q)
{
	return time_before(jiffies, q->up_seen + AIRFAIR_BUSY_WINDOW);
}

/*
 * How long a station's turn lasts. A radio aggregates what it holds for a
 * station when its PPDU starts, so a turn of one quantum (a few frames at
 * HT rates) leaves the A-MPDUs that short and every one of them pays an
 * access. At an HT, VHT or HE rate a turn lasts AIRFAIR_AGG_TURN_US, but
 * not while the station uploads: its turn is then mostly the ACKs that
 * release its upload data, which would come in bursts as long.
 */
static u32 airfair_turn_us(const struct airfair_sched *q,
			   const struct airfair_sta *sta)
{
	u32 us = q->cfg.quantum_us;

	if (sta->rate.mode != AIRFAIR_MODE_LEGACY && q->cfg.ampdu != 1 &&
	    !airfair_sta_uploading(sta))
		us = max_t(u32, us, AIRFAIR_AGG_TURN_US);
	return us;
}

static u64 airfair_turn_ns(const struct airfair_sched *q,
			   const struct airfair_sta *sta)
{
	return (u64)airfair_turn_us(q, sta) * NSEC_PER_USEC;
}

/* the mac80211 hook's pending airtime holds the backlog here */
static bool airfair_hook_backpressure(const struct airfair_sched *q)
{
	return q->cfg.pending_limit_us && airfair_hook_bound();
}

/*
 * Whether a station's upload counts as light, from the air it took since the
 * last recount (@used_w: times the busy stations' weight) and the grant of
 * that time. An upload that takes little may be held back by the other
 * stations' DCF wins, not by its own demand, which this qdisc cannot see:
 * light only under a quarter of an equal share, over some recounts. Judged
 * per recount (100 ms, a few frames of a slow upload), a steady upload near
 * the line flipped between light and capped, and the caps kept a fifth of the
 * grant from a bulk upload beside it; hence the smoothing and hysteresis.
 * But half a share in one recount is heavy at once: where a recount holds
 * one or two of a slow upload's ACKs (a time-dilated medium), the smoothed
 * share stayed light through them, and its cap went to the others.
 */
static bool airfair_up_light(struct airfair_sta *sta, u64 used_w, u64 grant_ns)
{
	u64 den = grant_ns * sta->weight;
	u32 share = AIRFAIR_UP_SHARE_ONE * 4;

	if (used_w / 4 < den)
		share = div64_u64(used_w * AIRFAIR_UP_SHARE_ONE, den);
	sta->up_share_q8 = (3 * sta->up_share_q8 + share) / 4;
	if (share >= AIRFAIR_UP_SHARE_ONE / 2 ||
	    sta->up_share_q8 >= AIRFAIR_UP_LIGHT_LEAVE)
		sta->up_light = false;
	else if (sta->up_share_q8 < AIRFAIR_UP_LIGHT_ENTER)
		sta->up_light = true;
	return sta->up_light;
}

/*
 * Also the upload caps' shares, max-min: a light busy station keeps what it
 * took since the last recount, and the rest of the grant (at least half of
 * it) is shared by weight among the others, so that no cap keeps air for a
 * station that does not want it. Light: nothing queued here and less than
 * half an equal share taken; for a station with an upload in progress, see
 * airfair_up_light().
 */
static void airfair_busy_recount(struct airfair_sched *q)
{
	unsigned long since = jiffies - AIRFAIR_BUSY_WINDOW;
	u64 now = ktime_get_ns(), elapsed = now - q->cap_mark_ns;
	u64 grant_ns = (elapsed * q->util_q16) >> 16, light_ns = 0, used;
	struct airfair_sta *sta;
	u32 w = 0, heavy = 0;
	bool light;

	list_for_each_entry(sta, &q->all_stas, node)
		if (time_after(sta->last_active, since))
			w += sta->weight;
	list_for_each_entry(sta, &q->all_stas, node) {
		used = sta->airtime_ns - sta->cap_mark_air;
		sta->cap_mark_air = sta->airtime_ns;
		if (!time_after(sta->last_active, since))
			continue;
		if (airfair_sta_uploading(sta)) {
			light = airfair_up_light(sta, used * w, grant_ns);
		} else {
			sta->up_share_q8 = AIRFAIR_UP_SHARE_ONE;
			sta->up_light = false;
			light = !sta->qlen && 2 * used * w < grant_ns * sta->weight;
		}
		if (light)
			light_ns += used;
		else
			heavy += sta->weight;
	}
	q->busy_weight = max(w, 1U);
	q->cap_weight = max(heavy, 1U);
	/* what the light stations took, at most half the grant */
	light_ns = elapsed ? div64_u64(light_ns << 16, elapsed) : 0;
	q->cap_avail_q16 = q->util_q16 - min_t(u64, light_ns, q->util_q16 / 2);
	q->cap_mark_ns = now;
	q->next_busy = jiffies + AIRFAIR_BUSY_RECOUNT;
}

/*
 * Upload window (docs/qdisc.md): bound the receive window an upload flow's
 * ACK advertises by what its station sends at its share of the air in four
 * times the flow's path RTT (rtt.c: without the queue the station keeps)
 * plus eight AQM targets (the hold the ACKs may see), in full-size frames at
 * the station's rate, at least two. Holding ACKs back only slows a sender
 * while its window is full, and a sender that loses nothing keeps growing its
 * window: without a bound, the window and not the schedule decides its share
 * of the air. A bound above what the share needs only lengthens the hold; one
 * below would leave the share unused, hence the margins.
 *
 * A station alone also gets the frames of two ACKs on top: an ACK the meter
 * holds waits for its d frames' air over the grant, and a window without
 * them keeps the upload under the grant, which utilisation auto then
 * measures lower, and the window follows it down (a lone upload locked in
 * at a tenth of its rate, its window at two frames). With others active the
 * extra frames are the slow stations' gain: the window decides again (the
 * testbed's uploads: the 6 Mbit/s station took 43 % of the air).
 */
#define AIRFAIR_UPLOAD_WIN_MIN	2
#define AIRFAIR_UPLOAD_WIN_ACKS	2

/* the meter's grant in per mille of real time (1000 unmetered) */
static u32 airfair_util_permille(const struct airfair_sched *q)
{
	if (!q->util_auto)
		return q->cfg.utilisation ?: 1000;
	return max_t(u32, ((u64)q->util_q16 * 1000) >> 16, 1);
}

static void airfair_upload_window(struct airfair_sched *q,
				  const struct airfair_sta *sta,
				  const struct airfair_flow *flow,
				  struct sk_buff *skb)
{
	u32 thoff = airfair_cb(skb)->thoff, util = airfair_util_permille(q);
	u32 rtt = flow->path_rtt_us ?: AIRFAIR_RTT_REF_US;
	/*
	 * With the grant measured (auto), the share is known well enough for a
	 * tight bound: two base RTTs and two AQM targets.
	 */
	u64 span = q->util_auto ? 2ULL * rtt + 2ULL * q->cfg.target_us :
		   4ULL * rtt + 8ULL * q->cfg.target_us;
	u32 frame_ns = max(sta->costs.up_data_ns, 1U);
	u64 air_ns, frames, bytes;
	__be16 win;

	if (time_after(jiffies, q->next_busy))
		airfair_busy_recount(q);
	/* per mille of real time x us = ns of air */
	air_ns = div_u64((u64)util * sta->weight * span, q->busy_weight);
	frames = div_u64(air_ns, frame_ns);
	if (sta->weight >= q->busy_weight)
		frames += DIV_ROUND_UP(AIRFAIR_UPLOAD_WIN_ACKS *
				       flow->delack_x256, 256);
	frames = max_t(u64, frames, AIRFAIR_UPLOAD_WIN_MIN);
	bytes = min_t(u64, frames * flow->mss, U32_MAX);
	win = htons(min_t(u64, max_t(u64, bytes >> flow->wscale, 1), 0xffff));
	if (airfair_tcp_lower_window(skb, thoff, win))
		q->window_clamps++;
}

/*
 * May a packet to an address the table does not hold create a station?
 * Only for a station something knows: with the mac80211 hook, one mac80211
 * has; while airfair-feeder keeps the table, none (the feeder adds the
 * stations that associate). Otherwise (plain tc, a wired device) any
 * unicast address is learnt.
 */
static bool airfair_sta_may_learn(struct Qdisc *sch, const u8 *addr)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 kbps, sta_us, phy_us;
	int err;

	err = airfair_hook_query(qdisc_dev(sch), addr, &kbps, &sta_us, &phy_us);
	if (err != -EOPNOTSUPP)
		return !err;
	return !(q->feeder_seen && time_before(jiffies, q->feeder_until));
}

static struct airfair_sta *airfair_classify_sta(struct Qdisc *sch,
						struct sk_buff *skb)
{
	struct airfair_sched *q = qdisc_priv(sch);
	const struct ethhdr *eth;
	struct airfair_sta *sta;

	if (skb->len < ETH_HLEN)
		return q->mcast;
	eth = (const struct ethhdr *)skb->data;
	if (is_multicast_ether_addr(eth->h_dest))
		return q->mcast;
	if (time_after(jiffies, q->next_gc))
		airfair_stas_gc(q);
	sta = airfair_sta_find(q, eth->h_dest);
	if (!sta && airfair_sta_may_learn(sch, eth->h_dest))
		sta = airfair_sta_get(q, eth->h_dest);
	if (sta)
		return sta;
	q->sta_overflow++;
	return q->overflow;
}

/*
 * A station that a drop left without packets: out of the active tree, as if
 * its last packet had been dequeued, so the table never holds an active
 * station with nothing queued (GC would find it idle). The station in its
 * turn is left to the dequeue that finds it empty.
 */
static void airfair_sta_emptied(struct airfair_sched *q, struct airfair_sta *sta)
{
	if (sta->qlen)
		return;
	if (sta->active)
		airfair_sta_deactivate(q, sta);
	if (sta != q->cur)
		airfair_sta_drained(sta);
}

/* The station holding the most bytes; on a tie, the first found. */
static struct airfair_sta *airfair_fattest_sta(struct airfair_sched *q)
{
	struct airfair_sta *fat = NULL;
	u32 i;

	for (i = 0; i < q->nr_slots; i++) {
		struct airfair_sta *sta = &q->stas[i];

		if (sta->qlen && (!fat || sta->backlog > fat->backlog))
			fat = sta;
	}
	return fat;
}

/*
 * The flow to drop from when the queue is over its limits. With rtt-buffer,
 * each TCP flow is entitled to a share of the buffer in proportion to its
 * RTT (kliazovich-rdqm); the flow furthest above its share loses. A sparse
 * flow (one packet queued) is never chosen while another flow has more.
 */
static struct airfair_flow *airfair_victim_flow(struct airfair_sched *q,
						struct airfair_sta *sta)
{
	struct airfair_flow *victim = NULL, *sparse = NULL;
	s64 worst = S64_MIN;
	int i;

	for (i = 0; i < AIRFAIR_FLOWS_PER_STA; i++) {
		struct airfair_flow *flow = &sta->flows[i];
		s64 over;

		if (!flow->qlen)
			continue;
		if (flow->qlen <= 1) {
			sparse = flow;
			continue;
		}
		over = (s64)flow->backlog;
		if (q->cfg.rtt_buffer && flow->kind == AIRFAIR_FLOW_TCP)
			over -= airfair_rtt_share(q, flow);
		if (over > worst) {
			worst = over;
			victim = flow;
		}
	}
	return victim ?: sparse;
}

/*
 * The overflow class (unknown destinations) holds at most this share of
 * memlimit: a flood to made-up addresses cannot take the memory, and with
 * it the limit drops, of the real stations.
 */
#define AIRFAIR_OVERFLOW_MEM_SHIFT	3

static bool airfair_overflow_over(const struct airfair_sched *q)
{
	return q->overflow->memory >
	       q->cfg.memlimit >> AIRFAIR_OVERFLOW_MEM_SHIFT;
}

/*
 * Drop one packet to get back under the limits, from the overflow class if
 * it is over its share, else from the station holding the most bytes;
 * returns it (queued to free).
 */
static struct sk_buff *airfair_drop_one(struct Qdisc *sch,
					struct sk_buff **to_free)
{
	struct airfair_sched *q = qdisc_priv(sch);
	bool over_mem = q->memory_used > q->cfg.memlimit ||
			airfair_overflow_over(q);
	struct airfair_sta *sta = airfair_overflow_over(q) ? q->overflow :
				  airfair_fattest_sta(q);
	struct airfair_flow *flow;
	struct sk_buff *skb;

	if (WARN_ON_ONCE(!sta))
		return NULL;
	flow = airfair_victim_flow(q, sta);
	if (WARN_ON_ONCE(!flow))
		return NULL;
	skb = flow_queue_pop(flow);
	airfair_unqueued(sch, sta, flow, skb);
	sta->drops++;
	if (q->cfg.rtt_buffer && flow->kind == AIRFAIR_FLOW_TCP)
		q->drop_rtt++;
	else if (over_mem)
		q->drop_memlimit++;
	else
		q->drop_limit++;
	qdisc_qstats_drop(sch);
	airfair_sta_emptied(q, sta);
	__qdisc_drop(skb, to_free);
	return skb;
}

/*
 * Drop until under both limits (a packet of large truesize may take several),
 * at most AIRFAIR_DROP_BATCH per call. Returns true if @skb, just queued, was
 * among them. The parents are told by the caller.
 */
#define AIRFAIR_DROP_BATCH	64

static bool airfair_drop_over_limits(struct Qdisc *sch, struct sk_buff *skb,
				     struct sk_buff **to_free)
{
	struct airfair_sched *q = qdisc_priv(sch);
	bool own = false;
	int n;

	for (n = 0; n < AIRFAIR_DROP_BATCH; n++) {
		struct sk_buff *dropped;

		if (sch->q.qlen <= q->cfg.limit &&
		    q->memory_used <= q->cfg.memlimit &&
		    !airfair_overflow_over(q))
			break;
		dropped = airfair_drop_one(sch, to_free);
		if (!dropped)
			break;
		own |= dropped == skb;
	}
	return own;
}

/*
 * skb->priority 256 + UP asks cfg80211_classify8021d() for 802.1d priority UP
 * directly, whatever the DSCP says. UP 6 is AC_VO, UP 1 AC_BK.
 */
#define AIRFAIR_PRIO_VOICE	(256 + 6)
#define AIRFAIR_PRIO_BACKGROUND	(256 + 1)

/*
 * Files @skb in priority @prio of access category @ac. mac80211 takes the
 * frame's TID from skb->priority and its hardware queue, whose EDCA
 * parameters the radio contends with, from the queue mapping: 6.12, and
 * 6.1 for iTXQ drivers, choose the mapping again after the qdisc; 6.1 for
 * the others keeps the one ndo_select_queue() chose before it, and the
 * frame went out with one AC's TID from another's queue. So where airfair
 * feeds a wireless device's queues (not one queue of mq), the mapping
 * moves too.
 */
static void airfair_set_prio(const struct Qdisc *sch, struct sk_buff *skb,
			     u32 prio, enum airfair_ac ac)
{
	const struct net_device *dev = qdisc_dev(sch);

	skb->priority = prio;
	if (dev->ieee80211_ptr && !(sch->flags & TCQ_F_ONETXQUEUE) &&
	    ac < dev->real_num_tx_queues)
		skb_set_queue_mapping(skb, ac);
}

/* 802.1d priorities 0 and 3, as mac80211 files them before the qdisc */
static bool airfair_prio_best_effort(u32 prio)
{
	return prio == 0 || prio == 3;
}

static int airfair_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			   struct sk_buff **to_free)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_sta *sta = airfair_classify_sta(sch, skb);
	struct airfair_flow *flow = airfair_classify(q, sta, skb);
	struct airfair_skb_cb *cb = airfair_cb(skb);
	u32 len = qdisc_pkt_len(skb), prev_qlen, prev_backlog;
	bool is_ack = cb->pkt_class == AIRFAIR_PKT_TCP_ACK;
	struct sk_buff *acked;

	if (is_ack) {
		/* leith-2005: TCP ACKs go out in the voice access category. */
		if (q->cfg.ack_prio)
			airfair_set_prio(sch, skb, AIRFAIR_PRIO_VOICE,
					 AIRFAIR_AC_VO);
		/* Before the accounting: a rewrite may change the truesize. */
		if (flow->dir == AIRFAIR_DIR_UP) {
			sta->up_seen = jiffies;
			q->up_seen = jiffies;
		}
		if (q->cfg.upload_window && flow->dir == AIRFAIR_DIR_UP &&
		    flow->wscale >= 0 && flow->tag == cb->hash)
			airfair_upload_window(q, sta, flow, skb);
	}

	codel_set_enqueue_time(skb);
	flow_queue_add(flow, skb);
	flow->qlen++;
	flow->backlog += len;
	if (!sta->qlen++)
		sta->backlog_since = ktime_get_ns();
	sta->backlog += len;
	sta->last_active = jiffies;
	sch->q.qlen++;
	sch->qstats.backlog += len;
	q->memory_used += skb->truesize;
	sta->memory += skb->truesize;

	if (list_empty(&flow->chain)) {
		list_add_tail(&flow->chain, &sta->new_flows);
		flow->deficit = sta->flow_quantum;
	}
	if (!sta->active && sta != q->cur)
		airfair_sta_activate(q, sta);

	/*
	 * The ACK it supersedes leaves only now that the new one is queued:
	 * told about a drop while our queue is empty, a parent would take the
	 * class off its schedule just as this packet arrives.
	 */
	if (is_ack && q->cfg.ack_filter) {
		acked = airfair_ack_filter(sch, sta, flow, skb,
					   q->cfg.ack_filter);
		if (acked) {
			q->drop_ackfilter++;
			sta->drops++;
			qdisc_qstats_drop(sch);
			qdisc_tree_reduce_backlog(sch, 1, qdisc_pkt_len(acked));
			__qdisc_drop(acked, to_free);
		}
	}

	if (sch->q.qlen <= q->cfg.limit && q->memory_used <= q->cfg.memlimit &&
	    !airfair_overflow_over(q))
		return NET_XMIT_SUCCESS;
	prev_qlen = sch->q.qlen;
	prev_backlog = sch->qstats.backlog;
	if (airfair_drop_over_limits(sch, skb, to_free)) {
		/* The parents never counted this packet: NET_XMIT_CN says so. */
		qdisc_tree_reduce_backlog(sch, prev_qlen - sch->q.qlen - 1,
					  prev_backlog - sch->qstats.backlog - len);
		return NET_XMIT_CN;
	}
	qdisc_tree_reduce_backlog(sch, prev_qlen - sch->q.qlen,
				  prev_backlog - sch->qstats.backlog);
	return NET_XMIT_SUCCESS;
}

/* ---------------------------------------------------------------------------
 * Dequeue
 */

/* The cost of a packet costed at dequeue (airfair_costed_at_dequeue()). */
static void airfair_dequeue_cost(const struct airfair_sched *q,
				 const struct airfair_sta *sta,
				 const struct airfair_flow *flow,
				 struct sk_buff *skb)
{
	static const struct airfair_upload_seen none;
	struct airfair_skb_cb *cb = airfair_cb(skb);

	if (airfair_costed_at_dequeue(cb->pkt_class))
		cb->cost_ns = airfair_flow_cost(q, sta, flow, skb,
						cb->pkt_class, &none);
}

static struct sk_buff *airfair_sta_dequeue(struct Qdisc *sch,
					   struct airfair_sta *sta)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_flow *flow;
	struct list_head *head;
	struct sk_buff *skb;

	q->dq_sta = sta;
	for (;;) {
		head = &sta->new_flows;
		if (list_empty(head)) {
			head = &sta->old_flows;
			if (list_empty(head))
				return NULL;
		}
		flow = list_first_entry(head, struct airfair_flow, chain);
		if (flow->deficit <= 0) {
			flow->deficit += sta->flow_quantum;
			/*
			 * T-LAS: a flow that has attained less service than the
			 * threshold in its whole life (not since it last went idle)
			 * keeps priority; the others get one quantum of it.
			 */
			if (head == &sta->new_flows && flow->sent < q->cfg.tlas)
				list_move_tail(&flow->chain, &sta->new_flows);
			else
				list_move_tail(&flow->chain, &sta->old_flows);
			continue;
		}
		/*
		 * CoDel spares the last MTU of the backlog it is given: give it
		 * the flow's, so the AQM never empties a flow and takes its
		 * station out of the airtime schedule.
		 */
		skb = codel_dequeue(sch, &flow->backlog, &q->cparams,
				    &flow->cvars, &q->cstats, qdisc_pkt_len,
				    codel_get_enqueue_time, airfair_codel_drop,
				    airfair_codel_dequeue);
		if (skb)
			break;
		/* Emptied: a pass through old_flows first, against starvation. */
		if (head == &sta->new_flows && !list_empty(&sta->old_flows))
			list_move_tail(&flow->chain, &sta->old_flows);
		else
			list_del_init(&flow->chain);
	}
	/*
	 * leith-2005 Table II: the AP's bulk data defers to the stations'
	 * frames (AC_BK's AIFS is four slots longer than AC_BE's), so that
	 * their TCP ACKs, which that data clocks, go first. A sparse flow's
	 * packet (a ping's reply, a DNS answer) keeps best effort: it clocks
	 * nothing, and in BK it would wait out every upload's data.
	 */
	if (q->cfg.defer_data && head == &sta->old_flows && sta != q->mcast &&
	    airfair_prio_best_effort(skb->priority))
		airfair_set_prio(sch, skb, AIRFAIR_PRIO_BACKGROUND,
				 AIRFAIR_AC_BK);
	airfair_dequeue_cost(q, sta, flow, skb);
	flow->deficit -= airfair_cb(skb)->cost_ns;
	trace_airfair_dequeue(sch, sta, flow, skb, head == &sta->new_flows);
	flow->sent++;
	return skb;
}

/*
 * utilisation auto: the grant follows the air rate, as BBR's pacing follows
 * its bottleneck. Each interval measures the airtime charged per second of
 * real time; the best of the last few is what the air carried at most (when
 * the meter let more through than the channel takes, the channel's rate; when
 * the channel took all it was given, the grant). The grant cycles around it:
 * a probe above (the air may carry more now), a drain below (what the probe
 * queued goes out), then a little under it, so that the meter and not the
 * stations' contention decides who gets the air. Idle intervals tell nothing.
 * Where the queue ran empty the grant did not bind, as where one station
 * alone was served: the demand, not the air, set the rate (BBR's
 * application-limited samples), so the grant stays above it and a light
 * load is not held under its own rate. Not where it carried an upload's
 * ACKs: the upload's demand is at the station, and holding its ACKs is
 * the only way to hold it, so a queue of ACKs that runs empty says
 * nothing of it. The drain and the hold under the rate are for the
 * uploads, whose stations contend for the air with their own data: with
 * none in progress and the hook's pending limit holding the backlog here,
 * the stations send only what the AP's frames clock (defer-data lets
 * those through first), and the grant stays above the rate.
 */
static const u16 airfair_auto_gain_q8[] = { 320, 192, 224, 224 };

static bool airfair_meter_interval_over(const struct airfair_sched *q,
					u64 elapsed)
{
	if (elapsed < AIRFAIR_UTIL_AUTO_INTERVAL_NS)
		return false;
	if (q->auto_startup || elapsed >= AIRFAIR_UTIL_AUTO_INTERVAL_MAX_NS)
		return true;
	return ((elapsed * q->auto_best_q16) >> 16) >=
	       AIRFAIR_UTIL_AUTO_BURSTS * (u64)q->burst_ns;
}

/* Startup's gain, or 0 once it has ended (BBR's full-pipe check). */
static u32 airfair_meter_startup_gain(struct airfair_sched *q, u32 best,
				      bool demand_limited, bool below_full)
{
	if (!q->auto_startup && best < q->auto_startup_q16 / 2 && !below_full) {
		q->auto_startup = true;
		q->auto_startup_q16 = best;
		q->auto_flat = 0;
	}
	if (!q->auto_startup)
		return 0;
	/* a light load measured its own demand, not the air's rate */
	if (!demand_limited) {
		if (best >= q->auto_startup_q16 + q->auto_startup_q16 / 4) {
			q->auto_startup_q16 = best;
			q->auto_flat = 0;
		} else if (++q->auto_flat >= AIRFAIR_UTIL_AUTO_STARTUP_FLAT) {
			q->auto_startup = false;
			q->auto_startup_q16 = best;
			return 0;
		}
	}
	return AIRFAIR_UTIL_AUTO_STARTUP_GAIN_Q8;
}

/*
 * Without the hook's backpressure (a stock mac80211) nothing below refuses a
 * packet: mac80211's queues take all the grant lets through, so the rate
 * this qdisc measures is its own grant and the probes raise it without end,
 * while the backlog, and the order it goes out in, moves below. What says
 * the grant is over the air's rate is the delay the timed TCP downloads see
 * below the qdisc (rtt.c, airfair_rtt_below): when even the least of an
 * interval's samples waited there longer than the AQM target, the queue
 * below holds more than the radio needs to stay busy. True if so (the
 * grant is to be cut). An interval with no samples shows no queue: the
 * grant held down for one it saw last would stay there once the flows it
 * starved stopped sending, with nothing left to say it drained.
 */
static bool airfair_queue_below_full(struct airfair_sched *q)
{
	u32 us;

	if (airfair_hook_backpressure(q) || !airfair_rtt_below_take(q, &us))
		return false;
	q->below_us = us;
	return us > q->cfg.target_us;
}

static void airfair_meter_adapt(struct airfair_sched *q, u64 now)
{
	u64 elapsed = now - q->auto_epoch_ns, used, best = 0;
	bool grant_limited, demand_limited, contended, full, alone;
	u32 gain, rate;
	s64 saved;
	int i;

	/* every dequeue comes here: nothing before this test */
	if (!airfair_meter_interval_over(q, elapsed))
		return;
	/*
	 * The meter held packets while the driver's queue stayed under its
	 * pending limit: the grant, not the air, set the rate, so probe (the
	 * queue below reaching the limit is the sign of a full channel). Not
	 * where it carried an upload's ACKs: the AP's pending airtime is then
	 * theirs, not the air the uploads take.
	 */
	grant_limited = q->auto_metered && !q->auto_air_full &&
			airfair_hook_backpressure(q);
	/*
	 * With a queue standing below, a queue here that ran empty says the
	 * backlog moved there, not that the demand fell short.
	 */
	full = airfair_queue_below_full(q);
	demand_limited = (q->auto_emptied || grant_limited) &&
			 !q->auto_upload && !full;
	contended = q->auto_stations > 1 && !demand_limited &&
		    (airfair_uploads_seen(q) || !airfair_hook_backpressure(q));
	alone = q->auto_stations < 2;
	saved = max_t(s64, q->auto_epoch_tokens, 0);
	q->auto_emptied = false;
	q->auto_upload = false;
	q->auto_metered = false;
	q->auto_air_full = false;
	used = q->airtime_ns - q->auto_epoch_air;
	q->auto_epoch_ns = now;
	q->auto_epoch_air = q->airtime_ns;
	q->auto_epoch_tokens = q->tokens_ns;
	q->auto_interval++;
	q->auto_stations = 0;
	if (!used || elapsed > 2 * AIRFAIR_UTIL_AUTO_INTERVAL_MAX_NS)
		return;
	/*
	 * What the grant let through, at most: its rate over the interval and
	 * the tokens saved before it; the rest is debt. An upload's ACK carries
	 * the air of every frame it acknowledges, tens of ms of it after a
	 * hold, all charged in one interval. Counted as the air's rate, such
	 * ACKs left the grant at two to three times the channel's rate (the
	 * testbed's mixed scenario on 6.1), the meter stopped binding, the
	 * upload window opened with it, and a station's upload ran ahead of
	 * its charge. A whole burst allowed on top of every sample was as bad
	 * where the air's rate is a few per cent of real time: a 100 ms
	 * interval's grant is then about one burst.
	 */
	used = min_t(u64, used, ((elapsed * q->util_q16) >> 16) + saved);
	rate = min_t(u64, div64_u64(used << 16, elapsed), q->util_auto_max_q16);
	if (full) {
		/*
		 * Part of what went through went into the queue below, not
		 * onto the air: no sample kept may read above 7/8 of this
		 * one, startup ends, and the cycle starts again from its
		 * drain, with no probe while the queue stands. One station
		 * alone has no one to share with, and its grant is at most
		 * halved: an interval that used under half of it was held
		 * down by its demand (an upload in slow start), and the queue
		 * below it may be that station's own contention. Cut to such
		 * a rate, the grant sat at its 1 % floor, where an interval
		 * lasts a second and the probes took ten to climb back: a
		 * lone upload ran at a tenth of its rate. With more stations
		 * the bound left the queue below standing (the stock mixed
		 * scenario: 40 % busy air against 60 %).
		 */
		rate -= rate / 8;
		if (alone)
			rate = max_t(u32, rate, q->util_q16 / 2);
		for (i = 0; i < AIRFAIR_UTIL_AUTO_WIN; i++)
			q->auto_rate_q16[i] = min(q->auto_rate_q16[i], rate);
		q->auto_startup = false;
		q->auto_startup_q16 = rate;
		q->auto_phase = 0;
		q->below_cuts++;
	}
	q->auto_rate_q16[q->auto_slot] = rate;
	q->auto_slot = (q->auto_slot + 1) % AIRFAIR_UTIL_AUTO_WIN;
	for (i = 0; i < AIRFAIR_UTIL_AUTO_WIN; i++)
		best = max_t(u64, best, q->auto_rate_q16[i]);
	q->auto_best_q16 = best;
	if (!full)
		q->auto_phase = (q->auto_phase + 1) %
				ARRAY_SIZE(airfair_auto_gain_q8);
	/* one station alone has no one to share with: never hold it under */
	gain = airfair_meter_startup_gain(q, best, demand_limited, full) ?:
	       airfair_auto_gain_q8[contended ? q->auto_phase : 0];
	if (full)
		gain = min_t(u32, gain, 224);
	q->util_q16 = clamp_t(u64, (best * gain) >> 8,
			      min_t(u32, AIRFAIR_UTIL_AUTO_MIN_Q16,
				    q->util_auto_max_q16),
			      q->util_auto_max_q16);
}

/* the meter's burst beyond one turn (a quantum, or a longer turn) */
#define AIRFAIR_METER_SLACK_NS	(2 * NSEC_PER_MSEC)

/* Grant airtime at the configured share of real time; false: wait. */
static bool airfair_meter_allows(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u64 now, elapsed;

	/* Unmetered: something below gives backpressure (or a wired test). */
	if (!q->util_q16)
		return true;
	now = ktime_get_ns();
	if (q->util_auto)
		airfair_meter_adapt(q, now);
	elapsed = now - q->meter_last_ns;

	q->meter_last_ns = now;
	if (elapsed > NSEC_PER_SEC)
		elapsed = NSEC_PER_SEC;
	q->tokens_ns = min_t(s64, q->tokens_ns +
			     (s64)((elapsed * q->util_q16) >> 16),
			     q->turn_burst_ns);
	if (q->tokens_ns >= 0)
		return true;
	q->meter_stalls++;
	q->auto_metered = true;
	qdisc_watchdog_schedule_ns(&q->watchdog, now +
				   div_u64((u64)(-q->tokens_ns) << 16, q->util_q16));
	return false;
}

/*
 * pending-limit auto, closed loop as BQL's: the least airtime pending below
 * that keeps the radio busy. Finding nothing pending while packets were held
 * back here means the radio ran dry for want of them (an underrun): raise the
 * limit. A second without one: lower it a little, so that it settles just
 * above what the driver and the medium need between two refills.
 *
 * Never below the turn of the station to be served (@turn_us): a turn is let
 * through in one go for the radio to aggregate (airfair_turn_us), and a
 * limit under it split every turn at an aggregating rate into short
 * A-MPDUs, each paying an access, with the radio never running dry.
 */
static u32 airfair_pending_adapt(struct airfair_sched *q, u32 phy_us,
				 u32 turn_us, u64 now)
{
	u32 lim = q->pend_limit_us;

	if (!phy_us && q->pend_held) {
		q->pend_underruns++;
		lim = min_t(u32, lim + lim / 4, AIRFAIR_PENDING_AUTO_MAX_US);
		q->pend_epoch_ns = now;
	} else if (now - q->pend_epoch_ns > AIRFAIR_PENDING_AUTO_HOLD_NS) {
		lim = max_t(u32, lim - lim / 16, AIRFAIR_PENDING_AUTO_MIN_US);
		q->pend_epoch_ns = now;
	}
	q->pend_limit_us = max(lim, min_t(u32, turn_us,
					   AIRFAIR_PENDING_AUTO_MAX_US));
	return q->pend_limit_us;
}

/*
 * Backpressure from below: with pending-limit set and the mac80211 hook bound,
 * hold packets here while the PHY has that much airtime handed to the driver
 * and not yet reported back, so the backlog, and the order it goes out in,
 * stays in the qdisc. mac80211 gives no signal when the figure falls, so the
 * watchdog polls, after the time the excess takes to drain at best.
 */
static bool airfair_pending_allows(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 limit = q->cfg.pending_limit_us, expected, sta_us, phy_us;
	const struct airfair_sta *sta = q->cur;
	struct rb_node *node;
	u64 now;

	if (!limit || !airfair_hook_bound())
		return true;
	if (!sta) {
		node = rb_first_cached(&q->active);
		if (!node)
			return true;
		sta = rb_entry(node, struct airfair_sta, rb);
	}
	/* the PHY's figure comes with any station's; none for group frames */
	if (airfair_hook_query(qdisc_dev(sch), sta->addr, &expected, &sta_us,
			       &phy_us))
		return true;
	q->phy_pending_us = phy_us;
	now = ktime_get_ns();
	if (phy_us != q->pend_last_us || !q->pend_held) {
		if (q->pend_held)
			q->pend_still_ns = max(q->pend_still_ns,
					       now - q->pend_moved_ns);
		q->pend_last_us = phy_us;
		q->pend_moved_ns = now;
	} else if (now - q->pend_moved_ns >
		   clamp_t(u64, 4 * q->pend_still_ns, AIRFAIR_PENDING_STALE_NS,
			   AIRFAIR_PENDING_STALE_MAX_NS)) {
		/* if it was live after all, the next one must wait longer */
		q->pend_still_ns = now - q->pend_moved_ns;
		q->pend_stale++;
		q->pend_floor_us = phy_us;
		q->pend_held = false;
	}
	q->pend_floor_us = min(q->pend_floor_us, phy_us);
	phy_us -= q->pend_floor_us;
	if (limit == AIRFAIR_PENDING_LIMIT_AUTO)
		limit = airfair_pending_adapt(q, phy_us,
					      airfair_turn_us(q, sta), now);
	if (phy_us < limit) {
		q->pend_held = false;
		return true;
	}
	q->pend_held = true;
	q->auto_air_full = true;
	q->pending_stalls++;
	qdisc_watchdog_schedule_ns(&q->watchdog, now +
				   (u64)clamp(phy_us - limit + 1, 100U, 2000U) *
				   NSEC_PER_USEC);
	return false;
}

/*
 * Upload cap. An upload's demand waits at the station, not here: between two
 * of its ACKs a station looks idle to the scheduler, which then serves
 * whoever has ACKs queued, and the stations' DCF, not the schedule, decides
 * the shares (the slowest station's upload took 40-51 % of the air among
 * three on the testbed's HT scenario). So where airfair is metered and the
 * root, a station with an upload in progress is held to its share of the
 * grant (airfair_busy_recount()) whether or not the others have packets
 * here: its tokens refill at that rate, at most a burst ahead, and every
 * packet of it spends its charge.
 */
static bool airfair_sta_capped(struct airfair_sched *q,
			       struct airfair_sta *sta, u64 now, u64 *wait_ns)
{
	u64 elapsed, rate_q16;

	if (!q->util_q16 || sta == q->mcast || sta == q->overflow ||
	    !airfair_sta_uploading(sta)) {
		sta->cap_last_ns = now;
		sta->cap_tokens_ns = max_t(s64, sta->cap_tokens_ns, 0);
		return false;
	}
	if (time_after_eq(jiffies, q->next_busy))
		airfair_busy_recount(q);
	rate_q16 = div_u64((u64)q->cap_avail_q16 * sta->weight, q->cap_weight);
	elapsed = min_t(u64, now - sta->cap_last_ns, NSEC_PER_SEC);
	sta->cap_last_ns = now;
	sta->cap_tokens_ns = min_t(s64, sta->cap_tokens_ns +
				   (s64)((elapsed * rate_q16) >> 16), q->burst_ns);
	if (sta->cap_tokens_ns >= 0)
		return false;
	*wait_ns = min_t(u64, *wait_ns,
			 div64_u64((u64)(-sta->cap_tokens_ns) << 16,
				   max_t(u64, rate_q16, 1)));
	return true;
}

/*
 * The first station in vtime order that no upload cap holds (@capping: the
 * caps apply), off the tree; if all are held, the watchdog is set for the
 * soonest of their waits, folded into @wait_ns.
 */
static struct airfair_sta *airfair_next_sta(struct Qdisc *sch, bool capping,
					    u64 now, u64 *wait_ns)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct rb_node *node;

	for (node = rb_first_cached(&q->active); node; node = rb_next(node)) {
		struct airfair_sta *sta = rb_entry(node, struct airfair_sta, rb);

		if (!capping || !airfair_sta_capped(q, sta, now, wait_ns)) {
			airfair_sta_deactivate(q, sta);
			return sta;
		}
	}
	if (rb_first_cached(&q->active)) {
		q->cap_stalls++;
		qdisc_watchdog_schedule_ns(&q->watchdog, now + *wait_ns);
	}
	return NULL;
}

/*
 * What a station's frame was charged for its own air, for the hook's counts
 * to settle (the upload data an ACK stands for, and the station's ACKs a
 * download carries, are not the AP's air and are left out).
 */
static void airfair_sta_sent(struct airfair_sta *sta, const struct sk_buff *skb)
{
	const struct airfair_affine *c;
	u32 segs, len = airfair_l3_len(skb, &segs);

	c = airfair_cb(skb)->pkt_class == AIRFAIR_PKT_TCP_ACK ?
	    &sta->costs.ack : &sta->costs.data;
	sta->own_charged_ns += (u64)c->a_ns * segs +
			       (((u64)c->b_ns256 * len) >> 8);
	sta->sent_bytes += len;
	sta->sent_pkts += segs;
}

static struct sk_buff *airfair_dequeue(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_sta *sta;
	struct sk_buff *skb = NULL;
	u64 now, wait_ns = NSEC_PER_SEC;
	bool root;
	u32 cost;

	/*
	 * Below another qdisc airfair is work-conserving: the parent paces
	 * (htb, tbf, hfsc's upper limits), and qfq, drr, ets and hfsc expect
	 * a child with packets to hand one over (qfq dereferences NULL when a
	 * child's peek fails). The meter and pending-limit hold packets back
	 * only where airfair is its TX queue's root (the device's, or mq's).
	 */
	if (!sch->q.qlen) {
		q->auto_emptied = true;
		goto out;
	}
	root = qdisc_root_bh(sch) == sch;
	if (root && (!airfair_meter_allows(sch) || !airfair_pending_allows(sch)))
		goto out;
	now = ktime_get_ns();
	for (;;) {
		sta = q->cur;
		if (sta && root && airfair_sta_capped(q, sta, now, &wait_ns)) {
			q->cur = NULL;
			airfair_sta_activate(q, sta);
			sta = NULL;
		}
		if (!sta) {
			sta = airfair_next_sta(sch, root, now, &wait_ns);
			if (!sta)
				goto out;
			q->cur = sta;
			q->cur_used = 0;
			/*
			 * A longer turn (aggregating rates) is let through
			 * in one go, for the radio to aggregate.
			 */
			q->turn_burst_ns = AIRFAIR_METER_SLACK_NS +
					   airfair_turn_ns(q, sta);
			/*
			 * With the hook's limit holding the queue below and no
			 * upload for the meter to hold back, the meter only
			 * paces: after a hold it lets through what the radio
			 * drained meanwhile, up to that limit, instead of
			 * leaving it dry until the tokens come back.
			 */
			if (airfair_hook_backpressure(q) &&
			    !airfair_uploads_seen(q))
				q->turn_burst_ns += (u64)q->pend_limit_us *
						    NSEC_PER_USEC;
			q->vtime_floor = sta->vtime;
		}
		skb = airfair_sta_dequeue(sch, sta);
		if (skb)
			break;
		q->cur = NULL;
	}

	if (airfair_cb(skb)->rtt_timed)
		airfair_rtt_dequeued(q, airfair_cb(skb)->hash);
	cost = airfair_cb(skb)->cost_ns;
	if (q->util_auto && !q->auto_upload &&
	    airfair_cb(skb)->pkt_class == AIRFAIR_PKT_TCP_ACK &&
	    airfair_ack_upload_ns(&sta->costs, skb))
		q->auto_upload = true;
	airfair_charge(q, sta, cost);
	airfair_sta_sent(sta, skb);
	sta->packets++;
	sta->bytes += qdisc_pkt_len(skb);
	if (!sta->qlen) {
		airfair_sta_drained(sta);
		q->cur = NULL;
	} else if (q->cur_used >= airfair_turn_ns(q, sta)) {
		q->cur = NULL;
		airfair_sta_insert(q, sta);
	}
	qdisc_bstats_update(sch, skb);
out:
	if (q->cstats.drop_count && sch->q.qlen) {
		qdisc_tree_reduce_backlog(sch, q->cstats.drop_count,
					  q->cstats.drop_len);
		q->cstats.drop_count = 0;
		q->cstats.drop_len = 0;
	}
	return skb;
}

/* ---------------------------------------------------------------------------
 * Reset and teardown
 */

static void airfair_purge(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 i;
	int f;

	for (i = 0; i < q->nr_slots; i++) {
		struct airfair_sta *sta = &q->stas[i];

		if (!sta->in_use)
			continue;
		for (f = 0; f < AIRFAIR_FLOWS_PER_STA; f++) {
			struct airfair_flow *flow = &sta->flows[f];

			rtnl_kfree_skbs(flow->head, flow->tail);
			flow->head = NULL;
			flow->tail = NULL;
			flow->qlen = 0;
			flow->backlog = 0;
			INIT_LIST_HEAD(&flow->chain);
			codel_vars_init(&flow->cvars);
		}
		INIT_LIST_HEAD(&sta->new_flows);
		INIT_LIST_HEAD(&sta->old_flows);
		RB_CLEAR_NODE(&sta->rb);
		sta->active = false;
		if (sta->qlen)
			sta->backlogged_ns += ktime_get_ns() - sta->backlog_since;
		sta->qlen = 0;
		sta->backlog = 0;
		sta->memory = 0;
		sta->vtime = 0;
	}
	q->active = RB_ROOT_CACHED;
	q->cur = NULL;
	q->vtime_floor = 0;
	q->memory_used = 0;
	airfair_reset_counters(sch);
}

static void airfair_reset(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);

	if (q->stas)
		airfair_purge(sch);
	q->tokens_ns = 0;
	q->pend_held = false;	/* nothing is waiting: no underrun to see */
}

static void airfair_destroy(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
	airfair_rtt_destroy(sch);
	if (q->stas)
		airfair_purge(sch);
	airfair_stas_free(q);
}

/* ---------------------------------------------------------------------------
 * Configuration
 */

static const struct nla_policy airfair_aifsn_policy[TCA_AIRFAIR_AIFSN_MAX + 1] = {
	[TCA_AIRFAIR_AIFSN_VO] = NLA_POLICY_RANGE(NLA_U8, AIRFAIR_AIFSN_MIN, AIRFAIR_AIFSN_MAX),
	[TCA_AIRFAIR_AIFSN_VI] = NLA_POLICY_RANGE(NLA_U8, AIRFAIR_AIFSN_MIN, AIRFAIR_AIFSN_MAX),
	[TCA_AIRFAIR_AIFSN_BE] = NLA_POLICY_RANGE(NLA_U8, AIRFAIR_AIFSN_MIN, AIRFAIR_AIFSN_MAX),
	[TCA_AIRFAIR_AIFSN_BK] = NLA_POLICY_RANGE(NLA_U8, AIRFAIR_AIFSN_MIN, AIRFAIR_AIFSN_MAX),
};

static const struct nla_policy airfair_txop_policy[TCA_AIRFAIR_TXOP_MAX + 1] = {
	[TCA_AIRFAIR_TXOP_VO] = { .type = NLA_U16 },
	[TCA_AIRFAIR_TXOP_VI] = { .type = NLA_U16 },
	[TCA_AIRFAIR_TXOP_BE] = { .type = NLA_U16 },
	[TCA_AIRFAIR_TXOP_BK] = { .type = NLA_U16 },
};

static const struct nla_policy airfair_rate_policy[TCA_AIRFAIR_RATE_MAX + 1] = {
	[TCA_AIRFAIR_RATE_MODE]	  = NLA_POLICY_MAX(NLA_U8, __AIRFAIR_MODE_MAX - 1),
	[TCA_AIRFAIR_RATE_MCS]	  = { .type = NLA_U8 },
	[TCA_AIRFAIR_RATE_NSS]	  = { .type = NLA_U8 },
	[TCA_AIRFAIR_RATE_BW]	  = NLA_POLICY_MAX(NLA_U8, __AIRFAIR_BW_MAX - 1),
	[TCA_AIRFAIR_RATE_GI]	  = NLA_POLICY_MAX(NLA_U8, __AIRFAIR_GI_MAX - 1),
	[TCA_AIRFAIR_RATE_FLAGS]  = NLA_POLICY_MASK(NLA_U8, AIRFAIR_RATE_F_ALL),
	[TCA_AIRFAIR_RATE_LEGACY] = { .type = NLA_U16 },
};

static const struct nla_policy airfair_sta_policy[TCA_AIRFAIR_STA_MAX + 1] = {
	[TCA_AIRFAIR_STA_ADDR]	 = NLA_POLICY_ETH_ADDR,
	[TCA_AIRFAIR_STA_WEIGHT] = NLA_POLICY_RANGE(NLA_U16, AIRFAIR_WEIGHT_MIN,
						    AIRFAIR_WEIGHT_MAX),
	[TCA_AIRFAIR_STA_RATE]	 = NLA_POLICY_NESTED(airfair_rate_policy),
	[TCA_AIRFAIR_STA_LOSS]	 = { .type = NLA_U32 },
	[TCA_AIRFAIR_STA_SOURCE] = NLA_POLICY_RANGE(NLA_U8, AIRFAIR_SRC_STATIC,
						    AIRFAIR_SRC_HOOK),
	[TCA_AIRFAIR_STA_DELETE] = { .type = NLA_FLAG },
	[TCA_AIRFAIR_STA_EXPECTED_TPUT] = { .type = NLA_U32 },
};

static const struct nla_policy airfair_policy[TCA_AIRFAIR_MAX + 1] = {
	[TCA_AIRFAIR_LIMIT]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_MEMLIMIT]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_PHY]	    = NLA_POLICY_MAX(NLA_U8, AIRFAIR_PHY_MAX),
	[TCA_AIRFAIR_SIFS]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_SLOT]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_CWMIN]	    = { .type = NLA_U16 },
	[TCA_AIRFAIR_CWMAX]	    = { .type = NLA_U16 },
	[TCA_AIRFAIR_AIFSN]	    = NLA_POLICY_NESTED(airfair_aifsn_policy),
	[TCA_AIRFAIR_RETRIES]	    = NLA_POLICY_MAX(NLA_U8, AIRFAIR_MAX_RETRIES),
	[TCA_AIRFAIR_BASIC_RATE]    = { .type = NLA_U16 },
	[TCA_AIRFAIR_MODEL]	    = NLA_POLICY_MAX(NLA_U8, __AIRFAIR_MODEL_MAX - 1),
	[TCA_AIRFAIR_UTILISATION]   = { .type = NLA_U16 },	/* or AIRFAIR_UTIL_AUTO */
	[TCA_AIRFAIR_QUANTUM]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_DELACK]	    = NLA_POLICY_RANGE(NLA_U8, AIRFAIR_DELACK_MIN,
						       AIRFAIR_DELACK_MAX),
	[TCA_AIRFAIR_ACK_FILTER]    = NLA_POLICY_MAX(NLA_U8, __AIRFAIR_ACK_FILTER_MAX - 1),
	[TCA_AIRFAIR_ACK_PRIO]	    = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AIRFAIR_TLAS]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_RTT_BUFFER]    = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AIRFAIR_TARGET]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_INTERVAL]	    = { .type = NLA_U32 },
	[TCA_AIRFAIR_ECN]	    = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AIRFAIR_MAX_STATIONS]  = { .type = NLA_U32 },
	[TCA_AIRFAIR_STA_TIMEOUT]   = { .type = NLA_U32 },
	[TCA_AIRFAIR_STATION]	    = NLA_POLICY_NESTED(airfair_sta_policy),
	[TCA_AIRFAIR_AMPDU]	    = NLA_POLICY_MAX(NLA_U8, AIRFAIR_MAX_AMPDU),
	[TCA_AIRFAIR_PENDING_LIMIT] = { .type = NLA_U32 },
	[TCA_AIRFAIR_UPLOAD]	    = NLA_POLICY_MAX(NLA_U8, __AIRFAIR_UPLOAD_MAX - 1),
	[TCA_AIRFAIR_UPLOAD_WINDOW] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AIRFAIR_DEFER_DATA]    = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AIRFAIR_TXOP]	    = NLA_POLICY_NESTED(airfair_txop_policy),
	[TCA_AIRFAIR_UTIL_AUTO_MAX] = NLA_POLICY_RANGE(NLA_U16, AIRFAIR_UTIL_MIN,
						       AIRFAIR_UTIL_AUTO_MAX_LIMIT),
};

/*
 * Reject a u32 attribute outside [min, max]. @msg must be a string literal
 * naming the option and its range: extack keeps the pointer.
 */
static int airfair_get_u32(struct nlattr *attr, u32 min, u32 max, u32 *val,
			   const char *msg, struct netlink_ext_ack *extack)
{
	u32 v;

	if (!attr)
		return 0;
	v = nla_get_u32(attr);
	if (v < min || v > max) {
		if (extack) {
			extack->_msg = msg;
			extack->bad_attr = attr;
		}
		return -ERANGE;
	}
	*val = v;
	return 0;
}

/* The same with the message made from the bounds (the uapi header's macros). */
#define airfair_get_ranged(attr, min, max, val, name, unit, extack)	\
	airfair_get_u32(attr, min, max, val, name " out of range ("	\
			__stringify(min) "-" __stringify(max) unit ")", extack)

/* pending-limit: a time in range, or AIRFAIR_PENDING_LIMIT_AUTO */
static int airfair_get_pending_limit(struct nlattr *attr, u32 *val,
				     struct netlink_ext_ack *extack)
{
	if (attr && nla_get_u32(attr) == AIRFAIR_PENDING_LIMIT_AUTO) {
		*val = AIRFAIR_PENDING_LIMIT_AUTO;
		return 0;
	}
	return airfair_get_ranged(attr, 0, AIRFAIR_PENDING_LIMIT_MAX_US, val,
				  "pending-limit", " us or auto", extack);
}

/*
 * A nest of one value per AC (TCA_AIRFAIR_AIFSN, TCA_AIRFAIR_TXOP) into
 * @u8s, else @u16s; the ACs it leaves out keep theirs.
 */
static int airfair_parse_per_ac(struct nlattr *nest,
				const struct nla_policy *policy, u8 *u8s,
				u16 *u16s, struct netlink_ext_ack *extack)
{
	struct nlattr *ac[AIRFAIR_NUM_ACS + 1];
	int i, err;

	BUILD_BUG_ON(TCA_AIRFAIR_AIFSN_MAX != AIRFAIR_NUM_ACS);
	BUILD_BUG_ON(TCA_AIRFAIR_TXOP_MAX != AIRFAIR_NUM_ACS);
	if (!nest)
		return 0;
	err = nla_parse_nested(ac, AIRFAIR_NUM_ACS, nest, policy, extack);
	if (err)
		return err;
	for (i = 0; i < AIRFAIR_NUM_ACS; i++) {
		if (!ac[i + 1])
			continue;
		if (u8s)
			u8s[i] = nla_get_u8(ac[i + 1]);
		else
			u16s[i] = nla_get_u16(ac[i + 1]);
	}
	return 0;
}

static int airfair_parse_timing(struct nlattr **tb, struct airfair_timing *t,
				struct netlink_ext_ack *extack)
{
	u32 v;
	int err;

	if (tb[TCA_AIRFAIR_PHY] &&
	    airfair_timing_preset(nla_get_u8(tb[TCA_AIRFAIR_PHY]), t)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AIRFAIR_PHY], "unknown PHY preset");
		return -EINVAL;
	}
	v = t->sifs_us;
	err = airfair_get_ranged(tb[TCA_AIRFAIR_SIFS], AIRFAIR_SIFS_SLOT_MIN_US,
				 AIRFAIR_SIFS_SLOT_MAX_US, &v, "sifs", " us",
				 extack);
	if (err)
		return err;
	t->sifs_us = v;
	v = t->slot_us;
	err = airfair_get_ranged(tb[TCA_AIRFAIR_SLOT], AIRFAIR_SIFS_SLOT_MIN_US,
				 AIRFAIR_SIFS_SLOT_MAX_US, &v, "slot", " us",
				 extack);
	if (err)
		return err;
	t->slot_us = v;
	if (tb[TCA_AIRFAIR_CWMIN])
		t->cwmin = nla_get_u16(tb[TCA_AIRFAIR_CWMIN]);
	if (tb[TCA_AIRFAIR_CWMAX])
		t->cwmax = nla_get_u16(tb[TCA_AIRFAIR_CWMAX]);
	err = airfair_parse_per_ac(tb[TCA_AIRFAIR_AIFSN], airfair_aifsn_policy,
				   t->aifsn, NULL, extack) ?:
	      airfair_parse_per_ac(tb[TCA_AIRFAIR_TXOP], airfair_txop_policy,
				   NULL, t->txop_us, extack);
	if (err)
		return err;
	if (tb[TCA_AIRFAIR_RETRIES])
		t->retries = nla_get_u8(tb[TCA_AIRFAIR_RETRIES]);
	if (tb[TCA_AIRFAIR_BASIC_RATE])
		t->basic_rate = nla_get_u16(tb[TCA_AIRFAIR_BASIC_RATE]);
	if (airfair_timing_validate(t)) {
		NL_SET_ERR_MSG(extack,
			       "invalid PHY timing: CW must be 2^n-1 with cwmin <= cwmax, AIFSN 1-15, basic rate a legacy rate");
		return -EINVAL;
	}
	return 0;
}

static int airfair_parse_config(struct nlattr **tb, struct airfair_config *c,
				bool create, struct netlink_ext_ack *extack)
{
	int err;

	err = airfair_parse_timing(tb, &c->timing, extack);
	if (err)
		return err;
	err = airfair_get_ranged(tb[TCA_AIRFAIR_LIMIT], AIRFAIR_LIMIT_MIN,
				 AIRFAIR_LIMIT_MAX, &c->limit, "limit",
				 " packets", extack) ?:
	      airfair_get_ranged(tb[TCA_AIRFAIR_MEMLIMIT], AIRFAIR_MEMLIMIT_MIN,
				 AIRFAIR_MEMLIMIT_MAX, &c->memlimit, "memlimit",
				 " bytes", extack) ?:
	      airfair_get_ranged(tb[TCA_AIRFAIR_QUANTUM], AIRFAIR_QUANTUM_MIN_US,
				 AIRFAIR_QUANTUM_MAX_US, &c->quantum_us,
				 "quantum", " us", extack) ?:
	      airfair_get_ranged(tb[TCA_AIRFAIR_TLAS], 0, AIRFAIR_TLAS_MAX,
				 &c->tlas, "tlas", " packets", extack) ?:
	      airfair_get_ranged(tb[TCA_AIRFAIR_TARGET], AIRFAIR_TARGET_MIN_US,
				 AIRFAIR_TARGET_MAX_US, &c->target_us, "target",
				 " us", extack) ?:
	      airfair_get_ranged(tb[TCA_AIRFAIR_INTERVAL],
				 AIRFAIR_INTERVAL_MIN_US,
				 AIRFAIR_INTERVAL_MAX_US, &c->interval_us,
				 "interval", " us", extack) ?:
	      airfair_get_ranged(tb[TCA_AIRFAIR_STA_TIMEOUT], 0,
				 AIRFAIR_STA_TIMEOUT_MAX_MS, &c->sta_timeout_ms,
				 "station-timeout", " ms", extack) ?:
	      airfair_get_pending_limit(tb[TCA_AIRFAIR_PENDING_LIMIT],
					&c->pending_limit_us, extack);
	if (err)
		return err;
	if (tb[TCA_AIRFAIR_MAX_STATIONS]) {
		u32 max = c->max_stations;

		err = airfair_get_ranged(tb[TCA_AIRFAIR_MAX_STATIONS],
					 AIRFAIR_STATIONS_MIN,
					 AIRFAIR_STATIONS_MAX, &max,
					 "max-stations", "", extack);
		if (err)
			return err;
		if (!create && max != c->max_stations) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AIRFAIR_MAX_STATIONS],
					    "max-stations can only be set when the qdisc is created");
			return -EOPNOTSUPP;
		}
		c->max_stations = max;
	}
	if (c->target_us >= c->interval_us) {
		NL_SET_ERR_MSG(extack, "AQM target must be below its interval");
		return -EINVAL;
	}
	if (tb[TCA_AIRFAIR_MODEL])
		c->model = nla_get_u8(tb[TCA_AIRFAIR_MODEL]);
	if (tb[TCA_AIRFAIR_UTILISATION]) {
		u16 u = nla_get_u16(tb[TCA_AIRFAIR_UTILISATION]);

		if (u > AIRFAIR_UTIL_MAX && u != AIRFAIR_UTIL_AUTO) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AIRFAIR_UTILISATION],
					    "utilisation out of range (0-1000 per mille, or auto)");
			return -EINVAL;
		}
		c->utilisation = u;
	}
	if (tb[TCA_AIRFAIR_UTIL_AUTO_MAX])
		c->util_auto_max = nla_get_u16(tb[TCA_AIRFAIR_UTIL_AUTO_MAX]);
	if (tb[TCA_AIRFAIR_DELACK])
		c->delack = nla_get_u8(tb[TCA_AIRFAIR_DELACK]);
	if (tb[TCA_AIRFAIR_ACK_FILTER])
		c->ack_filter = nla_get_u8(tb[TCA_AIRFAIR_ACK_FILTER]);
	if (tb[TCA_AIRFAIR_ACK_PRIO])
		c->ack_prio = nla_get_u8(tb[TCA_AIRFAIR_ACK_PRIO]);
	if (tb[TCA_AIRFAIR_DEFER_DATA])
		c->defer_data = nla_get_u8(tb[TCA_AIRFAIR_DEFER_DATA]);
	if (tb[TCA_AIRFAIR_RTT_BUFFER])
		c->rtt_buffer = nla_get_u8(tb[TCA_AIRFAIR_RTT_BUFFER]);
	if (tb[TCA_AIRFAIR_ECN])
		c->ecn = nla_get_u8(tb[TCA_AIRFAIR_ECN]);
	if (tb[TCA_AIRFAIR_AMPDU])
		c->ampdu = nla_get_u8(tb[TCA_AIRFAIR_AMPDU]);
	if (tb[TCA_AIRFAIR_UPLOAD])
		c->upload = nla_get_u8(tb[TCA_AIRFAIR_UPLOAD]);
	if (tb[TCA_AIRFAIR_UPLOAD_WINDOW])
		c->upload_window = nla_get_u8(tb[TCA_AIRFAIR_UPLOAD_WINDOW]);
	return 0;
}

/* One validated station setting, applied only once all of them are valid. */
struct airfair_sta_req {
	u8 addr[ETH_ALEN];
	bool del;
	bool repeat;		/* an earlier request adds the same station */
	bool has_weight, has_rate, has_loss, has_expected;
	u16 weight;
	struct tc_airfair_rate rate;
	u32 loss_q16;
	u32 expected_kbps;
	u8 source;
};

static u8 airfair_nla_u8(const struct nlattr *attr)
{
	return attr ? nla_get_u8(attr) : 0;
}

/* A TCA_AIRFAIR_RATE_* nest (checked by airfair_rate_policy) into @r. */
static int airfair_get_rate(struct nlattr *nest, struct tc_airfair_rate *r,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_AIRFAIR_RATE_MAX + 1];
	int err;

	err = nla_parse_nested(tb, TCA_AIRFAIR_RATE_MAX, nest,
			       airfair_rate_policy, extack);
	if (err)
		return err;
	if (!tb[TCA_AIRFAIR_RATE_MODE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "station rate needs a mode");
		return -EINVAL;
	}
	*r = (struct tc_airfair_rate) {
		.mode = nla_get_u8(tb[TCA_AIRFAIR_RATE_MODE]),
		.mcs = airfair_nla_u8(tb[TCA_AIRFAIR_RATE_MCS]),
		.nss = airfair_nla_u8(tb[TCA_AIRFAIR_RATE_NSS]),
		.bw = airfair_nla_u8(tb[TCA_AIRFAIR_RATE_BW]),
		.gi = airfair_nla_u8(tb[TCA_AIRFAIR_RATE_GI]),
		.flags = airfair_nla_u8(tb[TCA_AIRFAIR_RATE_FLAGS]),
		.legacy = tb[TCA_AIRFAIR_RATE_LEGACY] ?
			  nla_get_u16(tb[TCA_AIRFAIR_RATE_LEGACY]) : 0,
	};
	return 0;
}

/*
 * A nest of one value per AC, numbered AC + 1 (TCA_AIRFAIR_AIFSN_*,
 * TCA_AIRFAIR_TXOP_*): @u8s as u8, else @u16s as u16.
 */
static int airfair_put_per_ac(struct sk_buff *skb, int type, const u8 *u8s,
			      const u16 *u16s)
{
	struct nlattr *nest = nla_nest_start_noflag(skb, type);
	int i, err;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < AIRFAIR_NUM_ACS; i++) {
		err = u8s ? nla_put_u8(skb, i + 1, u8s[i]) :
			    nla_put_u16(skb, i + 1, u16s[i]);
		if (err) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int airfair_put_rate(struct sk_buff *skb, int type,
			    const struct tc_airfair_rate *r)
{
	struct nlattr *nest = nla_nest_start_noflag(skb, type);

	if (!nest ||
	    nla_put_u8(skb, TCA_AIRFAIR_RATE_MODE, r->mode) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RATE_MCS, r->mcs) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RATE_NSS, r->nss) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RATE_BW, r->bw) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RATE_GI, r->gi) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RATE_FLAGS, r->flags) ||
	    nla_put_u16(skb, TCA_AIRFAIR_RATE_LEGACY, r->legacy)) {
		if (nest)
			nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int airfair_parse_station(struct nlattr *nest, struct airfair_sta_req *r,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_AIRFAIR_STA_MAX + 1];
	int err;

	err = nla_parse_nested(tb, TCA_AIRFAIR_STA_MAX, nest, airfair_sta_policy,
			       extack);
	if (err)
		return err;
	if (!tb[TCA_AIRFAIR_STA_ADDR]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "station needs an address");
		return -EINVAL;
	}
	memset(r, 0, sizeof(*r));
	memcpy(r->addr, nla_data(tb[TCA_AIRFAIR_STA_ADDR]), ETH_ALEN);
	if (!is_valid_ether_addr(r->addr)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AIRFAIR_STA_ADDR],
				    "station address must be unicast and non-zero");
		return -EINVAL;
	}
	r->del = nla_get_flag(tb[TCA_AIRFAIR_STA_DELETE]);
	if (r->del && (tb[TCA_AIRFAIR_STA_WEIGHT] || tb[TCA_AIRFAIR_STA_RATE] ||
		       tb[TCA_AIRFAIR_STA_LOSS] ||
		       tb[TCA_AIRFAIR_STA_EXPECTED_TPUT])) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "station delete takes no other settings");
		return -EINVAL;
	}
	if (tb[TCA_AIRFAIR_STA_WEIGHT]) {
		r->has_weight = true;
		r->weight = nla_get_u16(tb[TCA_AIRFAIR_STA_WEIGHT]);
	}
	if (tb[TCA_AIRFAIR_STA_RATE]) {
		err = airfair_get_rate(tb[TCA_AIRFAIR_STA_RATE], &r->rate, extack);
		if (err)
			return err;
		if (airfair_rate_validate(&r->rate)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AIRFAIR_STA_RATE],
					    "invalid station rate: no such mode/MCS/NSS/bandwidth/GI combination");
			return -EINVAL;
		}
		r->has_rate = true;
	}
	if (tb[TCA_AIRFAIR_STA_LOSS]) {
		r->loss_q16 = nla_get_u32(tb[TCA_AIRFAIR_STA_LOSS]);
		if (r->loss_q16 >= AIRFAIR_LOSS_ONE) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AIRFAIR_STA_LOSS],
					    "station loss must be below 100%");
			return -ERANGE;
		}
		r->has_loss = true;
	}
	if (tb[TCA_AIRFAIR_STA_EXPECTED_TPUT]) {
		r->expected_kbps = nla_get_u32(tb[TCA_AIRFAIR_STA_EXPECTED_TPUT]);
		r->has_expected = true;
	}
	r->source = tb[TCA_AIRFAIR_STA_SOURCE] ?
		    nla_get_u8(tb[TCA_AIRFAIR_STA_SOURCE]) : AIRFAIR_SRC_STATIC;
	return 0;
}

/* Did a request before @i name the same station? */
static bool airfair_req_seen(const struct airfair_sta_req *reqs, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (!reqs[j].del && ether_addr_equal(reqs[j].addr, reqs[i].addr))
			return true;
	return false;
}

static void airfair_apply_station(struct airfair_sched *q,
				  const struct airfair_sta_req *r)
{
	struct airfair_sta *sta = r->del ? airfair_sta_find(q, r->addr) :
					   airfair_sta_get(q, r->addr);

	if (!sta)
		return;
	if (r->del) {
		sta->pinned = false;
		sta->source = AIRFAIR_SRC_DEFAULT;
		sta->loss_q16 = 0;
		sta->expected_kbps = 0;
		airfair_sta_set_weight(sta, AIRFAIR_WEIGHT_DEFAULT);
	} else {
		if (r->has_weight) {
			airfair_sta_set_weight(sta, r->weight);
			sta->pinned = true;
		}
		/* The feeder keeps the table: unknown addresses stop creating stations. */
		if (r->source == AIRFAIR_SRC_FEEDER) {
			q->feeder_seen = true;
			q->feeder_until = jiffies + AIRFAIR_FEEDER_HOLD;
		}
		/* A better-informed source is not overridden by a lesser one. */
		if ((r->has_rate || r->has_loss) && r->source >= sta->source) {
			if (r->has_rate)
				sta->rate = r->rate;
			if (r->has_loss)
				sta->loss_q16 = r->loss_q16;
			if (r->has_expected)
				sta->expected_kbps = r->expected_kbps;
			if (!r->has_rate && sta->source == AIRFAIR_SRC_DEFAULT)
				; /* loss alone: keep charging the default rate */
			else
				sta->source = r->source;
			sta->source_changed = jiffies;
			if (r->source == AIRFAIR_SRC_STATIC)
				sta->pinned = true;
		}
		sta->last_active = jiffies;
	}
	airfair_sta_update_costs(q, sta);
}

static void airfair_apply_config(struct Qdisc *sch)
{
	struct airfair_sched *q = qdisc_priv(sch);
	const struct airfair_config *c = &q->cfg;

	q->cparams.target = ((u64)c->target_us * NSEC_PER_USEC) >> CODEL_SHIFT;
	q->cparams.interval = ((u64)c->interval_us * NSEC_PER_USEC) >> CODEL_SHIFT;
	q->cparams.ecn = c->ecn;
	q->util_auto_max_q16 = div_u64((u64)c->util_auto_max << 16, 1000);
	if (c->utilisation != AIRFAIR_UTIL_AUTO) {
		q->util_auto = false;
		q->util_q16 = div_u64((u64)c->utilisation << 16, 1000);
	} else if (!q->util_auto) {
		/* from the whole of real time down to what the air carries */
		q->util_auto = true;
		q->util_q16 = min_t(u32, 1 << 16, q->util_auto_max_q16);
		memset(q->auto_rate_q16, 0, sizeof(q->auto_rate_q16));
		q->auto_best_q16 = 0;
		q->auto_startup = true;
		q->auto_startup_q16 = 0;
		q->auto_flat = 0;
		q->auto_epoch_tokens = q->tokens_ns;
		q->auto_epoch_ns = ktime_get_ns();
		q->auto_epoch_air = q->airtime_ns;
	} else {
		/* a lowered ceiling binds at once */
		q->util_q16 = min_t(u32, q->util_q16, q->util_auto_max_q16);
	}
	q->burst_ns = AIRFAIR_METER_SLACK_NS +
		      (s64)c->quantum_us * NSEC_PER_USEC;
	q->turn_burst_ns = q->burst_ns;
}

static int airfair_change_opts(struct Qdisc *sch, struct nlattr *opt, bool create,
			       struct netlink_ext_ack *extack)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_AIRFAIR_MAX + 1];
	struct airfair_sta_req *reqs = NULL;
	struct airfair_config nc = q->cfg;
	struct airfair_sta_costs costs;
	int nreq = 0, rem, err, i, fresh = 0;
	u32 prev_qlen, prev_backlog;
	struct nlattr *nla;

	err = nla_parse_nested(tb, TCA_AIRFAIR_MAX, opt, airfair_policy, extack);
	if (err)
		return err;
	err = airfair_parse_config(tb, &nc, create, extack);
	if (err)
		return err;

	/* Station settings may repeat; validate every one before touching any. */
	nla_for_each_nested(nla, opt, rem)
		if (nla_type(nla) == TCA_AIRFAIR_STATION)
			nreq++;
	if (nreq) {
		reqs = kvcalloc(nreq, sizeof(*reqs), GFP_KERNEL);
		if (!reqs)
			return -ENOMEM;
	}
	i = 0;
	nla_for_each_nested(nla, opt, rem) {
		if (nla_type(nla) != TCA_AIRFAIR_STATION)
			continue;
		err = airfair_parse_station(nla, &reqs[i], extack);
		if (err)
			goto out;
		if (reqs[i].has_rate &&
		    airfair_costs_for(&nc, &reqs[i].rate, reqs[i].loss_q16, &costs)) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "station rate does not fit the PHY preset (band or signal extension)");
			err = -EINVAL;
			goto out;
		}
		/* quadratic, but before the lock: counted once below */
		reqs[i].repeat = airfair_req_seen(reqs, i);
		i++;
	}

	if (create) {
		err = airfair_stas_alloc(q, nc.max_stations);
		if (err)
			goto out;
	}

	/*
	 * The stations in use change under the lock (enqueue creates them,
	 * GC ages them out): check against the table as it is when applied.
	 */
	sch_tree_lock(sch);
	if (airfair_config_costable(q, &nc)) {
		sch_tree_unlock(sch);
		NL_SET_ERR_MSG(extack,
			       "PHY timing does not fit the basic rate or a station's rate");
		err = -EINVAL;
		goto out;
	}
	for (i = 0; i < nreq; i++)
		if (!reqs[i].del && !reqs[i].repeat &&
		    !airfair_sta_find(q, reqs[i].addr))
			fresh++;
	if (fresh > (int)(nc.max_stations - q->nr_stas)) {
		sch_tree_unlock(sch);
		NL_SET_ERR_MSG(extack, "station table is full (max-stations)");
		err = -ENOSPC;
		goto out;
	}
	q->cfg = nc;
	airfair_apply_config(sch);
	airfair_stas_recompute(q);
	for (i = 0; i < nreq; i++)
		airfair_apply_station(q, &reqs[i]);
	prev_qlen = sch->q.qlen;
	prev_backlog = sch->qstats.backlog;
	while (sch->q.qlen > q->cfg.limit || q->memory_used > q->cfg.memlimit) {
		struct sk_buff *skb, *to_free = NULL;

		skb = airfair_drop_one(sch, &to_free);
		if (!skb)
			break;
		rtnl_kfree_skbs(skb, skb);
	}
	qdisc_tree_reduce_backlog(sch, prev_qlen - sch->q.qlen,
				  prev_backlog - sch->qstats.backlog);
	sch_tree_unlock(sch);
	err = 0;
out:
	kvfree(reqs);
	return err;
}

static int airfair_change(struct Qdisc *sch, struct nlattr *opt,
			  struct netlink_ext_ack *extack)
{
	if (!opt)
		return 0;
	return airfair_change_opts(sch, opt, false, extack);
}

static int airfair_init(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct airfair_sched *q = qdisc_priv(sch);
	int err;

	q->cfg = airfair_defaults;
	airfair_timing_preset(AIRFAIR_DEFAULT_PHY, &q->cfg.timing);
	codel_params_init(&q->cparams);
	codel_stats_init(&q->cstats);
	q->cparams.mtu = psched_mtu(qdisc_dev(sch));
	qdisc_watchdog_init(&q->watchdog, sch);
	q->meter_last_ns = ktime_get_ns();
	q->pend_limit_us = AIRFAIR_PENDING_AUTO_START_US;
	q->pend_epoch_ns = q->meter_last_ns;
	q->busy_weight = 1;
	q->cap_weight = 1;
	q->cap_mark_ns = q->meter_last_ns;
	q->next_busy = jiffies;
	q->up_seen = jiffies - AIRFAIR_BUSY_WINDOW - 1;	/* no upload yet */

	if (opt) {
		err = airfair_change_opts(sch, opt, true, extack);
		if (err)
			return err;
	} else {
		err = airfair_stas_alloc(q, q->cfg.max_stations);
		if (err)
			return err;
		airfair_apply_config(sch);
		airfair_stas_recompute(q);
	}
	return airfair_rtt_init(sch, q->cfg.max_stations);
}

/* ---------------------------------------------------------------------------
 * Dumps and statistics
 */

static int airfair_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct airfair_sched *q = qdisc_priv(sch);
	const struct airfair_timing *t;
	const struct airfair_config *c;
	struct airfair_config snap;
	struct nlattr *opts;

	/* a change swaps the whole configuration under the lock */
	sch_tree_lock(sch);
	snap = q->cfg;
	sch_tree_unlock(sch);
	c = &snap;
	t = &c->timing;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_AIRFAIR_LIMIT, c->limit) ||
	    nla_put_u32(skb, TCA_AIRFAIR_MEMLIMIT, c->memlimit) ||
	    nla_put_u8(skb, TCA_AIRFAIR_PHY, t->phy) ||
	    nla_put_u32(skb, TCA_AIRFAIR_SIFS, t->sifs_us) ||
	    nla_put_u32(skb, TCA_AIRFAIR_SLOT, t->slot_us) ||
	    nla_put_u16(skb, TCA_AIRFAIR_CWMIN, t->cwmin) ||
	    nla_put_u16(skb, TCA_AIRFAIR_CWMAX, t->cwmax) ||
	    airfair_put_per_ac(skb, TCA_AIRFAIR_AIFSN, t->aifsn, NULL) ||
	    airfair_put_per_ac(skb, TCA_AIRFAIR_TXOP, NULL, t->txop_us) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RETRIES, t->retries) ||
	    nla_put_u16(skb, TCA_AIRFAIR_BASIC_RATE, t->basic_rate) ||
	    nla_put_u8(skb, TCA_AIRFAIR_MODEL, c->model) ||
	    nla_put_u16(skb, TCA_AIRFAIR_UTILISATION, c->utilisation) ||
	    nla_put_u32(skb, TCA_AIRFAIR_QUANTUM, c->quantum_us) ||
	    nla_put_u8(skb, TCA_AIRFAIR_DELACK, c->delack) ||
	    nla_put_u8(skb, TCA_AIRFAIR_ACK_FILTER, c->ack_filter) ||
	    nla_put_u8(skb, TCA_AIRFAIR_ACK_PRIO, c->ack_prio) ||
	    nla_put_u8(skb, TCA_AIRFAIR_DEFER_DATA, c->defer_data) ||
	    nla_put_u32(skb, TCA_AIRFAIR_TLAS, c->tlas) ||
	    nla_put_u8(skb, TCA_AIRFAIR_RTT_BUFFER, c->rtt_buffer) ||
	    nla_put_u32(skb, TCA_AIRFAIR_TARGET, c->target_us) ||
	    nla_put_u32(skb, TCA_AIRFAIR_INTERVAL, c->interval_us) ||
	    nla_put_u8(skb, TCA_AIRFAIR_ECN, c->ecn) ||
	    nla_put_u32(skb, TCA_AIRFAIR_MAX_STATIONS, c->max_stations) ||
	    nla_put_u32(skb, TCA_AIRFAIR_STA_TIMEOUT, c->sta_timeout_ms) ||
	    nla_put_u8(skb, TCA_AIRFAIR_AMPDU, c->ampdu) ||
	    nla_put_u32(skb, TCA_AIRFAIR_PENDING_LIMIT, c->pending_limit_us) ||
	    nla_put_u8(skb, TCA_AIRFAIR_UPLOAD, c->upload) ||
	    nla_put_u8(skb, TCA_AIRFAIR_UPLOAD_WINDOW, c->upload_window) ||
	    nla_put_u16(skb, TCA_AIRFAIR_UTIL_AUTO_MAX, c->util_auto_max))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static u32 airfair_active_flows(struct Qdisc *sch)
{
	const struct airfair_sched *q = qdisc_priv(sch);
	u32 i, n = 0;
	int f;

	lockdep_assert_held(qdisc_lock(qdisc_root_sleeping(sch)));

	for (i = 0; i < q->nr_slots; i++) {
		if (!q->stas[i].qlen)
			continue;
		for (f = 0; f < AIRFAIR_FLOWS_PER_STA; f++)
			n += !!q->stas[i].flows[f].qlen;
	}
	return n;
}

/* The qdisc's statistics at one instant, copied under the root lock. */
struct airfair_stats_snap {
	u64 airtime_ns;
	u32 stations, flows, drop_limit, drop_memlimit, drop_aqm, drop_rtt;
	u32 drop_ackfilter, ecn_mark, meter_stalls, pending_stalls;
	u32 window_clamps, sta_overflow, memory_used, new_flows;
	u32 pending_limit, pending_underruns, pending_stale, utilisation;
	u32 cap_stalls, queue_below, below_cuts;
};

static int airfair_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct airfair_sched *q = qdisc_priv(sch);
	struct airfair_stats_snap n;
	struct nlattr *st;

	sch_tree_lock(sch);
	n = (struct airfair_stats_snap) {
		.airtime_ns = q->airtime_ns,
		.stations = q->nr_stas,
		.flows = airfair_active_flows(sch),
		.drop_limit = q->drop_limit,
		.drop_memlimit = q->drop_memlimit,
		.drop_aqm = q->drop_aqm,
		.drop_rtt = q->drop_rtt,
		.drop_ackfilter = q->drop_ackfilter,
		.ecn_mark = q->cstats.ecn_mark,
		.meter_stalls = q->meter_stalls,
		.pending_stalls = q->pending_stalls,
		.window_clamps = q->window_clamps,
		.sta_overflow = q->sta_overflow,
		.memory_used = q->memory_used,
		.new_flows = q->new_flows_seen,
		.pending_limit = q->cfg.pending_limit_us ==
				 AIRFAIR_PENDING_LIMIT_AUTO ?
				 q->pend_limit_us : q->cfg.pending_limit_us,
		.pending_underruns = q->pend_underruns,
		.pending_stale = q->pend_stale,
		.utilisation = q->util_q16,
		.cap_stalls = q->cap_stalls,
		.queue_below = q->below_us,
		.below_cuts = q->below_cuts,
	};
	sch_tree_unlock(sch);

	st = nla_nest_start_noflag(d->skb, TCA_STATS_APP);
	if (!st)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(d->skb, TCA_AIRFAIR_STATS_AIRTIME,
			      div_u64(n.airtime_ns, NSEC_PER_USEC),
			      TCA_AIRFAIR_STATS_PAD) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_STATIONS, n.stations) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_FLOWS, n.flows) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_DROP_LIMIT, n.drop_limit) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_DROP_MEMLIMIT, n.drop_memlimit) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_DROP_AQM, n.drop_aqm) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_DROP_RTT, n.drop_rtt) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_DROP_ACKFILTER, n.drop_ackfilter) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_ECN_MARK, n.ecn_mark) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_METER_STALLS, n.meter_stalls) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_PENDING_STALLS, n.pending_stalls) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_PENDING_LIMIT, n.pending_limit) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_PENDING_UNDERRUNS,
			n.pending_underruns) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_PENDING_STALE, n.pending_stale) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_UTILISATION, n.utilisation) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_CAP_STALLS, n.cap_stalls) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_QUEUE_BELOW, n.queue_below) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_BELOW_CUTS, n.below_cuts) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_WINDOW_CLAMPS, n.window_clamps) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_STA_OVERFLOW, n.sta_overflow) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_MEMORY_USED, n.memory_used) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_NEW_FLOWS, n.new_flows) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_RTT_SAMPLES,
			READ_ONCE(q->rtt.samples)) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_STATS_RTT_UNTRACKED,
			READ_ONCE(q->rtt.untracked))) {
		nla_nest_cancel(d->skb, st);
		return -EMSGSIZE;
	}
	nla_nest_end(d->skb, st);
	return 0;
}

/* Stations are the classes: minor number = slot + 1. */
static struct airfair_sta *airfair_class_sta(struct Qdisc *sch, unsigned long cl)
{
	struct airfair_sched *q = qdisc_priv(sch);

	if (!cl || cl > q->nr_slots || !q->stas[cl - 1].in_use)
		return NULL;
	return &q->stas[cl - 1];
}

static struct Qdisc *airfair_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

static unsigned long airfair_find(struct Qdisc *sch, u32 classid)
{
	return airfair_class_sta(sch, TC_H_MIN(classid)) ? TC_H_MIN(classid) : 0;
}

static unsigned long airfair_bind(struct Qdisc *sch, unsigned long parent,
				  u32 classid)
{
	return 0;
}

static void airfair_unbind(struct Qdisc *q, unsigned long cl)
{
}

static struct tcf_block *airfair_tcf_block(struct Qdisc *sch, unsigned long cl,
					   struct netlink_ext_ack *extack)
{
	return NULL;
}

/*
 * A station's settings and counters at one instant, copied under the root
 * lock: the dumps run without it, beside enqueue/dequeue and GC.
 */
struct airfair_sta_snap {
	u8 addr[ETH_ALEN];
	u16 weight;
	u8 source;
	struct tc_airfair_rate rate;
	u32 loss_q16, source_age_ms, cost_a, cost_b, qlen, backlog, drops;
	u32 expected_kbps, pending_us, phy_pending_us, delack, delack_down, rtt_us;
	u32 ampdu_x16, ack_x16, ppdu_loss_q16, cw_x16, up_ampdu_x16, up_loss_q16;
	u16 ampdu_used, up_ampdu_used;
	bool has_up_rate;
	struct tc_airfair_rate up_rate;
	s32 deficit;
	u32 flows[4];	/* TCP down, TCP up, UDP, other */
	u32 tcp_bulk;	/* of the TCP downloads, those past the T-LAS threshold */
	u64 airtime_ns, packets, bytes, upload_frames, backlogged_ns;
	s64 settled_ns;
	u64 told_air_ns, told_wait_ns;
	struct airfair_told_sum told_sum;
};

static int airfair_put_told(struct sk_buff *skb,
			    const struct airfair_told_sum *t)
{
	struct nlattr *nest = nla_nest_start_noflag(skb,
						    TCA_AIRFAIR_CSTATS_TOLD_COUNTS);

	if (!nest ||
	    nla_put_u64_64bit(skb, TCA_AIRFAIR_TOLD_PPDUS, t->ppdus,
			      TCA_AIRFAIR_TOLD_PAD) ||
	    nla_put_u64_64bit(skb, TCA_AIRFAIR_TOLD_WINDOWS, t->windows,
			      TCA_AIRFAIR_TOLD_PAD) ||
	    nla_put_u64_64bit(skb, TCA_AIRFAIR_TOLD_DATA, t->data,
			      TCA_AIRFAIR_TOLD_PAD) ||
	    nla_put_u64_64bit(skb, TCA_AIRFAIR_TOLD_SINGLE, t->single,
			      TCA_AIRFAIR_TOLD_PAD) ||
	    nla_put_u64_64bit(skb, TCA_AIRFAIR_TOLD_LTFS, t->ltfs,
			      TCA_AIRFAIR_TOLD_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static bool airfair_sta_snapshot(struct Qdisc *sch, unsigned long cl,
				 struct airfair_sta_snap *n)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 delack_sum = 0, delack_n = 0, rtt_n = 0, down_sum = 0, down_n = 0;
	/* a long flow as T-LAS counts it, even with T-LAS off */
	u32 bulk = q->cfg.tlas ?: airfair_defaults.tlas;
	const struct airfair_sta *sta;
	u64 rtt_sum = 0;
	int f;

	sch_tree_lock(sch);
	sta = airfair_class_sta(sch, cl);
	if (!sta) {
		sch_tree_unlock(sch);
		return false;
	}
	memset(n, 0, sizeof(*n));
	ether_addr_copy(n->addr, sta->addr);
	n->weight = sta->weight;
	n->source = sta->source;
	n->rate = sta->rate;
	n->loss_q16 = sta->loss_q16;
	n->source_age_ms = jiffies_to_msecs(jiffies - sta->source_changed);
	n->cost_a = sta->costs.data.a_ns;
	n->ampdu_x16 = sta->ampdu_x16;
	n->ack_x16 = sta->ack_x16;
	n->ppdu_loss_q16 = sta->ppdu_loss_q16;
	n->cw_x16 = sta->cw_x16;
	n->settled_ns = sta->settled_ns;
	n->told_air_ns = sta->told_air_ns;
	n->told_wait_ns = sta->told_wait_ns;
	n->told_sum = sta->told_sum;
	n->ampdu_used = airfair_sta_ampdu(&q->cfg, sta);
	n->up_ampdu_x16 = sta->up_ampdu_x16;
	n->up_ampdu_used = airfair_sta_up_ampdu(&q->cfg, sta);
	n->has_up_rate = sta->has_up_rate;
	n->up_rate = sta->up_rate;
	n->up_loss_q16 = sta->up_loss_q16;
	n->cost_b = sta->costs.data.b_ns256;
	n->deficit = clamp_t(s64, (s64)sta->vtime - (s64)q->vtime_floor,
			     S32_MIN, S32_MAX);
	n->qlen = sta->qlen;
	n->backlog = sta->backlog;
	n->drops = sta->drops;
	n->expected_kbps = sta->expected_kbps;
	n->pending_us = sta->pending_us;
	n->phy_pending_us = q->phy_pending_us;
	n->airtime_ns = sta->airtime_ns;
	n->packets = sta->packets;
	n->bytes = sta->bytes;
	n->upload_frames = sta->upload_frames;
	n->backlogged_ns = sta->backlogged_ns;
	if (sta->qlen)
		n->backlogged_ns += ktime_get_ns() - sta->backlog_since;
	for (f = 0; f < AIRFAIR_FLOWS_PER_STA; f++) {
		const struct airfair_flow *flow = &sta->flows[f];

		if (!flow->qlen && !time_before(jiffies, flow->last_seen +
						 AIRFAIR_FLOW_RECENT))
			continue;
		/* weighted by the samples behind each estimate (rtt.c) */
		if (flow->kind == AIRFAIR_FLOW_TCP && flow->rtt_us) {
			rtt_sum += (u64)flow->rtt_us * flow->rtt_weight;
			rtt_n += flow->rtt_weight;
		}
		if (flow->kind == AIRFAIR_FLOW_TCP && flow->dir == AIRFAIR_DIR_UP) {
			n->flows[1]++;
			delack_sum += flow->delack_x256;
			delack_n++;
		} else if (flow->kind == AIRFAIR_FLOW_TCP) {
			n->flows[0]++;
			if (flow->dir == AIRFAIR_DIR_DOWN) {
				down_sum += flow->delack_x256;
				down_n++;
				n->tcp_bulk += flow->sent >= bulk;
			}
		} else if (flow->kind == AIRFAIR_FLOW_UDP) {
			n->flows[2]++;
		} else {
			n->flows[3]++;
		}
	}
	n->delack = delack_n ? delack_sum / delack_n : q->cfg.delack << 8;
	n->delack_down = down_n ? down_sum / down_n : q->cfg.delack << 8;
	n->rtt_us = rtt_n ? (u32)div_u64(rtt_sum, rtt_n) : 0;
	sch_tree_unlock(sch);
	return true;
}

static int airfair_dump_class(struct Qdisc *sch, unsigned long cl,
			      struct sk_buff *skb, struct tcmsg *tcm)
{
	struct airfair_sta_snap n;
	struct nlattr *opts;

	if (!airfair_sta_snapshot(sch, cl, &n))
		return -EINVAL;
	tcm->tcm_handle |= TC_H_MIN(cl);
	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put(skb, TCA_AIRFAIR_STA_ADDR, ETH_ALEN, n.addr) ||
	    nla_put_u16(skb, TCA_AIRFAIR_STA_WEIGHT, n.weight) ||
	    airfair_put_rate(skb, TCA_AIRFAIR_STA_RATE, &n.rate) ||
	    nla_put_u32(skb, TCA_AIRFAIR_STA_LOSS, n.loss_q16) ||
	    nla_put_u8(skb, TCA_AIRFAIR_STA_SOURCE, n.source)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

static int airfair_dump_class_stats(struct Qdisc *sch, unsigned long cl,
				    struct gnet_dump *d)
{
	struct gnet_stats_queue qs = {};
	bool hook_pending = false;
	struct airfair_sta_snap n;
	struct nlattr *st;

	if (!airfair_sta_snapshot(sch, cl, &n))
		return -EINVAL;
	/* the hook's figures, fresh from mac80211 where it can be asked */
	if (n.source == AIRFAIR_SRC_HOOK) {
		hook_pending = true;
		if (airfair_hook_query(qdisc_dev(sch), n.addr, &n.expected_kbps,
				       &n.pending_us, &n.phy_pending_us) == -ENOENT)
			hook_pending = false;	/* mac80211 no longer has it */
	}
	qs.backlog = n.backlog;
	qs.drops = n.drops;
	if (gnet_stats_copy_queue(d, NULL, &qs, n.qlen) < 0)
		return -1;

	st = nla_nest_start_noflag(d->skb, TCA_STATS_APP);
	if (!st)
		return -EMSGSIZE;
	if (nla_put(d->skb, TCA_AIRFAIR_CSTATS_ADDR, ETH_ALEN, n.addr) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_AIRTIME,
			      div_u64(n.airtime_ns, NSEC_PER_USEC),
			      TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_u16(d->skb, TCA_AIRFAIR_CSTATS_WEIGHT, n.weight) ||
	    airfair_put_rate(d->skb, TCA_AIRFAIR_CSTATS_RATE, &n.rate) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_RATE_KBPS,
			airfair_rate_kbps(&n.rate)) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_LOSS, n.loss_q16) ||
	    nla_put_u8(d->skb, TCA_AIRFAIR_CSTATS_SOURCE, n.source) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_SOURCE_AGE, n.source_age_ms) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_COST_A, n.cost_a) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_COST_B, n.cost_b) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_DEFICIT, (u32)n.deficit) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_BACKLOG_PKTS, n.qlen) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_BACKLOG_BYTES, n.backlog) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_FLOWS_TCP_DOWN, n.flows[0]) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP, n.flows[1]) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_FLOWS_UDP, n.flows[2]) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_FLOWS_OTHER, n.flows[3]) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK, n.tcp_bulk) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_DELACK, n.delack) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_DELACK_DOWN, n.delack_down) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_DROPS, n.drops) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_PACKETS, n.packets,
			      TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_BYTES, n.bytes,
			      TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_UPLOAD_FRAMES,
			      n.upload_frames, TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_BACKLOGGED,
			      div_u64(n.backlogged_ns, NSEC_PER_USEC),
			      TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_s64(d->skb, TCA_AIRFAIR_CSTATS_SETTLED,
			div_s64(n.settled_ns, NSEC_PER_USEC),
			TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_TOLD_AIR,
			      div_u64(n.told_air_ns, NSEC_PER_USEC),
			      TCA_AIRFAIR_CSTATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_AIRFAIR_CSTATS_TOLD_WAIT,
			      div_u64(n.told_wait_ns, NSEC_PER_USEC),
			      TCA_AIRFAIR_CSTATS_PAD) ||
	    airfair_put_told(d->skb, &n.told_sum) ||
	    (n.expected_kbps &&
	     nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_EXPECTED_TPUT,
			 n.expected_kbps)) ||
	    (hook_pending &&
	     (nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_PENDING_AIRTIME,
			  n.pending_us) ||
	      nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_PHY_PENDING_AIRTIME,
			  n.phy_pending_us))) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_AMPDU_USED_X16,
			n.ampdu_used) ||
	    (n.ampdu_x16 &&
	     nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_AMPDU, n.ampdu_x16)) ||
	    (n.ack_x16 &&
	     nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_ACKED, n.ack_x16)) ||
	    (n.ack_x16 &&
	     (nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_PPDU_LOSS,
			  n.ppdu_loss_q16) ||
	      nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_CW_SCALE, n.cw_x16))) ||
	    (n.has_up_rate &&
	     (airfair_put_rate(d->skb, TCA_AIRFAIR_CSTATS_UP_RATE, &n.up_rate) ||
	      nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_UP_RATE_KBPS,
			  airfair_rate_kbps(&n.up_rate)) ||
	      nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_UP_LOSS, n.up_loss_q16) ||
	      nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_UP_AMPDU_USED_X16,
			  n.up_ampdu_used) ||
	      (n.up_ampdu_x16 &&
	       nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_UP_AMPDU,
			   n.up_ampdu_x16)))) ||
	    nla_put_u32(d->skb, TCA_AIRFAIR_CSTATS_RTT_US, n.rtt_us)) {
		nla_nest_cancel(d->skb, st);
		return -EMSGSIZE;
	}
	nla_nest_end(d->skb, st);
	return 0;
}

static void airfair_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 i;

	if (arg->stop)
		return;
	for (i = 0; i < q->nr_slots; i++) {
		if (!q->stas[i].in_use)
			continue;
		if (!airfair_walk_step(sch, i + 1, arg))
			break;
	}
}

static const struct Qdisc_class_ops airfair_class_ops = {
	.leaf		= airfair_leaf,
	.find		= airfair_find,
	.tcf_block	= airfair_tcf_block,
	.bind_tcf	= airfair_bind,
	.unbind_tcf	= airfair_unbind,
	.dump		= airfair_dump_class,
	.dump_stats	= airfair_dump_class_stats,
	.walk		= airfair_walk,
};

static struct Qdisc_ops airfair_qdisc_ops __read_mostly = {
	.cl_ops		= &airfair_class_ops,
	.id		= "airfair",
	.priv_size	= sizeof(struct airfair_sched),
	.enqueue	= airfair_enqueue,
	.dequeue	= airfair_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= airfair_init,
	.reset		= airfair_reset,
	.destroy	= airfair_destroy,
	.change		= airfair_change,
	.dump		= airfair_dump,
	.dump_stats	= airfair_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("airfair");

static int __init airfair_module_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct codel_skb_cb) != AIRFAIR_CODEL_CB_LEN);
	BUILD_BUG_ON(sizeof(struct airfair_skb_cb) > QDISC_CB_PRIV_LEN);
	err = register_qdisc(&airfair_qdisc_ops);
	if (!err)
		airfair_hook_init();
	return err;
}

static void __exit airfair_module_exit(void)
{
	airfair_hook_exit();
	unregister_qdisc(&airfair_qdisc_ops);
}

module_init(airfair_module_init);
module_exit(airfair_module_exit);
MODULE_AUTHOR("sch_airfair developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Airtime-fair queueing for WiFi access points");

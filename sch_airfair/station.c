// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair station table: a fixed pool allocated when the qdisc is set up
 * (nothing is allocated per packet), hashed by MAC address, with idle stations
 * aged out. When the pool is exhausted, traffic for further stations shares
 * one overflow station rather than being dropped.
 */
#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include "airfair.h"
#include "phy_params.h"

/*
 * The hash table's key: the address mixed with a per-qdisc random seed, so
 * that nobody can pick addresses that all land in one bucket (any unicast
 * destination reaches the table). The full address is compared on lookup.
 */
static u32 airfair_addr_hash(const struct airfair_sched *q, const u8 *addr)
{
	return jhash_2words(get_unaligned((const u32 *)addr),
			    get_unaligned((const u16 *)(addr + 4)),
			    q->sta_hash_seed);
}

static void airfair_sta_init(struct airfair_sta *sta, const u8 *addr)
{
	int i;

	memset(sta, 0, offsetof(struct airfair_sta, flows));
	ether_addr_copy(sta->addr, addr);
	INIT_LIST_HEAD(&sta->new_flows);
	INIT_LIST_HEAD(&sta->old_flows);
	RB_CLEAR_NODE(&sta->rb);
	/* All-zero codel_vars is CoDel's initial state. */
	memset(sta->flows, 0, sizeof(sta->flows));
	for (i = 0; i < AIRFAIR_FLOWS_PER_STA; i++) {
		INIT_LIST_HEAD(&sta->flows[i].chain);
		sta->flows[i].wscale = -1;
	}
	airfair_sta_set_weight(sta, AIRFAIR_WEIGHT_DEFAULT);
	sta->source = AIRFAIR_SRC_DEFAULT;
	sta->source_changed = jiffies;
	sta->last_active = jiffies;
	sta->up_seen = jiffies - AIRFAIR_BUSY_WINDOW - 1;	/* no upload yet */
	sta->up_share_q8 = AIRFAIR_UP_SHARE_ONE;
	sta->in_use = true;
}

void airfair_sta_set_weight(struct airfair_sta *sta, u16 weight)
{
	sta->weight = weight;
	sta->inv_weight = (1U << 18) / weight;
}

/* The rate a station is charged at until something tells us better. */
static void airfair_default_rate(const struct airfair_timing *t,
				 struct tc_airfair_rate *r)
{
	memset(r, 0, sizeof(*r));
	r->mode = AIRFAIR_MODE_LEGACY;
	r->legacy = t->basic_rate;
	r->nss = 1;
	if (t->sigext_us && r->legacy >= 60)
		r->flags |= AIRFAIR_RATE_F_ERP;
}

/* @n_x16 MPDUs per PPDU at @rate: A-MPDU only exists from HT on */
static u16 airfair_ampdu_at(const struct tc_airfair_rate *rate, u16 n_x16)
{
	return rate->mode == AIRFAIR_MODE_LEGACY ? AIRFAIR_AMPDU_ONE : n_x16;
}

/*
 * Costs of a station at @rate under @c, @ampdu_x16 MPDUs per PPDU (one at
 * a legacy rate), the AP's data contending in @data_ac. The station's own
 * frames (its uploads, the TCP ACKs a download clocks) contend in its BE;
 * with ack-prio the AP's pure ACKs in VO (shorter AIFS and backoff).
 */
static int airfair_costs_at(const struct airfair_config *c,
			    const struct airfair_timing *t,
			    const struct tc_airfair_rate *rate, u32 loss_q16,
			    u32 ppdu_loss_q16, u16 ampdu_x16,
			    enum airfair_ac data_ac,
			    struct airfair_sta_costs *out)
{
	struct airfair_sta_costs other;
	int err;

	ampdu_x16 = airfair_ampdu_at(rate, ampdu_x16);
	err = airfair_sta_costs(t, rate, loss_q16, ppdu_loss_q16,
				AIRFAIR_AC_BE, c->delack, ampdu_x16,
				AIRFAIR_DEFAULT_MSS, c->model, out);
	if (!err && c->ack_prio) {
		err = airfair_sta_costs(t, rate, loss_q16, ppdu_loss_q16,
					AIRFAIR_AC_VO, c->delack, ampdu_x16,
					AIRFAIR_DEFAULT_MSS, c->model, &other);
		if (!err)
			out->ack = other.ack;
	}
	if (!err && data_ac != AIRFAIR_AC_BE) {
		err = airfair_sta_costs(t, rate, loss_q16, ppdu_loss_q16,
					data_ac, c->delack, ampdu_x16,
					AIRFAIR_DEFAULT_MSS, c->model, &other);
		if (!err) {
			out->tcp_down.a_ns += other.data.a_ns - out->data.a_ns;
			out->data = other.data;
		}
	}
	return err;
}

/* `ampdu auto` (0) costs like one MPDU per PPDU until a station's is known */
int airfair_costs_for(const struct airfair_config *c,
		      const struct tc_airfair_rate *rate, u32 loss_q16,
		      struct airfair_sta_costs *out)
{
	return airfair_costs_at(c, &c->timing, rate, loss_q16, loss_q16,
				(c->ampdu ?: 1) * AIRFAIR_AMPDU_ONE,
				airfair_data_ac(c), out);
}

/*
 * The timing a station's frames are priced by: the preset's, whose MAC
 * overhead holds CCMP's bytes, with those its key adds instead where the
 * hook tells them (none on an open network), and tc's TXOP limits, or the
 * interface's as the hook tells them.
 */
static void airfair_sta_timing(const struct airfair_config *c,
			       const struct airfair_sta *sta,
			       struct airfair_timing *t)
{
	*t = c->timing;
	if (sta->has_sec_len)
		airfair_timing_set_sec_len(t, sta->sec_len);
	if (sta->has_txop)
		memcpy(t->txop_us, sta->txop_us, sizeof(t->txop_us));
}

static u16 airfair_ampdu_mean(u32 x16)
{
	return clamp_t(u32, x16, AIRFAIR_AMPDU_ONE,
		       AIRFAIR_MAX_AMPDU * AIRFAIR_AMPDU_ONE);
}

/*
 * MPDUs per PPDU for @sta in 1/16, one at a legacy rate: the configured
 * number, or under `ampdu auto` the mean the hook measured, unrounded.
 */
u16 airfair_sta_ampdu(const struct airfair_config *c,
		      const struct airfair_sta *sta)
{
	return airfair_ampdu_at(&sta->rate, c->ampdu ?
				c->ampdu * AIRFAIR_AMPDU_ONE :
				airfair_ampdu_mean(sta->ampdu_x16));
}

/*
 * The same for what @sta sends (upload data, its TCP ACKs), 1 at a legacy
 * uplink rate: under `ampdu auto` what the hook saw arrive from it; the
 * AP's own figure to it until then, or with a driver that does not mark
 * received A-MPDUs.
 */
u16 airfair_sta_up_ampdu(const struct airfair_config *c,
			 const struct airfair_sta *sta)
{
	return airfair_ampdu_at(&sta->up_rate,
				c->ampdu || !sta->up_ampdu_x16 ?
				airfair_sta_ampdu(c, sta) :
				airfair_ampdu_mean(sta->up_ampdu_x16));
}

/* Can every rate in use, and the default rate, be costed under @c? */
int airfair_config_costable(const struct airfair_sched *q,
			    const struct airfair_config *c)
{
	struct airfair_sta_costs tmp;
	struct tc_airfair_rate def;
	u32 i;

	airfair_default_rate(&c->timing, &def);
	if (airfair_costs_for(c, &def, 0, &tmp))
		return -EINVAL;
	for (i = 0; q->stas && i < q->nr_slots; i++) {
		const struct airfair_sta *sta = &q->stas[i];

		if (sta->in_use && sta->source != AIRFAIR_SRC_DEFAULT &&
		    airfair_costs_for(c, &sta->rate, sta->loss_q16, &tmp))
			return -EINVAL;
	}
	return 0;
}

/*
 * The loss to charge what a station sends at. The hook's uplink loss is the
 * share r of its frames received with the Retry bit: each such frame failed
 * at least once. Read as a per-attempt loss (1 / (1 - r) attempts a frame)
 * it counts every failure as a full attempt at the station's rate, but a
 * station at the limit of its link sends its rate control's probes first at
 * faster rates, which fail and are short: on the testbed's 802.11a mixed
 * scenario r read 0.35-0.55 on capped links and the uploads were charged
 * 1.3-2.7 times their air. Charging a retried frame one more attempt
 * (1 + r, the loss r / (1 + r)) came to 0.84-1.32 over ten such runs, and
 * the two agree within 1 % where r is small (docs/mac80211-hook.md).
 * The same holds with A-MPDUs: the AP's own loss towards the station, which
 * HT/VHT/HE uplinks were charged at before, is that of its short TCP ACKs
 * in AC_VO and read 0.31-0.50 for links whose uploads lost alike.
 */
static u32 airfair_sta_up_loss(const struct airfair_sta *sta)
{
	u64 r = sta->up_loss_q16;

	return div_u64(r * AIRFAIR_LOSS_ONE, AIRFAIR_LOSS_ONE + r);
}

/*
 * The PPDU loss the charged backoff doubles on. The hook's loss is the
 * share of the air that delivered nothing (mac80211 patch 393): mostly
 * subframes lost in A-MPDUs whose BlockAck came back, which resets the
 * window, and failed probes. The window doubles after the PPDUs that got
 * no ACK or BlockAck at all, and those bunch on first attempts (rate
 * control tries fast, then falls back), so the hook reports the window
 * its attempts waited (patch 397), and the charge's chain doubles at the
 * PPDU loss whose attempts wait as long, at the retry limit and CWmax in
 * force (tc may change them; the hook stops at the AC's CWmax too, patch
 * 399). A loss set with tc is a per-attempt one, and doubles the
 * window as the standard's model has it.
 */
static u32 airfair_sta_ppdu_loss(const struct airfair_config *c,
				 const struct airfair_sta *sta)
{
	u32 q;

	if (sta->source != AIRFAIR_SRC_HOOK)
		return sta->loss_q16;
	q = airfair_cw_scale_loss_q16(sta->cw_x16, c->timing.retries,
				      airfair_ac_doublings(&c->timing,
							   airfair_data_ac(c)));
	return min_t(u32, q, AIRFAIR_LOSS_ONE - 1);
}

/*
 * The per-attempt part of a frame's air (AIFS, backoff, SIFS, the ACK or
 * BlockAck) is paid once per PPDU attempt whatever its rate, but the model
 * counts att(loss) / n attempts per MPDU from the air-weighted loss, where
 * rate control's short failed probes weigh little. Where the hook counts
 * the MPDUs acknowledged per PPDU attempt, that part is charged at the
 * count, 16 / ack_x16 attempts per MPDU. Returns the count less the
 * model's, attempts per MPDU in q16 (0 where the model's stands).
 */
static s64 airfair_sta_attempts_delta_q16(const struct airfair_config *c,
					  const struct airfair_sta *sta,
					  u16 ampdu_x16)
{
	u32 model_q16, meas_q16;

	if (sta->source != AIRFAIR_SRC_HOOK || !sta->ack_x16 ||
	    c->model != AIRFAIR_MODEL_PRECISE)
		return 0;
	model_q16 = div_u64((u64)airfair_attempts_q16(sta->loss_q16,
						      c->timing.retries) *
			    AIRFAIR_AMPDU_ONE, ampdu_x16);
	meas_q16 = (AIRFAIR_AMPDU_ONE << 16) / sta->ack_x16;
	return (s64)meas_q16 - model_q16;
}

/* @a's fixed cost moved by @d_q16 attempts of @attempt_ns, never below half */
static void airfair_affine_add_attempts(struct airfair_affine *a, s64 d_q16,
					u64 attempt_ns)
{
	s64 ns = div_s64(d_q16 * (s64)attempt_ns, 65536);

	a->a_ns = clamp_t(s64, (s64)a->a_ns + ns, a->a_ns / 2, U32_MAX);
}

void airfair_sta_update_costs(struct airfair_sched *q, struct airfair_sta *sta)
{
	const struct airfair_config *c = &q->cfg;
	struct airfair_sta_costs up;
	struct airfair_timing t;
	u32 up_loss, ppdu_loss;
	u16 ampdu_x16;
	s64 delta;

	if (sta->source == AIRFAIR_SRC_DEFAULT || sta == q->mcast)
		airfair_default_rate(&c->timing, &sta->rate);
	if (sta == q->mcast)
		sta->loss_q16 = 0;
	ppdu_loss = airfair_sta_ppdu_loss(c, sta);
	ampdu_x16 = airfair_sta_ampdu(c, sta);
	airfair_sta_timing(c, sta, &t);
	if (airfair_costs_at(c, &t, &sta->rate, sta->loss_q16, ppdu_loss,
			     ampdu_x16, airfair_data_ac(c), &sta->costs)) {
		/* Settings were validated on the way in: this cannot fail. */
		WARN_ON_ONCE(1);
		return;
	}
	/*
	 * What the station sends (upload data, its TCP ACKs) goes at its own
	 * rate and loss where the hook knows them (chen-yan Eq. 7 and 9 with
	 * the uplink's rate and loss).
	 */
	up_loss = airfair_sta_up_loss(sta);
	if (sta->has_up_rate && sta != q->mcast && c->model != AIRFAIR_MODEL_NAIVE &&
	    !airfair_costs_at(c, &t, &sta->up_rate, up_loss, up_loss,
			      airfair_sta_up_ampdu(c, sta), AIRFAIR_AC_BE, &up)) {
		sta->costs.up = up.data;
		sta->costs.up_data_ns = up.up_data_ns;
		sta->costs.sta_ack_ns = up.sta_ack_ns;
		sta->costs.tcp_down.a_ns = sta->costs.data.a_ns +
			DIV_ROUND_CLOSEST(up.sta_ack_ns, c->delack);
	}
	delta = airfair_sta_attempts_delta_q16(c, sta, ampdu_x16);
	if (delta) {
		bool agg = ampdu_x16 > AIRFAIR_AMPDU_ONE;
		u64 data = airfair_attempt_fixed_ns(&c->timing,
						    airfair_data_ac(c), agg,
						    ppdu_loss);

		airfair_affine_add_attempts(&sta->costs.data, delta, data);
		airfair_affine_add_attempts(&sta->costs.tcp_down, delta, data);
		/* the AP's pure ACKs: VO with ack-prio, else BE */
		airfair_affine_add_attempts(&sta->costs.ack, delta,
					    airfair_attempt_fixed_ns(&c->timing,
						c->ack_prio ? AIRFAIR_AC_VO :
						AIRFAIR_AC_BE, agg, ppdu_loss));
	}
	sta->flow_quantum = airfair_affine_ns(&sta->costs.data, ETH_FRAME_LEN);
}

/*
 * A report's counts may move at most this much: more (mac80211 re-created
 * the station, a removal was missed) starts them afresh, charging nothing.
 * Reports come every 100 ms while a station sends.
 */
#define AIRFAIR_TOLD_MAX_PPDUS		(1U << 20)
#define AIRFAIR_TOLD_MAX_DATA		(1U << 31)
#define AIRFAIR_SETTLE_MAX_NS		((s64)NSEC_PER_SEC / 4)

/*
 * The hook's running counts of a station's PPDU attempts, the windows they
 * waited, the data of their MPDUs (weighed by the rate each went at), the
 * attempts of one MPDU and the long training fields of their preambles
 * tell what its frames took since the last report: AIFS, backoff,
 * preamble, SIFS and the ACK (one MPDU) or BlockAck of each attempt at its
 * current rate but the LTFs it carried (a lossy station's fallback rates
 * have other spatial streams than its first), and the data at the rates
 * it went at, each MPDU at the mean length of what the station was sent.
 * Its frames were charged ahead, at dequeue, from the hook's means over
 * its recent PPDUs and its air-weighted loss; the difference is what to
 * settle, so that over any stretch a station pays for the air it took,
 * and a burst of loss is charged when it is told rather than spread over
 * the frames that follow it while the means remember it. @acs: the ACs
 * whose counts are this instance's (all at the root, its queue's under
 * mq; none where no instance carries an AC alone). Returns the ns to
 * settle: 0 the first time, after a jump, without ACs, and for the naive
 * model, which charges size / rate alone.
 */
s64 airfair_sta_settle_ns(struct airfair_sched *q, struct airfair_sta *sta,
			  const struct airfair_told *now, unsigned int acs)
{
	bool agg = airfair_sta_ampdu(&q->cfg, sta) > AIRFAIR_AMPDU_ONE;
	const struct airfair_told *was = &sta->told;
	bool fresh = !sta->told_valid;
	struct airfair_told_sum sum = {};
	u64 told = 0, wait = 0, charged;
	struct airfair_timing tm, *t = &tm;
	u32 ltf_ns, nltf = airfair_rate_ltfs(&sta->rate, &ltf_ns);
	s64 ltf_adj = 0;
	int ac;

	airfair_sta_timing(&q->cfg, sta, t);
	if (sta->sent_pkts)
		sta->sent_mean_len = div_u64(sta->sent_bytes, sta->sent_pkts);
	for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
		u32 dp = now->ppdus[ac] - was->ppdus[ac];
		u32 dw = now->windows[ac] - was->windows[ac];
		u32 du = now->data[ac] - was->data[ac];
		u32 ds = now->single[ac] - was->single[ac];
		u32 dl = now->ltfs[ac] - was->ltfs[ac];
		u64 backoff, save, burst;
		u32 first;

		if (!(acs & BIT(ac)))
			continue;
		/* each attempt waited 1 to 2^10 units, and carried data */
		if (dp > AIRFAIR_TOLD_MAX_PPDUS || dw < dp ||
		    dw > dp << AIRFAIR_CW_DOUBLINGS || (du && !dp) ||
		    du > AIRFAIR_TOLD_MAX_DATA || ds > dp ||
		    dl > dp * AIRFAIR_P_MAX_NLTF) {
			fresh = true;
			continue;
		}
		backoff = airfair_backoff_ns(t, ac, dp, dw);
		/*
		 * Under the TXOP of the AC the AP's data goes in, a first
		 * attempt (a window of one unit; each retry waited two or
		 * more) mostly followed another frame after SIFS: it saved
		 * what the dequeue charge took off. Elsewhere (the sparse
		 * pure ACKs in VO) each attempt had an access of its own.
		 */
		first = dp - min(dp, dw - dp);
		save = ac != airfair_data_ac(&q->cfg) ? 0 :
		       airfair_txop_saving_ns(t, &sta->rate, sta->sent_mean_len,
					      ac, airfair_sta_ampdu(&q->cfg, sta));
		/* an ACK answers a PPDU of one MPDU, a BlockAck the others */
		told += ds * airfair_attempt_air_ns(t, &sta->rate, ac, false) +
			(dp - ds) * airfair_attempt_air_ns(t, &sta->rate, ac,
							   agg) + backoff;
		burst = min_t(u64, (u64)first * save,
			      dp * airfair_aifs_ns(t, ac) + backoff);
		told -= burst;
		/*
		 * the preambles' LTFs as told, not as many as the rate's; none
		 * told where the statuses' rates cannot say (HE) or went legacy
		 */
		if (dl)
			ltf_adj += ((s64)dl - (s64)dp * nltf) * ltf_ns;
		/* what they waited, AIFS and backoff, apart in the stats */
		wait += dp * airfair_aifs_ns(t, ac) + backoff - burst;
		sum.data += du;
		sum.ppdus += dp;
		sum.windows += dw;
		sum.single += ds;
		sum.ltfs += dl;
	}
	told += airfair_data_ns(t, &sta->rate, sum.data, sta->sent_mean_len,
				agg);
	told = max_t(s64, (s64)told + ltf_adj, 0);
	sta->told = *now;
	sta->told_valid = true;
	charged = sta->own_charged_ns;
	sta->own_charged_ns = 0;
	sta->sent_bytes = 0;
	sta->sent_pkts = 0;
	if (fresh || !acs || !sta->sent_mean_len ||
	    q->cfg.model == AIRFAIR_MODEL_NAIVE)
		return 0;
	sta->told_air_ns += told - min(told, wait);
	sta->told_wait_ns += wait;
	sta->told_sum.ppdus += sum.ppdus;
	sta->told_sum.windows += sum.windows;
	sta->told_sum.data += sum.data;
	sta->told_sum.single += sum.single;
	sta->told_sum.ltfs += sum.ltfs;
	return clamp_t(s64, (s64)told - (s64)charged, -AIRFAIR_SETTLE_MAX_NS,
		       AIRFAIR_SETTLE_MAX_NS);
}

void airfair_stas_recompute(struct airfair_sched *q)
{
	u32 i;

	for (i = 0; i < q->nr_slots; i++)
		if (q->stas[i].in_use)
			airfair_sta_update_costs(q, &q->stas[i]);
}

static struct airfair_sta *airfair_sta_special(struct airfair_sched *q,
					       u32 slot, const u8 *addr)
{
	struct airfair_sta *sta = &q->stas[slot];

	airfair_sta_init(sta, addr);
	sta->pinned = true;
	airfair_sta_update_costs(q, sta);
	return sta;
}

int airfair_stas_alloc(struct airfair_sched *q, u32 max_stations)
{
	static const u8 overflow_addr[ETH_ALEN];
	u32 i;

	q->nr_slots = max_stations + 2;
	q->stas = kvcalloc(q->nr_slots, sizeof(*q->stas), GFP_KERNEL);
	if (!q->stas)
		return -ENOMEM;
	hash_init(q->sta_hash);
	q->sta_hash_seed = get_random_u32();
	INIT_LIST_HEAD(&q->free_stas);
	INIT_LIST_HEAD(&q->all_stas);
	q->active = RB_ROOT_CACHED;
	for (i = 0; i < max_stations; i++)
		list_add_tail(&q->stas[i].node, &q->free_stas);
	/* Neither is in the hash: they are reached through their pointers. */
	q->mcast = airfair_sta_special(q, max_stations, (const u8 *)"\xff\xff\xff\xff\xff\xff");
	q->overflow = airfair_sta_special(q, max_stations + 1, overflow_addr);
	q->next_gc = jiffies + HZ;
	return 0;
}

void airfair_stas_free(struct airfair_sched *q)
{
	kvfree(q->stas);
	q->stas = NULL;
	q->nr_slots = 0;
}

struct airfair_sta *airfair_sta_find(struct airfair_sched *q, const u8 *addr)
{
	struct airfair_sta *sta;

	hash_for_each_possible(q->sta_hash, sta, hnode,
			       airfair_addr_hash(q, addr))
		if (ether_addr_equal(sta->addr, addr))
			return sta;
	return NULL;
}

/* Look a unicast station up, taking a free slot for a new one; NULL if full. */
struct airfair_sta *airfair_sta_get(struct airfair_sched *q, const u8 *addr)
{
	struct airfair_sta *sta = airfair_sta_find(q, addr);

	if (sta)
		return sta;
	sta = list_first_entry_or_null(&q->free_stas, struct airfair_sta, node);
	if (!sta)
		return NULL;
	list_del(&sta->node);
	airfair_sta_init(sta, addr);
	list_add_tail(&sta->node, &q->all_stas);
	hash_add(q->sta_hash, &sta->hnode, airfair_addr_hash(q, addr));
	q->nr_stas++;
	airfair_sta_update_costs(q, sta);
	return sta;
}

/* Return an idle station's slot to the pool. It must hold no packets. */
void airfair_sta_release(struct airfair_sched *q, struct airfair_sta *sta)
{
	if (WARN_ON_ONCE(sta->qlen || sta->active || sta == q->mcast ||
			 sta == q->overflow))
		return;
	hash_del(&sta->hnode);
	list_move(&sta->node, &q->free_stas);
	sta->in_use = false;
	q->nr_stas--;
}

/*
 * Age out stations idle for longer than the timeout that nobody pinned;
 * a timeout of 0 keeps them. A station in the schedule (in its turn, or
 * in the active tree) is never idle, whatever its queue holds right now.
 */
void airfair_stas_gc(struct airfair_sched *q)
{
	unsigned long timeout = msecs_to_jiffies(q->cfg.sta_timeout_ms);
	struct airfair_sta *sta, *tmp;

	q->next_gc = jiffies + max_t(unsigned long, timeout / 4, HZ / 10);
	if (!q->cfg.sta_timeout_ms)
		return;
	list_for_each_entry_safe(sta, tmp, &q->all_stas, node) {
		if (sta->pinned || sta->qlen || sta->active || sta == q->cur)
			continue;
		if (time_after(jiffies, sta->last_active + timeout))
			airfair_sta_release(q, sta);
	}
}

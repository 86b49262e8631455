// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-medium: discrete-event DCF/EDCA engine (see docs/medium.md).
 *
 * Model, per channel (one contention domain per centre frequency):
 *  - every radio has one EDCA function per AC with its own queue, CW,
 *    backoff counter and retry counter;
 *  - when the medium goes idle at T, an AC with a pending backoff counts
 *    down on the slot grid T + SIFS + AIFSN*slot + k*slot; a frame arriving
 *    at an empty AC whose backoff already ran out transmits at the next grid
 *    point after AIFS (post-backoff rule);
 *  - the smallest transmit time wins; every AC reaching zero in the same slot
 *    transmits too: two or more radios => collision (all fail); two ACs of
 *    one radio => internal collision (higher AC sends, lower ones back off
 *    as if they had collided);
 *  - the others freeze with the slots already counted subtracted;
 *  - success: SIFS + ACK at the control rate; failure (collision or channel
 *    loss): the sender waits the same SIFS + ACK time (ACK timeout), then
 *    doubles CW up to CWmax; after the attempt budget the frame is dropped;
 *    CW resets on success and on drop;
 *  - TXOP: after a success, if the AC has a TXOP limit and the next frame's
 *    exchange fits, it follows after SIFS without backoff.
 */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "phy_params.h"

static uint64_t rng_next(struct medium *m)
{
	/* xorshift64* */
	uint64_t x = m->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	m->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

double med_rand(struct medium *m)
{
	return (rng_next(m) >> 11) * (1.0 / 9007199254740992.0);
}

static int rand_slots(struct medium *m, int cw)
{
	return (int)(rng_next(m) % (uint64_t)(cw + 1));
}

void med_init(struct medium *m, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	/* splitmix the seed so that small seeds give good streams */
	seed += 0x9E3779B97F4A7C15ULL;
	seed = (seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9ULL;
	seed = (seed ^ (seed >> 27)) * 0x94D049BB133111EBULL;
	m->rng = (seed ^ (seed >> 31)) | 1;
	m->qlimit = 100;
	for (int i = 0; i < MED_MAX_RADIOS; i++)
		m->radio[i].chan = -1;
}

void med_default_edca(const struct airfair_timing *t, int ac, struct med_edca *p)
{
	p->aifsn = t->aifsn[ac];
	p->cwmin = airfair_ac_cwmin(t, ac);
	p->cwmax = airfair_ac_cwmax(t, ac);
	p->txop_us = airfair_phy_txop_us(t->phy, ac);
}

int med_chan_get(struct medium *m, uint32_t freq)
{
	struct med_chan *c;
	int i;

	for (i = 0; i < m->nchan; i++)
		if (m->chan[i].freq == freq)
			return i;
	if (m->nchan == MED_MAX_CHANS)
		return 0;
	c = &m->chan[m->nchan];
	memset(c, 0, sizeof(*c));
	c->freq = freq;
	c->phy = m->phy_for ? m->phy_for(m->ctx, freq) :
		 (freq < 3000 ? AIRFAIR_PHY_11G : AIRFAIR_PHY_11A);
	airfair_timing_preset(c->phy, &c->t);
	c->idle_start = m->now;
	MED_LOG(m, 1, "chan %u MHz: phy %d sifs %u slot %u cw %u..%u\n", freq, c->phy,
		c->t.sifs_us, c->t.slot_us, c->t.cwmin, c->t.cwmax);
	return m->nchan++;
}

static int radio_qlen(struct med_radio *rd);

static void ac_setup(struct medium *m, int r, int chan)
{
	struct med_radio *rd = &m->radio[r];
	int q = radio_qlen(rd);

	if (rd->chan >= 0)
		m->chan[rd->chan].queued -= q;
	m->chan[chan].queued += q;
	rd->chan = chan;
	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
		struct med_ac *a = &rd->ac[ac];

		med_default_edca(&m->chan[chan].t, ac, &a->p);
		if (rd->wmm_known)
			a->p = rd->wmm.p[ac];
		rd->edca_set[ac] = m->edca_for && m->edca_for(m->ctx, r, ac, &a->p);
		if (rd->edca_set[ac])
			MED_LOG(m, 1, "radio %d ac %d: EDCA override aifsn %u cw %u..%u txop %u us\n",
				r, ac, a->p.aifsn, a->p.cwmin, a->p.cwmax, a->p.txop_us);
		a->cw = a->p.cwmin;
		a->retry = 0;
	}
}

int med_wmm_take(struct medium *m, int radio, const struct med_wmm *w)
{
	struct med_radio *rd;
	int changed = 0;

	if (radio < 0 || radio >= MED_MAX_RADIOS || !m->radio[radio].present)
		return 0;
	rd = &m->radio[radio];
	rd->wmm = *w;
	rd->wmm_known = true;
	if (rd->chan < 0)
		return 0;	/* ac_setup() takes it with the channel */
	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
		struct med_ac *a = &rd->ac[ac];
		const struct med_edca *p = &w->p[ac];

		if (rd->edca_set[ac] || (a->p.aifsn == p->aifsn && a->p.cwmin == p->cwmin &&
					 a->p.cwmax == p->cwmax && a->p.txop_us == p->txop_us))
			continue;
		a->p = *p;
		/* the window in use stays where it is, within the new bounds */
		if (a->cw < p->cwmin)
			a->cw = p->cwmin;
		if (a->cw > p->cwmax)
			a->cw = p->cwmax;
		changed++;
		MED_LOG(m, 1, "radio %d ac %d: takes its AP's EDCA (set %u): aifsn %u cw %u..%u txop %u us\n",
			radio, ac, w->count, p->aifsn, p->cwmin, p->cwmax, p->txop_us);
	}
	rd->wmm_changes += changed;
	return changed;
}

void med_radio_add(struct medium *m, int idx)
{
	struct med_radio *rd;

	if (idx < 0 || idx >= MED_MAX_RADIOS || m->radio[idx].present)
		return;
	rd = &m->radio[idx];
	memset(rd, 0, sizeof(*rd));
	rd->present = true;
	rd->chan = -1;
	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		rd->ac[ac].backoff = -1;
	MED_LOG(m, 1, "radio %d added\n", idx);
}

static struct med_frame *ac_pop(struct medium *m, struct med_radio *rd, struct med_ac *a)
{
	struct med_frame *f = a->head;

	if (f) {
		if (rd->chan >= 0)
			m->chan[rd->chan].queued--;
		a->head = f->next;
		if (!a->head)
			a->tail = NULL;
		a->qlen--;
		f->next = NULL;
	}
	return f;
}

/* Take f out of its AC queue wherever it stands (an A-MPDU's MPDUs need not be first). */
static void ac_unlink(struct medium *m, struct med_radio *rd, struct med_ac *a,
		      struct med_frame *f)
{
	struct med_frame **pp = &a->head, *prev = NULL;

	while (*pp && *pp != f) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (!*pp)
		return;
	*pp = f->next;
	if (a->tail == f)
		a->tail = prev;
	if (rd->chan >= 0)
		m->chan[rd->chan].queued--;
	a->qlen--;
	f->next = NULL;
}

/* The first MPDU of f's link and TID still queued at its transmitter, NULL none. */
static struct med_frame *link_first(struct medium *m, const struct med_frame *f)
{
	for (struct med_frame *g = m->radio[f->src].ac[f->ac].head; g; g = g->next)
		if (g->tid == f->tid && g->dst == f->dst)
			return g;
	return NULL;
}

/* f has left its queue: what was held behind it on its link may go */
static void link_settle(struct medium *m, const struct med_frame *f)
{
	struct med_frame *g;

	if (!m->rx_release || f->tid == MED_NO_TID)
		return;
	g = link_first(m, f);
	m->rx_release(m->ctx, f->src, f->dst, f->tid, g ? g->seq : UINT64_MAX);
}

/* at delivery: is an earlier MPDU of f's link and TID still queued? */
static void rx_order(struct medium *m, struct med_frame *f)
{
	f->rx_held = m->rx_release && f->tid != MED_NO_TID && link_first(m, f) != f;
}

void med_radio_del(struct medium *m, int idx)
{
	struct med_radio *rd;

	if (idx < 0 || idx >= MED_MAX_RADIOS || !m->radio[idx].present)
		return;
	rd = &m->radio[idx];
	/* a transmission in flight keeps its frame until it ends; drop the rest */
	for (int c = 0; c < m->nchan; c++)
		for (int i = 0; i < m->chan[c].ntx; i++)
			if (m->chan[c].tx[i].radio == idx) {
				m->chan[c].tx[i].f = NULL;	/* caller frees via queue flush below */
				m->chan[c].tx[i].nagg = 0;
			}
	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
		struct med_frame *f;

		while ((f = ac_pop(m, rd, &rd->ac[ac]))) {
			f->acked = false;
			f->dropped = true;
			link_settle(m, f);
			if (m->done)
				m->done(m->ctx, f);
		}
	}
	rd->present = false;
	MED_LOG(m, 1, "radio %d removed\n", idx);
}

static int radio_qlen(struct med_radio *rd)
{
	int n = 0;

	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		n += rd->ac[ac].qlen;
	return n;
}

static uint64_t aifs_ns(const struct med_chan *c, const struct med_ac *a)
{
	return (uint64_t)(c->t.sifs_us + a->p.aifsn * c->t.slot_us) * 1000;
}

/* Put an AC that has a frame and a backoff on the slot grid of channel c. */
static void ac_arm(struct medium *m, struct med_chan *c, struct med_ac *a)
{
	uint64_t start, slot = c->t.slot_us * 1000ULL;

	if (c->busy)
		return;		/* armed when the medium goes idle */
	start = c->idle_start + aifs_ns(c, a);
	if (m->now > start)
		start += (m->now - start + slot - 1) / slot * slot;
	a->resume_ns = start;
}

static int dst_slot(const struct med_frame *f)
{
	return f->dst >= 0 ? f->dst : MED_BCAST;
}

/*
 * queue-drop fattest: a full queue makes room for @f by dropping the newest
 * unsent frame of the receiver with the most frames queued, as mac80211's
 * per-station queues drop from the longest flow, instead of refusing @f. A
 * frame to a receiver with little queued (a handshake, an ARP reply) then
 * goes through a flood to another. False if @f's receiver is the fattest, or
 * nothing can go: frames that were tried, and each AC's head, stay.
 */
static bool drop_fattest(struct medium *m, struct med_radio *rd, struct med_frame *f)
{
	int n[MED_MAX_RADIOS + 1] = { 0 }, fat = dst_slot(f);
	struct med_frame *victim = NULL;
	struct med_ac *va = NULL;

	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		for (struct med_frame *g = rd->ac[ac].head; g; g = g->next)
			n[dst_slot(g)]++;
	for (int d = 0; d <= MED_MAX_RADIOS; d++)
		if (n[d] > n[fat])
			fat = d;
	if (fat == dst_slot(f))
		return false;
	for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		for (struct med_frame *g = rd->ac[ac].head; g; g = g->next)
			if (g != rd->ac[ac].head && !g->attempts && dst_slot(g) == fat) {
				victim = g;
				va = &rd->ac[ac];
			}
	if (!victim)
		return false;
	ac_unlink(m, rd, va, victim);
	link_settle(m, victim);
	m->cell[victim->src][fat][victim->ac].qdrops++;
	victim->acked = false;
	victim->dropped = true;
	MED_LOG(m, 2, "radio %d ac %d: queue full, drop cookie %llu of the fattest receiver\n",
		victim->src, victim->ac, (unsigned long long)victim->cookie);
	if (m->done)
		m->done(m->ctx, victim);
	return true;
}

bool med_enqueue(struct medium *m, struct med_frame *f)
{
	struct med_radio *rd;
	struct med_ac *a;
	int ch;

	if (f->src < 0 || f->src >= MED_MAX_RADIOS)
		return false;
	if (!m->radio[f->src].present)
		med_radio_add(m, f->src);
	rd = &m->radio[f->src];
	f->enq_ns = m->now;
	f->seq = ++m->enq_seq;
	f->rx_held = false;
	f->next = NULL;
	f->attempts = 0;
	memset(f->used, 0, sizeof(f->used));
	f->rep_len = f->rep_ack = f->rep_n = 0;
	if (radio_qlen(rd) >= m->qlimit && !(m->qdrop_fattest && drop_fattest(m, rd, f))) {
		m->cell[f->src][dst_slot(f)][f->ac].qdrops++;
		f->dropped = true;
		MED_LOG(m, 2, "radio %d ac %d: queue full, drop cookie %llu\n", f->src, f->ac,
			(unsigned long long)f->cookie);
		return false;
	}
	ch = med_chan_get(m, f->freq);
	if (rd->chan != ch)
		ac_setup(m, f->src, ch);
	a = &rd->ac[f->ac];
	if (a->tail)
		a->tail->next = f;
	else
		a->head = f;
	a->tail = f;
	a->qlen++;
	m->chan[ch].queued++;
	if (radio_qlen(rd) > rd->qpeak)
		rd->qpeak = radio_qlen(rd);
	if (a->qlen == 1) {
		/* post-backoff over: may send after AIFS if idle; if busy, draw one */
		if (a->backoff < 0)
			a->backoff = m->chan[ch].busy ? rand_slots(m, a->cw) : 0;
		a->contend_since = m->now;
		ac_arm(m, &m->chan[ch], a);
	}
	MED_LOG(m, 3, "radio %d ac %d: enqueue cookie %llu len %u dst %d qlen %d\n", f->src,
		f->ac, (unsigned long long)f->cookie, f->len, f->dst, a->qlen);
	return true;
}

static void cell_count_rate1(struct med_cell *c, const struct med_frame *f)
{
	uint32_t kbps = airfair_rate_kbps(&f->rate[0]);
	int i;

	for (i = 0; i < MED_RATE_HIST - 1; i++)
		if (c->rate1[i].kbps == kbps || !c->rate1[i].kbps)
			break;
	if (i == MED_RATE_HIST - 1)
		kbps = 0;	/* the overflow slot: "other" */
	c->rate1[i].kbps = kbps;
	c->rate1[i].bytes += f->len;
}

static uint64_t ac_tx_time(const struct med_chan *c, const struct med_ac *a)
{
	return a->resume_ns + (uint64_t)a->backoff * c->t.slot_us * 1000;
}

/* The rate slot to use for the next attempt, -1 if the budget is spent. */
static int next_rate(struct medium *m, struct med_frame *f)
{
	int total = 0;

	for (int i = 0; i < f->nrates; i++)
		total += f->count[i];
	if (m->retry_limit && total > m->retry_limit)
		total = m->retry_limit;
	if (f->attempts >= total)
		return -1;
	for (int i = 0; i < f->nrates; i++)
		if (f->used[i] < f->count[i])
			return i;
	return -1;
}

static uint64_t chan_next(struct medium *m, int ci)
{
	struct med_chan *c = &m->chan[ci];
	uint64_t best = UINT64_MAX;

	if (c->busy)
		return c->busy_end;
	if (c->queued <= 0)
		return UINT64_MAX;
	for (int r = 0; r < MED_MAX_RADIOS; r++) {
		struct med_radio *rd = &m->radio[r];

		if (!rd->present || rd->chan != ci)
			continue;
		for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
			struct med_ac *a = &rd->ac[ac];

			if (a->head && a->backoff >= 0) {
				uint64_t t = ac_tx_time(c, a);

				if (t < best)
					best = t;
			}
		}
	}
	return best;
}

uint64_t med_next_event(struct medium *m)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < m->nchan; i++) {
		uint64_t t = chan_next(m, i);

		if (t < best)
			best = t;
	}
	return best;
}

/* An MPDU's share of an A-MPDU: delimiter, MPDU with FCS, padded to 4 bytes. */
static uint32_t ampdu_subframe_len(const struct med_frame *f)
{
	return (AIRFAIR_P_DELIM_LEN + f->len + AIRFAIR_P_FCS_LEN + 3) & ~3U;
}

static uint32_t ampdu_max_len(const struct tc_airfair_rate *r)
{
	return r->mode == AIRFAIR_MODE_HT ? AIRFAIR_P_HT_AMPDU_LEN : AIRFAIR_P_VHT_AMPDU_LEN;
}

/*
 * The MPDUs that follow the head frame f into one A-MPDU: queued behind it in
 * the same AC for the same receiver, at the same rate for this attempt, within
 * the BlockAck window (m->ampdu_max), the PHY's A-MPDU length, aPPDUMaxTime
 * and the AC's TXOP limit. Frames for other receivers keep their place.
 */
static void ampdu_collect(struct medium *m, struct med_chan *c, struct med_ac *a,
			  struct med_tx *tx, uint64_t resp_ns)
{
	struct med_frame *f = tx->f;
	const struct tc_airfair_rate *r = &f->rate[tx->rate_i];
	uint32_t len = ampdu_subframe_len(f);
	uint64_t limit_ns = AIRFAIR_P_PPDU_MAX_US * 1000ULL;

	if (a->p.txop_us && (uint64_t)a->p.txop_us * 1000 - resp_ns < limit_ns)
		limit_ns = (uint64_t)a->p.txop_us * 1000 - resp_ns;
	for (struct med_frame *n = f->next; n && tx->nagg < m->ampdu_max; n = n->next) {
		int ri = next_rate(m, n);
		uint32_t l;

		if (!n->ampdu || n->dst != f->dst || n->no_ack || ri < 0 ||
		    memcmp(&n->rate[ri], r, sizeof(*r)))
			continue;
		l = len + ampdu_subframe_len(n);
		if (l > ampdu_max_len(r) || airfair_ppdu_ns(r, l) > limit_ns)
			break;
		len = l;
		tx->agg[tx->nagg++] = n;
	}
	if (tx->nagg > 1)
		tx->ppdu_ns = airfair_ppdu_ns(r, len);
	(void)c;
}

static void begin_attempt(struct medium *m, struct med_chan *c, int r, int ac)
{
	struct med_tx *tx = &c->tx[c->ntx++];
	struct med_ac *a = &m->radio[r].ac[ac];
	struct med_frame *f = a->head;
	int ri = next_rate(m, f);

	if (ri < 0)
		ri = f->nrates - 1;	/* cannot happen: frames leave when spent */
	memset(tx, 0, sizeof(*tx));
	tx->f = f;
	tx->radio = r;
	tx->ac = ac;
	tx->rate_i = ri;
	tx->agg[0] = f;
	tx->nagg = 1;
	tx->ppdu_ns = airfair_ppdu_ns(&f->rate[ri], f->len + 4);
	if (m->ampdu_max > 1 && f->ampdu && !f->no_ack && f->dst >= 0 && f->dst != MED_BCAST)
		ampdu_collect(m, c, a, tx, (uint64_t)c->t.sifs_us * 1000 +
			      airfair_ctrl_ns(&c->t, c->t.ba_len));
	for (int i = 0; i < tx->nagg; i++) {
		struct med_frame *g = tx->agg[i];
		int gi = next_rate(m, g);

		g->used[gi < 0 ? g->nrates - 1 : gi]++;
		g->attempts++;
	}
	tx->resp_ns = f->no_ack ? 0 :
		(uint64_t)c->t.sifs_us * 1000 +
		airfair_ctrl_ns(&c->t, tx->nagg > 1 ? c->t.ba_len : c->t.ack_len);
}

/*
 * The idle an AC contending for an access at ts has waited this round:
 * since the medium went idle or its frame reached the head of its queue,
 * whichever is later.
 */
static uint64_t ac_waited(const struct med_chan *c, const struct med_ac *a, uint64_t ts)
{
	uint64_t from = a->contend_since > c->idle_start ? a->contend_since : c->idle_start;

	return ts > from ? ts - from : 0;
}

/* What sch_airfair's settlement would price an attempt at, at its own rate. */
static double settle_model_us(const struct med_chan *c, const struct med_tx *tx)
{
	const struct tc_airfair_rate *r = &tx->f->rate[tx->rate_i];
	bool agg = tx->nagg > 1;
	uint32_t kbps = airfair_rate_kbps(r);
	double ns, sub = 0;

	if (!kbps)
		return 0;
	ns = (double)airfair_attempt_air_ns(&c->t, r, tx->ac, agg) -
	     (double)airfair_aifs_ns(&c->t, tx->ac);
	for (int j = 0; j < tx->nagg; j++)
		sub += tx->agg[j]->len + AIRFAIR_P_FCS_LEN +
		       (agg || r->mode >= AIRFAIR_MODE_VHT ? AIRFAIR_P_DELIM_LEN : 0) +
		       (agg ? 1.5 : 0);
	return (ns + sub * 8e6 / kbps) / 1000.0;
}

/* Outcomes and airtime of the attempts in c->tx[], which all start at ts. */
static void launch(struct medium *m, int ci, uint64_t ts, uint64_t idle)
{
	struct med_chan *c = &m->chan[ci];
	uint64_t end = 0;

	for (int i = 0; i < c->ntx; i++) {
		struct med_tx *tx = &c->tx[i];
		uint64_t e = tx->ppdu_ns + tx->resp_ns;

		if (e > end)
			end = e;
	}
	for (int i = 0; i < c->ntx; i++) {
		struct med_tx *tx = &c->tx[i];
		struct med_frame *f = tx->f;
		int dst = f->dst >= 0 ? f->dst : MED_BCAST;
		struct med_cell *cell = &m->cell[tx->radio][dst][tx->ac];
		int sig = 0;

		{
			struct med_ac *a = &m->radio[tx->radio].ac[tx->ac];
			uint64_t w = idle ? ac_waited(c, a, ts) : 0;

			cell->idle_ns += w / c->ntx;
			c->idle_ns += w / c->ntx;
			cell->waited_ns += a->waited_ns + w;
			cell->rewaited_ns += a->rewaited_ns;
			a->waited_ns = 0;
			a->rewaited_ns = 0;
			/* the window its backoff was drawn from, in CWmin + 1 */
			cell->cw_units += (a->cw + 1) / (a->p.cwmin + 1);
			if (idle) {
				double cw = a->cw, slot = c->t.slot_us;

				cell->idle_due_us += (aifs_ns(c, a) / 1000.0 +
						      cw * slot / 2) / c->ntx;
				cell->idle_var_us2 += cw * (cw + 2) / 12 * slot * slot /
						      ((double)c->ntx * c->ntx);
			}
		}
		cell->attempts++;
		{
			uint32_t ltf_ns, kbps;

			cell->ltfs += airfair_rate_ltfs(&f->rate[tx->rate_i], &ltf_ns);
			kbps = airfair_rate_kbps(&f->rate[tx->rate_i]);

			if (kbps)
				cell->mpdu_byte_us += tx->nagg * 8000.0 / kbps;
		}
		if (!f->no_ack && f->dst >= 0 && f->dst != MED_BCAST)
			cell->model_us += settle_model_us(c, tx);
		if (c->ntx > 1) {
			tx->ok = false;
			cell->collisions++;
			cell->coll_ns += end / c->ntx;	/* colliders share the busy period */
		} else if (f->no_ack || f->dst == MED_BCAST) {
			tx->ok = true;	/* per-receiver loss decided at delivery */
		} else if (f->dst < 0) {
			tx->ok = false;	/* nobody will ACK */
			cell->lost_ns += tx->ppdu_ns + tx->resp_ns;
		} else {
			/* each MPDU of an A-MPDU lives or dies on its own (its own length) */
			tx->ok = false;
			for (int j = 0; j < tx->nagg; j++) {
				struct med_frame *g = tx->agg[j];

				tx->per = m->per ? m->per(m->ctx, tx->radio, g->dst,
							  &g->rate[tx->rate_i], g->len + 4, &sig)
						 : 0.0;
				tx->agg_ok[j] = med_rand(m) >= tx->per;
				tx->ok |= tx->agg_ok[j];
				g->signal = sig;
			}
			if (!tx->ok)
				cell->lost_ns += tx->ppdu_ns + tx->resp_ns;
		}
		cell->ppdu_fails += !tx->ok;	/* what doubles the window */
		if (tx->nagg > 1) {
			cell->ampdus++;
			cell->ampdu_mpdus += tx->nagg;
		}
		MED_LOG(m, 2, "chan %u: radio %d ac %d tx cookie %llu attempt %d rate#%d len %u "
			"ppdu %.1f us idle %.1f us -> %s (per %.3f)\n", c->freq, tx->radio, tx->ac,
			(unsigned long long)f->cookie, f->attempts, tx->rate_i, f->len,
			tx->ppdu_ns / 1000.0, idle / 1000.0,
			c->ntx > 1 ? "COLLISION" : tx->ok ? "ok" : "lost", tx->per);
	}
	c->busy = true;
	c->busy_start = ts;
	c->busy_end = ts + end;
}

static void start_tx(struct medium *m, int ci, uint64_t ts)
{
	struct med_chan *c = &m->chan[ci];
	uint64_t slot = c->t.slot_us * 1000ULL;

	c->ntx = 0;
	for (int r = 0; r < MED_MAX_RADIOS; r++) {
		struct med_radio *rd = &m->radio[r];
		int sent = -1;

		if (!rd->present || rd->chan != ci)
			continue;
		for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
			struct med_ac *a = &rd->ac[ac];
			uint64_t w;

			if (!a->head || a->backoff < 0)
				continue;
			w = ac_waited(c, a, ts);
			if (ac_tx_time(c, a) == ts) {
				if (sent < 0) {
					sent = ac;
					a->txop_start_ns = ts;
					continue;
				}
				/* internal collision: lower-priority AC backs off */
				a->retry++;
				a->cw = (a->cw * 2 + 1) > a->p.cwmax ? a->p.cwmax : a->cw * 2 + 1;
				a->backoff = rand_slots(m, a->cw);
				a->resume_ns = ts + slot;
				a->rewaited_ns += w;
				MED_LOG(m, 2, "radio %d: internal collision, ac %d yields to ac %d, cw %u\n",
					r, ac, sent, a->cw);
			} else if (ts > a->resume_ns) {
				uint64_t down = ts - a->resume_ns;

				a->backoff -= (int)(down / slot);
				if (a->backoff < 1)
					a->backoff = 1;	/* off-grid arrival rounding */
				a->rewaited_ns += w > down ? w - down : 0;
			} else {
				a->rewaited_ns += w;
			}
			/* the idle it waited this round, which the winner's idle counts */
			a->waited_ns += w;
		}
		if (sent >= 0)
			begin_attempt(m, c, r, sent);
	}
	launch(m, ci, ts, ts - c->idle_start);
}

/* the failed attempts carried for f's link: its sender, its receiver and its AC */
static struct med_unreported *unreported(struct medium *m, int radio,
					 const struct med_frame *f)
{
	return &m->ampdu_unreported[radio][f->dst][f->ac];
}

/* a failed A-MPDU attempt at slot s of f's chain, to be told on a later report */
static void unreported_add(struct med_unreported *u, const struct med_frame *f, int s,
			   int nagg)
{
	int i = 0;

	u->attempts++;
	u->mpdus += nagg;

	while (i < u->n && u->tok[i] != f->rate_tok[s])
		i++;
	if (i == MED_MAX_RATES)
		i = u->n - 1;	/* more rates than a report holds: counted at the last */
	if (i == u->n) {
		u->n++;
		u->tok[i] = f->rate_tok[s];
		u->fails[i] = 0;
	}
	if (u->fails[i] < UINT8_MAX)
		u->fails[i]++;
}

/*
 * Append n attempts at the rate named tok to f's report, as its last entry
 * (an earlier entry of that rate moves there); past MED_MAX_RATES entries
 * the oldest folds into the next, so that every attempt is told.
 */
static void report_add(struct med_frame *f, uint32_t tok, unsigned int n)
{
	for (int i = 0; i < f->rep_n; i++) {
		if (f->rep_tok[i] != tok)
			continue;
		n += f->rep_count[i];
		memmove(&f->rep_tok[i], &f->rep_tok[i + 1], (f->rep_n - i - 1) * sizeof(*f->rep_tok));
		memmove(&f->rep_count[i], &f->rep_count[i + 1], f->rep_n - i - 1);
		f->rep_n--;
		break;
	}
	if (f->rep_n == MED_MAX_RATES) {
		unsigned int c = f->rep_count[0] + f->rep_count[1];

		f->rep_count[1] = c > UINT8_MAX ? UINT8_MAX : c;
		memmove(&f->rep_tok[0], &f->rep_tok[1], (MED_MAX_RATES - 1) * sizeof(*f->rep_tok));
		memmove(&f->rep_count[0], &f->rep_count[1], MED_MAX_RATES - 1);
		f->rep_n--;
	}
	f->rep_tok[f->rep_n] = tok;
	f->rep_count[f->rep_n++] = n > UINT8_MAX ? UINT8_MAX : n;
}

/*
 * f's report of an attempt of nagg MPDUs, got of them acknowledged, at the
 * rate named tok: the link's failed attempts first, at the rates they went
 * at, and the MPDUs per attempt over all of them (see rep_len).
 */
static void report_attempts(struct medium *m, int radio, struct med_frame *f, uint32_t tok,
			    int nagg, int got)
{
	struct med_unreported *u = unreported(m, radio, f);
	int64_t n = u->attempts + 1, mpdus = (int64_t)u->mpdus + nagg + u->carry;
	int64_t len = mpdus > 0 ? mpdus / n : 0;

	f->rep_n = 0;
	for (int i = 0; i < u->n; i++)
		report_add(f, u->tok[i], u->fails[i]);
	report_add(f, tok, 1);
	u->n = 0;
	u->attempts = u->mpdus = 0;
	if (len < got)
		len = got;
	len = len < 1 ? 1 : len > UINT8_MAX ? UINT8_MAX : len;
	/* whole lengths round down; the rest goes to the next report (bounded) */
	mpdus -= len * n;
	u->carry = mpdus < -UINT8_MAX ? -UINT8_MAX : mpdus > UINT8_MAX ? UINT8_MAX : mpdus;
	f->rep_len = len;
	f->rep_ack = got;
}

static void frame_finish(struct medium *m, struct med_chan *c, struct med_tx *tx, bool acked)
{
	struct med_frame *f = tx->f;
	struct med_ac *a = &m->radio[tx->radio].ac[tx->ac];

	if (f->ampdu) {
		/*
		 * A frame of a BlockAck session sent alone: an A-MPDU of one.
		 * Its own failed attempts were told to the link's next report,
		 * which is this one unless an A-MPDU came between.
		 */
		if (f->dst >= 0 && f->dst != MED_BCAST) {
			report_attempts(m, tx->radio, f, f->rate_tok[tx->rate_i], 1, acked);
		} else {
			f->rep_len = 1;
			f->rep_ack = acked;
			f->rep_n = 0;
			report_add(f, f->rate_tok[tx->rate_i], 1);
		}
	}

	ac_pop(m, &m->radio[tx->radio], a);
	link_settle(m, f);
	a->contend_since = m->now;
	f->acked = acked;
	a->retry = 0;
	a->cw = a->p.cwmin;
	a->backoff = rand_slots(m, a->cw);	/* post-backoff */
	if (m->done)
		m->done(m->ctx, f);
	(void)c;
}

static void deliver(struct medium *m, struct med_chan *c, struct med_tx *tx)
{
	struct med_frame *f = tx->f;

	f->rx_ampdu = 0;	/* a PPDU of its own */

	if (f->dst >= 0 && f->dst != MED_BCAST) {
		rx_order(m, f);
		if (m->rx && m->radio[f->dst].present)
			m->rx(m->ctx, f, f->dst, f->signal);
		return;
	}
	for (int r = 0; r < MED_MAX_RADIOS; r++) {
		int sig = 0;
		double per;

		if (r == tx->radio || !m->radio[r].present)
			continue;
		per = m->per ? m->per(m->ctx, tx->radio, r, &f->rate[tx->rate_i], f->len + 4, &sig)
			     : 0.0;
		if (med_rand(m) < per) {
			MED_LOG(m, 3, "group frame cookie %llu lost at radio %d (per %.3f)\n",
				(unsigned long long)f->cookie, r, per);
			continue;
		}
		if (m->rx)
			m->rx(m->ctx, f, r, sig);
	}
	(void)c;
}

void med_deliver_free(struct medium *m, struct med_frame *f)
{
	struct med_tx tx = { .f = f, .radio = f->src };

	deliver(m, NULL, &tx);
	f->acked = true;
	if (m->done)
		m->done(m->ctx, f);
}

/*
 * The end of an A-MPDU attempt: the BlockAck names the MPDUs that arrived;
 * they are delivered and leave the queue wherever they stand, the others stay
 * for a retransmission (selective repeat) or leave when their budget is spent.
 * One BlockAck resets the contention window as an ACK would.
 */
static void ampdu_end(struct medium *m, struct med_tx *tx)
{
	struct med_radio *rd = &m->radio[tx->radio];
	struct med_ac *a = &rd->ac[tx->ac];
	struct med_cell *cell = &m->cell[tx->radio][tx->f->dst][tx->ac];
	struct med_frame *rep = NULL;
	int got = 0;

	for (int j = 0; j < tx->nagg; j++)
		got += tx->agg_ok[j];
	/*
	 * Rate control hears of each A-MPDU once: on the status of one of its
	 * frames that finishes now (an acknowledged one first). Attempts none of
	 * whose frames finished are carried to the next report on the link.
	 */
	for (int j = 0; j < tx->nagg && !rep; j++)
		if (tx->agg_ok[j])
			rep = tx->agg[j];
	for (int j = 0; j < tx->nagg && !rep; j++)
		if (next_rate(m, tx->agg[j]) < 0)
			rep = tx->agg[j];
	if (rep)
		report_attempts(m, tx->radio, rep, tx->f->rate_tok[tx->rate_i], tx->nagg, got);
	else
		unreported_add(unreported(m, tx->radio, tx->f), tx->f, tx->rate_i, tx->nagg);

	if (tx->ok) {
		cell->data_ns += tx->ppdu_ns;
		cell->ovh_ns += tx->resp_ns;
		/* the receiver marks its subframes with the A-MPDU's number */
		if (!++m->ampdus_delivered)
			m->ampdus_delivered = 1;
	}
	for (int j = 0; j < tx->nagg; j++) {
		struct med_frame *g = tx->agg[j];

		if (tx->agg_ok[j]) {
			cell->frames++;
			cell->bytes += g->len;
			cell_count_rate1(cell, g);
			g->rx_ampdu = m->ampdus_delivered;
			rx_order(m, g);
			if (m->rx && m->radio[g->dst].present)
				m->rx(m->ctx, g, g->dst, g->signal);
		} else if (next_rate(m, g) >= 0) {
			continue;	/* stays queued: it goes again */
		} else {
			cell->failures++;
		}
		ac_unlink(m, rd, a, g);
		link_settle(m, g);
		g->acked = tx->agg_ok[j];
		if (m->done)
			m->done(m->ctx, g);
	}
	MED_LOG(m, 2, "radio %d ac %d: A-MPDU of %d, %d acknowledged\n", tx->radio, tx->ac,
		tx->nagg, got);
	/*
	 * The window resets where the exchange is reported: a BlockAck came
	 * back, or a frame ran out of attempts (as a frame sent alone resets
	 * it when dropped), so that each report's retry chain tells the
	 * windows its attempts waited.
	 */
	if (rep) {
		a->retry = 0;
		a->cw = a->p.cwmin;
	} else {
		a->retry++;
		a->cw = (a->cw * 2 + 1) > a->p.cwmax ? a->p.cwmax : a->cw * 2 + 1;
	}
	a->backoff = rand_slots(m, a->cw);
	a->contend_since = m->now;
}

static void end_tx(struct medium *m, int ci)
{
	struct med_chan *c = &m->chan[ci];
	int cont_r = -1, cont_ac = -1;
	bool cont = false;
	uint64_t end = c->busy_end;

	for (int i = 0; i < c->ntx; i++) {
		struct med_tx *tx = &c->tx[i];
		struct med_frame *f = tx->f;
		struct med_ac *a;
		int dst;
		struct med_cell *cell;

		if (!f)
			continue;	/* its radio went away */
		if (tx->nagg > 1) {
			ampdu_end(m, tx);
			continue;
		}
		a = &m->radio[tx->radio].ac[tx->ac];
		dst = f->dst >= 0 ? f->dst : MED_BCAST;
		cell = &m->cell[tx->radio][dst][tx->ac];
		if (tx->ok) {
			cell->data_ns += tx->ppdu_ns;
			cell->ovh_ns += tx->resp_ns;
			cell->frames++;
			cell->bytes += f->len;
			cell_count_rate1(cell, f);
			deliver(m, c, tx);
			MED_LOG(m, 2, "radio %d ac %d: cookie %llu done after %d attempt(s)%s\n",
				tx->radio, tx->ac, (unsigned long long)f->cookie, f->attempts,
				f->no_ack || dst == MED_BCAST ? " (no ack)" : ", acked");
			if (a->p.txop_us && c->ntx == 1) {
				/* TXOP: may the next frame follow after SIFS? */
				frame_finish(m, c, tx, true);
				if (a->head && next_rate(m, a->head) >= 0) {
					struct med_frame *n = a->head;
					int ri = next_rate(m, n);
					uint64_t need = (uint64_t)c->t.sifs_us * 1000 +
						airfair_ppdu_ns(&n->rate[ri], n->len + 4) +
						(n->no_ack ? 0 : (uint64_t)c->t.sifs_us * 1000 +
						 airfair_ctrl_ns(&c->t, c->t.ack_len));

					if (end - a->txop_start_ns + need <= (uint64_t)a->p.txop_us * 1000) {
						cont = true;
						cont_r = tx->radio;
						cont_ac = tx->ac;
					}
				}
			} else {
				frame_finish(m, c, tx, true);
			}
		} else {
			a->retry++;
			if (next_rate(m, f) < 0) {
				cell->failures++;
				MED_LOG(m, 2, "radio %d ac %d: cookie %llu dropped after %d attempts\n",
					tx->radio, tx->ac, (unsigned long long)f->cookie, f->attempts);
				frame_finish(m, c, tx, false);
			} else {
				if (f->ampdu && f->dst >= 0 && f->dst != MED_BCAST)
					unreported_add(unreported(m, tx->radio, f), f, tx->rate_i, 1);
				a->cw = (a->cw * 2 + 1) > a->p.cwmax ? a->p.cwmax : a->cw * 2 + 1;
				a->backoff = rand_slots(m, a->cw);
				MED_LOG(m, 3, "radio %d ac %d: retry %d, cw %u, backoff %d\n", tx->radio,
					tx->ac, a->retry, a->cw, a->backoff);
			}
		}
	}
	c->busy_ns += end - c->busy_start;
	c->ntx = 0;
	c->busy = false;
	if (cont) {
		/* SIFS gap, then the next frame of the same AC without backoff */
		struct med_ac *a = &m->radio[cont_r].ac[cont_ac];
		int dst = a->head->dst >= 0 ? a->head->dst : MED_BCAST;
		uint64_t ts = end + c->t.sifs_us * 1000ULL;

		m->cell[cont_r][dst][cont_ac].ovh_ns += c->t.sifs_us * 1000ULL;
		c->busy_ns += c->t.sifs_us * 1000ULL;
		MED_LOG(m, 2, "radio %d ac %d: TXOP continues (%.1f us of %u used)\n", cont_r,
			cont_ac, (end - a->txop_start_ns) / 1000.0, a->p.txop_us);
		c->idle_start = ts;
		c->ntx = 0;
		begin_attempt(m, c, cont_r, cont_ac);
		launch(m, ci, ts, 0);
		return;
	}
	c->idle_start = end;
	/* re-arm everybody with a frame on the new slot grid */
	for (int r = 0; r < MED_MAX_RADIOS; r++) {
		struct med_radio *rd = &m->radio[r];

		if (!rd->present || rd->chan != ci)
			continue;
		for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
			struct med_ac *a = &rd->ac[ac];

			if (a->head) {
				if (a->backoff < 0)
					a->backoff = 0;
				a->resume_ns = end + aifs_ns(c, a);
			}
		}
	}
}

void med_run_until(struct medium *m, uint64_t t)
{
	for (;;) {
		uint64_t best = UINT64_MAX;
		int bc = -1;

		for (int i = 0; i < m->nchan; i++) {
			uint64_t e = chan_next(m, i);

			if (e < best) {
				best = e;
				bc = i;
			}
		}
		if (bc < 0 || best > t)
			break;
		m->now = best;
		m->events++;
		if (m->chan[bc].busy) {
			end_tx(m, bc);
		} else {
			m->chan[bc].busy_start = best;
			start_tx(m, bc, best);
		}
	}
	if (t != UINT64_MAX && t > m->now)
		m->now = t;
}

static const char *const ac_name[] = { "vo", "vi", "be", "bk" };

/* the cell's first-rate histogram, keyed by Mbit/s, and the cell's closing brace */
static void med_json_rate1(FILE *out, const struct med_cell *c)
{
	const char *sep = "";

	fprintf(out, ", \"first_rate_bytes\": {");
	for (int i = 0; i < MED_RATE_HIST && c->rate1[i].bytes; i++) {
		if (c->rate1[i].kbps)
			fprintf(out, "%s\"%.1f\": %llu", sep, c->rate1[i].kbps / 1000.0,
				(unsigned long long)c->rate1[i].bytes);
		else
			fprintf(out, "%s\"other\": %llu", sep, (unsigned long long)c->rate1[i].bytes);
		sep = ", ";
	}
	fprintf(out, "}}");
}

/*
 * Ground truth as JSON: totals per channel, each radio's queue (frames its
 * driver handed over and the medium has not finished: now, and the most since
 * the previous report, which this resets), and one entry per non-empty cell.
 */
void med_json(struct medium *m, FILE *out, const char *(*name)(void *ctx, int radio))
{
	bool first = true;

	fprintf(out, "{\n  \"sim_time_us\": %.3f,\n  \"events\": %llu,\n  \"radios\": [",
		m->now / 1000.0, (unsigned long long)m->events);
	for (int i = 0; i < MED_MAX_RADIOS; i++) {
		struct med_radio *rd = &m->radio[i];

		if (!rd->present)
			continue;
		fprintf(out, "%s\n    {\"radio\": %d, ", first ? "" : ",", i);
		if (name)
			fprintf(out, "\"name\": \"%s\", ", name(m->ctx, i));
		fprintf(out, "\"queued\": %d, \"queued_peak\": %d, \"edca\": {", radio_qlen(rd),
			rd->qpeak);
		/* what it contends with now: its own, its AP's WMM element's, or the configured */
		for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
			fprintf(out, "%s\"%s\": [%u, %u, %u, %u]", ac ? ", " : "", ac_name[ac],
				rd->ac[ac].p.aifsn, rd->ac[ac].p.cwmin, rd->ac[ac].p.cwmax,
				rd->ac[ac].p.txop_us);
		fprintf(out, "}, \"wmm_changes\": %u}", rd->wmm_changes);
		rd->qpeak = radio_qlen(rd);
		first = false;
	}
	first = true;
	fprintf(out, "\n  ],\n  \"channels\": [");
	for (int i = 0; i < m->nchan; i++)
		fprintf(out, "%s\n    {\"freq\": %u, \"phy\": %d, \"busy_us\": %.3f, "
			"\"contended_idle_us\": %.3f}", i ? "," : "", m->chan[i].freq, m->chan[i].phy,
			m->chan[i].busy_ns / 1000.0, m->chan[i].idle_ns / 1000.0);
	fprintf(out, "\n  ],\n  \"links\": [");
	for (int t = 0; t < MED_MAX_RADIOS; t++)
		for (int r = 0; r <= MED_MAX_RADIOS; r++)
			for (int ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
				const struct med_cell *c = &m->cell[t][r][ac];

				if (!c->attempts && !c->qdrops)
					continue;
				fprintf(out, "%s\n    {\"tx\": %d, \"rx\": %d, ", first ? "" : ",", t,
					r == MED_BCAST ? -1 : r);
				if (name)
					fprintf(out, "\"tx_name\": \"%s\", \"rx_name\": \"%s\", ",
						name(m->ctx, t), r == MED_BCAST ? "broadcast" : name(m->ctx, r));
				fprintf(out, "\"ac\": \"%s\", \"airtime_us\": %.3f, \"data_us\": %.3f, "
					"\"overhead_us\": %.3f, \"backoff_idle_us\": %.3f, "
					"\"collision_us\": %.3f, \"lost_us\": %.3f, \"frames\": %llu, "
					"\"bytes\": %llu, \"attempts\": %llu, \"failures\": %llu, "
					"\"collisions\": %llu, \"ppdu_failures\": %llu, "
					"\"queue_drops\": %llu, \"ampdus\": %llu, "
					"\"ampdu_mpdus\": %llu, \"ltfs\": %llu, "
					"\"told\": %llu, \"told_mpdus\": %llu, "
					"\"mpdu_byte_us\": %.3f, \"told_byte_us\": %.3f, "
					"\"model_us\": %.3f, \"idle_due_us\": %.3f, "
					"\"idle_var_us2\": %.1f, "
					"\"cw_units\": %llu, "
					"\"waited_us\": %.3f, \"rewaited_us\": %.3f",
					ac_name[ac],
					(c->data_ns + c->ovh_ns + c->coll_ns + c->lost_ns) / 1000.0,
					c->data_ns / 1000.0, c->ovh_ns / 1000.0, c->idle_ns / 1000.0,
					c->coll_ns / 1000.0, c->lost_ns / 1000.0,
					(unsigned long long)c->frames, (unsigned long long)c->bytes,
					(unsigned long long)c->attempts, (unsigned long long)c->failures,
					(unsigned long long)c->collisions,
					(unsigned long long)c->ppdu_fails, (unsigned long long)c->qdrops,
					(unsigned long long)c->ampdus, (unsigned long long)c->ampdu_mpdus,
					(unsigned long long)c->ltfs,
					(unsigned long long)c->told,
					(unsigned long long)c->told_mpdus,
					c->mpdu_byte_us, c->told_byte_us, c->model_us,
					c->idle_due_us, c->idle_var_us2,
					(unsigned long long)c->cw_units, c->waited_ns / 1000.0,
					c->rewaited_ns / 1000.0);
				med_json_rate1(out, c);
				first = false;
			}
	fprintf(out, "\n  ]\n}\n");
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * airfair-medium: discrete-event DCF/EDCA engine.
 *
 * Pure C, no I/O and no clock: the caller feeds frames in with med_enqueue()
 * at a simulated time, asks for the next event with med_next_event() and
 * advances with med_run_until(). Completions and deliveries come back through
 * callbacks. All times are simulated nanoseconds (no dilation here).
 * Durations come from the shared airtime model (sch_airfair/airtime.h).
 */
#ifndef AIRFAIR_MEDIUM_ENGINE_H
#define AIRFAIR_MEDIUM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <uapi/linux/pkt_sched_airfair.h>
#include "airtime.h"

#define MED_MAX_RADIOS	64
#define MED_BCAST	MED_MAX_RADIOS		/* receiver slot for group frames */
#define MED_MAX_CHANS	64
#define MED_MAX_RATES	4
#define MED_NOISE_DBM	(-91)			/* 20 MHz, NF 10 dB */
#define MED_AMPDU_MAX	AIRFAIR_MAX_AMPDU	/* MPDUs per A-MPDU: the BlockAck window */
#define MED_NO_TID	0xff			/* not unicast QoS data: no delivery order kept */

struct med_frame {
	struct med_frame *next;
	uint64_t cookie;
	int src;			/* radio index */
	int dst;			/* radio index, MED_BCAST, or -1 unknown unicast */
	uint8_t ac;			/* enum airfair_ac */
	bool no_ack;
	bool ampdu;			/* may go out in an A-MPDU (HT/VHT/HE, BlockAck) */
	uint32_t len;			/* MPDU bytes without FCS */
	uint32_t freq;			/* MHz */
	int nrates;
	struct tc_airfair_rate rate[MED_MAX_RATES];
	uint8_t count[MED_MAX_RATES];	/* attempts allowed per rate */
	uint8_t used[MED_MAX_RATES];	/* attempts made per rate */
	int attempts;
	bool acked;
	bool dropped;			/* queue overflow, never sent */
	int signal;			/* dBm of the ACK / last attempt */
	uint32_t rx_ampdu;		/* at delivery: the A-MPDU's number, 0 none */
	uint8_t tid;			/* unicast QoS data: its TID, else MED_NO_TID */
	bool rx_held;			/* at delivery: behind a queued MPDU of its TID (rx_release) */
	uint64_t seq;			/* enqueue order, set by med_enqueue() */
	/* the driver's name of each rate of the chain, told back in reports */
	uint32_t rate_tok[MED_MAX_RATES];
	/*
	 * An A-MPDU report for rate control rides on this frame's status:
	 * rep_len MPDUs sent, rep_ack acknowledged in its last attempt, and
	 * every PPDU attempt since the link's previous report, rep_count[i] at
	 * the rate named rep_tok[i], the last entry the report's own rate: the
	 * link's A-MPDUs of which nothing was acknowledged and no frame
	 * finished, then this one (or, for a frame of a BlockAck session sent
	 * alone, its own attempts), as a radio reports an A-MPDU it retried
	 * down its chain. rep_len is the MPDUs of all those attempts over
	 * their number (at least rep_ack), so that attempts x rep_len counts
	 * the MPDUs they carried where each went with its own length; what a
	 * whole length leaves over carries to the link's next report. rep_len
	 * 0: no report.
	 */
	uint8_t rep_len, rep_ack, rep_n;
	uint32_t rep_tok[MED_MAX_RATES];
	uint8_t rep_count[MED_MAX_RATES];
	uint64_t enq_ns;
	void *priv;			/* owned by the caller */
};

struct med_edca {
	uint8_t aifsn;
	uint16_t cwmin, cwmax;
	uint32_t txop_us;		/* 0: one MSDU per access */
};

struct med_ac {
	struct med_frame *head, *tail;
	int qlen;
	struct med_edca p;
	uint16_t cw;
	int backoff;			/* slots left, -1: none drawn */
	uint64_t resume_ns;		/* countdown (re)starts here (slot grid) */
	int retry;			/* failed attempts of the head frame */
	uint64_t contend_since;		/* start of the current access attempt */
	uint64_t waited_ns;		/* idle it counted down in rounds it lost */
	uint64_t rewaited_ns;		/* of which not backoff slots (AIFS again) */
	uint64_t txop_start_ns;		/* start of the current TXOP */
};

/* What an AP advertises in its WMM Parameter element (wmm.c). */
struct med_wmm {
	uint8_t count;			/* its parameter set count */
	struct med_edca p[AIRFAIR_NUM_ACS];
};

struct med_radio {
	bool present;
	int chan;			/* index into eng->chan, -1 none */
	struct med_ac ac[AIRFAIR_NUM_ACS];
	bool edca_set[AIRFAIR_NUM_ACS];	/* config override present */
	bool wmm_known;			/* took an AP's WMM element: wmm */
	struct med_wmm wmm;
	uint32_t wmm_changes;		/* times it changed what the radio used */
	int qpeak;			/* most frames queued since the last report */
};

#define MED_RATE_HIST	16	/* distinct first rates counted per cell */

/* One cell of the ground truth: per transmitter, receiver and AC. */
struct med_cell {
	uint64_t data_ns;	/* data PPDUs of successful attempts */
	uint64_t ovh_ns;	/* SIFS + ACK of successful attempts, TXOP SIFS gaps */
	uint64_t idle_ns;	/* AIFS + backoff idle time that preceded its accesses */
	uint64_t waited_ns;	/* the AIFS + backoff its accesses waited, slots won by
				 * another sender included (they are in that one's idle) */
	uint64_t rewaited_ns;	/* of waited_ns, the idle of rounds its accesses lost
				 * that was not backoff (AIFS each round again, the
				 * rounds an internal collision ended): what one AIFS
				 * and backoff per attempt leaves out */
	uint64_t coll_ns;	/* collided attempts: PPDU + ACK timeout */
	uint64_t lost_ns;	/* attempts lost on the channel: PPDU + ACK timeout */
	uint64_t frames;	/* MPDUs delivered (acked, or group frames sent) */
	uint64_t bytes;
	uint64_t attempts;
	uint64_t failures;	/* MPDUs dropped after the retry limit */
	uint64_t collisions;	/* attempts that collided */
	uint64_t ppdu_fails;	/* attempts without an ACK or BlockAck */
	uint64_t cw_units;	/* sum of (CW + 1) / (CWmin + 1) the attempts waited */
	uint64_t qdrops;	/* dropped at enqueue: queue full */
	uint64_t ampdus;	/* A-MPDU attempts (two or more MPDUs) */
	uint64_t ampdu_mpdus;	/* MPDUs in them */
	uint64_t ltfs;		/* long training fields of the attempts' preambles */
	/*
	 * PPDU attempts the TX statuses told (mac80211's count: the rates'
	 * attempts on a status of a frame outside a BlockAck session or on an
	 * A-MPDU report), set by the driver side (hwsim.c): against attempts,
	 * how well rate control and the qdisc's hook hear the link.
	 */
	uint64_t told;
	uint64_t told_mpdus;	/* their MPDUs, as attempts x each report's length */
	/*
	 * The data of the MPDU attempts, as us per byte (8 / Mbit/s each):
	 * mpdu_byte_us at the rate each attempt went at, told_byte_us as the
	 * statuses tell it (count x length / the rate of each entry, as the
	 * hook weighs its tx_data); over them, how well the hook prices data.
	 */
	double mpdu_byte_us, told_byte_us;
	/*
	 * The attempts' air as sch_airfair's settlement prices it (preamble,
	 * SIFS, ACK or BlockAck, the MPDUs' bytes with delimiter and mean pad),
	 * but at the rate each attempt went at: against airtime_us, how well
	 * the formula fits the medium; against the qdisc's told air, what
	 * pricing every attempt at the station's one rate costs.
	 */
	double model_us;
	/*
	 * The idle the attempts were due by their windows, AIFS + CW / 2 slots
	 * each, and the variance of their uniform backoff draws (us^2): the
	 * charge can know the windows, never the draws, and over a thousand
	 * attempts of a lossy link the draws stray by a few per cent.
	 */
	double idle_due_us, idle_var_us2;
	/*
	 * Delivered bytes by the first rate of the MPDU's retry chain: the rate
	 * rate control chose, whatever rate finally carried it. kbps 0: unused;
	 * the last slot takes every rate beyond the first MED_RATE_HIST - 1.
	 */
	struct { uint32_t kbps; uint64_t bytes; } rate1[MED_RATE_HIST];
};

struct med_tx {
	struct med_frame *f;		/* the (first) MPDU */
	int radio, ac;
	uint64_t ppdu_ns, resp_ns;	/* data PPDU, SIFS + ACK/BlockAck (or timeout) */
	bool ok;			/* ACK, or a BlockAck for at least one MPDU */
	int rate_i;
	double per;
	int nagg;			/* MPDUs in the PPDU (an A-MPDU if > 1) */
	struct med_frame *agg[MED_AMPDU_MAX];
	bool agg_ok[MED_AMPDU_MAX];
};

struct med_chan {
	uint32_t freq;
	enum airfair_phy phy;
	struct airfair_timing t;
	bool busy;
	uint64_t busy_end;
	uint64_t idle_start;
	int ntx;
	struct med_tx tx[MED_MAX_RADIOS];
	uint64_t busy_start;
	int queued;			/* frames queued by radios on this channel */
	uint64_t busy_ns, idle_ns;	/* totals */
};

struct medium;

/* Link model, asked per attempt. Returns PER in [0,1]; *signal gets dBm. */
typedef double (*med_per_fn)(void *ctx, int src, int dst, const struct tc_airfair_rate *r,
			     uint32_t psdu_len, int *signal);
typedef void (*med_done_fn)(void *ctx, struct med_frame *f);	/* TX status, frame freed by caller */
typedef void (*med_rx_fn)(void *ctx, struct med_frame *f, int rx, int signal);
/* frames from src to dst of tid held at delivery whose seq is below before may go */
typedef void (*med_release_fn)(void *ctx, int src, int dst, int tid, uint64_t before);
typedef enum airfair_phy (*med_phy_fn)(void *ctx, uint32_t freq);

struct medium {
	uint64_t now;
	uint64_t rng;
	int verbose;
	FILE *log;
	int qlimit;			/* frames per radio (all ACs) */
	bool qdrop_fattest;		/* full: drop from the longest receiver's */
	int retry_limit;		/* cap on attempts, 0: take the rate table */
	int ampdu_max;			/* MPDUs per A-MPDU, <= 1: no aggregation */
	uint32_t ampdus_delivered;	/* numbers them, from 1, skipping 0 on wrap */
	uint64_t enq_seq;		/* last med_frame.seq given */
	struct med_radio radio[MED_MAX_RADIOS];
	struct med_chan chan[MED_MAX_CHANS];
	int nchan;
	struct med_cell cell[MED_MAX_RADIOS][MED_MAX_RADIOS + 1][AIRFAIR_NUM_ACS];
	uint64_t events;
	void *ctx;
	med_per_fn per;
	med_done_fn done;
	med_rx_fn rx;
	/*
	 * The receiver's reorder buffer in simulated time. Set: an MPDU
	 * delivered while an earlier one of its link and TID is still queued
	 * (lost in an A-MPDU and waiting for its retransmission) comes to rx
	 * with rx_held set, and the caller holds it back until rx_release lets
	 * it go, as the MPDUs before it are delivered or dropped. A guest's
	 * reorder timeout runs in real time: at dilation k it would release
	 * past the gap after 1/k of its time, and the retransmission, when it
	 * comes, would be dropped as out of date.
	 */
	med_release_fn rx_release;
	med_phy_fn phy_for;
	/*
	 * Failed A-MPDU attempts not yet reported (no frame of theirs finished),
	 * per link and AC, by the rate they went at: told on the AC's next
	 * report, whose retry chain then tells the windows the AC's attempts
	 * waited (each AC has its own).
	 */
	struct med_unreported {
		int n;
		uint32_t tok[MED_MAX_RATES];	/* the rates, by the driver's name */
		uint16_t fails[MED_MAX_RATES];
		uint32_t attempts, mpdus;	/* and the MPDUs they carried */
		int32_t carry;	/* MPDUs the reports' lengths have yet to tell */
	} ampdu_unreported[MED_MAX_RADIOS][MED_MAX_RADIOS][AIRFAIR_NUM_ACS];
	/* per-radio EDCA override hook: fills p for (radio, ac); return false for default */
	bool (*edca_for)(void *ctx, int radio, int ac, struct med_edca *p);
};

void med_init(struct medium *m, uint64_t seed);
double med_rand(struct medium *m);			/* [0,1) */
void med_radio_add(struct medium *m, int idx);
/* deliver a group frame now, without airtime, and complete it (see hwsim.c: beacons) */
void med_deliver_free(struct medium *m, struct med_frame *f);
void med_radio_del(struct medium *m, int idx);		/* flushes its queues as failed */
/* Queue a frame at time m->now. Returns false (and fills f->dropped) if full. */
bool med_enqueue(struct medium *m, struct med_frame *f);
uint64_t med_next_event(struct medium *m);		/* UINT64_MAX: nothing pending */
void med_run_until(struct medium *m, uint64_t t);
void med_default_edca(const struct airfair_timing *t, int ac, struct med_edca *p);
/*
 * A station takes the EDCA its AP advertises (from a beacon or an association
 * response), as mac80211 does, except where the configuration set the
 * radio's own. Returns the number of ACs whose parameters changed.
 */
int med_wmm_take(struct medium *m, int radio, const struct med_wmm *w);
/* The WMM Parameter element of a beacon or (re)association response. */
bool med_wmm_parse(const uint8_t *frame, uint32_t len, struct med_wmm *w);
int med_chan_get(struct medium *m, uint32_t freq);
void med_json(struct medium *m, FILE *out, const char *(*name)(void *ctx, int radio));

#define MED_LOG(m, lvl, ...) do { if ((m)->verbose >= (lvl) && (m)->log) { \
	fprintf((m)->log, "[%12.3f us] ", (m)->now / 1000.0); fprintf((m)->log, __VA_ARGS__); } } while (0)

#endif

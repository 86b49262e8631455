// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the integer airtime model (sch_airfair/airtime.c),
 * built with AddressSanitizer and UBSan: every timing row tc could set and
 * every rate a station could report, from the fuzzer's bytes. Crashes,
 * overflows and these invariants are findings:
 *  - a frame's breakdown sums to its total, and its expected attempts lie
 *    between 1 and R + 1;
 *  - expected airtime never falls when the frame grows or the loss rises
 *    (under a TXOP too: fewer frames of it fill a burst);
 *  - a station's affine costs exist whenever its frames do;
 *  - a rate cfg80211 reports maps to a valid descriptor or to a reason.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include "airtime.h"

struct fuzz_in {
	uint8_t phy, override, ac, ampdu, delack, model, retries, pad;
	uint16_t sifs, slot, cwmin_exp, cwmax_exp, basic_rate, ack_len;
	uint16_t ba_len, overhead_len, mss;
	uint8_t aifsn[AIRFAIR_NUM_ACS];
	uint16_t txop[AIRFAIR_NUM_ACS];
	uint32_t len, loss, dloss;
	struct tc_airfair_rate rate;
};

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static u64 frame(const struct airfair_timing *t, const struct fuzz_in *in,
		 u32 len, u32 loss, struct airfair_breakdown *bd)
{
	return airfair_frame_ns(t, &in->rate, len, loss,
				in->ac % AIRFAIR_NUM_ACS, in->ampdu, bd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct airfair_breakdown bd;
	struct airfair_sta_costs sc;
	struct airfair_timing t;
	struct fuzz_in in;
	enum airfair_model model;
	enum airfair_ac ac;
	u64 ns, more;
	u32 loss;
	u16 mss;
	u8 delack;
	int i;

	if (size < sizeof(in))
		return 0;
	memcpy(&in, data, sizeof(in));
	if (airfair_timing_preset(in.phy % __AIRFAIR_PHY_MAX, &t))
		abort();	/* every preset must load */
	if (in.override & 1) {
		t.sifs_us = in.sifs;
		t.slot_us = in.slot;
		t.cwmin = (1u << (in.cwmin_exp % 16)) - 1;
		t.cwmax = (1u << (in.cwmax_exp % 16)) - 1;
		for (i = 0; i < AIRFAIR_NUM_ACS; i++)
			t.aifsn[i] = in.aifsn[i];
		t.retries = in.retries;
		t.basic_rate = in.basic_rate;
	}
	if (in.override & 32)	/* the AP's bursts: any TXOP tc can set */
		for (i = 0; i < AIRFAIR_NUM_ACS; i++)
			t.txop_us[i] = in.txop[i];
	if (in.override & 2) {
		t.ack_len = in.ack_len;
		t.ba_len = in.ba_len;
		t.overhead_len = in.overhead_len;
	}
	/* the qdisc uses only validated rows; it validates every rate itself */
	if (airfair_timing_validate(&t))
		return 0;
	{	/* the same bytes as a cfg80211 rate report */
		static const u16 widths[] = { 5, 10, 20, 40, 80, 160, 320, 0 };
		struct airfair_rate_info ri = {
			.kind = in.rate.mode % (AIRFAIR_RI_OTHER + 1),
			.mcs = in.rate.mcs,
			.nss = in.rate.nss,
			.width_mhz = widths[in.rate.bw % 8],
			.short_gi = in.rate.gi & 1,
			.he_gi = in.rate.gi % 3,
			.he_ru = in.pad & 1,
			.legacy = in.rate.legacy,
		};
		struct tc_airfair_rate r;
		const char *why;

		if (airfair_rate_from_info(&ri, in.override & 4, in.override & 8,
					   &r, &why))
			ASSERT(why);
		else
			ASSERT(!airfair_rate_validate(&r) && airfair_rate_kbps(&r));
	}
	airfair_rate_validate(&in.rate);
	airfair_rate_kbps(&in.rate);
	airfair_ppdu_ns(&in.rate, in.len);
	airfair_ctrl_ns(&t, in.ack_len);
	airfair_attempts_q16(in.loss, in.retries);
	{	/* the hook's window and the PPDU loss that waits it */
		u32 s = in.dloss & 0xffff;
		u8 d = airfair_ac_doublings(&t, AIRFAIR_AC_BE);
		u32 q = airfair_cw_scale_loss_q16(s, in.retries, d);
		u32 top = airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, in.retries, d);

		ASSERT(d <= AIRFAIR_CW_DOUBLINGS);
		ASSERT(q <= AIRFAIR_LOSS_ONE);
		ASSERT(top <= (16U << d));
		ASSERT(s > top ? q == AIRFAIR_LOSS_ONE :
		       airfair_cw_scale_x16(q, in.retries, d) >= s);
		ASSERT(!q || airfair_cw_scale_x16(q - 1, in.retries, d) < s);
		/* the window only widens with the loss (to its rounding) */
		if (in.loss <= AIRFAIR_LOSS_ONE)
			ASSERT(airfair_cw_scale_x16(in.loss, in.retries, d) <=
			       airfair_cw_scale_x16(in.loss + (in.dloss >> 16) %
						    (AIRFAIR_LOSS_ONE + 1 - in.loss),
						    in.retries, d) + 1);
	}

	loss = in.loss % (AIRFAIR_LOSS_ONE + 1);
	ns = frame(&t, &in, in.len, loss, &bd);
	if (!ns)
		return 0;
	ASSERT(bd.total_ns == ns);
	ASSERT(bd.direct_ns + bd.aifs_ns + bd.backoff_ns + bd.sifs_ns +
	       bd.ack_ns + bd.retries_ns == ns);
	ASSERT(bd.attempts_q16 >= AIRFAIR_LOSS_ONE);
	ASSERT(bd.attempts_q16 <= (u64)(t.retries + 1) * AIRFAIR_LOSS_ONE);
	/*
	 * one attempt's rate-free part: the breakdown's, lossless and alone,
	 * with what a TXOP's burst saved it
	 */
	airfair_attempt_fixed_ns(&t, in.ac, in.override & 16, in.dloss);
	if (!loss && in.ampdu == AIRFAIR_AMPDU_ONE)
		ASSERT(airfair_attempt_fixed_ns(&t, in.ac % AIRFAIR_NUM_ACS,
						false, 0) ==
		       bd.aifs_ns + bd.backoff_ns + bd.sifs_ns + bd.ack_ns +
		       airfair_txop_saving_ns(&t, &in.rate, in.len,
					      in.ac % AIRFAIR_NUM_ACS,
					      in.ampdu));
	/*
	 * the window's doubling only adds: per attempt, the chain's mean
	 * backoff, up to a ns per term and the sum's truncation at CWmax
	 */
	if (loss < AIRFAIR_LOSS_ONE) {
		u32 q2 = loss + 1 + in.dloss % (AIRFAIR_LOSS_ONE - loss);
		u64 lo = airfair_attempt_fixed_ns(&t, in.ac % AIRFAIR_NUM_ACS,
						  false, loss);
		u64 hi = airfair_attempt_fixed_ns(&t, in.ac % AIRFAIR_NUM_ACS,
						  false, q2);
		u64 tol = (u64)(t.retries + 2) * (2 + (hi >> 30));

		ASSERT(hi + tol >= lo);
		ASSERT(!lo || lo + tol >= airfair_attempt_fixed_ns(&t,
					in.ac % AIRFAIR_NUM_ACS, false, 0));
	}

	more = frame(&t, &in, in.len + 1, loss, NULL);
	ASSERT(!more || more >= ns);
	if (loss < AIRFAIR_LOSS_ONE) {
		u32 l2 = loss + 1 + in.dloss % (AIRFAIR_LOSS_ONE - loss);

		more = frame(&t, &in, in.len, l2, NULL);
		ASSERT(more >= ns);
	}

	ac = in.ac % AIRFAIR_NUM_ACS;
	delack = in.delack ? in.delack : 1;
	mss = in.mss ? in.mss : 1448;
	model = in.model % __AIRFAIR_MODEL_MAX;
	if (!airfair_sta_costs(&t, &in.rate, loss, loss, ac, delack, in.ampdu,
			       mss, model, &sc)) {
		struct airfair_sta_costs less;
		u32 q = in.dloss % (loss + 1);	/* a PPDU loss at most the loss */

		ASSERT(airfair_affine_ns(&sc.data, in.len) >= sc.data.a_ns);
		/*
		 * PPDUs fail no more often than the air is lost: no dearer, to
		 * within the series' rounding (each of its R + 1 terms is cut
		 * to the ns; a loss of exactly 1/2 is cut nowhere, 0.500015 is,
		 * and read 1 ns under it)
		 */
		ASSERT(!airfair_sta_costs(&t, &in.rate, loss, q, ac, delack,
					  in.ampdu, mss, model, &less));
		ASSERT(less.data.b_ns256 == sc.data.b_ns256);
		ASSERT(less.data.a_ns <= (u64)sc.data.a_ns + t.retries + 1);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the integer airtime model (sch_airfair/airtime.c).
 * libcheck; TAP via CK_TAP_LOG_FILE_NAME (see Makefile). Lines starting
 * with "# " on stdout are the measured acceptance numbers.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/nl80211.h>
#include "airtime.h"
#include "phy_params.h"

#define RATE(m, c, n, b, g, f, l) \
	((struct tc_airfair_rate){ .mode = m, .mcs = c, .nss = n, .bw = b, \
				   .gi = g, .flags = f, .legacy = l })
#define LEG(l)		RATE(AIRFAIR_MODE_LEGACY, 0, 0, 0, 0, 0, l)
#define LEGF(l, f)	RATE(AIRFAIR_MODE_LEGACY, 0, 0, 0, 0, f, l)
#define HT(c, b, g)	RATE(AIRFAIR_MODE_HT, c, 0, b, g, 0, 0)
#define VHT(c, n, b, g)	RATE(AIRFAIR_MODE_VHT, c, n, b, g, 0, 0)
#define HE(c, n, b, g)	RATE(AIRFAIR_MODE_HE, c, n, b, g, 0, 0)
/* whole MPDUs per PPDU, in the model's 1/16 */
#define MPDUS(n)	((n) * AIRFAIR_AMPDU_ONE)

static const u32 P09 = 58982;	/* 0.9 in q16 */

static struct airfair_timing preset(enum airfair_phy phy)
{
	struct airfair_timing t;

	ck_assert_int_eq(airfair_timing_preset(phy, &t), 0);
	return t;
}

static double mbps(struct tc_airfair_rate r)
{
	return airfair_rate_kbps(&r) / 1000.0;
}

static void check_rate(const char *name, struct tc_airfair_rate r, double pub)
{
	double got = mbps(r);

	printf("# rate %-36s %7.1f Mbit/s (published %.1f)\n", name, got, pub);
	ck_assert_msg(fabs(got - pub) < 0.05 + 1e-9, "%s: %.3f vs %.1f", name,
		      got, pub);
}

/* ---- rates ---- */

START_TEST(test_published_rates)
{
	static const double ag[] = { 6, 9, 12, 18, 24, 36, 48, 54 };
	static const u16 b[] = { 10, 20, 55, 110 };
	char name[64];
	unsigned int i;

	check_rate("HT MCS7 20MHz LGI", HT(7, 0, 0), 65.0);
	check_rate("HT MCS7 20MHz SGI", HT(7, 0, 1), 72.2);
	check_rate("HT MCS15 40MHz SGI", HT(15, 1, 1), 300.0);
	check_rate("HT MCS31 40MHz SGI", HT(31, 1, 1), 600.0);
	check_rate("HT MCS0 20MHz LGI", HT(0, 0, 0), 6.5);
	check_rate("VHT 80MHz SGI 1SS MCS0", VHT(0, 1, 2, 1), 32.5);
	check_rate("VHT 80MHz SGI 1SS MCS9", VHT(9, 1, 2, 1), 433.3);
	check_rate("VHT 20MHz LGI 1SS MCS8", VHT(8, 1, 0, 0), 78.0);
	check_rate("VHT 20MHz SGI 3SS MCS9", VHT(9, 3, 0, 1), 288.9);
	check_rate("VHT 160MHz SGI 8SS MCS9", VHT(9, 8, 3, 1), 6933.3);
	check_rate("VHT 80MHz SGI 8SS MCS9", VHT(9, 8, 2, 1), 3466.7);
	check_rate("VHT 80MHz SGI 3SS MCS9", VHT(9, 3, 2, 1), 1300.0);
	check_rate("HE 80MHz 0.8us 1SS MCS11", HE(11, 1, 2, 0), 600.5);
	check_rate("HE 20MHz 0.8us 1SS MCS0", HE(0, 1, 0, 0), 8.6);
	check_rate("HE 20MHz 3.2us 1SS MCS11", HE(11, 1, 0, 3), 121.9);
	check_rate("HE 80MHz 1.6us 2SS MCS9", HE(9, 2, 2, 2), 907.4);
	check_rate("HE 160MHz 0.8us 8SS MCS11", HE(11, 8, 3, 0), 9607.8);
	/* the model's list of legacy rates (the medium and tc take it) */
	for (i = 0; i < ARRAY_SIZE(ag); i++)
		ck_assert_uint_eq(airfair_ofdm_rate(i), (unsigned int)(ag[i] * 10));
	ck_assert_uint_eq(airfair_ofdm_rate(ARRAY_SIZE(ag)), 0);
	for (i = 0; i < ARRAY_SIZE(b); i++)
		ck_assert_uint_eq(airfair_dsss_rate(i), b[i]);
	ck_assert_uint_eq(airfair_dsss_rate(ARRAY_SIZE(b)), 0);
	for (i = 0; i < ARRAY_SIZE(ag); i++) {
		snprintf(name, sizeof(name), "802.11a %g", ag[i]);
		check_rate(name, LEG(ag[i] * 10), ag[i]);
		snprintf(name, sizeof(name), "802.11g ERP %g", ag[i]);
		check_rate(name, LEGF(ag[i] * 10, AIRFAIR_RATE_F_ERP), ag[i]);
	}
	for (i = 0; i < ARRAY_SIZE(b); i++) {
		snprintf(name, sizeof(name), "802.11b %.1f", b[i] / 10.0);
		check_rate(name, LEG(b[i]), b[i] / 10.0);
	}
}
END_TEST

START_TEST(test_chen_yan_ratio)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r0 = VHT(0, 1, 2, 1), r9 = VHT(9, 1, 2, 1);
	struct airfair_sta_costs n0, n9;
	double ratio, dratio, pratio;

	ratio = (double)airfair_rate_kbps(&r9) / airfair_rate_kbps(&r0);
	ck_assert_int_eq(airfair_sta_costs(&t, &r0, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_NAIVE, &n0), 0);
	ck_assert_int_eq(airfair_sta_costs(&t, &r9, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_NAIVE, &n9), 0);
	dratio = (double)airfair_affine_ns(&n0.data, 1500) /
		 airfair_affine_ns(&n9.data, 1500);
	pratio = (double)airfair_frame_ns(&t, &r0, 1500, 0, AIRFAIR_AC_BE,
					  MPDUS(1), NULL) /
		 airfair_frame_ns(&t, &r9, 1500, 0, AIRFAIR_AC_BE, MPDUS(1),
				  NULL);
	printf("# chen-yan VHT 80MHz SGI MCS0:MCS9 data airtime ratio: rate %.2f:1, size/rate 1500 B %.2f:1 (paper 13.3:1); precise per-frame %.2f:1\n",
	       ratio, dratio, pratio);
	ck_assert(fabs(ratio - 13.3) < 0.05);
	ck_assert(fabs(dratio - 13.3) < 0.05);
	ck_assert(pratio > 1.5 && pratio < 13.3);
}
END_TEST

START_TEST(test_rate_validate)
{
	static const struct tc_airfair_rate bad[] = {
		VHT(9, 1, 0, 0), VHT(9, 2, 0, 1), VHT(9, 4, 0, 0),
		VHT(6, 3, 2, 0), VHT(6, 7, 2, 1), VHT(9, 6, 2, 0),
		VHT(9, 3, 3, 0), VHT(10, 1, 2, 0), VHT(0, 0, 2, 0),
		VHT(0, 9, 2, 0), VHT(0, 1, 2, 2), HE(12, 1, 0, 0),
		HE(0, 0, 0, 0), HE(0, 9, 0, 0), HE(0, 1, 0, 1),
		HE(0, 1, 4, 0), HT(32, 0, 0),
		RATE(AIRFAIR_MODE_HE, 0, 1, 2, 0, AIRFAIR_RATE_F_ERP, 0), HT(0, 2, 0), HT(0, 0, 2),
		RATE(AIRFAIR_MODE_HT, 8, 1, 0, 0, 0, 0), LEG(0), LEG(70),
		LEG(540 + 1), LEGF(10, AIRFAIR_RATE_F_SHORT_PREAMBLE),
		LEGF(110, AIRFAIR_RATE_F_ERP),
		LEGF(60, AIRFAIR_RATE_F_SHORT_PREAMBLE), LEGF(60, 4),
		RATE(AIRFAIR_MODE_LEGACY, 0, 0, 1, 0, 0, 60),
		RATE(AIRFAIR_MODE_LEGACY, 1, 0, 0, 0, 0, 60),
		RATE(__AIRFAIR_MODE_MAX, 0, 1, 0, 0, 0, 0),
		RATE(AIRFAIR_MODE_VHT, 0, 1, 0, 0, AIRFAIR_RATE_F_ERP, 0),
	};
	static const struct tc_airfair_rate good[] = {
		VHT(9, 3, 0, 0), VHT(9, 6, 0, 1), VHT(9, 1, 1, 0),
		VHT(6, 4, 2, 0), VHT(9, 6, 3, 1), HE(11, 8, 3, 3),
		HT(31, 1, 1), RATE(AIRFAIR_MODE_HT, 8, 2, 0, 0, 0, 0),
		LEGF(110, AIRFAIR_RATE_F_SHORT_PREAMBLE),
		LEGF(540, AIRFAIR_RATE_F_ERP),
		RATE(AIRFAIR_MODE_HE, 0, 1, 0, 0, AIRFAIR_RATE_F_ERP, 0),
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_assert_msg(airfair_rate_validate(&bad[i]) == -EINVAL,
			      "bad rate %u accepted", i);
		ck_assert_uint_eq(airfair_rate_kbps(&bad[i]), 0);
		ck_assert_uint_eq(airfair_ppdu_ns(&bad[i], 100), 0);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++)
		ck_assert_msg(airfair_rate_validate(&good[i]) == 0,
			      "good rate %u rejected", i);
	ck_assert_int_eq(airfair_rate_validate(NULL), -EINVAL);
}
END_TEST

/* ---- PPDU durations ---- */

START_TEST(test_ppdu)
{
	struct tc_airfair_rate r;

	/* OFDM 6 Mb/s ACK: 20 + 4 * ceil(134 / 24) = 44 us */
	r = LEG(60);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 14), 44000);
	r = LEGF(60, AIRFAIR_RATE_F_ERP);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 14), 50000);
	/* 54 Mb/s 1500 B: 20 + 4 * ceil(12022 / 216) */
	r = LEG(540);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 244000);
	/* DSSS: 192 + 112 us; short preamble 96 + ceil(1500*8/5.5) */
	r = LEG(10);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 14), 304000);
	r = LEGF(55, AIRFAIR_RATE_F_SHORT_PREAMBLE);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 96000 + 2182000);
	r = LEG(110);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 0), 192000);
	/* HT MCS7 20 LGI: 36 + 4 * ceil(12022 / 260) = 224 us */
	r = HT(7, 0, 0);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 224000);
	/* HT SGI: 36 + 4 * ceil(3.6 * 47 / 4) = 36 + 172 */
	r = HT(7, 0, 1);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 208000);
	/* HT MCS15 40 MHz 2SS: 32 + 2 LTF */
	r = HT(15, 1, 0);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 40000 + 4000 * 12);
	/* VHT 80 SGI MCS9: 40 + 4 * ceil(8 * 3.6 / 4) = 72 us */
	r = VHT(9, 1, 2, 1);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 72000);
	/* HE 80 MCS11 0.8: 36 + 7.2 + 2 * 13.6 */
	r = HE(11, 1, 2, 0);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 70400);
	/* HE 3.2 us GI, 2SS: 36 + 2 * 16 + sym 16 */
	r = HE(0, 2, 0, 3);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 0), 36000 + 32000 + 16000);
	/* HE in 2.4 GHz: signal extension */
	/* HE40 MCS11: N_DBPS 3900, 43.2 + 4 * 13.6 + 6 */
	r = RATE(AIRFAIR_MODE_HE, 11, 1, 1, 0, AIRFAIR_RATE_F_ERP, 0);
	ck_assert_uint_eq(airfair_ppdu_ns(&r, 1500), 103600);
	/* too long */
	ck_assert_uint_eq(airfair_ppdu_ns(&r, (1U << 22) + 1), 0);
	/* monotonic in length */
	{
		u32 l, prev = 0;

		r = VHT(5, 2, 1, 1);
		for (l = 0; l < 70000; l += 13) {
			u32 d = airfair_ppdu_ns(&r, l);

			ck_assert_uint_ge(d, prev);
			prev = d;
		}
	}
}
END_TEST

/* ---- timing table ---- */

START_TEST(test_timing)
{
	struct airfair_timing t, u;
	int phy;

	for (phy = 0; phy < __AIRFAIR_PHY_MAX; phy++) {
		t = preset(phy);
		ck_assert_int_eq(airfair_timing_validate(&t), 0);
		ck_assert_uint_eq(t.phy, phy);
	}
	ck_assert_int_eq(airfair_timing_preset(__AIRFAIR_PHY_MAX, &t), -EINVAL);
	ck_assert_int_eq(airfair_timing_preset(-1, &t), -EINVAL);
	ck_assert_int_eq(airfair_timing_preset(0, NULL), -EINVAL);
	t = preset(AIRFAIR_PHY_11B);
	ck_assert_uint_eq(t.sifs_us, 10);
	ck_assert_uint_eq(t.slot_us, 20);
	ck_assert_uint_eq(t.cwmin, 31);
	t = preset(AIRFAIR_PHY_11AC);
	ck_assert_uint_eq(t.sifs_us, 16);
	ck_assert_uint_eq(t.slot_us, 9);
	ck_assert_uint_eq(t.aifsn[AIRFAIR_AC_BK], 7);
	ck_assert_uint_eq(t.overhead_len, 54);
	/* per-AC windows, table 9-155 */
	ck_assert_uint_eq(airfair_ac_cwmin(&t, AIRFAIR_AC_VO), 3);
	ck_assert_uint_eq(airfair_ac_cwmax(&t, AIRFAIR_AC_VO), 7);
	ck_assert_uint_eq(airfair_ac_cwmin(&t, AIRFAIR_AC_VI), 7);
	ck_assert_uint_eq(airfair_ac_cwmax(&t, AIRFAIR_AC_VI), 15);
	ck_assert_uint_eq(airfair_ac_cwmin(&t, AIRFAIR_AC_BE), 15);
	ck_assert_uint_eq(airfair_ac_cwmax(&t, AIRFAIR_AC_BK), 1023);
	/* invalid overrides */
	u = t; u.cwmin = 16;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.cwmin = 63; u.cwmax = 31;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.cwmax = 0;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.aifsn[2] = 0;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.aifsn[3] = 16;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.retries = 16;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.sifs_us = 0;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.slot_us = 0;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.basic_rate = 70;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	u = t; u.phy = __AIRFAIR_PHY_MAX;
	ck_assert_int_eq(airfair_timing_validate(&u), -EINVAL);
	ck_assert_int_eq(airfair_timing_validate(NULL), -EINVAL);
	u = t; u.cwmin = 1; u.cwmax = 32767; u.retries = 15;
	ck_assert_int_eq(airfair_timing_validate(&u), 0);
	/* control responses */
	ck_assert_uint_eq(airfair_ctrl_ns(&t, 14), 44000);
	ck_assert_uint_eq(airfair_ctrl_ns(&t, 32), 68000);
	t = preset(AIRFAIR_PHY_11G);
	ck_assert_uint_eq(airfair_ctrl_ns(&t, 14), 50000);
	t = preset(AIRFAIR_PHY_11B);
	ck_assert_uint_eq(airfair_ctrl_ns(&t, 14), 304000);
}
END_TEST

/* ---- expected attempts and backoff ---- */

static double en(double p, int R)
{
	double s = 0, pw = 1;
	int i;

	for (i = 0; i <= R; i++, pw *= p)
		s += pw;
	return s;
}

START_TEST(test_attempts)
{
	static const u32 losses[] = { 0, 1, 655, 6554, 32768, P09, 65535,
				      65536 };
	unsigned int i;
	int R;

	for (i = 0; i < ARRAY_SIZE(losses); i++)
		for (R = 0; R <= 15; R++) {
			double p = losses[i] / 65536.0;
			double want = en(p, R) * 65536;
			u32 got = airfair_attempts_q16(losses[i], R);

			ck_assert_msg(fabs(got - want) <= 1.0,
				      "p=%u R=%d: %u vs %.1f", losses[i], R,
				      got, want);
			if (p > 0 && p < 1)	/* closed form */
				ck_assert(fabs(want / 65536 -
					       (1 - pow(p, R + 1)) / (1 - p)) <
					  1e-9);
		}
	ck_assert_uint_eq(airfair_attempts_q16(0, 15), 65536);
	ck_assert_uint_eq(airfair_attempts_q16(65536, 15), 16 * 65536);
	ck_assert_uint_eq(airfair_attempts_q16(32768, 1), 98304);
	ck_assert_uint_eq(airfair_attempts_q16(65537, 3), 0);
	printf("# E[N] at p=0.9 R=15: %.4f (closed form %.4f)\n",
	       airfair_attempts_q16(P09, 15) / 65536.0,
	       (1 - pow(P09 / 65536.0, 16)) / (1 - P09 / 65536.0));
}
END_TEST

START_TEST(test_frame_breakdown)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r = VHT(9, 1, 2, 1);
	struct airfair_breakdown b;
	u64 tot, attempt;
	int ac;

	/* p = 0: AIFS(BE) 16 + 3*9 = 43, backoff 7.5 * 9, SIFS 16, ACK 44 */
	tot = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, MPDUS(1), &b);
	ck_assert_uint_eq(b.aifs_ns, 43000);
	ck_assert_uint_eq(b.backoff_ns, 67500);
	ck_assert_uint_eq(b.sifs_ns, 16000);
	ck_assert_uint_eq(b.ack_ns, 44000);
	/* VHT: MPDU 1500 + 54 + 4 delimiter */
	ck_assert_uint_eq(b.psdu_len, 1558);
	ck_assert_uint_eq(b.direct_ns, airfair_ppdu_ns(&r, 1558));
	ck_assert_uint_eq(b.retries_ns, 0);
	ck_assert_uint_eq(b.attempts_q16, 65536);
	ck_assert_uint_eq(tot, b.total_ns);
	ck_assert_uint_eq(tot, 43000 + 67500 + 16000 + 44000 + b.direct_ns);
	ck_assert_uint_eq(b.rate_kbps, 433333);

	/* p = 0.5, R = 1: attempts 1.5; backoff 7.5 + 0.5 * 15.5 slots */
	t.retries = 1;
	tot = airfair_frame_ns(&t, &r, 1500, 32768, AIRFAIR_AC_BE, MPDUS(1),
			       &b);
	attempt = 43000 + b.direct_ns + 16000 + 44000;
	ck_assert_uint_eq(b.backoff_ns, 67500 + 69750);
	ck_assert_uint_eq(b.retries_ns, attempt / 2);
	ck_assert_uint_eq(tot, attempt + b.retries_ns + b.backoff_ns);

	/* every AC: AIFS = SIFS + AIFSN slots; backoff CW/2 slots */
	t = preset(AIRFAIR_PHY_11AC);
	for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
		airfair_frame_ns(&t, &r, 100, 0, ac, MPDUS(1), &b);
		ck_assert_uint_eq(b.aifs_ns, 16000 + t.aifsn[ac] * 9000);
		ck_assert_uint_eq(b.backoff_ns,
				  airfair_ac_cwmin(&t, ac) * 9000 / 2);
	}
	/* VO at high loss: window capped at CWmax[VO] = 7 */
	t.retries = 3;
	airfair_frame_ns(&t, &r, 100, 65536, AIRFAIR_AC_VO, MPDUS(1), &b);
	ck_assert_uint_eq(b.backoff_ns, (3 + 7 + 7 + 7) * 9000 / 2);

	/* retries and loss only ever add airtime */
	t = preset(AIRFAIR_PHY_11AC);
	{
		u64 prev = 0;
		int R;

		for (R = 0; R <= 15; R++) {
			t.retries = R;
			tot = airfair_frame_ns(&t, &r, 1500, 6554,
					       AIRFAIR_AC_BE, MPDUS(1), NULL);
			ck_assert_uint_ge(tot, prev);
			if (R <= 6)
				ck_assert_uint_gt(tot, prev);
			prev = tot;
		}
	}
}
END_TEST

/*
 * A TXOP: the frames after the first in a burst pay SIFS, not AIFS + backoff.
 * 802.11a BK at 54 Mbit/s, 1500 B: PPDU 252 us, exchange 252 + 16 + 44 (ACK
 * at 6 Mbit/s); 1792 us holds (1792 + 16) / (312 + 16) = 5 of them, so each
 * saves (AIFS 79 + backoff 67.5 - SIFS 16) * 4 / 5 = 104.4 us.
 */
START_TEST(test_txop_burst)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11A), b1792;
	struct tc_airfair_rate r54 = LEG(540), r6 = LEG(60);
	struct airfair_sta_costs c0, c1;
	struct airfair_breakdown b0, b;
	u64 f0, f1;
	int ac;

	for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		ck_assert_uint_eq(t.txop_us[ac], 0);	/* none charged unless told */
	ck_assert_uint_eq(airfair_phy_txop_us(AIRFAIR_PHY_11A, AIRFAIR_AC_VO),
			  1504);
	ck_assert_uint_eq(airfair_phy_txop_us(AIRFAIR_PHY_11A, AIRFAIR_AC_BK), 0);
	b1792 = t;
	b1792.txop_us[AIRFAIR_AC_BK] = 1792;

	f0 = airfair_frame_ns(&t, &r54, 1500, 0, AIRFAIR_AC_BK, MPDUS(1), &b0);
	f1 = airfair_frame_ns(&b1792, &r54, 1500, 0, AIRFAIR_AC_BK, MPDUS(1),
			      &b);
	ck_assert_uint_eq(b0.direct_ns, 252000);
	ck_assert_uint_eq(f0 - f1, 104400);
	ck_assert_uint_eq(airfair_txop_saving_ns(&b1792, &r54, 1500,
						 AIRFAIR_AC_BK, MPDUS(1)),
			  104400);
	/* AIFS goes to SIFS first (63 us), the rest off the backoff */
	ck_assert_uint_eq(b.aifs_ns, 16000);
	ck_assert_uint_eq(b.backoff_ns, 67500 - (104400 - 63000));
	ck_assert_uint_eq(b.total_ns, f1);
	/* another AC's TXOP changes nothing here */
	ck_assert_uint_eq(airfair_frame_ns(&b1792, &r54, 1500, 0, AIRFAIR_AC_BE,
					   MPDUS(1), NULL),
			  airfair_frame_ns(&t, &r54, 1500, 0, AIRFAIR_AC_BE,
					   MPDUS(1), NULL));
	/* a 6 Mbit/s frame (2 ms) fills a TXOP alone: no saving */
	ck_assert_uint_eq(airfair_frame_ns(&b1792, &r6, 1500, 0, AIRFAIR_AC_BK,
					   MPDUS(1), NULL),
			  airfair_frame_ns(&t, &r6, 1500, 0, AIRFAIR_AC_BK,
					   MPDUS(1), NULL));
	/* retries start accesses of their own: the saving is the same */
	ck_assert_uint_eq(airfair_frame_ns(&t, &r54, 1500, 13107, AIRFAIR_AC_BK,
					   MPDUS(1), NULL) -
			  airfair_frame_ns(&b1792, &r54, 1500, 13107,
					   AIRFAIR_AC_BK, MPDUS(1), NULL),
			  104400);

	/* the AP's data share the burst; the stations' frames and pure ACKs not */
	ck_assert_int_eq(airfair_sta_costs(&t, &r54, 0, 0, AIRFAIR_AC_BK, 2,
					   MPDUS(1), 1460, AIRFAIR_MODEL_PRECISE,
					   &c0), 0);
	ck_assert_int_eq(airfair_sta_costs(&b1792, &r54, 0, 0, AIRFAIR_AC_BK,
					   2, MPDUS(1), 1460,
					   AIRFAIR_MODEL_PRECISE, &c1), 0);
	ck_assert_uint_eq(c0.data.a_ns - c1.data.a_ns, 104400);
	ck_assert_uint_eq(c0.tcp_down.a_ns - c1.tcp_down.a_ns, 104400);
	ck_assert_uint_eq(c0.data.b_ns256, c1.data.b_ns256);
	ck_assert_uint_eq(c0.ack.a_ns, c1.ack.a_ns);
	ck_assert_uint_eq(c0.up.a_ns, c1.up.a_ns);
	ck_assert_uint_eq(c0.up_data_ns, c1.up_data_ns);
	ck_assert_uint_eq(c0.sta_ack_ns, c1.sta_ack_ns);
}
END_TEST

/* 64 KiB GSO at 1 Mbit/s, p = 0.9, R = 15, against a double model */
START_TEST(test_overflow)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11B);
	struct tc_airfair_rate r = LEG(10);
	struct airfair_sta_costs c;
	struct airfair_breakdown b;
	double p = P09 / 65536.0, e = en(p, 15), bo = 0, w = 31, want, pw = 1;
	u64 tot;
	int i;

	t.retries = 15;
	tot = airfair_frame_ns(&t, &r, 65535, P09, AIRFAIR_AC_BE, MPDUS(1), &b);
	for (i = 0; i <= 15; i++, pw *= p) {
		bo += pw * w / 2 * 20000;
		w = w * 2 + 1 > 1023 ? 1023 : w * 2 + 1;
	}
	want = e * (70000 + (192000 + (65535 + 54) * 8000.0) + 10000 +
		    304000) + bo;
	printf("# 64 KiB at 1 Mbit/s p=0.9 R=15: %llu ns (double %.0f), rel err %.2e\n",
	       (unsigned long long)tot, want, fabs(tot - want) / want);
	ck_assert(fabs(tot - want) / want < 1e-6);
	ck_assert(tot > 4000000000ULL);	/* > 4 s: would not fit u32 */
	ck_assert_int_eq(airfair_sta_costs(&t, &r, P09, P09, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   65535 - 40, AIRFAIR_MODEL_PRECISE,
					   &c), 0);
	/* affine eval of 64 KiB: u64, within a few us of exact */
	ck_assert(fabs((double)airfair_affine_ns(&c.data, 65535) - want) <
		  e * 1000 + 1000);
	ck_assert_uint_eq(c.up_data_ns, U32_MAX);	/* saturated */

	/* HE 160 MHz 8SS */
	t = preset(AIRFAIR_PHY_11AX_5G);
	t.retries = 15;
	r = HE(11, 8, 3, 0);
	tot = airfair_frame_ns(&t, &r, 65535, P09, AIRFAIR_AC_BE, MPDUS(64),
			       &b);
	ck_assert_uint_gt(tot, 0);
	ck_assert_uint_eq(b.psdu_len, 64 * ((65535 + 54 + 4 + 3) & ~3));
	ck_assert_int_eq(airfair_sta_costs(&t, &r, P09, P09, AIRFAIR_AC_BK, 8,
					   MPDUS(64),
					   65535, AIRFAIR_MODEL_PRECISE,
					   &c), 0);
	ck_assert(fabs((double)airfair_affine_ns(&c.data, 65535) - tot) /
		  tot < 0.01);
	printf("# HE 160MHz 8SS MCS11 64 KiB x64 A-MPDU p=0.9 R=15: %llu ns per MPDU\n",
	       (unsigned long long)tot);
}
END_TEST

START_TEST(test_boundaries)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r = VHT(4, 2, 2, 0), leg = LEG(60);
	struct airfair_breakdown b;
	u64 z;

	z = airfair_frame_ns(&t, &r, 0, 0, AIRFAIR_AC_BE, MPDUS(1), &b);
	ck_assert_uint_gt(z, 0);
	ck_assert_uint_eq(b.psdu_len, 58);
	ck_assert_uint_lt(z, airfair_frame_ns(&t, &r, 1, 0, AIRFAIR_AC_BE,
					      MPDUS(1), NULL) + 1);
	/* invalid input: 0, breakdown zeroed */
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 0, 65537, AIRFAIR_AC_BE,
					   MPDUS(1), &b), 0);
	ck_assert_uint_eq(b.total_ns, 0);
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 0, 0, AIRFAIR_NUM_ACS,
					   MPDUS(1), NULL), 0);
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 0, 0, AIRFAIR_AC_BE, 0,
					   NULL), 0);
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 0, 0, AIRFAIR_AC_BE,
					   MPDUS(AIRFAIR_MAX_AMPDU + 1), NULL), 0);
	ck_assert_uint_eq(airfair_frame_ns(&t, &leg, 0, 0, AIRFAIR_AC_BE,
					   MPDUS(2), NULL), 0);
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, (1U << 22) + 1, 0,
					   AIRFAIR_AC_BE, MPDUS(1), NULL), 0);
	ck_assert_uint_eq(airfair_frame_ns(NULL, &r, 0, 0, AIRFAIR_AC_BE,
					   MPDUS(1), NULL), 0);
	t.cwmin = 20;
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 0, 0, AIRFAIR_AC_BE,
					   MPDUS(1), NULL), 0);
	/* p = 1 is allowed: every attempt fails, R + 1 attempts */
	t = preset(AIRFAIR_PHY_11AC);
	airfair_frame_ns(&t, &r, 100, 65536, AIRFAIR_AC_BE, MPDUS(1), &b);
	ck_assert_uint_eq(b.attempts_q16, (t.retries + 1) * 65536);
}
END_TEST

START_TEST(test_ampdu)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r = VHT(9, 2, 2, 1);
	struct airfair_breakdown b1, b32;
	u64 c1, c32;

	c1 = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, MPDUS(1), &b1);
	c32 = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, MPDUS(32), &b32);
	/* subframe: 1500 + 54 + 4, padded to 1560 */
	ck_assert_uint_eq(b32.psdu_len, 32 * 1560);
	ck_assert_uint_eq(b32.ack_ns, (68000 + 16) / 32);
	ck_assert_uint_eq(b32.aifs_ns, (43000 + 16) / 32);
	ck_assert_uint_lt(c32, c1);
	printf("# VHT 80MHz SGI 2SS MCS9 1500 B: single %llu ns, per MPDU in 32-MPDU A-MPDU %llu ns\n",
	       (unsigned long long)c1, (unsigned long long)c32);
}
END_TEST

/*
 * A mean length between whole MPDUs shares the PPDU's overhead by that mean:
 * at HT MCS 7 a mean of 1.3125 MPDUs costs between one and two, and exactly
 * the whole figures' values at 16 and 32 sixteenths.
 */
START_TEST(test_ampdu_fraction)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11N_5G);
	struct tc_airfair_rate r = { .mode = AIRFAIR_MODE_HT, .mcs = 7 };
	struct airfair_breakdown b21, b32;
	struct airfair_affine a21, a32;
	u64 c16, c21, c32;

	c16 = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, 16, NULL);
	c21 = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, 21, &b21);
	c32 = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, 32, &b32);
	ck_assert_uint_gt(c16, c21);
	ck_assert_uint_gt(c21, c32);
	/* the same BlockAck, shared by 21/16 and 2 MPDUs */
	ck_assert_uint_eq(b21.ack_ns * 21 / 16 / 10, b32.ack_ns * 2 / 10);
	ck_assert_uint_eq(b21.psdu_len, (b32.psdu_len / 2 * 21 + 8) / 16);
	ck_assert_int_eq(airfair_affine_cost(&t, &r, 0, AIRFAIR_AC_BE, 21,
					     &a21), 0);
	ck_assert_int_eq(airfair_affine_cost(&t, &r, 0, AIRFAIR_AC_BE, 32,
					     &a32), 0);
	ck_assert_uint_eq(a21.b_ns256, a32.b_ns256);
	ck_assert_uint_gt(a21.a_ns, a32.a_ns);
	/* below one MPDU, and a fraction at a legacy rate, are refused */
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, 15,
					   NULL), 0);
	r = (struct tc_airfair_rate){ .mode = AIRFAIR_MODE_LEGACY, .legacy = 540 };
	ck_assert_uint_eq(airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, 17,
					   NULL), 0);
	printf("# HT MCS 7 1500 B per MPDU: 1 MPDU %llu ns, 1.3125 %llu ns, 2 %llu ns\n",
	       (unsigned long long)c16, (unsigned long long)c21, (unsigned long long)c32);
}
END_TEST

/* affine vs exact: the documented bound */
START_TEST(test_affine_bound)
{
	static const struct {
		enum airfair_phy phy;
		struct tc_airfair_rate r;
	} cases[] = {
		{ AIRFAIR_PHY_11B, { .mode = 0, .legacy = 10 } },
		{ AIRFAIR_PHY_11B, { .mode = 0, .legacy = 55, .flags = 1 } },
		{ AIRFAIR_PHY_11A, { .mode = 0, .legacy = 60 } },
		{ AIRFAIR_PHY_11G, { .mode = 0, .legacy = 540, .flags = 2 } },
		{ AIRFAIR_PHY_11N_5G, { .mode = 1, .mcs = 7, .gi = 1 } },
		{ AIRFAIR_PHY_11N_2G, { .mode = 1, .mcs = 15, .bw = 1,
					.flags = 2 } },
		{ AIRFAIR_PHY_11AC, { .mode = 2, .mcs = 0, .nss = 1, .bw = 2,
				      .gi = 1 } },
		{ AIRFAIR_PHY_11AC, { .mode = 2, .mcs = 9, .nss = 4, .bw = 3 } },
		{ AIRFAIR_PHY_11AX_5G, { .mode = 3, .mcs = 11, .nss = 8,
					 .bw = 3, .gi = 3 } },
		{ AIRFAIR_PHY_11AX_5G, { .mode = 3, .mcs = 5, .nss = 1,
					 .bw = 0, .gi = 0 } },
	};
	static const u32 losses[] = { 0, 6554, P09 };
	static const u8 ampdus[] = { 1, 8 };
	double worst = 0, worst_rel = 0;
	unsigned int i, j, k;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (j = 0; j < ARRAY_SIZE(losses); j++)
			for (k = 0; k < ARRAY_SIZE(ampdus); k++) {
				struct airfair_timing t = preset(cases[i].phy);
				struct airfair_affine a;
				double q, e, bound, per_byte;
				u32 len, kbps, n = ampdus[k];

				if (n > 1 && cases[i].r.mode == 0)
					continue;
				ck_assert_int_eq(airfair_affine_cost(&t,
					&cases[i].r, losses[j], AIRFAIR_AC_BE,
					MPDUS(n), &a), 0);
				e = airfair_attempts_q16(losses[j],
							 t.retries) / 65536.0;
				kbps = airfair_rate_kbps(&cases[i].r);
				per_byte = 8e6 / kbps * e;
				/* q: symbol (+ 4 us SGI rounding), 1 us DSSS */
				q = cases[i].r.mode == 0 && cases[i].r.legacy <= 110 ? 1000 :
				    cases[i].r.mode == 3 ? 16000 :
				    cases[i].r.gi ? 7600 : 4000;
				bound = e * q / 2 / n + 2 * per_byte + 16 +
					(n > 1 ? 1.5 * per_byte : 0);
				for (len = 0; len <= 65535; len += 17) {
					u64 ex = airfair_frame_ns(&t,
						&cases[i].r, len, losses[j],
						AIRFAIR_AC_BE, MPDUS(n), NULL);
					double d = fabs((double)airfair_affine_ns(&a, len) -
							(double)ex);

					ck_assert_msg(d <= bound + len / 256.0,
						      "case %u p %u n %u len %u: %.0f > %.0f",
						      i, losses[j], n, len, d,
						      bound);
					if (d > worst)
						worst = d;
					if (d / ex > worst_rel)
						worst_rel = d / ex;
				}
			}
	printf("# affine vs exact: max |error| %.0f ns, max relative %.3f%% (bound E[N]*q/2 per PPDU)\n",
	       worst, worst_rel * 100);
}
END_TEST

START_TEST(test_sta_costs)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r = VHT(7, 2, 2, 0), bad = VHT(9, 1, 0, 0);
	struct airfair_sta_costs c, n;
	struct airfair_affine a;
	u64 ack, up;
	int d;

	for (d = 1; d <= 8; d++) {
		ck_assert_int_eq(airfair_sta_costs(&t, &r, 3277, 3277, AIRFAIR_AC_BE,
						   d, MPDUS(1), 1448,
						   AIRFAIR_MODEL_PRECISE, &c),
				 0);
		ck_assert_int_eq(airfair_affine_cost(&t, &r, 3277,
						     AIRFAIR_AC_BE, MPDUS(1), &a), 0);
		ck_assert_uint_eq(c.data.a_ns, a.a_ns);
		ck_assert_uint_eq(c.data.b_ns256, a.b_ns256);
		ack = airfair_frame_ns(&t, &r, AIRFAIR_P_TCP_ACK_LEN, 3277,
				       AIRFAIR_AC_BE, MPDUS(1), NULL);
		up = airfair_frame_ns(&t, &r, 1488, 3277, AIRFAIR_AC_BE,
				      MPDUS(1), NULL);
		/* Eq. 7: data + ACK / d */
		ck_assert(llabs((long long)c.tcp_down.a_ns -
				(long long)(c.data.a_ns + ack / d)) <= 1);
		ck_assert_uint_eq(c.tcp_down.b_ns256, c.data.b_ns256);
		/* the station's ACK itself, for a download flow's own d */
		ck_assert_uint_eq(c.sta_ack_ns, ack);
		/* the AP's ACK is exact at its nominal length */
		ck_assert(llabs((long long)airfair_affine_ns(&c.ack, 52) -
				(long long)ack) <= 1);
		ck_assert_uint_eq(c.up_data_ns, up);
		/* Eq. 9: an upload ACK costs ack + d data frames */
		ck_assert_uint_gt(airfair_affine_ns(&c.ack, 52) +
				  d * c.up_data_ns,
				  airfair_affine_ns(&c.tcp_down, 1488));
	}
	/* naive: size / rate, no fixed part */
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 3277, 3277, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_NAIVE, &n), 0);
	ck_assert_uint_eq(n.data.a_ns, 0);
	ck_assert_uint_eq(n.data.b_ns256,
			  (u32)(8e6 * 256 / airfair_rate_kbps(&r) + 0.5));
	ck_assert_uint_eq(n.tcp_down.b_ns256, n.data.b_ns256);
	ck_assert_uint_eq(n.up_data_ns,
			  (u32)(((u64)n.data.b_ns256 * 1500) >> 8));
	/* invalid */
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 0, AIRFAIR_AC_BE, 0,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_PRECISE, &c),
			 -EINVAL);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(1), 0,
					   AIRFAIR_MODEL_PRECISE, &c), -EINVAL);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, __AIRFAIR_MODEL_MAX, &c),
			 -EINVAL);
	ck_assert_int_eq(airfair_sta_costs(&t, &bad, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_PRECISE, &c),
			 -EINVAL);
	ck_assert_int_eq(airfair_sta_costs(&t, &bad, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_NAIVE, &c),
			 -EINVAL);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 70000, 70000, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_PRECISE, &c),
			 -EINVAL);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 70000, AIRFAIR_AC_BE, 2,
					   MPDUS(1),
					   1460, AIRFAIR_MODEL_PRECISE, &c),
			 -EINVAL);
	ck_assert_int_eq(airfair_affine_cost(&t, &r, 0, AIRFAIR_AC_BE, MPDUS(1),
					     NULL), -EINVAL);
}
END_TEST

/*
 * The backoff doubles only after a PPDU without an ACK or BlockAck: at a
 * PPDU loss q below the air-weighted loss p, each of the sum p^i attempts
 * waits the mean backoff of the chain at q. Only the fixed part moves.
 */
START_TEST(test_ppdu_loss)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11N_5G);
	struct tc_airfair_rate r = HT(10, 0, 0);
	const u32 p = 30147, q = 24248;	/* 0.46, 0.37 */
	struct airfair_sta_costs same, split, none;
	double att = 0, pw = 1, qs = 0, qw = 1, bo = 0, cw = 15;
	double slot = t.slot_us * 1000.0, want;
	int i;

	ck_assert_int_eq(airfair_sta_costs(&t, &r, p, p, AIRFAIR_AC_BE, 2,
					   MPDUS(2), 1460,
					   AIRFAIR_MODEL_PRECISE, &same), 0);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, p, q, AIRFAIR_AC_BE, 2,
					   MPDUS(2), 1460,
					   AIRFAIR_MODEL_PRECISE, &split), 0);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, p, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(2), 1460,
					   AIRFAIR_MODEL_PRECISE, &none), 0);
	/* the air (per byte) is the loss's alone */
	ck_assert_uint_eq(split.data.b_ns256, same.data.b_ns256);
	ck_assert_uint_eq(none.data.b_ns256, same.data.b_ns256);
	ck_assert_uint_lt(split.data.a_ns, same.data.a_ns);
	ck_assert_uint_lt(none.data.a_ns, split.data.a_ns);
	/* the difference is the backoff: both chains in floating point */
	for (i = 0; i <= t.retries; i++) {
		att += pw;
		qs += qw;
		bo += qw * cw * slot / 2;
		pw *= p / 65536.0;
		qw *= q / 65536.0;
		cw = cw * 2 + 1 > 1023 ? 1023 : cw * 2 + 1;
	}
	want = (att * bo / qs - att * 7.5 * slot) / 2;	/* per MPDU of 2 */
	ck_assert(fabs((double)split.data.a_ns - none.data.a_ns - want) < 4);
}
END_TEST

/* airtime-calc's breakdown: q = p is airfair_frame_ns(), q = 0 backs off at CWmin */
START_TEST(test_frame_split)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11N_5G);
	struct tc_airfair_rate r = HT(7, 0, 0);
	struct airfair_breakdown std, split, none;
	const u32 p = 26214;	/* 0.4 */
	u64 a, b;

	a = airfair_frame_ns(&t, &r, 1500, p, AIRFAIR_AC_BE, MPDUS(1), &std);
	b = airfair_frame_split_ns(&t, &r, 1500, p, p, AIRFAIR_AC_BE, MPDUS(1),
				   &split);
	ck_assert_uint_eq(a, b);
	ck_assert_uint_eq(std.backoff_ns, split.backoff_ns);
	airfair_frame_split_ns(&t, &r, 1500, p, 0, AIRFAIR_AC_BE, MPDUS(1),
			       &none);
	/* every one of E[N] attempts waits CWmin's mean, 7.5 slots */
	ck_assert(fabs(none.backoff_ns -
		       none.attempts_q16 / 65536.0 * 7.5 * t.slot_us * 1000) <
		  2);
	ck_assert_uint_eq(none.direct_ns, std.direct_ns);
	ck_assert_uint_eq(none.retries_ns, std.retries_ns);
	ck_assert_uint_lt(none.total_ns, std.total_ns);
}
END_TEST

/* One attempt's rate-free part is the breakdown's, per PPDU */
START_TEST(test_attempt_fixed)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r = VHT(9, 1, 2, 1);
	struct airfair_breakdown b;
	u64 per_mpdu;

	/* AIFS(BE) 43 + backoff 7.5 slots 67.5 + SIFS 16 + ACK 44 */
	ck_assert_uint_eq(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false, 0),
			  170500);
	/* a BlockAck answers an A-MPDU: n MPDUs share it */
	airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, MPDUS(4), &b);
	per_mpdu = b.aifs_ns + b.backoff_ns + b.sifs_ns + b.ack_ns;
	ck_assert(fabs(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, true, 0) -
		       4.0 * per_mpdu) <= 8);
	ck_assert_uint_gt(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, true, 0),
			  170500);
	ck_assert_uint_gt(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BK, false, 0),
			  airfair_attempt_fixed_ns(&t, AIRFAIR_AC_VO, false, 0));
	ck_assert_uint_eq(airfair_attempt_fixed_ns(&t, AIRFAIR_NUM_ACS, false, 0),
			  0);
	/* the widest window tc takes: BK's backoff alone is 16 s */
	t.slot_us = AIRFAIR_SIFS_SLOT_MAX_US;
	t.cwmin = t.cwmax = 32767;
	airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BK, AIRFAIR_AMPDU_ONE, &b);
	ck_assert_uint_eq(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BK, false, 0),
			  b.aifs_ns + b.backoff_ns + b.sifs_ns + b.ack_ns);
	ck_assert_uint_gt(b.backoff_ns, U32_MAX);
	t.slot_us = 0;
	ck_assert_uint_eq(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false, 0),
			  0);
}
END_TEST

/* Each attempt waits the mean backoff of the chain its PPDU losses double */
START_TEST(test_attempt_fixed_doubling)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	double w = 1, sum = 0, bo = 0;
	unsigned int cw = 15;
	int i;

	/* at q = 1/2 the window reaches CW_i with 2^-i: 15, 31, ..., 1023 */
	for (i = 0; i <= t.retries; i++) {
		sum += w;
		bo += w * cw * 9000 / 2;
		w /= 2;
		cw = cw * 2 + 1 > 1023 ? 1023 : cw * 2 + 1;
	}
	ck_assert(fabs(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false,
						AIRFAIR_LOSS_ONE / 2) -
		       (103000 + bo / sum)) <= 2);
	/* every attempt fails: the mean of the whole chain */
	ck_assert_uint_gt(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false,
						   AIRFAIR_LOSS_ONE),
			  airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false,
						   AIRFAIR_LOSS_ONE / 2));
	ck_assert_uint_eq(airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false,
						   AIRFAIR_LOSS_ONE + 1), 0);
}
END_TEST

/*
 * The part of a VHT frame's fixed cost its PPDU attempt makes up: the rest
 * is the MAC overhead's and the delimiter's bytes (@pad256: the A-MPDU's
 * mean pad, in 1/256 B), at the slope.
 */
static u64 attempt_part(const struct airfair_timing *t,
			const struct airfair_affine *a, u32 pad256)
{
	u64 ovh256 = ((u64)t->overhead_len + AIRFAIR_P_DELIM_LEN) * 256 + pad256;

	return a->a_ns - (((u64)a->b_ns256 * ovh256) >> 16);
}

/*
 * A told attempt costs what the charge puts on each attempt: at no loss a
 * frame's per-attempt part is one attempt's air plus the backoff of one
 * window at CWmin, shared by the MPDUs of an A-MPDU.
 */
START_TEST(test_attempt_air)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct tc_airfair_rate r = VHT(9, 1, 2, 1);
	struct airfair_sta_costs c;
	u64 one, agg, bo = airfair_backoff_ns(&t, AIRFAIR_AC_BE, 1, 1);

	/* CWmin 15: 7.5 slots; three attempts at 15, 31, 63: 54.5 slots */
	ck_assert_uint_eq(bo, 67500);
	ck_assert_uint_eq(airfair_backoff_ns(&t, AIRFAIR_AC_BE, 3, 7), 490500);
	/* VO's CWmin 3: 1.5 slots a window */
	ck_assert_uint_eq(airfair_backoff_ns(&t, AIRFAIR_AC_VO, 2, 2), 27000);
	ck_assert_uint_eq(airfair_backoff_ns(&t, AIRFAIR_AC_BE, 0, 0), 0);
	ck_assert_uint_eq(airfair_backoff_ns(&t, AIRFAIR_NUM_ACS, 1, 1), 0);

	one = airfair_attempt_air_ns(&t, &r, AIRFAIR_AC_BE, false);
	agg = airfair_attempt_air_ns(&t, &r, AIRFAIR_AC_BE, true);
	/* the ACK's part, and the VHT preamble's 40 us on top of it */
	ck_assert_uint_ge(one, airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE,
							false, 0) - bo + 40000);
	ck_assert_uint_lt(one, airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE,
							false, 0) - bo + 46000);
	ck_assert_uint_gt(agg, one);	/* a BlockAck is longer */
	ck_assert_uint_gt(airfair_attempt_air_ns(&t, &r, AIRFAIR_AC_BK, false),
			  airfair_attempt_air_ns(&t, &r, AIRFAIR_AC_VO, false));
	ck_assert_uint_eq(airfair_attempt_air_ns(&t, &r, AIRFAIR_NUM_ACS,
						 false), 0);

	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 0, AIRFAIR_AC_BE, 2,
					   AIRFAIR_AMPDU_ONE, 1460,
					   AIRFAIR_MODEL_PRECISE, &c), 0);
	ck_assert(llabs((s64)attempt_part(&t, &c.data, 0) - (s64)(one + bo)) <= 1);
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 0, AIRFAIR_AC_BE, 2,
					   MPDUS(4), 1460,
					   AIRFAIR_MODEL_PRECISE, &c), 0);
	ck_assert(llabs(4 * (s64)attempt_part(&t, &c.data, 384) -
			(s64)(agg + bo)) <= 4);
	/*
	 * mac80211 counts an MPDU attempt at 433.3 Mbit/s as 2^20 / 433.3:
	 * its data is what the charge's slope gives the MPDU at no loss
	 */
	{
		u64 units = ((u64)10 << 20) / (airfair_rate_kbps(&r) / 100);
		double want = (double)c.data.b_ns256 / 256 *
			      (1500 + t.overhead_len + AIRFAIR_P_DELIM_LEN);

		ck_assert(fabs(airfair_data_ns(&t, &r, 1000 * units, 1500,
					       false) / 1000.0 - want) <
			  0.002 * want);
		/* in an A-MPDU each also pays its mean pad */
		ck_assert_uint_gt(airfair_data_ns(&t, &r, 1000 * units, 1500,
						  true),
				  airfair_data_ns(&t, &r, 1000 * units, 1500,
						  false));
		ck_assert_uint_eq(airfair_data_ns(&t, &r, 0, 1500, false), 0);
	}
	/* the naive model charges no attempt */
	ck_assert_int_eq(airfair_sta_costs(&t, &r, 0, 0, AIRFAIR_AC_BE, 2,
					   AIRFAIR_AMPDU_ONE, 1460,
					   AIRFAIR_MODEL_NAIVE, &c), 0);
	ck_assert_uint_eq(c.data.a_ns, 0);
}
END_TEST

/* A station's key's bytes instead of CCMP's: an open network's MPDUs are 16 B shorter */
START_TEST(test_sec_len)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11A), open = t, gcmp = t;
	struct tc_airfair_rate r = LEG(60);
	u64 ccmp_ns, open_ns, gcmp_ns;

	airfair_timing_set_sec_len(&open, 0);
	airfair_timing_set_sec_len(&gcmp, 24);
	ck_assert_uint_eq(t.overhead_len, 54);
	ck_assert_uint_eq(open.overhead_len, 38);
	ck_assert_uint_eq(gcmp.overhead_len, 62);
	ccmp_ns = airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, AIRFAIR_AMPDU_ONE, NULL);
	open_ns = airfair_frame_ns(&open, &r, 1500, 0, AIRFAIR_AC_BE, AIRFAIR_AMPDU_ONE, NULL);
	gcmp_ns = airfair_frame_ns(&gcmp, &r, 1500, 0, AIRFAIR_AC_BE, AIRFAIR_AMPDU_ONE, NULL);
	/* 6 Mbit/s: 24 bits a 4 us symbol; 16 B are 128 bits, 5-6 symbols */
	ck_assert_uint_ge(ccmp_ns - open_ns, 20000);
	ck_assert_uint_le(ccmp_ns - open_ns, 24000);
	ck_assert_uint_ge(gcmp_ns - ccmp_ns, 8000);
	ck_assert_uint_le(gcmp_ns - ccmp_ns, 12000);
	/* the same 16 B per MPDU in the data the hook's counts tell */
	{
		u64 units = (u64)1000 << 20;	/* 1000 MPDU attempts at 1 Mbit/s */

		ck_assert_uint_eq(airfair_data_ns(&t, &r, units, 1500, false) -
				  airfair_data_ns(&open, &r, units, 1500, false),
				  1000ULL * 16 * 8 * 1000);
	}
}
END_TEST

/*
 * A preamble's long training fields: the part of an attempt's fixed air that
 * differs between rates of other spatial streams, which the settlement takes
 * from the hook's count of them instead of the station's one rate
 */
START_TEST(test_rate_ltfs)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	static const u32 nltf[] = { 1, 2, 4, 4, 6, 6, 8, 8 };
	struct tc_airfair_rate one = VHT(0, 1, 2, 0), r;
	u32 n, ns;

	for (n = 1; n <= 8; n++) {
		r = VHT(0, n, 2, 0);
		ck_assert_uint_eq(airfair_rate_ltfs(&r, &ns), nltf[n - 1]);
		ck_assert_uint_eq(ns, 4000);
		/* the fixed air grows by just those LTFs (service bits aside) */
		ck_assert_uint_eq(airfair_attempt_air_ns(&t, &r, AIRFAIR_AC_BE, true) / 1000,
				  (airfair_attempt_air_ns(&t, &one, AIRFAIR_AC_BE, true) +
				   (nltf[n - 1] - 1) * 4000ULL) / 1000);
	}
	r = HT(19, 0, 0);	/* three streams */
	ck_assert_uint_eq(airfair_rate_ltfs(&r, &ns), 4);
	ck_assert_uint_eq(ns, 4000);
	r = HE(0, 2, 0, 3);	/* 3.2 us GI: 4x LTF, 12.8 + 3.2 us */
	ck_assert_uint_eq(airfair_rate_ltfs(&r, &ns), 2);
	ck_assert_uint_eq(ns, 16000);
	r = LEG(60);
	ck_assert_uint_eq(airfair_rate_ltfs(&r, &ns), 0);
	ck_assert_uint_eq(ns, 0);
	r = VHT(0, 9, 2, 0);	/* invalid */
	ck_assert_uint_eq(airfair_rate_ltfs(&r, &ns), 0);
	ck_assert_uint_eq(ns, 0);
}
END_TEST

/* The window a chain waits (the hook's cw_scale), and the loss that waits it */
START_TEST(test_cw_scale)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	u32 q, s, back;
	u64 ns;

	ck_assert_uint_eq(airfair_cw_scale_x16(0, 6, 6), 16);
	/* every attempt fails: 1, 2, ..., 64 alike, 127 / 7 */
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, 6, 6), 290);
	/* 1 + 2q + 4q^2 over 1 + q + q^2 at q = 1/2: 3 / 1.75 */
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE / 2, 2, 6), 27);
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE + 1, 6, 6), 0);
	/* a window at CWmin is no loss; one past the chain's, the whole */
	ck_assert_uint_eq(airfair_cw_scale_loss_q16(16, 6, 6), 0);
	ck_assert_uint_eq(airfair_cw_scale_loss_q16(0, 6, 6), 0);
	ck_assert_uint_eq(airfair_cw_scale_loss_q16(291, 6, 6), AIRFAIR_LOSS_ONE);
	for (s = 17; s < 290; s += 7) {
		q = airfair_cw_scale_loss_q16(s, 6, 6);
		ck_assert_uint_ge(airfair_cw_scale_x16(q, 6, 6), s);
		ck_assert_uint_lt(airfair_cw_scale_x16(q - 1, 6, 6), s);
	}
	for (q = 0; q < AIRFAIR_LOSS_ONE; q += 4099) {
		back = airfair_cw_scale_loss_q16(airfair_cw_scale_x16(q, 6, 6), 6, 6);
		ck_assert_uint_le(back, q);
		ck_assert_uint_eq(airfair_cw_scale_x16(back, 6, 6),
				  airfair_cw_scale_x16(q, 6, 6));
	}
	/* past CWmax the window stays: BE's 6 doublings (1023 / 15) of 10 */
	ck_assert_uint_eq(airfair_ac_doublings(&t, AIRFAIR_AC_BE), 6);
	ck_assert_uint_eq(airfair_ac_doublings(&t, AIRFAIR_AC_VO), 1);
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, 10, 6),
			  (16 * (127 + 4 * 64) + 5) / 11);
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, 10, 10),
			  (16 * 2047 + 5) / 11);
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, 10, 200),
			  airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, 10, 10));
	/* the standard's AP table (BE CWmax 63): 2 doublings, 1 + 2 + 5 x 4 */
	t.cwmax = 63;
	ck_assert_uint_eq(airfair_ac_doublings(&t, AIRFAIR_AC_BE), 2);
	ck_assert_uint_eq(airfair_cw_scale_x16(AIRFAIR_LOSS_ONE, 6, 2),
			  (16 * 23 + 3) / 7);
	ck_assert_uint_eq(airfair_cw_scale_loss_q16(64, 6, 2), AIRFAIR_LOSS_ONE);
	t.cwmax = 1023;
	/*
	 * 11ac BE below CWmax: each attempt waits slot / 2 (16 cw_scale - 1),
	 * the testbed's HT station's 1.44 (medium: 147 us of AIFS + backoff)
	 */
	t.retries = 6;
	ns = airfair_attempt_fixed_ns(&t, AIRFAIR_AC_BE, false,
				      airfair_cw_scale_loss_q16(23, 6, 6));
	ck_assert(fabs(ns - (103000 + 4500.0 * (23 - 1))) <= 4500);
}
END_TEST

/* The paper's point: direct share of a 1500 B frame falls with MCS */
START_TEST(test_indirect_share)
{
	struct airfair_timing t = preset(AIRFAIR_PHY_11AC);
	struct airfair_breakdown b;
	double prev = 1.0;
	int mcs;

	for (mcs = 0; mcs <= 9; mcs++) {
		struct tc_airfair_rate r = VHT(mcs, 1, 2, 1);
		double share;

		airfair_frame_ns(&t, &r, 1500, 0, AIRFAIR_AC_BE, MPDUS(1), &b);
		share = (double)b.direct_ns / b.total_ns;
		printf("# VHT80 SGI 1SS MCS%d 1500 B: direct %.1f%% of %llu ns\n",
		       mcs, share * 100, (unsigned long long)b.total_ns);
		ck_assert(share <= prev);
		prev = share;
	}
	ck_assert(prev < 0.35);
}
END_TEST

/* cfg80211's rate report -> descriptor, as the hook and the feeder map it */
START_TEST(test_rate_from_info)
{
	const struct {
		struct airfair_rate_info in;
		bool g2, short_pre;
		struct tc_airfair_rate want;
	} good[] = {
		{ { .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20, .legacy = 110 },
		  true, true, LEGF(110, AIRFAIR_RATE_F_SHORT_PREAMBLE) },
		{ { .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20, .legacy = 10 },
		  true, true, LEG(10) },	/* 1 Mbit/s: long preamble only */
		{ { .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20, .legacy = 540 },
		  true, true, LEGF(540, AIRFAIR_RATE_F_ERP) },
		{ { .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20, .legacy = 540 },
		  false, false, LEG(540) },
		{ { .kind = AIRFAIR_RI_HT, .width_mhz = 40, .mcs = 15, .short_gi = true },
		  true, false, RATE(AIRFAIR_MODE_HT, 15, 2, AIRFAIR_BW_40,
				    AIRFAIR_GI_SHORT, AIRFAIR_RATE_F_ERP, 0) },
		{ { .kind = AIRFAIR_RI_VHT, .width_mhz = 160, .mcs = 9, .nss = 2 },
		  false, false, VHT(9, 2, AIRFAIR_BW_160, AIRFAIR_GI_LONG) },
		{ { .kind = AIRFAIR_RI_HE, .width_mhz = 80, .mcs = 11, .nss = 2,
		    .he_gi = NL80211_RATE_INFO_HE_GI_3_2 },
		  false, false, HE(11, 2, AIRFAIR_BW_80, AIRFAIR_GI_HE_3_2) },
	};
	static const struct airfair_rate_info bad[] = {
		{ .kind = AIRFAIR_RI_OTHER, .width_mhz = 20 },
		{ .kind = AIRFAIR_RI_HE, .width_mhz = 320, .mcs = 1, .nss = 1 },
		{ .kind = AIRFAIR_RI_HE, .width_mhz = 20, .mcs = 1, .nss = 1, .he_ru = true },
		{ .kind = AIRFAIR_RI_LEGACY, .width_mhz = 10, .legacy = 60 },
		{ .kind = AIRFAIR_RI_LEGACY, .width_mhz = 40, .legacy = 60 },
		{ .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20, .legacy = 0 },
		{ .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20, .legacy = 70 },
		{ .kind = AIRFAIR_RI_VHT, .width_mhz = 20, .mcs = 9, .nss = 1 },
	};
	struct tc_airfair_rate r;
	const char *why;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ck_assert_msg(airfair_rate_from_info(&good[i].in, good[i].g2,
						     good[i].short_pre, &r, &why) == 0,
			      "rate info %u rejected: %s", i, why);
		ck_assert_msg(!memcmp(&r, &good[i].want, sizeof(r)),
			      "rate info %u: mode %u mcs %u nss %u bw %u gi %u flags %u legacy %u",
			      i, r.mode, r.mcs, r.nss, r.bw, r.gi, r.flags, r.legacy);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(airfair_rate_from_info(&bad[i], false, false, &r, &why) ==
			      -EINVAL && why, "bad rate info %u accepted", i);
}
END_TEST

static Suite *airtime_suite(void)
{
	Suite *s = suite_create("airtime");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_published_rates);
	tcase_add_test(tc, test_chen_yan_ratio);
	tcase_add_test(tc, test_rate_validate);
	tcase_add_test(tc, test_rate_from_info);
	tcase_add_test(tc, test_ppdu);
	tcase_add_test(tc, test_timing);
	tcase_add_test(tc, test_attempts);
	tcase_add_test(tc, test_frame_breakdown);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_boundaries);
	tcase_add_test(tc, test_ampdu);
	tcase_add_test(tc, test_ampdu_fraction);
	tcase_add_test(tc, test_affine_bound);
	tcase_add_test(tc, test_sta_costs);
	tcase_add_test(tc, test_ppdu_loss);
	tcase_add_test(tc, test_frame_split);
	tcase_add_test(tc, test_attempt_fixed);
	tcase_add_test(tc, test_attempt_fixed_doubling);
	tcase_add_test(tc, test_cw_scale);
	tcase_add_test(tc, test_attempt_air);
	tcase_add_test(tc, test_sec_len);
	tcase_add_test(tc, test_rate_ltfs);
	tcase_add_test(tc, test_indirect_share);
	tcase_add_test(tc, test_txop_burst);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(airtime_suite());
	int failed;

	setvbuf(stdout, NULL, _IONBF, 0);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

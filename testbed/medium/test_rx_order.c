// SPDX-License-Identifier: GPL-2.0
/*
 * The medium's delivery order on a BlockAck link: an MPDU lost inside an
 * A-MPDU holds back the ones behind it (rx_held) until its retransmission is
 * delivered or it is dropped, as the receiver's reorder buffer would in
 * simulated time; other TIDs and a medium without rx_release are not held.
 * TAP on stdout, exit 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

#define NFRAMES 6
#define LOST_LEN 1501		/* the frame the link loses has this length */

static int n_tests, n_fail;
static int lose_attempts;	/* attempts of the LOST_LEN frame still to lose */
static uint64_t order[16], held[16], held_seq[16];
static int held_tid[16];
static int n_order, n_held, n_held_total;

static void check(int ok, const char *what)
{
	n_tests++;
	if (!ok)
		n_fail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", n_tests, what);
}

static double per(void *ctx, int src, int dst, const struct tc_airfair_rate *r,
		  uint32_t psdu_len, int *signal)
{
	*signal = -50;
	if (psdu_len == LOST_LEN + 4 && lose_attempts) {
		lose_attempts--;
		return 1.0;
	}
	return 0.0;
}

static void on_done(void *ctx, struct med_frame *f)
{
	free(f);
}

static void on_rx(void *ctx, struct med_frame *f, int rx, int signal)
{
	if (f->rx_held) {
		held[n_held] = f->cookie;
		held_tid[n_held] = f->tid;
		held_seq[n_held++] = f->seq;
		n_held_total++;
		return;
	}
	order[n_order++] = f->cookie;
}

static void on_release(void *ctx, int src, int dst, int tid, uint64_t before)
{
	int k = 0;

	for (int i = 0; i < n_held; i++) {
		if (held_tid[i] == tid && held_seq[i] < before) {
			order[n_order++] = held[i];
			continue;
		}
		held[k] = held[i];
		held_tid[k] = held_tid[i];
		held_seq[k++] = held_seq[i];
	}
	n_held = k;
}

static struct med_frame *frame(uint64_t cookie, uint32_t len, uint8_t tid)
{
	struct med_frame *f = calloc(1, sizeof(*f));

	f->cookie = cookie;
	f->src = 0;
	f->dst = 1;
	f->ac = AIRFAIR_AC_BE;
	f->tid = tid;
	f->ampdu = true;
	f->len = len;
	f->freq = 5180;
	f->nrates = 1;
	f->count[0] = 3;
	f->rate[0].mode = AIRFAIR_MODE_HT;
	f->rate[0].mcs = 7;
	f->rate[0].bw = AIRFAIR_BW_20;
	f->rate[0].gi = AIRFAIR_GI_LONG;
	return f;
}

/*
 * Queue NFRAMES MPDUs from radio 0 to radio 1, the second of length LOST_LEN
 * (lost on its first @lose attempts) and the last of TID @last_tid, and run
 * until all are done. The delivery order is left in order[].
 */
static void run(bool reorder, int lose, uint8_t last_tid)
{
	static struct medium m;

	med_init(&m, 1);
	m.qlimit = 64;
	m.ampdu_max = 8;
	m.per = per;
	m.done = on_done;
	m.rx = on_rx;
	m.rx_release = reorder ? on_release : NULL;
	med_radio_add(&m, 0);
	med_radio_add(&m, 1);
	lose_attempts = lose;
	n_order = n_held = n_held_total = 0;
	for (int i = 1; i <= NFRAMES; i++)
		med_enqueue(&m, frame(i, i == 2 ? LOST_LEN : 1500,
				      i == NFRAMES ? last_tid : 0));
	med_run_until(&m, 100000000ULL);
}

static bool order_is(const uint64_t *want, int n)
{
	if (n_order != n)
		return false;
	for (int i = 0; i < n; i++)
		if (order[i] != want[i])
			return false;
	return true;
}

int main(void)
{
	static const uint64_t in_order[] = { 1, 2, 3, 4, 5, 6 };
	static const uint64_t air_order[] = { 1, 3, 4, 5, 6, 2 };
	static const uint64_t dropped[] = { 1, 3, 4, 5, 6 };
	static const uint64_t other_tid[] = { 1, 6, 2, 3, 4, 5 };

	printf("TAP version 13\n1..5\n");
	run(true, 1, 0);
	check(order_is(in_order, NFRAMES) && n_held_total == 4,
	      "a lost MPDU holds the 4 behind it until its retransmission arrives");
	run(false, 1, 0);
	check(order_is(air_order, NFRAMES) && !n_held_total,
	      "without rx_release the retransmission arrives last, nothing held");
	run(true, 3, 0);
	check(order_is(dropped, NFRAMES - 1) && !n_held,
	      "an MPDU dropped after its retry chain releases the ones behind it");
	run(true, 1, 1);
	check(order_is(other_tid, NFRAMES) && n_held_total == 3,
	      "an MPDU of another TID is not held");
	run(true, 0, 0);
	check(order_is(in_order, NFRAMES) && !n_held_total,
	      "nothing lost: nothing held");
	return n_fail ? 1 : 0;
}

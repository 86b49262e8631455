// SPDX-License-Identifier: GPL-2.0
/*
 * The medium's queue-full policies, on one radio's queue with nothing sent:
 * "tail" refuses the frame that finds the queue full; "fattest" takes it and
 * drops the newest unsent frame of the receiver with the most queued, unless
 * the new frame's receiver is that one. TAP on stdout, exit 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

static int n_tests, n_fail, done_calls;
static uint64_t done_cookie;

static void check(int ok, const char *what)
{
	n_tests++;
	if (!ok)
		n_fail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", n_tests, what);
}

static void on_done(void *ctx, struct med_frame *f)
{
	done_calls++;
	done_cookie = f->cookie;
	free(f);
}

static struct med_frame *frame(uint64_t cookie, int dst)
{
	struct med_frame *f = calloc(1, sizeof(*f));

	f->cookie = cookie;
	f->src = 0;
	f->dst = dst;
	f->ac = AIRFAIR_AC_BE;
	f->len = 1500;
	f->freq = 5180;
	f->nrates = 1;
	f->count[0] = 4;
	f->rate[0].mode = AIRFAIR_MODE_LEGACY;
	f->rate[0].legacy = 540;
	return f;
}

/* Fill radio 0's queue with @limit frames to receiver 1; then offer one to @dst. */
static bool offer(bool fattest, int limit, int dst, struct medium *m)
{
	struct med_frame *f;

	med_init(m, 1);
	m->qlimit = limit;
	m->qdrop_fattest = fattest;
	m->done = on_done;
	done_calls = 0;
	for (int i = 0; i < limit; i++)
		if (!med_enqueue(m, frame(i + 1, 1)))
			return false;
	f = frame(1000, dst);
	if (med_enqueue(m, f))
		return true;
	free(f);
	return false;
}

int main(void)
{
	static struct medium m;
	bool took;

	printf("TAP version 13\n1..6\n");
	took = offer(false, 10, 2, &m);
	check(!took && m.cell[0][2][AIRFAIR_AC_BE].qdrops == 1 && !done_calls,
	      "tail: a full queue refuses a frame to another receiver");
	took = offer(true, 10, 2, &m);
	check(took && done_calls == 1 && done_cookie == 10,
	      "fattest: the frame to an idle receiver goes in, the flood's newest is dropped");
	check(m.cell[0][1][AIRFAIR_AC_BE].qdrops == 1 && !m.cell[0][2][AIRFAIR_AC_BE].qdrops,
	      "fattest: the drop is counted on the flood's link");
	check(m.radio[0].ac[AIRFAIR_AC_BE].qlen == 10,
	      "fattest: the queue stays at its limit");
	took = offer(true, 10, 1, &m);
	check(!took && !done_calls && m.cell[0][1][AIRFAIR_AC_BE].qdrops == 1,
	      "fattest: a frame to the fattest receiver itself is refused");
	took = offer(true, 1, 2, &m);
	check(!took && !done_calls,
	      "fattest: the head of a queue is never dropped (it may be on the air)");
	return n_fail ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A station's EDCA from its AP's WMM Parameter element: what the element
 * parses to (a beacon, an association response; malformed ones refused
 * whole), and what a radio takes from it (not an AC the configuration set;
 * its window kept within the new bounds; one without a channel yet takes it
 * with its first frame). TAP on stdout, exit 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

static int n_tests, n_fail;

static void check(int ok, const char *what)
{
	n_tests++;
	if (!ok)
		n_fail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", n_tests, what);
}

/* hostapd's defaults for an OFDM PHY, BE's ECWmin as given, parameter set count 5 */
static const uint8_t wmm_elem[] = {
	0xdd, 24, 0x00, 0x50, 0xf2, 0x02, 0x01, 0x01, 0x05, 0x00,
	0x03, 0xa4, 0x00, 0x00,		/* BE: AIFSN 3, ECW 4..10 (patched below) */
	0x27, 0xa4, 0x00, 0x00,		/* BK: AIFSN 7 */
	0x42, 0x43, 0x5e, 0x00,		/* VI: AIFSN 2, ECW 3..4, TXOP 94 x 32 us */
	0x62, 0x32, 0x2f, 0x00,		/* VO: AIFSN 2, ECW 2..3, TXOP 47 x 32 us */
};

/* A management frame of @subtype: header, @fixed bytes, an SSID, then the element. */
static uint32_t mgmt(uint8_t *buf, int subtype, int fixed, const uint8_t *elem, int elen)
{
	uint32_t n = 0;

	memset(buf, 0, 24 + fixed);
	buf[0] = (uint8_t)(subtype << 4);
	n = 24 + fixed;
	buf[n++] = 0;			/* SSID */
	buf[n++] = 4;
	memcpy(buf + n, "test", 4);
	n += 4;
	memcpy(buf + n, elem, elen);
	return n + elen;
}

static struct med_frame *frame(int src)
{
	struct med_frame *f = calloc(1, sizeof(*f));

	f->src = src;
	f->dst = 0;
	f->ac = AIRFAIR_AC_BE;
	f->len = 100;
	f->freq = 5180;
	f->nrates = 1;
	f->count[0] = 4;
	f->rate[0].mode = AIRFAIR_MODE_LEGACY;
	f->rate[0].legacy = 60;
	return f;
}

/* the configuration sets radio 2's BE */
static bool edca_for(void *ctx, int radio, int ac, struct med_edca *p)
{
	if (radio != 2 || ac != AIRFAIR_AC_BE)
		return false;
	p->cwmin = 31;
	return true;
}

int main(void)
{
	static struct medium m;
	uint8_t buf[256], elem[sizeof(wmm_elem)];
	struct med_wmm w, w7;
	struct med_ac *be1;
	uint32_t len;
	bool ok;

	printf("TAP version 13\n1..13\n");
	len = mgmt(buf, 8, 12, wmm_elem, sizeof(wmm_elem));
	ok = med_wmm_parse(buf, len, &w);
	check(ok && w.count == 5 && w.p[AIRFAIR_AC_BE].aifsn == 3 &&
	      w.p[AIRFAIR_AC_BE].cwmin == 15 && w.p[AIRFAIR_AC_BE].cwmax == 1023 &&
	      w.p[AIRFAIR_AC_BE].txop_us == 0 && w.p[AIRFAIR_AC_BK].aifsn == 7,
	      "beacon: BE AIFSN 3, CW 15..1023, no TXOP; BK AIFSN 7");
	check(ok && w.p[AIRFAIR_AC_VI].cwmin == 7 && w.p[AIRFAIR_AC_VI].cwmax == 15 &&
	      w.p[AIRFAIR_AC_VI].txop_us == 3008 && w.p[AIRFAIR_AC_VO].cwmin == 3 &&
	      w.p[AIRFAIR_AC_VO].cwmax == 7 && w.p[AIRFAIR_AC_VO].txop_us == 1504,
	      "beacon: VI CW 7..15, TXOP 3008 us; VO CW 3..7, TXOP 1504 us");

	memcpy(elem, wmm_elem, sizeof(elem));
	elem[11] = 0xa3;		/* BE ECWmin 3: CWmin 7 */
	elem[8] = 6;
	len = mgmt(buf, 1, 6, elem, sizeof(elem));
	check(med_wmm_parse(buf, len, &w7) && w7.p[AIRFAIR_AC_BE].cwmin == 7 && w7.count == 6,
	      "association response: BE CWmin 7, count 6");

	len = mgmt(buf, 8, 12, wmm_elem, sizeof(wmm_elem));
	check(!med_wmm_parse(buf, len - 1, &w), "a truncated element is refused");
	buf[0] = 0x88;			/* QoS data */
	check(!med_wmm_parse(buf, len, &w), "a data frame carries none");
	len = mgmt(buf, 8, 12, wmm_elem, 9);
	buf[len - 9 + 1] = 7;		/* WMM Information element: subtype 0 */
	buf[len - 9 + 6] = 0;
	check(!med_wmm_parse(buf, len, &w), "a WMM Information element is not the parameters");
	memcpy(elem, wmm_elem, sizeof(elem));
	elem[10] = 0x01;		/* BE AIFSN 1 */
	len = mgmt(buf, 8, 12, elem, sizeof(elem));
	check(!med_wmm_parse(buf, len, &w), "AIFSN 1 for the stations is refused");
	memcpy(elem, wmm_elem, sizeof(elem));
	elem[11] = 0x5a;		/* ECWmin 10 > ECWmax 5 */
	len = mgmt(buf, 8, 12, elem, sizeof(elem));
	check(!med_wmm_parse(buf, len, &w), "CWmin above CWmax is refused");
	memcpy(elem, wmm_elem, sizeof(elem));
	elem[14] = 0x03;		/* a second BE record in BK's place */
	len = mgmt(buf, 8, 12, elem, sizeof(elem));
	check(!med_wmm_parse(buf, len, &w), "an AC given twice is refused");

	len = mgmt(buf, 8, 12, wmm_elem, sizeof(wmm_elem));
	med_wmm_parse(buf, len, &w);
	med_init(&m, 1);
	m.edca_for = edca_for;
	for (int r = 0; r < 4; r++)
		med_radio_add(&m, r);
	med_enqueue(&m, frame(1));
	med_enqueue(&m, frame(2));
	be1 = &m.radio[1].ac[AIRFAIR_AC_BE];
	be1->cw = 1023;
	check(med_wmm_take(&m, 1, &w7) == 1 && be1->p.cwmin == 7 && be1->p.cwmax == 1023 &&
	      be1->cw == 1023 && med_wmm_take(&m, 1, &w7) == 0,
	      "radio 1 takes BE CWmin 7, keeps its window, and the same element again changes nothing");
	w7.p[AIRFAIR_AC_BE].cwmax = 63;
	check(med_wmm_take(&m, 1, &w7) == 1 && be1->cw == 63, "a lower CWmax pulls the window in");
	check(med_wmm_take(&m, 2, &w7) == 0 && m.radio[2].ac[AIRFAIR_AC_BE].p.cwmin == 31,
	      "the configuration's BE for radio 2 stands");
	check(med_wmm_take(&m, 3, &w7) == 0 && med_enqueue(&m, frame(3)) &&
	      m.radio[3].ac[AIRFAIR_AC_BE].p.cwmin == 7 && m.radio[3].ac[AIRFAIR_AC_BE].p.cwmax == 63,
	      "radio 3, not yet on a channel, takes it with its first frame");
	return n_fail ? 1 : 0;
}

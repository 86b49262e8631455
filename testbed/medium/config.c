// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-medium: configuration file parser and per-link channel model.
 * Format: see docs/medium.md ("Configuration file").
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "config.h"
#include "phy_params.h"

void cfg_defaults(struct medium_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->dilation = 1.0;
	c->stats_ms = 1000;
	c->qlimit = 100;
	c->retries = 0;
	c->phy_2g = AIRFAIR_PHY_11G;
	c->phy_5g = AIRFAIR_PHY_11A;
	c->def.tx = c->def.rx = CFG_ANY;
	c->def.has_snr = true;
	c->def.snr_db = 40.0;		/* clean link: every rate works */
}

static const char *const phy_names[__AIRFAIR_PHY_MAX] = AIRFAIR_PHY_NAMES;

int cfg_parse_phy(const char *s)
{
	for (int i = 0; i < __AIRFAIR_PHY_MAX; i++)
		if (!strcasecmp(s, phy_names[i]))
			return i;
	if (!strcasecmp(s, AIRFAIR_PHY_ALIAS_11AX))
		return AIRFAIR_PHY_11AX_5G;
	return -1;
}

int cfg_parse_ac(const char *s)
{
	static const char *const n[] = { "vo", "vi", "be", "bk" };

	for (int i = 0; i < 4; i++)
		if (!strcasecmp(s, n[i]))
			return i;
	return -1;
}

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	if (!s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return (errno || end == s || *end) ? -1 : 0;
}

static int parse_long(const char *s, long *v)
{
	char *end;

	if (!s)
		return -1;
	errno = 0;
	*v = strtol(s, &end, 0);
	return (errno || end == s || *end) ? -1 : 0;
}

/* radio: "*", a decimal hwsim radio index, or a hwsim address 02:00:00:XX:YY:00 */
static int parse_radio(const char *s, int *r)
{
	unsigned int b[6];
	long v;

	if (!strcmp(s, "*")) {
		*r = CFG_ANY;
		return 0;
	}
	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) == 6 &&
	    strlen(s) == 17) {
		*r = (int)((b[3] << 8) | b[4]);
		return *r < MED_MAX_RADIOS ? 0 : -1;
	}
	if (parse_long(s, &v) || v < 0 || v >= MED_MAX_RADIOS)
		return -1;
	*r = (int)v;
	return 0;
}

/* key/value pairs of a link line, from tok[i] on */
static int parse_link_params(struct cfg_link *l, char **tok, int n, int i, char *err, size_t el)
{
	if (i >= n)
		return fail(err, el, "link needs at least one of snr, loss, rate-cap, signal");
	for (; i < n; i += 2) {
		const char *k = tok[i], *v = i + 1 < n ? tok[i + 1] : NULL;
		double d;

		if (!v)
			return fail(err, el, "'%s' needs a value", k);
		if (!strcmp(k, "snr")) {
			if (parse_double(v, &d) || d < -20 || d > 100)
				return fail(err, el, "snr '%s': want dB in [-20, 100]", v);
			l->has_snr = true;
			l->has_loss = false;
			l->snr_db = d;
		} else if (!strcmp(k, "loss")) {
			if (parse_double(v, &d) || d < 0 || d > 1)
				return fail(err, el, "loss '%s': want a probability in [0, 1]", v);
			l->has_loss = true;
			l->has_snr = false;
			l->loss = d;
		} else if (!strcmp(k, "rate-cap")) {
			if (parse_double(v, &d) || d <= 0 || d > 100000)
				return fail(err, el, "rate-cap '%s': want Mbit/s > 0", v);
			l->has_cap = true;
			l->cap_kbps = (uint32_t)(d * 1000 + 0.5);
		} else if (!strcmp(k, "signal")) {
			if (parse_double(v, &d) || d < -120 || d > 0)
				return fail(err, el, "signal '%s': want dBm in [-120, 0]", v);
			l->has_signal = true;
			l->signal_dbm = (int)d;
		} else {
			return fail(err, el, "unknown link parameter '%s' (snr, loss, rate-cap, signal)",
				    k);
		}
	}
	return 0;
}

static int add_link(struct medium_cfg *c, struct cfg_link *l, char *err, size_t el)
{
	if (c->nlinks == CFG_MAX_LINKS)
		return fail(err, el, "too many link lines (max %d)", CFG_MAX_LINKS);
	c->link[c->nlinks++] = *l;
	return 0;
}

int cfg_parse_line(struct medium_cfg *c, char *line, char *err, size_t el)
{
	char *tok[32], *p, *save = NULL;
	int n = 0;
	long v;

	p = strchr(line, '#');
	if (p)
		*p = 0;
	for (p = strtok_r(line, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 32)
			return fail(err, el, "too many words");
		tok[n++] = p;
	}
	if (!n)
		return 0;
#define NEED(k) do { if (n != (k)) return fail(err, el, "'%s' takes %d argument(s)", tok[0], (k) - 1); } while (0)
	if (!strcmp(tok[0], "seed")) {
		NEED(2);
		if (parse_long(tok[1], &v) || v < 0)
			return fail(err, el, "seed '%s': want an integer >= 0", tok[1]);
		c->seed = (uint64_t)v;
	} else if (!strcmp(tok[0], "dilation")) {
		double d;

		NEED(2);
		if (parse_double(tok[1], &d) || d < 1 || d > 10000)
			return fail(err, el, "dilation '%s': want a factor in [1, 10000]", tok[1]);
		c->dilation = d;
	} else if (!strcmp(tok[0], "stats-interval")) {
		NEED(2);
		if (parse_long(tok[1], &v) || v < 10 || v > 3600000)
			return fail(err, el, "stats-interval '%s': want ms in [10, 3600000]", tok[1]);
		c->stats_ms = (int)v;
	} else if (!strcmp(tok[0], "queue-limit")) {
		NEED(2);
		/*
		 * A stock hwsim frees its pending frames at 200 per radio; above
		 * 190 the testbed's hwsim with max_pending raised is needed
		 */
		if (parse_long(tok[1], &v) || v < 1 || v > 2048)
			return fail(err, el, "queue-limit '%s': want frames in [1, 2048]", tok[1]);
		c->qlimit = (int)v;
	} else if (!strcmp(tok[0], "queue-drop")) {
		NEED(2);
		if (strcmp(tok[1], "tail") && strcmp(tok[1], "fattest"))
			return fail(err, el, "queue-drop '%s': want tail or fattest", tok[1]);
		c->qdrop_fattest = !strcmp(tok[1], "fattest");
	} else if (!strcmp(tok[0], "ampdu")) {
		NEED(2);
		if (parse_long(tok[1], &v) || v < 0 || v > MED_AMPDU_MAX)
			return fail(err, el, "ampdu '%s': want MPDUs per A-MPDU in [0, %d] (0: none)",
				    tok[1], MED_AMPDU_MAX);
		c->ampdu = (int)v;
	} else if (!strcmp(tok[0], "beacons")) {
		NEED(2);
		if (!strcmp(tok[1], "dilated"))
			c->beacons_all = false;
		else if (!strcmp(tok[1], "all"))
			c->beacons_all = true;
		else
			return fail(err, el, "beacons '%s': want dilated or all", tok[1]);
	} else if (!strcmp(tok[0], "retries")) {
		NEED(2);
		if (parse_long(tok[1], &v) || v < 0 || v > 15)
			return fail(err, el, "retries '%s': want [0, 15] (0: as mac80211 asks)", tok[1]);
		c->retries = (int)v;
	} else if (!strcmp(tok[0], "phy")) {
		int ph;

		NEED(3);
		ph = cfg_parse_phy(tok[2]);
		if (ph < 0)
			return fail(err, el, "unknown phy '%s' (11b 11a 11g 11n-2g 11n-5g 11ac 11ax-2g 11ax-5g)",
				    tok[2]);
		if (!strcmp(tok[1], "2g"))
			c->phy_2g = ph;
		else if (!strcmp(tok[1], "5g"))
			c->phy_5g = ph;
		else
			return fail(err, el, "phy band '%s': want 2g or 5g", tok[1]);
	} else if (!strcmp(tok[0], "default")) {
		struct cfg_link l = c->def;

		if (parse_link_params(&l, tok, n, 1, err, el))
			return -1;
		l.tx = l.rx = CFG_ANY;
		c->def = l;
	} else if (!strcmp(tok[0], "link") || !strcmp(tok[0], "pair")) {
		struct cfg_link l = { 0 };

		if (n < 3)
			return fail(err, el, "usage: %s TX RX [snr DB] [loss P] [rate-cap MBPS] [signal DBM]",
				    tok[0]);
		if (parse_radio(tok[1], &l.tx))
			return fail(err, el, "bad radio '%s' (index 0-%d, '*', or hwsim address)", tok[1],
				    MED_MAX_RADIOS - 1);
		if (parse_radio(tok[2], &l.rx))
			return fail(err, el, "bad radio '%s' (index 0-%d, '*', or hwsim address)", tok[2],
				    MED_MAX_RADIOS - 1);
		if (parse_link_params(&l, tok, n, 3, err, el))
			return -1;
		if (add_link(c, &l, err, el))
			return -1;
		if (tok[0][0] == 'p') {
			int t = l.tx;

			l.tx = l.rx;
			l.rx = t;
			if (add_link(c, &l, err, el))
				return -1;
		}
	} else if (!strcmp(tok[0], "edca")) {
		struct cfg_edca e = { .aifsn = -1, .cwmin = -1, .cwmax = -1, .txop = -1 };

		if (n < 5 || (n - 3) % 2)
			return fail(err, el, "usage: edca RADIO AC [aifsn N] [cwmin N] [cwmax N] [txop US]");
		if (parse_radio(tok[1], &e.radio))
			return fail(err, el, "bad radio '%s'", tok[1]);
		e.ac = cfg_parse_ac(tok[2]);
		if (e.ac < 0)
			return fail(err, el, "bad access category '%s' (vo vi be bk)", tok[2]);
		for (int i = 3; i < n; i += 2) {
			if (parse_long(tok[i + 1], &v) || v < 0)
				return fail(err, el, "%s '%s': want an integer >= 0", tok[i], tok[i + 1]);
			if (!strcmp(tok[i], "aifsn")) {
				if (v < 1 || v > 15)
					return fail(err, el, "aifsn %ld: want [1, 15]", v);
				e.aifsn = (int)v;
			} else if (!strcmp(tok[i], "cwmin") || !strcmp(tok[i], "cwmax")) {
				if (v > 32767 || ((v + 1) & v))
					return fail(err, el, "%s %ld: want 2^n - 1 <= 32767", tok[i], v);
				if (tok[i][2] == 'm' && tok[i][3] == 'i')
					e.cwmin = (int)v;
				else
					e.cwmax = (int)v;
			} else if (!strcmp(tok[i], "txop")) {
				if (v > 65535)
					return fail(err, el, "txop %ld: want us <= 65535", v);
				e.txop = (int)v;
			} else {
				return fail(err, el, "unknown edca parameter '%s' (aifsn cwmin cwmax txop)",
					    tok[i]);
			}
		}
		if (e.cwmin >= 0 && e.cwmax >= 0 && e.cwmin > e.cwmax)
			return fail(err, el, "cwmin %d > cwmax %d", e.cwmin, e.cwmax);
		if (c->nedca == CFG_MAX_EDCA)
			return fail(err, el, "too many edca lines");
		c->edca[c->nedca++] = e;
	} else {
		return fail(err, el, "unknown keyword '%s' (seed dilation stats-interval queue-limit queue-drop "
			    "retries ampdu phy default link pair edca)", tok[0]);
	}
	return 0;
#undef NEED
}

int cfg_load(struct medium_cfg *c, const char *path, char *err, size_t el)
{
	char line[1024], msg[512];
	FILE *f = fopen(path, "r");
	int ln = 0;

	if (!f)
		return fail(err, el, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			return fail(err, el, "%s:%d: line too long", path, ln);
		}
		if (cfg_parse_line(c, line, msg, sizeof(msg))) {
			fclose(f);
			return fail(err, el, "%s:%d: %s", path, ln, msg);
		}
	}
	fclose(f);
	return 0;
}

/*
 * SNR -> PER. Anchor per rate: the SNR at which a PSDU of the reference length
 * has 10% PER, from the receiver minimum input sensitivity tables of
 * IEEE 802.11-2016 (17-18 OFDM: 1000 octets; 19-23 HT, 21-25 VHT, and
 * 802.11ax-2021 27-51 HE: 4096 octets) converted with a noise floor of
 * -91 dBm (kTB at 20 MHz + 10 dB noise figure; the tables assume that figure
 * plus 5 dB implementation margin). 11b: the only normative value is 11 Mbit/s
 * at -76 dBm (8% FER, 1024 octets); 1/2/5.5 Mbit/s are offset by -9/-6/-4 dB,
 * the gaps typical datasheets show. Wider channels: +3 dB per doubling
 * (noise bandwidth). Curve: a bit error rate that falls one decade per dB
 * above the anchor, PER = 1 - (1 - BER)^(8 * len), which reproduces the anchor
 * and the ~3 dB waterfall of coded OFDM in AWGN.
 */
/* per OFDM rate of the model, ascending (airfair_ofdm_rate()) */
static const int8_t sens_ofdm[8] = { -82, -81, -79, -77, -74, -70, -66, -65 };
static const int8_t sens_mcs[12] = { -82, -79, -77, -74, -70, -66, -65, -64, -59, -57, -54, -52 };

static double snr_anchor(const struct tc_airfair_rate *r, uint32_t *ref_len)
{
	int sens = -82, i;

	*ref_len = 4096;
	if (r->mode == AIRFAIR_MODE_LEGACY) {
		switch (r->legacy) {
		case 10: *ref_len = 1024; return -85 + 91;
		case 20: *ref_len = 1024; return -82 + 91;
		case 55: *ref_len = 1024; return -80 + 91;
		case 110: *ref_len = 1024; return -76 + 91;
		}
		*ref_len = 1000;
		for (i = 0; i < 8; i++)
			if (airfair_ofdm_rate(i) == r->legacy)
				return sens_ofdm[i] + 91;
		return sens_ofdm[7] + 91;
	}
	i = r->mode == AIRFAIR_MODE_HT ? r->mcs % 8 : r->mcs;
	if (i > 11)
		i = 11;
	sens = sens_mcs[i] + 3 * r->bw;
	/* the transmit power split over the spatial streams: 3 dB per doubling */
	return sens + 91 + 10.0 * log10(r->nss > 1 ? r->nss : 1);
}

double per_from_snr(const struct tc_airfair_rate *r, double snr_db, uint32_t psdu_len)
{
	uint32_t ref;
	double th = snr_anchor(r, &ref);
	double ber_ref = 1.0 - pow(0.9, 1.0 / (8.0 * ref));
	double ber = ber_ref * pow(10.0, -(snr_db - th));

	if (ber >= 0.5)
		return 1.0;
	return 1.0 - pow(1.0 - ber, 8.0 * psdu_len);
}

static int link_rank(const struct cfg_link *l, int tx, int rx)
{
	if ((l->tx != CFG_ANY && l->tx != tx) || (l->rx != CFG_ANY && l->rx != rx))
		return -1;
	return (l->tx != CFG_ANY) * 2 + (l->rx != CFG_ANY);
}

/* The most specific matching line wins (exact > tx,* > *,rx > *,*); later lines break ties. */
double cfg_link_per(const struct medium_cfg *c, int tx, int rx, const struct tc_airfair_rate *r,
		    uint32_t psdu_len, int *signal)
{
	const struct cfg_link *best = &c->def;
	int rank = -1;
	uint32_t kbps;

	for (int i = 0; i < c->nlinks; i++) {
		int k = link_rank(&c->link[i], tx, rx);

		if (k >= 0 && k >= rank) {
			best = &c->link[i];
			rank = k;
		}
	}
	if (best->has_cap) {
		kbps = airfair_rate_kbps(r);
		if (kbps > best->cap_kbps) {
			if (signal)
				*signal = best->has_snr ? MED_NOISE_DBM + (int)best->snr_db : -50;
			return 1.0;
		}
	}
	if (best->has_loss || !best->has_snr) {
		if (signal)
			*signal = best->has_signal ? best->signal_dbm : -50;
		return best->has_loss ? best->loss : 0.0;
	}
	if (signal)
		*signal = best->has_signal ? best->signal_dbm : MED_NOISE_DBM + (int)lround(best->snr_db);
	return per_from_snr(r, best->snr_db, psdu_len);
}

bool cfg_edca_for(const struct medium_cfg *c, int radio, int ac, struct med_edca *p)
{
	bool any = false;

	/* caller pre-fills p with the defaults; lines apply in order, specific after '*' */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < c->nedca; i++) {
			const struct cfg_edca *e = &c->edca[i];

			if (e->ac != ac || (pass == 0 ? e->radio != CFG_ANY : e->radio != radio))
				continue;
			if (e->aifsn >= 0)
				p->aifsn = e->aifsn;
			if (e->cwmin >= 0)
				p->cwmin = e->cwmin;
			if (e->cwmax >= 0)
				p->cwmax = e->cwmax;
			if (e->txop >= 0)
				p->txop_us = e->txop;
			any = true;
		}
	return any;
}

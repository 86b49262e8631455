// SPDX-License-Identifier: GPL-2.0
/*
 * q_airfair.c	airtime-fair queueing for WiFi access points (sch_airfair)
 *
 * Parses and prints the options of the airfair qdisc and its statistics.
 * The netlink ABI is include/uapi/linux/pkt_sched_airfair.h; nothing of it
 * is duplicated here.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>

#include <linux/pkt_sched_airfair.h>

#include "utils.h"
#include "tc_util.h"
#include "tc_common.h"

#define AF_ETH_ALEN		6
#define AF_MAX_STATIONS_CMD	1024	/* "station" clauses per command */

/*
 * Printable names, indexed by the uapi enums. The PHY presets' are
 * AIRFAIR_PHY_NAMES of sch_airfair/phy_params.h, spelt out so that this file
 * builds inside iproute2 (tests/parse_test.sh checks they agree).
 */
static const char * const af_phy_names[__AIRFAIR_PHY_MAX] = {
	[AIRFAIR_PHY_11B]	= "11b",
	[AIRFAIR_PHY_11A]	= "11a",
	[AIRFAIR_PHY_11G]	= "11g",
	[AIRFAIR_PHY_11N_2G]	= "11n-2g",
	[AIRFAIR_PHY_11N_5G]	= "11n-5g",
	[AIRFAIR_PHY_11AC]	= "11ac",
	[AIRFAIR_PHY_11AX_2G]	= "11ax-2g",
	[AIRFAIR_PHY_11AX_5G]	= "11ax-5g",
};
#define AF_PHY_ALIAS_11AX	"11ax"	/* = 11ax-5g */

static const char * const af_model_names[__AIRFAIR_MODEL_MAX] = {
	[AIRFAIR_MODEL_PRECISE]	= "precise",
	[AIRFAIR_MODEL_NAIVE]	= "naive",
};

static const char * const af_upload_names[__AIRFAIR_UPLOAD_MAX] = {
	[AIRFAIR_UPLOAD_OBSERVED]	= "observed",
	[AIRFAIR_UPLOAD_ESTIMATED]	= "estimated",
};

static const char * const af_source_names[__AIRFAIR_SRC_MAX] = {
	[AIRFAIR_SRC_DEFAULT]	= "default",
	[AIRFAIR_SRC_STATIC]	= "static",
	[AIRFAIR_SRC_FEEDER]	= "feeder",
	[AIRFAIR_SRC_HOOK]	= "hook",
};

static const char * const af_mode_names[__AIRFAIR_MODE_MAX] = {
	[AIRFAIR_MODE_LEGACY]	= "legacy",
	[AIRFAIR_MODE_HT]	= "ht",
	[AIRFAIR_MODE_VHT]	= "vht",
	[AIRFAIR_MODE_HE]	= "he",
};

static const char * const af_ac_names[AIRFAIR_NUM_ACS] = {
	[AIRFAIR_AC_VO] = "vo",
	[AIRFAIR_AC_VI] = "vi",
	[AIRFAIR_AC_BE] = "be",
	[AIRFAIR_AC_BK] = "bk",
};

static const unsigned int af_bw_mhz[__AIRFAIR_BW_MAX] = {
	[AIRFAIR_BW_20] = 20, [AIRFAIR_BW_40] = 40,
	[AIRFAIR_BW_80] = 80, [AIRFAIR_BW_160] = 160,
};

/* Legacy rates in 100 kbit/s. */
static const __u16 af_dsss_rates[] = { 10, 20, 55, 110 };
static const __u16 af_ofdm_rates[] = { 60, 90, 120, 180, 240, 360, 480, 540 };

static void explain(void)
{
	fprintf(stderr,
"Usage: ... airfair [ PHY ] [ sifs TIME ] [ slot TIME ] [ cwmin N ] [ cwmax N ]\n"
"                   [ aifsn VO VI BE BK ] [ txop VO VI BE BK ] [ retries N ]\n"
"                   [ basic-rate RATE ]\n"
"                   [ limit PACKETS ] [ memlimit BYTES ]\n"
"                   [ model precise | naive ]\n"
"                   [ utilisation PERCENT | utilisation auto [ max PERCENT ] | unmetered ]\n"
"                   [ upload observed | estimated ] [ upload-window | no-upload-window ]\n"
"                   [ quantum TIME ] [ delack N ] [ ampdu N|auto ]\n"
"                   [ ack-filter | ack-filter-aggressive | no-ack-filter ]\n"
"                   [ ack-prio | no-ack-prio ] [ defer-data | no-defer-data ]\n"
"                   [ tlas PACKETS | no-tlas ] [ rtt-buffer | no-rtt-buffer ]\n"
"                   [ target TIME ] [ interval TIME ] [ ecn | noecn ]\n"
"                   [ pending-limit TIME | pending-limit auto | no-pending-limit ]\n"
"                   [ max-stations N ] [ station-timeout TIME ]\n"
"                   [ station MAC [ weight N ] [ rate STARATE ] [ loss PERCENT ]\n"
"                                 [ source SOURCE ] | station MAC delete ] ...\n"
"PHY      := { 11b | 11a | 11g | 11n-2g | 11n-5g | 11ac | 11ax-2g | 11ax-5g }\n"
"RATE     := a legacy rate: { 1 | 2 | 5.5 | 11 | 6 | 9 | 12 | 18 | 24 | 36 | 48 | 54 }mbit\n"
"STARATE  := { RATE [ short-preamble ] [ erp ]\n"
"            | ht-mcs 0-31 [ bw { 20 | 40 } ] [ sgi ]\n"
"            | vht-mcs 0-9 [ nss 1-8 ] [ bw { 20 | 40 | 80 | 160 } ] [ sgi ]\n"
"            | he-mcs 0-11 [ nss 1-8 ] [ bw { 20 | 40 | 80 | 160 } ] [ gi { 0.8 | 1.6 | 3.2 } ] }\n"
"SOURCE   := { default | static | feeder | hook }\n"
"TIME     := e.g. 9us, 5ms, 1s     BYTES := e.g. 4mb, 512kb\n"
"PERCENT  := e.g. 90, 90%%, 2.5%%\n");
}

#define af_err(fmt, ...) fprintf(stderr, "airfair: " fmt "\n", ##__VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Argument parsing helpers: each returns 0 or -1 after printing why. */

static bool af_negative(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '-';
}

/* Plain unsigned integer in [min, max]. */
static int af_get_uint(const char *kw, const char *arg, __u64 min, __u64 max,
		       __u64 *out)
{
	unsigned long long v;
	char *end;

	if (af_negative(arg))
		goto bad;
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end)
		goto bad;
	if (v < min || v > max) {
		af_err("%s: %s is out of range %llu-%llu", kw, arg,
		       (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
bad:
	af_err("%s: \"%s\" is not a valid number", kw, arg);
	return -1;
}

/* A TIME (iproute2 get_time units), in microseconds, in [min, max]. */
static int af_get_time_us(const char *kw, const char *arg, __u64 min, __u64 max,
			  __u64 *out)
{
	unsigned int t;
	double d;
	char *end;

	d = strtod(arg, &end);
	if (af_negative(arg) || end == arg || get_time(&t, arg) < 0)
		goto bad;
	/* get_time() truncates to u32 microseconds: recompute to catch overflow */
	if (*end) {
		if (!strcasecmp(end, "s") || !strcasecmp(end, "sec") ||
		    !strcasecmp(end, "secs"))
			d *= 1000000.0;
		else if (!strcasecmp(end, "ms") || !strcasecmp(end, "msec") ||
			 !strcasecmp(end, "msecs"))
			d *= 1000.0;
	}
	if (d >= 4294967296.0) {
		af_err("%s: %s is too large", kw, arg);
		return -1;
	}
	if (d != floor(d)) {
		af_err("%s: %s is not a whole number of microseconds", kw, arg);
		return -1;
	}
	if (t < min || t > max) {
		af_err("%s: %s is out of range %lluus-%lluus", kw, arg,
		       (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = t;
	return 0;
bad:
	af_err("%s: \"%s\" is not a valid time (e.g. 9us, 5ms, 1s)", kw, arg);
	return -1;
}

/* A PERCENT: number with optional '%' suffix, in [0, max]. */
static int af_get_percent(const char *kw, const char *arg, double max,
			  bool max_inclusive, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || af_negative(arg) || isnan(v))
		goto bad;
	if (*end == '%')
		end++;
	if (*end)
		goto bad;
	if (v < 0 || v > max || (!max_inclusive && v == max)) {
		af_err("%s: %s is out of range 0-%g%%%s", kw, arg, max,
		       max_inclusive ? "" : " (exclusive)");
		return -1;
	}
	*out = v;
	return 0;
bad:
	af_err("%s: \"%s\" is not a valid percentage", kw, arg);
	return -1;
}

/* A per mille value as tc takes it back: "92.5%", "100%". */
static void af_permille_str(char *buf, size_t n, unsigned int pm)
{
	if (pm % 10)
		snprintf(buf, n, "%u.%u%%", pm / 10, pm % 10);
	else
		snprintf(buf, n, "%u%%", pm / 10);
}

/* A PERCENT in 0.1% steps, stored per mille: at least 0.1%, at most max_pm. */
static int af_get_permille(const char *kw, const char *arg, __u64 max_pm,
			   __u64 *out)
{
	double p;

	if (af_get_percent(kw, arg, max_pm / 10.0, true, &p))
		return -1;
	*out = lround(p * 10.0);
	if (*out == 0) {
		af_err("%s: %s is too small (at least 0.1%%)", kw, arg);
		return -1;
	}
	return 0;
}

static bool af_in(const __u16 *tab, size_t n, __u16 v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i] == v)
			return true;
	return false;
}

static bool af_is_dsss(__u16 r)
{
	return af_in(af_dsss_rates, ARRAY_SIZE(af_dsss_rates), r);
}

static bool af_is_ofdm(__u16 r)
{
	return af_in(af_ofdm_rates, ARRAY_SIZE(af_ofdm_rates), r);
}

/* A legacy RATE (get_rate units) in 100 kbit/s, one of the 802.11 rates. */
static int af_get_legacy(const char *kw, const char *arg, __u16 *out)
{
	unsigned int bytes;
	__u64 bits;

	if (af_negative(arg) || get_rate(&bytes, arg) < 0) {
		af_err("%s: \"%s\" is not a valid rate (e.g. 54mbit, 5.5mbit)",
		       kw, arg);
		return -1;
	}
	bits = (__u64)bytes * 8;
	if (bits % 100000 || !(af_is_dsss(bits / 100000) ||
			       af_is_ofdm(bits / 100000))) {
		af_err("%s: %s is not an 802.11 legacy rate (1, 2, 5.5, 11, 6, 9, 12, 18, 24, 36, 48 or 54mbit)",
		       kw, arg);
		return -1;
	}
	*out = bits / 100000;
	return 0;
}

static int af_get_mac(const char *arg, __u8 *mac)
{
	unsigned int b[AF_ETH_ALEN];
	char tail;
	int i;

	if (strlen(arg) != 17 ||
	    sscanf(arg, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		   &b[3], &b[4], &b[5], &tail) != 6)
		goto bad;
	for (i = 0; i < AF_ETH_ALEN; i++) {
		if (arg[i * 3] == ' ' || arg[i * 3] == '+' || arg[i * 3] == '-')
			goto bad;
		mac[i] = b[i];
	}
	return 0;
bad:
	af_err("station: \"%s\" is not a MAC address (xx:xx:xx:xx:xx:xx)", arg);
	return -1;
}

static int af_lookup(const char *kw, const char *arg,
		     const char * const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(arg, names[i]))
			return i;
	af_err("%s: unknown value \"%s\"", kw, arg);
	return -1;
}

static int af_phy_lookup(const char *s)
{
	int i;

	for (i = 0; i < __AIRFAIR_PHY_MAX; i++)
		if (!strcmp(s, af_phy_names[i]))
			return i;
	if (!strcmp(s, AF_PHY_ALIAS_11AX))
		return AIRFAIR_PHY_11AX_5G;
	return -1;
}

static int af_bw_lookup(const char *arg)
{
	int i;

	for (i = 0; i < __AIRFAIR_BW_MAX; i++) {
		char buf[8];

		snprintf(buf, sizeof(buf), "%u", af_bw_mhz[i]);
		if (!strcmp(arg, buf) || (!strncmp(arg, buf, strlen(buf)) &&
					  !strcasecmp(arg + strlen(buf), "mhz")))
			return i;
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* The command, parsed in full before anything is put in the message. */

struct af_station {
	__u8 addr[AF_ETH_ALEN];
	bool has_weight, has_rate, has_loss, has_source, del;
	__u16 weight;
	struct tc_airfair_rate rate;
	__u32 loss;
	__u8 source;
};

enum af_opt {	/* one "seen" bit per option, for duplicates */
	O_PHY, O_SIFS, O_SLOT, O_CWMIN, O_CWMAX, O_AIFSN, O_RETRIES,
	O_BASIC_RATE, O_LIMIT, O_MEMLIMIT, O_MODEL, O_UTIL, O_QUANTUM,
	O_DELACK, O_ACK_FILTER, O_ACK_PRIO, O_TLAS, O_RTT_BUFFER, O_TARGET,
	O_INTERVAL, O_ECN, O_MAX_STATIONS, O_STA_TIMEOUT, O_AMPDU,
	O_PENDING_LIMIT, O_UPLOAD, O_UPLOAD_WINDOW, O_UTIL_AUTO_MAX,
	O_DEFER_DATA, O_TXOP, O_NUM
};

struct af_cmd {
	bool seen[O_NUM];
	const char *seen_as[O_NUM];	/* the keyword that set it */
	__u64 val[O_NUM];
	__u16 aifsn[AIRFAIR_NUM_ACS];
	__u16 txop_us[AIRFAIR_NUM_ACS];
	struct af_station *sta;
	int nsta;
};

/*
 * "KW VO VI BE BK": four values after *argv, numbers (or TIMEs with @time)
 * in [min, max]; leaves argv at the last.
 */
static int af_get_per_ac(const char *kw, int *argc, char ***argv, bool time,
			 __u64 min, __u64 max, __u64 *out)
{
	int ac;

	for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
		char name[16];

		if (*argc < 2) {
			af_err("%s: needs 4 values, VO VI BE BK; %s is missing",
			       kw, af_ac_names[ac]);
			return -1;
		}
		(*argc)--, (*argv)++;
		snprintf(name, sizeof(name), "%s %s", kw, af_ac_names[ac]);
		if (time ? af_get_time_us(name, **argv, min, max, &out[ac]) :
			   af_get_uint(name, **argv, min, max, &out[ac]))
			return -1;
	}
	return 0;
}

static int af_set(struct af_cmd *c, enum af_opt o, const char *kw, __u64 v)
{
	if (c->seen[o]) {
		if (strcmp(kw, c->seen_as[o]))
			af_err("\"%s\" conflicts with \"%s\"", kw, c->seen_as[o]);
		else
			af_err("\"%s\" is given more than once", kw);
		return -1;
	}
	c->seen[o] = true;
	c->seen_as[o] = kw;
	c->val[o] = v;
	return 0;
}

static bool af_is_cw(__u64 v)
{
	return v && !((v + 1) & v);	/* 2^n - 1 */
}

/* Parse "rate ..." of a station. argcp/argvp point at the word "rate". */
static int af_parse_sta_rate(int *argcp, char ***argvp,
			     struct tc_airfair_rate *r)
{
	int argc = *argcp;
	char **argv = *argvp;
	bool has_bw = false, has_gi = false, has_nss = false;
	const char *kind;
	__u64 v;

	memset(r, 0, sizeof(*r));
	if (argc < 2) {
		af_err("station rate: missing value");
		return -1;
	}
	argc--, argv++;
	kind = *argv;

	if (!strcmp(kind, "ht-mcs") || !strcmp(kind, "vht-mcs") ||
	    !strcmp(kind, "he-mcs")) {
		unsigned int maxmcs;

		r->mode = kind[0] == 'h' && kind[1] == 't' ? AIRFAIR_MODE_HT :
			  kind[0] == 'v' ? AIRFAIR_MODE_VHT : AIRFAIR_MODE_HE;
		maxmcs = r->mode == AIRFAIR_MODE_HT ? 31 :
			 r->mode == AIRFAIR_MODE_VHT ? 9 : 11;
		if (argc < 2) {
			af_err("%s: missing MCS index", kind);
			return -1;
		}
		argc--, argv++;
		if (af_get_uint(kind, *argv, 0, maxmcs, &v))
			return -1;
		r->mcs = v;
		r->nss = r->mode == AIRFAIR_MODE_HT ? r->mcs / 8 + 1 : 1;
		r->bw = AIRFAIR_BW_20;
		r->gi = AIRFAIR_GI_LONG;

		while (argc > 1) {
			const char *w = argv[1];

			if (!strcmp(w, "nss")) {
				if (r->mode == AIRFAIR_MODE_HT) {
					af_err("ht-mcs: nss is implied by the MCS index (0-7: 1, 8-15: 2, ...); drop \"nss\"");
					return -1;
				}
				if (has_nss) {
					af_err("\"nss\" is given more than once");
					return -1;
				}
				if (argc < 3) {
					af_err("nss: missing value");
					return -1;
				}
				argc--, argv++;
				if (af_get_uint("nss", argv[1], 1, 8, &v))
					return -1;
				r->nss = v;
				has_nss = true;
			} else if (!strcmp(w, "bw")) {
				int bw;

				if (has_bw) {
					af_err("\"bw\" is given more than once");
					return -1;
				}
				if (argc < 3) {
					af_err("bw: missing value");
					return -1;
				}
				argc--, argv++;
				bw = af_bw_lookup(argv[1]);
				if (bw < 0 || (r->mode == AIRFAIR_MODE_HT &&
					       bw > AIRFAIR_BW_40)) {
					af_err("bw: \"%s\" is not a valid %s channel width (%s)",
					       argv[1], kind,
					       r->mode == AIRFAIR_MODE_HT ?
					       "20 or 40" : "20, 40, 80 or 160");
					return -1;
				}
				r->bw = bw;
				has_bw = true;
			} else if (!strcmp(w, "sgi")) {
				if (r->mode == AIRFAIR_MODE_HE) {
					af_err("he-mcs: use \"gi 0.8|1.6|3.2\", not \"sgi\"");
					return -1;
				}
				if (has_gi) {
					af_err("\"sgi\" is given more than once");
					return -1;
				}
				r->gi = AIRFAIR_GI_SHORT;
				has_gi = true;
			} else if (!strcmp(w, "gi")) {
				if (r->mode != AIRFAIR_MODE_HE) {
					af_err("%s: use \"sgi\" for the short guard interval, \"gi\" is for he-mcs", kind);
					return -1;
				}
				if (has_gi) {
					af_err("\"gi\" is given more than once");
					return -1;
				}
				if (argc < 3) {
					af_err("gi: missing value");
					return -1;
				}
				argc--, argv++;
				if (!strcmp(argv[1], "0.8"))
					r->gi = AIRFAIR_GI_HE_0_8;
				else if (!strcmp(argv[1], "1.6"))
					r->gi = AIRFAIR_GI_HE_1_6;
				else if (!strcmp(argv[1], "3.2"))
					r->gi = AIRFAIR_GI_HE_3_2;
				else {
					af_err("gi: \"%s\" is not an HE guard interval (0.8, 1.6 or 3.2)",
					       argv[1]);
					return -1;
				}
				has_gi = true;
			} else {
				break;
			}
			argc--, argv++;
		}
		/* VHT MCS/NSS/width combinations IEEE 802.11ac leaves undefined */
		if (r->mode == AIRFAIR_MODE_VHT &&
		    ((r->bw == AIRFAIR_BW_20 && r->mcs == 9 &&
		      r->nss != 3 && r->nss != 6) ||
		     (r->bw == AIRFAIR_BW_80 && r->mcs == 6 &&
		      (r->nss == 3 || r->nss == 7)) ||
		     (r->bw == AIRFAIR_BW_160 && r->mcs == 9 && r->nss == 3))) {
			af_err("vht-mcs %u nss %u bw %u: not a valid VHT rate",
			       r->mcs, r->nss, af_bw_mhz[r->bw]);
			return -1;
		}
	} else {
		bool sp = false, erp = false;

		r->mode = AIRFAIR_MODE_LEGACY;
		if (af_get_legacy("station rate", kind, &r->legacy))
			return -1;
		while (argc > 1) {
			if (!strcmp(argv[1], "short-preamble")) {
				if (sp) {
					af_err("\"short-preamble\" is given more than once");
					return -1;
				}
				if (r->legacy != 20 && r->legacy != 55 &&
				    r->legacy != 110) {
					af_err("short-preamble: only for 2, 5.5 and 11mbit, not %s",
					       kind);
					return -1;
				}
				r->flags |= AIRFAIR_RATE_F_SHORT_PREAMBLE;
				sp = true;
			} else if (!strcmp(argv[1], "erp")) {
				if (erp) {
					af_err("\"erp\" is given more than once");
					return -1;
				}
				if (!af_is_ofdm(r->legacy)) {
					af_err("erp: only for OFDM rates (6-54mbit), not %s",
					       kind);
					return -1;
				}
				r->flags |= AIRFAIR_RATE_F_ERP;
				erp = true;
			} else {
				break;
			}
			argc--, argv++;
		}
	}
	*argcp = argc;
	*argvp = argv;
	return 0;
}

/* Parse "station MAC ...". argcp/argvp point at the word "station". */
static int af_parse_station(int *argcp, char ***argvp, struct af_cmd *c)
{
	int argc = *argcp;
	char **argv = *argvp;
	struct af_station *s;
	__u64 v;
	int i;

	if (argc < 2) {
		af_err("station: missing MAC address");
		return -1;
	}
	if (c->nsta >= AF_MAX_STATIONS_CMD) {
		af_err("station: at most %d stations per command",
		       AF_MAX_STATIONS_CMD);
		return -1;
	}
	s = &c->sta[c->nsta];
	memset(s, 0, sizeof(*s));
	argc--, argv++;
	if (af_get_mac(*argv, s->addr))
		return -1;
	for (i = 0; i < c->nsta; i++) {
		if (!memcmp(c->sta[i].addr, s->addr, AF_ETH_ALEN)) {
			af_err("station %s is given more than once", *argv);
			return -1;
		}
	}

	while (argc > 1) {
		const char *w = argv[1];

		if (!strcmp(w, "weight")) {
			if (s->has_weight) {
				af_err("station %s: \"weight\" is given more than once",
				       *argv);
				return -1;
			}
			if (argc < 3) {
				af_err("weight: missing value");
				return -1;
			}
			argc--, argv++;
			if (af_get_uint("weight", argv[1], AIRFAIR_WEIGHT_MIN,
					AIRFAIR_WEIGHT_MAX, &v))
				return -1;
			s->weight = v;
			s->has_weight = true;
			argc--, argv++;
		} else if (!strcmp(w, "rate")) {
			if (s->has_rate) {
				af_err("station: \"rate\" is given more than once");
				return -1;
			}
			argc--, argv++;
			if (af_parse_sta_rate(&argc, &argv, &s->rate))
				return -1;
			s->has_rate = true;
		} else if (!strcmp(w, "loss")) {
			double p;

			if (s->has_loss) {
				af_err("station: \"loss\" is given more than once");
				return -1;
			}
			if (argc < 3) {
				af_err("loss: missing value");
				return -1;
			}
			argc--, argv++;
			if (af_get_percent("loss", argv[1], 100.0, false, &p))
				return -1;
			s->loss = (__u32)lround(p / 100.0 * 65536.0);
			if (s->loss >= 65536)
				s->loss = 65535;
			s->has_loss = true;
			argc--, argv++;
		} else if (!strcmp(w, "source")) {
			int src;

			if (s->has_source) {
				af_err("station: \"source\" is given more than once");
				return -1;
			}
			if (argc < 3) {
				af_err("source: missing value");
				return -1;
			}
			argc--, argv++;
			src = af_lookup("source", argv[1], af_source_names,
					__AIRFAIR_SRC_MAX);
			if (src < 0)
				return -1;
			s->source = src;
			s->has_source = true;
			argc--, argv++;
		} else if (!strcmp(w, "delete")) {
			if (s->del) {
				af_err("station: \"delete\" is given more than once");
				return -1;
			}
			s->del = true;
			argc--, argv++;
		} else {
			break;
		}
	}
	if (s->del && (s->has_weight || s->has_rate || s->has_loss ||
		       s->has_source)) {
		af_err("station %s: \"delete\" conflicts with weight/rate/loss/source",
		       (*argcp > 1) ? (*argvp)[1] : "");
		return -1;
	}
	c->nsta++;
	*argcp = argc;
	*argvp = argv;
	return 0;
}

/* struct tc_airfair_rate <-> a TCA_AIRFAIR_RATE_* nest */
static int af_add_rate(struct nlmsghdr *n, int type,
		       const struct tc_airfair_rate *r)
{
	struct rtattr *nest = addattr_nest(n, TCA_BUF_MAX, type | NLA_F_NESTED);

	if (!nest ||
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_MODE, r->mode) ||
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_MCS, r->mcs) ||
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_NSS, r->nss) ||
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_BW, r->bw) ||
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_GI, r->gi) ||
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_FLAGS, r->flags) ||
	    addattr16(n, TCA_BUF_MAX, TCA_AIRFAIR_RATE_LEGACY, r->legacy))
		return -1;
	addattr_nest_end(n, nest);
	return 0;
}

/* A nest of one value per AC, numbered AC + 1, each @width (1 or 2) bytes. */
static int af_emit_per_ac(struct nlmsghdr *n, int type, const __u16 *v,
			  int width)
{
	struct rtattr *nest = addattr_nest(n, TCA_BUF_MAX, type | NLA_F_NESTED);
	int i;

	if (!nest)
		return -1;
	for (i = 0; i < AIRFAIR_NUM_ACS; i++)
		if (width == 1 ? addattr8(n, TCA_BUF_MAX, i + 1, v[i]) :
				 addattr16(n, TCA_BUF_MAX, i + 1, v[i]))
			return -1;
	addattr_nest_end(n, nest);
	return 0;
}

static int af_emit_station(struct nlmsghdr *n, const struct af_station *s)
{
	struct rtattr *nest;

	nest = addattr_nest(n, TCA_BUF_MAX, TCA_AIRFAIR_STATION | NLA_F_NESTED);
	if (!nest)
		return -1;
	if (addattr_l(n, TCA_BUF_MAX, TCA_AIRFAIR_STA_ADDR, s->addr,
		      AF_ETH_ALEN))
		return -1;
	if (s->has_weight &&
	    addattr16(n, TCA_BUF_MAX, TCA_AIRFAIR_STA_WEIGHT, s->weight))
		return -1;
	if (s->has_rate && af_add_rate(n, TCA_AIRFAIR_STA_RATE, &s->rate))
		return -1;
	if (s->has_loss &&
	    addattr32(n, TCA_BUF_MAX, TCA_AIRFAIR_STA_LOSS, s->loss))
		return -1;
	if (s->has_source &&
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_STA_SOURCE, s->source))
		return -1;
	if (s->del && addattr(n, TCA_BUF_MAX, TCA_AIRFAIR_STA_DELETE))
		return -1;
	addattr_nest_end(n, nest);
	return 0;
}

static int airfair_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			     struct nlmsghdr *n, const char *dev)
{
	struct af_cmd c = {};
	struct rtattr *tail;
	const char *kw;
	int ret = -1, i;
	__u64 v;

	c.sta = calloc(AF_MAX_STATIONS_CMD, sizeof(*c.sta));
	if (!c.sta) {
		af_err("out of memory");
		return -1;
	}

/* Take the value of keyword kw: argv[0] becomes the value. */
#define AF_VALUE() do {							\
		if (argc < 2) {						\
			af_err("\"%s\" needs a value", kw);		\
			goto out;					\
		}							\
		argc--, argv++;						\
	} while (0)

	for (; argc > 0; argc--, argv++) {
		int phy;

		kw = *argv;
		if (!strcmp(kw, "help")) {
			explain();
			goto out;
		} else if ((phy = af_phy_lookup(kw)) >= 0) {
			if (af_set(&c, O_PHY, kw, phy))
				goto out;
		} else if (!strcmp(kw, "phy")) {
			AF_VALUE();
			phy = af_phy_lookup(*argv);
			if (phy < 0) {
				af_err("phy: unknown preset \"%s\" (11b 11a 11g 11n-2g 11n-5g 11ac 11ax-2g 11ax-5g)",
				       *argv);
				goto out;
			}
			if (af_set(&c, O_PHY, *argv, phy))
				goto out;
		} else if (!strcmp(kw, "sifs") || !strcmp(kw, "slot")) {
			AF_VALUE();
			if (af_get_time_us(kw, *argv, AIRFAIR_SIFS_SLOT_MIN_US,
					   AIRFAIR_SIFS_SLOT_MAX_US, &v) ||
			    af_set(&c, kw[1] == 'i' ? O_SIFS : O_SLOT, kw, v))
				goto out;
		} else if (!strcmp(kw, "cwmin") || !strcmp(kw, "cwmax")) {
			AF_VALUE();
			if (af_get_uint(kw, *argv, 1, 32767, &v))
				goto out;
			if (!af_is_cw(v)) {
				af_err("%s: %s is not of the form 2^n-1 (1, 3, 7, 15, ..., 1023, ..., 32767)",
				       kw, *argv);
				goto out;
			}
			if (af_set(&c, kw[3] == 'i' ? O_CWMIN : O_CWMAX, kw, v))
				goto out;
		} else if (!strcmp(kw, "aifsn") || !strcmp(kw, "txop")) {
			bool txop = kw[0] == 't';
			__u16 *dst = txop ? c.txop_us : c.aifsn;
			__u64 ac_v[AIRFAIR_NUM_ACS];
			int ac;

			if (af_set(&c, txop ? O_TXOP : O_AIFSN, kw, 0) ||
			    af_get_per_ac(kw, &argc, &argv, txop,
					  txop ? 0 : AIRFAIR_AIFSN_MIN,
					  txop ? AIRFAIR_TXOP_MAX_US :
						 AIRFAIR_AIFSN_MAX, ac_v))
				goto out;
			for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
				dst[ac] = ac_v[ac];
		} else if (!strcmp(kw, "retries")) {
			AF_VALUE();
			if (af_get_uint(kw, *argv, 0, AIRFAIR_MAX_RETRIES, &v) ||
			    af_set(&c, O_RETRIES, kw, v))
				goto out;
		} else if (!strcmp(kw, "basic-rate")) {
			__u16 r;

			AF_VALUE();
			if (af_get_legacy(kw, *argv, &r) ||
			    af_set(&c, O_BASIC_RATE, kw, r))
				goto out;
		} else if (!strcmp(kw, "limit")) {
			AF_VALUE();
			if (af_get_uint(kw, *argv, AIRFAIR_LIMIT_MIN,
					AIRFAIR_LIMIT_MAX, &v) ||
			    af_set(&c, O_LIMIT, kw, v))
				goto out;
		} else if (!strcmp(kw, "memlimit")) {
			unsigned int sz;

			AF_VALUE();
			if (af_negative(*argv) || get_size(&sz, *argv) < 0) {
				af_err("memlimit: \"%s\" is not a valid size (e.g. 32mb, 4096kb)",
				       *argv);
				goto out;
			}
			if (sz < AIRFAIR_MEMLIMIT_MIN || sz > AIRFAIR_MEMLIMIT_MAX) {
				af_err("memlimit: %s is out of range (%u-%u bytes)",
				       *argv, AIRFAIR_MEMLIMIT_MIN,
				       AIRFAIR_MEMLIMIT_MAX);
				goto out;
			}
			if (af_set(&c, O_MEMLIMIT, kw, sz))
				goto out;
		} else if (!strcmp(kw, "model")) {
			int m;

			AF_VALUE();
			m = af_lookup(kw, *argv, af_model_names,
				      __AIRFAIR_MODEL_MAX);
			if (m < 0 || af_set(&c, O_MODEL, kw, m))
				goto out;
		} else if (!strcmp(kw, "upload")) {
			int m;

			AF_VALUE();
			m = af_lookup(kw, *argv, af_upload_names,
				      __AIRFAIR_UPLOAD_MAX);
			if (m < 0 || af_set(&c, O_UPLOAD, kw, m))
				goto out;
		} else if (!strcmp(kw, "unmetered")) {
			if (af_set(&c, O_UTIL, "unmetered", 0))
				goto out;
		} else if (!strcmp(kw, "utilisation") ||
			   !strcmp(kw, "utilization")) {
			AF_VALUE();
			if (!strcmp(*argv, "auto")) {
				v = AIRFAIR_UTIL_AUTO;
				if (argc > 1 && !strcmp(argv[1], "max")) {
					__u64 m;

					argc--, argv++;
					if (argc < 2) {
						af_err("\"utilisation auto max\" needs a value");
						goto out;
					}
					argc--, argv++;
					if (af_get_permille("utilisation auto max", *argv,
							    AIRFAIR_UTIL_AUTO_MAX_LIMIT, &m) ||
					    af_set(&c, O_UTIL_AUTO_MAX,
						   "utilisation auto max", m))
						goto out;
				}
			} else if (af_get_permille("utilisation", *argv,
						   AIRFAIR_UTIL_MAX, &v)) {
				goto out;
			}
			if (af_set(&c, O_UTIL, "utilisation", v))
				goto out;
		} else if (!strcmp(kw, "quantum")) {
			AF_VALUE();
			if (af_get_time_us(kw, *argv, AIRFAIR_QUANTUM_MIN_US,
					   AIRFAIR_QUANTUM_MAX_US, &v) ||
			    af_set(&c, O_QUANTUM, kw, v))
				goto out;
		} else if (!strcmp(kw, "delack")) {
			AF_VALUE();
			if (af_get_uint(kw, *argv, AIRFAIR_DELACK_MIN,
					AIRFAIR_DELACK_MAX, &v) ||
			    af_set(&c, O_DELACK, kw, v))
				goto out;
		} else if (!strcmp(kw, "ampdu")) {
			AF_VALUE();
			v = 0;	/* auto */
			if ((strcmp(*argv, "auto") &&
			     af_get_uint(kw, *argv, 1, AIRFAIR_MAX_AMPDU, &v)) ||
			    af_set(&c, O_AMPDU, kw, v))
				goto out;
		} else if (!strcmp(kw, "ack-filter") ||
			   !strcmp(kw, "ack-filter-aggressive") ||
			   !strcmp(kw, "no-ack-filter")) {
			v = kw[0] == 'n' ? AIRFAIR_ACK_FILTER_OFF :
			    strchr(kw + 4, '-') ? AIRFAIR_ACK_FILTER_AGGRESSIVE :
			    AIRFAIR_ACK_FILTER_CONSERVATIVE;
			if (af_set(&c, O_ACK_FILTER, kw, v))
				goto out;
		} else if (!strcmp(kw, "upload-window") ||
			   !strcmp(kw, "no-upload-window")) {
			if (af_set(&c, O_UPLOAD_WINDOW, kw, kw[0] != 'n'))
				goto out;
		} else if (!strcmp(kw, "ack-prio") ||
			   !strcmp(kw, "no-ack-prio")) {
			if (af_set(&c, O_ACK_PRIO, kw, kw[0] != 'n'))
				goto out;
		} else if (!strcmp(kw, "defer-data") ||
			   !strcmp(kw, "no-defer-data")) {
			if (af_set(&c, O_DEFER_DATA, kw, kw[0] != 'n'))
				goto out;
		} else if (!strcmp(kw, "rtt-buffer") ||
			   !strcmp(kw, "no-rtt-buffer")) {
			if (af_set(&c, O_RTT_BUFFER, kw, kw[0] != 'n'))
				goto out;
		} else if (!strcmp(kw, "ecn") || !strcmp(kw, "noecn")) {
			if (af_set(&c, O_ECN, kw, kw[0] != 'n'))
				goto out;
		} else if (!strcmp(kw, "no-tlas")) {
			if (af_set(&c, O_TLAS, kw, 0))
				goto out;
		} else if (!strcmp(kw, "tlas")) {
			AF_VALUE();
			if (af_get_uint(kw, *argv, 0, AIRFAIR_TLAS_MAX, &v) ||
			    af_set(&c, O_TLAS, kw, v))
				goto out;
		} else if (!strcmp(kw, "target") || !strcmp(kw, "interval")) {
			AF_VALUE();
			if (af_get_time_us(kw, *argv,
					   kw[0] == 't' ? AIRFAIR_TARGET_MIN_US :
							  AIRFAIR_INTERVAL_MIN_US,
					   kw[0] == 't' ? AIRFAIR_TARGET_MAX_US :
							  AIRFAIR_INTERVAL_MAX_US,
					   &v) ||
			    af_set(&c, kw[0] == 't' ? O_TARGET : O_INTERVAL,
				   kw, v))
				goto out;
		} else if (!strcmp(kw, "no-pending-limit")) {
			if (af_set(&c, O_PENDING_LIMIT, kw, 0))
				goto out;
		} else if (!strcmp(kw, "pending-limit")) {
			AF_VALUE();
			v = AIRFAIR_PENDING_LIMIT_AUTO;
			if ((strcmp(*argv, "auto") &&
			     af_get_time_us(kw, *argv, 0,
					    AIRFAIR_PENDING_LIMIT_MAX_US, &v)) ||
			    af_set(&c, O_PENDING_LIMIT, kw, v))
				goto out;
		} else if (!strcmp(kw, "max-stations")) {
			AF_VALUE();
			if (af_get_uint(kw, *argv, AIRFAIR_STATIONS_MIN,
					AIRFAIR_STATIONS_MAX, &v) ||
			    af_set(&c, O_MAX_STATIONS, kw, v))
				goto out;
		} else if (!strcmp(kw, "station-timeout")) {
			AF_VALUE();
			if (af_get_time_us(kw, *argv, 0,
					   AIRFAIR_STA_TIMEOUT_MAX_MS * 1000ULL, &v))
				goto out;
			if (v % 1000) {
				af_err("station-timeout: %s is not a whole number of milliseconds",
				       *argv);
				goto out;
			}
			if (af_set(&c, O_STA_TIMEOUT, kw, v / 1000))
				goto out;
		} else if (!strcmp(kw, "station")) {
			if (af_parse_station(&argc, &argv, &c))
				goto out;
		} else {
			af_err("unknown option \"%s\" (try \"help\")", kw);
			goto out;
		}
	}
#undef AF_VALUE

	/* cross-option checks */
	if (c.seen[O_CWMIN] && c.seen[O_CWMAX] &&
	    c.val[O_CWMIN] > c.val[O_CWMAX]) {
		af_err("cwmin %llu is greater than cwmax %llu",
		       (unsigned long long)c.val[O_CWMIN],
		       (unsigned long long)c.val[O_CWMAX]);
		goto out;
	}
	if (c.seen[O_TARGET] && c.seen[O_INTERVAL] &&
	    c.val[O_TARGET] >= c.val[O_INTERVAL]) {
		af_err("target %lluus must be less than interval %lluus",
		       (unsigned long long)c.val[O_TARGET],
		       (unsigned long long)c.val[O_INTERVAL]);
		goto out;
	}

	tail = addattr_nest(n, TCA_BUF_MAX, TCA_OPTIONS | NLA_F_NESTED);
	if (!tail)
		goto out;
	/* the preset first: the kernel loads its row, then the overrides */
	if (c.seen[O_PHY] &&
	    addattr8(n, TCA_BUF_MAX, TCA_AIRFAIR_PHY, c.val[O_PHY]))
		goto out;

	{
		static const struct { enum af_opt o; int attr; int width; } map[] = {
			{ O_LIMIT,	  TCA_AIRFAIR_LIMIT,	     32 },
			{ O_MEMLIMIT,	  TCA_AIRFAIR_MEMLIMIT,	     32 },
			{ O_SIFS,	  TCA_AIRFAIR_SIFS,	     32 },
			{ O_SLOT,	  TCA_AIRFAIR_SLOT,	     32 },
			{ O_CWMIN,	  TCA_AIRFAIR_CWMIN,	     16 },
			{ O_CWMAX,	  TCA_AIRFAIR_CWMAX,	     16 },
			{ O_RETRIES,	  TCA_AIRFAIR_RETRIES,	      8 },
			{ O_BASIC_RATE,	  TCA_AIRFAIR_BASIC_RATE,    16 },
			{ O_MODEL,	  TCA_AIRFAIR_MODEL,	      8 },
			{ O_UTIL,	  TCA_AIRFAIR_UTILISATION,   16 },
			{ O_QUANTUM,	  TCA_AIRFAIR_QUANTUM,	     32 },
			{ O_DELACK,	  TCA_AIRFAIR_DELACK,	      8 },
			{ O_ACK_FILTER,	  TCA_AIRFAIR_ACK_FILTER,     8 },
			{ O_ACK_PRIO,	  TCA_AIRFAIR_ACK_PRIO,	      8 },
			{ O_TLAS,	  TCA_AIRFAIR_TLAS,	     32 },
			{ O_RTT_BUFFER,	  TCA_AIRFAIR_RTT_BUFFER,     8 },
			{ O_TARGET,	  TCA_AIRFAIR_TARGET,	     32 },
			{ O_INTERVAL,	  TCA_AIRFAIR_INTERVAL,	     32 },
			{ O_ECN,	  TCA_AIRFAIR_ECN,	      8 },
			{ O_MAX_STATIONS, TCA_AIRFAIR_MAX_STATIONS,  32 },
			{ O_STA_TIMEOUT,  TCA_AIRFAIR_STA_TIMEOUT,   32 },
			{ O_AMPDU,	  TCA_AIRFAIR_AMPDU,	      8 },
			{ O_PENDING_LIMIT, TCA_AIRFAIR_PENDING_LIMIT, 32 },
			{ O_UPLOAD,	  TCA_AIRFAIR_UPLOAD,	      8 },
			{ O_UPLOAD_WINDOW, TCA_AIRFAIR_UPLOAD_WINDOW, 8 },
			{ O_UTIL_AUTO_MAX, TCA_AIRFAIR_UTIL_AUTO_MAX, 16 },
			{ O_DEFER_DATA,	  TCA_AIRFAIR_DEFER_DATA,     8 },
		};
		size_t k;

		for (k = 0; k < ARRAY_SIZE(map); k++) {
			int err;

			if (!c.seen[map[k].o])
				continue;
			v = c.val[map[k].o];
			err = map[k].width == 8 ?
				addattr8(n, TCA_BUF_MAX, map[k].attr, v) :
			      map[k].width == 16 ?
				addattr16(n, TCA_BUF_MAX, map[k].attr, v) :
				addattr32(n, TCA_BUF_MAX, map[k].attr, v);
			if (err)
				goto out;
		}
	}
	if ((c.seen[O_AIFSN] &&
	     af_emit_per_ac(n, TCA_AIRFAIR_AIFSN, c.aifsn, 1)) ||
	    (c.seen[O_TXOP] &&
	     af_emit_per_ac(n, TCA_AIRFAIR_TXOP, c.txop_us, 2)))
		goto out;
	for (i = 0; i < c.nsta; i++)
		if (af_emit_station(n, &c.sta[i]))
			goto out;
	addattr_nest_end(n, tail);
	ret = 0;
out:
	free(c.sta);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */

static const char *af_fmt_mac(const struct rtattr *a, char *buf, size_t len)
{
	const __u8 *m = RTA_DATA(a);

	if (RTA_PAYLOAD(a) < AF_ETH_ALEN) {
		snprintf(buf, len, "??:??:??:??:??:??");
		return buf;
	}
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	return buf;
}

/* A time in microseconds, exactly, in the largest unit that divides it. */
static const char *af_fmt_time(__u64 us, char *buf, size_t len)
{
	if (us && us % 1000000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(us / 1000000));
	else if (us && us % 1000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(us / 1000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)us);
	return buf;
}

/* A size in bytes, exactly, for get_size(). */
static const char *af_fmt_size(__u32 b, char *buf, size_t len)
{
	if (b && b % (1024 * 1024) == 0)
		snprintf(buf, len, "%umb", b / (1024 * 1024));
	else if (b && b % 1024 == 0)
		snprintf(buf, len, "%ukb", b / 1024);
	else
		snprintf(buf, len, "%ub", b);
	return buf;
}

/* A legacy rate in 100 kbit/s as get_rate() reads it: "5.5mbit". */
static const char *af_fmt_legacy(__u16 r, char *buf, size_t len)
{
	if (r % 10)
		snprintf(buf, len, "%u.%umbit", r / 10, r % 10);
	else
		snprintf(buf, len, "%umbit", r / 10);
	return buf;
}

static const char *af_gi_name(const struct tc_airfair_rate *r)
{
	if (r->mode == AIRFAIR_MODE_HE) {
		switch (r->gi) {
		case AIRFAIR_GI_HE_0_8: return "0.8";
		case AIRFAIR_GI_HE_1_6: return "1.6";
		case AIRFAIR_GI_HE_3_2: return "3.2";
		default: return "?";
		}
	}
	return r->gi == AIRFAIR_GI_SHORT ? "short" : "long";
}

static unsigned int af_gi_ns(const struct tc_airfair_rate *r)
{
	if (r->mode == AIRFAIR_MODE_HE)
		return r->gi == AIRFAIR_GI_HE_1_6 ? 1600 :
		       r->gi == AIRFAIR_GI_HE_3_2 ? 3200 : 800;
	if (r->mode == AIRFAIR_MODE_LEGACY)
		return 0;
	return r->gi == AIRFAIR_GI_SHORT ? 400 : 800;
}

/* The tc grammar of a station rate: "vht-mcs 9 nss 2 bw 80 sgi". */
static const char *af_fmt_rate(const struct tc_airfair_rate *r, char *buf,
			       size_t len)
{
	char lb[16];
	unsigned int bw = r->bw < __AIRFAIR_BW_MAX ? af_bw_mhz[r->bw] : 0;

	switch (r->mode) {
	case AIRFAIR_MODE_LEGACY:
		snprintf(buf, len, "%s%s%s", af_fmt_legacy(r->legacy, lb, sizeof(lb)),
			 r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE ?
			 " short-preamble" : "",
			 r->flags & AIRFAIR_RATE_F_ERP ? " erp" : "");
		break;
	case AIRFAIR_MODE_HT:
		snprintf(buf, len, "ht-mcs %u bw %u%s", r->mcs, bw,
			 r->gi == AIRFAIR_GI_SHORT ? " sgi" : "");
		break;
	case AIRFAIR_MODE_VHT:
		snprintf(buf, len, "vht-mcs %u nss %u bw %u%s", r->mcs, r->nss,
			 bw, r->gi == AIRFAIR_GI_SHORT ? " sgi" : "");
		break;
	case AIRFAIR_MODE_HE:
		snprintf(buf, len, "he-mcs %u nss %u bw %u gi %s", r->mcs,
			 r->nss, bw, af_gi_name(r));
		break;
	default:
		snprintf(buf, len, "mode-%u", r->mode);
	}
	return buf;
}

/* JSON object "rate": every key always present (see json-keys.md). */
static void af_print_rate_json(const struct tc_airfair_rate *r)
{
	char buf[64];

	open_json_object("rate");
	print_string(PRINT_JSON, "spec", NULL, af_fmt_rate(r, buf, sizeof(buf)));
	print_string(PRINT_JSON, "mode", NULL,
		     r->mode < __AIRFAIR_MODE_MAX ? af_mode_names[r->mode] : "unknown");
	print_uint(PRINT_JSON, "mcs", NULL, r->mcs);
	print_uint(PRINT_JSON, "nss", NULL, r->nss);
	print_uint(PRINT_JSON, "bw_mhz", NULL,
		   r->bw < __AIRFAIR_BW_MAX ? af_bw_mhz[r->bw] : 0);
	print_uint(PRINT_JSON, "gi_ns", NULL, af_gi_ns(r));
	print_bool(PRINT_JSON, "short_preamble", NULL,
		   r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE);
	print_bool(PRINT_JSON, "erp", NULL, r->flags & AIRFAIR_RATE_F_ERP);
	print_uint(PRINT_JSON, "legacy_kbps", NULL,
		   r->mode == AIRFAIR_MODE_LEGACY ? r->legacy * 100u : 0);
	close_json_object();
}

static bool af_attr_ok(const struct rtattr *a, size_t len)
{
	return a && RTA_PAYLOAD(a) >= len;
}

static __u8 af_u8_or_0(const struct rtattr *a)
{
	return af_attr_ok(a, 1) ? rta_getattr_u8(a) : 0;
}

static bool af_get_rate(struct rtattr *nest, struct tc_airfair_rate *r)
{
	struct rtattr *tb[TCA_AIRFAIR_RATE_MAX + 1];

	if (!nest)
		return false;
	parse_rtattr_nested(tb, TCA_AIRFAIR_RATE_MAX, nest);
	if (!af_attr_ok(tb[TCA_AIRFAIR_RATE_MODE], 1))
		return false;
	*r = (struct tc_airfair_rate) {
		.mode = rta_getattr_u8(tb[TCA_AIRFAIR_RATE_MODE]),
		.mcs = af_u8_or_0(tb[TCA_AIRFAIR_RATE_MCS]),
		.nss = af_u8_or_0(tb[TCA_AIRFAIR_RATE_NSS]),
		.bw = af_u8_or_0(tb[TCA_AIRFAIR_RATE_BW]),
		.gi = af_u8_or_0(tb[TCA_AIRFAIR_RATE_GI]),
		.flags = af_u8_or_0(tb[TCA_AIRFAIR_RATE_FLAGS]),
		.legacy = af_attr_ok(tb[TCA_AIRFAIR_RATE_LEGACY], 2) ?
			  rta_getattr_u16(tb[TCA_AIRFAIR_RATE_LEGACY]) : 0,
	};
	return true;
}

static __u32 af_u32(const struct rtattr *a)
{
	return rta_getattr_u32(a);
}

static __u64 af_u64(const struct rtattr *a)
{
	__u64 v;

	memcpy(&v, RTA_DATA(a), sizeof(v));
	return v;
}

/* the hook's running counts behind the settlement, as the class dump has them */
static void af_print_told_counts(struct rtattr *nest)
{
	static const struct { int type; const char *key, *fmt; } f[] = {
		{ TCA_AIRFAIR_TOLD_PPDUS, "ppdus", " ppdus %llu" },
		{ TCA_AIRFAIR_TOLD_WINDOWS, "windows", " windows %llu" },
		{ TCA_AIRFAIR_TOLD_SINGLE, "single", " single %llu" },
		{ TCA_AIRFAIR_TOLD_DATA, "data", " data %llu" },
		{ TCA_AIRFAIR_TOLD_LTFS, "ltfs", " ltfs %llu" },
	};
	struct rtattr *tb[TCA_AIRFAIR_TOLD_MAX + 1];
	size_t i;

	if (!nest)
		return;
	parse_rtattr_nested(tb, TCA_AIRFAIR_TOLD_MAX, nest);
	open_json_object("told");
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (af_attr_ok(tb[f[i].type], 8))
			print_u64(PRINT_ANY, f[i].key, f[i].fmt,
				  af_u64(tb[f[i].type]));
	close_json_object();
}

static double af_loss_pct(__u32 loss)
{
	return loss * 100.0 / 65536.0;
}

/* Station static settings: the body of one TCA_AIRFAIR_STATION nest, or the
 * flat STA_* attributes of a class's TCA_OPTIONS. */
static void af_print_station_cfg(struct rtattr **st, bool with_keyword)
{
	struct tc_airfair_rate rate;
	char buf[64];

	if (with_keyword)
		print_string(PRINT_FP, NULL, "station ", NULL);
	if (af_attr_ok(st[TCA_AIRFAIR_STA_ADDR], AF_ETH_ALEN))
		print_string(PRINT_ANY, "addr", "%s",
			     af_fmt_mac(st[TCA_AIRFAIR_STA_ADDR], buf, sizeof(buf)));
	if (af_attr_ok(st[TCA_AIRFAIR_STA_WEIGHT], 2))
		print_uint(PRINT_ANY, "weight", " weight %u",
			   rta_getattr_u16(st[TCA_AIRFAIR_STA_WEIGHT]));
	if (af_get_rate(st[TCA_AIRFAIR_STA_RATE], &rate)) {
		print_string(PRINT_FP, NULL, " rate %s",
			     af_fmt_rate(&rate, buf, sizeof(buf)));
		af_print_rate_json(&rate);
	}
	if (af_attr_ok(st[TCA_AIRFAIR_STA_LOSS], 4)) {
		__u32 l = af_u32(st[TCA_AIRFAIR_STA_LOSS]);

		char fmt[16];
		double pct = af_loss_pct(l);
		int prec;

		/* The fewest digits that parse back to the same value ("loss 10%"
		 * is stored as 6554/65536 = 10.0006 %). */
		for (prec = 1; prec < 6; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, pct);
			if (lround(strtod(buf, NULL) / 100.0 * 65536.0) == (long)l)
				break;
		}
		snprintf(fmt, sizeof(fmt), " loss %%.%dg%%%%", prec);
		print_float(PRINT_ANY, "loss_pct", fmt, pct);
		print_uint(PRINT_JSON, "loss", NULL, l);
	}
	if (af_attr_ok(st[TCA_AIRFAIR_STA_SOURCE], 1)) {
		__u8 s = rta_getattr_u8(st[TCA_AIRFAIR_STA_SOURCE]);

		print_string(PRINT_ANY, "source", " source %s",
			     s < __AIRFAIR_SRC_MAX ? af_source_names[s] : "unknown");
	}
	if (st[TCA_AIRFAIR_STA_DELETE])
		print_bool(PRINT_ANY, "delete", " delete", true);
}

static void af_print_onoff(struct rtattr *a, const char *key, const char *on,
			   const char *off)
{
	bool v;

	if (!af_attr_ok(a, 1))
		return;
	v = rta_getattr_u8(a);
	print_bool(PRINT_JSON, key, NULL, v);
	print_string(PRINT_FP, NULL, "%s ", v ? on : off);
}

static void af_print_time_opt(struct rtattr *a, const char *key,
			      const char *kw, __u64 scale)
{
	char buf[32], fmt[48];
	__u32 v;

	if (!af_attr_ok(a, 4))
		return;
	v = af_u32(a);
	print_uint(PRINT_JSON, key, NULL, v);
	snprintf(fmt, sizeof(fmt), "%s %%s ", kw);
	print_string(PRINT_FP, NULL, fmt, af_fmt_time(v * scale, buf, sizeof(buf)));
}

static int airfair_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_AIRFAIR_MAX + 1];
	struct rtattr *a;
	char buf[64];
	bool any_sta = false;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_AIRFAIR_MAX, opt);

	if (af_attr_ok(tb[TCA_AIRFAIR_PHY], 1)) {
		__u8 p = rta_getattr_u8(tb[TCA_AIRFAIR_PHY]);

		if (p < __AIRFAIR_PHY_MAX)
			print_string(PRINT_ANY, "phy", "%s ", af_phy_names[p]);
		else
			print_uint(PRINT_ANY, "phy", "phy %u ", p);
	}
	af_print_time_opt(tb[TCA_AIRFAIR_SIFS], "sifs_us", "sifs", 1);
	af_print_time_opt(tb[TCA_AIRFAIR_SLOT], "slot_us", "slot", 1);
	if (af_attr_ok(tb[TCA_AIRFAIR_CWMIN], 2))
		print_uint(PRINT_ANY, "cwmin", "cwmin %u ",
			   rta_getattr_u16(tb[TCA_AIRFAIR_CWMIN]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CWMAX], 2))
		print_uint(PRINT_ANY, "cwmax", "cwmax %u ",
			   rta_getattr_u16(tb[TCA_AIRFAIR_CWMAX]));
	if (tb[TCA_AIRFAIR_AIFSN]) {
		struct rtattr *n[TCA_AIRFAIR_AIFSN_MAX + 1];
		int ac;

		parse_rtattr_nested(n, TCA_AIRFAIR_AIFSN_MAX, tb[TCA_AIRFAIR_AIFSN]);
		print_string(PRINT_FP, NULL, "aifsn", NULL);
		open_json_object("aifsn");
		for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
			if (af_attr_ok(n[TCA_AIRFAIR_AIFSN_VO + ac], 1))
				print_uint(PRINT_ANY, af_ac_names[ac], " %u",
					   rta_getattr_u8(n[TCA_AIRFAIR_AIFSN_VO + ac]));
		close_json_object();
		print_string(PRINT_FP, NULL, " ", NULL);
	}
	if (tb[TCA_AIRFAIR_TXOP]) {
		struct rtattr *n[TCA_AIRFAIR_TXOP_MAX + 1];
		__u16 v[AIRFAIR_NUM_ACS] = { 0 };
		bool any = false;
		int ac;

		parse_rtattr_nested(n, TCA_AIRFAIR_TXOP_MAX, tb[TCA_AIRFAIR_TXOP]);
		for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
			if (af_attr_ok(n[TCA_AIRFAIR_TXOP_VO + ac], 2))
				v[ac] = rta_getattr_u16(n[TCA_AIRFAIR_TXOP_VO + ac]);
			any |= v[ac] != 0;
		}
		/* none (the default) is left out of the text */
		if (any)
			print_string(PRINT_FP, NULL, "txop", NULL);
		open_json_object("txop_us");
		for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++) {
			print_uint(PRINT_JSON, af_ac_names[ac], NULL, v[ac]);
			if (any)
				print_string(PRINT_FP, NULL, " %s",
					     af_fmt_time(v[ac], buf, sizeof(buf)));
		}
		close_json_object();
		if (any)
			print_string(PRINT_FP, NULL, " ", NULL);
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_RETRIES], 1))
		print_uint(PRINT_ANY, "retries", "retries %u ",
			   rta_getattr_u8(tb[TCA_AIRFAIR_RETRIES]));
	if (af_attr_ok(tb[TCA_AIRFAIR_BASIC_RATE], 2)) {
		__u16 r = rta_getattr_u16(tb[TCA_AIRFAIR_BASIC_RATE]);

		print_uint(PRINT_JSON, "basic_rate_kbps", NULL, r * 100u);
		print_string(PRINT_FP, NULL, "basic-rate %s ",
			     af_fmt_legacy(r, buf, sizeof(buf)));
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_LIMIT], 4))
		print_uint(PRINT_ANY, "limit", "limit %u ",
			   af_u32(tb[TCA_AIRFAIR_LIMIT]));
	if (af_attr_ok(tb[TCA_AIRFAIR_MEMLIMIT], 4)) {
		__u32 m = af_u32(tb[TCA_AIRFAIR_MEMLIMIT]);

		print_uint(PRINT_JSON, "memlimit", NULL, m);
		print_string(PRINT_FP, NULL, "memlimit %s ",
			     af_fmt_size(m, buf, sizeof(buf)));
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_MODEL], 1)) {
		__u8 m = rta_getattr_u8(tb[TCA_AIRFAIR_MODEL]);

		print_string(PRINT_ANY, "model", "model %s ",
			     m < __AIRFAIR_MODEL_MAX ? af_model_names[m] : "unknown");
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_UPLOAD], 1)) {
		__u8 m = rta_getattr_u8(tb[TCA_AIRFAIR_UPLOAD]);

		print_string(PRINT_ANY, "upload", "upload %s ",
			     m < __AIRFAIR_UPLOAD_MAX ? af_upload_names[m] : "unknown");
	}
	af_print_onoff(tb[TCA_AIRFAIR_UPLOAD_WINDOW], "upload_window",
		       "upload-window", "no-upload-window");
	if (af_attr_ok(tb[TCA_AIRFAIR_UTILISATION], 2)) {
		__u16 u = rta_getattr_u16(tb[TCA_AIRFAIR_UTILISATION]);

		if (u == AIRFAIR_UTIL_AUTO) {
			print_string(PRINT_JSON, "utilisation", NULL, "auto");
			print_null(PRINT_JSON, "utilisation_permille", NULL, NULL);
		} else {
			print_string(PRINT_JSON, "utilisation", NULL,
				     u ? "fixed" : "off");
			print_uint(PRINT_JSON, "utilisation_permille", NULL, u);
		}
		if (u == AIRFAIR_UTIL_AUTO)
			snprintf(buf, sizeof(buf), "auto");
		else if (!u)
			snprintf(buf, sizeof(buf), "unmetered");
		else
			af_permille_str(buf, sizeof(buf), u);
		print_string(PRINT_FP, NULL, u ? "utilisation %s " : "%s ", buf);
		/* the ceiling, in the text only where it binds */
		if (u == AIRFAIR_UTIL_AUTO &&
		    af_attr_ok(tb[TCA_AIRFAIR_UTIL_AUTO_MAX], 2)) {
			af_permille_str(buf, sizeof(buf),
					rta_getattr_u16(tb[TCA_AIRFAIR_UTIL_AUTO_MAX]));
			print_string(PRINT_FP, NULL, "max %s ", buf);
		}
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_UTIL_AUTO_MAX], 2))
		print_uint(PRINT_JSON, "utilisation_auto_max_permille", NULL,
			   rta_getattr_u16(tb[TCA_AIRFAIR_UTIL_AUTO_MAX]));
	af_print_time_opt(tb[TCA_AIRFAIR_QUANTUM], "quantum_us", "quantum", 1);
	if (af_attr_ok(tb[TCA_AIRFAIR_DELACK], 1))
		print_uint(PRINT_ANY, "delack", "delack %u ",
			   rta_getattr_u8(tb[TCA_AIRFAIR_DELACK]));
	if (af_attr_ok(tb[TCA_AIRFAIR_AMPDU], 1)) {
		__u8 n = rta_getattr_u8(tb[TCA_AIRFAIR_AMPDU]);

		if (n)
			print_uint(PRINT_ANY, "ampdu", "ampdu %u ", n);
		else
			print_string(PRINT_ANY, "ampdu", "ampdu %s ", "auto");
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_ACK_FILTER], 1)) {
		__u8 m = rta_getattr_u8(tb[TCA_AIRFAIR_ACK_FILTER]);

		print_bool(PRINT_JSON, "ack_filter", NULL, m);
		print_bool(PRINT_JSON, "ack_filter_aggressive", NULL,
			   m == AIRFAIR_ACK_FILTER_AGGRESSIVE);
		print_string(PRINT_FP, NULL, "%s ",
			     !m ? "no-ack-filter" :
			     m == AIRFAIR_ACK_FILTER_AGGRESSIVE ?
			     "ack-filter-aggressive" : "ack-filter");
	}
	af_print_onoff(tb[TCA_AIRFAIR_ACK_PRIO], "ack_prio", "ack-prio",
		       "no-ack-prio");
	af_print_onoff(tb[TCA_AIRFAIR_DEFER_DATA], "defer_data", "defer-data",
		       "no-defer-data");
	if (af_attr_ok(tb[TCA_AIRFAIR_TLAS], 4)) {
		__u32 t = af_u32(tb[TCA_AIRFAIR_TLAS]);

		print_uint(PRINT_JSON, "tlas", NULL, t);
		if (t)
			print_uint(PRINT_FP, NULL, "tlas %u ", t);
		else
			print_string(PRINT_FP, NULL, "%s ", "no-tlas");
	}
	af_print_onoff(tb[TCA_AIRFAIR_RTT_BUFFER], "rtt_buffer", "rtt-buffer",
		       "no-rtt-buffer");
	af_print_time_opt(tb[TCA_AIRFAIR_TARGET], "target_us", "target", 1);
	af_print_time_opt(tb[TCA_AIRFAIR_INTERVAL], "interval_us", "interval", 1);
	af_print_onoff(tb[TCA_AIRFAIR_ECN], "ecn", "ecn", "noecn");
	if (af_attr_ok(tb[TCA_AIRFAIR_PENDING_LIMIT], 4)) {
		__u32 v = af_u32(tb[TCA_AIRFAIR_PENDING_LIMIT]);

		if (v == AIRFAIR_PENDING_LIMIT_AUTO) {
			print_string(PRINT_JSON, "pending_limit", NULL, "auto");
			print_null(PRINT_JSON, "pending_limit_us", NULL, NULL);
			print_string(PRINT_FP, NULL, "%s ", "pending-limit auto");
		} else if (v) {
			print_string(PRINT_JSON, "pending_limit", NULL, "fixed");
			af_print_time_opt(tb[TCA_AIRFAIR_PENDING_LIMIT],
					  "pending_limit_us", "pending-limit", 1);
		} else {
			print_string(PRINT_JSON, "pending_limit", NULL, "off");
			print_uint(PRINT_JSON, "pending_limit_us", NULL, 0);
			print_string(PRINT_FP, NULL, "%s ", "no-pending-limit");
		}
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_MAX_STATIONS], 4))
		print_uint(PRINT_ANY, "max_stations", "max-stations %u ",
			   af_u32(tb[TCA_AIRFAIR_MAX_STATIONS]));
	af_print_time_opt(tb[TCA_AIRFAIR_STA_TIMEOUT], "station_timeout_ms",
			  "station-timeout", 1000);

	/* stations: not dumped by the module today, but print them if sent */
	rtattr_for_each_nested(a, opt) {
		struct rtattr *st[TCA_AIRFAIR_STA_MAX + 1];

		if ((a->rta_type & NLA_TYPE_MASK) != TCA_AIRFAIR_STATION)
			continue;
		if (!any_sta) {
			open_json_array(PRINT_JSON, "stations");
			any_sta = true;
		}
		parse_rtattr_nested(st, TCA_AIRFAIR_STA_MAX, a);
		open_json_object(NULL);
		af_print_station_cfg(st, true);
		close_json_object();
		print_string(PRINT_FP, NULL, " ", NULL);
	}
	if (any_sta)
		close_json_array(PRINT_JSON, NULL);
	return 0;
}

/*
 * iproute2 6.1's "tc class show" has no JSON writer (tc_class.c prints with
 * fprintf), so with "tc -j" a class's options and statistics are printed by
 * the plugin as self-contained JSON objects, one per line, between tc's own
 * text lines: "tc -j -s class show dev wlan0 | grep '^{' | jq -s" collects
 * them. A tc that has a JSON context for classes gets them in place.
 */
static bool af_json_begin(void)
{
	if (!json || is_json_context())
		return false;
	fputc('\n', stdout);
	new_json_obj_plain(json);
	open_json_object(NULL);
	return true;
}

static void af_json_end(bool standalone)
{
	if (!standalone)
		return;
	close_json_object();
	delete_json_obj_plain();
}

/* Class options: the station's static settings (flat TCA_AIRFAIR_STA_*),
 * printed as the "station" clause that would set them. */
static int airfair_print_copt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *st[TCA_AIRFAIR_STA_MAX + 1];
	bool sa;

	if (!opt)
		return 0;
	parse_rtattr_nested(st, TCA_AIRFAIR_STA_MAX, opt);

	if (!st[TCA_AIRFAIR_STA_ADDR])
		return 0;
	sa = af_json_begin();
	open_json_object("station_options");
	af_print_station_cfg(st, true);
	close_json_object();
	af_json_end(sa);
	print_string(PRINT_FP, NULL, " ", NULL);
	return 0;
}

static int airfair_parse_copt(struct qdisc_util *qu, int argc, char **argv,
			      struct nlmsghdr *n, const char *dev)
{
	af_err("classes are the stations; configure them on the qdisc: tc qdisc change dev DEV root airfair station MAC ...");
	return -1;
}

/* ------------------------------------------------------------------ */
/* Statistics                                                          */

struct af_stat {
	int attr;
	int width;		/* 32 or 64 */
	const char *key;	/* JSON key */
	const char *label;	/* text label */
};

static const struct af_stat af_gstats[] = {
	{ TCA_AIRFAIR_STATS_AIRTIME,	   64, "airtime_us",	 "airtime(us)" },
	{ TCA_AIRFAIR_STATS_STATIONS,	   32, "stations",	 "stations" },
	{ TCA_AIRFAIR_STATS_FLOWS,	   32, "flows",		 "flows" },
	{ TCA_AIRFAIR_STATS_NEW_FLOWS,	   32, "new_flows",	 "new_flows" },
	{ TCA_AIRFAIR_STATS_MEMORY_USED,   32, "memory_used",	 "memory_used" },
	{ TCA_AIRFAIR_STATS_DROP_LIMIT,	   32, "drop_limit",	 "drop_limit" },
	{ TCA_AIRFAIR_STATS_DROP_MEMLIMIT, 32, "drop_memlimit",	 "drop_memlimit" },
	{ TCA_AIRFAIR_STATS_DROP_AQM,	   32, "drop_aqm",	 "drop_aqm" },
	{ TCA_AIRFAIR_STATS_DROP_RTT,	   32, "drop_rtt",	 "drop_rtt" },
	{ TCA_AIRFAIR_STATS_DROP_ACKFILTER, 32, "drop_ackfilter", "drop_ackfilter" },
	{ TCA_AIRFAIR_STATS_ECN_MARK,	   32, "ecn_mark",	 "ecn_mark" },
	{ TCA_AIRFAIR_STATS_METER_STALLS,  32, "meter_stalls",	 "meter_stalls" },
	{ TCA_AIRFAIR_STATS_PENDING_STALLS, 32, "pending_stalls", "pending_stalls" },
	{ TCA_AIRFAIR_STATS_PENDING_LIMIT, 32, "pending_limit_us", "pending_limit(us)" },
	{ TCA_AIRFAIR_STATS_PENDING_UNDERRUNS, 32, "pending_underruns",
	  "pending_underruns" },
	{ TCA_AIRFAIR_STATS_PENDING_STALE, 32, "pending_stale",	 "pending_stale" },
	{ TCA_AIRFAIR_STATS_UTILISATION,   32, "utilisation_q16", "utilisation(/65536)" },
	{ TCA_AIRFAIR_STATS_CAP_STALLS,	   32, "cap_stalls",	 "cap_stalls" },
	{ TCA_AIRFAIR_STATS_QUEUE_BELOW,   32, "queue_below_us", "queue_below(us)" },
	{ TCA_AIRFAIR_STATS_BELOW_CUTS,	   32, "below_cuts",	 "below_cuts" },
	{ TCA_AIRFAIR_STATS_WINDOW_CLAMPS, 32, "window_clamps",	 "window_clamps" },
	{ TCA_AIRFAIR_STATS_STA_OVERFLOW,  32, "sta_overflow",	 "sta_overflow" },
	{ TCA_AIRFAIR_STATS_RTT_SAMPLES,   32, "rtt_samples",	 "rtt_samples" },
	{ TCA_AIRFAIR_STATS_RTT_UNTRACKED, 32, "rtt_untracked",	 "rtt_untracked" },
};

static void af_print_stat(struct rtattr **tb, const struct af_stat *s)
{
	struct rtattr *a = tb[s->attr];
	char fmt[48];

	if (!af_attr_ok(a, s->width / 8))
		return;
	snprintf(fmt, sizeof(fmt), " %s %%llu", s->label);
	print_u64(PRINT_ANY, s->key, fmt,
		  s->width == 64 ? af_u64(a) : af_u32(a));
}

static void af_print_gstats(struct rtattr **tb)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(af_gstats); i++) {
		af_print_stat(tb, &af_gstats[i]);
		if (af_gstats[i].attr == TCA_AIRFAIR_STATS_MEMORY_USED)
			print_nl();
	}
}

/*
 * A u32 fixed-point statistic: the raw value in JSON under @raw_key, the
 * value / @scale under @key in both outputs.
 */
static void af_print_fixed(const struct rtattr *a, const char *raw_key,
			   const char *key, const char *fmt, unsigned int scale)
{
	__u32 v;

	if (!af_attr_ok(a, 4))
		return;
	v = af_u32(a);
	print_uint(PRINT_JSON, raw_key, NULL, v);
	print_float(PRINT_ANY, key, fmt, (double)v / scale);
}

static void af_print_cstats(struct rtattr **tb)
{
	struct tc_airfair_rate rate, up;
	char buf[64];

	/* line 1: identity, rate, loss, weight */
	print_string(PRINT_FP, NULL, "%s", " station");
	print_string(PRINT_ANY, "addr", " %s",
		     af_fmt_mac(tb[TCA_AIRFAIR_CSTATS_ADDR], buf, sizeof(buf)));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_WEIGHT], 2))
		print_uint(PRINT_ANY, "weight", " weight %u",
			   rta_getattr_u16(tb[TCA_AIRFAIR_CSTATS_WEIGHT]));
	if (af_get_rate(tb[TCA_AIRFAIR_CSTATS_RATE], &rate)) {
		print_string(PRINT_FP, NULL, " rate %s",
			     af_fmt_rate(&rate, buf, sizeof(buf)));
		af_print_rate_json(&rate);
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_RATE_KBPS], 4)) {
		__u32 k = af_u32(tb[TCA_AIRFAIR_CSTATS_RATE_KBPS]);

		print_uint(PRINT_JSON, "rate_kbps", NULL, k);
		if (k >= 1000)
			snprintf(buf, sizeof(buf), "%.1fMbit", k / 1000.0);
		else
			snprintf(buf, sizeof(buf), "%uKbit", k);
		print_string(PRINT_FP, NULL, " (%s)", buf);
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_SOURCE], 1)) {
		__u8 s = rta_getattr_u8(tb[TCA_AIRFAIR_CSTATS_SOURCE]);

		print_string(PRINT_ANY, "source", " source %s",
			     s < __AIRFAIR_SRC_MAX ? af_source_names[s] : "unknown");
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_SOURCE_AGE], 4))
		print_uint(PRINT_ANY, "source_age_ms", " age %ums",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_SOURCE_AGE]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_LOSS], 4)) {
		__u32 l = af_u32(tb[TCA_AIRFAIR_CSTATS_LOSS]);

		print_uint(PRINT_JSON, "loss", NULL, l);
		print_float(PRINT_ANY, "loss_pct", " loss %.2f%%", af_loss_pct(l));
	}
	print_nl();

	/* line 2: cost model and airtime */
	print_string(PRINT_FP, NULL, "%s", " ");
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_COST_A], 4))
		print_uint(PRINT_ANY, "cost_a_ns", " cost a %uns",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_COST_A]));
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_COST_B], "cost_b_ns256",
		       "cost_b_ns_per_byte", " b %.3fns/B", 256);
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_AIRTIME], 8))
		print_u64(PRINT_ANY, "airtime_us", " airtime %lluus",
			  af_u64(tb[TCA_AIRFAIR_CSTATS_AIRTIME]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_SETTLED], 8))
		print_s64(PRINT_ANY, "settled_us", " settled %lldus",
			  (__s64)af_u64(tb[TCA_AIRFAIR_CSTATS_SETTLED]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_TOLD_AIR], 8) &&
	    af_attr_ok(tb[TCA_AIRFAIR_CSTATS_TOLD_WAIT], 8)) {
		print_u64(PRINT_ANY, "told_air_us", " (told air %lluus",
			  af_u64(tb[TCA_AIRFAIR_CSTATS_TOLD_AIR]));
		print_u64(PRINT_ANY, "told_wait_us", " wait %lluus",
			  af_u64(tb[TCA_AIRFAIR_CSTATS_TOLD_WAIT]));
		af_print_told_counts(tb[TCA_AIRFAIR_CSTATS_TOLD_COUNTS]);
		print_string(PRINT_FP, NULL, "%s", ")");
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_DEFICIT], 4))
		print_int(PRINT_ANY, "deficit_ns", " deficit %dns",
			  (__s32)af_u32(tb[TCA_AIRFAIR_CSTATS_DEFICIT]));
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_DELACK], "delack_x256", "delack",
		       " delack %.2f", 256);
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_DELACK_DOWN], "delack_down_x256",
		       "delack_down", " delack_down %.2f", 256);
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_AMPDU_USED_X16], "ampdu_used_x16",
		       "ampdu_used", " ampdu %g", AIRFAIR_AMPDU_ONE);
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_AMPDU], "ampdu_x16",
		       "ampdu_measured", " (measured %.1f)",
		       AIRFAIR_AMPDU_ONE);
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_ACKED], "acked_x16", "acked",
		       " acked %.2f", AIRFAIR_AMPDU_ONE);
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_PPDU_LOSS], 4)) {
		__u32 l = af_u32(tb[TCA_AIRFAIR_CSTATS_PPDU_LOSS]);

		print_uint(PRINT_JSON, "ppdu_loss", NULL, l);
		print_float(PRINT_ANY, "ppdu_loss_pct", " ppdu_loss %.1f%%",
			    af_loss_pct(l));
	}
	af_print_fixed(tb[TCA_AIRFAIR_CSTATS_CW_SCALE], "cw_scale_x16",
		       "cw_scale", " cw_scale %.2f", AIRFAIR_AMPDU_ONE);
	if (af_get_rate(tb[TCA_AIRFAIR_CSTATS_UP_RATE], &up)) {
		print_string(PRINT_FP, NULL, " up %s",
			     af_fmt_rate(&up, buf, sizeof(buf)));
		open_json_object("up");
		print_string(PRINT_JSON, "spec", NULL,
			     af_fmt_rate(&up, buf, sizeof(buf)));
		if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_UP_RATE_KBPS], 4))
			print_uint(PRINT_JSON, "rate_kbps", NULL,
				   af_u32(tb[TCA_AIRFAIR_CSTATS_UP_RATE_KBPS]));
		if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_UP_LOSS], 4)) {
			__u32 l = af_u32(tb[TCA_AIRFAIR_CSTATS_UP_LOSS]);

			print_uint(PRINT_JSON, "loss", NULL, l);
			print_float(PRINT_ANY, "loss_pct", " retry %.2f%%",
				    af_loss_pct(l));
		}
		af_print_fixed(tb[TCA_AIRFAIR_CSTATS_UP_AMPDU_USED_X16],
			       "ampdu_used_x16", "ampdu_used", " ampdu %g",
			       AIRFAIR_AMPDU_ONE);
		af_print_fixed(tb[TCA_AIRFAIR_CSTATS_UP_AMPDU], "ampdu_x16",
			       "ampdu_measured", " (measured %.1f)",
			       AIRFAIR_AMPDU_ONE);
		close_json_object();
	}
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_EXPECTED_TPUT], 4))
		print_uint(PRINT_ANY, "expected_kbps", " expected %ukbit",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_EXPECTED_TPUT]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_PENDING_AIRTIME], 4))
		print_uint(PRINT_ANY, "pending_airtime_us", " pending %uus",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_PENDING_AIRTIME]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_PHY_PENDING_AIRTIME], 4))
		print_uint(PRINT_ANY, "phy_pending_airtime_us", " phy %uus",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_PHY_PENDING_AIRTIME]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_RTT_US], 4)) {
		__u32 r = af_u32(tb[TCA_AIRFAIR_CSTATS_RTT_US]);

		print_uint(PRINT_JSON, "rtt_us", NULL, r);
		if (r)
			print_float(PRINT_FP, NULL, " rtt %.1fms", r / 1000.0);
		else
			print_string(PRINT_FP, NULL, "%s", " rtt -");
	}
	print_nl();

	/* line 3: queue, flows, counters */
	print_string(PRINT_FP, NULL, "%s", " ");
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_BACKLOG_BYTES], 4))
		print_uint(PRINT_ANY, "backlog_bytes", " backlog %ub",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_BACKLOG_BYTES]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_BACKLOG_PKTS], 4))
		print_uint(PRINT_ANY, "backlog_pkts", " %up",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_BACKLOG_PKTS]));
	open_json_object("flows");
	print_string(PRINT_FP, NULL, "%s", " flows");
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_FLOWS_TCP_DOWN], 4))
		print_uint(PRINT_ANY, "tcp_down", " tcp_down %u",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_FLOWS_TCP_DOWN]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK], 4))
		print_uint(PRINT_ANY, "tcp_bulk", " (bulk %u)",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP], 4))
		print_uint(PRINT_ANY, "tcp_up", " tcp_up %u",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_FLOWS_UDP], 4))
		print_uint(PRINT_ANY, "udp", " udp %u",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_FLOWS_UDP]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_FLOWS_OTHER], 4))
		print_uint(PRINT_ANY, "other", " other %u",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_FLOWS_OTHER]));
	close_json_object();
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_DROPS], 4))
		print_uint(PRINT_ANY, "drops", " drops %u",
			   af_u32(tb[TCA_AIRFAIR_CSTATS_DROPS]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_PACKETS], 8))
		print_u64(PRINT_ANY, "packets", " sent %llup",
			  af_u64(tb[TCA_AIRFAIR_CSTATS_PACKETS]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_BYTES], 8))
		print_u64(PRINT_ANY, "bytes", " %llub",
			  af_u64(tb[TCA_AIRFAIR_CSTATS_BYTES]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_UPLOAD_FRAMES], 8))
		print_u64(PRINT_ANY, "upload_frames", " upload %llu frames",
			  af_u64(tb[TCA_AIRFAIR_CSTATS_UPLOAD_FRAMES]));
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_BACKLOGGED], 8)) {
		__u64 b = af_u64(tb[TCA_AIRFAIR_CSTATS_BACKLOGGED]);

		print_u64(PRINT_JSON, "backlogged_us", NULL, b);
		print_float(PRINT_FP, NULL, " backlogged %.1fs", b / 1e6);
	}
}

static int airfair_print_xstats(struct qdisc_util *qu, FILE *f,
				struct rtattr *xstats)
{
	/* Both attribute sets fit this table: it is sized for the larger. */
#define AF_XMAX (TCA_AIRFAIR_CSTATS_MAX > TCA_AIRFAIR_STATS_MAX ? \
		 TCA_AIRFAIR_CSTATS_MAX : TCA_AIRFAIR_STATS_MAX)
	struct rtattr *tb[AF_XMAX + 1];

	if (!xstats)
		return 0;
	parse_rtattr_nested(tb, AF_XMAX, xstats);
	/* A class (station) dump is told apart by its address attribute;
	 * TCA_AIRFAIR_STATS_* has no attribute of that number and size. */
	if (af_attr_ok(tb[TCA_AIRFAIR_CSTATS_ADDR], AF_ETH_ALEN) &&
	    RTA_PAYLOAD(tb[TCA_AIRFAIR_CSTATS_ADDR]) == AF_ETH_ALEN) {
		bool sa = af_json_begin();

		open_json_object("station");
		af_print_cstats(tb);
		close_json_object();
		af_json_end(sa);
	} else {
		af_print_gstats(tb);
	}
#undef AF_XMAX
	return 0;
}

struct qdisc_util airfair_qdisc_util = {
	.id		= "airfair",
	.parse_qopt	= airfair_parse_opt,
	.print_qopt	= airfair_print_opt,
	.print_xstats	= airfair_print_xstats,
	.parse_copt	= airfair_parse_copt,
	.print_copt	= airfair_print_copt,
};

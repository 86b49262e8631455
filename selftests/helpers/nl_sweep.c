// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink sweep of the airfair qdisc's options: boundary values, wrong types and
 * lengths, unknown and duplicated attributes, garbage inside the station nests, a
 * full station table and random attribute soup, all sent as RTM_NEWQDISC "change"
 * requests to the airfair qdisc at the root of DEV. Every request that must fail
 * has to fail with an extack message and leave `tc -s -d -j qdisc/class show`
 * byte-identical. TAP on stdout; exit 0 if every check passed.
 *
 * Usage: nl_sweep DEV MAX_STATIONS [RANDOM_ROUNDS]
 * DEV must carry `airfair` at the root (handle 1:), created with max-stations
 * MAX_STATIONS and no stations, and be down, so that no traffic moves the counters.
 * $TC: the tc binary (default /usr/sbin/tc).
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include "../../include/uapi/linux/pkt_sched_airfair.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct nl_sock *sk;
static const char *dev;
static const char *tc;		/* $TC: an absolute path (busybox sh prefers its own applets) */
static int ifindex;
static int tests, failures;

struct reply {
	int done;
	int err;		/* 0 or -errno */
	char msg[256];		/* extack message */
	int bad_attr;		/* extack named an attribute */
};

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!ok)
		failures++;
	printf("%sok %d - ", ok ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *hdr = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	struct reply *r = arg;
	int len;

	(void)who;
	r->done = 1;
	r->err = e->error;
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	/* NETLINK_CAP_ACK: the TLVs follow the echoed header, not the whole request */
	len = (int)hdr->nlmsg_len - NLMSG_HDRLEN - (int)sizeof(*e);
	if (len > 0 && !nla_parse(tb, NLMSGERR_ATTR_MAX,
				  (struct nlattr *)((char *)e + sizeof(*e)), len, NULL)) {
		if (tb[NLMSGERR_ATTR_MSG])
			snprintf(r->msg, sizeof(r->msg), "%s",
				 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
		r->bad_attr = !!tb[NLMSGERR_ATTR_OFFS];
	}
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct reply *r = arg;

	(void)msg;
	r->done = 1;
	r->err = 0;
	return NL_STOP;
}

/* A change request for the root airfair qdisc; the caller fills TCA_OPTIONS. */
static struct nl_msg *request(void)
{
	struct tcmsg tcm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_handle = 0x10000,
		.tcm_parent = TC_H_ROOT,
	};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, NLM_F_REQUEST | NLM_F_ACK);

	if (!m || nlmsg_append(m, &tcm, sizeof(tcm), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(m, TCA_KIND, "airfair") < 0) {
		fprintf(stderr, "nl_sweep: cannot build a request\n");
		exit(2);
	}
	return m;
}

static struct reply send_request(struct nl_msg *m)
{
	struct reply r = { .err = 1 };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	if (!cb || nl_send_auto(sk, m) < 0) {
		fprintf(stderr, "nl_sweep: send failed\n");
		exit(2);
	}
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
	while (!r.done)
		if (nl_recvmsgs(sk, cb) < 0 && !r.done) {
			r.err = -EIO;
			break;
		}
	nl_cb_put(cb);
	nlmsg_free(m);
	return r;
}

/*
 * A station's source age is the time since its rate source last changed: it
 * grows on an idle qdisc, so its digits are blanked before comparing.
 */
static void mask_clock(char *buf, const char *key)
{
	size_t klen = strlen(key);
	char *at = buf, *end;

	while ((at = strstr(at, key))) {
		at += klen;
		for (end = at; *end >= '0' && *end <= '9'; end++)
			;
		memmove(at, end, strlen(end) + 1);
	}
}

/* What tc shows of the qdisc and its classes: stats, options, stations. */
static char *snapshot(void)
{
	char cmd[256], *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	FILE *p;
	int c;

	/* one tc for both shows: a tc process is most of a snapshot's cost */
	snprintf(cmd, sizeof(cmd),
		 "printf 'qdisc show dev %s\\nclass show dev %s\\n' | %s -s -d -j -batch -",
		 dev, dev, tc);
	p = popen(cmd, "r");
	if (!mem || !p) {
		fprintf(stderr, "nl_sweep: cannot run tc\n");
		exit(2);
	}
	while ((c = fgetc(p)) != EOF)
		fputc(c, mem);
	pclose(p);
	fclose(mem);
	mask_clock(buf, "\"source_age_ms\":");
	mask_clock(buf, " age ");
	return buf;
}

static char *baseline;

/* Show where @now first differs from the baseline. */
static void diag_change(const char *now)
{
	size_t i = 0, from;

	while (now[i] && now[i] == baseline[i])
		i++;
	from = i > 60 ? i - 60 : 0;
	printf("# was: ...%.120s\n# now: ...%.120s\n", baseline + from, now + from);
}

/* Send @m; it must be rejected with an extack message and change nothing. */
static void expect_reject(struct nl_msg *m, const char *what)
{
	struct reply r = send_request(m);
	char *now = snapshot();
	int same = !strcmp(now, baseline);

	if (!same)
		diag_change(now);

	tap(r.err < 0 && r.msg[0] && same, "%s: rejected (%s) \"%s\"%s%s", what,
	    r.err < 0 ? strerror(-r.err) : "accepted", r.msg,
	    r.bad_attr ? " [attribute named]" : "", same ? "" : ", BUT tc show changed");
	free(now);
}

/* Send @m; it must be accepted. The new state becomes the baseline. */
static void expect_accept(struct nl_msg *m, const char *what)
{
	struct reply r = send_request(m);

	tap(r.err == 0, "%s: accepted%s%s", what, r.err ? ": " : "",
	    r.err ? (r.msg[0] ? r.msg : strerror(-r.err)) : "");
	free(baseline);
	baseline = snapshot();
}

static struct nlattr *opts_start(struct nl_msg *m)
{
	return nla_nest_start(m, TCA_OPTIONS);
}

/* One scalar attribute of @len bytes (little-endian value, zero-padded) */
static void put_scalar(struct nl_msg *m, int type, int len, unsigned long long v)
{
	unsigned char b[16] = {};
	int i;

	for (i = 0; i < len && i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	nla_put(m, type, len, b);
}

struct scalar {
	int type;
	const char *name;
	int size;			/* 1, 2 or 4 */
	unsigned long long min, max;	/* accepted range, from the uapi header */
};

#define S(t, sz, lo, hi) { TCA_AIRFAIR_##t, #t, sz, lo, hi }
static const struct scalar scalars[] = {
	S(LIMIT, 4, AIRFAIR_LIMIT_MIN, AIRFAIR_LIMIT_MAX),
	S(MEMLIMIT, 4, AIRFAIR_MEMLIMIT_MIN, AIRFAIR_MEMLIMIT_MAX),
	S(PHY, 1, 0, AIRFAIR_PHY_MAX),
	S(SIFS, 4, AIRFAIR_SIFS_SLOT_MIN_US, AIRFAIR_SIFS_SLOT_MAX_US),
	S(SLOT, 4, AIRFAIR_SIFS_SLOT_MIN_US, AIRFAIR_SIFS_SLOT_MAX_US),
	S(RETRIES, 1, 0, AIRFAIR_MAX_RETRIES),
	S(MODEL, 1, 0, __AIRFAIR_MODEL_MAX - 1),
	S(UTILISATION, 2, 0, AIRFAIR_UTIL_MAX),
	S(QUANTUM, 4, AIRFAIR_QUANTUM_MIN_US, AIRFAIR_QUANTUM_MAX_US),
	S(DELACK, 1, AIRFAIR_DELACK_MIN, AIRFAIR_DELACK_MAX),
	S(ACK_FILTER, 1, 0, __AIRFAIR_ACK_FILTER_MAX - 1),
	S(ACK_PRIO, 1, 0, 1),
	S(TLAS, 4, 0, AIRFAIR_TLAS_MAX),
	S(RTT_BUFFER, 1, 0, 1),
	S(TARGET, 4, AIRFAIR_TARGET_MIN_US, AIRFAIR_TARGET_MAX_US),
	S(INTERVAL, 4, AIRFAIR_INTERVAL_MIN_US, AIRFAIR_INTERVAL_MAX_US),
	S(ECN, 1, 0, 1),
	S(MAX_STATIONS, 4, AIRFAIR_STATIONS_MIN, AIRFAIR_STATIONS_MAX),
	S(STA_TIMEOUT, 4, 0, AIRFAIR_STA_TIMEOUT_MAX_MS),
	S(AMPDU, 1, 0, AIRFAIR_MAX_AMPDU),	/* 0: auto */
	S(PENDING_LIMIT, 4, 0, AIRFAIR_PENDING_LIMIT_MAX_US),
	S(UPLOAD, 1, 0, __AIRFAIR_UPLOAD_MAX - 1),
	S(UPLOAD_WINDOW, 1, 0, 1),
	S(UTIL_AUTO_MAX, 2, AIRFAIR_UTIL_MIN, AIRFAIR_UTIL_AUTO_MAX_LIMIT),
	S(DEFER_DATA, 1, 0, 1),
	S(CWMIN, 2, 0, 0xffff),
	S(CWMAX, 2, 0, 0xffff),
	S(BASIC_RATE, 2, 0, 0xffff),
};

static void sweep_scalars(void)
{
	char what[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scalars); i++) {
		const struct scalar *s = &scalars[i];
		unsigned long long top = s->size == 4 ? 0xffffffffULL :
					 s->size == 2 ? 0xffffULL : 0xffULL;
		int lens[] = { 0, s->size - 1, s->size + 1, s->size + 4 };
		struct nl_msg *m;
		struct nlattr *o;
		size_t l;

		if (s->min > 0) {
			m = request();
			o = opts_start(m);
			put_scalar(m, s->type, s->size, s->min - 1);
			nla_nest_end(m, o);
			snprintf(what, sizeof(what), "%s = %llu (below %llu)", s->name,
				 s->min - 1, s->min);
			expect_reject(m, what);
		}
		if (s->max < top) {
			m = request();
			o = opts_start(m);
			put_scalar(m, s->type, s->size, s->max + 1);
			nla_nest_end(m, o);
			snprintf(what, sizeof(what), "%s = %llu (above %llu)", s->name,
				 s->max + 1, s->max);
			expect_reject(m, what);
		}
		for (l = 0; l < ARRAY_SIZE(lens); l++) {
			if (lens[l] < 0 || (l == 1 && lens[l] == 0))
				continue;
			m = request();
			o = opts_start(m);
			put_scalar(m, s->type, lens[l], s->min);
			nla_nest_end(m, o);
			snprintf(what, sizeof(what), "%s with %d bytes (wants %d)", s->name,
				 lens[l], s->size);
			expect_reject(m, what);
		}
		/* a duplicate: a good value, then a bad one of the same attribute */
		if (s->max < top) {
			m = request();
			o = opts_start(m);
			put_scalar(m, s->type, s->size, s->min);
			put_scalar(m, s->type, s->size, s->max + 1);
			nla_nest_end(m, o);
			snprintf(what, sizeof(what), "%s twice, the second out of range", s->name);
			expect_reject(m, what);
		}
		/* a good value of this attribute beside a bad one of another */
		m = request();
		o = opts_start(m);
		put_scalar(m, s->type, s->size, s->max);
		put_scalar(m, TCA_AIRFAIR_DELACK, 1, AIRFAIR_DELACK_MAX + 1);
		nla_nest_end(m, o);
		snprintf(what, sizeof(what), "%s = max beside an out-of-range DELACK", s->name);
		expect_reject(m, what);
	}
}

static const struct {
	int nest, type, len;
	unsigned long long v;
	const char *why;
} per_ac[] = {
	{ TCA_AIRFAIR_AIFSN, TCA_AIRFAIR_AIFSN_VI, 2, 2, "AIFSN of VI as a u16" },
	{ TCA_AIRFAIR_AIFSN, TCA_AIRFAIR_AIFSN_VI, 1, AIRFAIR_AIFSN_MAX + 1,
	  "AIFSN of VI above its maximum" },
	{ TCA_AIRFAIR_AIFSN, TCA_AIRFAIR_AIFSN_BK + 1, 1, 2,
	  "AIFSN of an access category that does not exist" },
	{ TCA_AIRFAIR_TXOP, TCA_AIRFAIR_TXOP_BK, 1, 7, "TXOP of BK as a u8" },
	{ TCA_AIRFAIR_TXOP, TCA_AIRFAIR_TXOP_BK + 1, 2, 1792,
	  "TXOP of an access category that does not exist" },
};

static void sweep_types(void)
{
	unsigned char aifsn[AIRFAIR_NUM_ACS + 1] = { 2, 2, 3, 7, 1 };
	struct nlattr *o, *inner;
	struct nl_msg *m;
	size_t i;

	m = request();
	o = opts_start(m);
	put_scalar(m, TCA_AIRFAIR_MAX + 1, 4, 1);
	nla_nest_end(m, o);
	expect_reject(m, "unknown attribute type TCA_AIRFAIR_MAX + 1");

	m = request();
	o = opts_start(m);
	put_scalar(m, TCA_AIRFAIR_UNSPEC, 4, 1);
	nla_nest_end(m, o);
	expect_reject(m, "TCA_AIRFAIR_UNSPEC");

	m = request();
	o = opts_start(m);
	nla_put(m, TCA_AIRFAIR_AIFSN, AIRFAIR_NUM_ACS, aifsn);
	nla_nest_end(m, o);
	expect_reject(m, "AIFSN as the u8[4] of earlier versions, not a nest");

	/* the per-AC nests: a value of the wrong width or range, an AC too many */
	for (i = 0; i < sizeof(per_ac) / sizeof(per_ac[0]); i++) {
		m = request();
		o = opts_start(m);
		inner = nla_nest_start(m, per_ac[i].nest);
		put_scalar(m, per_ac[i].type, per_ac[i].len, per_ac[i].v);
		nla_nest_end(m, inner);
		nla_nest_end(m, o);
		expect_reject(m, per_ac[i].why);
	}

	m = request();
	o = opts_start(m);
	put_scalar(m, TCA_AIRFAIR_TXOP, 2, 1792);
	nla_nest_end(m, o);
	expect_reject(m, "TXOP as a u16, not a nest");

	/* TCA_OPTIONS whose payload is not a sequence of attributes */
	m = request();
	nla_put(m, TCA_OPTIONS | NLA_F_NESTED, 3, "\x07\x00\x01");
	expect_reject(m, "TCA_OPTIONS with a truncated attribute header");

	m = request();
	o = opts_start(m);
	nla_put(m, TCA_AIRFAIR_STATION | NLA_F_NESTED, 4, "\x40\x00\x01\x00");
	nla_nest_end(m, o);
	expect_reject(m, "STATION whose inner attribute claims 64 bytes of 4");
}

static const unsigned char sta_ok[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };

/* A TCA_AIRFAIR_STATION nest with address @addr (NULL: none) and @weight (0: none). */
static struct nlattr *station(struct nl_msg *m, const unsigned char *addr, int weight)
{
	struct nlattr *s = nla_nest_start(m, TCA_AIRFAIR_STATION);

	if (!s || (addr && nla_put(m, TCA_AIRFAIR_STA_ADDR, 6, addr) < 0) ||
	    (weight && nla_put_u16(m, TCA_AIRFAIR_STA_WEIGHT, weight) < 0)) {
		fprintf(stderr, "nl_sweep: a station does not fit the request\n");
		exit(2);
	}
	return s;
}

/* One station attribute of a wrong value, length or type beside a good address. */
struct bad_sta_attr {
	const char *what;
	int type, len;
	unsigned int val;
};

#define ATTR(w, t, l, v) { .what = (w), .type = (t), .len = (l), .val = (v) }
static const struct bad_sta_attr bad_attrs[] = {
	ATTR("station weight below the minimum", TCA_AIRFAIR_STA_WEIGHT, 2,
	     AIRFAIR_WEIGHT_MIN - 1),
	ATTR("station weight as a u32", TCA_AIRFAIR_STA_WEIGHT, 4, 2),
	ATTR("station loss of 100%", TCA_AIRFAIR_STA_LOSS, 4, 65536),
	ATTR("station source out of range", TCA_AIRFAIR_STA_SOURCE, 1, __AIRFAIR_SRC_MAX),
};

/* A bad TCA_AIRFAIR_RATE_* nest: fields < 0 are left out. */
struct bad_rate {
	const char *what;
	int mode, mode_len, flags, legacy;
};

static const struct bad_rate bad_rates[] = {
	{ "station rate without a mode", -1, 1, -1, 540 },
	{ "station rate mode as a u16", AIRFAIR_MODE_LEGACY, 2, -1, 540 },
	{ "station rate of an unknown mode", __AIRFAIR_MODE_MAX, 1, -1, 540 },
	{ "station legacy rate 53 Mbit/s", AIRFAIR_MODE_LEGACY, 1, -1, 530 },
	{ "station rate flags outside AIRFAIR_RATE_F_ALL", AIRFAIR_MODE_LEGACY, 1,
	  AIRFAIR_RATE_F_ALL + 1, 540 },
};

static void sweep_stations(void)
{
	static const unsigned char mcast[6] = { 0x01, 0x00, 0x5e, 0, 0, 1 };
	static const unsigned char zero[6];
	struct nl_msg *m;
	struct nlattr *o, *s, *inner;
	unsigned int i;

	m = request(); o = opts_start(m);
	s = station(m, NULL, 2); nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "station without an address");

	m = request(); o = opts_start(m);
	s = nla_nest_start(m, TCA_AIRFAIR_STATION);
	nla_put(m, TCA_AIRFAIR_STA_ADDR, 5, sta_ok);
	nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "station address of 5 bytes");

	m = request(); o = opts_start(m);
	s = station(m, mcast, 2); nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "multicast station address");

	m = request(); o = opts_start(m);
	s = station(m, zero, 2); nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "all-zero station address");

	m = request(); o = opts_start(m);
	s = station(m, sta_ok, AIRFAIR_WEIGHT_MAX + 1); nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "station weight above the maximum");

	for (i = 0; i < ARRAY_SIZE(bad_attrs); i++) {
		const struct bad_sta_attr *b = &bad_attrs[i];

		m = request(); o = opts_start(m);
		s = station(m, sta_ok, 0);
		put_scalar(m, b->type, b->len, b->val);
		nla_nest_end(m, s); nla_nest_end(m, o);
		expect_reject(m, b->what);
	}
	for (i = 0; i < ARRAY_SIZE(bad_rates); i++) {
		const struct bad_rate *b = &bad_rates[i];

		m = request(); o = opts_start(m);
		s = station(m, sta_ok, 0);
		inner = nla_nest_start(m, TCA_AIRFAIR_STA_RATE);
		if (b->mode >= 0)
			put_scalar(m, TCA_AIRFAIR_RATE_MODE, b->mode_len, b->mode);
		if (b->flags >= 0)
			nla_put_u8(m, TCA_AIRFAIR_RATE_FLAGS, b->flags);
		nla_put_u16(m, TCA_AIRFAIR_RATE_LEGACY, b->legacy);
		nla_nest_end(m, inner);
		nla_nest_end(m, s); nla_nest_end(m, o);
		expect_reject(m, b->what);
	}
	{	/* the rate as the binary struct of earlier versions */
		struct tc_airfair_rate old = { .mode = AIRFAIR_MODE_LEGACY, .legacy = 540 };

		m = request(); o = opts_start(m);
		s = station(m, sta_ok, 0);
		nla_put(m, TCA_AIRFAIR_STA_RATE, sizeof(old), &old);
		nla_nest_end(m, s); nla_nest_end(m, o);
		expect_reject(m, "station rate as a binary struct, not a nest");
	}

	m = request(); o = opts_start(m);
	s = station(m, sta_ok, 3);
	nla_put_flag(m, TCA_AIRFAIR_STA_DELETE);
	nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "station delete with a weight");

	m = request(); o = opts_start(m);
	s = station(m, sta_ok, 0);
	put_scalar(m, TCA_AIRFAIR_STA_MAX + 1, 4, 1);
	nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "unknown station attribute");

	m = request(); o = opts_start(m);
	s = station(m, sta_ok, 0);
	inner = station(m, sta_ok, 2);
	nla_nest_end(m, inner);
	nla_nest_end(m, s); nla_nest_end(m, o);
	expect_reject(m, "a station nested in a station");

	/* all-or-nothing: a good station before a bad one is not applied */
	m = request(); o = opts_start(m);
	s = station(m, sta_ok, 7); nla_nest_end(m, s);
	s = station(m, mcast, 2); nla_nest_end(m, s);
	put_scalar(m, TCA_AIRFAIR_LIMIT, 4, 77);
	nla_nest_end(m, o);
	expect_reject(m, "good station and LIMIT, then a multicast station");

	m = request(); o = opts_start(m);
	s = station(m, sta_ok, 7); nla_nest_end(m, s);
	s = station(m, sta_ok, AIRFAIR_WEIGHT_MAX + 1); nla_nest_end(m, s);
	nla_nest_end(m, o);
	expect_reject(m, "the same station twice, the second weight out of range");
}

/*
 * Fill the station table to @max (the qdisc was created with max-stations @max) with
 * static stations, in requests of 2000 (a nest's length is 16 bits), then try one more.
 */
static void sweep_full_table(unsigned int max)
{
	unsigned char a[6] = { 0x02, 0xaf, 0, 0, 0, 0 };
	unsigned int i = 0, first;
	struct nl_msg *m;
	struct nlattr *o, *s;
	char what[96];

	while (i < max) {
		m = request(); o = opts_start(m);
		for (first = i; i < max && i - first < 2000; i++) {
			a[4] = (unsigned char)(i >> 8);
			a[5] = (unsigned char)i;
			s = station(m, a, 1 + i % AIRFAIR_WEIGHT_MAX);
			nla_nest_end(m, s);
		}
		nla_nest_end(m, o);
		snprintf(what, sizeof(what), "stations %u-%u of max-stations %u", first + 1, i, max);
		expect_accept(m, what);
	}

	m = request(); o = opts_start(m);
	a[3] = 1;
	s = station(m, a, 2); nla_nest_end(m, s);
	nla_nest_end(m, o);
	expect_reject(m, "one station more than max-stations");

	m = request(); o = opts_start(m);
	a[3] = 0;
	s = station(m, a, 9); nla_nest_end(m, s);	/* one already in the table */
	a[3] = 1;
	s = station(m, a, 2); nla_nest_end(m, s);
	nla_nest_end(m, o);
	expect_reject(m, "a known station's weight and one station more");

	m = request(); o = opts_start(m);
	put_scalar(m, TCA_AIRFAIR_MAX_STATIONS, 4, max - 1);
	nla_nest_end(m, o);
	expect_reject(m, "max-stations changed after creation");
}

/* Random attribute soup; rejected requests must change nothing, none may crash. */
static void sweep_random(int rounds, unsigned int seed)
{
	int accepted = 0, rejected = 0, bad = 0, i, j;
	struct nl_msg *m;
	struct nlattr *o, *s;

	srand(seed);
	for (i = 0; i < rounds; i++) {
		unsigned char buf[16];
		int n = 1 + rand() % 4;
		struct reply r;
		char *now;

		m = request();
		o = opts_start(m);
		for (j = 0; j < n; j++) {
			int type = rand() % (TCA_AIRFAIR_MAX + 3);
			int len = rand() % 10, k;

			for (k = 0; k < len; k++)
				buf[k] = (unsigned char)rand();
			if (type == TCA_AIRFAIR_STATION && rand() % 2) {
				s = nla_nest_start(m, TCA_AIRFAIR_STATION);
				nla_put(m, 1 + rand() % (TCA_AIRFAIR_STA_MAX + 1), len, buf);
				nla_nest_end(m, s);
			} else {
				nla_put(m, type, len, buf);
			}
		}
		nla_nest_end(m, o);
		r = send_request(m);
		now = snapshot();
		if (r.err == 0) {
			accepted++;
			free(baseline);
			baseline = now;
			continue;
		}
		rejected++;
		if (strcmp(now, baseline) || !r.msg[0]) {
			if (bad++ < 3)
				printf("# random round %d: rejected (%s) \"%s\"%s\n", i,
				       strerror(-r.err), r.msg,
				       strcmp(now, baseline) ? " but tc show changed" : "");
		}
		free(now);
	}
	tap(!bad, "%d random requests (seed %u): %d accepted, %d rejected, %d rejected without extack or with a change",
	    rounds, seed, accepted, rejected, bad);
}

int main(int argc, char **argv)
{
	int one = 1, rounds, max;

	if (argc < 3) {
		fprintf(stderr, "usage: nl_sweep DEV MAX_STATIONS [RANDOM_ROUNDS]\n");
		return 2;
	}
	dev = argv[1];
	tc = getenv("TC") ? getenv("TC") : "/usr/sbin/tc";
	max = atoi(argv[2]);
	rounds = argc > 3 ? atoi(argv[3]) : 300;
	if (max < AIRFAIR_STATIONS_MIN + 1 || max > AIRFAIR_STATIONS_MAX) {
		fprintf(stderr, "nl_sweep: MAX_STATIONS must be 2-%d\n", AIRFAIR_STATIONS_MAX);
		return 2;
	}
	ifindex = (int)if_nametoindex(dev);
	if (!ifindex) {
		fprintf(stderr, "nl_sweep: no device %s\n", dev);
		return 2;
	}
	sk = nl_socket_alloc();
	if (!sk || nl_connect(sk, NETLINK_ROUTE) < 0) {
		fprintf(stderr, "nl_sweep: cannot open rtnetlink\n");
		return 2;
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl_socket_set_msg_buf_size(sk, 1 << 20);
	/* room for 2000 station nests in one request */
	nlmsg_set_default_size(1 << 17);

	printf("TAP version 13\n");
	baseline = snapshot();
	if (!strstr(baseline, "\"airfair\"")) {
		printf("1..0 # SKIP no airfair qdisc on %s (tc shows: %.200s)\n", dev, baseline);
		return 4;
	}
	sweep_scalars();
	sweep_types();
	sweep_stations();
	sweep_random(rounds, 1);
	sweep_full_table((unsigned int)max);
	printf("1..%d\n", tests);
	printf("# %d passed, %d failed\n", tests - failures, failures);
	free(baseline);
	nl_socket_free(sk);
	return failures ? 1 : 0;
}

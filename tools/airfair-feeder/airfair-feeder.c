// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-feeder: follow nl80211 on an AP interface and push every associated
 * station's TX rate and per-attempt loss into sch_airfair, for kernels whose
 * mac80211 does not carry the airfair hook (docs/mac80211-hook.md).
 *
 * Every --interval ms (and at once on a station or interface event) it:
 *   1. resolves the interface (it may come and go; so may the qdisc);
 *   2. dumps the stations (NL80211_CMD_GET_STATION): TX bitrate -> struct
 *      tc_airfair_rate, TX packets/retries/failed -> per-attempt loss EWMA;
 *   3. dumps the airfair qdiscs and their classes (stations) on the interface;
 *   4. sends each airfair qdisc one RTM_NEWQDISC change (no NLM_F_CREATE) with a
 *      TCA_AIRFAIR_STATION nest {ADDR, RATE, LOSS, SOURCE=FEEDER} per station,
 *      plus {ADDR, DELETE} for classes whose source is FEEDER but whose station
 *      has left (re-sending a non-default weight, which a delete resets).
 *
 * With --hostapd-conf FILE, each station's weight is the one hostapd's
 * configuration gives it for this interface (airtime_sta_weight, when
 * airtime_mode is not 0; 256 = default = the qdisc's 1, rounded, 1-1024),
 * 1 for the others; the file is read again when it changes. hostapd itself
 * hands these weights to mac80211 only for drivers with mac80211's airtime
 * fairness, so they are read where the admin wrote them. With --hostapd
 * CTRL the feeder attaches to hostapd's control socket and runs a round at
 * once when a station connects or leaves (AP-STA-CONNECTED/DISCONNECTED).
 *
 * The rate pushed is the most frequent of the station's last RATE_HISTORY TX
 * bitrates (the latest among equals). nl80211's figure is the rate of the last
 * frame's TX status, and one in ten of minstrel's frames is a probe: sampled
 * as it comes, a probe's rate (say 54 Mbit/s on a 24 Mbit/s link) became the
 * station's for a whole interval, and its frames were charged half their air.
 *
 * Per-attempt loss: mac80211 counts every data frame handed to the driver
 * (tx_packets), every retry (tx_retries) and every frame that failed after the
 * last retry (tx_failed). Over an interval, attempts = packets + retries and
 * failed attempts = retries + failed; a sample is taken once at least
 * --min-attempts attempts accumulated, and folded into an EWMA of weight
 * 1/--ewma. Loss is in 1/65536, as the qdisc takes it.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/ether.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include "airtime.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define MAX_STATIONS	4096
#define RATE_HISTORY	5	/* samples the pushed rate is the mode of */
#define NESTS_PER_MSG	64	/* station nests per RTM_NEWQDISC */
#define MAX_QDISCS	64

struct sta {
	uint8_t addr[6];
	bool seen;			/* in the current dump */
	bool have_rate;
	struct tc_airfair_rate rate;	/* pushed: the mode of hist[] */
	uint32_t bitrate;		/* nl80211's last, 100 kbit/s */
	struct tc_airfair_rate hist[RATE_HISTORY];
	unsigned int nr_hist, hist_next;
	uint32_t exp_tput;		/* nl80211 expected throughput, kbit/s */
	bool have_counters;
	uint32_t packets, retries, failed;	/* at the last sample */
	bool have_loss;
	uint32_t loss_q16;		/* EWMA */
	uint32_t samples;
	char why[96];			/* last reason the rate was not usable */
};

struct qdisc {
	uint32_t handle;
};

/* A class (station) of an airfair qdisc, from the class dump. */
struct cls {
	uint32_t major;
	uint8_t addr[6];
	uint8_t source;
	uint16_t weight;
	bool has_weight, has_source;
	bool has_flows;			/* the counts below came with the dump */
	uint32_t tcp_up, tcp_bulk;	/* its TCP uploads and bulk downloads */
};

static struct {
	const char *ifname;
	unsigned int interval_ms;
	unsigned int ewma;
	unsigned int min_attempts;
	int verbose;
	bool once;
	bool clear_on_exit;
	const char *hostapd_conf;
	const char *hostapd;
	bool hostapd_default;		/* hostapd's usual socket, if it is there */
	bool no_hostapd;
	enum {
		STA_WINDOW_AUTO,	/* where the mac80211 hook reports the stations */
		STA_WINDOW_ON,
		STA_WINDOW_OFF,
	} sta_window;
} opt = {
	.interval_ms = 1000,
	.ewma = 4,
	.min_attempts = 20,
};

/* hostapd's ctrl_interface as Debian and OpenWrt configure it */
#define HOSTAPD_CTRL_DIR	"/var/run/hostapd"

static struct sta *stas;
static unsigned int nr_stas;
static struct qdisc qdiscs[MAX_QDISCS];
static unsigned int nr_qdiscs;
static struct cls *clss;
static unsigned int nr_clss, cap_clss;

static struct nl_sock *gen_sk, *ev_sk, *rt_sk;
static int nl80211_id = -1;
static int cur_ifindex;
static uint32_t cur_freq;
static bool cur_short_preamble_ok;
static volatile sig_atomic_t stop;
static bool wake;		/* an event asked for an early tick */
static char state_msg[256];	/* last "not working because" message */

static void logmsg(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void logmsg(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > opt.verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "airfair-feeder: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Log a persistent condition once, when it starts (and when it ends). */
static void set_state(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void set_state(const char *fmt, ...)
{
	char buf[sizeof(state_msg)] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
	}
	if (!strcmp(buf, state_msg))
		return;
	if (buf[0])
		fprintf(stderr, "airfair-feeder: %s\n", buf);
	else if (state_msg[0])
		fprintf(stderr, "airfair-feeder: %s: feeding again\n", opt.ifname);
	strcpy(state_msg, buf);
}

static const char *mac_str(const uint8_t *a)
{
	static char buf[4][18];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%02x:%02x:%02x:%02x:%02x:%02x",
		 a[0], a[1], a[2], a[3], a[4], a[5]);
	return buf[i];
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------------
 * nl80211 rate info -> struct tc_airfair_rate
 */

static bool is_2ghz(void)
{
	return cur_freq && cur_freq < 3000;
}

/*
 * Fill @r from a NL80211_STA_INFO_TX_BITRATE nest, mapped as the mac80211 hook
 * maps its rate_info (airfair_rate_from_info). Returns 0, or -1 with a reason
 * in @why when the rate cannot be described (EHT, S1G, 5/10 MHz, ...).
 */
static int decode_rate(struct nlattr *nest, bool short_preamble,
		       struct tc_airfair_rate *r, uint32_t *bitrate,
		       char *why, size_t whylen)
{
	struct nlattr *ri[NL80211_RATE_INFO_MAX + 1];
	struct airfair_rate_info in = { .kind = AIRFAIR_RI_LEGACY, .width_mhz = 20 };
	const char *reason;

	memset(r, 0, sizeof(*r));
	*bitrate = 0;
	if (nla_parse_nested(ri, NL80211_RATE_INFO_MAX, nest, NULL)) {
		snprintf(why, whylen, "malformed rate info");
		return -1;
	}
	if (ri[NL80211_RATE_INFO_BITRATE32])
		*bitrate = nla_get_u32(ri[NL80211_RATE_INFO_BITRATE32]);
	else if (ri[NL80211_RATE_INFO_BITRATE])
		*bitrate = nla_get_u16(ri[NL80211_RATE_INFO_BITRATE]);
	in.legacy = *bitrate > UINT16_MAX ? 0 : *bitrate;

	if (ri[NL80211_RATE_INFO_5_MHZ_WIDTH])
		in.width_mhz = 5;
	else if (ri[NL80211_RATE_INFO_10_MHZ_WIDTH])
		in.width_mhz = 10;
	else if (ri[NL80211_RATE_INFO_320_MHZ_WIDTH])
		in.width_mhz = 320;
	else if (ri[NL80211_RATE_INFO_160_MHZ_WIDTH] || ri[NL80211_RATE_INFO_80P80_MHZ_WIDTH])
		in.width_mhz = 160;
	else if (ri[NL80211_RATE_INFO_80_MHZ_WIDTH])
		in.width_mhz = 80;
	else if (ri[NL80211_RATE_INFO_40_MHZ_WIDTH])
		in.width_mhz = 40;
	in.short_gi = ri[NL80211_RATE_INFO_SHORT_GI];

	if (ri[NL80211_RATE_INFO_MCS]) {
		in.kind = AIRFAIR_RI_HT;
		in.mcs = nla_get_u8(ri[NL80211_RATE_INFO_MCS]);
	} else if (ri[NL80211_RATE_INFO_VHT_MCS]) {
		in.kind = AIRFAIR_RI_VHT;
		in.mcs = nla_get_u8(ri[NL80211_RATE_INFO_VHT_MCS]);
		if (ri[NL80211_RATE_INFO_VHT_NSS])
			in.nss = nla_get_u8(ri[NL80211_RATE_INFO_VHT_NSS]);
	} else if (ri[NL80211_RATE_INFO_HE_MCS]) {
		in.kind = AIRFAIR_RI_HE;
		in.mcs = nla_get_u8(ri[NL80211_RATE_INFO_HE_MCS]);
		if (ri[NL80211_RATE_INFO_HE_NSS])
			in.nss = nla_get_u8(ri[NL80211_RATE_INFO_HE_NSS]);
		if (ri[NL80211_RATE_INFO_HE_GI])
			in.he_gi = nla_get_u8(ri[NL80211_RATE_INFO_HE_GI]);
		in.he_ru = ri[NL80211_RATE_INFO_HE_RU_ALLOC];
	} else if (ri[NL80211_RATE_INFO_EHT_MCS]) {
		in.kind = AIRFAIR_RI_OTHER;
	}
	if (airfair_rate_from_info(&in, is_2ghz(), short_preamble, r, &reason)) {
		snprintf(why, whylen, "%s", reason);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------
 * Station table
 */

static struct sta *sta_lookup(const uint8_t *addr, bool add)
{
	unsigned int i;

	for (i = 0; i < nr_stas; i++)
		if (!memcmp(stas[i].addr, addr, 6))
			return &stas[i];
	if (!add || nr_stas >= MAX_STATIONS)
		return NULL;
	if (!(nr_stas & (nr_stas + 1)) || !stas) {
		struct sta *n = realloc(stas, sizeof(*stas) * (2 * nr_stas + 2));

		if (!n)
			return NULL;
		stas = n;
	}
	memset(&stas[nr_stas], 0, sizeof(*stas));
	memcpy(stas[nr_stas].addr, addr, 6);
	return &stas[nr_stas++];
}

static void sta_remove(struct sta *s)
{
	logmsg(1, "%s: station %s left", opt.ifname, mac_str(s->addr));
	*s = stas[--nr_stas];
}

static void stas_clear(void)
{
	nr_stas = 0;
}

static void sta_update_loss(struct sta *s, uint32_t packets, uint32_t retries,
			    uint32_t failed)
{
	uint32_t dp, dr, df;
	uint64_t att, bad, sample;

	if (!s->have_counters) {
		/* First sight: everything since association is the first interval. */
		s->have_counters = true;
		s->packets = s->retries = s->failed = 0;
	}
	dp = packets - s->packets;
	dr = retries - s->retries;
	df = failed - s->failed;
	att = (uint64_t)dp + dr;
	bad = (uint64_t)dr + df;
	/* Counters that went backwards (a driver reset them): start over. */
	if (dp > (1u << 31) || dr > (1u << 31) || df > (1u << 31)) {
		s->packets = packets;
		s->retries = retries;
		s->failed = failed;
		return;
	}
	if (att < opt.min_attempts || !att)
		return;	/* keep accumulating */
	if (bad > att)
		bad = att;
	sample = (bad << 16) / att;
	if (sample >= AIRFAIR_LOSS_ONE)
		sample = AIRFAIR_LOSS_ONE - 1;
	if (!s->have_loss) {
		s->loss_q16 = sample;
		s->have_loss = true;
	} else {
		s->loss_q16 = ((uint64_t)s->loss_q16 * (opt.ewma - 1) + sample +
			       opt.ewma / 2) / opt.ewma;
	}
	s->samples++;
	s->packets = packets;
	s->retries = retries;
	s->failed = failed;
}

/* ---------------------------------------------------------------------------
 * Generic netlink (nl80211)
 */

static int ev_handler(struct nl_msg *msg, void *arg);

static int nl80211_init(void)
{
	int mlme, config;

	if (nl80211_id >= 0)
		return 0;
	if (!gen_sk) {
		gen_sk = nl_socket_alloc();
		ev_sk = nl_socket_alloc();
		if (!gen_sk || !ev_sk) {
			fprintf(stderr, "airfair-feeder: out of memory\n");
			exit(1);
		}
		if (genl_connect(gen_sk) || genl_connect(ev_sk)) {
			fprintf(stderr, "airfair-feeder: cannot open a generic netlink socket\n");
			exit(1);
		}
		nl_socket_set_buffer_size(ev_sk, 1 << 20, 0);
		nl_socket_disable_seq_check(ev_sk);
		nl_socket_set_nonblocking(ev_sk);
		nl_socket_modify_cb(ev_sk, NL_CB_VALID, NL_CB_CUSTOM, ev_handler, NULL);
	}
	nl80211_id = genl_ctrl_resolve(gen_sk, "nl80211");
	if (nl80211_id < 0) {
		set_state("nl80211 not found (is cfg80211 loaded?)");
		return -1;
	}
	mlme = genl_ctrl_resolve_grp(gen_sk, "nl80211", "mlme");
	config = genl_ctrl_resolve_grp(gen_sk, "nl80211", "config");
	if (mlme >= 0)
		nl_socket_add_membership(ev_sk, mlme);
	if (config >= 0)
		nl_socket_add_membership(ev_sk, config);
	if (mlme < 0 || config < 0)
		logmsg(0, "warning: no nl80211 event groups, polling only");
	return 0;
}

static int ev_handler(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	int ifindex = 0;

	if (nlmsg_hdr(msg)->nlmsg_type != nl80211_id)
		return NL_SKIP;
	nla_parse(tb, NL80211_ATTR_MAX, genlmsg_attrdata(gh, 0),
		  genlmsg_attrlen(gh, 0), NULL);
	if (tb[NL80211_ATTR_IFINDEX])
		ifindex = nla_get_u32(tb[NL80211_ATTR_IFINDEX]);
	switch (gh->cmd) {
	case NL80211_CMD_NEW_STATION:
	case NL80211_CMD_DEL_STATION:
		if (ifindex && ifindex == cur_ifindex) {
			logmsg(1, "%s: event: %s station %s", opt.ifname,
			       gh->cmd == NL80211_CMD_NEW_STATION ? "new" : "del",
			       tb[NL80211_ATTR_MAC] ?
			       mac_str(nla_data(tb[NL80211_ATTR_MAC])) : "?");
			wake = true;
		}
		break;
	case NL80211_CMD_NEW_INTERFACE:
	case NL80211_CMD_DEL_INTERFACE:
	case NL80211_CMD_START_AP:
	case NL80211_CMD_STOP_AP:
	case NL80211_CMD_CH_SWITCH_NOTIFY:
		wake = true;
		break;
	}
	return NL_OK;
}

static void drain_events(void)
{
	int err;

	/* Non-blocking: returns once the queue is empty. */
	do {
		err = nl_recvmsgs_default(ev_sk);
	} while (err >= 0);
	if (err == -NLE_NOMEM)	/* overrun: events lost, so look now */
		wake = true;
}

struct dump_ctx {
	int err;
};

static int finish_handler(struct nl_msg *msg, void *arg)
{
	*(int *)arg = 0;
	return NL_STOP;
}

static int ack_handler(struct nl_msg *msg, void *arg)
{
	*(int *)arg = 0;
	return NL_STOP;
}

static char last_extack[256];

static int error_handler(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	int len = nlh->nlmsg_len;

	*(int *)arg = e->error;
	last_extack[0] = 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		int off = NLMSG_HDRLEN + sizeof(*e);
		struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		if (off < len &&
		    !nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + off),
			       len - off, NULL) && tb[NLMSGERR_ATTR_MSG])
			snprintf(last_extack, sizeof(last_extack), "%s",
				 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	}
	return NL_STOP;
}

/* Send @msg (freed) on @sk and run @valid on each reply; returns 0 or -errno. */
static int transact(struct nl_sock *sk, struct nl_msg *msg,
		    int (*valid)(struct nl_msg *, void *), void *arg)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int err = 1, r;

	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	last_extack[0] = 0;
	r = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (r < 0) {
		nl_cb_put(cb);
		return -EIO;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, error_handler, &err);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_handler, &err);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_handler, &err);
	if (valid)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid, arg);
	while (err > 0) {
		r = nl_recvmsgs(sk, cb);
		if (r < 0 && err > 0) {
			err = r == -NLE_NOMEM ? -ENOBUFS : -EIO;
			break;
		}
	}
	nl_cb_put(cb);
	return err;
}

static int iface_handler(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	uint32_t *iftype = arg;

	nla_parse(tb, NL80211_ATTR_MAX, genlmsg_attrdata(gh, 0),
		  genlmsg_attrlen(gh, 0), NULL);
	if (tb[NL80211_ATTR_WIPHY_FREQ])
		cur_freq = nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]);
	if (tb[NL80211_ATTR_IFTYPE])
		*iftype = nla_get_u32(tb[NL80211_ATTR_IFTYPE]);
	return NL_SKIP;
}

static int get_interface(int ifindex, uint32_t *iftype)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return -ENOMEM;
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl80211_id, 0, 0,
		    NL80211_CMD_GET_INTERFACE, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	cur_freq = 0;
	return transact(gen_sk, msg, iface_handler, iftype);
}

/* The station's TX bitrate sample @ago samples before its latest. */
static const struct tc_airfair_rate *sta_rate_ago(const struct sta *s,
						 unsigned int ago)
{
	return &s->hist[(s->hist_next + RATE_HISTORY - 1 - ago) % RATE_HISTORY];
}

/* Add a TX bitrate sample; the station's rate becomes the samples' mode. */
static void sta_rate_sample(struct sta *s, const struct tc_airfair_rate *r)
{
	const struct tc_airfair_rate *a, *b;
	unsigned int i, j, n, best = 0;

	s->hist[s->hist_next] = *r;
	s->hist_next = (s->hist_next + 1) % RATE_HISTORY;
	if (s->nr_hist < RATE_HISTORY)
		s->nr_hist++;
	/* newest first, so that of equally frequent rates the latest wins */
	for (i = 0; i < s->nr_hist; i++) {
		a = sta_rate_ago(s, i);
		for (n = 0, j = 0; j < s->nr_hist; j++) {
			b = sta_rate_ago(s, j);
			n += !memcmp(a, b, sizeof(*a));
		}
		if (n > best) {
			best = n;
			s->rate = *a;
		}
	}
}

static int station_handler(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	struct nlattr *si[NL80211_STA_INFO_MAX + 1];
	struct nlattr *bp[NL80211_STA_BSS_PARAM_MAX + 1];
	bool short_preamble = false;
	struct sta *s;

	nla_parse(tb, NL80211_ATTR_MAX, genlmsg_attrdata(gh, 0),
		  genlmsg_attrlen(gh, 0), NULL);
	if (!tb[NL80211_ATTR_MAC] || nla_len(tb[NL80211_ATTR_MAC]) != 6 ||
	    !tb[NL80211_ATTR_STA_INFO])
		return NL_SKIP;
	if (nla_parse_nested(si, NL80211_STA_INFO_MAX, tb[NL80211_ATTR_STA_INFO], NULL))
		return NL_SKIP;
	s = sta_lookup(nla_data(tb[NL80211_ATTR_MAC]), true);
	if (!s)
		return NL_SKIP;
	if (!s->seen && !s->have_counters)
		logmsg(1, "%s: station %s", opt.ifname, mac_str(s->addr));
	s->seen = true;
	if (si[NL80211_STA_INFO_BSS_PARAM] &&
	    !nla_parse_nested(bp, NL80211_STA_BSS_PARAM_MAX,
			      si[NL80211_STA_INFO_BSS_PARAM], NULL))
		short_preamble = !!bp[NL80211_STA_BSS_PARAM_SHORT_PREAMBLE];
	else
		short_preamble = cur_short_preamble_ok;
	if (si[NL80211_STA_INFO_TX_BITRATE]) {
		struct tc_airfair_rate r;

		s->have_rate = !decode_rate(si[NL80211_STA_INFO_TX_BITRATE],
					    short_preamble, &r, &s->bitrate,
					    s->why, sizeof(s->why));
		if (s->have_rate)
			sta_rate_sample(s, &r);
	} else {
		s->have_rate = false;
		snprintf(s->why, sizeof(s->why), "no TX bitrate yet");
	}
	if (!s->have_rate)
		s->nr_hist = s->hist_next = 0;
	s->exp_tput = si[NL80211_STA_INFO_EXPECTED_THROUGHPUT] ?
		      nla_get_u32(si[NL80211_STA_INFO_EXPECTED_THROUGHPUT]) : 0;
	if (si[NL80211_STA_INFO_TX_PACKETS] && si[NL80211_STA_INFO_TX_RETRIES] &&
	    si[NL80211_STA_INFO_TX_FAILED])
		sta_update_loss(s, nla_get_u32(si[NL80211_STA_INFO_TX_PACKETS]),
				nla_get_u32(si[NL80211_STA_INFO_TX_RETRIES]),
				nla_get_u32(si[NL80211_STA_INFO_TX_FAILED]));
	return NL_SKIP;
}

static int dump_stations(int ifindex)
{
	struct nl_msg *msg = nlmsg_alloc();
	unsigned int i;
	int err;

	if (!msg)
		return -ENOMEM;
	for (i = 0; i < nr_stas; i++)
		stas[i].seen = false;
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl80211_id, 0, NLM_F_DUMP,
		    NL80211_CMD_GET_STATION, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	err = transact(gen_sk, msg, station_handler, NULL);
	if (err)
		return err;
	for (i = 0; i < nr_stas;) {
		if (!stas[i].seen)
			sta_remove(&stas[i]);
		else
			i++;
	}
	return 0;
}

/* ---------------------------------------------------------------------------
 * rtnetlink (sch_airfair)
 */

static int rt_init(void)
{
	int one = 1;

	rt_sk = nl_socket_alloc();
	if (!rt_sk || nl_connect(rt_sk, NETLINK_ROUTE)) {
		fprintf(stderr, "airfair-feeder: cannot open a route netlink socket\n");
		return -1;
	}
	nl_socket_set_buffer_size(rt_sk, 1 << 20, 1 << 20);
	setsockopt(nl_socket_get_fd(rt_sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(rt_sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return 0;
}

static bool is_airfair(struct nlattr **tb)
{
	return tb[TCA_KIND] && !strcmp(nla_get_string(tb[TCA_KIND]), "airfair");
}

static int qdisc_handler(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct tcmsg *tcm = nlmsg_data(nlh);
	struct nlattr *tb[TCA_MAX + 1];

	if (nlh->nlmsg_type != RTM_NEWQDISC || tcm->tcm_ifindex != cur_ifindex)
		return NL_SKIP;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) || !is_airfair(tb))
		return NL_SKIP;
	if (nr_qdiscs < MAX_QDISCS && tcm->tcm_handle)
		qdiscs[nr_qdiscs++].handle = tcm->tcm_handle;
	return NL_SKIP;
}

static int dump_qdiscs(int ifindex)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex };
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETQDISC, NLM_F_DUMP);

	if (!msg)
		return -ENOMEM;
	nlmsg_append(msg, &tcm, sizeof(tcm), NLMSG_ALIGNTO);
	nr_qdiscs = 0;
	return transact(rt_sk, msg, qdisc_handler, NULL);
}

/* The station's flow counts from its class statistics (TCA_STATS_APP). */
static void class_flows(struct cls *c, struct nlattr *stats2)
{
	struct nlattr *st[TCA_STATS_MAX + 1], *x[TCA_AIRFAIR_CSTATS_MAX + 1];

	if (!stats2 || nla_parse_nested(st, TCA_STATS_MAX, stats2, NULL) ||
	    !st[TCA_STATS_APP] ||
	    nla_parse_nested(x, TCA_AIRFAIR_CSTATS_MAX, st[TCA_STATS_APP], NULL) ||
	    !x[TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP] || !x[TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK] ||
	    nla_len(x[TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP]) < 4 ||
	    nla_len(x[TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK]) < 4)
		return;
	c->has_flows = true;
	c->tcp_up = nla_get_u32(x[TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP]);
	c->tcp_bulk = nla_get_u32(x[TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK]);
}

static int class_handler(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct tcmsg *tcm = nlmsg_data(nlh);
	struct nlattr *tb[TCA_MAX + 1], *o[TCA_AIRFAIR_STA_MAX + 1];
	struct cls *c;

	if (nlh->nlmsg_type != RTM_NEWTCLASS || tcm->tcm_ifindex != cur_ifindex)
		return NL_SKIP;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) || !is_airfair(tb) ||
	    !tb[TCA_OPTIONS])
		return NL_SKIP;
	if (nla_parse_nested(o, TCA_AIRFAIR_STA_MAX, tb[TCA_OPTIONS], NULL) ||
	    !o[TCA_AIRFAIR_STA_ADDR] || nla_len(o[TCA_AIRFAIR_STA_ADDR]) != 6)
		return NL_SKIP;
	if (nr_clss == cap_clss) {
		struct cls *n = realloc(clss, sizeof(*clss) * (cap_clss * 2 + 16));

		if (!n)
			return NL_SKIP;
		clss = n;
		cap_clss = cap_clss * 2 + 16;
	}
	c = &clss[nr_clss++];
	memset(c, 0, sizeof(*c));
	c->major = tcm->tcm_handle & 0xffff0000u;
	memcpy(c->addr, nla_data(o[TCA_AIRFAIR_STA_ADDR]), 6);
	if (o[TCA_AIRFAIR_STA_SOURCE]) {
		c->has_source = true;
		c->source = nla_get_u8(o[TCA_AIRFAIR_STA_SOURCE]);
	}
	if (o[TCA_AIRFAIR_STA_WEIGHT]) {
		c->has_weight = true;
		c->weight = nla_get_u16(o[TCA_AIRFAIR_STA_WEIGHT]);
	}
	class_flows(c, tb[TCA_STATS2]);
	return NL_SKIP;
}

static int dump_classes(int ifindex)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex };
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETTCLASS, NLM_F_DUMP);

	if (!msg)
		return -ENOMEM;
	nlmsg_append(msg, &tcm, sizeof(tcm), NLMSG_ALIGNTO);
	nr_clss = 0;
	return transact(rt_sk, msg, class_handler, NULL);
}

/* One station change, as it goes into a TCA_AIRFAIR_STATION nest. */
struct change {
	const uint8_t *addr;
	bool del;
	bool weight_only;		/* just @weight (--hostapd-conf, station gone) */
	const struct sta *sta;		/* rate/loss, when !del */
	uint16_t weight;		/* re-sent after a delete, if not 1 */
};

/* ---------------------------------------------------------------------------
 * Weights from hostapd's configuration
 */

#define MAX_HAPD_WEIGHTS	1024

static struct {
	uint8_t addr[6];
	uint16_t weight;	/* the qdisc's */
} hapd_weights[MAX_HAPD_WEIGHTS];
static unsigned int nr_hapd_weights;
static struct timespec hapd_conf_mtime;
static bool hapd_conf_read;
static int hapd_conf_be_ecwmin = -1;	/* its wmm_ac_be_cwmin, -1 none */

/* hostapd's airtime weight (256 = mac80211's default) as the qdisc's (1 = default). */
static uint16_t qdisc_weight(unsigned long airtime_weight)
{
	unsigned long w = (airtime_weight + 128) / 256;

	return w < AIRFAIR_WEIGHT_MIN ? AIRFAIR_WEIGHT_MIN :
	       w > AIRFAIR_WEIGHT_MAX ? AIRFAIR_WEIGHT_MAX : w;
}

/*
 * Read the airtime_sta_weight lines of our interface's section (the first one,
 * "interface=", or a "bss=" one) of hostapd's configuration; none when its
 * airtime_mode is 0 (hostapd's airtime policy off). Only when the file changed;
 * a file that cannot be read keeps the weights last read.
 */
static void hapd_conf_load(void)
{
	char line[512], *v;
	bool ours = false, mode_on = false;
	unsigned int n = 0, lineno = 0, bad = 0;
	struct stat st;
	FILE *f;

	if (stat(opt.hostapd_conf, &st)) {
		if (hapd_conf_read || !hapd_conf_mtime.tv_sec)
			logmsg(0, "%s: %s: %s", opt.ifname, opt.hostapd_conf, strerror(errno));
		hapd_conf_mtime.tv_sec = 1;	/* said once */
		return;
	}
	if (hapd_conf_read && st.st_mtim.tv_sec == hapd_conf_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == hapd_conf_mtime.tv_nsec)
		return;
	f = fopen(opt.hostapd_conf, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned int a[6];
		unsigned long w;
		char *end;
		int i;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		v = strchr(line, '=');
		if (line[0] == '#' || !v)
			continue;
		*v++ = '\0';
		if (!strcmp(line, "interface") || !strcmp(line, "bss")) {
			ours = !strcmp(v, opt.ifname);
			if (ours)
				n = 0, mode_on = false, hapd_conf_be_ecwmin = -1;
			continue;
		}
		if (!ours)
			continue;
		if (!strcmp(line, "airtime_mode")) {
			mode_on = strtoul(v, NULL, 10) != 0;
		} else if (!strcmp(line, "wmm_ac_be_cwmin")) {
			hapd_conf_be_ecwmin = (int)strtol(v, NULL, 10);
		} else if (!strcmp(line, "airtime_sta_weight")) {
			if (sscanf(v, "%x:%x:%x:%x:%x:%x %n", &a[0], &a[1], &a[2], &a[3],
				   &a[4], &a[5], &i) != 6 || !v[i] ||
			    ((w = strtoul(v + i, &end, 10)), *end) || !w ||
			    n == MAX_HAPD_WEIGHTS) {
				logmsg(0, "%s: %s:%u: airtime_sta_weight '%s' not used",
				       opt.ifname, opt.hostapd_conf, lineno, v);
				bad++;
				continue;
			}
			for (i = 0; i < 6; i++)
				hapd_weights[n].addr[i] = a[i];
			hapd_weights[n++].weight = qdisc_weight(w);
		}
	}
	fclose(f);
	nr_hapd_weights = mode_on ? n : 0;
	hapd_conf_mtime = st.st_mtim;
	hapd_conf_read = true;
	logmsg(0, "%s: %s: %u station weight(s)%s%s", opt.ifname, opt.hostapd_conf,
	       nr_hapd_weights, mode_on ? "" : " (airtime_mode 0: none used)",
	       bad ? ", some lines not used" : "");
}

static uint16_t hapd_weight(const uint8_t *addr)
{
	unsigned int i;

	for (i = 0; i < nr_hapd_weights; i++)
		if (!memcmp(hapd_weights[i].addr, addr, 6))
			return hapd_weights[i].weight;
	return 1;
}

/* A station's rate as the TCA_AIRFAIR_RATE_* nest. */
static int put_rate(struct nl_msg *msg, const struct tc_airfair_rate *r)
{
	struct nlattr *n = nla_nest_start(msg, TCA_AIRFAIR_STA_RATE);

	if (!n || nla_put_u8(msg, TCA_AIRFAIR_RATE_MODE, r->mode) ||
	    nla_put_u8(msg, TCA_AIRFAIR_RATE_MCS, r->mcs) ||
	    nla_put_u8(msg, TCA_AIRFAIR_RATE_NSS, r->nss) ||
	    nla_put_u8(msg, TCA_AIRFAIR_RATE_BW, r->bw) ||
	    nla_put_u8(msg, TCA_AIRFAIR_RATE_GI, r->gi) ||
	    nla_put_u8(msg, TCA_AIRFAIR_RATE_FLAGS, r->flags) ||
	    nla_put_u16(msg, TCA_AIRFAIR_RATE_LEGACY, r->legacy))
		return -1;
	nla_nest_end(msg, n);
	return 0;
}

static int put_change(struct nl_msg *msg, const struct change *c)
{
	struct nlattr *n = nla_nest_start(msg, TCA_AIRFAIR_STATION);

	if (!n || nla_put(msg, TCA_AIRFAIR_STA_ADDR, 6, c->addr))
		return -1;
	if (c->weight_only) {
		if (nla_put_u16(msg, TCA_AIRFAIR_STA_WEIGHT, c->weight))
			return -1;
		nla_nest_end(msg, n);
		return 0;
	}
	if (c->del) {
		if (nla_put_flag(msg, TCA_AIRFAIR_STA_DELETE))
			return -1;
		nla_nest_end(msg, n);
		if (c->weight > 1) {
			n = nla_nest_start(msg, TCA_AIRFAIR_STATION);
			if (!n || nla_put(msg, TCA_AIRFAIR_STA_ADDR, 6, c->addr) ||
			    nla_put_u16(msg, TCA_AIRFAIR_STA_WEIGHT, c->weight))
				return -1;
			nla_nest_end(msg, n);
		}
		return 0;
	}
	if (c->sta->have_rate && put_rate(msg, &c->sta->rate))
		return -1;
	if (c->sta->have_loss && nla_put_u32(msg, TCA_AIRFAIR_STA_LOSS, c->sta->loss_q16))
		return -1;
	if (c->sta->exp_tput &&
	    nla_put_u32(msg, TCA_AIRFAIR_STA_EXPECTED_TPUT, c->sta->exp_tput))
		return -1;
	if (opt.hostapd_conf &&
	    nla_put_u16(msg, TCA_AIRFAIR_STA_WEIGHT, hapd_weight(c->sta->addr)))
		return -1;
	if (nla_put_u8(msg, TCA_AIRFAIR_STA_SOURCE, AIRFAIR_SRC_FEEDER))
		return -1;
	nla_nest_end(msg, n);
	return 0;
}

/* One RTM_NEWQDISC change of qdisc @handle carrying @n changes. */
static int send_changes(uint32_t handle, const struct change *c, unsigned int n)
{
	struct tcmsg tcm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = cur_ifindex,
		.tcm_handle = handle,
	};
	struct nl_msg *msg = nlmsg_alloc_size(4096 + n * 96);
	struct nlattr *opts;
	unsigned int i;

	if (!msg)
		return -ENOMEM;
	/* A change: no NLM_F_CREATE, so a vanished qdisc is never re-created. */
	if (!nlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, RTM_NEWQDISC, 0,
		       NLM_F_REQUEST | NLM_F_ACK) ||
	    nlmsg_append(msg, &tcm, sizeof(tcm), NLMSG_ALIGNTO) ||
	    nla_put_string(msg, TCA_KIND, "airfair"))
		goto nomem;
	opts = nla_nest_start(msg, TCA_OPTIONS);
	if (!opts)
		goto nomem;
	for (i = 0; i < n; i++)
		if (put_change(msg, &c[i]))
			goto nomem;
	nla_nest_end(msg, opts);
	return transact(rt_sk, msg, NULL, NULL);
nomem:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static struct {
	uint8_t addr[6];
	int err;
} bad_stas[256];
static unsigned int nr_bad;

/* Log a per-station push error once per (station, error). */
static void station_error(const struct change *c, uint32_t handle, int err)
{
	unsigned int i;

	for (i = 0; i < nr_bad; i++)
		if (!memcmp(bad_stas[i].addr, c->addr, 6) && bad_stas[i].err == err)
			return;
	if (nr_bad < 256) {
		memcpy(bad_stas[nr_bad].addr, c->addr, 6);
		bad_stas[nr_bad++].err = err;
	}
	fprintf(stderr, "airfair-feeder: %s: qdisc %x: station %s: %s%s%s\n",
		opt.ifname, handle >> 16, mac_str(c->addr), strerror(-err),
		last_extack[0] ? ": " : "", last_extack);
}

static void station_ok(const uint8_t *addr)
{
	unsigned int i;

	for (i = 0; i < nr_bad;) {
		if (!memcmp(bad_stas[i].addr, addr, 6))
			bad_stas[i] = bad_stas[--nr_bad];
		else
			i++;
	}
}

/*
 * Push @n changes to qdisc @handle in batches; a batch the kernel refuses
 * (one bad rate, a full station table) is retried station by station so the
 * others still get through. Returns the number of changes that failed.
 */
static int push(uint32_t handle, const struct change *c, unsigned int n)
{
	unsigned int i, j, k, failed = 0;
	int err;

	for (i = 0; i < n; i += NESTS_PER_MSG) {
		k = n - i < NESTS_PER_MSG ? n - i : NESTS_PER_MSG;
		err = send_changes(handle, c + i, k);
		if (!err) {
			for (j = i; j < i + k; j++)
				station_ok(c[j].addr);
			continue;
		}
		if (err == -ENOENT || err == -EINVAL) {
			/* the qdisc may have gone (ENOENT) or changed kind */
			logmsg(1, "%s: qdisc %x: %s%s%s", opt.ifname, handle >> 16,
			       strerror(-err), last_extack[0] ? ": " : "", last_extack);
		}
		for (j = i; j < i + k; j++) {
			err = k == 1 ? err : send_changes(handle, &c[j], 1);
			if (err) {
				station_error(&c[j], handle, err);
				failed++;
			} else {
				station_ok(c[j].addr);
			}
		}
	}
	return failed;
}

static const struct sta *sta_find_const(const uint8_t *addr)
{
	return sta_lookup(addr, false);
}

/* The class of qdisc @major for station @addr, from the last dump. */
static const struct cls *cls_find(uint32_t major, const uint8_t *addr)
{
	unsigned int i;

	for (i = 0; i < nr_clss; i++)
		if (clss[i].major == major && !memcmp(clss[i].addr, addr, 6))
			return &clss[i];
	return NULL;
}

/* ---------------------------------------------------------------------------
 * One round
 */

static int tick(bool final)
{
	static struct change *changes;
	static unsigned int cap;
	unsigned int i, q, n, failed = 0, dels = 0;
	uint32_t iftype = 0;
	int ifindex, err;

	ifindex = if_nametoindex(opt.ifname);
	if (!ifindex) {
		set_state("%s: no such interface (waiting for it)", opt.ifname);
		stas_clear();
		cur_ifindex = 0;
		return -1;
	}
	if (ifindex != cur_ifindex) {
		if (cur_ifindex)
			logmsg(0, "%s: interface re-appeared with index %d", opt.ifname, ifindex);
		stas_clear();
		cur_ifindex = ifindex;
	}
	if (nl80211_init())
		return -1;
	err = get_interface(ifindex, &iftype);
	if (err) {
		set_state("%s: not a wireless interface (nl80211: %s)", opt.ifname,
			  strerror(-err));
		return -1;
	}
	if (!final) {
		err = dump_stations(ifindex);
		if (err) {
			set_state("%s: station dump failed: %s", opt.ifname, strerror(-err));
			return -1;
		}
	} else {
		stas_clear();
	}
	err = dump_qdiscs(ifindex);
	if (err) {
		set_state("%s: qdisc dump failed: %s", opt.ifname, strerror(-err));
		return -1;
	}
	if (!nr_qdiscs) {
		set_state("%s: no airfair qdisc on the interface (waiting for one)", opt.ifname);
		return -1;
	}
	err = dump_classes(ifindex);
	if (err) {
		set_state("%s: class dump failed: %s", opt.ifname, strerror(-err));
		return -1;
	}

	if (opt.hostapd_conf)
		hapd_conf_load();
	if (cap < nr_stas + nr_clss) {
		free(changes);
		cap = nr_stas + nr_clss + 16;
		changes = calloc(cap, sizeof(*changes));
		if (!changes) {
			cap = 0;
			return -1;
		}
	}
	for (q = 0; q < nr_qdiscs; q++) {
		uint32_t h = qdiscs[q].handle;

		n = 0;
		for (i = 0; i < nr_stas; i++) {
			const struct cls *c = cls_find(h, stas[i].addr);

			if (!stas[i].have_rate && !stas[i].have_loss && !opt.hostapd_conf)
				continue;
			/* the mac80211 hook tells the qdisc this station's rate and loss
			 * itself, and better: ours would be ignored (weights aside) */
			if (c && c->has_source && c->source == AIRFAIR_SRC_HOOK && !opt.hostapd_conf)
				continue;
			changes[n++] = (struct change){ .addr = stas[i].addr, .sta = &stas[i] };
		}
		for (i = 0; i < nr_clss; i++) {
			const struct cls *c = &clss[i];

			if (c->major != h || sta_find_const(c->addr))
				continue;
			/* With --hostapd-conf the weights are the feeder's: a station that
			 * left goes back to 1, whoever set its rate. */
			if (opt.hostapd_conf && c->has_weight && c->weight != 1 &&
			    (!c->has_source || c->source != AIRFAIR_SRC_FEEDER)) {
				changes[n++] = (struct change){
					.addr = c->addr, .weight_only = true, .weight = 1,
				};
				logmsg(1, "%s: qdisc %x: station %s gone, weight back to 1",
				       opt.ifname, h >> 16, mac_str(c->addr));
				continue;
			}
			/* Only what the feeder set is the feeder's to take back. */
			if (!c->has_source || c->source != AIRFAIR_SRC_FEEDER)
				continue;
			/* a weight set with tc is put back; with --hostapd-conf it was ours */
			changes[n++] = (struct change){
				.addr = c->addr, .del = true,
				.weight = c->has_weight && !opt.hostapd_conf ? c->weight : 1,
			};
			dels++;
			logmsg(1, "%s: qdisc %x: station %s gone, back to default", opt.ifname,
			       h >> 16, mac_str(c->addr));
		}
		if (n)
			failed += push(h, changes, n);
	}
	if (opt.verbose >= 1) {
		logmsg(1, "%s: %u station(s), %u qdisc(s), %u removed, %u failed (%u MHz)",
		       opt.ifname, nr_stas, nr_qdiscs, dels, failed, cur_freq);
		for (i = 0; i < nr_stas && opt.verbose >= 2; i++) {
			const struct sta *s = &stas[i];

			if (s->have_rate)
				logmsg(2, "  %s rate %u kbit/s (nl80211 %u.%u Mbit/s) loss %.2f%% (%u samples) expected %u kbit/s",
				       mac_str(s->addr), airfair_rate_kbps(&s->rate),
				       s->bitrate / 10, s->bitrate % 10,
				       s->loss_q16 * 100.0 / 65536, s->samples, s->exp_tput);
			else
				logmsg(2, "  %s no rate (%s) loss %.2f%% (%u samples)",
				       mac_str(s->addr), s->why, s->loss_q16 * 100.0 / 65536,
				       s->samples);
		}
	}
	if (iftype && iftype != NL80211_IFTYPE_AP && iftype != NL80211_IFTYPE_AP_VLAN &&
	    iftype != NL80211_IFTYPE_MESH_POINT && iftype != NL80211_IFTYPE_P2P_GO)
		set_state("%s: interface type %u is not an AP (feeding its peers anyway)",
			  opt.ifname, iftype);
	else
		set_state(NULL);
	return failed ? -1 : 0;
}

/* ---------------------------------------------------------------------------
 * The stations' best-effort window (--sta-window)
 *
 * In a download the stations send nothing but TCP ACKs, in best effort, and a
 * flow's window runs out while its ACKs wait for the air (docs/fairness.md):
 * at hostapd's default CWmin 15 three stations' ACKs left one of them short of
 * its airtime share in one run of ten; at 7 none was. The window that keeps
 * the stations' collisions rare grows with how many contend, as Bianchi's
 * optimum does. So the window the AP advertises (wmm_ac_be_cwmin, an
 * exponent) follows the associated stations: CWmin + 1 is the smallest power
 * of two of at least their slots, 8 at the least.
 *
 * A station counts STA_WINDOW_SLOTS slots, unless the qdisc shows it only
 * uploads over TCP (TCP uploads, no bulk TCP download): then one. An
 * uploader's data goes out as airfair lets its ACKs through, at its share of
 * the air, where a downloading station answers every d frames with an ACK
 * of its own; an idle station, or one the qdisc does not show, may be either.
 * Up to four stations 7, eight 15, sixteen 31; leith-2005's six downloads and
 * six uploads, 18 slots, get its 31 (Table II).
 */

#define STA_WINDOW_SLOTS	2	/* per associated station */
#define STA_WINDOW_ECW_MIN	3	/* CWmin 7 */
#define STA_WINDOW_ECW_MAX	10	/* CWmin 1023, hostapd's default CWmax */
#define HOSTAPD_BE_ECWMIN	4	/* hostapd's default: CWmin 15 */
#define HAPD_REPLY_MAX		4096	/* hostapd's own reply buffer */

static int window_ecw = -1;	/* the exponent we had hostapd advertise, -1 none */

/* A datagram socket connected to hostapd's control socket, as hostapd_cli's: the
 * descriptor, or -errno. hostapd replies to the address a request came from, so the
 * socket is bound, but autobound (a unique name in the abstract namespace) rather
 * than to a file: that needs no writable directory and reaches hostapd from a
 * private /tmp (systemd's PrivateTmp=) too, and there is nothing to unlink. */
static int hapd_connect(void)
{
	struct sockaddr_un dst = { .sun_family = AF_UNIX };
	sa_family_t autobind = AF_UNIX;
	int fd, err;

	if (strlen(opt.hostapd) >= sizeof(dst.sun_path))
		return -ENAMETOOLONG;
	strcpy(dst.sun_path, opt.hostapd);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&autobind, sizeof(autobind)) ||
	    connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* Send @cmd and wait up to 2 s for the reply: its length, or -errno. */
static int hapd_exchange(int fd, const char *cmd, char *reply, size_t size)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (send(fd, cmd, strlen(cmd), 0) != (ssize_t)strlen(cmd))
		return -errno;
	if (poll(&pfd, 1, 2000) != 1)
		return -ETIMEDOUT;
	n = recv(fd, reply, size - 1, 0);
	if (n < 0)
		return -errno;
	reply[n] = '\0';
	return (int)n;
}

/* One request on a socket of its own (not the attached one, where events come):
 * the reply's length, or -errno. */
static int hapd_request(const char *cmd, char *reply, size_t size)
{
	int fd = hapd_connect(), n;

	if (fd < 0)
		return fd;
	n = hapd_exchange(fd, cmd, reply, size);
	close(fd);
	return n;
}

/* Whether the last class dump shows @addr uploading over TCP and nothing more:
 * TCP uploads and no bulk TCP download, in any airfair qdisc on the interface. */
static bool sta_uploads_only(const uint8_t *addr)
{
	bool up = false;
	unsigned int i;

	for (i = 0; i < nr_clss; i++) {
		if (memcmp(clss[i].addr, addr, 6) || !clss[i].has_flows)
			continue;
		if (clss[i].tcp_bulk)
			return false;
		up |= clss[i].tcp_up > 0;
	}
	return up;
}

struct sta_count {
	int stations;	/* associated */
	int uploaders;	/* of them, uploading only */
};

/* The stations hostapd has associated (STA-FIRST, STA-NEXT:
 * "ADDR\nflags=[AUTH][ASSOC]...") and, of them, those the qdisc shows only
 * uploading: 0, or -errno. */
static int hapd_count_associated(struct sta_count *cnt)
{
	char *buf = malloc(HAPD_REPLY_MAX + 1), cmd[40], addr[18];
	struct ether_addr mac;
	int len, seen = 0;

	if (!buf)
		return -ENOMEM;
	*cnt = (struct sta_count){ 0 };
	len = hapd_request("STA-FIRST", buf, HAPD_REPLY_MAX + 1);
	while (len > 0 && strncmp(buf, "FAIL", 4) && seen++ < 4096) {
		if (sscanf(buf, "%17s", addr) != 1)
			break;
		if (strstr(buf, "[ASSOC]")) {
			cnt->stations++;
			if (ether_aton_r(addr, &mac) && sta_uploads_only(mac.ether_addr_octet))
				cnt->uploaders++;
		}
		snprintf(cmd, sizeof(cmd), "STA-NEXT %s", addr);
		len = hapd_request(cmd, buf, HAPD_REPLY_MAX + 1);
	}
	free(buf);
	return len < 0 ? len : 0;
}

static int sta_window_ecw(const struct sta_count *cnt)
{
	int slots = STA_WINDOW_SLOTS * (cnt->stations - cnt->uploaders) + cnt->uploaders;
	int e = STA_WINDOW_ECW_MIN;

	while (e < STA_WINDOW_ECW_MAX && (1 << e) < slots)
		e++;
	return e;
}

static int hapd_set_be_ecwmin(int e)
{
	char cmd[40], reply[64];
	int len;

	snprintf(cmd, sizeof(cmd), "SET wmm_ac_be_cwmin %d", e);
	len = hapd_request(cmd, reply, sizeof(reply));
	if (len < 0)
		return len;
	return strncmp(reply, "OK", 2) ? -EINVAL : 0;
}

/* Whether the last class dump shows a station whose rate the mac80211 hook reports. */
static bool hook_reports_stations(void)
{
	unsigned int i;

	for (i = 0; i < nr_clss; i++)
		if (clss[i].has_source && clss[i].source == AIRFAIR_SRC_HOOK)
			return true;
	return false;
}

static void sta_window_restore(void);

/* Count the stations and have hostapd advertise their window, if it is not the one
 * it advertises already (@force: hostapd (re)started, with its configuration's).
 * By default only where the mac80211 hook reports the stations: there the pending
 * limit keeps the air busy at the smaller window; on a stock mac80211 the window
 * cost air and bought no fairness (docs/fairness.md, sessions 71-72). */
static void sta_window_follow(bool force)
{
	int ifindex = if_nametoindex(opt.ifname), e, err;
	static int hook_seen = -1;
	static bool followed;
	struct sta_count cnt;

	/* the stations' flows, from the airfair classes as they are now; none known,
	 * every station counts two slots */
	if (!ifindex || ifindex != cur_ifindex || dump_classes(ifindex))
		nr_clss = 0;
	if (opt.sta_window == STA_WINDOW_AUTO) {
		int hook = hook_reports_stations();

		/* said once; stations going idle and back again are told with -v */
		if (hook != hook_seen)
			logmsg(hook && !followed ? 0 : 1, "%s: %s", opt.ifname, hook ?
			       "the mac80211 hook reports the stations: following their window" :
			       "no station reported by the mac80211 hook: their window stays hostapd's");
		hook_seen = hook;
		followed |= hook;
		if (!hook) {
			sta_window_restore();
			return;
		}
	}
	err = hapd_count_associated(&cnt);
	if (err) {
		logmsg(0, "%s: hostapd at %s: counting stations: %s", opt.ifname, opt.hostapd,
		       strerror(-err));
		return;
	}
	e = sta_window_ecw(&cnt);
	if (e == window_ecw && !force)
		return;
	err = hapd_set_be_ecwmin(e);
	if (err) {
		logmsg(0, "%s: hostapd at %s: SET wmm_ac_be_cwmin %d: %s", opt.ifname,
		       opt.hostapd, e, err == -EINVAL ? "refused" : strerror(-err));
		window_ecw = -1;
		return;
	}
	if (e != window_ecw)
		logmsg(0, "%s: %d station(s), %d of them uploading only: "
		       "their best-effort CWmin %d (wmm_ac_be_cwmin %d)",
		       opt.ifname, cnt.stations, cnt.uploaders, (1 << e) - 1, e);
	window_ecw = e;
}

/* On exit, or when the window is no longer ours to set: what hostapd's
 * configuration gives, else hostapd's default. */
static void sta_window_restore(void)
{
	int e = hapd_conf_be_ecwmin >= 0 ? hapd_conf_be_ecwmin : HOSTAPD_BE_ECWMIN;

	if (window_ecw < 0)
		return;
	if (window_ecw != e) {
		if (hapd_set_be_ecwmin(e)) {
			logmsg(0, "%s: hostapd at %s: could not put wmm_ac_be_cwmin back to %d",
			       opt.ifname, opt.hostapd, e);
			return;
		}
		logmsg(0, "%s: the stations' best-effort CWmin back to %d", opt.ifname,
		       (1 << e) - 1);
	}
	window_ecw = -1;
}

/* ---------------------------------------------------------------------------
 * hostapd's control socket: station events
 */

#define HAPD_CHECK_MS	2000	/* attach / liveness check period */

static int hapd_fd = -1;
static bool hapd_ping_pending;

static void hapd_close(void)
{
	if (hapd_fd < 0)
		return;
	close(hapd_fd);
	hapd_fd = -1;
}

/* Attach as a monitor (as hostapd_cli does): "ATTACH" answered with "OK". */
static int hapd_attach(void)
{
	char buf[64];
	int n;

	hapd_fd = hapd_connect();
	if (hapd_fd < 0) {
		n = hapd_fd;
		hapd_fd = -1;
		return n;
	}
	n = hapd_exchange(hapd_fd, "ATTACH", buf, sizeof(buf));
	if (n < 2 || strncmp(buf, "OK", 2)) {
		hapd_close();
		return n < 0 ? n : -EPROTO;
	}
	hapd_ping_pending = false;
	logmsg(0, "%s: attached to hostapd at %s", opt.ifname, opt.hostapd);
	return 0;
}

/* Every HAPD_CHECK_MS: attach if not attached; a PING left unanswered since the last
 * check means hostapd went away or restarted (and forgot us): attach again, and run a
 * round at once, as station events may have been missed meanwhile. */
static void hapd_check(void)
{
	static int last_err;
	int err = 0;

	if (hapd_fd >= 0 && hapd_ping_pending) {
		logmsg(0, "%s: hostapd at %s stopped answering", opt.ifname, opt.hostapd);
		hapd_close();
	}
	if (hapd_fd < 0) {
		err = hapd_attach();
		if (!err)
			wake = true;
		if (!err && opt.sta_window != STA_WINDOW_OFF)
			sta_window_follow(true);
	} else if (opt.sta_window != STA_WINDOW_OFF) {
		sta_window_follow(false);	/* in case an event was missed */
	}
	if (!err && hapd_fd >= 0) {
		if (send(hapd_fd, "PING", 4, 0) == 4)
			hapd_ping_pending = true;
		else
			hapd_close();
	}
	/* the default socket is only tried: no hostapd there is no fault */
	if (err && err != last_err)
		logmsg(opt.hostapd_default && (err == -ENOENT || err == -ECONNREFUSED) ? 1 : 0,
		       "%s: hostapd at %s: %s (retrying)", opt.ifname, opt.hostapd,
		       strerror(-err));
	last_err = err;
}

static void hapd_events(void)
{
	char buf[512], *ev;
	ssize_t n;

	while ((n = recv(hapd_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (!strcmp(buf, "PONG")) {
			hapd_ping_pending = false;
			continue;
		}
		/* unsolicited: "<level>EVENT args" */
		ev = buf[0] == '<' && strchr(buf, '>') ? strchr(buf, '>') + 1 : buf;
		if (!strncmp(ev, "AP-STA-CONNECTED ", 17) ||
		    !strncmp(ev, "AP-STA-DISCONNECTED ", 20)) {
			logmsg(1, "%s: hostapd: %s", opt.ifname, ev);
			wake = true;
			if (opt.sta_window != STA_WINDOW_OFF)
				sta_window_follow(false);
		} else if (!strncmp(ev, "CTRL-EVENT-TERMINATING", 22)) {
			logmsg(0, "%s: hostapd terminating", opt.ifname);
			hapd_close();
			return;
		}
	}
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
		hapd_close();
}

/* ---------------------------------------------------------------------------
 * Main
 */

static void on_signal(int sig)
{
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: airfair-feeder -i IFACE [options]\n"
"Follow nl80211 on an AP interface and push each station's TX rate and\n"
"per-attempt loss into the interface's sch_airfair qdisc(s) (source \"feeder\").\n"
"  -i, --interface IFACE    the AP interface (may come and go)\n"
"  -t, --interval MS        push period, default 1000\n"
"  -e, --ewma N             loss EWMA weight 1/N per sample, default 4\n"
"  -m, --min-attempts N     TX attempts per loss sample, default 20\n"
"  -1, --once               one round, then exit (status 0 only if it pushed)\n"
"  -c, --clear-on-exit      on SIGTERM/SIGINT, hand the feeder's stations back\n"
"                           to the default rate (otherwise their last rate stays)\n"
"  -C, --hostapd-conf FILE  station weights from hostapd's configuration\n"
"                           (airtime_sta_weight; 256 there = weight 1 here)\n"
"  -H, --hostapd CTRL       hostapd's control socket for IFACE: a round at once\n"
"                           when a station connects or leaves; default\n"
"                           " HOSTAPD_CTRL_DIR "/IFACE, when it is there\n"
"      --no-hostapd         not even the default one\n"
"  -W, --sta-window         have hostapd advertise the stations' best-effort\n"
"                           CWmin by their number (7 up to 4, 15 up to 8, ...),\n"
"                           put back on exit; the default where the mac80211\n"
"                           hook reports the stations\n"
"      --no-sta-window      never (hostapd's own window)\n"
"  -v, --verbose            per-round summary; twice: per station\n"
"  -h, --help\n");
}

static unsigned int parse_uint(const char *s, const char *what, unsigned int min,
			       unsigned int max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "airfair-feeder: %s must be %u-%u, not '%s'\n", what, min,
			max, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "interface", required_argument, NULL, 'i' },
		{ "interval", required_argument, NULL, 't' },
		{ "ewma", required_argument, NULL, 'e' },
		{ "min-attempts", required_argument, NULL, 'm' },
		{ "once", no_argument, NULL, '1' },
		{ "clear-on-exit", no_argument, NULL, 'c' },
		{ "hostapd-conf", required_argument, NULL, 'C' },
		{ "hostapd", required_argument, NULL, 'H' },
		{ "no-hostapd", no_argument, NULL, 'N' },
		{ "sta-window", no_argument, NULL, 'W' },
		{ "no-sta-window", no_argument, NULL, 'w' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct sigaction sa = { .sa_handler = on_signal };
	uint64_t next, hapd_next = 0;
	int c, ret;

	while ((c = getopt_long(argc, argv, "i:t:e:m:1cC:H:Wvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			opt.ifname = optarg;
			break;
		case 't':
			opt.interval_ms = parse_uint(optarg, "--interval", 10, 3600000);
			break;
		case 'e':
			opt.ewma = parse_uint(optarg, "--ewma", 1, 1024);
			break;
		case 'm':
			opt.min_attempts = parse_uint(optarg, "--min-attempts", 1, 1000000);
			break;
		case '1':
			opt.once = true;
			break;
		case 'c':
			opt.clear_on_exit = true;
			break;
		case 'C':
			opt.hostapd_conf = optarg;
			break;
		case 'H':
			opt.hostapd = optarg;
			break;
		case 'W':
			opt.sta_window = STA_WINDOW_ON;
			break;
		case 'w':
			opt.sta_window = STA_WINDOW_OFF;
			break;
		case 'N':
			opt.no_hostapd = true;
			break;
		case 'v':
			opt.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!opt.ifname || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (opt.no_hostapd && opt.hostapd) {
		fprintf(stderr, "airfair-feeder: --hostapd and --no-hostapd together\n");
		return 2;
	}
	if (opt.sta_window == STA_WINDOW_ON && (opt.no_hostapd || opt.once)) {
		fprintf(stderr, "airfair-feeder: --sta-window needs hostapd, and follows the "
			"stations: not with --no-hostapd or --once\n");
		return 2;
	}
	if (strlen(opt.ifname) >= IF_NAMESIZE) {
		fprintf(stderr, "airfair-feeder: interface name '%s' too long\n", opt.ifname);
		return 2;
	}
	if (!opt.hostapd && !opt.no_hostapd && !opt.once) {
		static char ctrl[sizeof(HOSTAPD_CTRL_DIR) + IF_NAMESIZE + 1];

		snprintf(ctrl, sizeof(ctrl), "%s/%s", HOSTAPD_CTRL_DIR, opt.ifname);
		opt.hostapd = ctrl;
		opt.hostapd_default = true;
	}
	if (rt_init())
		return 1;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (opt.once) {
		opt.min_attempts = 1;
		ret = tick(false);
		return ret ? 1 : 0;
	}
	logmsg(0, "%s: feeding sch_airfair every %u ms", opt.ifname, opt.interval_ms);
	next = now_ms();
	while (!stop) {
		uint64_t t = now_ms();
		struct pollfd pfd = { .fd = -1, .events = POLLIN }, pfds[2];

		struct pollfd *hp = &pfds[1];

		uint64_t until;

		if (opt.hostapd && t >= hapd_next) {
			hapd_check();
			hapd_next = t + HAPD_CHECK_MS;
		}
		if (t >= next || wake) {
			wake = false;
			tick(false);
			t = now_ms();
			next = t + opt.interval_ms;
		}
		pfds[0] = pfd;
		if (ev_sk && nl80211_id >= 0)
			pfds[0].fd = nl_socket_get_fd(ev_sk);
		*hp = (struct pollfd){ .fd = hapd_fd, .events = POLLIN };
		until = opt.hostapd && hapd_next < next ? hapd_next : next;
		if (poll(pfds, 2, until > t ? until - t : 0) > 0) {
			if (pfds[0].revents & (POLLIN | POLLERR | POLLHUP))
				drain_events();
			if (hp->fd >= 0 && hp->revents)
				hapd_events();
		}
	}
	hapd_close();
	if (opt.sta_window != STA_WINDOW_OFF)
		sta_window_restore();
	if (opt.clear_on_exit)
		tick(true);
	logmsg(0, "%s: stopped", opt.ifname);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-stat: the airfair qdiscs' statistics for monitoring, per interface and
 * per station, in the Prometheus text exposition format (for node_exporter's
 * textfile collector) or as JSON.
 *
 * One RTM_GETQDISC dump finds the airfair qdiscs (of the interfaces named, or
 * all), one RTM_GETTCLASS dump per interface their stations; the numbers are
 * the kernel's (TCA_STATS2: basic, queue and the TCA_AIRFAIR_[C]STATS_* of
 * TCA_STATS_APP), converted to base units (seconds, bytes, bit/s, ratios).
 * With -o FILE the output is written to FILE.tmp and renamed over FILE, so a
 * collector never reads half a file.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <linux/pkt_sched_airfair.h>
#include "phy_params.h"

/* Where a value comes from: an attribute of the app stats, or a standard one. */
enum src {
	SRC_APP,		/* TCA_AIRFAIR_[C]STATS_<attr> */
	SRC_BYTES,		/* gnet_stats_basic */
	SRC_PACKETS,
	SRC_QLEN,		/* gnet_stats_queue */
	SRC_BACKLOG,
};

enum kind { COUNTER, GAUGE };

struct metric {
	const char *name;	/* after "airfair_" or "airfair_station_" */
	enum kind kind;
	const char *help;
	enum src src;
	int attr;
	double scale;		/* value in base units = raw * scale */
	const char *label;	/* extra label "reason=..." shared by one name */
};

#define APP(n, k, h, a, s)	{ n, k, h, SRC_APP, a, s, NULL }
#define DROP(r, a)		{ "drops_total", COUNTER, "Packets dropped, by reason.", \
				  SRC_APP, a, 1, "reason=\"" r "\"" }

static const struct metric qdisc_metrics[] = {
	APP("airtime_seconds_total", COUNTER, "Airtime charged to all stations.",
	    TCA_AIRFAIR_STATS_AIRTIME, 1e-6),
	{ "sent_bytes_total", COUNTER, "Bytes dequeued.", SRC_BYTES, 0, 1, NULL },
	{ "sent_packets_total", COUNTER, "Packets dequeued.", SRC_PACKETS, 0, 1, NULL },
	{ "backlog_bytes", GAUGE, "Bytes queued.", SRC_BACKLOG, 0, 1, NULL },
	{ "backlog_packets", GAUGE, "Packets queued.", SRC_QLEN, 0, 1, NULL },
	DROP("limit", TCA_AIRFAIR_STATS_DROP_LIMIT),
	DROP("memlimit", TCA_AIRFAIR_STATS_DROP_MEMLIMIT),
	DROP("aqm", TCA_AIRFAIR_STATS_DROP_AQM),
	DROP("rtt", TCA_AIRFAIR_STATS_DROP_RTT),
	DROP("ackfilter", TCA_AIRFAIR_STATS_DROP_ACKFILTER),
	APP("ecn_marks_total", COUNTER, "Packets ECN-marked by the AQM.",
	    TCA_AIRFAIR_STATS_ECN_MARK, 1),
	APP("stations", GAUGE, "Stations in the table.", TCA_AIRFAIR_STATS_STATIONS, 1),
	APP("flows", GAUGE, "Flows with packets queued.", TCA_AIRFAIR_STATS_FLOWS, 1),
	APP("memory_bytes", GAUGE, "Memory the queued packets use.",
	    TCA_AIRFAIR_STATS_MEMORY_USED, 1),
	APP("overflow_packets_total", COUNTER,
	    "Packets sent through the overflow station (unknown or too many stations).",
	    TCA_AIRFAIR_STATS_STA_OVERFLOW, 1),
	APP("meter_stalls_total", COUNTER, "Dequeues held back by the airtime meter.",
	    TCA_AIRFAIR_STATS_METER_STALLS, 1),
	APP("pending_stalls_total", COUNTER, "Dequeues held back by the pending-airtime limit.",
	    TCA_AIRFAIR_STATS_PENDING_STALLS, 1),
	APP("pending_limit_seconds", GAUGE,
	    "Airtime the radio may have pending below the qdisc (pending-limit in force).",
	    TCA_AIRFAIR_STATS_PENDING_LIMIT, 1e-6),
	APP("pending_underruns_total", COUNTER,
	    "Times the radio ran dry while the pending-airtime limit held packets back.",
	    TCA_AIRFAIR_STATS_PENDING_UNDERRUNS, 1),
	APP("window_clamps_total", COUNTER, "Upload ACKs whose receive window was lowered.",
	    TCA_AIRFAIR_STATS_WINDOW_CLAMPS, 1),
	APP("queue_below_seconds", GAUGE,
	    "Wait of the timed TCP downloads below the qdisc over their minimum (the meter's last look).",
	    TCA_AIRFAIR_STATS_QUEUE_BELOW, 1e-6),
	APP("below_cuts_total", COUNTER,
	    "Meter intervals whose grant was cut for the queue below the qdisc.",
	    TCA_AIRFAIR_STATS_BELOW_CUTS, 1),
	APP("meter_grant_ratio", GAUGE,
	    "Share of real time the airtime meter grants (utilisation auto: now; 0 unmetered).",
	    TCA_AIRFAIR_STATS_UTILISATION, 1.0 / 65536),
};

static const struct metric station_metrics[] = {
	APP("airtime_seconds_total", COUNTER, "Airtime charged to the station.",
	    TCA_AIRFAIR_CSTATS_AIRTIME, 1e-6),
	APP("sent_bytes_total", COUNTER, "Bytes dequeued to the station.",
	    TCA_AIRFAIR_CSTATS_BYTES, 1),
	APP("sent_packets_total", COUNTER, "Packets dequeued to the station.",
	    TCA_AIRFAIR_CSTATS_PACKETS, 1),
	APP("drops_total", COUNTER, "Packets to the station dropped.",
	    TCA_AIRFAIR_CSTATS_DROPS, 1),
	APP("backlog_bytes", GAUGE, "Bytes queued for the station.",
	    TCA_AIRFAIR_CSTATS_BACKLOG_BYTES, 1),
	APP("backlog_packets", GAUGE, "Packets queued for the station.",
	    TCA_AIRFAIR_CSTATS_BACKLOG_PKTS, 1),
	APP("weight", GAUGE, "Airtime weight.", TCA_AIRFAIR_CSTATS_WEIGHT, 1),
	APP("rate_bits_per_second", GAUGE, "PHY rate the airtime is charged at.",
	    TCA_AIRFAIR_CSTATS_RATE_KBPS, 1e3),
	APP("loss_ratio", GAUGE, "Share of transmission attempts that fail.",
	    TCA_AIRFAIR_CSTATS_LOSS, 1.0 / 65536),
	APP("expected_throughput_bits_per_second", GAUGE,
	    "Expected throughput reported by mac80211 (hook or feeder).",
	    TCA_AIRFAIR_CSTATS_EXPECTED_TPUT, 1e3),
	APP("pending_airtime_seconds", GAUGE,
	    "Airtime handed to the driver and not yet reported back (mac80211 hook).",
	    TCA_AIRFAIR_CSTATS_PENDING_AIRTIME, 1e-6),
	APP("rtt_seconds", GAUGE, "Mean RTT estimate of the station's recent TCP flows.",
	    TCA_AIRFAIR_CSTATS_RTT_US, 1e-6),
	APP("upload_frames_total", COUNTER,
	    "TCP data frames received from the station and charged to it.",
	    TCA_AIRFAIR_CSTATS_UPLOAD_FRAMES, 1),
	APP("backlogged_seconds_total", COUNTER,
	    "Time the station had packets queued in the qdisc.",
	    TCA_AIRFAIR_CSTATS_BACKLOGGED, 1e-6),
};

#define N_QM	(sizeof(qdisc_metrics) / sizeof(qdisc_metrics[0]))
#define N_SM	(sizeof(station_metrics) / sizeof(station_metrics[0]))
#define MAX_VALUES	(N_QM > N_SM ? N_QM : N_SM)

/* One qdisc or station: the values its metrics read, present or not. */
struct rec {
	int ifindex;
	uint32_t handle;	/* qdisc: its handle; station: its qdisc's major */
	char ifname[IF_NAMESIZE];
	uint8_t addr[6];
	int source;		/* -1: not reported */
	bool have[MAX_VALUES];
	double value[MAX_VALUES];
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static struct recs qdiscs, stations;

#define APP_MAX	64	/* room for the larger of TCA_AIRFAIR_[C]STATS_MAX */
_Static_assert(TCA_AIRFAIR_STATS_MAX < APP_MAX && TCA_AIRFAIR_CSTATS_MAX < APP_MAX,
	       "app stats attributes outgrew APP_MAX");
static const char *const source_names[] = AIRFAIR_SOURCE_NAMES;

static struct rec *rec_add(struct recs *r)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct rec *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	memset(&r->v[r->n], 0, sizeof(r->v[0]));
	r->v[r->n].source = -1;
	return &r->v[r->n++];
}

/* An app-stats attribute as a number, whatever its width. */
static bool app_value(struct nlattr *a, bool is_signed, double *v)
{
	switch (nla_len(a)) {
	case 1:
		*v = nla_get_u8(a);
		return true;
	case 2:
		*v = nla_get_u16(a);
		return true;
	case 4:
		*v = is_signed ? (double)(int32_t)nla_get_u32(a) : nla_get_u32(a);
		return true;
	case 8:
		*v = (double)nla_get_u64(a);
		return true;
	}
	return false;
}

static void fill(struct rec *r, const struct metric *m, size_t n, struct nlattr *stats2,
		 int app_max)
{
	struct nlattr *st[TCA_STATS_MAX + 1], *app[APP_MAX];
	struct gnet_stats_basic basic;
	struct gnet_stats_queue queue;
	bool have_basic = false, have_queue = false, have_app = false;
	size_t i;

	if (!stats2 || nla_parse_nested(st, TCA_STATS_MAX, stats2, NULL))
		return;
	if (st[TCA_STATS_BASIC] && nla_len(st[TCA_STATS_BASIC]) >= (int)sizeof(basic)) {
		memcpy(&basic, nla_data(st[TCA_STATS_BASIC]), sizeof(basic));
		have_basic = true;
	}
	if (st[TCA_STATS_QUEUE] && nla_len(st[TCA_STATS_QUEUE]) >= (int)sizeof(queue)) {
		memcpy(&queue, nla_data(st[TCA_STATS_QUEUE]), sizeof(queue));
		have_queue = true;
	}
	if (st[TCA_STATS_APP] && !nla_parse_nested(app, app_max, st[TCA_STATS_APP], NULL))
		have_app = true;

	for (i = 0; i < n; i++) {
		double v;

		switch (m[i].src) {
		case SRC_APP:
			if (!have_app || !app[m[i].attr] || !app_value(app[m[i].attr], false, &v))
				continue;
			break;
		case SRC_BYTES:
		case SRC_PACKETS:
			if (!have_basic)
				continue;
			v = m[i].src == SRC_BYTES ? (double)basic.bytes : basic.packets;
			break;
		default:
			if (!have_queue)
				continue;
			v = m[i].src == SRC_QLEN ? queue.qlen : queue.backlog;
			break;
		}
		r->have[i] = true;
		r->value[i] = v * m[i].scale;
	}
}

static bool is_airfair(struct nlattr **tb)
{
	return tb[TCA_KIND] && !strcmp(nla_get_string(tb[TCA_KIND]), "airfair");
}

static int on_qdisc(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct tcmsg *tcm = nlmsg_data(nlh);
	const int *only = arg;
	struct nlattr *tb[TCA_MAX + 1];
	struct rec *r;

	if (nlh->nlmsg_type != RTM_NEWQDISC || (*only && tcm->tcm_ifindex != *only))
		return NL_OK;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) || !is_airfair(tb))
		return NL_OK;
	r = rec_add(&qdiscs);
	if (!r)
		return NL_STOP;
	r->ifindex = tcm->tcm_ifindex;
	r->handle = tcm->tcm_handle;
	if (!if_indextoname(r->ifindex, r->ifname))
		snprintf(r->ifname, sizeof(r->ifname), "if%d", r->ifindex);
	fill(r, qdisc_metrics, N_QM, tb[TCA_STATS2], TCA_AIRFAIR_STATS_MAX);
	return NL_OK;
}

static int on_class(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct tcmsg *tcm = nlmsg_data(nlh);
	const struct rec *q = arg;
	struct nlattr *tb[TCA_MAX + 1], *st[TCA_STATS_MAX + 1], *app[TCA_AIRFAIR_CSTATS_MAX + 1];
	struct rec *r;

	if (nlh->nlmsg_type != RTM_NEWTCLASS || tcm->tcm_ifindex != q->ifindex ||
	    (tcm->tcm_handle & 0xffff0000u) != q->handle)
		return NL_OK;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) || !is_airfair(tb) ||
	    !tb[TCA_STATS2] || nla_parse_nested(st, TCA_STATS_MAX, tb[TCA_STATS2], NULL) ||
	    !st[TCA_STATS_APP] ||
	    nla_parse_nested(app, TCA_AIRFAIR_CSTATS_MAX, st[TCA_STATS_APP], NULL) ||
	    !app[TCA_AIRFAIR_CSTATS_ADDR] || nla_len(app[TCA_AIRFAIR_CSTATS_ADDR]) != 6)
		return NL_OK;
	r = rec_add(&stations);
	if (!r)
		return NL_STOP;
	r->ifindex = q->ifindex;
	r->handle = q->handle;
	memcpy(r->ifname, q->ifname, sizeof(r->ifname));
	memcpy(r->addr, nla_data(app[TCA_AIRFAIR_CSTATS_ADDR]), 6);
	if (app[TCA_AIRFAIR_CSTATS_SOURCE])
		r->source = nla_get_u8(app[TCA_AIRFAIR_CSTATS_SOURCE]);
	fill(r, station_metrics, N_SM, tb[TCA_STATS2], TCA_AIRFAIR_CSTATS_MAX);
	return NL_OK;
}

static int dump(struct nl_sock *sk, int type, int ifindex, nl_recvmsg_msg_cb_t cb, void *arg)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex };
	int err;

	err = nl_send_simple(sk, type, NLM_F_DUMP, &tcm, sizeof(tcm));
	if (err < 0)
		return err;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	return nl_recvmsgs_default(sk);
}

static const char *handle_str(uint32_t h)
{
	static char buf[16];

	snprintf(buf, sizeof(buf), "%x:", h >> 16);
	return buf;
}

static const char *mac_str(const uint8_t *a)
{
	static char buf[18];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
		 a[0], a[1], a[2], a[3], a[4], a[5]);
	return buf;
}

static const char *source_str(int s)
{
	if (s < 0)
		return "unknown";
	return (size_t)s < sizeof(source_names) / sizeof(source_names[0]) ?
	       source_names[s] : "unknown";
}

/* Interface names are [^/\s] in Linux; escape what the text format requires anyway. */
static void put_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void put_labels(FILE *f, const struct rec *r, bool station, const char *extra)
{
	fputs("{interface=\"", f);
	put_label(f, r->ifname);
	fprintf(f, "\",qdisc=\"%s\"", handle_str(r->handle));
	if (station)
		fprintf(f, ",station=\"%s\",source=\"%s\"", mac_str(r->addr), source_str(r->source));
	if (extra)
		fprintf(f, ",%s", extra);
	fputc('}', f);
}

static void prometheus_group(FILE *f, const char *prefix, const struct metric *m, size_t n,
			     const struct recs *recs, bool station)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		/* one HELP/TYPE per name; rows sharing the name (drop reasons) follow it */
		for (k = 0; k < i && strcmp(m[k].name, m[i].name); k++)
			;
		if (k < i)
			continue;
		fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", prefix, m[i].name, m[i].help,
			prefix, m[i].name, m[i].kind == COUNTER ? "counter" : "gauge");
		for (k = i; k < n; k++) {
			if (strcmp(m[k].name, m[i].name))
				continue;
			for (j = 0; j < recs->n; j++) {
				if (!recs->v[j].have[k])
					continue;
				fprintf(f, "%s%s", prefix, m[k].name);
				put_labels(f, &recs->v[j], station, m[k].label);
				fprintf(f, " %.9g\n", recs->v[j].value[k]);
			}
		}
	}
}

static void json_values(FILE *f, const struct rec *r, const struct metric *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!r->have[i])
			continue;
		if (m[i].label)		/* drops_total{reason="x"} -> "drops_x_total" */
			fprintf(f, ",\"drops_%.*s_total\":%.9g",
				(int)(strlen(m[i].label) - strlen("reason=\"\"")),
				m[i].label + strlen("reason=\""), r->value[i]);
		else
			fprintf(f, ",\"%s\":%.9g", m[i].name, r->value[i]);
	}
}

static void json(FILE *f)
{
	size_t i, j;
	bool first_sta;

	fputs("[", f);
	for (i = 0; i < qdiscs.n; i++) {
		const struct rec *q = &qdiscs.v[i];

		fprintf(f, "%s{\"interface\":\"", i ? "," : "");
		put_label(f, q->ifname);
		fprintf(f, "\",\"qdisc\":\"%s\"", handle_str(q->handle));
		json_values(f, q, qdisc_metrics, N_QM);
		fputs(",\"stations\":[", f);
		first_sta = true;
		for (j = 0; j < stations.n; j++) {
			const struct rec *s = &stations.v[j];

			if (s->ifindex != q->ifindex || s->handle != q->handle)
				continue;
			fprintf(f, "%s{\"station\":\"%s\",\"source\":\"%s\"", first_sta ? "" : ",",
				mac_str(s->addr), source_str(s->source));
			json_values(f, s, station_metrics, N_SM);
			fputs("}", f);
			first_sta = false;
		}
		fputs("]}", f);
	}
	fputs("]\n", f);
}

static void usage(FILE *f)
{
	fputs("Usage: airfair-stat [-j|--json] [-o|--output FILE] [IFACE...]\n"
	      "Statistics of the airfair qdiscs on IFACE (default: every interface) and of\n"
	      "their stations, in the Prometheus text format or, with --json, as JSON.\n"
	      "  -o FILE  write FILE atomically (node_exporter textfile collector)\n", f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	char tmp[4096];
	bool as_json = false;
	struct nl_sock *sk;
	FILE *f = stdout;
	size_t i, nq;
	int c, err;

	while ((c = getopt_long(argc, argv, "jo:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			as_json = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}

	sk = nl_socket_alloc();
	if (!sk || nl_connect(sk, NETLINK_ROUTE)) {
		fprintf(stderr, "airfair-stat: cannot open rtnetlink\n");
		return 1;
	}
	/* no interface named: one dump of them all (ifindex 0) */
	for (i = optind; i < (size_t)argc || i == (size_t)optind; i++) {
		int ifindex = 0;

		if (i < (size_t)argc) {
			ifindex = if_nametoindex(argv[i]);
			if (!ifindex) {
				fprintf(stderr, "airfair-stat: no interface '%s'\n", argv[i]);
				return 1;
			}
		}
		err = dump(sk, RTM_GETQDISC, ifindex, on_qdisc, &ifindex);
		if (err < 0) {
			fprintf(stderr, "airfair-stat: qdisc dump: %s\n", nl_geterror(err));
			return 1;
		}
	}
	nq = qdiscs.n;
	for (i = 0; i < nq; i++) {
		struct rec q = qdiscs.v[i];	/* the array may move while stations are added */

		err = dump(sk, RTM_GETTCLASS, q.ifindex, on_class, &q);
		if (err < 0) {
			fprintf(stderr, "airfair-stat: class dump on %s: %s\n", q.ifname,
				nl_geterror(err));
			return 1;
		}
	}
	nl_socket_free(sk);

	if (output) {
		if (snprintf(tmp, sizeof(tmp), "%s.tmp", output) >= (int)sizeof(tmp)) {
			fprintf(stderr, "airfair-stat: output path too long\n");
			return 1;
		}
		f = fopen(tmp, "w");
		if (!f) {
			fprintf(stderr, "airfair-stat: %s: %s\n", tmp, strerror(errno));
			return 1;
		}
	}
	if (as_json) {
		json(f);
	} else {
		prometheus_group(f, "airfair_", qdisc_metrics, N_QM, &qdiscs, false);
		prometheus_group(f, "airfair_station_", station_metrics, N_SM, &stations, true);
	}
	if (output) {
		if (fclose(f) || rename(tmp, output)) {
			fprintf(stderr, "airfair-stat: %s: %s\n", output, strerror(errno));
			unlink(tmp);
			return 1;
		}
	} else if (fflush(stdout)) {
		return 1;
	}
	return 0;
}

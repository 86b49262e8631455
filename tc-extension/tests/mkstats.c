// SPDX-License-Identifier: GPL-2.0
/* Write a synthetic qdisc + class dump with airfair xstats to stdout, in the
 * "tc monitor file" format, to exercise print_xstats on the host. */
#include <stdio.h>
#include <string.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_sched.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched_airfair.h>

static char buf[4096];
static struct nlmsghdr *h = (struct nlmsghdr *)buf;

static struct rtattr *put(int type, const void *d, int len)
{
	struct rtattr *a = (struct rtattr *)(buf + NLMSG_ALIGN(h->nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (d)
		memcpy(RTA_DATA(a), d, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}
static void end(struct rtattr *a) { a->rta_len = buf + h->nlmsg_len - (char *)a; }
static void u32(int t, __u32 v) { put(t, &v, 4); }
static void u64(int t, __u64 v) { put(t, &v, 8); }

static void rate(int type, const struct tc_airfair_rate *r)
{
	struct rtattr *n = put(type, NULL, 0);

	put(TCA_AIRFAIR_RATE_MODE, &r->mode, 1);
	put(TCA_AIRFAIR_RATE_MCS, &r->mcs, 1);
	put(TCA_AIRFAIR_RATE_NSS, &r->nss, 1);
	put(TCA_AIRFAIR_RATE_BW, &r->bw, 1);
	put(TCA_AIRFAIR_RATE_GI, &r->gi, 1);
	put(TCA_AIRFAIR_RATE_FLAGS, &r->flags, 1);
	put(TCA_AIRFAIR_RATE_LEGACY, &r->legacy, 2);
	end(n);
}

static void msg(int type, __u32 handle, __u32 parent)
{
	struct tcmsg *t;

	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = type;
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*t));
	t = NLMSG_DATA(h);
	t->tcm_ifindex = 1;
	t->tcm_handle = handle;
	t->tcm_parent = parent;
	put(TCA_KIND, "airfair", 8);
}

int main(void)
{
	struct gnet_stats_basic b = { .bytes = 1000, .packets = 10 };
	struct rtattr *s, *app, *o;
	__u8 mac[6] = { 2, 0, 0, 0, 0, 0x42 };
	struct tc_airfair_rate r = { .mode = AIRFAIR_MODE_VHT, .mcs = 9, .nss = 2,
				     .bw = AIRFAIR_BW_80, .gi = AIRFAIR_GI_SHORT };
	struct tc_airfair_rate up = { .mode = AIRFAIR_MODE_VHT, .mcs = 9, .nss = 1,
				      .bw = AIRFAIR_BW_80, .gi = AIRFAIR_GI_SHORT };
	__u16 w = 2;
	__u8 src = AIRFAIR_SRC_FEEDER;
	int i;

	msg(RTM_NEWQDISC, 0x80010000, TC_H_ROOT);
	o = put(TCA_OPTIONS, NULL, 0);
	u32(TCA_AIRFAIR_LIMIT, 10240);
	end(o);
	s = put(TCA_STATS2, NULL, 0);
	put(TCA_STATS_BASIC, &b, sizeof(b));
	app = put(TCA_STATS_APP, NULL, 0);
	u64(TCA_AIRFAIR_STATS_AIRTIME, 123456789012ULL);
	for (i = TCA_AIRFAIR_STATS_STATIONS; i <= TCA_AIRFAIR_STATS_MAX; i++)
		u32(i, 100 + i);
	end(app);
	end(s);
	fwrite(buf, 1, h->nlmsg_len, stdout);

	msg(RTM_NEWTCLASS, 0x80010001, 0x80010000);
	o = put(TCA_OPTIONS, NULL, 0);
	put(TCA_AIRFAIR_STA_ADDR, mac, 6);
	put(TCA_AIRFAIR_STA_WEIGHT, &w, 2);
	rate(TCA_AIRFAIR_STA_RATE, &r);
	u32(TCA_AIRFAIR_STA_LOSS, 3277);
	end(o);
	s = put(TCA_STATS2, NULL, 0);
	put(TCA_STATS_BASIC, &b, sizeof(b));
	app = put(TCA_STATS_APP, NULL, 0);
	put(TCA_AIRFAIR_CSTATS_ADDR, mac, 6);
	u64(TCA_AIRFAIR_CSTATS_AIRTIME, 5000000);
	put(TCA_AIRFAIR_CSTATS_WEIGHT, &w, 2);
	rate(TCA_AIRFAIR_CSTATS_RATE, &r);
	u32(TCA_AIRFAIR_CSTATS_RATE_KBPS, 866700);
	u32(TCA_AIRFAIR_CSTATS_LOSS, 3277);
	put(TCA_AIRFAIR_CSTATS_SOURCE, &src, 1);
	for (i = TCA_AIRFAIR_CSTATS_SOURCE_AGE; i <= TCA_AIRFAIR_CSTATS_DROPS; i++)
		u32(i, i == TCA_AIRFAIR_CSTATS_DEFICIT ? (__u32)-500 : 1000 + i);
	u64(TCA_AIRFAIR_CSTATS_PACKETS, 77);
	u64(TCA_AIRFAIR_CSTATS_BYTES, 77000);
	u64(TCA_AIRFAIR_CSTATS_UPLOAD_FRAMES, 1021);
	u64(TCA_AIRFAIR_CSTATS_BACKLOGGED, 12345678);
	u64(TCA_AIRFAIR_CSTATS_SETTLED, (__u64)-4321);
	u64(TCA_AIRFAIR_CSTATS_TOLD_AIR, 3000000);
	u64(TCA_AIRFAIR_CSTATS_TOLD_WAIT, 1995679);
	o = put(TCA_AIRFAIR_CSTATS_TOLD_COUNTS, NULL, 0);
	u64(TCA_AIRFAIR_TOLD_PPDUS, 12000);
	u64(TCA_AIRFAIR_TOLD_WINDOWS, 19000);
	u64(TCA_AIRFAIR_TOLD_DATA, 4000000);
	u64(TCA_AIRFAIR_TOLD_SINGLE, 3000);
	u64(TCA_AIRFAIR_TOLD_LTFS, 26000);
	end(o);
	u32(TCA_AIRFAIR_CSTATS_EXPECTED_TPUT, 420000);
	u32(TCA_AIRFAIR_CSTATS_PENDING_AIRTIME, 2500);
	u32(TCA_AIRFAIR_CSTATS_PHY_PENDING_AIRTIME, 6000);
	u32(TCA_AIRFAIR_CSTATS_RTT_US, 20300);
	u32(TCA_AIRFAIR_CSTATS_AMPDU_USED_X16, 7 * 16 + 6);
	u32(TCA_AIRFAIR_CSTATS_AMPDU, 7 * 16 + 6);
	u32(TCA_AIRFAIR_CSTATS_ACKED, 5 * 16 + 4);
	u32(TCA_AIRFAIR_CSTATS_PPDU_LOSS, 20447);
	u32(TCA_AIRFAIR_CSTATS_CW_SCALE, 23);
	rate(TCA_AIRFAIR_CSTATS_UP_RATE, &up);
	u32(TCA_AIRFAIR_CSTATS_UP_RATE_KBPS, 390000);
	u32(TCA_AIRFAIR_CSTATS_UP_LOSS, 6554);
	u32(TCA_AIRFAIR_CSTATS_UP_AMPDU_USED_X16, 12 * 16);
	u32(TCA_AIRFAIR_CSTATS_UP_AMPDU, 12 * 16 + 3);
	end(app);
	end(s);
	fwrite(buf, 1, h->nlmsg_len, stdout);
	return 0;
}

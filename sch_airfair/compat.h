/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel API differences between the supported releases (6.1 and 6.12),
 * each behind one named helper.
 */
#ifndef _SCH_AIRFAIR_COMPAT_H
#define _SCH_AIRFAIR_COMPAT_H

#include <linux/version.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/pkt_sched.h>
#include <net/pkt_cls.h>

/* 6.10 added per-kind module aliases so tc can autoload the qdisc. */
#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id) MODULE_ALIAS("net-sch-" id)
#endif

/*
 * One class-walk step: 6.2 added tc_qdisc_stats_dump(), which honours
 * walker->skip and ->stop and counts.
 */
static inline bool airfair_walk_step(struct Qdisc *sch, unsigned long cl,
				     struct qdisc_walker *arg)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return tc_qdisc_stats_dump(sch, cl, arg);
#else
	if (arg->count < arg->skip) {
		arg->count++;
		return true;
	}
	if (arg->fn(sch, cl, arg) < 0) {
		arg->stop = 1;
		return false;
	}
	arg->count++;
	return true;
#endif
}

/* 6.5 made a TX queue's sleeping qdisc an RCU pointer (under RTNL here). */
static inline struct Qdisc *airfair_txq_sleeping(struct netdev_queue *txq)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	return rtnl_dereference(txq->qdisc_sleeping);
#else
	return txq->qdisc_sleeping;
#endif
}

/* 6.2 moved clearing qlen and backlog on reset into the qdisc core. */
static inline void airfair_reset_counters(struct Qdisc *sch)
{
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
}

#endif /* _SCH_AIRFAIR_COMPAT_H */

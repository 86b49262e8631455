// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair: optional binding to the mac80211 station TX report hook
 * (mac80211-patches/, docs/mac80211-hook.md).
 *
 * The hook is looked up at run time with __symbol_get(), never linked: on a
 * kernel whose mac80211 lacks the patch (or before mac80211 is loaded) the
 * qdisc loads and works with its other sources (tc, airfair-feeder). A
 * module notifier binds as soon as a mac80211 carrying the hook goes live.
 * Binding takes a reference on mac80211, dropped at unload.
 *
 * Reports arrive in mac80211's TX status path (atomic). They are queued,
 * with a reference on the device, and applied by a work item under RTNL to
 * every airfair qdisc of the device (root, or children of mq) with source
 * AIRFAIR_SRC_HOOK, which tc and the feeder cannot override.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <net/cfg80211.h>
#include <net/sch_generic.h>
#include "airfair.h"
#include "compat.h"

/*
 * The hook's ABI, as include/net/mac80211.h of a patched kernel declares it
 * (struct ieee80211_sta_tx_report, struct ieee80211_tx_report_ops); mirrored
 * under our own names so this builds against stock headers.
 */
struct airfair_m80211_report {
	u32 size;
	struct rate_info rate;
	u32 loss;
	u32 samples;
	u32 expected_throughput;
	u32 sta_pending_airtime;
	u32 phy_pending_airtime;
	u32 ampdu_len;			/* MPDUs per PPDU, 1/16 */
	struct rate_info rx_rate;
	u32 rx_retry;
	u32 rx_ampdu_len;		/* what the station sends, as ampdu_len */
	u32 ack_len;			/* MPDUs acknowledged per PPDU, 1/16 */
	u32 ppdu_loss;			/* PPDUs with no ACK/BlockAck, q16 */
	u32 cw_scale;			/* their mean 2^retry, 1/16 */
	u32 tx_ppdus[AIRFAIR_NUM_ACS];	/* running count per AC, wraps */
	u32 tx_windows[AIRFAIR_NUM_ACS];	/* theirs, in CWmin + 1 */
	u32 tx_data[AIRFAIR_NUM_ACS];	/* their MPDUs, 2^20 / Mbit/s each */
	u32 tx_single[AIRFAIR_NUM_ACS];	/* those of one MPDU (ACK) */
	u32 tx_ltfs[AIRFAIR_NUM_ACS];	/* their preambles' long training fields */
	u32 sec_len;			/* bytes its key adds to an MPDU */
	u32 txop_us[AIRFAIR_NUM_ACS];	/* its interface's TXOP limits */
};

/* the layout above: ieee80211_tx_report_abi() of a mac80211 it fits */
#define AIRFAIR_HOOK_ABI	9

struct airfair_m80211_ops {
	void (*sta_report)(struct net_device *dev, const u8 *addr,
			   const struct airfair_m80211_report *report);
	void (*sta_removed)(struct net_device *dev, const u8 *addr);
};

typedef int (*airfair_m80211_register_t)(const struct airfair_m80211_ops *ops);
typedef void (*airfair_m80211_unregister_t)(const struct airfair_m80211_ops *ops);
typedef u32 (*airfair_m80211_abi_t)(void);
typedef int (*airfair_m80211_get_t)(struct net_device *dev, const u8 *addr,
				    struct airfair_m80211_report *report);

#define AIRFAIR_HOOK_REGISTER	"ieee80211_tx_report_register"
#define AIRFAIR_HOOK_UNREGISTER	"ieee80211_tx_report_unregister"
#define AIRFAIR_HOOK_GET	"ieee80211_tx_report_get"
#define AIRFAIR_HOOK_ABI_SYM	"ieee80211_tx_report_abi"
#define AIRFAIR_HOOK_PENDING	256	/* queued updates; more are dropped */
#define AIRFAIR_ALL_ACS		(BIT(AIRFAIR_NUM_ACS) - 1)

struct airfair_hook_update {
	struct net_device *dev;		/* held */
	u8 addr[ETH_ALEN];
	bool removed;
	struct rate_info rate;
	u32 loss;
	u32 expected_kbps;
	u32 sta_pending_us;
	u32 phy_pending_us;
	u32 ampdu_x16;
	struct rate_info rx_rate;
	u32 rx_retry;
	u32 rx_ampdu_x16;
	u32 ack_x16;
	u32 ppdu_loss;
	u32 cw_x16;
	u32 sec_len;
	u32 txop_us[AIRFAIR_NUM_ACS];
	struct airfair_told told;
};

static DEFINE_MUTEX(airfair_hook_mutex);	/* binding */
static airfair_m80211_unregister_t airfair_hook_unreg;
static airfair_m80211_get_t airfair_hook_get;	/* optional */
static bool airfair_hook_exiting;

static DEFINE_SPINLOCK(airfair_hook_lock);	/* the queue */
static struct airfair_hook_update airfair_hook_queue[AIRFAIR_HOOK_PENDING];
static unsigned int airfair_hook_len;
static unsigned long airfair_hook_dropped;

static void airfair_hook_work_fn(struct work_struct *work);
static DECLARE_WORK(airfair_hook_work, airfair_hook_work_fn);
static void airfair_hook_bind_fn(struct work_struct *work);
static DECLARE_WORK(airfair_hook_bind_work, airfair_hook_bind_fn);

static bool airfair_phy_is_2g(u8 phy)
{
	return phy == AIRFAIR_PHY_11B || phy == AIRFAIR_PHY_11G ||
	       phy == AIRFAIR_PHY_11N_2G || phy == AIRFAIR_PHY_11AX_2G;
}

/*
 * cfg80211's rate_info -> our descriptor (airfair_rate_from_info, shared with
 * airfair-feeder); the band comes from the PHY preset. rate_info carries no
 * preamble: DSSS rates are taken with the long one.
 */
static int airfair_hook_rate(const struct rate_info *ri, u8 phy,
			     struct tc_airfair_rate *r)
{
	static const u16 width_mhz[] = {
		[RATE_INFO_BW_5] = 5, [RATE_INFO_BW_10] = 10,
		[RATE_INFO_BW_20] = 20, [RATE_INFO_BW_40] = 40,
		[RATE_INFO_BW_80] = 80, [RATE_INFO_BW_160] = 160,
		[RATE_INFO_BW_HE_RU] = 0, [RATE_INFO_BW_320] = 320,
	};
	struct airfair_rate_info in = {
		.mcs = ri->mcs,
		.nss = ri->nss,
		.short_gi = ri->flags & RATE_INFO_FLAGS_SHORT_GI,
		.he_gi = ri->he_gi,
		.he_ru = ri->bw == RATE_INFO_BW_HE_RU,
		.legacy = ri->legacy,
	};
	const char *why;

	if (ri->bw < ARRAY_SIZE(width_mhz))
		in.width_mhz = width_mhz[ri->bw];
	if (ri->flags & RATE_INFO_FLAGS_MCS)
		in.kind = AIRFAIR_RI_HT;
	else if (ri->flags & RATE_INFO_FLAGS_VHT_MCS)
		in.kind = AIRFAIR_RI_VHT;
	else if (ri->flags & RATE_INFO_FLAGS_HE_MCS)
		in.kind = AIRFAIR_RI_HE;
	else if (!ri->flags)
		in.kind = AIRFAIR_RI_LEGACY;
	else
		in.kind = AIRFAIR_RI_OTHER;
	return airfair_rate_from_info(&in, airfair_phy_is_2g(phy), false, r,
				      &why);
}

static bool airfair_is_ours(const struct Qdisc *sch)
{
	return sch && sch->ops->owner == THIS_MODULE &&
	       !strcmp(sch->ops->id, "airfair");
}

static void airfair_hook_apply(struct Qdisc *sch,
			       const struct airfair_hook_update *u,
			       unsigned int acs)
{
	struct airfair_sched *q = qdisc_priv(sch);
	u32 up_loss = min_t(u32, u->rx_retry, AIRFAIR_LOSS_ONE - 1);
	u32 loss = min_t(u32, u->loss, AIRFAIR_LOSS_ONE - 1);
	struct tc_airfair_rate rate, up_rate;
	struct airfair_sta_costs costs;
	struct airfair_sta *sta;
	bool has_rate, has_up;
	int i;

	sch_tree_lock(sch);
	if (!q->stas)
		goto out;
	if (u->removed) {
		sta = airfair_sta_find(q, u->addr);
		if (sta && sta->source == AIRFAIR_SRC_HOOK) {
			sta->source = AIRFAIR_SRC_DEFAULT;
			sta->loss_q16 = 0;
			sta->expected_kbps = 0;
			sta->pending_us = 0;
			sta->ampdu_x16 = 0;
			sta->up_ampdu_x16 = 0;
			sta->ack_x16 = 0;
			sta->ppdu_loss_q16 = 0;
			sta->cw_x16 = 0;
			sta->told_valid = false;
			sta->has_up_rate = false;
			sta->has_sec_len = false;
			sta->has_txop = false;
			sta->source_changed = jiffies;
			airfair_sta_update_costs(q, sta);
		}
		goto out;
	}
	has_rate = !airfair_hook_rate(&u->rate, q->cfg.timing.phy, &rate) &&
		   !airfair_costs_for(&q->cfg, &rate, loss, &costs);
	has_up = !airfair_hook_rate(&u->rx_rate, q->cfg.timing.phy, &up_rate) &&
		 !airfair_costs_for(&q->cfg, &up_rate, up_loss, &costs);
	sta = airfair_sta_get(q, u->addr);
	if (!sta || sta == q->overflow || sta == q->mcast)
		goto out;
	if (!has_rate && sta->source == AIRFAIR_SRC_DEFAULT)
		goto out;	/* nothing to charge by but the default rate */
	if ((has_rate && memcmp(&sta->rate, &rate, sizeof(rate))) ||
	    sta->loss_q16 != loss || sta->source != AIRFAIR_SRC_HOOK)
		sta->source_changed = jiffies;
	if (has_rate)
		sta->rate = rate;
	sta->loss_q16 = loss;
	if (has_up) {
		sta->up_rate = up_rate;
		sta->up_loss_q16 = up_loss;
	}
	sta->has_up_rate = has_up;
	sta->ampdu_x16 = min_t(u32, u->ampdu_x16,
			       AIRFAIR_MAX_AMPDU * AIRFAIR_AMPDU_ONE);
	sta->up_ampdu_x16 = min_t(u32, u->rx_ampdu_x16,
				  AIRFAIR_MAX_AMPDU * AIRFAIR_AMPDU_ONE);
	sta->ack_x16 = min_t(u32, u->ack_x16, sta->ampdu_x16);
	sta->ppdu_loss_q16 = min_t(u32, u->ppdu_loss, AIRFAIR_LOSS_ONE - 1);
	sta->cw_x16 = min_t(u32, u->cw_x16, U16_MAX);
	sta->sec_len = min_t(u32, u->sec_len, AIRFAIR_MAX_SEC_LEN);
	sta->has_sec_len = true;
	for (i = 0; i < AIRFAIR_NUM_ACS; i++)
		sta->txop_us[i] = min_t(u32, u->txop_us[i], AIRFAIR_TXOP_MAX_US);
	sta->has_txop = true;
	sta->source = AIRFAIR_SRC_HOOK;
	sta->expected_kbps = u->expected_kbps;
	sta->pending_us = u->sta_pending_us;
	q->phy_pending_us = u->phy_pending_us;
	sta->last_active = jiffies;
	airfair_sta_update_costs(q, sta);
	airfair_settle(q, sta, airfair_sta_settle_ns(q, sta, &u->told, acs));
out:
	sch_tree_unlock(sch);
}

static void airfair_hook_apply_dev(const struct airfair_hook_update *u)
{
	struct net_device *dev = u->dev;
	struct Qdisc *root = rtnl_dereference(dev->qdisc);
	unsigned int i;

	if (!(dev->flags & IFF_UP) || !root)
		return;
	if (airfair_is_ours(root)) {
		airfair_hook_apply(root, u, AIRFAIR_ALL_ACS);
		return;
	}
	/*
	 * airfair under mq: one instance per TX queue, mac80211's queue i
	 * AC i where it has four; with fewer, no instance sees an AC alone
	 * and none settles the running counts.
	 */
	for (i = 0; i < dev->num_tx_queues; i++) {
		struct Qdisc *sch = airfair_txq_sleeping(netdev_get_tx_queue(dev, i));

		if (airfair_is_ours(sch))
			airfair_hook_apply(sch, u,
					   dev->num_tx_queues == AIRFAIR_NUM_ACS ?
					   BIT(i) : 0);
	}
}

static void airfair_hook_work_fn(struct work_struct *work)
{
	struct airfair_hook_update *batch;
	unsigned int n, i;

	batch = kmalloc_array(AIRFAIR_HOOK_PENDING, sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return;		/* the queue stays; the next report retries */
	spin_lock_irq(&airfair_hook_lock);
	n = airfair_hook_len;
	memcpy(batch, airfair_hook_queue, n * sizeof(*batch));
	airfair_hook_len = 0;
	spin_unlock_irq(&airfair_hook_lock);
	rtnl_lock();
	for (i = 0; i < n; i++)
		airfair_hook_apply_dev(&batch[i]);
	rtnl_unlock();
	for (i = 0; i < n; i++)
		dev_put(batch[i].dev);
	kfree(batch);
}

/* Queue an update (latest wins per station); any context. */
static void airfair_hook_queue_update(struct net_device *dev, const u8 *addr,
				      const struct airfair_m80211_report *r)
{
	struct airfair_hook_update *u = NULL;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&airfair_hook_lock, flags);
	for (i = 0; i < airfair_hook_len; i++) {
		if (airfair_hook_queue[i].dev == dev &&
		    ether_addr_equal(airfair_hook_queue[i].addr, addr)) {
			u = &airfair_hook_queue[i];
			break;
		}
	}
	if (!u) {
		if (airfair_hook_len == AIRFAIR_HOOK_PENDING) {
			airfair_hook_dropped++;
			goto unlock;
		}
		u = &airfair_hook_queue[airfair_hook_len++];
		dev_hold(dev);
		u->dev = dev;
		ether_addr_copy(u->addr, addr);
	}
	u->removed = !r;
	if (r) {
		u->rate = r->rate;
		u->loss = r->loss;
		u->expected_kbps = r->expected_throughput;
		u->sta_pending_us = r->sta_pending_airtime;
		u->phy_pending_us = r->phy_pending_airtime;
		u->ampdu_x16 = r->ampdu_len;
		u->rx_rate = r->rx_rate;
		u->rx_retry = r->rx_retry;
		u->rx_ampdu_x16 = r->rx_ampdu_len;
		u->ack_x16 = r->ack_len;
		u->ppdu_loss = r->ppdu_loss;
		u->cw_x16 = r->cw_scale;
		u->sec_len = r->sec_len;
		memcpy(u->txop_us, r->txop_us, sizeof(u->txop_us));
		memcpy(u->told.ppdus, r->tx_ppdus, sizeof(u->told.ppdus));
		memcpy(u->told.windows, r->tx_windows, sizeof(u->told.windows));
		memcpy(u->told.data, r->tx_data, sizeof(u->told.data));
		memcpy(u->told.single, r->tx_single, sizeof(u->told.single));
		memcpy(u->told.ltfs, r->tx_ltfs, sizeof(u->told.ltfs));
	}
	schedule_work(&airfair_hook_work);
unlock:
	spin_unlock_irqrestore(&airfair_hook_lock, flags);
}

static void airfair_hook_sta_report(struct net_device *dev, const u8 *addr,
				    const struct airfair_m80211_report *report)
{
	struct Qdisc *root = rcu_dereference(dev->qdisc);

	/* only devices with an airfair qdisc (at the root or under mq) */
	if (report->size < sizeof(*report) || !is_valid_ether_addr(addr) ||
	    !root ||
	    (!airfair_is_ours(root) && strcmp(root->ops->id, "mq")))
		return;
	airfair_hook_queue_update(dev, addr, report);
}

static void airfair_hook_sta_removed(struct net_device *dev, const u8 *addr)
{
	airfair_hook_queue_update(dev, addr, NULL);
}

static const struct airfair_m80211_ops airfair_hook_ops = {
	.sta_report	= airfair_hook_sta_report,
	.sta_removed	= airfair_hook_sta_removed,
};

static void airfair_hook_try_bind(void)
{
	airfair_m80211_register_t reg;
	airfair_m80211_unregister_t unreg;
	airfair_m80211_abi_t abi;
	u32 version;
	int err;

	mutex_lock(&airfair_hook_mutex);
	if (airfair_hook_unreg || airfair_hook_exiting)
		goto out;
	/* a hook of another layout (or the first, which had no version) */
	abi = (airfair_m80211_abi_t)__symbol_get(AIRFAIR_HOOK_ABI_SYM);
	version = abi ? abi() : 1;
	if (abi)
		__symbol_put(AIRFAIR_HOOK_ABI_SYM);
	if (version != AIRFAIR_HOOK_ABI) {
		if (__symbol_get(AIRFAIR_HOOK_REGISTER)) {
			__symbol_put(AIRFAIR_HOOK_REGISTER);
			pr_warn("sch_airfair: mac80211 TX report hook ABI %u, this module needs %u: not bound (rebuild mac80211 with this release's mac80211-patches)\n",
				version, AIRFAIR_HOOK_ABI);
		}
		goto out;
	}
	reg = (airfair_m80211_register_t)__symbol_get(AIRFAIR_HOOK_REGISTER);
	if (!reg)
		goto out;
	unreg = (airfair_m80211_unregister_t)__symbol_get(AIRFAIR_HOOK_UNREGISTER);
	if (!unreg) {
		__symbol_put(AIRFAIR_HOOK_REGISTER);
		goto out;
	}
	err = reg(&airfair_hook_ops);
	__symbol_put(AIRFAIR_HOOK_REGISTER);
	if (err) {
		__symbol_put(AIRFAIR_HOOK_UNREGISTER);
		pr_info("sch_airfair: mac80211 TX report hook busy (%d), not bound\n",
			err);
		goto out;
	}
	airfair_hook_unreg = unreg;	/* keeps its module reference */
	/* the pull side is optional; it keeps its reference until unbind */
	WRITE_ONCE(airfair_hook_get,
		   (airfair_m80211_get_t)__symbol_get(AIRFAIR_HOOK_GET));
	pr_info("sch_airfair: bound to the mac80211 TX report hook\n");
out:
	mutex_unlock(&airfair_hook_mutex);
}

static void airfair_hook_bind_fn(struct work_struct *work)
{
	airfair_hook_try_bind();
}

static int airfair_hook_module_event(struct notifier_block *nb,
				     unsigned long state, void *data)
{
	struct module *mod = data;

	if (state == MODULE_STATE_LIVE && !strcmp(mod->name, "mac80211"))
		schedule_work(&airfair_hook_bind_work);
	return NOTIFY_DONE;
}

static struct notifier_block airfair_hook_module_nb = {
	.notifier_call = airfair_hook_module_event,
};

bool airfair_hook_bound(void)
{
	return READ_ONCE(airfair_hook_unreg);
}

/*
 * A station's live pending airtime and expected throughput, straight from
 * mac80211 (process context; the pushed reports are up to 100 ms old and stop
 * when the station goes idle, so a dump asks afresh). The symbol reference
 * taken at bind time keeps mac80211 loaded while this module is.
 */
int airfair_hook_query(struct net_device *dev, const u8 *addr,
		       u32 *expected_kbps, u32 *sta_pending_us,
		       u32 *phy_pending_us)
{
	airfair_m80211_get_t get = READ_ONCE(airfair_hook_get);
	struct airfair_m80211_report r;
	int err;

	if (!get)
		return -EOPNOTSUPP;
	err = get(dev, addr, &r);
	if (err)
		return err;
	if (r.size < sizeof(r))
		return -EPROTO;
	*expected_kbps = r.expected_throughput;
	*sta_pending_us = r.sta_pending_airtime;
	*phy_pending_us = r.phy_pending_airtime;
	return 0;
}

void airfair_hook_init(void)
{
	register_module_notifier(&airfair_hook_module_nb);
	airfair_hook_try_bind();
}

void airfair_hook_exit(void)
{
	unsigned int i;

	unregister_module_notifier(&airfair_hook_module_nb);
	cancel_work_sync(&airfair_hook_bind_work);
	mutex_lock(&airfair_hook_mutex);
	airfair_hook_exiting = true;
	if (airfair_hook_unreg) {
		/* returns once no callback runs any more */
		airfair_hook_unreg(&airfair_hook_ops);
		airfair_hook_unreg = NULL;
		__symbol_put(AIRFAIR_HOOK_UNREGISTER);
		if (airfair_hook_get) {
			WRITE_ONCE(airfair_hook_get, NULL);
			__symbol_put(AIRFAIR_HOOK_GET);
		}
	}
	mutex_unlock(&airfair_hook_mutex);
	cancel_work_sync(&airfair_hook_work);
	for (i = 0; i < airfair_hook_len; i++)
		dev_put(airfair_hook_queue[i].dev);
	airfair_hook_len = 0;
	if (airfair_hook_dropped)
		pr_info("sch_airfair: %lu hook updates dropped (queue full)\n",
			airfair_hook_dropped);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-medium: mac80211_hwsim generic-netlink glue. Runs the engine in
 * real time, every simulated duration multiplied by the dilation factor k.
 *
 * Protocol (drivers/net/wireless/[virtual/]mac80211_hwsim.h, 6.1 and 6.12):
 *  - HWSIM_CMD_REGISTER: this socket becomes the medium of the netgroup;
 *  - HWSIM_CMD_FRAME from the kernel: one MPDU to transmit (transmitter
 *    = the radio's second address 42:00:00:XX:YY:00, frame, flags, rate table,
 *    cookie, freq);
 *  - HWSIM_CMD_TX_INFO_FRAME to the kernel: its TX status (ACK flag, the
 *    attempts actually made per rate, signal, cookie) when the exchange ends;
 *  - HWSIM_CMD_FRAME to the kernel: delivery to a receiving radio;
 *  - HWSIM_CMD_NEW_RADIO / DEL_RADIO on the "config" multicast group;
 *    HWSIM_CMD_GET_RADIO dump at start.
 * The constants below are the ABI values of that header (stable since 4.x).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include "medium.h"

enum {
	HWSIM_CMD_UNSPEC, HWSIM_CMD_REGISTER, HWSIM_CMD_FRAME, HWSIM_CMD_TX_INFO_FRAME,
	HWSIM_CMD_NEW_RADIO, HWSIM_CMD_DEL_RADIO, HWSIM_CMD_GET_RADIO,
};
enum {
	HWSIM_ATTR_UNSPEC, HWSIM_ATTR_ADDR_RECEIVER, HWSIM_ATTR_ADDR_TRANSMITTER,
	HWSIM_ATTR_FRAME, HWSIM_ATTR_FLAGS, HWSIM_ATTR_RX_RATE, HWSIM_ATTR_SIGNAL,
	HWSIM_ATTR_TX_INFO, HWSIM_ATTR_COOKIE, HWSIM_ATTR_CHANNELS, HWSIM_ATTR_RADIO_ID,
	HWSIM_ATTR_REG_HINT_ALPHA2, HWSIM_ATTR_REG_CUSTOM_REG, HWSIM_ATTR_REG_STRICT_REG,
	HWSIM_ATTR_SUPPORT_P2P_DEVICE, HWSIM_ATTR_USE_CHANCTX, HWSIM_ATTR_DESTROY_RADIO_ON_CLOSE,
	HWSIM_ATTR_RADIO_NAME, HWSIM_ATTR_NO_VIF, HWSIM_ATTR_FREQ, HWSIM_ATTR_PAD,
	HWSIM_ATTR_TX_INFO_FLAGS, HWSIM_ATTR_PERM_ADDR,
	HWSIM_ATTR_MAX_KNOWN = 32,
};
#define HWSIM_TX_CTL_REQ_TX_STATUS	(1 << 0)
#define HWSIM_TX_CTL_NO_ACK		(1 << 1)
#define HWSIM_TX_STAT_ACK		(1 << 2)
/* testbed/hwsim-patches: MPDUs in bits 8-15, acknowledged in 16-23 */
#define HWSIM_TX_STAT_AMPDU		(1 << 3)
/* of a frame to a radio (testbed/hwsim-patches 0002) */
#define HWSIM_RX_RATE_INFO		(1 << 4)
#define HWSIM_RX_RATE_VHT		(1 << 5)
#define HWSIM_RX_RATE_SGI		(1 << 6)
/* testbed/hwsim-patches 0003: a subframe of A-MPDU number bits 24-31 */
#define HWSIM_RX_AMPDU			(1 << 7)
#define FC1_RETRY			0x08	/* Frame Control, second octet */
#define HWSIM_RC_USE_SHORT_PREAMBLE	(1 << 2)
#define HWSIM_RC_MCS			(1 << 3)
#define HWSIM_RC_40_MHZ_WIDTH		(1 << 5)
#define HWSIM_RC_SHORT_GI		(1 << 7)
#define HWSIM_RC_VHT_MCS		(1 << 8)
#define HWSIM_RC_80_MHZ_WIDTH		(1 << 9)
#define HWSIM_RC_160_MHZ_WIDTH		(1 << 10)

struct hwsim_tx_rate { int8_t idx; uint8_t count; } __attribute__((packed));
struct hwsim_tx_rate_flag { int8_t idx; uint16_t flags; } __attribute__((packed));

/* hwsim's bitrate tables: 2.4 GHz all 12, 5 GHz from index 4 */
static const uint16_t hwsim_rates[12] = { 10, 20, 55, 110, 60, 90, 120, 180, 240, 360, 480, 540 };

#define MAX_MACS 512

/*
 * mac80211_hwsim hands a frame to the medium (genlmsg_unicast) before it puts
 * the frame on its pending queue. A TX status that reaches the kernel in
 * between finds no frame with its cookie and is rejected, and the frame then
 * stays pending in hwsim, its status never given (nothing times it out). A
 * rejected status is therefore sent once more STATUS_RETRY_NS later; one that
 * is rejected again was for a frame hwsim had dropped from a full queue.
 */
#define STATUS_RING 4096	/* statuses remembered by netlink sequence number */
#define STATUS_RETRIES 256	/* rejected statuses waiting to go again */
#define STATUS_RETRY_NS 2000000ULL

struct hw_status {
	uint32_t seq;
	bool used, retried;
	uint64_t due_ns;	/* in the retry queue: when it goes again */
	uint64_t cookie;
	uint8_t tx_addr[6];
	uint32_t flags, signal;
	struct hwsim_tx_rate tx[4];
	struct hwsim_tx_rate_flag txf[4];
};

struct hw_radio {
	bool known;
	uint8_t addr[6];	/* the address hwsim keys the radio by */
	char name[32];
	uint64_t tx_frames, rx_frames;
	uint64_t beacons;	/* sent by this radio, on the air or not */
};

struct hw_priv {
	uint8_t tx_addr[6];
	uint32_t flags;
	struct hwsim_tx_rate rates[4];
	struct hwsim_tx_rate_flag rate_flags[4];
	int nrates_in;
	uint32_t len;
	uint8_t data[];
};

/* A delivery held back by the medium's reorder rule (engine.h: rx_release). */
struct hw_held {
	struct hw_held *next;
	struct nl_msg *msg;
	int src, dst, tid;
	uint64_t seq, since_ns;
};

struct hw_ctx {
	struct ctx_base base;
	struct medium *m;
	struct nl_sock *sock;
	int family;
	double k;
	uint64_t t0;
	struct hw_radio radio[MED_MAX_RADIOS];
	struct { uint8_t mac[6]; int radio; } macs[MAX_MACS];
	int nmacs;
	/* daemon performance */
	uint64_t frames_in, frames_out, status_out, nl_errors, send_errors, qdrops, late_ns_max;
	uint64_t late_ns_sum, late_n;
	uint64_t status_retries, status_retry_rejects;
	uint64_t wmm_taken;	/* WMM elements that changed a station's EDCA */
	/* 1 beacon in beacon_every occupies the air; the others arrive without airtime */
	uint64_t beacon_every, beacons_free;
	struct hw_status status[STATUS_RING];
	/* FIFO: every retry waits the same time, so they fall due in order */
	struct hw_status retry[STATUS_RETRIES];
	unsigned int retry_head, retry_len;
	/* deliveries held for an earlier MPDU of their TID, in delivery order */
	struct hw_held *held, **held_tail;
	uint64_t held_frames, held_ns_max;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t sim_now(struct hw_ctx *h)
{
	return (uint64_t)((mono_ns() - h->t0) / h->k);
}

static void radio_addr_of(int id, uint8_t a[6])
{
	memset(a, 0, 6);
	a[0] = 0x42;
	a[3] = (uint8_t)(id >> 8);
	a[4] = (uint8_t)id;
}

static void learn_mac(struct hw_ctx *h, const uint8_t *mac, int r)
{
	for (int i = 0; i < h->nmacs; i++)
		if (!memcmp(h->macs[i].mac, mac, 6)) {
			if (h->macs[i].radio != r)
				MED_LOG(h->m, 1, "mac %02x:%02x:%02x:%02x:%02x:%02x moved to radio %d\n",
					mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], r);
			h->macs[i].radio = r;
			return;
		}
	if (h->nmacs < MAX_MACS) {
		memcpy(h->macs[h->nmacs].mac, mac, 6);
		h->macs[h->nmacs++].radio = r;
		MED_LOG(h->m, 1, "mac %02x:%02x:%02x:%02x:%02x:%02x is radio %d\n",
			mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], r);
	}
}

static int mac_to_radio(struct hw_ctx *h, const uint8_t *mac)
{
	for (int i = 0; i < h->nmacs; i++)
		if (!memcmp(h->macs[i].mac, mac, 6))
			return h->macs[i].radio;
	/* default vif address = perm address 02:00:00:XX:YY:00 */
	if ((mac[0] & ~0x40) == 0x02 && !mac[1] && !mac[2] && !mac[5]) {
		int id = (mac[3] << 8) | mac[4];

		if (id < MED_MAX_RADIOS && h->radio[id].known)
			return id;
	}
	return -1;
}

static void radio_known(struct hw_ctx *h, int id, const uint8_t *addr, const char *name)
{
	struct hw_radio *r;
	uint8_t perm[6];

	if (id < 0 || id >= MED_MAX_RADIOS) {
		fprintf(stderr, "airfair-medium: radio id %d beyond %d, ignored\n", id, MED_MAX_RADIOS);
		return;
	}
	r = &h->radio[id];
	if (!r->known)
		med_radio_add(h->m, id);
	r->known = true;
	if (addr)
		memcpy(r->addr, addr, 6);
	else
		radio_addr_of(id, r->addr);
	if (name)
		snprintf(r->name, sizeof(r->name), "%s", name);
	else if (!r->name[0])
		snprintf(r->name, sizeof(r->name), "radio%d", id);
	memcpy(perm, r->addr, 6);
	perm[0] &= ~0x40;
	learn_mac(h, perm, id);
}

/* radio index of a transmitter address; learns unknown ones */
static int radio_of_addr(struct hw_ctx *h, const uint8_t *a)
{
	for (int i = 0; i < MED_MAX_RADIOS; i++)
		if (h->radio[i].known && !memcmp(h->radio[i].addr, a, 6))
			return i;
	if (a[0] == 0x42 && !a[1] && !a[2] && !a[5]) {
		int id = (a[3] << 8) | a[4];

		if (id < MED_MAX_RADIOS) {
			radio_known(h, id, a, NULL);
			return id;
		}
	}
	for (int i = MED_MAX_RADIOS - 1; i >= 0; i--)	/* custom perm_addr: take a free slot */
		if (!h->radio[i].known) {
			radio_known(h, i, a, NULL);
			return i;
		}
	return -1;
}

/* QoS data: what a BlockAck agreement covers and an A-MPDU may carry. */
static bool frame_qos_data(const uint8_t *f, uint32_t len)
{
	return len >= 26 && ((f[0] >> 2) & 3) == 2 && (f[0] & 0x80);
}

/* Management, subtype beacon. */
static bool frame_beacon(const uint8_t *f, uint32_t len)
{
	return len >= 24 && (f[0] & 0xfc) == 0x80;
}

/* The TID of a QoS data frame, -1 for any other frame. */
static int frame_tid(const uint8_t *f, uint32_t len)
{
	uint16_t fc = f[0] | (f[1] << 8);
	uint32_t off = (fc & 0x0300) == 0x0300 ? 30 : 24;

	if (((fc >> 2) & 3) != 2 || !(fc & 0x80) || len < off + 2)
		return -1;
	return f[off] & 0xf;
}

static int frame_ac(const uint8_t *f, uint32_t len)
{
	static const int tid2ac[8] = { AIRFAIR_AC_BE, AIRFAIR_AC_BK, AIRFAIR_AC_BK, AIRFAIR_AC_BE,
				       AIRFAIR_AC_VI, AIRFAIR_AC_VI, AIRFAIR_AC_VO, AIRFAIR_AC_VO };
	int tid = frame_tid(f, len);

	if (((f[0] >> 2) & 3) != 2)
		return AIRFAIR_AC_VO;	/* management and control: mac80211 uses the VO queue */
	return tid < 0 ? AIRFAIR_AC_BE : tid2ac[tid & 7];
}

/*
 * An AP's WMM Parameter element: its association response sets the station's
 * EDCA, its beacons keep every station on its channel in step (hostapd bumps
 * the element's count when its wmm_ac_* keys change at run time).
 */
static void wmm_advertised(struct hw_ctx *h, int src, int dst, uint32_t freq,
			   const uint8_t *data, uint32_t len)
{
	struct med_wmm w;
	int chan, changed = 0;

	if (!med_wmm_parse(data, len, &w))
		return;
	if (dst != MED_BCAST) {
		changed = med_wmm_take(h->m, dst, &w);
	} else {
		chan = med_chan_get(h->m, freq);
		for (int r = 0; r < MED_MAX_RADIOS; r++)
			if (r != src && h->m->radio[r].present && h->m->radio[r].chan == chan)
				changed += med_wmm_take(h->m, r, &w);
	}
	if (changed)
		h->wmm_taken++;
}

/* hwsim rate entry -> airtime-model rate descriptor */
static bool conv_rate(int8_t idx, uint16_t fl, uint32_t freq, struct tc_airfair_rate *r)
{
	memset(r, 0, sizeof(*r));
	if (idx < 0)
		return false;
	if (fl & HWSIM_RC_VHT_MCS) {
		r->mode = AIRFAIR_MODE_VHT;
		r->mcs = idx & 0xf;
		r->nss = ((idx >> 4) & 7) + 1;
	} else if (fl & HWSIM_RC_MCS) {
		r->mode = AIRFAIR_MODE_HT;
		r->mcs = idx;
		r->nss = idx / 8 + 1;
	} else {
		int i = freq < 3000 ? idx : idx + 4;

		if (i < 0 || i >= 12)
			return false;
		r->mode = AIRFAIR_MODE_LEGACY;
		r->legacy = hwsim_rates[i];
		if (r->legacy >= 60 && freq < 3000)
			r->flags |= AIRFAIR_RATE_F_ERP;
		if (r->legacy > 10 && r->legacy <= 110 && (fl & HWSIM_RC_USE_SHORT_PREAMBLE))
			r->flags |= AIRFAIR_RATE_F_SHORT_PREAMBLE;
		return airfair_rate_validate(r) == 0;
	}
	r->bw = (fl & HWSIM_RC_160_MHZ_WIDTH) ? AIRFAIR_BW_160 : (fl & HWSIM_RC_80_MHZ_WIDTH) ?
		AIRFAIR_BW_80 : (fl & HWSIM_RC_40_MHZ_WIDTH) ? AIRFAIR_BW_40 : AIRFAIR_BW_20;
	r->gi = (fl & HWSIM_RC_SHORT_GI) ? AIRFAIR_GI_SHORT : AIRFAIR_GI_LONG;
	return airfair_rate_validate(r) == 0;
}

/* a chain's rate as the engine carries it back in reports: hwsim's idx and flags */
static uint32_t rate_tok(int8_t idx, uint16_t fl)
{
	return (uint8_t)idx | (uint32_t)fl << 8;
}

static struct nl_msg *msg_new(struct hw_ctx *h, int cmd)
{
	struct nl_msg *msg = nlmsg_alloc_size(4096 + 64);

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, h->family, 0, 0, cmd, 1)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Send and free @msg; its netlink sequence number, or -1 if it was not sent. */
static int64_t msg_send(struct hw_ctx *h, struct nl_msg *msg)
{
	int err = nl_send_auto(h->sock, msg);
	int64_t seq = nlmsg_hdr(msg)->nlmsg_seq;

	if (err < 0) {
		h->send_errors++;
		MED_LOG(h->m, 1, "netlink send: %s\n", nl_geterror(err));
		seq = -1;
	}
	nlmsg_free(msg);
	return seq;
}

static void status_send(struct hw_ctx *h, const struct hw_status *st)
{
	struct nl_msg *msg = msg_new(h, HWSIM_CMD_TX_INFO_FRAME);
	struct hw_status *slot;
	int64_t seq;

	if (!msg)
		return;
	if (nla_put(msg, HWSIM_ATTR_ADDR_TRANSMITTER, 6, st->tx_addr) ||
	    nla_put_u32(msg, HWSIM_ATTR_FLAGS, st->flags) ||
	    nla_put_u32(msg, HWSIM_ATTR_SIGNAL, st->signal) ||
	    nla_put(msg, HWSIM_ATTR_TX_INFO, sizeof(st->tx), st->tx) ||
	    nla_put(msg, HWSIM_ATTR_TX_INFO_FLAGS, sizeof(st->txf), st->txf) ||
	    nla_put_u64(msg, HWSIM_ATTR_COOKIE, st->cookie)) {
		nlmsg_free(msg);
		return;
	}
	if (!st->retried)
		h->status_out++;
	seq = msg_send(h, msg);
	if (seq < 0)
		return;
	slot = &h->status[seq % STATUS_RING];
	*slot = *st;
	slot->seq = (uint32_t)seq;
	slot->used = true;
}

/*
 * The PPDU attempts a status tells, as mac80211 counts them: the rates'
 * attempts up to the first unused slot, on a status of its own (a frame
 * outside a BlockAck session, or an A-MPDU report); none without an ACK.
 * Their MPDUs: attempts x the report's A-MPDU length (one outside one).
 */
static void status_told(struct hw_ctx *h, const struct med_frame *f,
			const struct hw_status *st)
{
	uint32_t n = 0, len = 1;
	struct med_cell *c;

	if (f->dst < 0 || f->dst == MED_BCAST || (st->flags & HWSIM_TX_CTL_NO_ACK) ||
	    (f->ampdu && !(st->flags & HWSIM_TX_STAT_AMPDU)))
		return;
	c = &h->m->cell[f->src][f->dst][f->ac];
	if ((st->flags & HWSIM_TX_STAT_AMPDU) && (st->flags >> 8 & 0xff))
		len = st->flags >> 8 & 0xff;
	for (int i = 0; i < 4 && st->tx[i].idx >= 0; i++) {
		struct tc_airfair_rate r;
		uint32_t kbps;

		n += st->tx[i].count;
		if (conv_rate(st->tx[i].idx, st->txf[i].flags, f->freq, &r) &&
		    (kbps = airfair_rate_kbps(&r)))
			c->told_byte_us += (double)st->tx[i].count * len * 8000.0 / kbps;
	}
	c->told += n;
	c->told_mpdus += (uint64_t)n * len;
}

static void send_status(struct hw_ctx *h, struct med_frame *f)
{
	struct hw_priv *p = f->priv;
	struct hw_status st = { .flags = p->flags, .cookie = f->cookie };

	if (!h->radio[f->src].known)
		return;
	for (int i = 0; i < 4; i++) {
		st.tx[i].idx = -1;
		st.tx[i].count = 0;
		st.txf[i] = p->rate_flags[i];
	}
	for (int i = 0; i < p->nrates_in && i < 4; i++) {
		if (!f->used[i])
			break;
		st.tx[i].idx = p->rates[i].idx;
		st.tx[i].count = f->used[i];
	}
	if (f->acked && !f->dropped && !(p->flags & HWSIM_TX_CTL_NO_ACK))
		st.flags |= HWSIM_TX_STAT_ACK;
	if (f->rep_len) {
		/*
		 * The A-MPDU report (testbed/hwsim-patches: HWSIM_TX_STAT_AMPDU; a
		 * stock hwsim ignores these bits), as a radio reports an A-MPDU it
		 * retried down its chain: minstrel_ht counts count x rep_len
		 * attempts at each rate given and rep_ack successes at the last,
		 * mac80211's hook one PPDU per attempt. The rates are the ones the
		 * attempts went at, with their flags (the patched hwsim takes
		 * HWSIM_ATTR_TX_INFO_FLAGS on a report), whatever this frame's chain.
		 */
		st.flags |= HWSIM_TX_STAT_AMPDU | (uint32_t)f->rep_len << 8 |
			    (uint32_t)f->rep_ack << 16;
		for (int i = 0; i < 4; i++) {
			bool set = i < f->rep_n;

			st.tx[i].idx = set ? (int8_t)(f->rep_tok[i] & 0xff) : -1;
			st.tx[i].count = set ? f->rep_count[i] : 0;
			st.txf[i].idx = st.tx[i].idx;
			st.txf[i].flags = set ? (uint16_t)(f->rep_tok[i] >> 8) : 0;
		}
	}
	st.signal = (uint32_t)(f->signal ? f->signal : -50);
	memcpy(st.tx_addr, p->tx_addr, 6);
	status_told(h, f, &st);
	status_send(h, &st);
}

/* A status the kernel rejected: queued to go again, unless it was a retry. */
static void status_rejected(struct hw_ctx *h, uint32_t seq)
{
	struct hw_status *st = &h->status[seq % STATUS_RING];

	if (!st->used || st->seq != seq)
		return;
	st->used = false;
	if (st->retried) {
		h->status_retry_rejects++;
		return;
	}
	if (h->retry_len == STATUS_RETRIES)
		return;
	st->retried = true;
	st->due_ns = mono_ns() + STATUS_RETRY_NS;
	h->retry[(h->retry_head + h->retry_len++) % STATUS_RETRIES] = *st;
}

static uint64_t status_next_due(const struct hw_ctx *h)
{
	return h->retry_len ? h->retry[h->retry_head].due_ns : UINT64_MAX;
}

static void status_resend_due(struct hw_ctx *h, uint64_t now)
{
	while (h->retry_len && h->retry[h->retry_head].due_ns <= now) {
		struct hw_status st = h->retry[h->retry_head];

		h->retry_head = (h->retry_head + 1) % STATUS_RETRIES;
		h->retry_len--;
		h->status_retries++;
		status_send(h, &st);
	}
}

static void cb_done(void *ctx, struct med_frame *f)
{
	struct hw_ctx *h = ctx;

	send_status(h, f);
	free(f->priv);
	free(f);
}

static void cb_rx(void *ctx, struct med_frame *f, int rx, int signal)
{
	struct hw_ctx *h = ctx;
	struct hw_priv *p = f->priv;
	struct nl_msg *msg;
	uint32_t rate_idx = 0, rx_flags = 0;
	const struct tc_airfair_rate *r = &f->rate[0];
	struct nlattr *fa;
	int last = 0;

	if (!h->radio[rx].known)
		return;
	for (int i = 0; i < f->nrates; i++)
		if (f->used[i])
			last = i;
	r = &f->rate[last];
	/* RX_RATE must index the receiver band's legacy table */
	if (r->mode == AIRFAIR_MODE_LEGACY) {
		for (int i = 0; i < 12; i++)
			if (hwsim_rates[i] == r->legacy)
				rate_idx = f->freq < 3000 ? i : i - 4;
	} else {
		/*
		 * The HT/VHT rate goes in the flags (testbed/hwsim-patches:
		 * HWSIM_RX_RATE_INFO; a stock hwsim ignores them and takes the
		 * legacy index, the band's fastest).
		 */
		rate_idx = f->freq < 3000 ? 11 : 7;
		rx_flags = HWSIM_RX_RATE_INFO | (uint32_t)r->mcs << 8 |
			   (uint32_t)(r->bw & 3) << 20;
		if (r->mode == AIRFAIR_MODE_VHT)
			rx_flags |= HWSIM_RX_RATE_VHT | (uint32_t)(r->nss & 0xf) << 16;
		if (r->gi == AIRFAIR_GI_SHORT)
			rx_flags |= HWSIM_RX_RATE_SGI;
		if (f->rx_ampdu)
			rx_flags |= HWSIM_RX_AMPDU | (f->rx_ampdu & 0xff) << 24;
	}
	msg = msg_new(h, HWSIM_CMD_FRAME);
	if (!msg)
		return;
	fa = nla_reserve(msg, HWSIM_ATTR_FRAME, p->len);
	if (!fa || nla_put(msg, HWSIM_ATTR_ADDR_RECEIVER, 6, h->radio[rx].addr) ||
	    nla_put_u32(msg, HWSIM_ATTR_RX_RATE, rate_idx) ||
	    (rx_flags && nla_put_u32(msg, HWSIM_ATTR_FLAGS, rx_flags)) ||
	    nla_put_u32(msg, HWSIM_ATTR_SIGNAL, (uint32_t)signal) ||
	    nla_put_u32(msg, HWSIM_ATTR_FREQ, f->freq)) {
		nlmsg_free(msg);
		return;
	}
	memcpy(nla_data(fa), p->data, p->len);
	/* a retransmission carries the Retry bit, as a radio sets it */
	if (f->attempts > 1 && p->len >= 2 && !f->no_ack)
		((uint8_t *)nla_data(fa))[1] |= FC1_RETRY;
	if (f->rx_held) {
		struct hw_held *hd = malloc(sizeof(*hd));

		if (!hd) {
			nlmsg_free(msg);
			return;
		}
		*hd = (struct hw_held){ .msg = msg, .src = f->src, .dst = rx, .tid = f->tid,
					.seq = f->seq, .since_ns = h->m->now };
		*h->held_tail = hd;
		h->held_tail = &hd->next;
		h->held_frames++;
		MED_LOG(h->m, 3, "hold cookie %llu from radio %d to radio %d for an earlier MPDU\n",
			(unsigned long long)f->cookie, f->src, rx);
		return;
	}
	h->frames_out++;
	h->radio[rx].rx_frames++;
	MED_LOG(h->m, 3, "deliver cookie %llu from radio %d to radio %d (%d dBm)\n",
		(unsigned long long)f->cookie, f->src, rx, signal);
	msg_send(h, msg);
}

static void cb_rx_release(void *ctx, int src, int dst, int tid, uint64_t before)
{
	struct hw_ctx *h = ctx;
	struct hw_held **pp = &h->held, *hd;

	while ((hd = *pp)) {
		if (hd->src != src || hd->dst != dst || hd->tid != tid || hd->seq >= before) {
			pp = &hd->next;
			continue;
		}
		*pp = hd->next;
		if (h->held_tail == &hd->next)
			h->held_tail = pp;
		if (h->m->now - hd->since_ns > h->held_ns_max)
			h->held_ns_max = h->m->now - hd->since_ns;
		h->frames_out++;
		h->radio[dst].rx_frames++;
		msg_send(h, hd->msg);
		free(hd);
	}
}

static void handle_frame(struct hw_ctx *h, struct nlattr **a)
{
	struct hwsim_tx_rate *tr;
	struct hwsim_tx_rate_flag *tf = NULL;
	struct med_frame *f;
	struct hw_priv *p;
	uint32_t len, freq;
	const uint8_t *data;
	int src, n, tid;

	if (!a[HWSIM_ATTR_ADDR_TRANSMITTER] || !a[HWSIM_ATTR_FRAME] || !a[HWSIM_ATTR_FLAGS] ||
	    !a[HWSIM_ATTR_TX_INFO] || !a[HWSIM_ATTR_COOKIE])
		return;
	len = nla_len(a[HWSIM_ATTR_FRAME]);
	data = nla_data(a[HWSIM_ATTR_FRAME]);
	if (len < 10 || nla_len(a[HWSIM_ATTR_TX_INFO]) < (int)(4 * sizeof(*tr)))
		return;
	src = radio_of_addr(h, nla_data(a[HWSIM_ATTR_ADDR_TRANSMITTER]));
	if (src < 0)
		return;
	freq = a[HWSIM_ATTR_FREQ] ? nla_get_u32(a[HWSIM_ATTR_FREQ]) : 2412;
	h->frames_in++;
	h->radio[src].tx_frames++;
	if (len >= 16)
		learn_mac(h, data + 10, src);
	f = calloc(1, sizeof(*f));
	p = malloc(sizeof(*p) + len);
	if (!f || !p) {
		free(f);
		free(p);
		return;
	}
	memcpy(p->tx_addr, nla_data(a[HWSIM_ATTR_ADDR_TRANSMITTER]), 6);
	p->flags = nla_get_u32(a[HWSIM_ATTR_FLAGS]);
	p->len = len;
	memcpy(p->data, data, len);
	tr = nla_data(a[HWSIM_ATTR_TX_INFO]);
	if (a[HWSIM_ATTR_TX_INFO_FLAGS] &&
	    nla_len(a[HWSIM_ATTR_TX_INFO_FLAGS]) >= (int)(4 * sizeof(*tf)))
		tf = nla_data(a[HWSIM_ATTR_TX_INFO_FLAGS]);
	memcpy(p->rates, tr, sizeof(p->rates));
	if (tf)
		memcpy(p->rate_flags, tf, sizeof(p->rate_flags));
	else
		memset(p->rate_flags, 0, sizeof(p->rate_flags));
	f->priv = p;
	f->cookie = nla_get_u64(a[HWSIM_ATTR_COOKIE]);
	f->src = src;
	f->len = len;
	f->freq = freq;
	f->ac = (uint8_t)frame_ac(data, len);
	f->no_ack = p->flags & HWSIM_TX_CTL_NO_ACK;
	if (data[4] & 1) {
		f->dst = MED_BCAST;
		f->no_ack = true;
	} else {
		f->dst = mac_to_radio(h, data + 4);
	}
	tid = frame_tid(data, len);
	f->tid = !f->no_ack && f->dst >= 0 && tid >= 0 ? (uint8_t)tid : MED_NO_TID;
	n = 0;
	for (int i = 0; i < 4; i++) {
		uint16_t fl;

		if (tr[i].idx < 0 || !tr[i].count)
			break;
		fl = p->rate_flags[i].flags;
		if (!conv_rate(tr[i].idx, fl, freq, &f->rate[n])) {
			MED_LOG(h->m, 1, "radio %d: unknown rate idx %d flags 0x%x, using the lowest\n",
				src, tr[i].idx, fl);
			conv_rate(0, 0, freq, &f->rate[n]);
		}
		f->rate_tok[n] = rate_tok(tr[i].idx, fl);
		f->count[n++] = tr[i].count;
	}
	p->nrates_in = n;
	if (!n) {
		conv_rate(0, 0, freq, &f->rate[0]);
		f->rate_tok[0] = rate_tok(0, 0);
		f->count[0] = 1;
		n = 1;
	}
	f->nrates = n;
	if (f->no_ack) {	/* one attempt, whatever the table says */
		f->nrates = 1;
		f->count[0] = 1;
	}
	f->ampdu = h->m->ampdu_max > 1 && !f->no_ack && f->dst >= 0 &&
		   f->rate[0].mode != AIRFAIR_MODE_LEGACY && frame_qos_data(data, len);
	med_run_until(h->m, sim_now(h));
	wmm_advertised(h, src, f->dst, freq, data, len);
	/*
	 * hostapd beacons every beacon_int of real time: under dilation k that
	 * would be k times as often in simulated time. Only every k-th goes on
	 * the air; the others still reach the stations (whose beacon-loss
	 * monitor runs in real time) but take no airtime.
	 */
	if (f->dst == MED_BCAST && frame_beacon(data, len) &&
	    h->radio[src].beacons++ % h->beacon_every) {
		h->beacons_free++;
		med_deliver_free(h->m, f);
		return;
	}
	MED_LOG(h->m, 3, "kernel frame: radio %d cookie %llu len %u ac %d dst %d freq %u flags 0x%x\n",
		src, (unsigned long long)f->cookie, len, f->ac, f->dst, freq, p->flags);
	if (!med_enqueue(h->m, f)) {
		h->qdrops++;
		f->acked = false;
		cb_done(h, f);
	}
}

static int on_msg(struct nl_msg *msg, void *arg)
{
	struct hw_ctx *h = arg;
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *a[HWSIM_ATTR_MAX_KNOWN + 1];
	int id;

	if (nlmsg_hdr(msg)->nlmsg_type != h->family)
		return NL_SKIP;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, HWSIM_ATTR_MAX_KNOWN, NULL) < 0)
		return NL_SKIP;
	switch (gh->cmd) {
	case HWSIM_CMD_FRAME:
		handle_frame(h, a);
		break;
	case HWSIM_CMD_NEW_RADIO:
	case HWSIM_CMD_GET_RADIO:
		if (!a[HWSIM_ATTR_RADIO_ID])
			break;
		id = (int)nla_get_u32(a[HWSIM_ATTR_RADIO_ID]);
		{
			char name[32] = "";

			if (a[HWSIM_ATTR_RADIO_NAME])
				snprintf(name, sizeof(name), "%.*s", nla_len(a[HWSIM_ATTR_RADIO_NAME]),
					 (char *)nla_data(a[HWSIM_ATTR_RADIO_NAME]));
			/* a radio created with a custom perm_addr is keyed by it as is */
			radio_known(h, id, a[HWSIM_ATTR_PERM_ADDR] &&
				    nla_len(a[HWSIM_ATTR_PERM_ADDR]) == 6 ?
				    nla_data(a[HWSIM_ATTR_PERM_ADDR]) : NULL,
				    name[0] ? name : NULL);
			MED_LOG(h->m, 1, "radio %d (%s) present\n", id, h->radio[id < MED_MAX_RADIOS ? id : 0].name);
		}
		break;
	case HWSIM_CMD_DEL_RADIO:
		if (!a[HWSIM_ATTR_RADIO_ID])
			break;
		id = (int)nla_get_u32(a[HWSIM_ATTR_RADIO_ID]);
		if (id >= 0 && id < MED_MAX_RADIOS && h->radio[id].known) {
			MED_LOG(h->m, 1, "radio %d (%s) deleted\n", id, h->radio[id].name);
			h->radio[id].known = false;
			med_radio_del(h->m, id);
			for (int i = 0; i < h->nmacs; i++)
				if (h->macs[i].radio == id)
					h->macs[i].radio = -1;
		}
		break;
	}
	return NL_OK;
}

static int on_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct hw_ctx *h = arg;

	(void)nla;
	h->nl_errors++;
	MED_LOG(h->m, 3, "kernel rejected message %u: %s\n", e->msg.nlmsg_seq,
		strerror(-e->error));
	status_rejected(h, e->msg.nlmsg_seq);
	return NL_SKIP;
}

static const char *hw_name(void *ctx, int r)
{
	struct hw_ctx *h = ctx;

	return h->radio[r].name[0] ? h->radio[r].name : "unknown";
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static void write_stats(struct hw_ctx *h, const char *path, uint64_t start_real)
{
	char tmp[4096];
	double wall = (mono_ns() - start_real) / 1e9;
	FILE *f;

	if (!path)
		return;
	f = out_open(path, tmp, sizeof(tmp));
	if (!f)
		return;
	fprintf(f, "{\"daemon\": {\"wall_s\": %.3f, \"dilation\": %g, \"seed\": %llu, "
		"\"frames_in\": %llu, \"frames_in_per_s\": %.1f, \"deliveries\": %llu, "
		"\"tx_status\": %llu, \"queue_drops\": %llu, \"kernel_rejects\": %llu, "
		"\"send_errors\": %llu, \"status_retries\": %llu, \"status_retry_rejects\": %llu, "
		"\"beacons_off_air\": %llu, \"rx_held\": %llu, \"rx_held_max_us\": %.1f, "
		"\"cpu_s\": %.3f, \"cpu_share\": %.4f, "
		"\"late_us_mean\": %.1f, \"late_us_max\": %.1f, \"late_us_sum\": %.1f, "
		"\"late_n\": %llu, \"wmm_taken\": %llu},\n\"medium\": ",
		wall, h->k, (unsigned long long)h->base.cfg->seed, (unsigned long long)h->frames_in,
		wall > 0 ? h->frames_in / wall : 0, (unsigned long long)h->frames_out,
		(unsigned long long)h->status_out, (unsigned long long)h->qdrops,
		(unsigned long long)h->nl_errors, (unsigned long long)h->send_errors,
		(unsigned long long)h->status_retries, (unsigned long long)h->status_retry_rejects,
		(unsigned long long)h->beacons_free, (unsigned long long)h->held_frames,
		h->held_ns_max / 1e3, cpu_seconds(), wall > 0 ? cpu_seconds() / wall : 0,
		h->late_n ? h->late_ns_sum / 1e3 / h->late_n : 0, h->late_ns_max / 1e3,
		h->late_ns_sum / 1e3, (unsigned long long)h->late_n,
		(unsigned long long)h->wmm_taken);
	med_json(h->m, f, hw_name);
	fprintf(f, "}\n");
	out_close(f, path, tmp);
}

static int dump_radios(struct hw_ctx *h)
{
	struct nl_msg *msg = nlmsg_alloc();
	int err;

	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, h->family, 0, NLM_F_DUMP,
		    HWSIM_CMD_GET_RADIO, 1);
	err = nl_send_auto(h->sock, msg);
	nlmsg_free(msg);
	if (err < 0)
		return err;
	return nl_recvmsgs_default(h->sock);
}

int run_hwsim(struct medium_cfg *cfg, struct run_opts *ro)
{
	static struct medium m;
	static struct hw_ctx h;
	struct nl_cb *cb;
	struct nl_msg *msg;
	uint64_t start, next_stats;
	int err, grp, fd;

	h.base.cfg = cfg;
	h.base.phy = -1;
	h.m = &m;
	h.k = cfg->dilation;
	h.beacon_every = cfg->beacons_all ? 1 : (uint64_t)(cfg->dilation + 0.5);
	medium_setup(&m, cfg, ro, &h);
	m.done = cb_done;
	m.rx = cb_rx;
	m.rx_release = cb_rx_release;
	h.held_tail = &h.held;

	h.sock = nl_socket_alloc();
	if (!h.sock || genl_connect(h.sock)) {
		fprintf(stderr, "airfair-medium: cannot open generic netlink\n");
		return 1;
	}
	h.family = genl_ctrl_resolve(h.sock, "MAC80211_HWSIM");
	if (h.family < 0) {
		fprintf(stderr, "airfair-medium: MAC80211_HWSIM family not found "
			"(modprobe mac80211_hwsim): %s\n", nl_geterror(h.family));
		return 1;
	}
	grp = genl_ctrl_resolve_grp(h.sock, "MAC80211_HWSIM", "config");
	nl_socket_set_buffer_size(h.sock, 8 << 20, 8 << 20);
	cb = nl_cb_alloc(NL_CB_CUSTOM);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_msg, &h);
	nl_cb_err(cb, NL_CB_CUSTOM, on_err, &h);
	nl_socket_set_cb(h.sock, cb);
	nl_socket_disable_seq_check(h.sock);	/* after set_cb: it patches the current cb */
	if (grp >= 0)
		nl_socket_add_membership(h.sock, grp);
	err = dump_radios(&h);
	if (err < 0)
		fprintf(stderr, "airfair-medium: radio dump: %s (continuing)\n", nl_geterror(err));

	msg = msg_new(&h, HWSIM_CMD_REGISTER);
	nl_send_auto(h.sock, msg);
	nlmsg_free(msg);
	nl_socket_set_nonblocking(h.sock);
	fd = nl_socket_get_fd(h.sock);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	start = h.t0 = mono_ns();
	next_stats = start + (uint64_t)ro->stats_ms * 1000000ULL;
	fprintf(stderr, "airfair-medium: registered as medium, dilation %g, seed %llu, %d radio(s)\n",
		h.k, (unsigned long long)cfg->seed, (int)({ int n = 0; for (int i = 0; i < MED_MAX_RADIOS; i++) n += h.radio[i].known; n; }));
	while (!stop) {
		uint64_t ev = med_next_event(&m), now = mono_ns(), wake = next_stats;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts;

		if (ev != UINT64_MAX) {
			uint64_t ev_real = h.t0 + (uint64_t)(ev * h.k);

			if (ev_real < wake)
				wake = ev_real;
		}
		if (status_next_due(&h) < wake)
			wake = status_next_due(&h);
		if (wake > now) {
			ts.tv_sec = (wake - now) / 1000000000ULL;
			ts.tv_nsec = (wake - now) % 1000000000ULL;
			err = ppoll(&pfd, 1, &ts, NULL);
			if (err < 0 && errno != EINTR) {
				perror("ppoll");
				break;
			}
		} else {
			pfd.revents = 0;
			poll(&pfd, 1, 0);
		}
		if (pfd.revents & POLLIN) {
			for (int i = 0; i < 64; i++) {
				err = nl_recvmsgs_report(h.sock, cb);
				if (err <= 0) {
					if (err < 0 && err != -NLE_AGAIN) {
						h.nl_errors++;
						MED_LOG(&m, 1, "netlink receive: %s\n", nl_geterror(err));
					}
					break;
				}
			}
		}
		now = mono_ns();
		ev = med_next_event(&m);
		if (ev != UINT64_MAX) {
			uint64_t ev_real = h.t0 + (uint64_t)(ev * h.k);

			if (now > ev_real) {
				uint64_t late = now - ev_real;

				h.late_ns_sum += late;
				h.late_n++;
				if (late > h.late_ns_max)
					h.late_ns_max = late;
			}
		}
		med_run_until(&m, sim_now(&h));
		status_resend_due(&h, now);
		if (now >= next_stats) {
			write_stats(&h, ro->stats_file, start);
			next_stats = now + (uint64_t)ro->stats_ms * 1000000ULL;
		}
	}
	fprintf(stderr, "airfair-medium: stopping after %.1f s, %llu frames in, %llu delivered\n",
		(mono_ns() - start) / 1e9, (unsigned long long)h.frames_in,
		(unsigned long long)h.frames_out);
	write_stats(&h, ro->stats_file, start);
	write_stats(&h, ro->json_file, start);
	while (h.held) {
		struct hw_held *hd = h.held;

		h.held = hd->next;
		nlmsg_free(hd->msg);
		free(hd);
	}
	nl_socket_free(h.sock);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sch_airfair airtime model: integer PPDU durations and airtime costs.
 *
 * Rates and durations follow IEEE Std 802.11-2020 clauses 15-19, 21, 27;
 * the per-frame cost extends chen-yan 2024 Eq. 1-9 (see
 * docs/airtime-model.md). Pure integer code shared by the kernel module
 * and the userspace tools; all PHY numbers come from phy_params.h.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/errno.h>
#include <linux/bits.h>
#include <linux/nl80211.h>

#include "airtime.h"
#include "phy_params.h"

#define NS_PER_US	1000U
#define AF_MAX_LEN	BIT(22)		/* 4 MiB: beyond any PSDU */

/*
 * The tables of phy_params.h expand to brace initializers; each row keeps
 * its index column, checked once by airfair_tables_ok().
 */
struct af_phy_row {
	u8 phy;
	u8 sifs_us;
	u8 slot_us;
	u16 cwmin;
	u16 cwmax;
	u8 aifsn[AIRFAIR_NUM_ACS];
	u16 txop_us[AIRFAIR_NUM_ACS];
	u8 retries;
	u16 basic;
	u8 sigext_us;
};

#define AF_PHY_ROW(p, sifs, slot, cmin, cmax, a0, a1, a2, a3, t0, t1, t2, \
		   t3, r, basic, se) \
	{ p, sifs, slot, cmin, cmax, { a0, a1, a2, a3 }, { t0, t1, t2, t3 }, \
	  r, basic, se }
static const struct af_phy_row af_phy_rows[] = AIRFAIR_PHY_TABLE(AF_PHY_ROW);

struct af_ac_row {
	u8 ac;
	u8 min_shift;
	u8 max_shift;
};

#define AF_AC_ROW(ac, mn, mx) { ac, mn, mx }
static const struct af_ac_row af_ac_rows[] = AIRFAIR_AC_TABLE(AF_AC_ROW);

struct af_mod {
	u8 bpscs;
	u8 rnum;
	u8 rden;
};

#define AF_MOD_ROW(b, n, d) { b, n, d }
static const struct af_mod af_ofdm_mods[] = AIRFAIR_OFDM_TABLE(AF_MOD_ROW);
static const struct af_mod af_mcs_mods[] = AIRFAIR_MCS_TABLE(AF_MOD_ROW);

struct af_dsss {
	u8 bits;
	u8 chips;
	u8 short_ok;
};

#define AF_DSSS_ROW(b, c, s) { b, c, s }
static const struct af_dsss af_dsss_rows[] = AIRFAIR_DSSS_TABLE(AF_DSSS_ROW);

struct af_nsd {
	u8 bw;
	u16 ht;
	u16 vht;
	u16 he;
};

#define AF_NSD_ROW(bw, ht, vht, he) { bw, ht, vht, he }
static const struct af_nsd af_nsd_rows[] = AIRFAIR_NSD_TABLE(AF_NSD_ROW);

struct af_nltf {
	u8 nss;
	u8 nltf;
};

#define AF_NLTF_ROW(nss, n) { nss, n }
static const struct af_nltf af_nltf_rows[] = AIRFAIR_NLTF_TABLE(AF_NLTF_ROW);

struct af_vht_excl {
	u8 bw;
	u8 mcs;
	u8 nss;
};

#define AF_VHTX_ROW(bw, mcs, nss) { bw, mcs, nss }
static const struct af_vht_excl af_vht_excl_rows[] =
	AIRFAIR_VHT_EXCLUDED_TABLE(AF_VHTX_ROW);

struct af_he_gi {
	u8 gi;
	u16 gi_ns;
	u16 ltf_ns;
};

#define AF_HEGI_ROW(gi, gns, lns) { gi, gns, lns }
static const struct af_he_gi af_he_gi_rows[] = AIRFAIR_HE_GI_TABLE(AF_HEGI_ROW);

/* Every indexed table has one row per index, in index order. */
static bool af_tables_ok(void)
{
	u32 i;

	if (ARRAY_SIZE(af_phy_rows) != __AIRFAIR_PHY_MAX ||
	    ARRAY_SIZE(af_ac_rows) != AIRFAIR_NUM_ACS ||
	    ARRAY_SIZE(af_nsd_rows) != __AIRFAIR_BW_MAX ||
	    ARRAY_SIZE(af_nltf_rows) != AIRFAIR_P_MAX_NSS ||
	    ARRAY_SIZE(af_mcs_mods) != AIRFAIR_P_HE_MAX_MCS + 1)
		return false;
	for (i = 0; i < ARRAY_SIZE(af_phy_rows); i++)
		if (af_phy_rows[i].phy != i)
			return false;
	for (i = 0; i < ARRAY_SIZE(af_ac_rows); i++)
		if (af_ac_rows[i].ac != i)
			return false;
	for (i = 0; i < ARRAY_SIZE(af_nsd_rows); i++)
		if (af_nsd_rows[i].bw != i)
			return false;
	for (i = 0; i < ARRAY_SIZE(af_nltf_rows); i++)
		if (af_nltf_rows[i].nss != i + 1)
			return false;
	return true;
}

static u32 af_nltf(u32 nss)
{
	return af_nltf_rows[nss - 1].nltf;
}

enum af_kind { AF_DSSS, AF_OFDM, AF_HT, AF_VHT, AF_HE };

/* A rate resolved to the quantities the duration formulas need. */
struct af_rate {
	u8 kind;
	u8 sgi;		/* HT/VHT short GI: TXTIME rounded to 4 us */
	u8 nes;		/* BCC encoders (tail bits); 0 for LDPC (HE) */
	u32 kbps;	/* DSSS only */
	u64 bps_num;	/* data bits per symbol = bps_num / bps_den */
	u32 bps_den;
	u32 ndbps;	/* floor(bps_num / bps_den) */
	u32 ncbps;
	u32 sym_ns;
	u32 pre_ns;	/* preamble + PHY headers */
	u32 nltf;	/* long training fields in pre_ns (HT, VHT, HE) */
	u32 ltf_ns;	/* the air of each */
	u32 sigext_ns;
};

/* The DSSS/CCK row of a legacy rate in 100 kbit/s, NULL if it is OFDM. */
static const struct af_dsss *af_dsss_find(u16 legacy)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(af_dsss_rows); i++)
		if (airfair_dsss_rate(i) == legacy)
			return &af_dsss_rows[i];
	return NULL;
}

static int af_resolve_legacy(const struct tc_airfair_rate *r,
			     struct af_rate *x)
{
	u32 i, kbps = (u32)r->legacy * 100;
	const struct af_dsss *d;

	if (r->bw != AIRFAIR_BW_20 || r->gi != AIRFAIR_GI_LONG ||
	    r->mcs || r->nss > 1)
		return -EINVAL;

	d = af_dsss_find(r->legacy);
	if (d) {
		if (r->flags & AIRFAIR_RATE_F_ERP)
			return -EINVAL;
		if ((r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE) && !d->short_ok)
			return -EINVAL;
		x->kind = AF_DSSS;
		x->kbps = kbps;
		x->pre_ns = (r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE ?
			     AIRFAIR_P_DSSS_SHORT_PREAMBLE_US :
			     AIRFAIR_P_DSSS_LONG_PREAMBLE_US) * NS_PER_US;
		return 0;
	}

	for (i = 0; i < ARRAY_SIZE(af_ofdm_mods); i++) {
		const struct af_mod *m = &af_ofdm_mods[i];
		u32 ncbps = AIRFAIR_P_OFDM_NSD * m->bpscs;
		u32 ndbps = ncbps * m->rnum / m->rden;

		if (ndbps * (1000000U / AIRFAIR_P_OFDM_SYM_NS) != kbps)
			continue;
		if (r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE)
			return -EINVAL;
		x->kind = AF_OFDM;
		x->nes = 1;
		x->bps_num = ndbps;
		x->bps_den = 1;
		x->ndbps = ndbps;
		x->ncbps = ncbps;
		x->sym_ns = AIRFAIR_P_OFDM_SYM_NS;
		x->pre_ns = AIRFAIR_P_OFDM_PREAMBLE_US * NS_PER_US;
		if (r->flags & AIRFAIR_RATE_F_ERP)
			x->sigext_ns = AIRFAIR_P_SIGEXT_US * NS_PER_US;
		return 0;
	}
	return -EINVAL;
}

static void af_set_mod(struct af_rate *x, u32 nsd, const struct af_mod *m,
		       u32 nss)
{
	x->ncbps = nsd * m->bpscs * nss;
	x->bps_num = (u64)x->ncbps * m->rnum;
	x->bps_den = m->rden;
	x->ndbps = (u32)div_u64(x->bps_num, x->bps_den);
}

static bool af_vht_excluded(const struct tc_airfair_rate *r)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(af_vht_excl_rows); i++) {
		const struct af_vht_excl *e = &af_vht_excl_rows[i];

		if (e->bw == r->bw && e->mcs == r->mcs && e->nss == r->nss)
			return true;
	}
	return false;
}

static int af_resolve(const struct tc_airfair_rate *r, struct af_rate *x)
{
	u32 nss, nsd, i, sgi_kbps;

	if (!r)
		return -EINVAL;
	*x = (struct af_rate){ 0 };
	if (r->flags & ~AIRFAIR_RATE_F_ALL)
		return -EINVAL;
	if (r->bw >= __AIRFAIR_BW_MAX)
		return -EINVAL;

	switch (r->mode) {
	case AIRFAIR_MODE_LEGACY:
		return af_resolve_legacy(r, x);
	case AIRFAIR_MODE_HT:
		if (r->mcs > AIRFAIR_P_HT_MAX_MCS || r->gi > AIRFAIR_GI_SHORT ||
		    (r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE) || r->legacy)
			return -EINVAL;
		nss = r->mcs / 8 + 1;
		if (r->nss && r->nss != nss)
			return -EINVAL;
		nsd = af_nsd_rows[r->bw].ht;
		if (!nsd)
			return -EINVAL;
		x->kind = AF_HT;
		x->sgi = r->gi == AIRFAIR_GI_SHORT;
		af_set_mod(x, nsd, &af_mcs_mods[r->mcs % 8], nss);
		x->sym_ns = x->sgi ? AIRFAIR_P_SYM_SGI_NS : AIRFAIR_P_SYM_LGI_NS;
		/* one encoder per 300 Mb/s at the long-GI rate */
		x->nes = x->ndbps * (1000000U / AIRFAIR_P_SYM_LGI_NS) >
			 AIRFAIR_P_HT_ENC_MBPS * 1000U ? 2 : 1;
		x->nltf = af_nltf(nss);
		x->ltf_ns = AIRFAIR_P_HT_LTF_US * NS_PER_US;
		x->pre_ns = AIRFAIR_P_HT_PREAMBLE_US * NS_PER_US +
			    x->nltf * x->ltf_ns;
		if (r->flags & AIRFAIR_RATE_F_ERP)
			x->sigext_ns = AIRFAIR_P_SIGEXT_US * NS_PER_US;
		return 0;
	case AIRFAIR_MODE_VHT:
		if (r->mcs > AIRFAIR_P_VHT_MAX_MCS || r->gi > AIRFAIR_GI_SHORT ||
		    !r->nss || r->nss > AIRFAIR_P_MAX_NSS || r->flags ||
		    r->legacy || af_vht_excluded(r))
			return -EINVAL;
		x->kind = AF_VHT;
		x->sgi = r->gi == AIRFAIR_GI_SHORT;
		af_set_mod(x, af_nsd_rows[r->bw].vht, &af_mcs_mods[r->mcs],
			   r->nss);
		if (x->ndbps * (u64)x->bps_den != x->bps_num)
			return -EINVAL;
		x->sym_ns = x->sgi ? AIRFAIR_P_SYM_SGI_NS : AIRFAIR_P_SYM_LGI_NS;
		/* BCC encoders: one per 600 Mb/s at the short-GI rate */
		sgi_kbps = (u32)div_u64((u64)x->ndbps * 1000000U,
					AIRFAIR_P_SYM_SGI_NS);
		x->nes = DIV_ROUND_UP(sgi_kbps, AIRFAIR_P_VHT_ENC_MBPS * 1000U);
		while (x->ndbps % x->nes || x->ncbps % x->nes)
			x->nes++;
		x->nltf = af_nltf(r->nss);
		x->ltf_ns = AIRFAIR_P_VHT_LTF_US * NS_PER_US;
		x->pre_ns = AIRFAIR_P_VHT_PREAMBLE_US * NS_PER_US +
			    x->nltf * x->ltf_ns;
		return 0;
	case AIRFAIR_MODE_HE:
		if (r->mcs > AIRFAIR_P_HE_MAX_MCS || !r->nss ||
		    r->nss > AIRFAIR_P_MAX_NSS || r->legacy ||
		    (r->flags & AIRFAIR_RATE_F_SHORT_PREAMBLE))
			return -EINVAL;
		/* 2.4 GHz (signal extension) channels are at most 40 MHz */
		if ((r->flags & AIRFAIR_RATE_F_ERP) && r->bw > AIRFAIR_BW_40)
			return -EINVAL;
		for (i = 0; i < ARRAY_SIZE(af_he_gi_rows); i++)
			if (af_he_gi_rows[i].gi == r->gi)
				break;
		if (i == ARRAY_SIZE(af_he_gi_rows))
			return -EINVAL;
		x->kind = AF_HE;
		af_set_mod(x, af_nsd_rows[r->bw].he, &af_mcs_mods[r->mcs],
			   r->nss);
		x->sym_ns = AIRFAIR_P_HE_SYM_NS + af_he_gi_rows[i].gi_ns;
		x->nltf = af_nltf(r->nss);
		x->ltf_ns = af_he_gi_rows[i].ltf_ns;
		x->pre_ns = AIRFAIR_P_HE_PREAMBLE_US * NS_PER_US +
			    x->nltf * x->ltf_ns;
		if (r->flags & AIRFAIR_RATE_F_ERP)
			x->sigext_ns = AIRFAIR_P_SIGEXT_US * NS_PER_US;
		return 0;
	default:
		return -EINVAL;
	}
}

static int airfair_ri_width(u16 mhz)
{
	switch (mhz) {
	case 20:
		return AIRFAIR_BW_20;
	case 40:
		return AIRFAIR_BW_40;
	case 80:
		return AIRFAIR_BW_80;
	case 160:
		return AIRFAIR_BW_160;
	default:
		return -1;
	}
}

int airfair_rate_from_info(const struct airfair_rate_info *ri, bool band_2g,
			   bool short_preamble, struct tc_airfair_rate *r,
			   const char **why)
{
	int bw = airfair_ri_width(ri->width_mhz);
	const struct af_dsss *d;

	*r = (struct tc_airfair_rate){};
	*why = NULL;
	if (ri->kind == AIRFAIR_RI_OTHER || ri->width_mhz == 320)
		*why = "EHT, S1G and DMG rates are not modelled";
	else if (ri->he_ru)
		*why = "HE OFDMA resource units are not modelled";
	else if (bw < 0)
		*why = "5/10 MHz channels are not modelled";
	if (*why)
		return -EINVAL;
	r->bw = bw;
	switch (ri->kind) {
	case AIRFAIR_RI_HT:
		r->mode = AIRFAIR_MODE_HT;
		r->mcs = ri->mcs;
		r->nss = ri->mcs / 8 + 1;
		break;
	case AIRFAIR_RI_VHT:
		r->mode = AIRFAIR_MODE_VHT;
		r->mcs = ri->mcs;
		r->nss = ri->nss ?: 1;
		break;
	case AIRFAIR_RI_HE:
		r->mode = AIRFAIR_MODE_HE;
		r->mcs = ri->mcs;
		r->nss = ri->nss ?: 1;
		break;
	default:
		r->mode = AIRFAIR_MODE_LEGACY;
		r->legacy = ri->legacy;
		if (!ri->legacy) {
			*why = "no TX bitrate yet";
			return -EINVAL;
		}
		if (bw != AIRFAIR_BW_20) {
			*why = "legacy rate wider than 20 MHz";
			return -EINVAL;
		}
		break;
	}
	if (r->mode == AIRFAIR_MODE_HE)
		r->gi = ri->he_gi == NL80211_RATE_INFO_HE_GI_3_2 ?
			AIRFAIR_GI_HE_3_2 :
			ri->he_gi == NL80211_RATE_INFO_HE_GI_1_6 ?
			AIRFAIR_GI_HE_1_6 : AIRFAIR_GI_HE_0_8;
	else if (r->mode != AIRFAIR_MODE_LEGACY)
		r->gi = ri->short_gi ? AIRFAIR_GI_SHORT : AIRFAIR_GI_LONG;

	/*
	 * 2.4 GHz: OFDM PPDUs (HT and HE included; VHT is 5 GHz only) carry
	 * the signal extension; DSSS/CCK above 1 Mbit/s may use the short
	 * preamble.
	 */
	d = r->mode == AIRFAIR_MODE_LEGACY ? af_dsss_find(r->legacy) : NULL;
	if (d) {
		if (short_preamble && d->short_ok)
			r->flags |= AIRFAIR_RATE_F_SHORT_PREAMBLE;
	} else if (band_2g && r->mode != AIRFAIR_MODE_VHT) {
		r->flags |= AIRFAIR_RATE_F_ERP;
	}
	if (airfair_rate_validate(r)) {
		*why = "not a valid rate";
		return -EINVAL;
	}
	return 0;
}

int airfair_rate_validate(const struct tc_airfair_rate *r)
{
	struct af_rate x;

	return af_resolve(r, &x);
}

static u32 af_kbps(const struct af_rate *x)
{
	u64 den;

	if (x->kind == AF_DSSS)
		return x->kbps;
	/* kbit/s = bits per symbol / symbol time, rounded to nearest */
	den = (u64)x->bps_den * x->sym_ns;
	return (u32)div64_u64(x->bps_num * 1000000U + den / 2, den);
}

u16 airfair_dsss_rate(unsigned int i)
{
	if (i >= ARRAY_SIZE(af_dsss_rows))
		return 0;
	return AIRFAIR_P_DSSS_CHIP_RATE_KHZ * af_dsss_rows[i].bits /
	       af_dsss_rows[i].chips / 100;
}

u16 airfair_ofdm_rate(unsigned int i)
{
	const struct af_mod *m;

	if (i >= ARRAY_SIZE(af_ofdm_mods))
		return 0;
	m = &af_ofdm_mods[i];
	return AIRFAIR_P_OFDM_NSD * m->bpscs * m->rnum / m->rden *
	       (1000000U / AIRFAIR_P_OFDM_SYM_NS) / 100;
}

u32 airfair_rate_kbps(const struct tc_airfair_rate *r)
{
	struct af_rate x;

	if (af_resolve(r, &x))
		return 0;
	return af_kbps(&x);
}

static u64 af_ppdu_ns(const struct af_rate *x, u32 psdu_len)
{
	u64 bits = (u64)psdu_len * 8, nsym, t;

	if (x->kind == AF_DSSS)	/* LENGTH field: whole microseconds */
		return x->pre_ns + NS_PER_US *
		       div64_u64(bits * 1000 + x->kbps - 1, x->kbps);

	bits += AIRFAIR_P_SERVICE_BITS + AIRFAIR_P_TAIL_BITS * x->nes;
	nsym = div64_u64(bits + x->ndbps - 1, x->ndbps);
	t = nsym * x->sym_ns;
	if (x->sgi)	/* short GI: whole 4 us long-GI symbols */
		t = AIRFAIR_P_SYM_LGI_NS *
		    div64_u64(t + AIRFAIR_P_SYM_LGI_NS - 1,
			      AIRFAIR_P_SYM_LGI_NS);
	return x->pre_ns + t + x->sigext_ns;
}

u32 airfair_ppdu_ns(const struct tc_airfair_rate *r, u32 psdu_len)
{
	struct af_rate x;
	u64 t;

	if (af_resolve(r, &x) || psdu_len > AF_MAX_LEN)
		return 0;
	t = af_ppdu_ns(&x, psdu_len);
	return t > U32_MAX ? U32_MAX : (u32)t;
}

u32 airfair_rate_ltfs(const struct tc_airfair_rate *r, u32 *ltf_ns)
{
	struct af_rate x;

	if (af_resolve(r, &x)) {
		*ltf_ns = 0;
		return 0;
	}
	*ltf_ns = x.ltf_ns;
	return x.nltf;
}

int airfair_timing_preset(enum airfair_phy phy, struct airfair_timing *t)
{
	const struct af_phy_row *p;
	int ac;

	if ((unsigned int)phy >= __AIRFAIR_PHY_MAX || !t || !af_tables_ok())
		return -EINVAL;
	p = &af_phy_rows[phy];
	*t = (struct airfair_timing){ 0 };
	t->sifs_us = p->sifs_us;
	t->slot_us = p->slot_us;
	t->cwmin = p->cwmin;
	t->cwmax = p->cwmax;
	/*
	 * No TXOP is charged by default (airfair_phy_txop_us() has the
	 * standard's): a burst only shares an access where frames wait
	 * behind each other at the AP, which tc's `txop` says.
	 */
	for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		t->aifsn[ac] = p->aifsn[ac];
	t->retries = p->retries;
	t->basic_rate = p->basic;
	t->sigext_us = p->sigext_us;
	t->ack_len = AIRFAIR_P_ACK_LEN;
	t->ba_len = AIRFAIR_P_BA_LEN;
	airfair_timing_set_sec_len(t, AIRFAIR_P_SEC_LEN);
	t->phy = phy;
	return 0;
}

u16 airfair_phy_txop_us(enum airfair_phy phy, enum airfair_ac ac)
{
	if ((unsigned int)phy >= __AIRFAIR_PHY_MAX ||
	    (unsigned int)ac >= AIRFAIR_NUM_ACS)
		return 0;
	return af_phy_rows[phy].txop_us[ac];
}

void airfair_timing_set_sec_len(struct airfair_timing *t, u8 sec_len)
{
	t->overhead_len = AIRFAIR_P_MAC_HDR_LEN + AIRFAIR_P_LLC_LEN + sec_len +
			  AIRFAIR_P_FCS_LEN;
}

static bool af_cw_ok(u32 cw)
{
	return cw >= 1 && cw <= 32767 && !(cw & (cw + 1));
}

static int af_ctrl_rate(const struct airfair_timing *t, struct af_rate *x)
{
	struct tc_airfair_rate c = {
		.mode = AIRFAIR_MODE_LEGACY,
		.legacy = t->basic_rate,
	};
	int err = af_resolve(&c, x);

	if (!err && x->kind == AF_OFDM)
		x->sigext_ns = (u32)t->sigext_us * NS_PER_US;
	return err;
}

int airfair_timing_validate(const struct airfair_timing *t)
{
	struct af_rate x;
	int ac;

	if (!t || t->phy >= __AIRFAIR_PHY_MAX)
		return -EINVAL;
	if (t->sifs_us < AIRFAIR_SIFS_SLOT_MIN_US ||
	    t->sifs_us > AIRFAIR_SIFS_SLOT_MAX_US ||
	    t->slot_us < AIRFAIR_SIFS_SLOT_MIN_US ||
	    t->slot_us > AIRFAIR_SIFS_SLOT_MAX_US)
		return -EINVAL;
	if (!af_cw_ok(t->cwmin) || !af_cw_ok(t->cwmax) || t->cwmin > t->cwmax)
		return -EINVAL;
	for (ac = 0; ac < AIRFAIR_NUM_ACS; ac++)
		if (t->aifsn[ac] < AIRFAIR_AIFSN_MIN ||
		    t->aifsn[ac] > AIRFAIR_AIFSN_MAX)
			return -EINVAL;
	if (t->retries > AIRFAIR_MAX_RETRIES || t->sigext_us > 100)
		return -EINVAL;
	if (!t->ack_len || t->ack_len > 1024 || !t->ba_len ||
	    t->ba_len > 1024 || t->overhead_len > 1024)
		return -EINVAL;
	return af_ctrl_rate(t, &x);
}

u16 airfair_ac_cwmin(const struct airfair_timing *t, enum airfair_ac ac)
{
	u32 w = ((u32)t->cwmin + 1) >> af_ac_rows[ac].min_shift;

	return w > 1 ? w - 1 : 1;
}

u64 airfair_aifs_ns(const struct airfair_timing *t, enum airfair_ac ac)
{
	return ((u64)t->sifs_us + (u64)t->aifsn[ac] * t->slot_us) * NS_PER_US;
}

u16 airfair_ac_cwmax(const struct airfair_timing *t, enum airfair_ac ac)
{
	u32 w;

	if (af_ac_rows[ac].max_shift >= 15)
		return t->cwmax;
	w = ((u32)t->cwmin + 1) >> af_ac_rows[ac].max_shift;
	w = w > 1 ? w - 1 : 1;
	return max_t(u32, w, airfair_ac_cwmin(t, ac));
}

u8 airfair_ac_doublings(const struct airfair_timing *t, enum airfair_ac ac)
{
	u32 lo = (u32)airfair_ac_cwmin(t, ac) + 1;
	u32 hi = (u32)airfair_ac_cwmax(t, ac) + 1;
	u8 d = 0;

	while (d < AIRFAIR_CW_DOUBLINGS && lo << (d + 1) <= hi)
		d++;
	return d;
}

/* (a * b) >> 32 without overflow for a < 2^40, b < 2^40. */
static u64 af_mul_shr32(u64 a, u64 b)
{
	u64 ah = a >> 32, al = a & 0xffffffffULL;
	u64 bh = b >> 32, bl = b & 0xffffffffULL;

	return a * bh + ah * bl + ((al * bl) >> 32);
}

/*
 * Expected attempts and backoff: attempt i (0..R) happens with
 * probability p^i, p the air-weighted loss, and waits a backoff drawn
 * uniformly from [0, CW]. The window doubles after a PPDU that got no ACK
 * or BlockAck at all (probability q): CW_i = min(2^i (CWmin + 1) - 1,
 * CWmax) reached with q^i. A BlockAck that reports lost subframes resets
 * it, so under aggregation q is well below p and each attempt waits the
 * mean backoff of the chain at q. Returns sum p^i in q32 and stores the
 * expected total backoff in ns.
 */
static u64 af_attempts_q32(const struct airfair_timing *t, u32 loss_q16,
			   u32 ppdu_loss_q16, enum airfair_ac ac,
			   u64 *backoff_ns)
{
	u32 cwmin = airfair_ac_cwmin(t, ac), cwmax = airfair_ac_cwmax(t, ac);
	u64 pw = 1ULL << 32, qw = 1ULL << 32, sum = 0, qsum = 0, bo = 0;
	u32 slot_ns = t->slot_us * NS_PER_US;
	u64 cw = cwmin;
	int i;

	for (i = 0; i <= t->retries; i++) {
		sum += pw;
		qsum += qw;
		bo += af_mul_shr32(cw * slot_ns / 2, qw);
		pw = (pw * loss_q16) >> 16;
		qw = (qw * ppdu_loss_q16) >> 16;
		cw = min_t(u64, cw * 2 + 1, cwmax);
	}
	/* mean per attempt (bo / qsum) times the attempts (sum) */
	if (backoff_ns)
		*backoff_ns = ppdu_loss_q16 == loss_q16 ? bo :
			      mul_u64_u64_div_u64(bo, sum, qsum);
	return sum;
}

u32 airfair_attempts_q16(u32 loss_q16, u8 retries)
{
	u64 pw = 1ULL << 32, sum = 0;
	int i;

	if (loss_q16 > AIRFAIR_LOSS_ONE)
		return 0;
	for (i = 0; i <= retries; i++) {
		sum += pw;
		pw = (pw * loss_q16) >> 16;
	}
	return (u32)((sum + (1U << 15)) >> 16);
}

u32 airfair_cw_scale_x16(u32 ppdu_loss_q16, u8 retries, u8 doublings)
{
	u64 qw = 1ULL << 32, sum = 0, scale = 0;
	int top = min_t(int, doublings, AIRFAIR_CW_DOUBLINGS);
	int i;

	if (ppdu_loss_q16 > AIRFAIR_LOSS_ONE)
		return 0;
	for (i = 0; i <= retries; i++) {
		sum += qw;
		scale += qw << min(i, top);
		qw = (qw * ppdu_loss_q16) >> 16;
	}
	return (u32)div64_u64(scale * AIRFAIR_AMPDU_ONE + sum / 2, sum);
}

u32 airfair_cw_scale_loss_q16(u32 cw_scale_x16, u8 retries, u8 doublings)
{
	u32 lo = 0, hi = AIRFAIR_LOSS_ONE;

	/* the mean grows with the loss: the least loss that reaches it */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (airfair_cw_scale_x16(mid, retries, doublings) >=
		    cw_scale_x16)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

u32 airfair_ctrl_ns(const struct airfair_timing *t, u32 len)
{
	struct af_rate x;

	if (!t || af_ctrl_rate(t, &x) || len > AF_MAX_LEN)
		return 0;
	return (u32)af_ppdu_ns(&x, len);
}

u64 airfair_attempt_fixed_ns(const struct airfair_timing *t,
			     enum airfair_ac ac, bool agg, u32 ppdu_loss_q16)
{
	struct af_rate cx;
	u64 bo, att_q32;

	if (airfair_timing_validate(t) || (unsigned int)ac >= AIRFAIR_NUM_ACS ||
	    ppdu_loss_q16 > AIRFAIR_LOSS_ONE || af_ctrl_rate(t, &cx))
		return 0;
	/* the chain's expected backoff over its expected attempts */
	att_q32 = af_attempts_q32(t, ppdu_loss_q16, ppdu_loss_q16, ac, &bo);
	return (u64)t->sifs_us * NS_PER_US + airfair_aifs_ns(t, ac) +
	       mul_u64_u64_div_u64(bo, 1ULL << 32, att_q32) +
	       af_ppdu_ns(&cx, agg ? t->ba_len : t->ack_len);
}

/* Everything frame_ns and affine_cost share. */
struct af_frame {
	struct af_rate x;
	u64 att_q32;		/* expected attempts */
	u64 backoff_ns;		/* expected backoff, all attempts */
	u32 aifs_ns;
	u32 sifs_ns;
	u32 resp_ns;		/* ACK or BlockAck PPDU */
	u32 delim;		/* bytes added per MPDU in an A-MPDU */
	u16 n_x16;		/* mean MPDUs per PPDU, 1/16 */
};

/*
 * @ampdu_x16 is a mean, in 1/16 MPDU: a station whose uploads go as one or
 * two MPDUs a PPDU averages 1.3, and rounded to one its PPDU overhead (as
 * long as the data at 65 Mbit/s) would be charged a third too high.
 */
static int af_frame_setup(const struct airfair_timing *t,
			  const struct tc_airfair_rate *r, u32 loss_q16,
			  u32 ppdu_loss_q16, enum airfair_ac ac, u16 ampdu_x16,
			  struct af_frame *f)
{
	struct af_rate cx;
	bool agg = ampdu_x16 > AIRFAIR_AMPDU_ONE;

	if (airfair_timing_validate(t) || af_resolve(r, &f->x))
		return -EINVAL;
	if ((unsigned int)ac >= AIRFAIR_NUM_ACS ||
	    loss_q16 > AIRFAIR_LOSS_ONE || ppdu_loss_q16 > AIRFAIR_LOSS_ONE ||
	    ampdu_x16 < AIRFAIR_AMPDU_ONE ||
	    ampdu_x16 > AIRFAIR_MAX_AMPDU * AIRFAIR_AMPDU_ONE)
		return -EINVAL;
	if (agg && f->x.kind < AF_HT)
		return -EINVAL;
	af_ctrl_rate(t, &cx);
	f->n_x16 = ampdu_x16;
	/* VHT and HE always carry an A-MPDU, even of one MPDU */
	f->delim = (agg || f->x.kind >= AF_VHT) ? AIRFAIR_P_DELIM_LEN : 0;
	f->sifs_ns = t->sifs_us * NS_PER_US;
	f->aifs_ns = airfair_aifs_ns(t, ac);
	f->resp_ns = (u32)af_ppdu_ns(&cx, agg ? t->ba_len : t->ack_len);
	f->att_q32 = af_attempts_q32(t, loss_q16, ppdu_loss_q16, ac,
				     &f->backoff_ns);
	return 0;
}

/* @v per PPDU, per MPDU */
static u64 af_share(u64 v, u16 n_x16)
{
	if (n_x16 <= AIRFAIR_AMPDU_ONE)
		return v;
	return div_u64(v * AIRFAIR_AMPDU_ONE + n_x16 / 2, n_x16);
}

/* The PSDU of a frame of @len bytes, a mean of n MPDUs: n subframes */
static u32 af_psdu_len(const struct airfair_timing *t,
		       const struct af_frame *f, u32 len)
{
	u64 sub = (u64)len + t->overhead_len + f->delim;

	if (f->n_x16 > AIRFAIR_AMPDU_ONE)	/* subframes padded to 4 bytes */
		sub = (sub + 3) & ~3ULL;
	return (u32)div_u64(sub * f->n_x16 + AIRFAIR_AMPDU_ONE / 2,
			    AIRFAIR_AMPDU_ONE);
}

/*
 * Under a TXOP limit the AP sends the frames queued behind a success after
 * SIFS, without AIFS or backoff (leith-2005's n_d frames an access): n
 * exchanges of a PPDU, SIFS and ACK/BlockAck, SIFS apart, fill it. A burst
 * pays one AIFS and one first-attempt backoff, the n - 1 frames after the
 * first a SIFS each; retries start an access of their own. Returns what
 * that saves a PPDU against an access of its own, the first-attempt AIFS +
 * backoff less SIFS, times (n - 1) / n; 0 without a TXOP.
 */
static u64 af_txop_saving(const struct airfair_timing *t,
			  const struct af_frame *f, enum airfair_ac ac,
			  u64 ppdu_ns)
{
	u64 txop_ns = (u64)t->txop_us[ac] * NS_PER_US, n, first_bo;

	if (!txop_ns)
		return 0;
	n = div64_u64(txop_ns + f->sifs_ns,
		      ppdu_ns + 2 * (u64)f->sifs_ns + f->resp_ns);
	if (n <= 1)
		return 0;
	first_bo = (u64)airfair_ac_cwmin(t, ac) * t->slot_us * NS_PER_US / 2;
	return div64_u64((f->aifs_ns + first_bo - f->sifs_ns) * (n - 1), n);
}

u64 airfair_txop_saving_ns(const struct airfair_timing *t,
			   const struct tc_airfair_rate *r, u32 len,
			   enum airfair_ac ac, u16 ampdu_x16)
{
	struct af_frame f;

	if (len > AF_MAX_LEN || af_frame_setup(t, r, 0, 0, ac, ampdu_x16, &f))
		return 0;
	return af_txop_saving(t, &f, ac,
			      af_ppdu_ns(&f.x, af_psdu_len(t, &f, len)));
}

u64 airfair_frame_split_ns(const struct airfair_timing *t,
			   const struct tc_airfair_rate *r, u32 len,
			   u32 loss_q16, u32 ppdu_loss_q16, enum airfair_ac ac,
			   u16 ampdu_x16, struct airfair_breakdown *bd)
{
	struct airfair_breakdown b = { 0 };
	struct af_frame f;
	u64 ppdu, attempt, save, save_aifs;

	if (bd)
		*bd = b;
	if (len > AF_MAX_LEN ||
	    af_frame_setup(t, r, loss_q16, ppdu_loss_q16, ac, ampdu_x16, &f))
		return 0;

	b.psdu_len = af_psdu_len(t, &f, len);
	ppdu = af_ppdu_ns(&f.x, b.psdu_len);
	attempt = f.aifs_ns + ppdu + f.sifs_ns + f.resp_ns;
	/* a TXOP's saving comes off the AIFS first, the rest off the backoff */
	save = af_txop_saving(t, &f, ac, ppdu);
	save_aifs = min_t(u64, save, f.aifs_ns - f.sifs_ns);

	b.rate_kbps = af_kbps(&f.x);
	b.attempts_q16 = (u32)((f.att_q32 + (1U << 15)) >> 16);
	b.direct_ns = af_share(ppdu, f.n_x16);
	b.aifs_ns = af_share(f.aifs_ns - save_aifs, f.n_x16);
	b.sifs_ns = af_share(f.sifs_ns, f.n_x16);
	b.ack_ns = af_share(f.resp_ns, f.n_x16);
	b.backoff_ns = af_share(f.backoff_ns - min(save - save_aifs,
						    f.backoff_ns), f.n_x16);
	b.retries_ns = af_share(af_mul_shr32(attempt, f.att_q32 - (1ULL << 32)),
				f.n_x16);
	b.total_ns = b.direct_ns + b.aifs_ns + b.sifs_ns + b.ack_ns +
		     b.backoff_ns + b.retries_ns;
	if (bd)
		*bd = b;
	return b.total_ns;
}

u64 airfair_frame_ns(const struct airfair_timing *t,
		     const struct tc_airfair_rate *r, u32 len, u32 loss_q16,
		     enum airfair_ac ac, u16 ampdu_x16,
		     struct airfair_breakdown *bd)
{
	return airfair_frame_split_ns(t, r, len, loss_q16, loss_q16, ac,
				      ampdu_x16, bd);
}

static u32 af_sat32(u64 v)
{
	return v > U32_MAX ? U32_MAX : (u32)v;
}

/* a data symbol's ns per byte, as num / den */
static void af_byte_ns(const struct af_rate *x, u64 *num, u64 *den)
{
	if (x->kind == AF_DSSS) {
		*num = 8ULL * 1000000;
		*den = x->kbps;
	} else {
		*num = 8ULL * x->sym_ns;
		*den = x->ndbps;
	}
}

/*
 * What a PPDU takes besides its data bytes, as the affine fit counts it:
 * preamble, signal extension, the service and tail bits, and half of the
 * rounding quantum (a symbol; a microsecond for DSSS).
 */
static u64 af_ppdu_fixed_ns(const struct af_rate *x)
{
	u64 num, den, q, cont;

	if (x->kind == AF_DSSS)
		return x->pre_ns + x->sigext_ns + NS_PER_US / 2;
	af_byte_ns(x, &num, &den);
	q = x->sym_ns + (x->sgi ? AIRFAIR_P_SYM_LGI_NS : 0);
	cont = div64_u64((u64)(AIRFAIR_P_SERVICE_BITS +
			       AIRFAIR_P_TAIL_BITS * x->nes) * x->sym_ns +
			 den / 2, den);
	return x->pre_ns + x->sigext_ns + cont + q / 2;
}

u64 airfair_attempt_air_ns(const struct airfair_timing *t,
			   const struct tc_airfair_rate *r, enum airfair_ac ac,
			   bool agg)
{
	struct af_rate x, cx;

	if (airfair_timing_validate(t) || (unsigned int)ac >= AIRFAIR_NUM_ACS ||
	    af_resolve(r, &x) || af_ctrl_rate(t, &cx))
		return 0;
	return (u64)t->sifs_us * NS_PER_US + airfair_aifs_ns(t, ac) +
	       af_ppdu_fixed_ns(&x) +
	       af_ppdu_ns(&cx, agg ? t->ba_len : t->ack_len);
}

u64 airfair_backoff_ns(const struct airfair_timing *t, enum airfair_ac ac,
		       u32 attempts, u32 windows)
{
	u64 units;

	if (airfair_timing_validate(t) || (unsigned int)ac >= AIRFAIR_NUM_ACS)
		return 0;
	/* each waited CW / 2 slots, CW + 1 = its units times CWmin + 1 */
	units = (u64)windows * ((u32)airfair_ac_cwmin(t, ac) + 1);
	if (units <= attempts)
		return 0;
	return div_u64((units - attempts) * t->slot_us * NS_PER_US, 2);
}

u64 airfair_data_ns(const struct airfair_timing *t,
		    const struct tc_airfair_rate *r, u64 units, u32 len,
		    bool agg)
{
	struct af_rate x;
	u64 sub256;

	if (!units || airfair_timing_validate(t) || af_resolve(r, &x) ||
	    len > AF_MAX_LEN)
		return 0;
	/* an MPDU as the affine charge counts it: delimiter, mean pad 1.5 B */
	sub256 = ((u64)len + t->overhead_len +
		  (agg || x.kind >= AF_VHT ? AIRFAIR_P_DELIM_LEN : 0)) * 256 +
		 (agg ? 384 : 0);
	/* 8 L / 2^20 us a unit: 8000 L / 2^20 ns, L in 1/256 B */
	return mul_u64_u64_div_u64(units, sub256 * 8000, 1ULL << 28);
}

/*
 * Affine fit of airfair_frame_ns(): the per-byte slope is the mean data
 * time per byte (8 T_sym / N_DBPS, or 8 / rate for DSSS) times the
 * expected attempts; the intercept adds half of the PPDU's rounding
 * quantum so the error is centred: |affine - exact| <= E[N] q / 2 (plus
 * the A-MPDU padding), see docs/airtime-model.md.
 */
static int af_affine_cost(const struct airfair_timing *t,
			  const struct tc_airfair_rate *r, u32 loss_q16,
			  u32 ppdu_loss_q16, enum airfair_ac ac, u16 ampdu_x16,
			  u32 burst_len, struct airfair_affine *out)
{
	u64 num, den, fixed, b256, a, ovh256;
	struct af_frame f;

	if (!out ||
	    af_frame_setup(t, r, loss_q16, ppdu_loss_q16, ac, ampdu_x16, &f))
		return -EINVAL;

	af_byte_ns(&f.x, &num, &den);
	/* slope: ns/256 per byte, all attempts */
	b256 = div64_u64(af_mul_shr32(num * 256, f.att_q32) + den / 2, den);
	fixed = af_ppdu_fixed_ns(&f.x) + f.aifs_ns + f.sifs_ns + f.resp_ns;
	a = af_mul_shr32(fixed, f.att_q32) + f.backoff_ns;
	/* a TXOP is shared as bursts of @burst_len frames fill it */
	a -= min(a, af_txop_saving(t, &f, ac,
				   af_ppdu_ns(&f.x, af_psdu_len(t, &f,
								burst_len))));
	a = af_share(a, f.n_x16);
	/* MAC overhead bytes (+ delimiter, + mean pad 1.5 B in A-MPDUs) */
	ovh256 = ((u64)t->overhead_len + f.delim) * 256 +
		 (f.n_x16 > AIRFAIR_AMPDU_ONE ? 384 : 0);
	a += (b256 * ovh256) >> 16;

	out->a_ns = af_sat32(a);
	out->b_ns256 = af_sat32(b256);
	return 0;
}

int airfair_affine_cost(const struct airfair_timing *t,
			const struct tc_airfair_rate *r, u32 loss_q16,
			enum airfair_ac ac, u16 ampdu_x16,
			struct airfair_affine *out)
{
	return af_affine_cost(t, r, loss_q16, loss_q16, ac, ampdu_x16,
			      AIRFAIR_P_MTU_LEN, out);
}

int airfair_sta_costs(const struct airfair_timing *t,
		      const struct tc_airfair_rate *r, u32 loss_q16,
		      u32 ppdu_loss_q16, enum airfair_ac ac, u8 delack,
		      u16 ampdu_x16, u16 mss, enum airfair_model model,
		      struct airfair_sta_costs *out)
{
	u32 up_len = (u32)mss + AIRFAIR_P_TCPIP_HDR_LEN;
	struct airfair_timing st;
	struct af_frame f;
	u64 ack_ns, v;
	u32 kbps;
	int err;

	if (!out || !delack || !mss || (unsigned int)model >= __AIRFAIR_MODEL_MAX)
		return -EINVAL;
	*out = (struct airfair_sta_costs){ 0 };

	if (model == AIRFAIR_MODEL_NAIVE) {
		/* size / rate only: 8e9 / rate ns per byte */
		err = af_frame_setup(t, r, loss_q16, ppdu_loss_q16, ac,
				     ampdu_x16, &f);
		if (err)
			return err;
		kbps = airfair_rate_kbps(r);
		out->data.b_ns256 = (u32)div_u64(8ULL * 1000000 * 256 +
						 kbps / 2, kbps);
		out->tcp_down = out->data;
		out->ack = out->data;
		out->up = out->data;
		out->up_data_ns = af_sat32(airfair_affine_ns(&out->data,
							     up_len));
		return 0;
	}

	err = af_affine_cost(t, r, loss_q16, ppdu_loss_q16, ac, ampdu_x16,
			     up_len, &out->data);
	if (err)
		return err;
	/*
	 * A TXOP is the AP's, and its bursts are of the data it keeps queued:
	 * the stations' frames and the AP's pure ACKs (one per d segments
	 * received) each pay an access of their own.
	 */
	st = *t;
	st.txop_us[ac] = 0;
	out->up = out->data;
	if (t->txop_us[ac]) {
		err = af_affine_cost(&st, r, loss_q16, ppdu_loss_q16, ac,
				     ampdu_x16, up_len, &out->up);
		if (err)
			return err;
	}

	/* Eq. 7: the station's TCP ACK, at our rate to it, every d segments */
	ack_ns = airfair_frame_split_ns(&st, r, AIRFAIR_P_TCP_ACK_LEN, loss_q16,
					ppdu_loss_q16, ac, ampdu_x16, NULL);
	out->sta_ack_ns = af_sat32(ack_ns);
	out->tcp_down.b_ns256 = out->data.b_ns256;
	out->tcp_down.a_ns = af_sat32(out->data.a_ns +
				      div_u64(ack_ns + delack / 2, delack));

	/* the AP's pure ACK: exact at the nominal ACK length */
	out->ack.b_ns256 = out->data.b_ns256;
	v = ((u64)out->data.b_ns256 * AIRFAIR_P_TCP_ACK_LEN) >> 8;
	out->ack.a_ns = af_sat32(ack_ns > v ? ack_ns - v : 0);

	/* Eq. 9: one upload data frame, d of them per ACK */
	out->up_data_ns = af_sat32(airfair_frame_split_ns(&st, r, up_len,
							  loss_q16,
							  ppdu_loss_q16, ac,
							  ampdu_x16, NULL));
	return 0;
}

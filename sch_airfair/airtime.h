/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_airfair airtime model: integer PPDU durations and per-frame,
 * per-station airtime costs (chen-yan 2024 Eq. 1-9, extended).
 *
 * Builds in the kernel and in userspace:
 *  - kernel: Kbuild sets "ccflags-y += -I$(src)/../include", so the uapi
 *    header is reached as <uapi/linux/pkt_sched_airfair.h>;
 *  - userspace: compile with "-I<repo>/tools/include -I<repo>/include";
 *    tools/include/linux/{types,kernel,math64,errno}.h are tiny shims and
 *    <uapi/linux/pkt_sched_airfair.h> resolves in <repo>/include.
 * Always include the uapi header as <uapi/linux/pkt_sched_airfair.h>.
 *
 * No floating point, no allocation; all times in ns, loss in 1/65536.
 * See docs/airtime-model.md for the formulas and their derivation.
 */
#ifndef _SCH_AIRFAIR_AIRTIME_H
#define _SCH_AIRFAIR_AIRTIME_H

#include <linux/types.h>
#include <uapi/linux/pkt_sched_airfair.h>

#define AIRFAIR_LOSS_ONE	65536U	/* loss_q16 of probability 1 */

/* One PHY preset row, overridable field by field by tc. */
struct airfair_timing {
	u32 sifs_us;
	u32 slot_us;
	u16 cwmin;			/* aCWmin, 2^n - 1 */
	u16 cwmax;			/* aCWmax, 2^n - 1 */
	u8 aifsn[AIRFAIR_NUM_ACS];
	u16 txop_us[AIRFAIR_NUM_ACS];	/* the AP's data bursts; 0 = none */
	u8 retries;			/* R: retransmissions after the first attempt */
	u16 basic_rate;			/* control-response rate, 100 kbit/s */
	u8 sigext_us;			/* after control-response OFDM PPDUs */
	u16 ack_len;			/* bytes */
	u16 ba_len;			/* bytes */
	u16 overhead_len;		/* MAC hdr + LLC + security + FCS */
	u8 phy;				/* enum airfair_phy */
};

/* Expected airtime of one frame, split up; all ns except attempts. */
struct airfair_breakdown {
	u64 total_ns;		/* everything below summed */
	u64 direct_ns;		/* first attempt: data PPDU (A-MPDU share) */
	u64 aifs_ns;		/* first attempt: AIFS */
	u64 backoff_ns;		/* expected backoff, all attempts */
	u64 sifs_ns;		/* first attempt: SIFS before the ACK */
	u64 ack_ns;		/* first attempt: ACK/BlockAck PPDU (share) */
	u64 retries_ns;		/* expected extra attempts: AIFS+data+SIFS+ACK */
	u32 attempts_q16;	/* expected transmission attempts, q16 */
	u32 psdu_len;		/* bytes of the data PSDU (whole A-MPDU) */
	u32 rate_kbps;
};

/* Affine cost: cost(len) = a_ns + ((u64)b_ns256 * len >> 8). */
struct airfair_affine {
	u32 a_ns;
	u32 b_ns256;
};

struct airfair_sta_costs {
	struct airfair_affine data;	/* AP->STA data, no TCP ACK share */
	struct airfair_affine tcp_down;	/* AP->STA TCP data + STA's ACK / d (Eq. 7) */
	struct airfair_affine ack;	/* AP->STA pure TCP ACK frame itself */
	struct airfair_affine up;	/* STA->AP data (its rate if known, else ours) */
	u32 up_data_ns;			/* one MSS STA->AP data frame (Eq. 9) */
	u32 sta_ack_ns;			/* one STA->AP TCP ACK frame (Eq. 7's, 0: naive) */
};

/*
 * A TX rate as cfg80211 reports it (struct rate_info in the kernel, the
 * NL80211_RATE_INFO_* nest in nl80211), reduced to what both carry, so that
 * the mac80211 hook and airfair-feeder map it to a descriptor the same way
 * (airfair_rate_from_info).
 */
enum airfair_rate_kind {
	AIRFAIR_RI_LEGACY,
	AIRFAIR_RI_HT,
	AIRFAIR_RI_VHT,
	AIRFAIR_RI_HE,
	AIRFAIR_RI_OTHER,		/* EHT, S1G, DMG, ...: not modelled */
};

struct airfair_rate_info {
	u8 kind;			/* enum airfair_rate_kind */
	u8 mcs;				/* HT: 0-31 (nss from it); VHT, HE: per stream */
	u8 nss;				/* VHT, HE */
	u16 width_mhz;			/* 5, 10, 20, 40, 80, 160 (80+80 too), 320 */
	bool short_gi;			/* HT, VHT */
	u8 he_gi;			/* enum nl80211_he_gi */
	bool he_ru;			/* HE OFDMA resource unit: not modelled */
	u16 legacy;			/* 100 kbit/s */
};

/*
 * @band_2g: ERP timing for OFDM (signal extension); @short_preamble: DSSS
 * 2, 5.5 and 11 Mbit/s go with it. 0, or -EINVAL with the reason in @why.
 */
int airfair_rate_from_info(const struct airfair_rate_info *ri, bool band_2g,
			   bool short_preamble, struct tc_airfair_rate *r,
			   const char **why);
int airfair_timing_preset(enum airfair_phy phy, struct airfair_timing *t);
int airfair_timing_validate(const struct airfair_timing *t);
int airfair_rate_validate(const struct tc_airfair_rate *r);
u32 airfair_rate_kbps(const struct tc_airfair_rate *r);
/* the i-th legacy rate of the model, 100 kbit/s, ascending; 0 past the last */
u16 airfair_dsss_rate(unsigned int i);
u16 airfair_ofdm_rate(unsigned int i);
/* 0 if invalid or psdu_len > 4 MiB; saturates at U32_MAX */
u32 airfair_ppdu_ns(const struct tc_airfair_rate *r, u32 psdu_len);
/*
 * The long training fields of a PPDU at @r (HT, VHT, HE: by its spatial
 * streams) and the air of each in *@ltf_ns; 0 and 0 for a legacy or
 * invalid rate.
 */
u32 airfair_rate_ltfs(const struct tc_airfair_rate *r, u32 *ltf_ns);
/* per-AC contention windows derived from aCWmin/aCWmax (table 9-155) */
u16 airfair_ac_cwmin(const struct airfair_timing *t, enum airfair_ac ac);
u16 airfair_ac_cwmax(const struct airfair_timing *t, enum airfair_ac ac);
/* an AC's AIFS: SIFS + AIFSN slots, ns (@ac must be valid) */
u64 airfair_aifs_ns(const struct airfair_timing *t, enum airfair_ac ac);
/* the standard's TXOP limit of @ac under @phy, us (table 9-155; 0 if none) */
u16 airfair_phy_txop_us(enum airfair_phy phy, enum airfair_ac ac);
/* mac80211's hook counts cw_scale's 2^i up to here: CWmin 1 to CWmax 1023 */
#define AIRFAIR_CW_DOUBLINGS	10
/* doublings from the AC's CWmin to its CWmax, at most AIRFAIR_CW_DOUBLINGS */
u8 airfair_ac_doublings(const struct airfair_timing *t, enum airfair_ac ac);
/* expected attempts sum_{i=0}^{R} p^i, q16; 0 if loss_q16 > 65536 */
u32 airfair_attempts_q16(u32 loss_q16, u8 retries);
/*
 * The window a chain's attempts wait when its PPDUs fail at @ppdu_loss_q16:
 * the mean of 2^min(i, @doublings) over attempts 0..R, in 1/16 (as
 * mac80211's hook reports cw_scale, @doublings the AC's to CWmax, at most
 * AIRFAIR_CW_DOUBLINGS); 0 if the loss is invalid
 */
u32 airfair_cw_scale_x16(u32 ppdu_loss_q16, u8 retries, u8 doublings);
/* the PPDU loss whose chain waits @cw_scale_x16 (the least, bisected) */
u32 airfair_cw_scale_loss_q16(u32 cw_scale_x16, u8 retries, u8 doublings);
/*
 * Each MPDU's MAC overhead with @sec_len bytes of security (the cipher's
 * header and MIC; the presets count CCMP's 16)
 */
void airfair_timing_set_sec_len(struct airfair_timing *t, u8 sec_len);
/* PPDU duration of the control response (ACK or BlockAck) of len bytes */
u32 airfair_ctrl_ns(const struct airfair_timing *t, u32 len);
/*
 * What one PPDU attempt costs whatever its rate: AIFS, the mean backoff of
 * a window that doubles after each of the PPDUs that fail at
 * @ppdu_loss_q16 (CWmin's at 0), SIFS and the ACK (BlockAck if @agg); 0 if
 * @t, @ac or the loss is invalid
 */
u64 airfair_attempt_fixed_ns(const struct airfair_timing *t,
			     enum airfair_ac ac, bool agg, u32 ppdu_loss_q16);
/*
 * One PPDU attempt of @r's besides its data bytes and backoff: AIFS,
 * preamble, service and tail bits, SIFS, the ACK or BlockAck (@agg); as
 * airfair_sta_costs() charges it per attempt. 0 on invalid input.
 */
u64 airfair_attempt_air_ns(const struct airfair_timing *t,
			   const struct tc_airfair_rate *r, enum airfair_ac ac,
			   bool agg);
/*
 * The backoff @attempts PPDU attempts in @ac waited, drawn from windows
 * that add up to @windows units of the AC's CWmin + 1 (as mac80211's hook
 * counts them).
 */
u64 airfair_backoff_ns(const struct airfair_timing *t, enum airfair_ac ac,
		       u32 attempts, u32 windows);
/*
 * The data of MPDUs of @len bytes (before the MAC's overhead) whose
 * attempts add up to @units of 2^20 / Mbit/s each (mac80211's hook counts
 * them at the rate each went at); @r's kind and @agg say whether each
 * carries an A-MPDU delimiter and padding, as airfair_sta_costs() has it.
 */
u64 airfair_data_ns(const struct airfair_timing *t,
		    const struct tc_airfair_rate *r, u64 units, u32 len,
		    bool agg);
/*
 * What a first attempt of a PPDU of @ampdu_x16 MPDUs of @len bytes at @r
 * saves of its AIFS and backoff under @ac's TXOP limit, as airfair_frame_ns()
 * takes it off (bursts of such PPDUs); 0 without a TXOP or on invalid input.
 */
u64 airfair_txop_saving_ns(const struct airfair_timing *t,
			   const struct tc_airfair_rate *r, u32 len,
			   enum airfair_ac ac, u16 ampdu_x16);
u64 airfair_frame_ns(const struct airfair_timing *t,
		     const struct tc_airfair_rate *r, u32 len, u32 loss_q16,
		     enum airfair_ac ac, u16 ampdu_x16,
		     struct airfair_breakdown *bd);
/*
 * airfair_frame_ns() with the contention window doubling on a PPDU loss of
 * its own (see airfair_sta_costs()); airfair_frame_ns() is q = p.
 */
u64 airfair_frame_split_ns(const struct airfair_timing *t,
			   const struct tc_airfair_rate *r, u32 len,
			   u32 loss_q16, u32 ppdu_loss_q16, enum airfair_ac ac,
			   u16 ampdu_x16, struct airfair_breakdown *bd);
int airfair_affine_cost(const struct airfair_timing *t,
			const struct tc_airfair_rate *r, u32 loss_q16,
			enum airfair_ac ac, u16 ampdu_x16,
			struct airfair_affine *out);
/*
 * @loss_q16 scales the air (the share of it that delivered nothing),
 * @ppdu_loss_q16 the backoff (the share of PPDUs without an ACK or
 * BlockAck, which double the contention window); the same figure where
 * only one is known.
 */
int airfair_sta_costs(const struct airfair_timing *t,
		      const struct tc_airfair_rate *r, u32 loss_q16,
		      u32 ppdu_loss_q16, enum airfair_ac ac, u8 delack,
		      u16 ampdu_x16, u16 mss, enum airfair_model model,
		      struct airfair_sta_costs *out);

/* Hot path: one multiply-add, no division. */
static inline u64 airfair_affine_ns(const struct airfair_affine *c, u32 len)
{
	return c->a_ns + (((u64)c->b_ns256 * len) >> 8);
}

#endif /* _SCH_AIRFAIR_AIRTIME_H */

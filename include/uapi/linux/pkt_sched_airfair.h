/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_airfair: airtime-fair queueing for WiFi access points.
 *
 * The netlink interface shared by the kernel module, the tc plugin, the
 * rate/loss feeder and the test tools (docs/uapi.md). Once upstream,
 * attribute numbers are ABI: append only, never renumber. Until then a
 * release's module and tools go together (its Debian packages recommend
 * each other at the same version).
 */
#ifndef _UAPI_LINUX_PKT_SCHED_AIRFAIR_H
#define _UAPI_LINUX_PKT_SCHED_AIRFAIR_H

#include <linux/types.h>

/* PHY presets: each loads one row of the timing table (sch_airfair/phy_params.h). */
enum airfair_phy {
	AIRFAIR_PHY_11B,	/* DSSS/CCK, 2.4 GHz, long slot */
	AIRFAIR_PHY_11A,	/* OFDM, 5 GHz */
	AIRFAIR_PHY_11G,	/* ERP-OFDM, 2.4 GHz, short slot, 6 us signal extension */
	AIRFAIR_PHY_11N_2G,	/* HT, 2.4 GHz */
	AIRFAIR_PHY_11N_5G,	/* HT, 5 GHz */
	AIRFAIR_PHY_11AC,	/* VHT, 5 GHz */
	AIRFAIR_PHY_11AX_2G,	/* HE, 2.4 GHz */
	AIRFAIR_PHY_11AX_5G,	/* HE, 5 GHz */
	__AIRFAIR_PHY_MAX
};
#define AIRFAIR_PHY_MAX (__AIRFAIR_PHY_MAX - 1)

/* Access categories, in the order mac80211 numbers its queues. */
enum airfair_ac {
	AIRFAIR_AC_VO,
	AIRFAIR_AC_VI,
	AIRFAIR_AC_BE,
	AIRFAIR_AC_BK,
	AIRFAIR_NUM_ACS
};

/* Rate descriptor: how one PPDU is modulated. */
enum airfair_rate_mode {
	AIRFAIR_MODE_LEGACY,	/* DSSS/CCK or OFDM, chosen by @legacy */
	AIRFAIR_MODE_HT,
	AIRFAIR_MODE_VHT,
	AIRFAIR_MODE_HE,
	__AIRFAIR_MODE_MAX
};

enum airfair_bw {
	AIRFAIR_BW_20,
	AIRFAIR_BW_40,
	AIRFAIR_BW_80,
	AIRFAIR_BW_160,
	__AIRFAIR_BW_MAX
};

/* HT/VHT use LONG (0.8 us) and SHORT (0.4 us); HE uses 0.8/1.6/3.2 us. */
enum airfair_gi {
	AIRFAIR_GI_LONG,
	AIRFAIR_GI_SHORT,
	AIRFAIR_GI_HE_0_8 = AIRFAIR_GI_LONG,
	AIRFAIR_GI_HE_1_6 = 2,
	AIRFAIR_GI_HE_3_2 = 3,
	__AIRFAIR_GI_MAX
};

#define AIRFAIR_RATE_F_SHORT_PREAMBLE	(1 << 0)	/* DSSS/CCK 2, 5.5, 11 Mbit/s */
#define AIRFAIR_RATE_F_ERP		(1 << 1)	/* OFDM in 2.4 GHz: +6 us signal extension */
#define AIRFAIR_RATE_F_ALL		(AIRFAIR_RATE_F_SHORT_PREAMBLE | AIRFAIR_RATE_F_ERP)

/*
 * A PHY rate. On the wire it is the nest TCA_AIRFAIR_RATE_* below (in
 * TCA_AIRFAIR_STA_RATE and TCA_AIRFAIR_CSTATS_RATE); this struct is the
 * descriptor the airtime model and the tools fill from it.
 */
struct tc_airfair_rate {
	__u8	mode;		/* enum airfair_rate_mode */
	__u8	mcs;		/* HT 0-31, VHT 0-9, HE 0-11 */
	__u8	nss;		/* VHT/HE spatial streams 1-8; HT derives it from mcs */
	__u8	bw;		/* enum airfair_bw */
	__u8	gi;		/* enum airfair_gi */
	__u8	flags;		/* AIRFAIR_RATE_F_* */
	__u16	legacy;		/* LEGACY: rate in 100 kbit/s (10, 20, 55, 110, 60 ... 540) */
};

/* TCA_AIRFAIR_AIFSN: one u8 per access category; absent ones are kept. */
enum {
	TCA_AIRFAIR_AIFSN_UNSPEC,
	TCA_AIRFAIR_AIFSN_VO,		/* AIRFAIR_AC_VO + 1, ... */
	TCA_AIRFAIR_AIFSN_VI,
	TCA_AIRFAIR_AIFSN_BE,
	TCA_AIRFAIR_AIFSN_BK,
	__TCA_AIRFAIR_AIFSN_MAX
};
#define TCA_AIRFAIR_AIFSN_MAX (__TCA_AIRFAIR_AIFSN_MAX - 1)

/*
 * TCA_AIRFAIR_TXOP: one u16 per access category, the TXOP limit in us the
 * AP's data bursts under (0 = one frame an access); absent ones are kept.
 */
enum {
	TCA_AIRFAIR_TXOP_UNSPEC,
	TCA_AIRFAIR_TXOP_VO,		/* AIRFAIR_AC_VO + 1, ... */
	TCA_AIRFAIR_TXOP_VI,
	TCA_AIRFAIR_TXOP_BE,
	TCA_AIRFAIR_TXOP_BK,
	__TCA_AIRFAIR_TXOP_MAX
};
#define TCA_AIRFAIR_TXOP_MAX (__TCA_AIRFAIR_TXOP_MAX - 1)

enum {
	TCA_AIRFAIR_RATE_UNSPEC,
	TCA_AIRFAIR_RATE_MODE,		/* u8: enum airfair_rate_mode (required) */
	TCA_AIRFAIR_RATE_MCS,		/* u8 */
	TCA_AIRFAIR_RATE_NSS,		/* u8 */
	TCA_AIRFAIR_RATE_BW,		/* u8: enum airfair_bw */
	TCA_AIRFAIR_RATE_GI,		/* u8: enum airfair_gi */
	TCA_AIRFAIR_RATE_FLAGS,		/* u8: AIRFAIR_RATE_F_* */
	TCA_AIRFAIR_RATE_LEGACY,	/* u16: 100 kbit/s */
	__TCA_AIRFAIR_RATE_MAX
};
#define TCA_AIRFAIR_RATE_MAX (__TCA_AIRFAIR_RATE_MAX - 1)

enum airfair_model {
	AIRFAIR_MODEL_PRECISE,	/* direct + indirect airtime, TCP ACK airtime (chen-yan) */
	AIRFAIR_MODEL_NAIVE,	/* size / rate only */
	__AIRFAIR_MODEL_MAX
};

/* What an upload flow's ACK is charged for the station's data it acknowledges. */
enum airfair_upload {
	AIRFAIR_UPLOAD_OBSERVED,	/* the data frames the AP received since the
					 * flow's previous ACK (receive path)
					 */
	AIRFAIR_UPLOAD_ESTIMATED,	/* the flow's learned d data frames (chen-yan Eq. 9) */
	__AIRFAIR_UPLOAD_MAX
};

/* Which queued ACKs a newer ACK of the same flow may make redundant. */
enum airfair_ack_filter {
	AIRFAIR_ACK_FILTER_OFF,
	AIRFAIR_ACK_FILTER_CONSERVATIVE,	/* drop one only while two or more
						 * older redundant ACKs are queued
						 */
	AIRFAIR_ACK_FILTER_AGGRESSIVE,		/* also the only one, when it
						 * directly precedes the new ACK
						 */
	__AIRFAIR_ACK_FILTER_MAX
};

/* Where a station's rate and loss come from; a higher value wins. */
enum airfair_source {
	AIRFAIR_SRC_DEFAULT,	/* the PHY preset's basic rate, no loss */
	AIRFAIR_SRC_STATIC,	/* set with tc */
	AIRFAIR_SRC_FEEDER,	/* pushed by airfair-feeder from nl80211 */
	AIRFAIR_SRC_HOOK,	/* reported by the mac80211 hook */
	__AIRFAIR_SRC_MAX
};

/*
 * The values the kernel accepts for the options below, inclusive; tc checks
 * the same before it sends anything. Not listed: 0 to the type's maximum.
 */
#define AIRFAIR_LIMIT_MIN		1
#define AIRFAIR_LIMIT_MAX		1048576		/* packets */
#define AIRFAIR_MEMLIMIT_MIN		65536		/* bytes */
#define AIRFAIR_MEMLIMIT_MAX		1073741824
#define AIRFAIR_SIFS_SLOT_MIN_US	1
#define AIRFAIR_SIFS_SLOT_MAX_US	1000
#define AIRFAIR_AIFSN_MIN		1
#define AIRFAIR_AIFSN_MAX		15
#define AIRFAIR_TXOP_MAX_US		65535	/* TCA_AIRFAIR_TXOP_* are u16 */
#define AIRFAIR_MAX_RETRIES		15
#define AIRFAIR_UTIL_MIN		1		/* per mille */
#define AIRFAIR_UTIL_MAX		1000
#define AIRFAIR_UTIL_AUTO		0xffff		/* adapts to the air rate */
#define AIRFAIR_UTIL_AUTO_MAX_LIMIT	2000		/* per mille: auto's highest ceiling */
#define AIRFAIR_UTIL_AUTO_MAX_DEFAULT	2000
#define AIRFAIR_QUANTUM_MIN_US		1
#define AIRFAIR_QUANTUM_MAX_US		100000
#define AIRFAIR_DELACK_MIN		1
#define AIRFAIR_DELACK_MAX		16
#define AIRFAIR_TLAS_MAX		65536		/* packets */
#define AIRFAIR_TARGET_MIN_US		100
#define AIRFAIR_TARGET_MAX_US		10000000
#define AIRFAIR_INTERVAL_MIN_US		1000
#define AIRFAIR_INTERVAL_MAX_US		100000000
#define AIRFAIR_STATIONS_MIN		1
#define AIRFAIR_STATIONS_MAX		4096
#define AIRFAIR_STA_TIMEOUT_MAX_MS	86400000	/* 24 h; 0 = never */
#define AIRFAIR_MAX_AMPDU		64
#define AIRFAIR_AMPDU_ONE		16		/* MPDUs per PPDU in 1/16 */
#define AIRFAIR_PENDING_LIMIT_MAX_US	1000000
#define AIRFAIR_PENDING_LIMIT_AUTO	0xffffffff	/* adapts to the driver */
#define AIRFAIR_WEIGHT_MIN		1
#define AIRFAIR_WEIGHT_MAX		1024

/* Qdisc options (TCA_OPTIONS). Times in microseconds, loss in 1/65536. */
enum {
	TCA_AIRFAIR_UNSPEC,
	TCA_AIRFAIR_LIMIT,		/* u32: packets */
	TCA_AIRFAIR_MEMLIMIT,		/* u32: bytes of skb truesize */
	TCA_AIRFAIR_PHY,		/* u8: enum airfair_phy; loads the timing row */
	TCA_AIRFAIR_SIFS,		/* u32: us */
	TCA_AIRFAIR_SLOT,		/* u32: us */
	TCA_AIRFAIR_CWMIN,		/* u16: slots, 2^n - 1 */
	TCA_AIRFAIR_CWMAX,		/* u16: slots, 2^n - 1 */
	TCA_AIRFAIR_AIFSN,		/* nested TCA_AIRFAIR_AIFSN_*: u8 per AC */
	TCA_AIRFAIR_RETRIES,		/* u8: retry limit R */
	TCA_AIRFAIR_BASIC_RATE,		/* u16: control rate in 100 kbit/s */
	TCA_AIRFAIR_MODEL,		/* u8: enum airfair_model */
	TCA_AIRFAIR_UTILISATION,	/* u16: per mille of real time the meter grants; 0 = no meter,
					 * AIRFAIR_UTIL_AUTO = adaptive
					 */
	TCA_AIRFAIR_QUANTUM,		/* u32: airtime quantum per round, us */
	TCA_AIRFAIR_DELACK,		/* u8: default delayed-ACK factor d */
	TCA_AIRFAIR_ACK_FILTER,		/* u8: enum airfair_ack_filter */
	TCA_AIRFAIR_ACK_PRIO,		/* u8: 0 off, 1 on */
	TCA_AIRFAIR_TLAS,		/* u32: T-LAS threshold in packets, 0 off */
	TCA_AIRFAIR_RTT_BUFFER,		/* u8: 0 off, 1 on */
	TCA_AIRFAIR_TARGET,		/* u32: AQM target, us */
	TCA_AIRFAIR_INTERVAL,		/* u32: AQM interval, us */
	TCA_AIRFAIR_ECN,		/* u8: 0 drop, 1 mark */
	TCA_AIRFAIR_MAX_STATIONS,	/* u32 */
	TCA_AIRFAIR_STA_TIMEOUT,	/* u32: idle station ageing, ms */
	TCA_AIRFAIR_STATION,		/* nested TCA_AIRFAIR_STA_*: may repeat */
	TCA_AIRFAIR_AMPDU,		/* u8: MPDUs per A-MPDU the model assumes, 1 = none,
					 * 0 = auto (each station's, from the hook)
					 */
	TCA_AIRFAIR_PENDING_LIMIT,	/* u32: us of air the PHY may have pending below
					 * the qdisc (mac80211 hook); 0 = no limit,
					 * AIRFAIR_PENDING_LIMIT_AUTO = adaptive
					 */
	TCA_AIRFAIR_UPLOAD,		/* u8: enum airfair_upload */
	TCA_AIRFAIR_UPLOAD_WINDOW,	/* u8: 0 off, 1 bound upload flows' receive window */
	TCA_AIRFAIR_UTIL_AUTO_MAX,	/* u16: per mille of real time utilisation auto
					 * grants at most
					 */
	TCA_AIRFAIR_DEFER_DATA,		/* u8: 0 off, 1 best-effort data in AC_BK */
	TCA_AIRFAIR_TXOP,		/* nested TCA_AIRFAIR_TXOP_*: u16 us per AC */
	__TCA_AIRFAIR_MAX
};
#define TCA_AIRFAIR_MAX (__TCA_AIRFAIR_MAX - 1)

/* One station's static settings, nested in TCA_AIRFAIR_STATION. */
enum {
	TCA_AIRFAIR_STA_UNSPEC,
	TCA_AIRFAIR_STA_ADDR,		/* binary: 6-byte MAC (required) */
	TCA_AIRFAIR_STA_WEIGHT,		/* u16: relative airtime weight, 1-1024 */
	TCA_AIRFAIR_STA_RATE,		/* nested TCA_AIRFAIR_RATE_* */
	TCA_AIRFAIR_STA_LOSS,		/* u32: per-attempt loss, 1/65536 */
	TCA_AIRFAIR_STA_SOURCE,		/* u8: enum airfair_source (STATIC if absent) */
	TCA_AIRFAIR_STA_DELETE,		/* flag: forget this station's settings */
	TCA_AIRFAIR_STA_EXPECTED_TPUT,	/* u32: rate control's expected throughput, kbit/s */
	__TCA_AIRFAIR_STA_MAX
};
#define TCA_AIRFAIR_STA_MAX (__TCA_AIRFAIR_STA_MAX - 1)

/* Global statistics: nested in TCA_STATS_APP. */
enum {
	TCA_AIRFAIR_STATS_UNSPEC,
	TCA_AIRFAIR_STATS_PAD,
	TCA_AIRFAIR_STATS_AIRTIME,		/* u64: us charged in total */
	TCA_AIRFAIR_STATS_STATIONS,		/* u32: stations in the table */
	TCA_AIRFAIR_STATS_FLOWS,		/* u32: flows with packets queued */
	TCA_AIRFAIR_STATS_DROP_LIMIT,		/* u32 */
	TCA_AIRFAIR_STATS_DROP_MEMLIMIT,	/* u32 */
	TCA_AIRFAIR_STATS_DROP_AQM,		/* u32 */
	TCA_AIRFAIR_STATS_DROP_RTT,		/* u32 */
	TCA_AIRFAIR_STATS_DROP_ACKFILTER,	/* u32 */
	TCA_AIRFAIR_STATS_ECN_MARK,		/* u32 */
	TCA_AIRFAIR_STATS_METER_STALLS,		/* u32: dequeues held back by the meter */
	TCA_AIRFAIR_STATS_STA_OVERFLOW,		/* u32: packets sent via the overflow station */
	TCA_AIRFAIR_STATS_MEMORY_USED,		/* u32: bytes */
	TCA_AIRFAIR_STATS_NEW_FLOWS,		/* u32: flows seen since creation */
	TCA_AIRFAIR_STATS_RTT_SAMPLES,		/* u32: RTT samples taken (half round trips) */
	TCA_AIRFAIR_STATS_RTT_UNTRACKED,	/* u32: TCP flows the RTT table had no room for */
	TCA_AIRFAIR_STATS_PENDING_STALLS,	/* u32: dequeues held back by pending-limit */
	TCA_AIRFAIR_STATS_WINDOW_CLAMPS,	/* u32: upload ACKs whose window was lowered */
	TCA_AIRFAIR_STATS_PENDING_LIMIT,	/* u32: pending-limit in force, us (auto: now) */
	TCA_AIRFAIR_STATS_PENDING_UNDERRUNS,	/* u32: the radio ran dry while packets were
						 * held back (auto raises its limit)
						 */
	TCA_AIRFAIR_STATS_PENDING_STALE,	/* u32: times the PHY's pending figure stood
						 * still while packets were held back (the
						 * standing part is then not counted)
						 */
	TCA_AIRFAIR_STATS_UTILISATION,		/* u32: the meter's grant in force, per
						 * 65536 of real time (auto: now)
						 */
	TCA_AIRFAIR_STATS_CAP_STALLS,		/* u32: dequeues held back because every
						 * station with packets was an upload
						 * over its share of the grant
						 */
	TCA_AIRFAIR_STATS_QUEUE_BELOW,		/* u32: us the timed TCP downloads waited
						 * below the qdisc in the last meter
						 * interval (utilisation auto without
						 * the hook's backpressure)
						 */
	TCA_AIRFAIR_STATS_BELOW_CUTS,		/* u32: meter intervals whose grant was
						 * cut for the queue below
						 */
	__TCA_AIRFAIR_STATS_MAX
};
#define TCA_AIRFAIR_STATS_MAX (__TCA_AIRFAIR_STATS_MAX - 1)

/*
 * TCA_AIRFAIR_CSTATS_TOLD_COUNTS (nested): what the mac80211 hook's running
 * counts moved by over the reports that settled, in all (the instance's ACs)
 */
enum {
	TCA_AIRFAIR_TOLD_UNSPEC,
	TCA_AIRFAIR_TOLD_PAD,
	TCA_AIRFAIR_TOLD_PPDUS,		/* u64: PPDU attempts */
	TCA_AIRFAIR_TOLD_WINDOWS,	/* u64: their windows, in CWmin + 1 */
	TCA_AIRFAIR_TOLD_DATA,		/* u64: their MPDUs, 2^20 / Mbit/s each */
	TCA_AIRFAIR_TOLD_SINGLE,	/* u64: attempts of one MPDU */
	TCA_AIRFAIR_TOLD_LTFS,		/* u64: their preambles' long training fields */
	__TCA_AIRFAIR_TOLD_MAX
};
#define TCA_AIRFAIR_TOLD_MAX (__TCA_AIRFAIR_TOLD_MAX - 1)

/* Per-station (class) statistics: nested in TCA_STATS_APP of a class dump. */
enum {
	TCA_AIRFAIR_CSTATS_UNSPEC,
	TCA_AIRFAIR_CSTATS_PAD,
	TCA_AIRFAIR_CSTATS_ADDR,		/* binary: 6-byte MAC */
	TCA_AIRFAIR_CSTATS_AIRTIME,		/* u64: us charged */
	TCA_AIRFAIR_CSTATS_WEIGHT,		/* u16 */
	TCA_AIRFAIR_CSTATS_RATE,		/* nested TCA_AIRFAIR_RATE_* */
	TCA_AIRFAIR_CSTATS_RATE_KBPS,		/* u32: PHY rate of @RATE */
	TCA_AIRFAIR_CSTATS_LOSS,		/* u32: 1/65536 */
	TCA_AIRFAIR_CSTATS_SOURCE,		/* u8: enum airfair_source */
	TCA_AIRFAIR_CSTATS_SOURCE_AGE,		/* u32: ms since rate/loss last changed */
	TCA_AIRFAIR_CSTATS_COST_A,		/* u32: fixed cost per frame, ns (download data) */
	TCA_AIRFAIR_CSTATS_COST_B,		/* u32: cost per byte, ns/256 (download data) */
	TCA_AIRFAIR_CSTATS_DEFICIT,		/* s32: current deficit, ns */
	TCA_AIRFAIR_CSTATS_BACKLOG_PKTS,	/* u32 */
	TCA_AIRFAIR_CSTATS_BACKLOG_BYTES,	/* u32 */
	TCA_AIRFAIR_CSTATS_FLOWS_TCP_DOWN,	/* u32 */
	TCA_AIRFAIR_CSTATS_FLOWS_TCP_UP,	/* u32 */
	TCA_AIRFAIR_CSTATS_FLOWS_UDP,		/* u32 */
	TCA_AIRFAIR_CSTATS_FLOWS_OTHER,		/* u32 */
	TCA_AIRFAIR_CSTATS_DELACK,		/* u32: learned d, x256 (mean of upload flows) */
	TCA_AIRFAIR_CSTATS_DROPS,		/* u32 */
	TCA_AIRFAIR_CSTATS_PACKETS,		/* u64: dequeued */
	TCA_AIRFAIR_CSTATS_BYTES,		/* u64: dequeued */
	TCA_AIRFAIR_CSTATS_EXPECTED_TPUT,	/* u32: kbit/s, from the hook or the feeder */
	TCA_AIRFAIR_CSTATS_PENDING_AIRTIME,	/* u32: us handed to the driver, not yet
						 * reported back (mac80211 hook only)
						 */
	TCA_AIRFAIR_CSTATS_PHY_PENDING_AIRTIME,	/* u32: the same for the whole PHY */
	TCA_AIRFAIR_CSTATS_RTT_US,		/* u32: mean RTT estimate of recent TCP flows
						 * (sample-weighted), us; 0 none
						 */
	TCA_AIRFAIR_CSTATS_UPLOAD_FRAMES,	/* u64: TCP data frames received from the
						 * station and charged to it (upload observed)
						 */
	TCA_AIRFAIR_CSTATS_BACKLOGGED,		/* u64: us the station had packets queued
						 * (its share is max-min fair only while
						 * it is backlogged)
						 */
	TCA_AIRFAIR_CSTATS_DELACK_DOWN,		/* u32: d of download flows, x256 (mean;
						 * learnt from the station's ACKs)
						 */
	TCA_AIRFAIR_CSTATS_AMPDU,		/* u32: MPDUs per PPDU the hook measured,
						 * 1/16 (what ampdu auto charges)
						 */
	TCA_AIRFAIR_CSTATS_AMPDU_USED,		/* u8: not sent since the charge took
						 * fractions: @AMPDU_USED_X16
						 */
	TCA_AIRFAIR_CSTATS_UP_RATE,		/* nested, as @RATE: the station's own
						 * TX rate (hook), charged for what it sends
						 */
	TCA_AIRFAIR_CSTATS_UP_LOSS,		/* u32: its uplink loss estimate (Retry bit
						 * share), 1/65536
						 */
	TCA_AIRFAIR_CSTATS_UP_RATE_KBPS,	/* u32: PHY rate of @UP_RATE */
	TCA_AIRFAIR_CSTATS_UP_AMPDU,		/* u32: MPDUs per PPDU the hook saw the
						 * station send in, 1/16
						 */
	TCA_AIRFAIR_CSTATS_UP_AMPDU_USED,	/* u8: not sent: @UP_AMPDU_USED_X16 */
	TCA_AIRFAIR_CSTATS_AMPDU_USED_X16,	/* u32: MPDUs per PPDU the charge uses,
						 * 1/16
						 */
	TCA_AIRFAIR_CSTATS_UP_AMPDU_USED_X16,	/* u32: the same for what it sends */
	TCA_AIRFAIR_CSTATS_ACKED,		/* u32: MPDUs acknowledged per PPDU
						 * attempt the hook measured, 1/16
						 * (the charge's attempts per MPDU)
						 */
	TCA_AIRFAIR_CSTATS_PPDU_LOSS,		/* u32: share of PPDU attempts with no
						 * ACK or BlockAck the hook measured,
						 * 1/65536
						 */
	TCA_AIRFAIR_CSTATS_CW_SCALE,		/* u32: the window those attempts
						 * waited, mean 2^retry, 1/16 (the
						 * charge's backoff follows it)
						 */
	TCA_AIRFAIR_CSTATS_SETTLED,		/* s64: us the hook's running counts
						 * of what was sent moved the charges
						 * by, in all (+: it took more than
						 * it was charged); included in no
						 * other figure
						 */
	TCA_AIRFAIR_CSTATS_TOLD_AIR,		/* u64: us of air (preambles, data,
						 * SIFS, ACKs/BlockAcks) the settled
						 * running counts told, in all
						 */
	TCA_AIRFAIR_CSTATS_TOLD_WAIT,		/* u64: us of AIFS and backoff they
						 * told; with @TOLD_AIR what @SETTLED
						 * and airtime add up to
						 */
	TCA_AIRFAIR_CSTATS_TOLD_COUNTS,		/* nested: TCA_AIRFAIR_TOLD_* */
	TCA_AIRFAIR_CSTATS_FLOWS_TCP_BULK,	/* u32: of @FLOWS_TCP_DOWN, the data
						 * flows to the station past the T-LAS
						 * threshold (the station returns their
						 * ACKs)
						 */
	__TCA_AIRFAIR_CSTATS_MAX
};
#define TCA_AIRFAIR_CSTATS_MAX (__TCA_AIRFAIR_CSTATS_MAX - 1)

#endif /* _UAPI_LINUX_PKT_SCHED_AIRFAIR_H */

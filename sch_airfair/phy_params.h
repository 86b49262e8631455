/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_airfair: PHY/MAC timing data, the single source of truth.
 *
 * Everything here is data taken from IEEE Std 802.11-2020 (clauses 15-18
 * DSSS/OFDM/ERP, 19 HT, 21 VHT, 27 HE and table 9-155 EDCA defaults).
 * Rates are never listed: they are derived from subcarrier counts,
 * bits per subcarrier, coding rates and symbol times by airtime.c and by
 * testbed/airtime_ref.py, which parses THIS file.
 *
 * Format rules (the Python parser depends on them):
 *  - each table is "#define AIRFAIR_<NAME>_TABLE(X) { \" followed by one
 *    "X(...)," row per line (integer literals or AIRFAIR_PHY_* names
 *    only) and a closing "}": a brace initializer, rows in index order;
 *  - "@cols <NAME>: a b c" comment lines name the columns (repeated
 *    lines for one table concatenate);
 *  - scalar constants are "#define AIRFAIR_P_<NAME> <integer>";
 *  - AIRFAIR_PHY_NAMES is one brace list of string literals.
 * Times are in microseconds (_us) or nanoseconds (_ns) as suffixed.
 */
#ifndef _SCH_AIRFAIR_PHY_PARAMS_H
#define _SCH_AIRFAIR_PHY_PARAMS_H

/*
 * Per-PHY MAC timing: one row per enum airfair_phy, in enum order.
 * cwmin/cwmax are the PHY's aCWmin/aCWmax; the per-AC windows follow
 * from them (AIRFAIR_AC_TABLE). aifsn and txop are in VO, VI, BE, BK
 * order (table 9-155 defaults, txop in us, 0 = one MSDU). retries is R,
 * the number of RE-transmissions (dot11ShortRetryLimit 7 attempts = 6).
 * basic is the control-response rate for ACK/BlockAck in 100 kbit/s.
 * sigext is the signal extension after OFDM PPDUs in 2.4 GHz.
 *
 * @cols PHY: phy sifs_us slot_us cwmin cwmax aifsn_vo aifsn_vi aifsn_be
 * @cols PHY: aifsn_bk txop_vo txop_vi txop_be txop_bk retries basic sigext_us
 */
#define AIRFAIR_PHY_TABLE(X) { \
	X(AIRFAIR_PHY_11B,     10, 20, 31, 1023, 2, 2, 3, 7, 3264, 6016, 0, 0, 6, 10, 0), \
	X(AIRFAIR_PHY_11A,     16,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 0), \
	X(AIRFAIR_PHY_11G,     10,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 6), \
	X(AIRFAIR_PHY_11N_2G,  10,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 6), \
	X(AIRFAIR_PHY_11N_5G,  16,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 0), \
	X(AIRFAIR_PHY_11AC,    16,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 0), \
	X(AIRFAIR_PHY_11AX_2G, 10,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 6), \
	X(AIRFAIR_PHY_11AX_5G, 16,  9, 15, 1023, 2, 2, 3, 7, 1504, 3008, 0, 0, 6, 60, 0), \
}

/*
 * Preset names in enum airfair_phy order: what tc, airtime-calc, the
 * medium's configuration and the analysis accept and print. Input also
 * takes AIRFAIR_PHY_ALIAS_11AX for 11ax-5g (tc's first name for it).
 */
#define AIRFAIR_PHY_NAMES { "11b", "11a", "11g", "11n-2g", "11n-5g", "11ac", \
			    "11ax-2g", "11ax-5g" }
#define AIRFAIR_PHY_ALIAS_11AX "11ax"

/* What tc and airfair-stat call enum airfair_source's values (rate/loss origin). */
#define AIRFAIR_SOURCE_NAMES { "default", "static", "feeder", "hook" }

/*
 * EDCA contention windows per AC (table 9-155), VO, VI, BE, BK order:
 * CWmin[AC] = ((aCWmin + 1) >> min_shift) - 1;
 * CWmax[AC] = aCWmax if max_shift == 15, else ((aCWmin + 1) >> max_shift) - 1.
 *
 * @cols AC: ac min_shift max_shift
 */
#define AIRFAIR_AC_TABLE(X) { \
	X(0, 2, 1), \
	X(1, 1, 0), \
	X(2, 0, 15), \
	X(3, 0, 15), \
}

/* Frame sizes in bytes. */
#define AIRFAIR_P_ACK_LEN	14	/* ACK: FC, duration, RA, FCS */
#define AIRFAIR_P_BA_LEN	32	/* compressed BlockAck, 64-bit bitmap */
#define AIRFAIR_P_MAC_HDR_LEN	26	/* QoS data header, 3 addresses */
#define AIRFAIR_P_FCS_LEN	4
#define AIRFAIR_P_LLC_LEN	8	/* LLC/SNAP in front of the L3 packet */
#define AIRFAIR_P_SEC_LEN	16	/* CCMP header 8 + MIC 8 (WPA2/WPA3) */
#define AIRFAIR_P_DELIM_LEN	4	/* A-MPDU subframe delimiter */
#define AIRFAIR_P_HT_AMPDU_LEN	65535	/* largest A-MPDU, HT (exponent 3) */
#define AIRFAIR_P_VHT_AMPDU_LEN	1048575	/* largest A-MPDU, VHT/HE (exponent 7) */
#define AIRFAIR_P_PPDU_MAX_US	5484	/* aPPDUMaxTime: longest HT/VHT/HE PPDU */
#define AIRFAIR_P_TCP_ACK_LEN	52	/* IPv4 + TCP with timestamps */
#define AIRFAIR_P_TCPIP_HDR_LEN	40	/* L3 packet = MSS + this */
#define AIRFAIR_P_MTU_LEN	1500	/* the full-size packet a TXOP's bursts carry */

/* PHY framing: bits and durations. */
#define AIRFAIR_P_SERVICE_BITS	16
#define AIRFAIR_P_TAIL_BITS	6	/* per BCC encoder */
#define AIRFAIR_P_SIGEXT_US	6	/* ERP/HT/HE 2.4 GHz signal extension */

/* DSSS/CCK (clauses 15, 16): long PLCP 144 + 48 us, short 72 + 24 us. */
#define AIRFAIR_P_DSSS_LONG_PREAMBLE_US		192
#define AIRFAIR_P_DSSS_SHORT_PREAMBLE_US	96
#define AIRFAIR_P_DSSS_CHIP_RATE_KHZ		11000

/*
 * DSSS/CCK rates from the chip rate: rate = chip rate * bits / chips.
 * short: 1 if the short preamble is allowed at that rate.
 *
 * @cols DSSS: bits chips short
 */
#define AIRFAIR_DSSS_TABLE(X) { \
	X(1, 11, 0), \
	X(2, 11, 1), \
	X(4, 8, 1), \
	X(8, 8, 1), \
}

/* OFDM (clause 17): preamble 16 us + SIGNAL 4 us, 4 us symbols, 48 data subcarriers. */
#define AIRFAIR_P_OFDM_PREAMBLE_US	20
#define AIRFAIR_P_OFDM_SYM_NS		4000
#define AIRFAIR_P_OFDM_NSD		48

/*
 * Modulation and coding, one row per MCS index: bits per subcarrier
 * (N_BPSCS) and coding rate num/den. Legacy OFDM uses its own 8 rows.
 *
 * @cols OFDM: bpscs rnum rden
 * @cols MCS: bpscs rnum rden
 */
#define AIRFAIR_OFDM_TABLE(X) { \
	X(1, 1, 2), \
	X(1, 3, 4), \
	X(2, 1, 2), \
	X(2, 3, 4), \
	X(4, 1, 2), \
	X(4, 3, 4), \
	X(6, 2, 3), \
	X(6, 3, 4), \
}

/* HT uses rows 0-7 (mcs % 8), VHT 0-9, HE 0-11. */
#define AIRFAIR_MCS_TABLE(X) { \
	X(1, 1, 2), \
	X(2, 1, 2), \
	X(2, 3, 4), \
	X(4, 1, 2), \
	X(4, 3, 4), \
	X(6, 2, 3), \
	X(6, 3, 4), \
	X(6, 5, 6), \
	X(8, 3, 4), \
	X(8, 5, 6), \
	X(10, 3, 4), \
	X(10, 5, 6), \
}

#define AIRFAIR_P_HT_MAX_MCS	31
#define AIRFAIR_P_HT_MAX_NSS	4
#define AIRFAIR_P_VHT_MAX_MCS	9
#define AIRFAIR_P_HE_MAX_MCS	11
#define AIRFAIR_P_MAX_NSS	8

/*
 * Data subcarriers N_SD per bandwidth (20, 40, 80, 160 MHz);
 * 0 = bandwidth not defined for that PHY.
 *
 * @cols NSD: bw ht vht he
 */
#define AIRFAIR_NSD_TABLE(X) { \
	X(0, 52, 52, 234), \
	X(1, 108, 108, 468), \
	X(2, 0, 234, 980), \
	X(3, 0, 468, 1960), \
}

/* Number of long training fields per NSS 1..8 (HT, VHT, HE alike). */
#define AIRFAIR_P_MAX_NLTF	8
/* @cols NLTF: nss nltf */
#define AIRFAIR_NLTF_TABLE(X) { \
	X(1, 1), \
	X(2, 2), \
	X(3, 4), \
	X(4, 4), \
	X(5, 6), \
	X(6, 6), \
	X(7, 8), \
	X(8, 8), \
}

/*
 * HT mixed format (19.3): L-STF 8 + L-LTF 8 + L-SIG 4 + HT-SIG 8 +
 * HT-STF 4 = 32 us, then 4 us per HT-LTF. One BCC encoder per 300 Mb/s.
 * Symbol 4 us (long GI) or 3.6 us (short GI); short GI TXTIME is
 * rounded up to whole 4 us symbols.
 */
#define AIRFAIR_P_HT_PREAMBLE_US	32
#define AIRFAIR_P_HT_LTF_US		4
#define AIRFAIR_P_HT_ENC_MBPS		300
#define AIRFAIR_P_SYM_LGI_NS		4000
#define AIRFAIR_P_SYM_SGI_NS		3600

/*
 * VHT (21.3): L-STF 8 + L-LTF 8 + L-SIG 4 + VHT-SIG-A 8 + VHT-STF 4 +
 * VHT-SIG-B 4 = 36 us, plus 4 us per VHT-LTF. BCC encoders: one per
 * 600 Mb/s at the short-GI rate, the next count dividing N_DBPS/N_CBPS.
 */
#define AIRFAIR_P_VHT_PREAMBLE_US	36
#define AIRFAIR_P_VHT_LTF_US		4
#define AIRFAIR_P_VHT_ENC_MBPS		600

/*
 * VHT MCS/NSS/bandwidth combinations the standard excludes
 * (tables 21-30 to 21-61).
 *
 * @cols VHTX: bw mcs nss
 */
#define AIRFAIR_VHT_EXCLUDED_TABLE(X) { \
	X(0, 9, 1), \
	X(0, 9, 2), \
	X(0, 9, 4), \
	X(0, 9, 5), \
	X(0, 9, 7), \
	X(0, 9, 8), \
	X(2, 6, 3), \
	X(2, 6, 7), \
	X(2, 9, 6), \
	X(3, 9, 3), \
}

/*
 * HE SU PPDU (27.3): L-STF 8 + L-LTF 8 + L-SIG 4 + RL-SIG 4 +
 * HE-SIG-A 8 + HE-STF 4 = 36 us, then N_LTF HE-LTF symbols.
 * Data symbol 12.8 us + GI. LDPC coding (no tail bits); packet
 * extension assumed 0 us.
 *
 * @cols HEGI: gi gi_ns ltf_ns
 */
#define AIRFAIR_P_HE_PREAMBLE_US	36
#define AIRFAIR_P_HE_SYM_NS		12800
#define AIRFAIR_HE_GI_TABLE(X) { \
	X(0, 800, 7200), \
	X(2, 1600, 8000), \
	X(3, 3200, 16000), \
}

#endif /* _SCH_AIRFAIR_PHY_PARAMS_H */

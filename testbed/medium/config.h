/* SPDX-License-Identifier: GPL-2.0 */
/* airfair-medium: configuration file and per-link channel model. */
#ifndef AIRFAIR_MEDIUM_CONFIG_H
#define AIRFAIR_MEDIUM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include "engine.h"

#define CFG_ANY		(-1)
#define CFG_MAX_LINKS	1024
#define CFG_MAX_EDCA	256

struct cfg_link {
	int tx, rx;			/* radio index or CFG_ANY */
	bool has_snr, has_loss, has_cap, has_signal;
	double snr_db;
	double loss;			/* per-attempt loss probability */
	uint32_t cap_kbps;		/* attempts faster than this fail */
	int signal_dbm;			/* reported signal for fixed-loss links */
};

struct cfg_edca {
	int radio;			/* or CFG_ANY */
	int ac;
	int aifsn, cwmin, cwmax, txop;	/* -1: keep default */
};

struct medium_cfg {
	uint64_t seed;
	double dilation;
	int stats_ms;
	int qlimit;
	bool qdrop_fattest;	/* queue-drop fattest */
	int retries;			/* cap on attempts per frame, 0: as mac80211 asks */
	int ampdu;			/* MPDUs per A-MPDU (HT and up), 0/1: none */
	bool beacons_all;		/* every beacon on the air, not 1 in k */
	int phy_2g, phy_5g;		/* enum airfair_phy */
	struct cfg_link def;		/* "default" line */
	int nlinks;
	struct cfg_link link[CFG_MAX_LINKS];
	int nedca;
	struct cfg_edca edca[CFG_MAX_EDCA];
};

void cfg_defaults(struct medium_cfg *c);
/* Returns 0, or -1 with a "file:line: message" in err. */
int cfg_load(struct medium_cfg *c, const char *path, char *err, size_t errlen);
int cfg_parse_line(struct medium_cfg *c, char *line, char *err, size_t errlen);
int cfg_parse_phy(const char *s);
int cfg_parse_ac(const char *s);

/* Channel model */
double per_from_snr(const struct tc_airfair_rate *r, double snr_db, uint32_t psdu_len);
double cfg_link_per(const struct medium_cfg *c, int tx, int rx, const struct tc_airfair_rate *r,
		    uint32_t psdu_len, int *signal);
bool cfg_edca_for(const struct medium_cfg *c, int radio, int ac, struct med_edca *p);

#endif

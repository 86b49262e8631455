// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-medium: wireless medium for mac80211_hwsim with DCF/EDCA contention,
 * per-link loss and ground-truth airtime. See docs/medium.md.
 *
 *   airfair-medium [options]              run as the hwsim medium (root, guest)
 *   airfair-medium --simulate [options]   synthetic saturated traffic, no kernel
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "medium.h"

static void usage(FILE *o)
{
	fputs("usage: airfair-medium [-c FILE] [-s SEED] [-k DILATION] [-S STATSFILE] [-I MS]\n"
	      "                      [-o JSON] [-v]... [-l LOG]\n"
	      "       airfair-medium --simulate [-c FILE] [-s SEED] [--stations N | --flows AC,AC,..]\n"
	      "                      [--phy PHY] [--rate R] [--len BYTES] [--duration S] [--loss P]\n"
	      "                      [--ampdu N]\n"
	      "                      [-o JSON] [-v]...\n"
	      "  -c FILE      configuration (docs/medium.md)\n"
	      "  -s SEED      random seed (overrides the file)\n"
	      "  -k K         time dilation: every duration x K (overrides the file)\n"
	      "  -S FILE      live stats JSON, rewritten every -I ms (default 1000)\n"
	      "  -o FILE      ground-truth JSON written at exit (SIGINT/SIGTERM)\n"
	      "  -v           log decisions (repeat for more); -l FILE to log there\n"
	      "       airfair-medium --per-table SNR [--len BYTES]\n"
	      "  --rate R     legacy Mbit/s (54, 11, ...), mcsN (HT, 20 MHz, long GI) or\n"
	      "               vhtN[/BW] (VHT MCS N, one stream, BW 20/40/80/160 MHz, default 80)\n"
	      "  --ampdu N    up to N MPDUs per A-MPDU, BlockAck (HT rates; 0/1: none)\n", o);
}

static int parse_rate(const char *s, struct tc_airfair_rate *r, int phy)
{
	memset(r, 0, sizeof(*r));
	if (!strncmp(s, "vht", 3)) {	/* vhtN[/BW]: VHT MCS N, one stream, long GI */
		const char *bw = strchr(s, '/');
		int mhz = bw ? atoi(bw + 1) : 80;

		r->mode = AIRFAIR_MODE_VHT;
		r->mcs = atoi(s + 3);
		r->nss = 1;
		r->bw = mhz == 20 ? AIRFAIR_BW_20 : mhz == 40 ? AIRFAIR_BW_40 :
			mhz == 80 ? AIRFAIR_BW_80 : mhz == 160 ? AIRFAIR_BW_160 : 0xff;
		return airfair_rate_validate(r);
	}
	if (!strncmp(s, "mcs", 3)) {
		r->mode = AIRFAIR_MODE_HT;
		r->mcs = atoi(s + 3);
		r->nss = 1;
		return airfair_rate_validate(r);
	}
	r->mode = AIRFAIR_MODE_LEGACY;
	r->legacy = (uint16_t)lround(atof(s) * 10);
	if (r->legacy >= 60 && (phy == AIRFAIR_PHY_11G || phy == AIRFAIR_PHY_11N_2G))
		r->flags = AIRFAIR_RATE_F_ERP;
	return airfair_rate_validate(r);
}

int main(int argc, char **argv)
{
	static struct medium_cfg cfg;
	struct sim_opts so = { .stations = 1, .len = 1500, .duration_s = 10.0, .loss = -1,
			       .ampdu = -1 };
	struct run_opts ro = { .stats_ms = -1 };
	const char *cfgfile = NULL, *rate = "54", *phy = NULL;
	long seed = -1;
	double dil = -1;
	bool simulate = false, per_table = false;
	double per_snr = 0;
	char err[600];
	int c, idx;
	static const struct option lo[] = {
		{ "simulate", no_argument, NULL, 'X' },
		{ "seed", required_argument, NULL, 's' },
		{ "stations", required_argument, NULL, 'n' },
		{ "flows", required_argument, NULL, 'f' },
		{ "phy", required_argument, NULL, 'p' },
		{ "rate", required_argument, NULL, 'r' },
		{ "len", required_argument, NULL, 'L' },
		{ "duration", required_argument, NULL, 'd' },
		{ "loss", required_argument, NULL, 'P' },
		{ "ampdu", required_argument, NULL, 'A' },
		{ "per-table", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};

	while ((c = getopt_long(argc, argv, "c:s:k:S:I:o:l:vh", lo, &idx)) != -1) {
		switch (c) {
		case 'c': cfgfile = optarg; break;
		case 's': seed = atol(optarg); break;
		case 'k': dil = atof(optarg); break;
		case 'S': ro.stats_file = optarg; break;
		case 'I': ro.stats_ms = atoi(optarg); break;
		case 'o': ro.json_file = optarg; break;
		case 'l': ro.log_file = optarg; break;
		case 'v': ro.verbose++; break;
		case 'X': simulate = true; break;
		case 'n': so.stations = atoi(optarg); break;
		case 'f': so.flows = optarg; break;
		case 'p': phy = optarg; break;
		case 'r': rate = optarg; break;
		case 'L': so.len = atoi(optarg); break;
		case 'd': so.duration_s = atof(optarg); break;
		case 'P': so.loss = atof(optarg); break;
		case 'A': so.ampdu = atoi(optarg); break;
		case 'T': per_snr = atof(optarg); per_table = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	cfg_defaults(&cfg);
	if (cfgfile && cfg_load(&cfg, cfgfile, err, sizeof(err))) {
		fprintf(stderr, "airfair-medium: %s\n", err);
		return 2;
	}
	if (seed >= 0)
		cfg.seed = (uint64_t)seed;
	if (dil > 0) {
		if (dil < 1 || dil > 10000) {
			fprintf(stderr, "airfair-medium: -k %g: want [1, 10000]\n", dil);
			return 2;
		}
		cfg.dilation = dil;
	}
	if (ro.stats_ms < 0)
		ro.stats_ms = cfg.stats_ms;
	if (per_table) {
		/* the SNR->PER model per HT MCS (20 MHz, long GI, one and two
		 * streams as mac80211_hwsim has): PER at --len and PHY rate x
		 * (1 - PER); "best" is what a throughput-maximising rate control
		 * should settle on, "best mcs1" with one stream */
		int best = 0, best1 = 0;
		double bt = -1;

		for (int mcs = 0; mcs < 16; mcs++) {
			struct tc_airfair_rate r = { .mode = AIRFAIR_MODE_HT, .mcs = mcs,
						     .nss = mcs / 8 + 1 };
			double per = per_from_snr(&r, per_snr, so.len + 4);
			double tp = airfair_rate_kbps(&r) / 1000.0 * (1 - per);

			printf("mcs %d rate_mbps %.1f per %.4f expected_mbps %.2f\n", mcs,
			       airfair_rate_kbps(&r) / 1000.0, per, tp);
			if (tp > bt) {
				bt = tp;
				best = mcs;
			}
			if (mcs == 7)
				best1 = best;
		}
		printf("best mcs %d snr %.1f len %d\n", best, per_snr, so.len);
		printf("best mcs1 %d snr %.1f len %d\n", best1, per_snr, so.len);
		{
			int bl = 0;

			bt = -1;
			for (int i = 0; airfair_ofdm_rate(i); i++) {
				struct tc_airfair_rate r = { .mode = AIRFAIR_MODE_LEGACY,
							     .legacy = airfair_ofdm_rate(i) };
				double per = per_from_snr(&r, per_snr, so.len + 4);
				double tp = r.legacy / 10.0 * (1 - per);

				printf("legacy %.0f per %.4f expected_mbps %.2f\n", r.legacy / 10.0, per, tp);
				if (tp > bt) {
					bt = tp;
					bl = r.legacy;
				}
			}
			printf("best legacy %.0f snr %.1f len %d\n", bl / 10.0, per_snr, so.len);
		}
		return 0;
	}
	if (simulate) {
		so.phy = phy ? cfg_parse_phy(phy) : AIRFAIR_PHY_11A;
		if (so.phy < 0) {
			fprintf(stderr, "airfair-medium: unknown phy '%s'\n", phy);
			return 2;
		}
		if (parse_rate(rate, &so.rate, so.phy)) {
			fprintf(stderr, "airfair-medium: bad rate '%s'\n", rate);
			return 2;
		}
		if (so.stations < 1 || so.stations >= MED_MAX_RADIOS || so.len < 14 || so.len > 7000) {
			fprintf(stderr, "airfair-medium: bad --stations or --len\n");
			return 2;
		}
		if (so.ampdu > MED_AMPDU_MAX ||
		    (so.ampdu > 1 && so.rate.mode == AIRFAIR_MODE_LEGACY)) {
			fprintf(stderr, "airfair-medium: --ampdu %d: want [0, %d] with an HT rate (mcsN)\n",
				so.ampdu, MED_AMPDU_MAX);
			return 2;
		}
		return run_simulation(&cfg, &so, &ro);
	}
	return run_hwsim(&cfg, &ro);
}

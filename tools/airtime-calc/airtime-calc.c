// SPDX-License-Identifier: GPL-2.0
/*
 * airtime-calc: print the airtime of one frame under the sch_airfair
 * model (sch_airfair/airtime.c, the same code the qdisc runs).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "airtime.h"
#include "phy_params.h"

static const char *const phy_names[] = AIRFAIR_PHY_NAMES;
static const char *const ac_names[] = { "vo", "vi", "be", "bk" };
static const char *const mode_names[] = { "legacy", "ht", "vht", "he" };

static void usage(FILE *f)
{
	fprintf(f,
"usage: airtime-calc [options]\n"
"Rate (default: vht, mcs 9, nss 1, 80 MHz, short GI):\n"
"  --mode legacy|ht|vht|he   --mcs N   --nss N   --bw 20|40|80|160\n"
"  --gi long|short|0.8|1.6|3.2   --legacy MBPS (1 2 5.5 11 6 9 ... 54)\n"
"  --short-preamble (DSSS)   --erp (OFDM in 2.4 GHz: signal extension)\n"
"Frame and link:\n"
"  --len BYTES   L3 packet length (default 1500)\n"
"  --loss P      per-attempt loss probability 0..1 (default 0)\n"
"  --ppdu-loss Q share of PPDU attempts that double the contention window,\n"
"                0..1 (default: --loss; the qdisc charges hook stations 0)\n"
"  --ac vo|vi|be|bk (default be)   --ampdu N MPDUs per A-MPDU (default 1)\n"
"  --class udp|tcp (default udp)   --dir down|up (default down)\n"
"  --delack D (default 2)   --mss BYTES (default 1460)\n"
"  --model precise|naive (default precise)\n"
"Timing (default: the preset of --phy, itself chosen from the mode):\n"
"  --phy 11b|11a|11g|11n-2g|11n-5g|11ac|11ax-2g|11ax-5g\n"
"  --sifs US --slot US --cwmin N --cwmax N --aifsn N --txop US (for --ac;\n"
"                --txop: the AP's data bursts, default none)\n"
"  --retries R --basic-rate MBPS\n"
"Output:\n"
"  --json        one JSON object instead of text\n"
"  --rates       the legacy rates the model knows (DSSS, then OFDM), Mbit/s\n"
"  --help        this text\n");
}

static int die(const char *what, const char *arg)
{
	fprintf(stderr, "airtime-calc: invalid %s '%s' (see --help)\n", what,
		arg);
	exit(1);
}

static long parse_long(const char *what, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < lo || v > hi)
		die(what, s);
	return v;
}

static double parse_double(const char *what, const char *s, double lo,
			   double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		die(what, s);
	return v;
}

static int lookup(const char *what, const char *s, const char *const *names,
		  int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	die(what, s);
	return -1;
}

enum { O_MODE = 256, O_MCS, O_NSS, O_BW, O_GI, O_LEGACY, O_SP, O_ERP, O_LEN,
	O_LOSS, O_PPDU_LOSS, O_AC, O_AMPDU, O_CLASS, O_DIR, O_DELACK, O_MSS,
	O_MODEL, O_PHY, O_SIFS, O_SLOT, O_CWMIN, O_CWMAX, O_AIFSN, O_TXOP, O_RETRIES,
	O_BASIC, O_JSON, O_RATES, O_HELP };

static const struct option opts[] = {
	{ "mode", 1, 0, O_MODE }, { "mcs", 1, 0, O_MCS }, { "nss", 1, 0, O_NSS },
	{ "bw", 1, 0, O_BW }, { "gi", 1, 0, O_GI }, { "legacy", 1, 0, O_LEGACY },
	{ "short-preamble", 0, 0, O_SP }, { "erp", 0, 0, O_ERP },
	{ "len", 1, 0, O_LEN }, { "loss", 1, 0, O_LOSS },
	{ "ppdu-loss", 1, 0, O_PPDU_LOSS }, { "ac", 1, 0, O_AC },
	{ "ampdu", 1, 0, O_AMPDU }, { "class", 1, 0, O_CLASS },
	{ "dir", 1, 0, O_DIR }, { "delack", 1, 0, O_DELACK },
	{ "mss", 1, 0, O_MSS }, { "model", 1, 0, O_MODEL },
	{ "phy", 1, 0, O_PHY }, { "sifs", 1, 0, O_SIFS },
	{ "slot", 1, 0, O_SLOT }, { "cwmin", 1, 0, O_CWMIN },
	{ "cwmax", 1, 0, O_CWMAX }, { "aifsn", 1, 0, O_AIFSN },
	{ "txop", 1, 0, O_TXOP },
	{ "retries", 1, 0, O_RETRIES }, { "basic-rate", 1, 0, O_BASIC },
	{ "json", 0, 0, O_JSON }, { "rates", 0, 0, O_RATES }, { "help", 0, 0, 'h' },
	{ 0 }
};

static void print_rates(void)
{
	unsigned int i;

	printf("dsss");
	for (i = 0; airfair_dsss_rate(i); i++)
		printf(" %g", airfair_dsss_rate(i) / 10.0);
	printf("\nofdm");
	for (i = 0; airfair_ofdm_rate(i); i++)
		printf(" %g", airfair_ofdm_rate(i) / 10.0);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct tc_airfair_rate r = { .mode = AIRFAIR_MODE_VHT, .mcs = 9,
				     .nss = 1, .bw = AIRFAIR_BW_80,
				     .gi = AIRFAIR_GI_SHORT };
	long sifs = -1, slot = -1, cwmin = -1, cwmax = -1, aifsn = -1, txop = -1;
	long retries = -1, phy = -1, len = 1500, ampdu = 1, delack = 2;
	long mss = 1460, bw;
	double loss = 0, ppdu_loss = -1, basic = -1;
	int ac = AIRFAIR_AC_BE, tcp = 0, up = 0, json = 0, c, err;
	enum airfair_model model = AIRFAIR_MODEL_PRECISE;
	struct airfair_sta_costs sc;
	struct airfair_breakdown bd;
	struct airfair_timing t;
	u32 loss_q16, ppdu_q16;
	u64 flow;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case O_MODE:
			r.mode = lookup("mode", optarg, mode_names, 4);
			break;
		case O_MCS:
			r.mcs = parse_long("mcs", optarg, 0, 255);
			break;
		case O_NSS:
			r.nss = parse_long("nss", optarg, 0, 255);
			break;
		case O_BW:
			bw = parse_long("bw", optarg, 20, 160);
			if (bw != 20 && bw != 40 && bw != 80 && bw != 160)
				die("bw", optarg);
			r.bw = bw == 20 ? 0 : bw == 40 ? 1 : bw == 80 ? 2 : 3;
			break;
		case O_GI:
			if (!strcmp(optarg, "long") || !strcmp(optarg, "0.8"))
				r.gi = AIRFAIR_GI_LONG;
			else if (!strcmp(optarg, "short") ||
				 !strcmp(optarg, "0.4"))
				r.gi = AIRFAIR_GI_SHORT;
			else if (!strcmp(optarg, "1.6"))
				r.gi = AIRFAIR_GI_HE_1_6;
			else if (!strcmp(optarg, "3.2"))
				r.gi = AIRFAIR_GI_HE_3_2;
			else
				die("gi", optarg);
			break;
		case O_LEGACY:
			r.mode = AIRFAIR_MODE_LEGACY;
			r.legacy = lround(parse_double("legacy rate", optarg,
						       1, 54) * 10);
			r.mcs = r.nss = r.bw = r.gi = 0;
			break;
		case O_SP:
			r.flags |= AIRFAIR_RATE_F_SHORT_PREAMBLE;
			break;
		case O_ERP:
			r.flags |= AIRFAIR_RATE_F_ERP;
			break;
		case O_LEN:
			len = parse_long("len", optarg, 0, 1 << 22);
			break;
		case O_LOSS:
			loss = parse_double("loss", optarg, 0, 1);
			break;
		case O_PPDU_LOSS:
			ppdu_loss = parse_double("ppdu-loss", optarg, 0, 1);
			break;
		case O_AC:
			ac = lookup("ac", optarg, ac_names, 4);
			break;
		case O_AMPDU:
			ampdu = parse_long("ampdu", optarg, 1,
					   AIRFAIR_MAX_AMPDU);
			break;
		case O_CLASS:
			if (strcmp(optarg, "udp") && strcmp(optarg, "tcp") &&
			    strcmp(optarg, "other"))
				die("class", optarg);
			tcp = !strcmp(optarg, "tcp");
			break;
		case O_DIR:
			if (strcmp(optarg, "down") && strcmp(optarg, "up"))
				die("dir", optarg);
			up = !strcmp(optarg, "up");
			break;
		case O_DELACK:
			delack = parse_long("delack", optarg, 1, 255);
			break;
		case O_MSS:
			mss = parse_long("mss", optarg, 1, 65535);
			break;
		case O_MODEL:
			if (!strcmp(optarg, "precise"))
				model = AIRFAIR_MODEL_PRECISE;
			else if (!strcmp(optarg, "naive"))
				model = AIRFAIR_MODEL_NAIVE;
			else
				die("model", optarg);
			break;
		case O_PHY:
			phy = strcmp(optarg, AIRFAIR_PHY_ALIAS_11AX) ?
			      lookup("phy", optarg, phy_names, __AIRFAIR_PHY_MAX) :
			      AIRFAIR_PHY_11AX_5G;
			break;
		case O_SIFS:
			sifs = parse_long("sifs", optarg, 0, 100000);
			break;
		case O_SLOT:
			slot = parse_long("slot", optarg, 0, 100000);
			break;
		case O_CWMIN:
			cwmin = parse_long("cwmin", optarg, 0, 65535);
			break;
		case O_CWMAX:
			cwmax = parse_long("cwmax", optarg, 0, 65535);
			break;
		case O_AIFSN:
			aifsn = parse_long("aifsn", optarg, 0, 255);
			break;
		case O_TXOP:
			txop = parse_long("txop", optarg, 0, AIRFAIR_TXOP_MAX_US);
			break;
		case O_RETRIES:
			retries = parse_long("retries", optarg, 0, 255);
			break;
		case O_BASIC:
			basic = parse_double("basic-rate", optarg, 1, 54);
			break;
		case O_JSON:
			json = 1;
			break;
		case O_RATES:
			print_rates();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc)
		die("argument", argv[optind]);

	if (phy < 0) {
		static const int by_mode[] = { AIRFAIR_PHY_11A,
			AIRFAIR_PHY_11N_5G, AIRFAIR_PHY_11AC,
			AIRFAIR_PHY_11AX_5G };

		phy = by_mode[r.mode < 4 ? r.mode : 0];
		if (r.mode == AIRFAIR_MODE_LEGACY && r.legacy <= 110 &&
		    r.legacy != 90)
			phy = AIRFAIR_PHY_11B;
		else if (r.flags & AIRFAIR_RATE_F_ERP)
			phy = r.mode == AIRFAIR_MODE_LEGACY ? AIRFAIR_PHY_11G :
			      r.mode == AIRFAIR_MODE_HT ? AIRFAIR_PHY_11N_2G :
			      AIRFAIR_PHY_11AX_2G;
	}
	airfair_timing_preset(phy, &t);
	if (sifs >= 0)
		t.sifs_us = sifs;
	if (slot >= 0)
		t.slot_us = slot;
	if (cwmin >= 0)
		t.cwmin = cwmin;
	if (cwmax >= 0)
		t.cwmax = cwmax;
	if (aifsn >= 0)
		t.aifsn[ac] = aifsn;
	if (txop >= 0)
		t.txop_us[ac] = txop;
	if (retries >= 0)
		t.retries = retries;
	if (basic >= 0)
		t.basic_rate = lround(basic * 10);
	if (airfair_timing_validate(&t)) {
		fprintf(stderr, "airtime-calc: invalid timing (SIFS/slot > 0, CW 2^n-1 with cwmin <= cwmax, AIFSN 1-15, retries 0-15, a legacy basic rate)\n");
		return 1;
	}
	err = airfair_rate_validate(&r);
	if (err) {
		fprintf(stderr, "airtime-calc: invalid rate: mode %s mcs %u nss %u bw %u gi %u legacy %.1f flags %#x is not a combination the standard defines\n",
			r.mode < 4 ? mode_names[r.mode] : "?", r.mcs, r.nss,
			20 << r.bw, r.gi, r.legacy / 10.0, r.flags);
		return 1;
	}
	if (ampdu > 1 && r.mode == AIRFAIR_MODE_LEGACY) {
		fprintf(stderr, "airtime-calc: A-MPDU needs an HT, VHT or HE rate\n");
		return 1;
	}
	loss_q16 = lround(loss * AIRFAIR_LOSS_ONE);
	ppdu_q16 = ppdu_loss < 0 ? loss_q16 : lround(ppdu_loss * AIRFAIR_LOSS_ONE);
	airfair_frame_split_ns(&t, &r, len, loss_q16, ppdu_q16, ac,
			       ampdu * AIRFAIR_AMPDU_ONE, &bd);
	if (airfair_sta_costs(&t, &r, loss_q16, ppdu_q16, ac, delack,
			      ampdu * AIRFAIR_AMPDU_ONE, mss, model, &sc)) {
		fprintf(stderr, "airtime-calc: cannot compute the station costs\n");
		return 1;
	}
	if (tcp && up)	/* Eq. 9: the AP's ACK for d uploaded segments */
		flow = airfair_affine_ns(&sc.ack, len) +
		       (u64)delack * sc.up_data_ns;
	else
		flow = airfair_affine_ns(tcp ? &sc.tcp_down : &sc.data, len);

	if (json) {
		printf("{\"phy\":\"%s\",\"rate_kbps\":%u,\"rate_mbps\":%.1f,\"len\":%ld,\"psdu_len\":%u,\"loss_q16\":%u,\"ppdu_loss_q16\":%u,\"ac\":\"%s\",\"ampdu\":%ld,"
		       "\"retries\":%u,\"attempts\":%.4f,\"direct_ns\":%llu,\"aifs_ns\":%llu,\"backoff_ns\":%llu,\"sifs_ns\":%llu,\"ack_ns\":%llu,"
		       "\"retries_ns\":%llu,\"total_ns\":%llu,\"indirect_ns\":%llu,\"class\":\"%s\",\"dir\":\"%s\",\"model\":\"%s\",\"delack\":%ld,"
		       "\"cost_a_ns\":%u,\"cost_b_ns256\":%u,\"flow_cost_ns\":%llu}\n",
		       phy_names[phy], bd.rate_kbps, bd.rate_kbps / 1000.0, len,
		       bd.psdu_len, loss_q16, ppdu_q16, ac_names[ac], ampdu,
		       t.retries,
		       bd.attempts_q16 / 65536.0,
		       (unsigned long long)bd.direct_ns,
		       (unsigned long long)bd.aifs_ns,
		       (unsigned long long)bd.backoff_ns,
		       (unsigned long long)bd.sifs_ns,
		       (unsigned long long)bd.ack_ns,
		       (unsigned long long)bd.retries_ns,
		       (unsigned long long)bd.total_ns,
		       (unsigned long long)(bd.total_ns - bd.direct_ns),
		       tcp ? "tcp" : "udp", up ? "up" : "down",
		       model == AIRFAIR_MODEL_NAIVE ? "naive" : "precise",
		       delack, sc.data.a_ns, sc.data.b_ns256,
		       (unsigned long long)flow);
		return 0;
	}
	printf("phy %s, rate %.1f Mbit/s, %ld B packet (PSDU %u B), loss %.4f, PPDU loss %.4f, AC %s, R %u, A-MPDU %ld\n",
	       phy_names[phy], bd.rate_kbps / 1000.0, len, bd.psdu_len,
	       loss_q16 / 65536.0, ppdu_q16 / 65536.0, ac_names[ac], t.retries,
	       ampdu);
	printf("  direct    %12.3f us  data PPDU (first attempt)\n",
	       bd.direct_ns / 1e3);
	printf("  aifs      %12.3f us\n", bd.aifs_ns / 1e3);
	printf("  backoff   %12.3f us  expected, all attempts\n",
	       bd.backoff_ns / 1e3);
	printf("  sifs      %12.3f us\n", bd.sifs_ns / 1e3);
	printf("  ack       %12.3f us  %s at %.1f Mbit/s\n", bd.ack_ns / 1e3,
	       ampdu > 1 ? "BlockAck" : "ACK", t.basic_rate / 10.0);
	printf("  retries   %12.3f us  expected attempts %.4f\n",
	       bd.retries_ns / 1e3, bd.attempts_q16 / 65536.0);
	printf("  indirect  %12.3f us\n", (bd.total_ns - bd.direct_ns) / 1e3);
	printf("  total     %12.3f us  (direct share %.1f%%)\n",
	       bd.total_ns / 1e3, 100.0 * bd.direct_ns / bd.total_ns);
	printf("flow cost (%s model, %s %s, d=%ld): %.3f us  [data a=%u ns b=%u ns/256/B]\n",
	       model == AIRFAIR_MODEL_NAIVE ? "naive" : "precise",
	       tcp ? "tcp" : "udp", up ? "up" : "down", delack, flow / 1e3,
	       sc.data.a_ns, sc.data.b_ns256);
	return 0;
}

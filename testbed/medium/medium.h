/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AIRFAIR_MEDIUM_H
#define AIRFAIR_MEDIUM_H

#include "config.h"

struct sim_opts {
	int stations;
	const char *flows;		/* "be,vo,...": one station per entry */
	int phy;
	struct tc_airfair_rate rate;
	int len;			/* MPDU bytes without FCS */
	double duration_s;		/* simulated */
	double loss;			/* <0: from the config */
	int ampdu;			/* <0: from the config */
};

struct run_opts {
	const char *stats_file, *json_file, *log_file;
	int stats_ms;
	int verbose;
};

int run_simulation(struct medium_cfg *cfg, struct sim_opts *so, struct run_opts *ro);
int run_hwsim(struct medium_cfg *cfg, struct run_opts *ro);
/* every callback context starts with this */
struct ctx_base {
	struct medium_cfg *cfg;
	int phy;			/* >= 0: force this PHY preset on all channels */
};

/* shared helpers */
void medium_setup(struct medium *m, struct medium_cfg *cfg, struct run_opts *ro, void *ctx);
int write_json_file(struct medium *m, const char *path, const char *(*name)(void *, int));
FILE *out_open(const char *path, char *tmp, size_t n);	/* tmp: >= 8 + strlen(path) */
int out_close(FILE *f, const char *path, const char *tmp);

#endif

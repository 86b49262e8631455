// SPDX-License-Identifier: GPL-2.0
/*
 * airfair-medium --simulate: drive the engine with saturated synthetic
 * uplink traffic (n stations -> AP, one rate), no kernel involved.
 * Used by the validation against Bianchi's model (testbed/bianchi.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "medium.h"

static double cb_per(void *ctx, int src, int dst, const struct tc_airfair_rate *r,
		     uint32_t len, int *signal)
{
	return cfg_link_per(((struct ctx_base *)ctx)->cfg, src, dst, r, len, signal);
}

static enum airfair_phy cb_phy(void *ctx, uint32_t freq)
{
	struct ctx_base *b = ctx;

	if (b->phy >= 0)
		return b->phy;
	return freq < 3000 ? b->cfg->phy_2g : b->cfg->phy_5g;
}

static bool cb_edca(void *ctx, int radio, int ac, struct med_edca *p)
{
	return cfg_edca_for(((struct ctx_base *)ctx)->cfg, radio, ac, p);
}

void medium_setup(struct medium *m, struct medium_cfg *cfg, struct run_opts *ro, void *ctx)
{
	med_init(m, cfg->seed);
	m->ctx = ctx;
	m->per = cb_per;
	m->phy_for = cb_phy;
	m->edca_for = cb_edca;
	m->qlimit = cfg->qlimit;
	m->qdrop_fattest = cfg->qdrop_fattest;
	m->retry_limit = cfg->retries;
	m->ampdu_max = cfg->ampdu;
	m->verbose = ro->verbose;
	m->log = stderr;
	if (ro->log_file) {
		m->log = fopen(ro->log_file, "w");
		if (!m->log) {
			perror(ro->log_file);
			m->log = stderr;
		}
		setvbuf(m->log, NULL, _IOLBF, 0);
	}
}

/*
 * Output files: a regular file (or a new one) is written beside and renamed
 * over, so readers never see half of it; anything else (/dev/null, a FIFO,
 * /dev/stdout) is written in place: renaming over it would put a regular
 * file where a device node was.
 */
FILE *out_open(const char *path, char *tmp, size_t n)
{
	struct stat st;

	tmp[0] = '\0';
	if (stat(path, &st) || S_ISREG(st.st_mode))
		snprintf(tmp, n, "%s.tmp", path);
	return fopen(tmp[0] ? tmp : path, "w");
}

int out_close(FILE *f, const char *path, const char *tmp)
{
	if (fclose(f))
		return -1;
	return tmp[0] ? rename(tmp, path) : 0;
}

int write_json_file(struct medium *m, const char *path, const char *(*name)(void *, int))
{
	char tmp[4096];
	FILE *f = out_open(path, tmp, sizeof(tmp));

	if (!f) {
		perror(path);
		return -1;
	}
	med_json(m, f, name);
	if (out_close(f, path, tmp)) {
		perror(path);
		return -1;
	}
	return 0;
}

struct sim_ctx {
	struct ctx_base base;
	struct medium *m;
	struct sim_opts *so;
	uint8_t sta_ac[MED_MAX_RADIOS];
	uint64_t cookie;
	int attempts_total;
};

static void sim_push(struct sim_ctx *s, int radio)
{
	struct med_frame *f = calloc(1, sizeof(*f));

	f->cookie = ++s->cookie;
	f->src = radio;
	f->dst = 0;
	f->ac = s->sta_ac[radio];
	f->len = s->so->len;
	f->freq = 5180;
	f->nrates = 1;
	f->rate[0] = s->so->rate;
	f->ampdu = s->so->rate.mode != AIRFAIR_MODE_LEGACY;
	f->count[0] = (uint8_t)(s->m->chan[0].t.retries + 1);
	if (!s->m->nchan)
		med_chan_get(s->m, f->freq);
	f->count[0] = (uint8_t)(s->m->chan[0].t.retries + 1);
	if (!med_enqueue(s->m, f))
		free(f);
}

static void sim_done(void *ctx, struct med_frame *f)
{
	struct sim_ctx *s = ctx;
	int src = f->src;

	free(f);
	sim_push(s, src);	/* saturated: always one more */
}

static const char *sim_name(void *ctx, int r)
{
	static char buf[MED_MAX_RADIOS][8];

	(void)ctx;
	if (r == 0)
		return "ap";
	snprintf(buf[r], sizeof(buf[r]), "sta%d", r);
	return buf[r];
}

int run_simulation(struct medium_cfg *cfg, struct sim_opts *so, struct run_opts *ro)
{
	static const char *const acn[] = { "vo", "vi", "be", "bk" };
	static struct medium m;
	struct sim_ctx s = { .base = { .cfg = cfg, .phy = so->phy }, .m = &m, .so = so };
	uint64_t tot_bytes = 0, tot_frames = 0, tot_att = 0, tot_fail = 0, tot_coll = 0;
	double secs = so->duration_s;
	int n = so->stations;

	if (so->flows) {
		char *dup = strdup(so->flows), *save = NULL, *t;

		n = 0;
		for (t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			int ac = cfg_parse_ac(t);

			if (ac < 0 || n + 1 >= MED_MAX_RADIOS) {
				fprintf(stderr, "airfair-medium: bad --flows entry '%s'\n", t);
				return 2;
			}
			s.sta_ac[++n] = (uint8_t)ac;
		}
		free(dup);
	} else {
		for (int i = 1; i <= n; i++)
			s.sta_ac[i] = AIRFAIR_AC_BE;
	}
	if (so->loss >= 0) {
		cfg->def.has_loss = true;
		cfg->def.has_snr = false;
		cfg->def.has_cap = false;
		cfg->def.loss = so->loss;
		cfg->nlinks = 0;
	}
	if (so->ampdu >= 0)
		cfg->ampdu = so->ampdu;
	medium_setup(&m, cfg, ro, &s);
	m.done = sim_done;
	/* saturated: a full A-MPDU's worth always queued (each one done queues the next) */
	m.qlimit = m.ampdu_max > 1 ? 2 * m.ampdu_max : 4;
	med_radio_add(&m, 0);
	for (int i = 1; i <= n; i++) {
		med_radio_add(&m, i);
		for (int k = 0; k < (m.ampdu_max > 1 ? m.ampdu_max : 1); k++)
			sim_push(&s, i);
	}
	med_run_until(&m, (uint64_t)(secs * 1e9));
	printf("# simulate: phy %d rate %u kbit/s len %d stations %d seed %llu duration %.1f s "
	       "ampdu %d\n", so->phy, airfair_rate_kbps(&so->rate), so->len, n,
	       (unsigned long long)cfg->seed, secs, m.ampdu_max);
	for (int i = 1; i <= n; i++) {
		struct med_cell *c = &m.cell[i][0][s.sta_ac[i]];

		printf("sta %d ac %s throughput_mbps %.4f frames %llu attempts %llu failures %llu "
		       "collisions %llu attempts_per_frame %.4f airtime_share %.4f mpdus_per_ppdu %.2f\n", i,
		       acn[s.sta_ac[i]], c->bytes * 8.0 / secs / 1e6, (unsigned long long)c->frames,
		       (unsigned long long)c->attempts, (unsigned long long)c->failures,
		       (unsigned long long)c->collisions,
		       c->frames + c->failures ? (double)c->attempts / (c->frames + c->failures) : 0,
		       (c->data_ns + c->ovh_ns + c->coll_ns + c->lost_ns) / (secs * 1e9),
		       c->attempts ? (double)(c->ampdu_mpdus + c->attempts - c->ampdus) / c->attempts : 0);
		tot_bytes += c->bytes;
		tot_frames += c->frames;
		tot_att += c->attempts;
		tot_fail += c->failures;
		tot_coll += c->collisions;
	}
	printf("total throughput_mbps %.4f frames %llu attempts %llu failures %llu collisions %llu "
	       "p_coll %.4f attempts_per_frame %.4f events %llu\n",
	       tot_bytes * 8.0 / secs / 1e6, (unsigned long long)tot_frames,
	       (unsigned long long)tot_att, (unsigned long long)tot_fail,
	       (unsigned long long)tot_coll, tot_att ? (double)tot_coll / tot_att : 0,
	       tot_frames + tot_fail ? (double)tot_att / (tot_frames + tot_fail) : 0,
	       (unsigned long long)m.events);
	if (ro->json_file && write_json_file(&m, ro->json_file, sim_name))
		return 1;
	return 0;
}

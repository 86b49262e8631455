// SPDX-License-Identifier: GPL-2.0
/*
 * Grid evaluator for the C-vs-Python comparison (airtime_grid.py).
 * stdin, one point per line:
 *   phy retries mode mcs nss bw gi flags legacy len loss_q16 ac ampdu_x16 d mss txop_us
 * stdout, one line per point:
 *   frame_ns data_a data_b256 tcp_a tcp_b256 ack_a ack_b256 up_data_ns
 * or "ERR" when the C model rejects the input. A line
 *   V mode mcs nss bw gi flags legacy
 * prints "<airfair_rate_validate()> <airfair_rate_kbps()>".
 */
#include <stdio.h>
#include "airtime.h"

int main(void)
{
	unsigned int phy, R, mode, mcs, nss, bw, gi, flags, legacy, len, loss,
		ac, ampdu, d, mss, txop;
	char line[256];

	while (fgets(line, sizeof(line), stdin)) {
		struct tc_airfair_rate r = { 0 };
		struct airfair_sta_costs c;
		struct airfair_timing t;
		unsigned long long f;

		if (line[0] == 'V') {
			if (sscanf(line + 1, "%u %u %u %u %u %u %u", &mode, &mcs,
				   &nss, &bw, &gi, &flags, &legacy) != 7)
				return 1;
			r = (struct tc_airfair_rate){
				.mode = mode, .mcs = mcs, .nss = nss, .bw = bw,
				.gi = gi, .flags = flags, .legacy = legacy,
			};
			printf("%d %u\n", airfair_rate_validate(&r),
			       airfair_rate_kbps(&r));
			continue;
		}
		if (sscanf(line, "%u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u",
			   &phy, &R, &mode, &mcs, &nss, &bw, &gi, &flags,
			   &legacy, &len, &loss, &ac, &ampdu, &d, &mss,
			   &txop) != 16 || ac >= AIRFAIR_NUM_ACS)
			return 1;
		r = (struct tc_airfair_rate){
			.mode = mode, .mcs = mcs, .nss = nss, .bw = bw,
			.gi = gi, .flags = flags, .legacy = legacy,
		};
		if (airfair_timing_preset(phy, &t)) {
			puts("ERR");
			continue;
		}
		t.retries = R;
		t.txop_us[ac] = txop;
		f = airfair_frame_ns(&t, &r, len, loss, ac, ampdu, NULL);
		if (!f || airfair_sta_costs(&t, &r, loss, loss, ac, d, ampdu, mss,
					    AIRFAIR_MODEL_PRECISE, &c)) {
			puts("ERR");
			continue;
		}
		printf("%llu %u %u %u %u %u %u %u\n", f, c.data.a_ns,
		       c.data.b_ns256, c.tcp_down.a_ns, c.tcp_down.b_ns256,
		       c.ack.a_ns, c.ack.b_ns256, c.up_data_ns);
	}
	return 0;
}

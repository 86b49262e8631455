// SPDX-License-Identifier: GPL-2.0
/*
 * The EDCA an AP advertises: the WMM Parameter element of its beacons and
 * (re)association responses (WMM specification 2.2.2; 802.11's own EDCA
 * Parameter Set carries the same records). A mac80211 station takes these for
 * its queues; hwsim does not pass them on, so the medium reads them where the
 * stations do, off the air, and hostapd's wmm_ac_* keys, set in its
 * configuration or at run time through its control socket, reach the
 * simulated contention as they would reach real stations.
 */
#include <string.h>
#include "engine.h"

#define WLAN_EID_VENDOR		221
#define WMM_OUI_TYPE		2
#define WMM_SUBTYPE_PARAM	1
#define WMM_PARAM_LEN		24	/* OUI 3, type, subtype, version, QoS info, 1, 4 x 4 */

/* WMM's ACI (0 BE, 1 BK, 2 VI, 3 VO) to mac80211's queue order */
static const uint8_t aci_to_ac[4] = {
	AIRFAIR_AC_BE, AIRFAIR_AC_BK, AIRFAIR_AC_VI, AIRFAIR_AC_VO
};

/* Where a management frame's elements start, 0 if it carries no WMM element. */
static uint32_t ies_offset(const uint8_t *f, uint32_t len)
{
	if (len < 24 || ((f[0] >> 2) & 3) != 0)
		return 0;
	switch (f[0] >> 4) {
	case 1:		/* association response: capability, status, AID */
	case 3:		/* reassociation response */
		return 24 + 6;
	case 8:		/* beacon: timestamp, interval, capability */
		return 24 + 12;
	}
	return 0;
}

bool med_wmm_parse(const uint8_t *f, uint32_t len, struct med_wmm *w)
{
	static const uint8_t wmm_oui[3] = { 0x00, 0x50, 0xf2 };
	uint32_t off = ies_offset(f, len);

	if (!off)
		return false;
	while (off + 2 <= len) {
		uint8_t id = f[off], elen = f[off + 1];
		const uint8_t *e = f + off + 2;

		if (off + 2 + elen > len)
			return false;	/* truncated: trust none of it */
		if (id == WLAN_EID_VENDOR && elen >= WMM_PARAM_LEN &&
		    !memcmp(e, wmm_oui, 3) && e[3] == WMM_OUI_TYPE &&
		    e[4] == WMM_SUBTYPE_PARAM && e[5] == 1) {
			bool seen[AIRFAIR_NUM_ACS] = { false };

			w->count = e[6] & 0x0f;
			for (int i = 0; i < 4; i++) {
				const uint8_t *rec = e + 8 + 4 * i;
				uint8_t ac = aci_to_ac[(rec[0] >> 5) & 3];
				struct med_edca *p = &w->p[ac];

				/* AIFSN 2..15 (an AP's own may be 1; a station's not) */
				if ((rec[0] & 0x0f) < 2 || seen[ac])
					return false;
				seen[ac] = true;
				p->aifsn = rec[0] & 0x0f;
				p->cwmin = (1u << (rec[1] & 0x0f)) - 1;
				p->cwmax = (1u << (rec[1] >> 4)) - 1;
				if (p->cwmin > p->cwmax)
					return false;
				p->txop_us = (uint32_t)(rec[2] | rec[3] << 8) * 32;
			}
			return true;
		}
		off += 2 + elen;
	}
	return false;
}

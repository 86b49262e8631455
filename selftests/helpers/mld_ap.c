// SPDX-License-Identifier: GPL-2.0
/*
 * Start a one-link AP MLD on an AP-type interface and add one associated, authorized
 * MLO station to it, through nl80211 alone (hostapd 2.10, the one bookworm carries,
 * cannot run an AP MLD). The station exists only in mac80211: frames to it leave the
 * AP and are never acknowledged, which is all a test of the TX status path needs.
 *
 * Usage: mld_ap DEV FREQ LINK_ADDR STA_MLD_ADDR STA_LINK_ADDR
 * DEV: up, type AP, on a wiphy with WIPHY_FLAG_SUPPORTS_MLO (mac80211_hwsim mlo=1).
 * FREQ: a 2.4 GHz frequency in MHz (20 MHz, no HT). Exit 0 on success, 4 when the kernel
 * cannot do MLO (the test SKIPs), 1 on any other error; the reason on stderr.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nl80211.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#define LINK_ID 0
#define BEACON_INT 100

static struct nl_sock *sk;
static int family, ifindex;

static int parse_mac(const char *s, unsigned char *mac)
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = b[i];
	}
	return 0;
}

static struct nl_msg *new_cmd(int cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0, cmd, 0) ||
	    nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex)) {
		fprintf(stderr, "mld_ap: out of memory\n");
		exit(1);
	}
	return msg;
}

/* Send, wait for the ACK; the kernel's error as -errno. */
static int send_cmd(struct nl_msg *msg, const char *what)
{
	int err = nl_send_sync(sk, msg);

	if (err < 0)
		fprintf(stderr, "mld_ap: %s: %s\n", what, nl_geterror(err));
	return err;
}

/* Beacon head: management header, fixed fields, SSID and supported rates. */
static size_t beacon_head(unsigned char *b, const unsigned char *bssid, const char *ssid)
{
	static const unsigned char rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
	size_t n = 0, len = strlen(ssid);

	memset(b, 0, 36);
	b[0] = 0x80;				/* beacon */
	memset(b + 4, 0xff, 6);			/* DA */
	memcpy(b + 10, bssid, 6);		/* SA */
	memcpy(b + 16, bssid, 6);		/* BSSID */
	n = 24 + 8;				/* + timestamp */
	b[n++] = BEACON_INT & 0xff;
	b[n++] = BEACON_INT >> 8;
	b[n++] = 0x01;				/* capability: ESS */
	b[n++] = 0x00;
	b[n++] = 0;				/* SSID */
	b[n++] = len;
	memcpy(b + n, ssid, len);
	n += len;
	b[n++] = 1;				/* supported rates */
	b[n++] = sizeof(rates);
	memcpy(b + n, rates, sizeof(rates));
	return n + sizeof(rates);
}

int main(int argc, char **argv)
{
	static const unsigned char sta_rates[] = { 2, 4, 11, 22, 12, 18, 24, 36, 48, 72, 96, 108 };
	static const char ssid[] = "airfair-mld";
	unsigned char link[6], sta_mld[6], sta_link[6], head[128];
	struct nl80211_sta_flag_update flags;
	struct nl_msg *msg;
	int freq, err;

	if (argc != 6 || (freq = atoi(argv[2])) <= 0 || parse_mac(argv[3], link) ||
	    parse_mac(argv[4], sta_mld) || parse_mac(argv[5], sta_link)) {
		fprintf(stderr, "usage: mld_ap DEV FREQ LINK_ADDR STA_MLD_ADDR STA_LINK_ADDR\n");
		return 1;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "mld_ap: no interface %s\n", argv[1]);
		return 1;
	}
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk) || (family = genl_ctrl_resolve(sk, "nl80211")) < 0) {
		fprintf(stderr, "mld_ap: cannot reach nl80211\n");
		return 1;
	}

	msg = new_cmd(NL80211_CMD_ADD_LINK);
	if (nla_put_u8(msg, NL80211_ATTR_MLO_LINK_ID, LINK_ID) ||
	    nla_put(msg, NL80211_ATTR_MAC, 6, link))
		return 1;
	err = send_cmd(msg, "add link");
	if (err == -NLE_INVAL || err == -NLE_OPNOTSUPP) {
		fprintf(stderr, "mld_ap: this wiphy or kernel has no AP MLD support\n");
		return 4;
	}
	if (err < 0)
		return 1;

	msg = new_cmd(NL80211_CMD_START_AP);
	if (nla_put_u8(msg, NL80211_ATTR_MLO_LINK_ID, LINK_ID) ||
	    nla_put(msg, NL80211_ATTR_BEACON_HEAD, beacon_head(head, link, ssid), head) ||
	    nla_put_u32(msg, NL80211_ATTR_BEACON_INTERVAL, BEACON_INT) ||
	    nla_put_u32(msg, NL80211_ATTR_DTIM_PERIOD, 2) ||
	    nla_put(msg, NL80211_ATTR_SSID, strlen(ssid), ssid) ||
	    nla_put_u32(msg, NL80211_ATTR_HIDDEN_SSID, NL80211_HIDDEN_SSID_NOT_IN_USE) ||
	    nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM) ||
	    nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, freq) ||
	    nla_put_u32(msg, NL80211_ATTR_CHANNEL_WIDTH, NL80211_CHAN_WIDTH_20_NOHT) ||
	    nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ1, freq))
		return 1;
	if (send_cmd(msg, "start AP on link 0") < 0)
		return 1;

	memset(&flags, 0, sizeof(flags));
	flags.mask = flags.set = 1u << NL80211_STA_FLAG_AUTHORIZED | 1u << NL80211_STA_FLAG_WME;
	msg = new_cmd(NL80211_CMD_NEW_STATION);
	if (nla_put(msg, NL80211_ATTR_MAC, 6, sta_link) ||
	    nla_put(msg, NL80211_ATTR_MLD_ADDR, 6, sta_mld) ||
	    nla_put_u8(msg, NL80211_ATTR_MLO_LINK_ID, LINK_ID) ||
	    nla_put(msg, NL80211_ATTR_STA_SUPPORTED_RATES, sizeof(sta_rates), sta_rates) ||
	    nla_put_u16(msg, NL80211_ATTR_STA_LISTEN_INTERVAL, 10) ||
	    nla_put_u16(msg, NL80211_ATTR_STA_AID, 1) ||
	    nla_put(msg, NL80211_ATTR_STA_FLAGS2, sizeof(flags), &flags))
		return 1;
	if (send_cmd(msg, "add MLO station") < 0)
		return 1;

	nl_socket_free(sk);
	return 0;
}

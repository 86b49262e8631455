// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_acks: send COUNT pure TCP ACKs of one flow, each acknowledging 1448
 * more bytes than the last, as Ethernet frames on DEV (through its qdisc),
 * from the device's address to DST_MAC / DST_IP. KIND shapes them:
 *   plain   ACK flag only, no options (54-byte frames)
 *   padded  the same, padded to the Ethernet minimum of 60 bytes
 *   psh     ACK|PSH
 *   ae      ACK with the AE (formerly NS) bit
 *   md5     ACK with a TCP-MD5 signature option
 * DST_MAC "random" gives each frame its own made-up (locally administered,
 * unicast) destination: an unknown-unicast flood.
 *
 *   tcp_acks DEV DST_MAC SRC_IP DST_IP KIND COUNT
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static unsigned short csum(const void *data, int len)
{
	const unsigned char *p = data;
	unsigned long sum = 0;

	for (; len > 1; len -= 2, p += 2)
		sum += (p[0] << 8) | p[1];
	if (len)
		sum += p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

int main(int argc, char **argv)
{
	unsigned char frame[128], dst[6];
	struct sockaddr_ll to = { .sll_family = AF_PACKET };
	int fd, count, i, optlen = 0, len;
	struct ifreq ifr = { 0 };
	struct ether_header *eth = (void *)frame;
	struct iphdr *ip = (void *)(frame + sizeof(*eth));
	struct tcphdr *th = (void *)(ip + 1);
	const char *kind;
	int random_dst;

	random_dst = argc == 7 && !strcmp(argv[2], "random");
	if (argc != 7 || (!random_dst &&
			  sscanf(argv[2], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &dst[0],
				 &dst[1], &dst[2], &dst[3], &dst[4], &dst[5]) != 6)) {
		fprintf(stderr, "usage: tcp_acks DEV DST_MAC SRC_IP DST_IP KIND COUNT\n");
		return 2;
	}
	kind = argv[5];
	count = atoi(argv[6]);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_IP));
	if (fd < 0) {
		perror("tcp_acks: socket");
		return 1;
	}
	if (random_dst) {
		int sndbuf = 8 << 20;	/* a flood is limited by the qdisc only */

		setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf));
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		perror("tcp_acks: SIOCGIFINDEX");
		return 1;
	}
	to.sll_ifindex = ifr.ifr_ifindex;
	to.sll_halen = 6;
	memcpy(to.sll_addr, dst, 6);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		perror("tcp_acks: SIOCGIFHWADDR");
		return 1;
	}

	memset(frame, 0, sizeof(frame));
	memcpy(eth->ether_dhost, dst, 6);
	memcpy(eth->ether_shost, ifr.ifr_hwaddr.sa_data, 6);
	eth->ether_type = htons(ETHERTYPE_IP);
	if (!strcmp(kind, "md5")) {
		unsigned char *o = (unsigned char *)(th + 1);

		o[0] = 1;		/* NOP, NOP, MD5SIG (kind 19, 18 bytes) */
		o[1] = 1;
		o[2] = 19;
		o[3] = 18;
		optlen = 20;
	} else if (strcmp(kind, "plain") && strcmp(kind, "padded") &&
		   strcmp(kind, "psh") && strcmp(kind, "ae")) {
		fprintf(stderr, "tcp_acks: unknown KIND '%s'\n", kind);
		return 2;
	}
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_TCP;
	ip->tot_len = htons(sizeof(*ip) + sizeof(*th) + optlen);
	if (inet_pton(AF_INET, argv[3], &ip->saddr) != 1 ||
	    inet_pton(AF_INET, argv[4], &ip->daddr) != 1) {
		fprintf(stderr, "tcp_acks: bad address\n");
		return 2;
	}
	ip->check = csum(ip, sizeof(*ip));
	th->source = htons(5001);
	th->dest = htons(40001);
	th->seq = htonl(1);
	th->doff = (sizeof(*th) + optlen) / 4;
	th->ack = 1;
	th->psh = !strcmp(kind, "psh");
	th->res1 = !strcmp(kind, "ae");	/* the AE bit is res1's lowest */
	th->window = htons(1000);
	len = sizeof(*eth) + sizeof(*ip) + sizeof(*th) + optlen;
	if (!strcmp(kind, "padded"))
		len = 60;
	srandom(getpid());
	for (i = 0; i < count; i++) {
		if (random_dst) {
			int b;

			for (b = 0; b < 6; b++)
				eth->ether_dhost[b] = random();
			eth->ether_dhost[0] = (eth->ether_dhost[0] & 0xfc) | 0x02;
			memcpy(to.sll_addr, eth->ether_dhost, 6);
		}
		th->ack_seq = htonl(1000 + 1448 * (i + 1));
		if (sendto(fd, frame, len, 0, (struct sockaddr *)&to, sizeof(to)) != len) {
			if (random_dst && errno == ENOBUFS)
				continue;	/* a flood: the qdisc drops */
			perror("tcp_acks: sendto");
			return 1;
		}
	}
	close(fd);
	return 0;
}

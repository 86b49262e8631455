// SPDX-License-Identifier: GPL-2.0
/*
 * udp_outq: send COUNT UDP datagrams of LEN bytes to ADDR:PORT as fast as the
 * socket takes them, print "sent N", then print the socket's unsent bytes
 * (SIOCOUTQ: the truesize of its skbs not yet freed anywhere below) every
 * 100 ms for SECONDS. A qdisc that loses track of queued packets on reset,
 * change or destroy leaves them charged to the socket for ever.
 *
 *   udp_outq ADDR PORT COUNT LEN SECONDS
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	int fd, count, len, secs, i, sent = 0, sndbuf = 8 << 20;
	char buf[65536] = { 0 };
	struct timespec tick = { 0, 100 * 1000 * 1000 };

	if (argc != 6 || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: udp_outq ADDR PORT COUNT LEN SECONDS\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	count = atoi(argv[3]);
	len = atoi(argv[4]);
	secs = atoi(argv[5]);
	if (len < 1 || len > (int)sizeof(buf) || count < 1 || secs < 0) {
		fprintf(stderr, "udp_outq: bad COUNT, LEN or SECONDS\n");
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
				 sizeof(sndbuf))) {
		perror("udp_outq: socket");
		return 1;
	}
	for (i = 0; i < count; i++)
		if (sendto(fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)&to,
			   sizeof(to)) == len)
			sent++;
	printf("sent %d\n", sent);
	fflush(stdout);
	for (i = 0; i <= secs * 10; i++) {
		int outq = 0;

		if (ioctl(fd, SIOCOUTQ, &outq)) {
			perror("udp_outq: SIOCOUTQ");
			return 1;
		}
		printf("outq %d\n", outq);
		fflush(stdout);
		nanosleep(&tick, NULL);
	}
	close(fd);
	return 0;
}

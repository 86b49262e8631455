// SPDX-License-Identifier: GPL-2.0
/*
 * udp_order: the order in which a qdisc lets two flows' packets out.
 *
 *   udp_order send ADDR LEN PORT:SRCPORT:COUNT...
 *	for each flow in turn, COUNT datagrams of LEN bytes from source port
 *	SRCPORT (the same 5-tuple every time) to ADDR:PORT, all from one
 *	process, so that the flows reach the qdisc within a millisecond.
 *   udp_order recv ADDR PORT_A PORT_B COUNT SECONDS
 *	receive on ADDR:PORT_A and ADDR:PORT_B; print one letter per datagram
 *	in arrival order (A or B), after COUNT of them or SECONDS, whichever is
 *	first, then a newline. Exit 0 if COUNT arrived, 1 if not.
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int udp_socket(const char *addr, int port, struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1, rcvbuf = 8 << 20;

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(port);
	if (fd < 0 || inet_pton(AF_INET, addr, &sa->sin_addr) != 1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	return fd;
}

static int send_flow(const char *addr, int len, const char *spec)
{
	struct sockaddr_in to, from;
	int port, sport, count, fd, i;
	static char buf[65536];

	if (sscanf(spec, "%d:%d:%d", &port, &sport, &count) != 3 || count < 1)
		return 2;
	fd = udp_socket(addr, port, &to);
	if (fd < 0)
		return 2;
	memset(&from, 0, sizeof(from));
	from.sin_family = AF_INET;
	from.sin_port = htons(sport);
	if (bind(fd, (struct sockaddr *)&from, sizeof(from))) {
		perror("udp_order: bind");
		return 2;
	}
	for (i = 0; i < count; i++) {
		if (sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) != len) {
			perror("udp_order: sendto");
			return 1;
		}
	}
	return 0;	/* the socket stays open: its datagrams may still be queued */
}

static int do_send(int argc, char **argv)
{
	int len = atoi(argv[1]), i, rc;

	if (len < 1 || len > 65536)
		return 2;
	for (i = 2; i < argc; i++) {
		rc = send_flow(argv[0], len, argv[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static int do_recv(char **argv)
{
	struct sockaddr_in a, b;
	struct pollfd p[2];
	int count = atoi(argv[3]), secs = atoi(argv[4]), got = 0, i;
	time_t end = time(NULL) + secs;
	char buf[65536];

	p[0].fd = udp_socket(argv[0], atoi(argv[1]), &a);
	p[1].fd = udp_socket(argv[0], atoi(argv[2]), &b);
	if (p[0].fd < 0 || p[1].fd < 0 || count < 1 ||
	    bind(p[0].fd, (struct sockaddr *)&a, sizeof(a)) ||
	    bind(p[1].fd, (struct sockaddr *)&b, sizeof(b))) {
		perror("udp_order: recv set-up");
		return 2;
	}
	p[0].events = p[1].events = POLLIN;
	/* the receiver is up: the caller may start sending */
	fprintf(stderr, "ready\n");
	while (got < count && time(NULL) < end) {
		if (poll(p, 2, 200) <= 0)
			continue;
		/* both readable: the kernel's arrival order is not known; take A first */
		for (i = 0; i < 2 && got < count; i++) {
			while (got < count && (p[i].revents & POLLIN) &&
			       recv(p[i].fd, buf, sizeof(buf), MSG_DONTWAIT) > 0) {
				putchar(i ? 'B' : 'A');
				got++;
				break;
			}
		}
	}
	putchar('\n');
	return got < count;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "send"))
		return do_send(argc - 2, argv + 2);
	if (argc == 7 && !strcmp(argv[1], "recv"))
		return do_recv(argv + 2);
	fprintf(stderr, "usage: udp_order send ADDR LEN PORT:SRCPORT:COUNT...\n"
			"       udp_order recv ADDR PORT_A PORT_B COUNT SECONDS\n");
	return 2;
}

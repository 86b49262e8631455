// SPDX-License-Identifier: GPL-2.0
/*
 * nlcapture.so: LD_PRELOAD shim for host-side tests of q_airfair.so.
 *
 * When tc is about to send a qdisc or class request (RTM_NEWQDISC,
 * RTM_NEWTCLASS) to the kernel, write the netlink message to the file named
 * by $AF_NLCAPTURE instead and exit(0): nothing reaches the kernel. The file
 * is in the format "tc monitor file FILE" reads, so the printing side of the
 * plugin can be run on exactly what the parsing side produced.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	static ssize_t (*real)(int, const struct msghdr *, int);
	const char *path = getenv("AF_NLCAPTURE");
	char buf[65536];
	size_t len = 0, i;

	if (!real)
		real = (ssize_t (*)(int, const struct msghdr *, int))
			dlsym(RTLD_NEXT, "sendmsg");
	for (i = 0; i < msg->msg_iovlen; i++) {
		size_t l = msg->msg_iov[i].iov_len;

		if (len + l > sizeof(buf))
			return real(fd, msg, flags);
		memcpy(buf + len, msg->msg_iov[i].iov_base, l);
		len += l;
	}
	if (path && len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (h->nlmsg_type == RTM_NEWQDISC ||
		    h->nlmsg_type == RTM_NEWTCLASS) {
			FILE *f = fopen(path, "w");

			if (!f || fwrite(buf, 1, NLMSG_ALIGN(h->nlmsg_len), f) !=
				  NLMSG_ALIGN(h->nlmsg_len) || fclose(f)) {
				perror("nlcapture");
				_exit(3);
			}
			_exit(0);
		}
	}
	return real(fd, msg, flags);
}

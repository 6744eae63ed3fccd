/* check_sink_ipv6.c: the tcp sink over the IPv6 loopback, or a skip. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check_run.h"
#include "check_stream.h"

START_TEST(test_tcp6_roundtrip)
{
	stream_roundtrip(AF_INET6);
}
END_TEST

/*
 * NULL when a socket can listen on ::1 here; otherwise why not (a
 * container or a kernel without IPv6, or its loopback switched off).
 */
static const char *
ipv6_missing(void)
{
	static char why[128];
	struct sockaddr_in6 sin6;
	int fd, rc;

	if ((fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		snprintf(why, sizeof why, "no IPv6 socket here: %s",
		    strerror(errno));
		return why;
	}
	memset(&sin6, 0, sizeof sin6);
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr = in6addr_loopback;
	rc = bind(fd, (struct sockaddr *)&sin6, sizeof sin6);
	if (rc != 0)
		snprintf(why, sizeof why, "no IPv6 loopback here: bind ::1: %s",
		    strerror(errno));
	close(fd);
	return rc == 0 ? NULL : why;
}

/* Build the suite. */
static Suite *
sink_ipv6_suite(void)
{
	Suite *s = suite_create("sink_ipv6");
	TCase *tc = tcase_create("sink_ipv6");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tcp6_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite where ::1 can be listened on; skip it elsewhere. */
int
main(void)
{
	return check_run_unless("check_sink_ipv6", ipv6_missing(),
	    sink_ipv6_suite);
}

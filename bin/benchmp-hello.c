/* benchmp-hello.c: the program lat_proc exec and shell start: says hello, exits 0. */
#include <unistd.h>

/* Write one line and exit; the smallest honest program to exec. */
int
main(void)
{
	static const char msg[] = "Hello world\n";

	return write(STDOUT_FILENO, msg, sizeof msg - 1) ==
	    (ssize_t)(sizeof msg - 1) ? 0 : 1;
}

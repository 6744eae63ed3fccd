/*
 * benchmp/lmbench.h: what lmbench 3's benchmark sources take from its
 * bench.h and lib_* files, on benchmp, so that such a source builds with
 * its include changed to this one and is linked with -lbenchmp-lmbench
 * -lbenchmp.  Written from lmbench's documented behaviour; timing(3)
 * says what each name does and where it differs.
 */
#ifndef BENCHMP_LMBENCH_H
#define BENCHMP_LMBENCH_H

#include <timing.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/select.h>

/*
 * lmbench's header brought in Sun RPC for lat_rpc; here only where the
 * compiler finds it (with libtirpc: -I/usr/include/tirpc, -ltirpc).
 */
#if defined(__has_include) && !defined(__CPPCHECK__)
#if __has_include(<rpc/rpc.h>)
#include <rpc/rpc.h>
#define XACT_PROG ((u_long)404040)
#define XACT_VERS ((u_long)1)
#define RPC_XACT ((u_long)1)
#define RPC_EXIT ((u_long)2)
#define BM_LMBENCH_RPC 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The integer names lmbench's sources use. */
typedef unsigned int uint;
typedef int64_t int64;
/* lmbench's name of the callback type (timing.h's support_f, bench_f). */
typedef void (*benchmp_f)(iter_t iterations, void *cookie);

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* Interval lengths benchmarks ask benchmp() for, in microseconds. */
#define REAL_SHORT 50000
#define SHORT 1000000
#define MEDIUM 2000000
#define LONGER 7500000
/* The bytes of one read or write of the bandwidth benchmarks. */
#ifndef XFERSIZE
#define XFERSIZE (64 * 1024)
#endif
/* The smallest cache line the memory benchmarks consider. */
#define SMALLEST_LINE 32
/* lmbench's file benchmarks time open and close too. */
#define TIME_OPEN2CLOSE

#define streq !strcmp
#ifndef ABS
#define ABS(x) ((x) < 0 ? -(x) : (x))
#endif
#ifdef DEBUG
#define debug(x) fprintf x
#else
#define debug(x)
#endif
/* A benchmark that hangs is killed after an hour, as lmbench's are. */
#define GO_AWAY do { (void)signal(SIGALRM, lmbench_go_away); \
	(void)alarm(60 * 60); } while (0)

/*
 * The servers' addresses: a negative number is a TCP or UDP port (its
 * absolute value), as lmbench's are without the portmapper.
 */
#define TCP_SELECT (-31233)
#define TCP_XACT (-31234)
#define TCP_CONTROL (-31235)
#define TCP_DATA (-31236)
#define TCP_CONNECT (-31237)
#define UDP_XACT (-31238)
#define UDP_DATA (-31239)
/*
 * The Unix-domain servers' paths: under $TMPDIR (else /tmp), named after
 * the user, so that two users do not meet on one name.
 */
#define UNIX_CONTROL lmbench_unix_path("ctl")
#define UNIX_DATA lmbench_unix_path("data")
#define UNIX_LAT lmbench_unix_path("lat")

/* sock_optimize()'s flags, and the buffer size it asks for. */
#define SOCKOPT_NONE 0
#define SOCKOPT_READ 0x0001
#define SOCKOPT_WRITE 0x0002
#define SOCKOPT_RDWR 0x0003
#define SOCKOPT_PID 0x0004
#define SOCKOPT_REUSE 0x0008
#ifndef SOCKBUF
#define SOCKBUF (1024 * 1024)
#endif

/* Where the reporting helpers of this header print (NULL: stderr). */
extern FILE *ftiming;

/* Print "Usage: PROG usage" to stderr and exit with status 255. */
void lmbench_usage(int argc, char *argv[], char *usage);
/* SIGALRM handler of GO_AWAY: exit(1). */
void lmbench_go_away(int sig);
/* SIGCHLD handler: reap the children that have exited. */
void sigchld_wait_handler(int signo);
/* Keep a result alive so that the compiler cannot drop its work. */
void use_int(int result);
void use_pointer(void *result);
/* "64k", "8m", "1g": a size in bytes (K, M, G are powers of 1024). */
uint64 bytes(char *s);
/* The last character of s (0 for ""). */
char last(char *s);
/* Write one byte in every page of buf, so that its pages exist. */
void touch(char *buf, int size);
/* max indices scaled by scale, in a random order (malloc'd). */
size_t *permutation(int max, int scale);
/* Copy the file src to dst (created with mode). 0, or -1. */
int cp(char *src, char *dst, mode_t mode);
/* Read count bytes of src as longs; their sum. */
long bread(void *src, long count);
/* big in hex, and as a size with a K, M, G... suffix (static buffers). */
char *p64(uint64 big);
char *p64sz(uint64 big);
/* The wall clock in microseconds, as an integer and as a double. */
uint64 now(void);
double Now(void);
/* Microseconds since the last call (0 the first time). */
uint64 delta(void);
/* Seconds since start() (wall clock). */
double Delta(void);
/* Seconds of the kept interval, gettime(). */
double timespent(void);
/* Send the reporting helpers' lines to out. */
void timing(FILE *out);
/*
 * The reporting helpers of lmbench's lib_timing, each on the kept
 * interval (gettime() microseconds), to ftiming, in lmbench's formats.
 * MB is 10^6 bytes and KB 10^3 bytes.
 */
void bandwidth(uint64 bytes, uint64 times, int verbose);
void latency(uint64 xfers, uint64 size);
void context(uint64 xfers);
void micromb(uint64 mb, uint64 n);
void ptime(uint64 n);
/* Resource use of this process since start() (one line to ftiming). */
void rusage(void);
/* lmbench's old calibration hook: does nothing here. */
void adjust(int usec);

/*
 * lmbench's option parser: getopt(3) of the C library, which lmbench's
 * sources reach through their plain getopt(), optind and optarg here.
 * mygetopt() is the same for a source that names it.
 */
int mygetopt(int ac, char **av, char *opts);

/* Statistics on arrays (median, mean, min, max, ...). */
int int_compare(const void *a, const void *b);
int uint64_compare(const void *a, const void *b);
int double_compare(const void *a, const void *b);
int int_median(int *values, int size);
uint64 uint64_median(uint64 *values, int size);
double double_median(double *values, int size);
int int_mean(int *values, int size);
uint64 uint64_mean(uint64 *values, int size);
double double_mean(double *values, int size);
int int_min(int *values, int size);
uint64 uint64_min(uint64 *values, int size);
double double_min(double *values, int size);
int int_max(int *values, int size);
uint64 uint64_max(uint64 *values, int size);
double double_max(double *values, int size);
double double_variance(double *values, int size);
double double_stderr(double *values, int size);
/* Least squares y = a + b x (sig NULL: equal weights). */
void regression(double *x, double *y, double *sig, int n, double *a,
    double *b, double *sig_a, double *sig_b, double *chi2);

/* The kept results, one interval per line, to stderr (debugging). */
void print_results(int details);
/* Quartiles of the kept results as bandwidth and as nanoseconds. */
void bw_quartile(uint64 bytes);
void nano_quartile(uint64 n);

/*
 * Network helpers.  On a failure they print why and exit(1), as lmbench's
 * do: the benchmarks that call them do not check.
 */
/* A listening TCP socket on port -prog (prog < 0) or any port. */
int tcp_server(int prog, int rdwr);
/* Nothing to undo without a portmapper: 0. */
int tcp_done(int prog);
/* Accept a connection on sock (retried on EINTR). */
int tcp_accept(int sock, int rdwr);
/* A TCP connection to port -prog of host. */
int tcp_connect(char *host, int prog, int rdwr);
/* Socket buffers of SOCKBUF for SOCKOPT_READ/WRITE, SO_REUSEADDR. */
void sock_optimize(int sock, int rdwr);
/* The local port of s. */
int sockport(int s);
/* A bound UDP socket on port -prog. */
int udp_server(u_long prog, int rdwr);
/* Nothing to undo without a portmapper. */
void udp_done(int prog);
/* A UDP socket connected to port -prog of host. */
int udp_connect(char *host, u_long prog, int rdwr);
/* A listening Unix-domain socket at path (an old one is removed). */
int unix_server(char *path);
/* Close sock and remove path. 0. */
int unix_done(int sock, char *path);
/* Accept a connection on sock (retried on EINTR). */
int unix_accept(int sock);
/* A connection to the Unix-domain socket at path. */
int unix_connect(char *path);
/* UNIX_CONTROL's, UNIX_DATA's and UNIX_LAT's paths (static storage). */
char *lmbench_unix_path(const char *what);

/*
 * The memory benchmarks' pointer chains (lmbench's lib_mem): a
 * mem_state says how long a buffer (len, and maxlen allocated), with
 * which line and page sizes and how many parallel chains (width); the
 * initialisers lay a circular chain of pointers through it (n 0 only),
 * mem_benchmark_N(n) follows N + 1 chains 100 n steps each.
 */
#define MAX_MEM_PARALLELISM 16
#define REPEAT_0(m) m(0)
#define REPEAT_1(m) REPEAT_0(m) m(1)
#define REPEAT_2(m) REPEAT_1(m) m(2)
#define REPEAT_3(m) REPEAT_2(m) m(3)
#define REPEAT_4(m) REPEAT_3(m) m(4)
#define REPEAT_5(m) REPEAT_4(m) m(5)
#define REPEAT_6(m) REPEAT_5(m) m(6)
#define REPEAT_7(m) REPEAT_6(m) m(7)
#define REPEAT_8(m) REPEAT_7(m) m(8)
#define REPEAT_9(m) REPEAT_8(m) m(9)
#define REPEAT_10(m) REPEAT_9(m) m(10)
#define REPEAT_11(m) REPEAT_10(m) m(11)
#define REPEAT_12(m) REPEAT_11(m) m(12)
#define REPEAT_13(m) REPEAT_12(m) m(13)
#define REPEAT_14(m) REPEAT_13(m) m(14)
#define REPEAT_15(m) REPEAT_14(m) m(15)
#define MEM_BENCHMARK_DECL(N) \
	void mem_benchmark_##N(iter_t iterations, void *cookie);

struct mem_state {
	char *addr;		/* what was allocated */
	char *base;		/* addr rounded up to a page */
	char *p[MAX_MEM_PARALLELISM];	/* where each chain starts */
	int initialized;
	int width;		/* chains followed at once */
	size_t len;		/* bytes the chain runs through */
	size_t maxlen;		/* bytes allocated */
	size_t line;		/* bytes between pointers */
	size_t pagesize;
	size_t nlines;		/* lines in a page */
	size_t npages;
	size_t nwords;		/* pointers in a line */
	size_t *pages;		/* page offsets, in chain order */
	size_t *lines;		/* line offsets in a page, in chain order */
	size_t *words;		/* word offsets in a line, in chain order */
	/* Where the chains stopped, so that the next call goes on from there. */
	char *resume_addr;
	char *resume[MAX_MEM_PARALLELISM];
};

void stride_initialize(iter_t iterations, void *cookie);
void thrash_initialize(iter_t iterations, void *cookie);
void mem_initialize(iter_t iterations, void *cookie);
void line_initialize(iter_t iterations, void *cookie);
void tlb_initialize(iter_t iterations, void *cookie);
void mem_cleanup(iter_t iterations, void *cookie);
void tlb_cleanup(iter_t iterations, void *cookie);
REPEAT_15(MEM_BENCHMARK_DECL)
extern benchmp_f mem_benchmarks[];
/* Offsets 0..max-1 in bit-reversed order, times scale (malloc'd). */
size_t *words_initialize(size_t max, int scale);
/* The cache line size (bytes) over len bytes of memory, 0 if not seen. */
size_t line_find(size_t len, int warmup, int repetitions,
    struct mem_state *state);
/* Nanoseconds per load with one pointer every line bytes. */
double line_test(size_t line, int warmup, int repetitions,
    struct mem_state *state);
/* The loads in flight at once over len bytes (memory parallelism). */
double par_mem(size_t len, int warmup, int repetitions,
    struct mem_state *state);

/*
 * lmbench's loop macros.  BENCH1(body, enough) runs body in a loop of
 * __n iterations, growing __n until the loop lasts about enough
 * microseconds (get_enough(enough)), and keeps that interval, minus the
 * timing and loop overheads, for get_n() and gettime().  BENCH repeats
 * it TRIES times (once when enough is long) into get_results() and
 * keeps the median.  The body may read and set __n, as lmbench's do.
 * The count found is kept between runs of the same expansion; the count
 * kept is the one that was timed.  Each is a block, { ... }, not a
 * statement, as lmbench's are: sources write BENCH1(...) with no
 * semicolon after it.
 */
#define BENCH_INNER(loop_body, enough) {				\
	static iter_t __iterations = 1;					\
	double __enough = (double)get_enough(enough);			\
	double __result = 0.;						\
	iter_t __n, __timed = 1;					\
	while (__result < 0.95 * __enough) {				\
		__timed = __iterations;					\
		start(0);						\
		for (__n = __iterations; __n > 0; __n--) {		\
			loop_body;					\
		}							\
		__result = (double)stop(0, 0);				\
		if (__result >= 0.99 * __enough &&			\
		    __result <= 1.2 * __enough)				\
			break;						\
		if (__result > 150.) {					\
			__iterations = (iter_t)(1.1 * __enough *	\
			    (double)__iterations / __result) + 1;	\
		} else if (__iterations > ((iter_t)1 << 27)) {		\
			__result = 0.;					\
			break;						\
		} else							\
			__iterations <<= 3;				\
	}								\
	save_n((uint64)__timed);					\
	settime((uint64)__result);					\
}

#define BENCH1(loop_body, enough) {					\
	double __usecs;							\
	BENCH_INNER(loop_body, enough);					\
	__usecs = (double)gettime() - (double)t_overhead() -		\
	    (double)get_n() * l_overhead();				\
	settime(__usecs >= 0. ? (uint64)__usecs : 0);			\
}

#define BENCH(loop_body, enough) {					\
	long __i, __N;							\
	result_t *__r = lmbench_bench_results();			\
	__N = ((enough) == 0 || get_enough(enough) <= 100000) ? TRIES : 1; \
	insertinit(__r);						\
	if ((enough) < LONGER) {					\
		loop_body;						\
	}								\
	for (__i = 0; __i < __N; ++__i) {				\
		BENCH1(loop_body, enough);				\
		if (gettime() > 0)					\
			insertsort(gettime(), get_n(), __r);		\
	}								\
	set_results(__r);						\
}

#ifdef BM_LMBENCH_RPC
/* lat_rpc's own functions, which it uses before it defines them. */
extern char *rpc_xact_1();
extern char *client_rpc_xact_1();
#endif

/* The results BENCH() fills: storage of this library, TRIES entries. */
result_t *lmbench_bench_results(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_LMBENCH_H */

/* gbench_getppid.cc: Google Benchmark timing getppid(), lat_syscall null's peer in make bench. */
#include <unistd.h>

#include <benchmark/benchmark.h>

/* One getppid() system call per iteration, the operation of lat_syscall null. */
static void
BM_getppid(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(getppid());
}
BENCHMARK(BM_getppid);

BENCHMARK_MAIN();

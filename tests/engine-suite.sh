#!/bin/sh
# engine-suite.sh: runs the engine's Check suite (tests/check_engine, all
# but its known costs, which check_engine_timing runs last and alone) as
# a script, so that make -j2 starts it with the longest tests.  GNU make
# starts the log of a test program only after every runnable script's:
# the program depends on config.h, whose rule (a no-op check that
# config.h exists) runs each time and defers whatever waits on it, and
# this suite's minute would otherwise run at the end of the parallel part.
# The suite runs unchanged, in the harness's environment, and its exit
# status is the test's.
suite=${top_builddir:-.}/tests/check_engine
if [ ! -x "$suite" ]; then
	echo "engine-suite.sh: $suite is not built (no Check): skipped" >&2
	exit 77
fi
exec "$suite"

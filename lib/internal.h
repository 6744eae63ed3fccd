/* internal.h: declarations shared between library files, never installed. */
#ifndef BM_INTERNAL_H
#define BM_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "benchmp.h"
#include "benchmp/calibration.h"
#include "benchmp/command.h"
#include "benchmp/counters.h"
#include "benchmp/figures.h"
#include "benchmp/measure.h"
#include "benchmp/regions.h"
#include "benchmp/settings.h"
#include "benchmp/sinks.h"
#include "benchmp/stats.h"
#include "benchmp/timers.h"
#include "benchmp/worker.h"

/*
 * One header a folder, its files' declarations that other library files
 * share, all included here (measure/ shares none, and compat.c's one name
 * is the worker's state's, in engine.h).
 */
#include "timer/timer.h"
#include "machine/machine.h"
#include "engine/engine.h"
#include "sink/sink.h"
#include "stats/stats.h"
#include "record/record.h"
#include "verdict/verdict.h"

#endif /* BM_INTERNAL_H */

/* ab-unit.c: benchmp-ab's units: which can be converted into which, and by what factor. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "ab.h"

/* The kinds of units a figure may come in. */
enum unit_kind { UNIT_TIME, UNIT_SIZE, UNIT_BANDWIDTH, UNIT_FREQUENCY };

/* A unit the records use: its word, its kind, and its size in the base. */
struct unit {
	const char *name;
	enum unit_kind kind;
	double base;		/* seconds, bytes, bytes/s, Hz */
};

/*
 * The units of the tools' records and of lmbench's: MB is 10^6 bytes as
 * the tools print it (DESIGN), KiB, MiB and GiB the powers of two.
 */
static const struct unit unit_table[] = {
	{ "ns", UNIT_TIME, 1e-9 }, { "us", UNIT_TIME, 1e-6 },
	{ "ms", UNIT_TIME, 1e-3 }, { "s", UNIT_TIME, 1 },
	{ "B", UNIT_SIZE, 1 }, { "bytes", UNIT_SIZE, 1 },
	{ "KB", UNIT_SIZE, 1e3 }, { "MB", UNIT_SIZE, 1e6 },
	{ "GB", UNIT_SIZE, 1e9 }, { "TB", UNIT_SIZE, 1e12 },
	{ "KiB", UNIT_SIZE, 1024.0 }, { "MiB", UNIT_SIZE, 1048576.0 },
	{ "GiB", UNIT_SIZE, 1073741824.0 },
	{ "B/s", UNIT_BANDWIDTH, 1 }, { "KB/s", UNIT_BANDWIDTH, 1e3 },
	{ "MB/s", UNIT_BANDWIDTH, 1e6 }, { "GB/s", UNIT_BANDWIDTH, 1e9 },
	{ "KiB/s", UNIT_BANDWIDTH, 1024.0 },
	{ "MiB/s", UNIT_BANDWIDTH, 1048576.0 },
	{ "GiB/s", UNIT_BANDWIDTH, 1073741824.0 },
	{ "Hz", UNIT_FREQUENCY, 1 }, { "kHz", UNIT_FREQUENCY, 1e3 },
	{ "MHz", UNIT_FREQUENCY, 1e6 }, { "GHz", UNIT_FREQUENCY, 1e9 },
};

/* The unit named name, or NULL. */
static const struct unit *
unit_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof unit_table / sizeof unit_table[0]; i++)
		if (strcmp(unit_table[i].name, name) == 0)
			return &unit_table[i];
	return NULL;
}

/*
 * The factor that turns a value in unit from into unit to (both of one
 * kind: time, size, bandwidth or frequency, or the same word): 0, or -1
 * when they are not of one kind.
 */
int
ab_unit_factor(const char *from, const char *to, double *factor)
{
	const struct unit *f, *t;

	if (strcmp(from, to) == 0) {
		*factor = 1;
		return 0;
	}
	if ((f = unit_find(from)) == NULL || (t = unit_find(to)) == NULL ||
	    f->kind != t->kind)
		return -1;
	*factor = f->base / t->base;
	return 0;
}

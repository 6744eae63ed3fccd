/* region-off.c: every region call compiled out by BM_REGIONS_OFF, for check_region. */
#define BM_REGIONS_OFF 1

#include <stdint.h>
#include <string.h>

#include <benchmp.h>
#include <benchmp/regions.h>

#include "region-off.h"

/* How many times an argument expression was evaluated. */
static unsigned region_off_evals;

/*
 * An argument with a side effect: counts its evaluations (external, so
 * that no compiler drops it as only named in sizeof).
 */
bm_region *
region_off_arg(bm_region *r)
{
	region_off_evals++;
	return r;
}

static void region_off_statements(bm_ctx *ctx, bm_region **rg,
    bm_counts *c, bm_result *res);

/*
 * Make every region call with the calls compiled out: rg is set to NULL
 * by bm_region_new; report what each call returned and how often an
 * argument was evaluated; c and res must come back untouched.
 */
void
region_off_calls(bm_ctx *ctx, bm_region **rg, bm_counts *c, bm_result *res,
    struct region_off_rc *out)
{
	memset(out, 0, sizeof(*out));
	region_off_evals = 0;
	out->new_rc = bm_region_new(ctx, "off", rg);
	out->set_id_rc = bm_region_set_id(region_off_arg(*rg), 7);
	bm_region_start(region_off_arg(*rg));
	bm_region_stop(region_off_arg(*rg));
	out->read_rc = bm_region_read(region_off_arg(*rg), c);
	out->total_rc = bm_region_total(region_off_arg(*rg), c);
	out->overhead_rc = bm_region_overhead(region_off_arg(*rg), c);
	out->result_rc = bm_region_result(region_off_arg(*rg), res);
	out->write_rc = bm_region_write(region_off_arg(*rg), NULL);
	bm_region_free(region_off_arg(*rg));
	out->evals = region_off_evals;
	region_off_statements(ctx, rg, c, res);
	out->evals += region_off_evals;
}

/*
 * Every call as a statement, its value unused, as a program with
 * regions on writes them: compiled out, none may warn (-Wunused-value
 * under -Werror fails the build) or evaluate an argument.
 */
static void
region_off_statements(bm_ctx *ctx, bm_region **rg, bm_counts *c,
    bm_result *res)
{
	region_off_evals = 0;
	bm_region_new(ctx, "off", rg);
	bm_region_set_id(region_off_arg(*rg), 8);
	bm_region_start(region_off_arg(*rg));
	bm_region_stop(region_off_arg(*rg));
	bm_region_read(region_off_arg(*rg), c);
	bm_region_total(region_off_arg(*rg), c);
	bm_region_overhead(region_off_arg(*rg), c);
	bm_region_result(region_off_arg(*rg), res);
	bm_region_write(region_off_arg(*rg), NULL);
	bm_region_write_counts(region_off_arg(*rg), c, NULL);
	bm_region_names(region_off_arg(*rg), ", ", (char *)res, 8);
	bm_region_free(region_off_arg(*rg));
	/* And in conditions, as expressions. */
	if (bm_region_read(region_off_arg(*rg), c) != 0 ||
	    bm_region_write(region_off_arg(*rg), NULL) != 0 ||
	    bm_region_write_counts(region_off_arg(*rg), c, NULL) != 0 ||
	    bm_region_names(region_off_arg(*rg), ", ", (char *)res, 8) != 0)
		region_off_evals += 100;
}

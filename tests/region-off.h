/* region-off.h: the compiled-out region calls of region-off.c, for check_region. */
#ifndef BM_REGION_OFF_H
#define BM_REGION_OFF_H

#include <benchmp.h>
#include <benchmp/regions.h>

/* What each compiled-out call returned, and argument evaluations. */
struct region_off_rc {
	int new_rc, set_id_rc, read_rc, total_rc, overhead_rc, result_rc;
	int write_rc;
	unsigned evals;
};

bm_region *region_off_arg(bm_region *r);
void region_off_calls(bm_ctx *ctx, bm_region **rg, bm_counts *c,
    bm_result *res, struct region_off_rc *out);

#endif /* BM_REGION_OFF_H */

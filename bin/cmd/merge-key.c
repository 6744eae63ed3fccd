/* merge-key.c: each record's figure as a key, the records of a figure chained in the order read. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "record/record.h"

/* A member of obj for the key, NULL when missing; with alt, false and null too (jq's // null). */
static const struct bm__jval *
key_part(const struct bm__jval *obj, const char *name, int alt)
{
	const struct bm__jval *v = bm__jget(obj, name);

	if (alt && v != NULL && (v->type == BM__J_NULL ||
	    v->type == BM__J_FALSE))
		return NULL;
	return v;
}

/*
 * Append the parameters of rec, as benchmp compare keys them (compact
 * JSON, a private temporary path as <tmp>/), to the array *key as one
 * more member; a record without parameters keeps its key.  0 or -ENOMEM.
 */
static int
key_params(const struct bm__jval *rec, char **key)
{
	struct bm__json b;
	struct bm__fig f;
	size_t i, len = strlen(*key);
	int rc;

	/* Only a record without a tool has no figure: it keeps its key. */
	if ((rc = bm__reader_figure(rec, &f)) != 0)
		return rc == -ENOMEM ? rc : 0;
	if (f.nparams == 0 || len < 2 || len - 1 > INT_MAX) {
		bm__reader_fig_free(&f);
		return 0;
	}
	memset(&b, 0, sizeof b);
	bm__json_printf(&b, "%.*s,{", (int)(len - 1), *key);
	for (i = 0; i < f.nparams; i++) {
		bm__json_printf(&b, "%s", i > 0 ? "," : "");
		bm__json_string(&b, f.pname[i]);
		bm__json_printf(&b, ":%s", f.pval[i]);
	}
	bm__json_printf(&b, "}]");
	bm__reader_fig_free(&f);
	if (b.err != 0 || b.s == NULL) {
		free(b.s);
		return -ENOMEM;
	}
	free(*key);
	*key = b.s;
	return 0;
}

/*
 * The key of a record's figure as compact JSON: its label, what it
 * measures, its placement and rank, [suite.figure, tool, case, metric,
 * params.placement, parallel, rank, aggregate] (a missing member null;
 * false is null for the last four but parallel, as benchmp-run's key
 * had them).  A record without a label (one a tool wrote itself) has
 * its parameters last as well: bw_mem 1m rd and bw_mem 8m rd differ in
 * them alone, and one key would merge two figures.  A labelled record's
 * key stays as it was, so that the stores kept so far still match.
 */
int
merge_key_of(const struct bm__jval *rec, char **key)
{
	const struct bm__jval *v[8];
	struct bm__jval part[8], list;
	size_t i;
	int rc;

	v[0] = key_part(bm__jget(rec, "suite"), "figure", 0);
	v[1] = key_part(rec, "tool", 0);
	v[2] = key_part(rec, "case", 0);
	v[3] = key_part(rec, "metric", 0);
	v[4] = key_part(bm__jget(rec, "params"), "placement", 1);
	v[5] = key_part(rec, "parallel", 0);
	v[6] = key_part(rec, "rank", 1);
	v[7] = key_part(rec, "aggregate", 1);
	memset(part, 0, sizeof part);
	for (i = 0; i < 8; i++) {
		if (v[i] != NULL)
			part[i] = *v[i];
		else
			part[i].type = BM__J_NULL;
	}
	memset(&list, 0, sizeof list);
	list.type = BM__J_ARRAY;
	list.n = 8;
	list.item = part;
	if ((rc = bm__jwrite(&list, key)) != 0 ||
	    (v[0] != NULL && v[0]->type != BM__J_NULL))
		return rc;
	if ((rc = key_params(rec, key)) != 0) {
		free(*key);
		*key = NULL;
	}
	return rc;
}

/* A record's key and place read, for sorting. */
struct key_sort {
	const char *key;
	size_t at;
};

/* Order records by key, then as read. */
static int
key_cmp(const void *a, const void *b)
{
	const struct key_sort *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return (x->at > y->at) - (x->at < y->at);
}

/* Key each record and chain the records of each figure, in the order read. */
int
merge_key_group(struct merge *m)
{
	struct key_sort *s;
	size_t i, j, k;

	if ((s = calloc(m->n + 1, sizeof *s)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", m->prog);
		return -1;
	}
	for (i = 0; i < m->n; i++) {
		if (merge_key_of(m->rec[i].rec, &m->rec[i].key) != 0) {
			free(s);
			fprintf(stderr, "%s: out of memory\n", m->prog);
			return -1;
		}
		s[i].key = m->rec[i].key;
		s[i].at = i;
	}
	qsort(s, m->n, sizeof *s, key_cmp);
	for (i = 0; i < m->n; i = j) {
		for (j = i + 1; j < m->n && strcmp(s[j].key, s[i].key) == 0;
		    j++)
			;
		for (k = i; k < j; k++) {
			m->rec[s[k].at].first = s[i].at;
			m->rec[s[k].at].next = k + 1 < j ? s[k + 1].at :
			    MERGE_NONE;
		}
		m->rec[s[i].at].count = j - i;
	}
	free(s);
	return 0;
}

/* compare-machine.c: benchmp compare's first lines: how the two runs' machines differ. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "compare.h"

/* The largest machine description read. */
#define MACHINE_MAX	(16u << 20)

/* One leaf of a description: its path (a.b) and its value as shown. */
struct machine_leaf {
	char *key;
	char *val;
};

/* The leaves of one description. */
struct machine_leaves {
	struct machine_leaf *v;
	size_t n;
};

/* The checks whose findings move from run to run: compared by status only. */
static const char *const machine_moving[] = { "load", "steal",
    "probe-steal", "runqueue", "cpu-quota" };

/* A value as shown: a string as it is, anything else as compact JSON; NULL on ENOMEM. */
static char *
machine_show(const struct bm__jval *v)
{
	char *s;

	if (v == NULL || v->type == BM__J_NULL)
		return strdup("-");
	if (v->type == BM__J_STRING)
		return strdup(v->str);
	return bm__jwrite(v, &s) == 0 ? s : NULL;
}

/* Add key and v as a leaf; 0 or -ENOMEM. */
static int
machine_add(struct machine_leaves *l, const char *key, char *val)
{
	struct machine_leaf *g = realloc(l->v, (l->n + 1) * sizeof *g);

	if (val == NULL || g == NULL) {
		free(val);
		return -ENOMEM;
	}
	l->v = g;
	if ((l->v[l->n].key = strdup(key)) == NULL) {
		free(val);
		return -ENOMEM;
	}
	l->v[l->n++].val = val;
	return 0;
}

/* Collect the leaves under object o at path pre (the time stamp and the check left out at the top). */
static int
machine_walk(const struct bm__jval *o, const char *pre,
    struct machine_leaves *l)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < o->n && rc == 0; i++) {
		size_t len = strlen(pre) + strlen(o->key[i]) + 2;
		char *k;

		if (pre[0] == '\0' && (strcmp(o->key[i], "timestamp") == 0 ||
		    strcmp(o->key[i], "check") == 0))
			continue;
		if ((k = malloc(len)) == NULL)
			return -ENOMEM;
		snprintf(k, len, "%s%s%s", pre, pre[0] ? "." : "", o->key[i]);
		if (o->item[i].type == BM__J_OBJECT)
			rc = machine_walk(&o->item[i], k, l);
		else
			rc = machine_add(l, k, machine_show(&o->item[i]));
		free(k);
	}
	return rc;
}

/* The checks of a description (its check.checks[]), as leaves "check NAME" -> the object's index. */
static const struct bm__jval *
machine_check(const struct bm__jval *m, const char *name)
{
	const struct bm__jval *cs = bm__jget(bm__jget(m, "check"), "checks");
	size_t i;

	for (i = 0; cs != NULL && cs->type == BM__J_ARRAY && i < cs->n; i++) {
		const struct bm__jval *n = bm__jget(&cs->item[i], "name");

		if (n != NULL && n->type == BM__J_STRING &&
		    strcmp(n->str, name) == 0)
			return &cs->item[i];
	}
	return NULL;
}

/* Compare two strings for qsort. */
static int
machine_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Add a difference key: a | b to c. */
static int
machine_diff(struct compare *c, const char *key, const char *a, const char *b)
{
	struct compare_mdiff *g = realloc(c->md, (c->nmd + 1) * sizeof *g);

	if (g == NULL)
		return -ENOMEM;
	c->md = g;
	g[c->nmd].key = strdup(key);
	g[c->nmd].a = strdup(a);
	g[c->nmd].b = strdup(b);
	if (!g[c->nmd].key || !g[c->nmd].a || !g[c->nmd].b)
		return -ENOMEM;
	c->nmd++;
	return 0;
}

/* The value of key among leaves l, or "-". */
static const char *
machine_find(const struct machine_leaves *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].val;
	return "-";
}

/* "STATUS: FOUND" of a check (NULL: "-: -") into a malloc'd string. */
static char *
machine_check_text(const struct bm__jval *k)
{
	char *s = machine_show(bm__jget(k, "status"));
	char *f = machine_show(bm__jget(k, "found"));
	char *o = NULL;
	size_t n;

	if (s != NULL && f != NULL && (o = malloc(n = strlen(s) +
	    strlen(f) + 3)) != NULL)
		snprintf(o, n, "%s: %s", s, f);
	free(s);
	free(f);
	return o;
}

/* The names of both descriptions' checks, sorted, unique, into *out. */
static size_t
machine_check_names(const struct bm__jval *a, const struct bm__jval *b,
    const char ***out)
{
	const struct bm__jval *m[2] = { a, b };
	const char **v;
	size_t n = 0, i, k, cap = 0;

	for (k = 0; k < 2; k++) {
		const struct bm__jval *cs = bm__jget(bm__jget(m[k], "check"),
		    "checks");

		cap += cs != NULL && cs->type == BM__J_ARRAY ? cs->n : 0;
	}
	if ((v = malloc((cap + 1) * sizeof *v)) == NULL)
		return (size_t)-1;
	for (k = 0; k < 2; k++) {
		const struct bm__jval *cs = bm__jget(bm__jget(m[k], "check"),
		    "checks");

		for (i = 0; cs && cs->type == BM__J_ARRAY && i < cs->n; i++) {
			const struct bm__jval *nm = bm__jget(&cs->item[i],
			    "name");

			if (nm != NULL && nm->type == BM__J_STRING)
				v[n++] = nm->str;
		}
	}
	qsort(v, n, sizeof *v, machine_cmp);
	for (i = 0, k = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
			v[k++] = v[i];
	*out = v;
	return k;
}

/* The checks that differ: a status, or a finding that does not move run to run. */
static int
machine_checks(struct compare *c, const struct bm__jval *a,
    const struct bm__jval *b)
{
	const char **names;
	size_t n = machine_check_names(a, b, &names), i, k;
	int rc = 0;

	if (n == (size_t)-1)
		return -ENOMEM;
	for (i = 0; i < n && rc == 0; i++) {
		const struct bm__jval *x = machine_check(a, names[i]);
		const struct bm__jval *y = machine_check(b, names[i]);
		char *sx = machine_show(bm__jget(x, "status"));
		char *sy = machine_show(bm__jget(y, "status"));
		char *fx = machine_show(bm__jget(x, "found"));
		char *fy = machine_show(bm__jget(y, "found"));
		char *tx = machine_check_text(x), *ty = machine_check_text(y);
		char key[512];
		int moving = 0, differ;

		for (k = 0; k < sizeof machine_moving / sizeof machine_moving[0];
		    k++)
			moving |= strcmp(names[i], machine_moving[k]) == 0;
		if (!sx || !sy || !fx || !fy || !tx || !ty)
			rc = -ENOMEM;
		differ = rc == 0 && (strcmp(sx, sy) != 0 ||
		    (strcmp(fx, fy) != 0 && !moving));
		snprintf(key, sizeof key, "check %s", names[i]);
		if (differ)
			rc = machine_diff(c, key, tx, ty);
		free(sx), free(sy), free(fx), free(fy), free(tx), free(ty);
	}
	free(names);
	return rc;
}

/* Read and parse the description at path into *m; 0, or a message and -1. */
static int
machine_read(const struct compare *c, const char *path, struct bm__jval **m)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	const char *why = NULL;
	size_t n, at = 0;
	int rc;

	if (f == NULL) {
		fprintf(stderr, "%s: cannot read %s: %s\n", c->prog, path,
		    strerror(errno));
		return -1;
	}
	if ((buf = malloc(MACHINE_MAX + 1)) == NULL) {
		fclose(f);
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return -1;
	}
	n = fread(buf, 1, MACHINE_MAX + 1, f);
	rc = ferror(f) || n > MACHINE_MAX ? -1 : 0;
	fclose(f);
	if (rc == 0 && (rc = bm__jparse(buf, n, m, &at, &why)) == 0 &&
	    (*m)->type != BM__J_OBJECT) {
		why = "not a JSON object";
		bm__jval_free(*m);
		*m = NULL;
		rc = -1;
	}
	free(buf);
	if (rc != 0)
		fprintf(stderr, "%s: %s: not a machine description: %s\n",
		    c->prog, path, why != NULL ? why : n > MACHINE_MAX ?
		    "too large" : "cannot read");
	return rc != 0 ? -1 : 0;
}

/* Free leaves. */
static void
machine_leaves_free(struct machine_leaves *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
}

/* The leaves of a and b that differ, in the order of their keys. */
static int
machine_leaf_diffs(struct compare *c, const struct bm__jval *a,
    const struct bm__jval *b)
{
	struct machine_leaves la = { NULL, 0 }, lb = { NULL, 0 };
	const char **keys = NULL;
	size_t n = 0, i;
	int rc;

	if ((rc = machine_walk(a, "", &la)) == 0 &&
	    (rc = machine_walk(b, "", &lb)) == 0 &&
	    (keys = malloc((la.n + lb.n + 1) * sizeof *keys)) == NULL)
		rc = -ENOMEM;
	for (i = 0; rc == 0 && i < la.n + lb.n; i++)
		keys[n++] = i < la.n ? la.v[i].key : lb.v[i - la.n].key;
	if (rc == 0)
		qsort(keys, n, sizeof *keys, machine_cmp);
	for (i = 0; rc == 0 && i < n; i++) {
		const char *x = machine_find(&la, keys[i]);
		const char *y = machine_find(&lb, keys[i]);

		if ((i > 0 && strcmp(keys[i - 1], keys[i]) == 0) ||
		    strcmp(x, y) == 0)
			continue;
		rc = machine_diff(c, keys[i], x, y);
	}
	free(keys);
	machine_leaves_free(&la);
	machine_leaves_free(&lb);
	return rc;
}

/* The description beside a file of records (NAME.machine.json for NAME.jsonl), or NULL. */
static char *
machine_beside(const char *file)
{
	size_t n = strlen(file);
	char *p;

	if (n < 6 || strcmp(file + n - 6, ".jsonl") != 0 ||
	    (p = malloc(n + 8)) == NULL)
		return NULL;
	snprintf(p, n + 8, "%.*s.machine.json", (int)(n - 6), file);
	if (access(p, F_OK) == 0)
		return p;
	free(p);
	return NULL;
}

/* Find and read the machine descriptions, and what differs; 0, or a message and -1. */
int
compare_machine_load(struct compare *c)
{
	struct bm__jval *a = NULL, *b = NULL;
	char *pa = NULL, *pb = NULL;
	int rc = 0;

	if (c->machine_a == NULL)
		c->machine_a = pa = machine_beside(c->file_a);
	if (c->machine_b == NULL)
		c->machine_b = pb = machine_beside(c->file_b);
	if ((c->machine_a && machine_read(c, c->machine_a, &a) != 0) ||
	    (c->machine_b && machine_read(c, c->machine_b, &b) != 0))
		rc = -1;
	c->machines = a && b ? 1 : a ? 2 : b ? 3 : 0;
	if (rc == 0 && c->machines == 1 && (machine_leaf_diffs(c, a, b) != 0 ||
	    machine_checks(c, a, b) != 0)) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = -1;
	}
	bm__jval_free(a);
	bm__jval_free(b);
	c->machine_a = c->machine_a == pa ? NULL : c->machine_a;
	c->machine_b = c->machine_b == pb ? NULL : c->machine_b;
	free(pa);
	free(pb);
	return rc;
}

/* Print the machines' differences above the table (nothing when none). */
int
compare_machine_text(const struct compare *c, FILE *out)
{
	size_t i;

	if (c->machines == 2 || c->machines == 3) {
		fprintf(out, "machine of %s not known: their differences are "
		    "not shown\n\n", c->machines == 2 ? "B" : "A");
		return 0;
	}
	if (c->nmd == 0)
		return 0;
	fprintf(out, "machines differ (A | B):\n");
	for (i = 0; i < c->nmd; i++) {
		fputs("  ", out);
		compare_put_escaped(out, c->md[i].key);
		fputs(": ", out);
		compare_put_escaped(out, c->md[i].a);
		fputs(" | ", out);
		compare_put_escaped(out, c->md[i].b);
		fputc('\n', out);
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* Append ,"machines":[{"key":..,"a":..,"b":..}] (null when not both known) to b. */
void
compare_machine_json(const struct compare *c, struct bm__json *b)
{
	size_t i;

	if (c->machines != 1) {
		bm__json_printf(b, ",\"machines\":null");
		return;
	}
	bm__json_printf(b, ",\"machines\":[");
	for (i = 0; i < c->nmd; i++) {
		bm__json_printf(b, "%s{\"key\":", i ? "," : "");
		bm__json_string(b, c->md[i].key);
		bm__json_kstr(b, "a", c->md[i].a);
		bm__json_kstr(b, "b", c->md[i].b);
		bm__json_printf(b, "}");
	}
	bm__json_printf(b, "]");
}

/* Free the differences. */
void
compare_machine_free(struct compare *c)
{
	size_t i;

	for (i = 0; i < c->nmd; i++) {
		free(c->md[i].key);
		free(c->md[i].a);
		free(c->md[i].b);
	}
	free(c->md);
}

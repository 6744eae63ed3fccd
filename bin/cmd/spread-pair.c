/* spread-pair.c: the verdicts benchmp compare gave each pair of runs, read from its --tsv rows. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "spread.h"

/* Order two rows of a pair by name. */
static int
pair_name_cmp(const void *x, const void *y)
{
	const struct spread_verdict *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/* Order the rows of a pair by name, then by where they came. */
static int
pair_cmp(const void *x, const void *y)
{
	const struct spread_verdict *a = x, *b = y;
	int c = pair_name_cmp(x, y);

	if (c != 0)
		return c;
	return (a->at > b->at) - (a->at < b->at);
}

/*
 * Cut p's text into its rows: a line is a verdict, the figure's name and
 * the values (tab-separated, as compare --tsv writes them; a tab in a
 * name is written \x09).  0, or -1 with the line of a row that is not
 * one in why.
 */
static int
pair_rows(struct spread_pair *p, size_t len, char *why, size_t whysize)
{
	char *line = p->text, *end = p->text + len, *nl, *tab, *tab2;
	size_t n = 0;

	for (nl = line; nl < end; nl++)
		n += *nl == '\n';
	if ((p->row = calloc(n + 1, sizeof *p->row)) == NULL) {
		snprintf(why, whysize, "out of memory");
		return -1;
	}
	for (n = 1; line < end; line = nl + 1, n++) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		*nl = '\0';
		if (*line == '\0')
			continue;
		if ((tab = strchr(line, '\t')) == NULL) {
			snprintf(why, whysize, "line %zu: not a row of benchmp "
			    "compare --tsv", n);
			return -1;
		}
		*tab = '\0';
		if ((tab2 = strchr(tab + 1, '\t')) != NULL)
			*tab2 = '\0';
		p->row[p->nrow].word = line;
		p->row[p->nrow].name = tab + 1;
		p->row[p->nrow].at = p->nrow;
		p->nrow++;
	}
	qsort(p->row, p->nrow, sizeof *p->row, pair_cmp);
	return 0;
}

/* Read the rows of compare --tsv of each pair. */
int
spread_pair_read(struct spread *s)
{
	char why[512];
	size_t i, len;

	for (i = 0; i < s->npair; i++) {
		struct spread_pair *p = &s->pair[i];

		if (bm__reader_slurp(p->path, &p->text, &len, why,
		    sizeof why) != 0 || pair_rows(p, len, why, sizeof why) != 0) {
			fprintf(stderr, "%s: %s: %s\n", s->prog, p->path, why);
			return -1;
		}
	}
	return 0;
}

/*
 * The verdict of the figure named name in pair p: compare prints a name
 * escaped, so it is looked up so; the last row of a name counts.
 */
const char *
spread_pair_verdict(const struct spread_pair *p, const char *name)
{
	struct spread_verdict key, *hit;
	const char *word = "?";
	size_t len;
	FILE *f;
	char *esc = NULL;

	if ((f = open_memstream(&esc, &len)) == NULL)
		return NULL;
	compare_put_escaped(f, name);
	if (fclose(f) != 0) {
		free(esc);
		return NULL;
	}
	key.name = esc;
	key.at = 0;
	hit = p->nrow > 0 ? bsearch(&key, p->row, p->nrow, sizeof *p->row,
	    pair_name_cmp) : NULL;
	if (hit != NULL) {
		while (hit + 1 < p->row + p->nrow &&
		    strcmp(hit[1].name, esc) == 0)
			hit++;
		word = hit->word;
	}
	free(esc);
	return word;
}

/* Free what the pairs hold. */
void
spread_pair_free(struct spread *s)
{
	size_t i;

	for (i = 0; i < s->npair; i++) {
		free(s->pair[i].text);
		free(s->pair[i].row);
	}
	free(s->pair);
}

/* report-put.c: benchmp report's text: HTML escaping, names cut to a width, numbers, intervals and notes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report.h"

/* The widest a bar's label may be, in columns; the cut leaves one for the ellipsis. */
#define PUT_LABEL_COLUMNS	46

/* U+FFFD, what stands for a control character or bytes that are not UTF-8. */
#define PUT_REPLACEMENT		"\xef\xbf\xbd"

/* Write n bytes of s escaped for HTML text and attributes. */
static void
put_esc_n(struct report *r, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	const char *e;

	while (n > 0) {
		k = bm__json_utf8(p, n, NULL);
		e = k == 0 || (*p < 0x20 && *p != '\t' && *p != '\n') ||
		    *p == 0x7f ? PUT_REPLACEMENT : *p == '&' ? "&amp;" :
		    *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '"' ?
		    "&quot;" : *p == '\'' ? "&#39;" : NULL;
		if (e != NULL)
			fputs(e, r->o);
		else
			fwrite(p, 1, k, r->o);
		k = k ? k : 1;
		p += k;
		n -= k;
	}
}

/* Write s escaped for HTML. */
static void
put_esc(struct report *r, const char *s)
{
	put_esc_n(r, s, strlen(s));
}

/*
 * The columns a character takes in a label: combining marks and
 * zero-width characters none, East Asian wide characters and emoji two,
 * the rest one (a short form of wcwidth(3) for names).
 */
static int
put_width(unsigned c)
{
	static const unsigned zero[][2] = { { 768, 879 }, { 6832, 6911 },
	    { 7616, 7679 }, { 8203, 8207 }, { 8400, 8447 }, { 65024, 65039 },
	    { 65056, 65071 } };
	static const unsigned wide[][2] = { { 4352, 4447 }, { 11904, 42191 },
	    { 44032, 55203 }, { 63744, 64255 }, { 65072, 65103 },
	    { 65280, 65376 }, { 65504, 65510 }, { 127744, 128591 },
	    { 128640, 128767 }, { 129280, 129791 }, { 131072, 262141 } };
	size_t i;

	for (i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (c >= zero[i][0] && c <= zero[i][1])
			return 0;
	for (i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (c >= wide[i][0] && c <= wide[i][1] && c != 12351)
			return 2;
	return 1;
}

/* Write s escaped, cut where it passes 45 columns when it is wider than 46, an ellipsis at the cut. */
static void
put_short(struct report *r, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), at = 0, cut = 0, k;
	unsigned c;
	int w = 0;

	while (at < n) {
		if ((k = bm__json_utf8(p + at, n - at, &c)) == 0) {
			k = 1;
			c = '?';
		}
		w += put_width(c);
		if (w <= PUT_LABEL_COLUMNS - 1)
			cut = at + k;
		at += k;
	}
	if (w <= PUT_LABEL_COLUMNS) {
		put_esc_n(r, s, n);
		return;
	}
	put_esc_n(r, s, cut);
	fputs("\xe2\x80\xa6", r->o);
}

/* Write v escaped: a string as it is, anything else as compact JSON (null, a number). */
void
report_put_text(struct report *r, const struct bm__jval *v, const char *dflt)
{
	char *s;

	if (dflt != NULL && (v == NULL || v->type == BM__J_NULL ||
	    v->type == BM__J_FALSE)) {
		put_esc(r, dflt);
	} else if (v == NULL) {
		fputs("null", r->o);
	} else if (v->type == BM__J_STRING) {
		put_esc_n(r, v->str, v->len);
	} else if (bm__jwrite(v, &s) == 0) {
		put_esc(r, s);
		free(s);
	} else {
		r->err = -ENOMEM;
	}
}

/* x in up to 15 digits, a whole number below 10^17 in all its digits. */
static char *
put_g(char *buf, double x)
{
	if (x == floor(x) && fabs(x) < 1e17)
		snprintf(buf, REPORT_NUM, "%.0f", x == 0 ? 0.0 : x);
	else
		snprintf(buf, REPORT_NUM, "%.15g", x);
	return buf;
}

/*
 * x with four significant digits (0.2432, 2.688, 36.65, 123.4), a whole
 * number from 1000 on (12346), "-" for what is not a finite number.
 */
static char *
put_digits(char *buf, double x)
{
	int e;

	if (!isfinite(x))
		return strcpy(buf, "-");
	if (x == 0)
		return strcpy(buf, "0");
	e = (int)floor(log10(fabs(x)));
	if (e >= 3)
		return put_g(buf, round(x));
	if (e < -20)
		snprintf(buf, REPORT_NUM, "%.3e", x);
	else
		snprintf(buf, REPORT_NUM, "%.*f", 3 - e, x);
	return buf;
}

/* A coordinate to a tenth of a pixel. */
static char *
put_px(char *buf, double x)
{
	return put_g(buf, round(x * 10) / 10);
}

/* An axis value: a whole number as it is, else four digits without the trailing zeros (0.001). */
static char *
put_tick(char *buf, double x)
{
	size_t n;

	if (isfinite(x) && x == floor(x) && fabs(x) < 1e15)
		return put_g(buf, x);
	put_digits(buf, x);
	if (strchr(buf, '.') != NULL && strchr(buf, 'e') == NULL) {
		n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[n - 1] = '\0';
	}
	return buf;
}

/* A size as 32K, 1M or 8G where it is a whole number of those. */
char *
report_put_human(char *buf, double x)
{
	static const struct { double f; const char *s; } u[] = {
		{ 1073741824.0, "G" }, { 1048576.0, "M" }, { 1024.0, "K" }
	};
	size_t i;

	for (i = 0; i < sizeof u / sizeof u[0]; i++)
		if (x >= u[i].f && fmod(x, u[i].f) == 0) {
			put_g(buf, x / u[i].f);
			return strcat(buf, u[i].s);
		}
	return put_g(buf, x);
}

/*
 * Write fmt to the page, its directives replaced by the arguments: %s a
 * string as it is, %h a string escaped for HTML, %c escaped and cut to a
 * label's width, %f a number in four digits, %p a coordinate, %g a
 * number, %t an axis value, %k a size (32K), %d an int, %z a size_t.
 */
void
report_put(struct report *r, const char *fmt, ...)
{
	char b[REPORT_NUM];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	while (*fmt != '\0') {
		n = strcspn(fmt, "%");
		fwrite(fmt, 1, n, r->o);
		if (fmt[n] == '\0' || fmt[n + 1] == '\0')
			break;
		fmt += n + 2;
		switch (fmt[-1]) {
		case 's': fputs(va_arg(ap, const char *), r->o); break;
		case 'h': put_esc(r, va_arg(ap, const char *)); break;
		case 'c': put_short(r, va_arg(ap, const char *)); break;
		case 'f': fputs(put_digits(b, va_arg(ap, double)), r->o); break;
		case 'p': fputs(put_px(b, va_arg(ap, double)), r->o); break;
		case 'g': fputs(put_g(b, va_arg(ap, double)), r->o); break;
		case 't': fputs(put_tick(b, va_arg(ap, double)), r->o); break;
		case 'k': fputs(report_put_human(b, va_arg(ap, double)), r->o);
			break;
		case 'd': fprintf(r->o, "%d", va_arg(ap, int)); break;
		case 'z': fprintf(r->o, "%zu", va_arg(ap, size_t)); break;
		default: fputc(fmt[-1], r->o); break;
		}
	}
	va_end(ap);
}

/* Write the interval of x with its coverage (the record's ci_level), "-" without one. */
void
report_put_ival(struct report *r, const struct report_rec *x)
{
	const struct bm__fig *f = &x->f;

	if (isfinite(f->ci_lo) && isfinite(f->ci_hi) && f->ci_level > 0)
		report_put(r, "%f to %f (%g%%)", f->ci_lo, f->ci_hi,
		    floor(f->ci_level * 100 + 1e-9));
	else
		report_put(r, "-");
}

/* A figure the machine contradicts or a mode: whole from 1000 on or when whole, else four digits. */
static char *
put_whole(char *buf, double x)
{
	if (isfinite(x) && (fabs(x) >= 1000 || x == floor(x)))
		return put_g(buf, round(x));
	return put_digits(buf, x);
}

/* Begin an item of a note: "; " after any item before it, lead before a record's first. */
static void
put_item(struct report *r, const char *lead, size_t *n, size_t *k)
{
	report_put(r, "%s%s", (*n)++ > 0 ? "; " : "",
	    (*k)++ == 0 && lead != NULL ? lead : "");
}

/* Write the modes of a bimodal x, lower first with their shares ("2.802 us (40%) / 7.192 us (60%)"). */
static void
put_modes(struct report *r, const struct report_rec *x, const char *lead,
    size_t *n, size_t *k)
{
	char b[REPORT_NUM];
	size_t i;

	if (!x->f.bimodal || x->f.nmodes < 2)
		return;
	put_item(r, lead, n, k);
	for (i = 0; i < x->f.nmodes; i++)
		report_put(r, "%s%s %h (%g%%)", i > 0 ? " / " : "modes ",
		    put_whole(b, x->f.modes[i].centre), x->f.unit,
		    round(x->f.modes[i].share * 100));
}

/* Write the intervals the interference accounting judged disturbed, with the bound when hit. */
static void
put_disturbed(struct report *r, const struct report_rec *x, const char *lead,
    size_t *n, size_t *k)
{
	const struct bm__jval *in = bm__jget(x->j, "interference");
	double d = bm__jnum(in, "disturbed");
	double dis = bm__jnum(in, "discarded");

	if (!bm__jtrue(in, "accounted") || !(d > 0))
		return;
	put_item(r, lead, n, k);
	report_put(r, "disturbed %g of ", d);
	report_put_text(r, bm__jget(in, "intervals"), NULL);
	report_put(r, " intervals");
	if (bm__jtrue(in, "bound_hit") && isfinite(dis))
		report_put(r, ", bound hit (%g kept)", d - dis);
}

/* Write each figure the machine contradicts, both numbers and the source. */
static void
put_contradicts(struct report *r, const struct report_rec *x,
    const char *lead, size_t *n, size_t *k)
{
	const struct bm__jval *c = bm__jget(x->j, "contradicts"), *e, *u;
	char b[REPORT_NUM];
	size_t i;

	for (i = 0; c != NULL && c->type == BM__J_ARRAY && i < c->n; i++) {
		if ((e = &c->item[i])->type != BM__J_OBJECT)
			continue;
		u = bm__jget(e, "unit");
		put_item(r, lead, n, k);
		report_put(r, "contradicts the machine: ");
		report_put_text(r, bm__jget(e, "what"), "-");
		report_put(r, " %s ",
		    put_whole(b, bm__jnum(e, "measured")));
		report_put_text(r, u, "");
		report_put(r, " measured, %s ", put_whole(b,
		    bm__jnum(e, "machine")));
		report_put_text(r, u, "");
		report_put(r, " by ");
		report_put_text(r, bm__jget(e, "source"), "-");
	}
}

/*
 * Write the note of x: its flags and what explains them (imported,
 * invalid, noisy, bimodal with its modes, disagree, the disturbed
 * intervals, each contradiction with the machine, a budget hit).
 */
void
report_put_note(struct report *r, const struct report_rec *x, const char *lead,
    size_t *n)
{
	static const char *const flag[][2] = { { "noisy", "noisy" },
	    { "bimodal", "bimodal" },
	    { "disagree", "disagree (the processes gave different answers)" } };
	size_t k = 0, i;

	if (x->f.imported) {
		put_item(r, lead, n, &k);
		report_put(r, "imported from lmbench");
	}
	if (!isfinite(x->f.value)) {
		put_item(r, lead, n, &k);
		report_put(r, "invalid");
	}
	for (i = 0; i < sizeof flag / sizeof flag[0]; i++)
		if (bm__jtrue(x->j, flag[i][0])) {
			put_item(r, lead, n, &k);
			report_put(r, flag[i][1]);
		}
	put_modes(r, x, lead, n, &k);
	put_disturbed(r, x, lead, n, &k);
	put_contradicts(r, x, lead, n, &k);
	if (bm__jtrue(x->j, "budget_hit")) {
		put_item(r, lead, n, &k);
		report_put(r, "budget hit (the run stopped at its time bound)");
	}
}

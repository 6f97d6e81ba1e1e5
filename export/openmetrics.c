/*
 * openmetrics.c - the OpenMetrics 1.0 text writer (openmetrics.h).  The
 * rules followed are the specification's ABNF and its "Metric types"
 * section (OpenMetrics.md, version 1.0.0); where it leaves a choice, the
 * choice a strict reader (Debian python3-prometheus-client's
 * prometheus_client.openmetrics.parser, Prometheus 2.42's openmetricsparse)
 * accepts: integers without an exponent, "+Inf", timestamps as decimal
 * seconds with millisecond digits.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export_error.h"
#include "openmetrics.h"

struct om_writer {
	FILE *out;
	char **names;            /* every name a family took, suffixes included */
	size_t nnames, cap;
	char family[256];        /* the current family */
	enum om_type type;
	bool have_family;
	char *last_series;       /* the previous sample's name and labels */
	bool last_stamped;
	double last_time;
	int failed;
};

static int fail(struct om_writer *w, struct pmurt_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct om_writer *w, struct pmurt_error *err, int code, const char *fmt, ...)
{
	if (code == -EIO || code == -ENOMEM)
		w->failed = code;
	va_list ap;
	va_start(ap, fmt);
	export_verror(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int om_writer_open(struct om_writer **w, FILE *out, struct pmurt_error *err)
{
	*w = calloc(1, sizeof(**w));
	if (!*w) {
		if (err) {
			err->code = -ENOMEM;
			snprintf(err->message, sizeof(err->message), "openmetrics: out of memory");
		}
		return -ENOMEM;
	}
	(*w)->out = out;
	return 0;
}

void om_writer_free(struct om_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	free(w->last_series);
	free(w);
}

/* OpenMetrics ABNF: metricname-initial-char = ALPHA / "_" / ":",
 * metricname-char = metricname-initial-char / DIGIT; label names the same
 * without ':'. */
static bool valid_name(const char *s, bool metric)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '_' || (metric && c == ':');
		if (!ok)
			return false;
	}
	return true;
}

bool om_name(char *out, size_t len, const char *prefix, const char *text, const char *unit)
{
	size_t n = 0;
	bool cut = false, gap = false;
	const char *parts[3] = {prefix, text, unit && *unit ? unit : NULL};
	for (int p = 0; p < 3; p++) {
		if (!parts[p])
			continue;
		if (n && out[n - 1] != '_')
			gap = true;
		for (const char *s = parts[p]; *s; s++) {
			char c = *s;
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
			if (!word) {
				gap = n > 0;
				continue;
			}
			if (gap && n + 1 < len)
				out[n++] = '_';
			gap = false;
			if (n + 1 < len)
				out[n++] = c;
			else
				cut = true;
		}
	}
	if (n && out[0] >= '0' && out[0] <= '9')
		cut = true;   /* cannot start a name: callers give a prefix */
	out[len ? (n < len ? n : len - 1) : 0] = 0;
	return !cut;
}

static const char *const *suffixes(enum om_type t)
{
	static const char *const counter[] = {"_total", "_created", NULL};
	static const char *const histogram[] = {"_bucket", "_count", "_sum", "_created", NULL};
	static const char *const none[] = {NULL};
	return t == OM_COUNTER ? counter : t == OM_HISTOGRAM ? histogram : none;
}

static bool name_taken(const struct om_writer *w, const char *name)
{
	for (size_t i = 0; i < w->nnames; i++)
		if (!strcmp(w->names[i], name))
			return true;
	return false;
}

static int take_name(struct om_writer *w, const char *name, const char *suffix)
{
	if (w->nnames == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 32;
		char **v = realloc(w->names, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		w->names = v;
		w->cap = cap;
	}
	size_t len = strlen(name) + strlen(suffix) + 1;
	char *s = malloc(len);
	if (!s)
		return -ENOMEM;
	snprintf(s, len, "%s%s", name, suffix);
	w->names[w->nnames++] = s;
	return 0;
}

static int put(struct om_writer *w, struct pmurt_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int put(struct om_writer *w, struct pmurt_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vfprintf(w->out, fmt, ap);
	va_end(ap);
	return n < 0 ? fail(w, err, -EIO, "openmetrics: writing failed") : 0;
}

/* HELP text: backslash, double quote and newline escaped (the ABNF's
 * escaped-string, as the label values). */
static int put_escaped(struct om_writer *w, const char *s, struct pmurt_error *err)
{
	for (; *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '"' ? "\\\"" : *s == '\n' ? "\\n" : NULL;
		if (e ? fputs(e, w->out) < 0 : putc(*s, w->out) == EOF)
			return fail(w, err, -EIO, "openmetrics: writing failed");
	}
	return 0;
}

int om_family(struct om_writer *w, const char *name, enum om_type type, const char *unit,
	      const char *help, struct pmurt_error *err)
{
	static const char *const type_names[] = {"counter", "gauge", "histogram", "unknown"};
	if (w->failed)
		return w->failed;
	size_t len = strlen(name);
	if (!valid_name(name, true) || len >= sizeof(w->family))
		return fail(w, err, -EINVAL, "openmetrics: '%s' is not a metric name", name);
	if (unit && *unit) {
		size_t ulen = strlen(unit);
		if (!valid_name(unit, true) || ulen + 1 >= len || strcmp(name + len - ulen, unit) ||
		    name[len - ulen - 1] != '_')
			return fail(w, err, -EINVAL, "openmetrics: family '%s': its unit '%s' must "
				    "end its name", name, unit);
	}
	if (type == OM_COUNTER && len >= 6 && !strcmp(name + len - 6, "_total"))
		return fail(w, err, -EINVAL, "openmetrics: counter family '%s': its name goes "
			    "without _total (its samples have it)", name);
	const char *const *sfx = suffixes(type);
	bool clash = name_taken(w, name);
	for (int i = 0; sfx[i] && !clash; i++) {
		char full[300];
		snprintf(full, sizeof(full), "%s%s", name, sfx[i]);
		clash = name_taken(w, full);
	}
	if (clash)
		return fail(w, err, -EINVAL, "openmetrics: family '%s' clashes with an earlier one",
			    name);
	if (take_name(w, name, ""))
		return fail(w, err, -ENOMEM, "openmetrics: out of memory");
	for (int i = 0; sfx[i]; i++)
		if (take_name(w, name, sfx[i]))
			return fail(w, err, -ENOMEM, "openmetrics: out of memory");
	memcpy(w->family, name, len + 1);
	w->type = type;
	w->have_family = true;
	free(w->last_series);
	w->last_series = NULL;
	int rc = put(w, err, "# TYPE %s %s\n", name, type_names[type]);
	if (!rc && unit && *unit)
		rc = put(w, err, "# UNIT %s %s\n", name, unit);
	if (!rc && help && *help) {
		rc = put(w, err, "# HELP %s ", name);
		if (!rc)
			rc = put_escaped(w, help, err);
		if (!rc)
			rc = put(w, err, "\n");
	}
	return rc;
}

/* A number as the ABNF's realnumber: integers without exponent, else the
 * shortest form that reads back the same; "+Inf", "-Inf", "NaN". */
static void format_number(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else if (isinf(v))
		snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		snprintf(buf, len, "%.0f", v);
	else {
		snprintf(buf, len, "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, len, "%.17g", v);
	}
}

/* The labels as a string, checked and escaped; *out malloc'd. */
static int label_text(struct om_writer *w, const struct om_label *l, int n, const char *le,
		      char **out, struct pmurt_error *err)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f)
		return fail(w, err, -ENOMEM, "openmetrics: out of memory");
	FILE *saved = w->out;
	w->out = f;
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (!valid_name(l[i].name, false) || (le && !strcmp(l[i].name, "le")))
			rc = fail(w, err, -EINVAL, "openmetrics: '%s' is not a label name here",
				  l[i].name);
		for (int j = 0; j < i && !rc; j++)
			if (!strcmp(l[i].name, l[j].name))
				rc = fail(w, err, -EINVAL, "openmetrics: label '%s' given twice",
					  l[i].name);
		if (!rc)
			rc = put(w, err, "%s%s=\"", i ? "," : "", l[i].name);
		if (!rc)
			rc = put_escaped(w, l[i].value, err);
		if (!rc)
			rc = put(w, err, "\"");
	}
	if (!rc && le)
		rc = put(w, err, "%sle=\"%s\"", n ? "," : "", le);
	w->out = saved;
	if (fclose(f) != 0 && !rc)
		rc = fail(w, err, -ENOMEM, "openmetrics: out of memory");
	if (w->failed == -EIO && rc == -EIO)
		w->failed = 0;   /* the memory stream's failure is memory's */
	if (rc) {
		free(buf);
		return rc == -EIO ? fail(w, err, -ENOMEM, "openmetrics: out of memory") : rc;
	}
	*out = buf;
	return 0;
}

/* One sample line: NAME SUFFIX {LABELS} VALUE [TIMESTAMP]. */
static int put_line(struct om_writer *w, const char *suffix, const struct om_label *l, int n,
		    const char *le, double value, const double *ts, struct pmurt_error *err)
{
	bool counter_like = *suffix != 0;   /* _total, _bucket, _count, _sum */
	if (counter_like && (isnan(value) || value < 0))
		return fail(w, err, -EINVAL, "openmetrics: %s%s: a %s value cannot be %g", w->family,
			    suffix, suffix + 1, value);
	if (ts && !isfinite(*ts))
		return fail(w, err, -EINVAL, "openmetrics: %s%s: timestamp %g", w->family, suffix,
			    *ts);
	char *labels = NULL;
	int rc = label_text(w, l, n, le, &labels, err);
	if (rc)
		return rc;
	/* a series' points in time order, all stamped or none (the
	 * specification's MetricPoint ordering) */
	size_t series_len = strlen(suffix) + strlen(labels) + 2;
	char *series = malloc(series_len);
	if (!series) {
		free(labels);
		return fail(w, err, -ENOMEM, "openmetrics: out of memory");
	}
	snprintf(series, series_len, "%s{%s", suffix, labels);
	if (w->last_series && !strcmp(series, w->last_series) &&
	    (w->last_stamped != (ts != NULL) || (ts && *ts < w->last_time)))
		rc = fail(w, err, -EINVAL, "openmetrics: %s%s{%s}: timestamps must be given for "
			  "every point of a series, in increasing order", w->family, suffix, labels);
	free(w->last_series);
	w->last_series = series;
	w->last_stamped = ts != NULL;
	w->last_time = ts ? *ts : 0;
	char num[64];
	format_number(value, num, sizeof(num));
	if (!rc)
		rc = put(w, err, "%s%s%s%s%s %s", w->family, suffix, *labels ? "{" : "", labels,
			 *labels ? "}" : "", num);
	if (!rc && ts)
		rc = put(w, err, " %.3f", *ts);
	if (!rc)
		rc = put(w, err, "\n");
	free(labels);
	return rc;
}

static int need_family(struct om_writer *w, enum om_type type, struct pmurt_error *err)
{
	if (w->failed)
		return w->failed;
	if (!w->have_family || w->type != type)
		return fail(w, err, -EINVAL, "openmetrics: a %s sample outside a %s family",
			    type == OM_HISTOGRAM ? "histogram" : "counter or gauge",
			    type == OM_HISTOGRAM ? "histogram" : "matching");
	return 0;
}

int om_sample(struct om_writer *w, const struct om_label *labels, int nlabels, double value,
	      const double *timestamp, struct pmurt_error *err)
{
	if (w->failed)
		return w->failed;
	int rc = need_family(w, w->type == OM_HISTOGRAM ? OM_COUNTER : w->type, err);
	if (rc)
		return rc;
	return put_line(w, w->type == OM_COUNTER ? "_total" : "", labels, nlabels, NULL, value,
			timestamp, err);
}

int om_histogram(struct om_writer *w, const struct om_label *labels, int nlabels,
		 const double *bounds, const uint64_t *cumulative, int nbounds, uint64_t count,
		 double sum, const double *timestamp, struct pmurt_error *err)
{
	int rc = need_family(w, OM_HISTOGRAM, err);
	for (int i = 0; !rc && i < nbounds; i++) {
		if (!isfinite(bounds[i]) || (i && bounds[i] <= bounds[i - 1]) ||
		    (i && cumulative[i] < cumulative[i - 1]) || cumulative[i] > count)
			return fail(w, err, -EINVAL, "openmetrics: %s: bucket %d (le %g) out of order",
				    w->family, i, bounds[i]);
		char le[64];
		format_number(bounds[i], le, sizeof(le));
		if (!strchr(le, '.') && !strchr(le, 'e') && strlen(le) + 2 < sizeof(le))
			strcat(le, ".0");   /* a float, as the specification writes le */
		rc = put_line(w, "_bucket", labels, nlabels, le, (double)cumulative[i], timestamp,
			      err);
	}
	if (!rc)
		rc = put_line(w, "_bucket", labels, nlabels, "+Inf", (double)count, timestamp, err);
	if (!rc)
		rc = put_line(w, "_count", labels, nlabels, NULL, (double)count, timestamp, err);
	if (!rc)
		rc = put_line(w, "_sum", labels, nlabels, NULL, sum, timestamp, err);
	return rc;
}

int om_finish(struct om_writer *w, struct pmurt_error *err)
{
	if (w->failed)
		return w->failed;
	int rc = put(w, err, "# EOF\n");
	if (!rc && fflush(w->out) != 0)
		rc = fail(w, err, -EIO, "openmetrics: writing failed");
	return rc;
}

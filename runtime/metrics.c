/*
 * metrics.c - perf's metrics through the public API: list and find metrics
 * and metric groups without case, a metric's events and ScaleUnit, and its
 * value from counts (exactly where it can be, model/metric.c).  Packing the
 * metrics' events into groups is pack.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "metrics.h"

_Static_assert(PMURT_METRIC_NLITERALS == PMU_METRIC_NLITERALS, "perf's literals");

#define METRIC_INFO_MIN_SZ sizeof(struct pmurt_metric_info)
#define METRIC_VALUE_MIN_SZ sizeof(struct pmurt_metric_value)

int pmurt_metric_count(const struct pmurt_pmu *pmu)
{
	return pmu ? pmu->model.nmetrics : -EINVAL;
}

/* perf's ScaleUnit: a number, then the unit ("1.063%", "5.24e-1MB", "4"). */
static void split_scale_unit(const char *s, double *scale, char *unit, size_t len)
{
	char *end;

	*scale = 1;
	unit[0] = '\0';
	if (!s)
		return;
	double v = strtod(s, &end);
	if (end != s)
		*scale = v;
	snprintf(unit, len, "%s", end);
}

int pmurt_metric_compile(const struct pmurt_pmu *pmu, int index, struct pmu_metric_prog *prog,
			 struct pmurt_error *err)
{
	char why[320] = "";
	size_t at;
	int rc = pmu_metric_compile(&pmu->model, index, prog, &at, why, sizeof(why));

	if (rc == -ENOMEM)
		pmurt_set_error(err, rc, "metric %s: out of memory", pmu->model.metrics[index].name);
	else if (rc)
		pmurt_set_error(err, rc, "metric %s: offset %zu: %s",
				pmu->model.metrics[index].name, at, why);
	else if (prog->nevents > PMURT_METRIC_MAX_EVENTS) {
		pmurt_set_error(err, -E2BIG, "metric %s needs %d events (at most %d)",
				pmu->model.metrics[index].name, prog->nevents,
				PMURT_METRIC_MAX_EVENTS);
		pmu_metric_prog_free(prog);
		rc = -E2BIG;
	}
	return rc;
}

static int fill_metric(const struct pmurt_pmu *pmu, int i, struct pmurt_metric_info *info)
{
	const struct pmu_metric *mt = &pmu->model.metrics[i];
	struct pmu_metric_prog prog;
	int rc = pmurt_metric_compile(pmu, i, &prog, NULL);

	if (rc)
		return rc;
	struct pmurt_metric_info full = {
		.sz = sizeof(full), .name = mt->name, .expr = mt->expr, .groups = mt->groups,
		.description = mt->description, .scale_unit = mt->scale_unit,
		.threshold = mt->threshold, .pmus = mt->pmus, .nevents = prog.nevents,
	};
	for (int k = 0; k < prog.nevents; k++)
		full.event_index[k] = pmu_model_event(&pmu->model, prog.events[k]);
	split_scale_unit(mt->scale_unit, &full.scale, full.unit, sizeof(full.unit));
	pmu_metric_prog_free(&prog);
	*info = full;
	return 0;
}

int pmurt_metric_get(const struct pmurt_pmu *pmu, int i, struct pmurt_metric_info *info)
{
	if (!pmu || !info || info->sz < METRIC_INFO_MIN_SZ || i < 0)
		return -EINVAL;
	if (i >= pmu->model.nmetrics)
		return -ENOENT;
	return fill_metric(pmu, i, info);
}

int pmurt_metric_find(const struct pmurt_pmu *pmu, const char *name,
		      struct pmurt_metric_info *info, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !name || (info && info->sz < METRIC_INFO_MIN_SZ)) {
		pmurt_set_error(err, -EINVAL, "pmurt_metric_find: missing argument or "
				"info->sz not set");
		return -EINVAL;
	}
	int i = pmu_model_metric(&pmu->model, name);
	if (i >= 0) {
		int rc = info ? fill_metric(pmu, i, info) : 0;
		return rc ? rc : i;
	}
	if (err) {
		struct pmurt_nearest n;
		pmurt_nearest_init(&n, name, strlen(name));
		while (pmurt_nearest_pass(&n))
			for (int k = 0; k < pmu->model.nmetrics; k++)
				pmurt_nearest_try(&n, pmu->model.metrics[k].name);
		pmurt_set_error(err, -ENOENT, "no metric '%s' in %s%s%s%s", name,
				pmu->model.name ? pmu->model.name : "the description",
				n.buf[0] ? "; did you mean '" : "", n.buf, n.buf[0] ? "'?" : "");
	}
	return -ENOENT;
}

bool pmurt_metric_in_group(const struct pmurt_pmu *pmu, int index, const char *group)
{
	return pmu && group && index >= 0 && index < pmu->model.nmetrics &&
	       pmu_metric_in_group(&pmu->model.metrics[index], group);
}

static bool span_eq_nocase(const char *a, size_t n, const char *b)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
		char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] + 32) : b[i];
		if (x != y || !b[i])
			return false;
	}
	return b[n] == '\0';
}

/* Whether group g[0..len) appears in a metric before metric `before`, or
 * earlier in that metric's own list (before `at`). */
static bool group_seen(const struct pmu_model *m, int before, const char *at,
		       const char *g, size_t len)
{
	char name[128];

	if (len >= sizeof(name))
		return false;
	memcpy(name, g, len);
	name[len] = '\0';
	for (int i = 0; i <= before; i++) {
		const char *s = m->metrics[i].groups;
		for (; s && *s && (i < before || s < at);) {
			size_t n = strcspn(s, ";");
			if (n == len && span_eq_nocase(s, n, name))
				return true;
			s += n + (s[n] == ';');
		}
	}
	return false;
}

int pmurt_metric_group_get(const struct pmurt_pmu *pmu, int i, char *buf, size_t len)
{
	if (!pmu || i < 0 || (!buf && len))
		return -EINVAL;
	const struct pmu_model *m = &pmu->model;
	int k = 0;
	for (int j = 0; j < m->nmetrics; j++)
		for (const char *g = m->metrics[j].groups; g && *g;) {
			size_t n = strcspn(g, ";");
			if (n && !group_seen(m, j, g, g, n) && k++ == i) {
				snprintf(buf, len, "%.*s", (int)n, g);
				int count = 0;
				for (int x = 0; x < m->nmetrics; x++)
					count += pmu_metric_in_group(&m->metrics[x], buf);
				return count;
			}
			g += n + (g[n] == ';');
		}
	return -ENOENT;
}

int pmurt_metric_eval(const struct pmurt_pmu *pmu, int index, const uint64_t *counts,
		      int ncounts, const int64_t *literals, struct pmurt_metric_value *out,
		      struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !out || out->sz < METRIC_VALUE_MIN_SZ || index < 0 ||
	    index >= pmu->model.nmetrics || (ncounts && !counts)) {
		pmurt_set_error(err, -EINVAL, "pmurt_metric_eval: bad argument (metric index %d "
				"of %d, or out->sz not set)", index, pmu ? pmu->model.nmetrics : 0);
		return -EINVAL;
	}
	const struct pmu_metric *mt = &pmu->model.metrics[index];
	struct pmu_metric_prog prog;
	int rc = pmurt_metric_compile(pmu, index, &prog, err);
	if (rc)
		return rc;
	if (ncounts != prog.nevents) {
		pmurt_set_error(err, -EINVAL, "pmurt_metric_eval: metric %s takes %d counts, "
				"given %d", mt->name, prog.nevents, ncounts);
		pmu_metric_prog_free(&prog);
		return -EINVAL;
	}
	struct pmu_metric_result r;
	rc = pmu_metric_eval(&prog, counts, literals, &r);
	pmu_metric_prog_free(&prog);
	if (rc == -EINVAL || rc == -ENOENT) {
		pmurt_set_error(err, rc, rc == -ENOENT ? "metric %s names a #literal: pass "
				"perf's literals" : "metric %s: bad expression", mt->name);
		return rc;
	}
	*out = (struct pmurt_metric_value){.sz = sizeof(*out), .value = r.value,
					   .exact = r.exact, .num = r.num, .den = r.den};
	if (rc == -ERANGE)
		pmurt_set_error(err, rc, "metric %s: no 64-bit fraction holds the value; "
				"value is perf's double", mt->name);
	else if (rc == -EDOM)
		pmurt_set_error(err, rc, "metric %s divides by zero", mt->name);
	return rc;
}

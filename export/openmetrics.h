/*
 * openmetrics.h - a writer of the OpenMetrics 1.0 text format
 * (github.com/OpenObservability/OpenMetrics, specification/OpenMetrics.md),
 * the exposition Prometheus scrapes as application/openmetrics-text and
 * `promtool tsdb create-blocks-from openmetrics` imports.
 *
 * The writer keeps the rules a strict reader checks: metric and label
 * names in the allowed characters, a family's metadata (TYPE, UNIT, HELP)
 * before its samples and each family once, a unit only as the name's
 * suffix, a counter's samples as NAME_total, no NaN or negative value
 * where a counter-like sample is, integral bucket and count values,
 * histogram buckets in increasing "le" order ending with "+Inf" and a
 * _count equal to it, label values escaped (\\, \", \n), and "# EOF" last.
 * What the caller must keep itself: a series' samples together and in
 * time order (the specification's "MetricPoints ... in increasing
 * timestamp order"; -EINVAL when a timestamp goes back within a series).
 *
 * Functions return 0 or a negative errno (-EINVAL for what breaks a rule,
 * the message naming it; -EIO when writing fails).
 */
#ifndef PMU_EXPORT_OPENMETRICS_H
#define PMU_EXPORT_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmurt.h"

enum om_type { OM_COUNTER, OM_GAUGE, OM_HISTOGRAM, OM_UNKNOWN };

struct om_label {
	const char *name, *value;
};

struct om_writer;

int om_writer_open(struct om_writer **w, FILE *out, struct pmurt_error *err);
/* A metric family: name (without _total for a counter), its type, unit
 * (NULL or "": none; else name must end in "_" unit) and help text. */
int om_family(struct om_writer *w, const char *name, enum om_type type, const char *unit,
	      const char *help, struct pmurt_error *err);
/* A sample of the current family: a counter's or a gauge's value, with
 * its labels and, when timestamp is not NULL, its time in seconds since
 * the epoch. */
int om_sample(struct om_writer *w, const struct om_label *labels, int nlabels, double value,
	      const double *timestamp, struct pmurt_error *err);
/* A histogram of the current family: nbounds finite upper bounds
 * (increasing) with the cumulative counts at each, then "+Inf" with count,
 * _count and _sum. */
int om_histogram(struct om_writer *w, const struct om_label *labels, int nlabels,
		 const double *bounds, const uint64_t *cumulative, int nbounds, uint64_t count,
		 double sum, const double *timestamp, struct pmurt_error *err);
/* "# EOF" and a flush. */
int om_finish(struct om_writer *w, struct pmurt_error *err);
void om_writer_free(struct om_writer *w);

/* A metric name made of prefix and text: every character outside
 * [a-zA-Z0-9_] becomes '_', runs of them one, letters lower case, then
 * "_" unit when unit is given; out[len] always terminated; false when cut. */
bool om_name(char *out, size_t len, const char *prefix, const char *text, const char *unit);

#endif /* PMU_EXPORT_OPENMETRICS_H */

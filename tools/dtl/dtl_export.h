/*
 * dtl_export.h - dtl report's exports (dtl_export.c): --pprof, the steal
 * by preempted function as a pprof profile, fed entry by entry while the
 * report reads its input; --openmetrics, the report's figures as
 * OpenMetrics text.
 */
#ifndef PMUTOOL_DTL_EXPORT_H
#define PMUTOOL_DTL_EXPORT_H

#include <stdio.h>

#include "dtl_stats.h"
#include "pmutool.h"

struct dtl_export;

/* A profile of input's entries into path; an exit code (*x to free). */
int dtl_export_open(struct dtl_export **x, const struct tool *t, const char *input,
		    const char *path);
/* A slot read on cpu (entries only are used; x NULL: nothing); an exit code. */
int dtl_export_entry(struct dtl_export *x, int cpu, const struct pmurt_dtl_cursor *c,
		     const struct pmurt_dtl_slot *s);
int dtl_export_finish(struct dtl_export *x);
void dtl_export_free(struct dtl_export *x);

/* 0 or a negative errno with err set. */
int dtl_report_openmetrics(const struct dtl_stats *s, FILE *out, struct pmurt_error *err);

#endif /* PMUTOOL_DTL_EXPORT_H */

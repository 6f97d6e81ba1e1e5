/*
 * report_pprof.h - `pmutool report --pprof OUT` (report_pprof.c): the
 * samples of t->input as a gzipped pprof profile in the file path.
 */
#ifndef REPORT_PPROF_H
#define REPORT_PPROF_H

#include "pmutool.h"

/* An exit code. */
int report_pprof(const struct tool *t, const char *path);

#endif /* REPORT_PPROF_H */

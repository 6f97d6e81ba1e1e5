/*
 * report_pprof.h - `pmutool report --pprof OUT` (report_pprof.c): the
 * samples of opts->input as a gzipped pprof profile in the file opts->pprof.
 */
#ifndef REPORT_PPROF_H
#define REPORT_PPROF_H

#include "report_opts.h"

/* An exit code. */
int report_pprof(const struct tool *t, const struct report_opts *opts);

#endif /* REPORT_PPROF_H */

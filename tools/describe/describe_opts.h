/*
 * describe_opts.h - the options of pmutool list, describe and check (the
 * subcommands that read a PMU description): the struct they fill and their
 * getopt table (describe_opts.c), which pmutool.c merges with the other
 * families'.  --pmu, --pvr and --show-pick, which choose the description
 * itself, are pmutool's (struct tool).
 */
#ifndef PMUTOOL_DESCRIBE_OPTS_H
#define PMUTOOL_DESCRIBE_OPTS_H

#include <getopt.h>
#include <stdbool.h>

#include "pmutool.h"

struct describe_opts {
	bool json;                  /* -j, --json (list, check) */
	const char *batch;          /* check: --batch FILE ('-' = standard input) */
	struct pmurt_check_opts check; /* --hv-mode, --no-lpar (check, describe);
	                               --per-task, --no-per-task (check) */
	const char *kernel_opt;     /* the first of --hv-mode, --no-lpar given */
	const char *task_opt;       /* the first of --per-task, --no-per-task given */
};

/* The defaults: per task, under a hypervisor (LPAR), as perf runs. */
#define DESCRIBE_OPTS_INIT \
	{.check = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true, .lpar = true)}

/* describe_option takes option c (getopt_long's value) into opts: -1 when
 * it is not one of the family's, else an exit code. */
enum { DESCRIBE_OPT_HV_MODE = 0x400, DESCRIBE_OPT_NO_LPAR, DESCRIBE_OPT_PER_TASK,
       DESCRIBE_OPT_NO_PER_TASK };
extern const char describe_shortopts[];
extern const struct option describe_longopts[];
int describe_option(struct describe_opts *opts, int c, const char *arg);

int cmd_list(const struct tool *t, const struct describe_opts *opts);
int cmd_describe(const struct tool *t, const struct describe_opts *opts);
int cmd_check(const struct tool *t, const struct describe_opts *opts);
/* cmd_metrics.c: `list metrics [GLOB]` (an exit code); describe a metric
 * (false when name is none). */
int list_metrics(const struct tool *t, const struct describe_opts *opts, const char *glob);
bool describe_metric(const struct tool *t, const struct describe_opts *opts, const char *name);

#endif /* PMUTOOL_DESCRIBE_OPTS_H */

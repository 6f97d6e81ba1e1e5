/*
 * pmutool.h - what pmutool's subcommands share: the parsed command line, the
 * exit codes (documented in pmutool.1) and small output helpers.
 */
#ifndef PMUTOOL_H
#define PMUTOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmurt.h"

/* Exit codes, as pmutool(1) documents them. */
enum {
	EXIT_OK = 0,        /* done; check: the group fits */
	EXIT_REJECTED = 1,  /* check: the group does not fit; list: no match */
	EXIT_USAGE = 2,     /* bad option, event string or batch line */
	EXIT_NOPMU = 3,     /* the description could not be loaded */
	EXIT_INTERNAL = 4,  /* out of memory, I/O error, library error */
	EXIT_OPEN_FAILED = 5, /* stat, record: the kernel refused to open an event */
};

struct tool {
	const char *prog;           /* argv[0]'s base name, for messages */
	const char *pmu_spec;       /* --pmu; without it the host's pick, else "power10" */
	bool show_pick;             /* --show-pick */
	char picked[320];           /* without --pmu: what picked the description */
	uint32_t pvr;               /* --pvr, 0: the description's own */
	struct pmurt_pmu *pmu;
	bool json;                  /* --json */
	const char *batch;          /* --batch FILE ('-' = standard input) */
	struct pmurt_check_opts check; /* --hv-mode, --no-per-task, --no-lpar */
	const char *kernel_opt;     /* the first of --hv-mode, --no-lpar given */
	const char *task_opt;       /* the first of --per-task, --no-per-task given */
	const char *input;          /* report, script: -i FILE (perf.data) */
	const void *input_bytes;    /* fuzz targets: that file's bytes in memory, */
	size_t input_size;          /* read instead of the file input names */
	const char *sort;           /* report: --sort KEYS */
	const char *comm;           /* report: --comm NAME */
	double percent_limit;       /* report: --percent-limit P (0: none) */
	bool no_children;           /* report: --no-children (the last of it
	                               and --children given) */
	bool children_given;
	const char *call_graph;     /* report: -g caller|callee|none */
	const char *pprof;          /* report: --pprof OUT (report_pprof.c) */
	bool openmetrics;           /* stat: --openmetrics (stat_openmetrics.c) */
	bool hide_call_graph;       /* script: -G */
	const char *fields;         /* script: -F FIELDS */
	char **args;                /* the subcommand's operands */
	int nargs;
	const char *subcommand;     /* its name when taken off args already (stat) */
	bool help;                  /* -h, --help: the subcommand's, else the global */
	/* the live host (stat): --sysfs, --tracefs, --pmu when given */
	bool pmu_given;
	const char *sysfs, *tracefs;
	struct pmurt_host *host;
	/* stat: -e (each), -a, -C, -I, -r, -x, --dry-run */
	const char **events;
	int nevents;
	bool all_cpus;
	const char *cpu_list;
	long interval_ms;
	long repeat;
	const char *sep;
	bool dry_run;
	const char *metric_names;   /* stat -M NAME[,NAME...] */
	bool metric_only;           /* stat --metric-only */
	const char *output;         /* stat -o FILE */
	int pid;                    /* stat -p PID (0: none) */
	FILE *stat_out;             /* stat: -o's stream while it runs, else NULL */
	/* the kernel dtl record opens vpa_dtl on: NULL, the real one; a test
	 * program's simulated one (tests/dtl/pmutool_sim.c, not installed) */
	const struct pmu_sys *sys;
};

struct pmu_sys;
/* pmutool itself (main.c calls it with the real kernel): an exit code. */
int pmutool_main(int argc, char **argv, const struct pmu_sys *sys);

/* Subcommands: each returns an exit code. */
int cmd_list(struct tool *t);
int cmd_describe(struct tool *t);
int cmd_check(struct tool *t);
/* cmd_metrics.c: `list metrics [GLOB]` (an exit code); describe a metric
 * (false when name is none). */
int list_metrics(const struct tool *t, const char *glob);
bool describe_metric(const struct tool *t, const char *name);
/* Takes its own options: t->args[-1] is "record", t->args its arguments. */
int cmd_record(struct tool *t);
int cmd_stat(struct tool *t);
/* `pmutool dtl ...`: argv[0] is "dtl"; it parses its own options. */
int cmd_dtl(const struct tool *t, int argc, char **argv);

/* Opens t->host from --sysfs, --tracefs and --pmu (else the host's own
 * description, if any); returns 0 or an exit code. */
int tool_open_host(struct tool *t);
int cmd_report(struct tool *t);
int cmd_script(struct tool *t);

/* "pmutool: error: ..." on standard error. */
void tool_error(const struct tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parse an event string with pmurt_parse_event, reporting failures;
 * returns 0 or EXIT_USAGE. */
int tool_parse_event(const struct tool *t, const char *str,
		     struct pmurt_event_spec *spec);

/* printf one line without trailing blanks, then a newline. */
void tool_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy src into dst[size], cut if needed, always terminated. */
void tool_copy(char *dst, size_t size, const char *src);

/* The lower-case name of control register i ("mmcr0"), in buf. */
const char *tool_reg_key(const struct pmurt_pmu *pmu, int i, char *buf, size_t len);

/* -C's CPUs (list, as given) against the host's configured CPUs: 0, or
 * EXIT_USAGE naming the first that does not exist ("what" prefixes the
 * message: "record: " or ""). */
int tool_check_cpus(const struct tool *t, const char *what, const char *list, const int *cpus,
		    int n);

/* s as an unsigned number (decimal, 0x hex or 0 octal, as strtoull reads
 * it), the whole of s, no sign: true with *v set. */
bool tool_read_u64(const char *s, uint64_t *v);

/* A ring's page count for option opt (-m, --aux-pages): a power of two up
 * to 1048576, as perf_mmap takes it (nr_pages a power of two).  EXIT_OK
 * with *pages set, or EXIT_USAGE naming the option ("what" prefixes the
 * message: "dtl record: " or ""). */
int tool_parse_pages(const struct tool *t, const char *what, const char *opt, const char *s,
		     unsigned *pages);

#endif /* PMUTOOL_H */

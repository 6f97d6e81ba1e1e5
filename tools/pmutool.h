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
#include "pmurt_tool.h"

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
	const struct pmurt_pmu *pmu; /* list, describe, check: the description */
	struct pmurt_pmu *own_pmu;  /* ... when not the host's */
	char **args;                /* the subcommand's operands */
	int nargs;
	const char *subcommand;     /* its name when taken off args already (stat) */
	bool help;                  /* -h, --help: the subcommand's, else the global */
	/* the live host (stat, record): --sysfs, --tracefs, --pmu when given */
	bool pmu_given;
	const char *sysfs, *tracefs;
	struct pmurt_host *host;
	/* the kernel dtl record opens vpa_dtl on: NULL, the real one; a test
	 * program's simulated one (tests/dtl/pmutool_sim.c, not installed) */
	const struct pmurt_sys *sys;
};

/* pmutool itself (main.c calls it with the real kernel): an exit code. */
int pmutool_main(int argc, char **argv, const struct pmurt_sys *sys);

/* Subcommands: each returns an exit code.  Those with an options struct
 * of their own declare it beside it (describe/describe_opts.h,
 * stat/stat.h, report/report_opts.h). */
/* Takes its own options: t->args[-1] is "record", t->args its arguments. */
int cmd_record(const struct tool *t);
/* `pmutool dtl ...`: argv[0] is "dtl"; it parses its own options. */
int cmd_dtl(const struct tool *t, int argc, char **argv);

/* Opens t->host from --sysfs, --tracefs and --pmu (else the host's own
 * description, if any); returns 0 or an exit code. */
int tool_open_host(struct tool *t);

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
/* Whether the host has a hardware PMU to count cycles and instructions
 * on: a description of its core PMU, or sysfs's "cpu" PMU (perf's
 * default events, stat's and record's, follow it). */
bool tool_host_has_counters(const struct tool *t);

/* A ring's page count for option opt (-m, --aux-pages): a power of two up
 * to 1048576, as perf_mmap takes it (nr_pages a power of two).  EXIT_OK
 * with *pages set, or EXIT_USAGE naming the option ("what" prefixes the
 * message: "dtl record: " or ""). */
int tool_parse_pages(const struct tool *t, const char *what, const char *opt, const char *s,
		     unsigned *pages);

/* The other processor generations (tool_generations.c, over
 * pmurt_generations).  tool_generations_note: 1 and a note in buf when
 * another built-in description gives the raw code another event (or the
 * loaded one none), else 0.  tool_note_raw_codes: that note on standard
 * error for each raw code of ev[0..n) (check and stat).
 * tool_print_generations: describe's section, for the event's name (NULL
 * for a raw code) and code. */
int tool_generations_note(const struct pmurt_pmu *pmu, uint64_t code, char *buf, size_t len);
void tool_note_raw_codes(const struct pmurt_pmu *pmu, const struct pmurt_event_spec *ev, int n);
void tool_print_generations(const struct pmurt_pmu *pmu, const char *name, uint64_t code);

#endif /* PMUTOOL_H */

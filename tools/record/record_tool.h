/*
 * record_tool.h - what `pmutool record` (cmd_record.c) and `pmutool dtl
 * record` (dtl_record.c) share: the parsed options and the recording run,
 * which opens the session, writes perf.data (with the AUXTRACE_INFO of an
 * AUX event first), polls until stopped and prints the summary.
 */
#ifndef PMUTOOL_RECORD_TOOL_H
#define PMUTOOL_RECORD_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmutool.h"

struct record_args {
	const char *events[64];
	int nevents;
	bool all_cpus;
	const char *cpu_list;
	pid_t pid;
	uint64_t period, freq, min_period;
	bool callchain, dry_run, no_inherit;
	uint32_t stack_user;        /* --call-graph dwarf,SIZE: SIZE, else 0 */
	bool no_buildid_cache;      /* -N: the DSOs not kept in perf's cache */
	unsigned data_pages;
	unsigned aux_pages;         /* an AUX area per CPU on the first event */
	uint32_t auxtrace_type;     /* its AUXTRACE_INFO type (7: vpa_dtl) */
	const char *output;
	char **cmd;
};

/* Record list's events as a says; an exit code. */
int record_run(const struct tool *t, const struct record_args *a,
	       const struct pmurt_evlist *list);

#endif /* PMUTOOL_RECORD_TOOL_H */

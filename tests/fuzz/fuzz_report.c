/*
 * fuzz_report.c - libFuzzer target for pmutool report's whole path over a
 * perf.data file: the reader, the time ordering, threads and maps from
 * COMM/FORK/MMAP/MMAP2 records, symbol look-ups (ELF files the records name,
 * kernel symbols from a missing file), the tables and the pprof profile;
 * any input is reported or
 * refused with a message, never a crash or a sanitizer report.  The input
 * is read where libFuzzer holds it, a heap block of its exact size
 * (opts.input_bytes), so that ASan sees a read past it.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/report_opts.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("PMUTOOL_KALLSYMS", "/nonexistent", 1);
	if (!freopen("/dev/null", "w", stdout))   /* the tables; messages stay */
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the table, its JSON, and the pprof profile (report --pprof, written
	 * to /dev/null: the writer's path over whatever the input holds) */
	for (int pass = 0; pass < 3; pass++) {
		bool json = pass == 1;
		struct tool t = {.prog = "pmutool"};
		/* the JSON pass filters too (report_filter.c) */
		struct filter_spec filter = {.time = "5%-95%", .symbols = "main,0x401000",
					     .dsos = "[kernel.kallsyms],libc.so.6"};
		struct report_opts opts = {.input = "fuzz.data", .json = json, .input_bytes = data,
					   .input_size = size, .max_stack = json ? 8 : REPORT_MAX_STACK,
					   .sort = json ? "comm,pid,tid,cpu,dso,sym" : NULL,
					   .filter = json ? filter : (struct filter_spec){0},
					   /* the text pass: every event in one group's table */
					   .group = pass == 0 ? 1 : -1,
					   .pprof = pass == 2 ? "/dev/null" : NULL};
		int rc = cmd_report(&t, &opts);
		if (rc != EXIT_OK && rc != EXIT_USAGE)
			abort();   /* out of memory or an output error: not from input */
	}
	return 0;
}

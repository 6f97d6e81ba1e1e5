/*
 * fuzz_report.c - libFuzzer target for pmutool report's whole path over a
 * perf.data file: the reader, the time ordering, threads and maps from
 * COMM/FORK/MMAP/MMAP2 records, symbol look-ups (ELF files the records name,
 * kernel symbols from a missing file), the tables and the pprof profile;
 * any input is reported or
 * refused with a message, never a crash or a sanitizer report.  The input
 * is read where libFuzzer holds it, a heap block of its exact size
 * (t.input_bytes), so that ASan sees a read past it.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmutool.h"

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
	for (int json = 0; json < 3; json++) {
		struct tool t = {.prog = "pmutool", .input = "fuzz.data", .json = json == 1,
				 .input_bytes = data, .input_size = size,
				 .sort = json == 1 ? "comm,pid,tid,cpu,dso,sym" : NULL,
				 .pprof = json == 2 ? "/dev/null" : NULL};
		int rc = cmd_report(&t);
		if (rc != EXIT_OK && rc != EXIT_USAGE)
			abort();   /* out of memory or an output error: not from input */
	}
	return 0;
}

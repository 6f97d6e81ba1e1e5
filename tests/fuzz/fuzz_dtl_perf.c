/*
 * fuzz_dtl_perf.c - libFuzzer target for pmutool's vpa_dtl side of a
 * perf.data file (tools/dtl/dtl_perf.c over libpmurt's reader): any bytes open
 * and yield their AUXTRACE records once an AUXTRACE_INFO of type 7 was
 * read, each printed as perf report -D prints it (to /dev/null) and walked
 * slot by slot, or fail with a negative errno and a message; never a crash
 * or a sanitizer report.  The input is libFuzzer's heap block of its exact
 * size (pmurt_perf_open_mem), so that ASan sees a read past it.  Seeds:
 * tests/fuzz/dtl-perfdata-corpus (files check_perfdata.py's builder wrote:
 * vpa-dtl.data, three CPUs with two buffers each; short-auxtrace.data, one
 * buffer and a 16-byte AUXTRACE record ending the file, which ASan showed
 * read past before the reader refused short records).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "dtl/dtl_perf.h"
#include "perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null_out;

static void walk(const struct dtl_chunk *c)
{
	struct pmurt_dtl_cursor cursor;
	struct pmurt_dtl_slot slot;
	struct pmurt_error err;
	pmurt_dtl_cursor_init(&cursor, c->data, c->size, c->aux_offset, 4096, true);
	int rc;
	while ((rc = pmurt_dtl_next(&cursor, &slot, &err)) != 0)
		if (rc > 0 && slot.offset + slot.len > c->size)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!null_out && !(null_out = fopen("/dev/null", "w")))
		abort();
	struct dtl_perf d = {0};
	struct dtl_chunk chunk;
	struct pmurt_error err = {0};
	struct pmurt_perf_file *file;
	int rc = pmurt_perf_open_mem(&file, "fuzz.data", data, size, &err);
	if (rc == 0)
		dtl_perf_attach(&d, "fuzz.data", file);
	while (rc >= 0 && (rc = dtl_perf_next(&d, &chunk, &err)) > 0) {
		if (!d.is_dtl)
			abort();
		dtl_perf_dump(&d, &chunk, null_out);
		walk(&chunk);
	}
	if (rc < 0 && !err.message[0])
		abort();
	dtl_perf_close(&d);
	return 0;
}

/*
 * dtl_perf.h - vpa_dtl data in a perf.data file: its AUXTRACE records, once
 * an AUXTRACE_INFO of type 7 said they are the Dispatch Trace Log, and what
 * `perf report -D` prints for each (dtl_perf.c).
 */
#ifndef PMUTOOL_DTL_PERF_H
#define PMUTOOL_DTL_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmurt.h"

struct dtl_perf {
	struct pmurt_perf_file *file;
	const char *path;
	uint64_t sample_type;  /* all events' sample_type bits together */
	bool sample_id_all;    /* the first event's */
	bool is_dtl;           /* an AUXTRACE_INFO of type 7 was read */
	uint64_t pmu_type;     /* its priv[0] */
	/* set by the caller: called with each PERF_RECORD_SAMPLE met; a
	 * negative return stops dtl_perf_next with it */
	int (*on_sample)(void *ctx, const struct pmurt_perf_record *rec);
	void *ctx;
};

/* One PERF_RECORD_AUXTRACE and its payload. */
struct dtl_chunk {
	uint64_t file_offset;
	uint16_t header_size;
	const uint8_t *record;  /* the 48-byte record */
	const uint8_t *data;    /* the payload: DTL bytes */
	uint64_t size, aux_offset, reference;
	uint32_t idx;
	int32_t tid, cpu;
};

int dtl_perf_open(struct dtl_perf *d, const char *path, struct pmurt_error *err);
/* As dtl_perf_open, over a file already open (d owns it from now on). */
void dtl_perf_attach(struct dtl_perf *d, const char *path, struct pmurt_perf_file *file);
void dtl_perf_close(struct dtl_perf *d);
/* The next vpa_dtl AUXTRACE record: 1, 0 at the end, or -errno (err says
 * where). */
int dtl_perf_next(struct dtl_perf *d, struct dtl_chunk *chunk, struct pmurt_error *err);
/* What perf report -D prints for the chunk's record, byte for byte (no
 * colour: perf colours only a terminal). */
void dtl_perf_dump(const struct dtl_perf *d, const struct dtl_chunk *c, FILE *out);

/* `pmutool dtl script` (dtl_script.c): an exit code. */
struct tool;
int dtl_script(const struct tool *t, const char *path);
/* `pmutool dtl record` (dtl_record.c): argv[0] is "record"; an exit code. */
int dtl_record(const struct tool *t, int argc, char **argv);

#endif /* PMUTOOL_DTL_PERF_H */

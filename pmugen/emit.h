/*
 * emit.h - pmugen's output formats.  Each emitter writes one whole output to
 * a stream (pmugen writes it to a temporary file and renames it into place, so
 * an output is never partial).  Output is deterministic: the same model gives
 * byte-identical output.
 */
#ifndef PMUGEN_EMIT_H
#define PMUGEN_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmu_model.h"

struct emit_options {
	bool all_events;  /* every event, not only the firmware set */
	const char *input_name; /* shown in the generated header comment */
};

/* Device-tree source in the kernel RFC layout (see schema/dts-layout.md). */
int emit_dts(const struct pmu_model *m, const struct emit_options *o,
	     FILE *out, struct pmurt_error *err);
/* The same tree as a DTB, byte-identical to `dtc -I dts -O dtb` of
 * emit_dts's output. */
int emit_dtb(const struct pmu_model *m, const struct emit_options *o,
	     FILE *out, struct pmurt_error *err);
/* Data-only C tables for libpmurt (see schema/c-tables.md). */
int emit_c(const struct pmu_model *m, const struct emit_options *o,
	   FILE *out, struct pmurt_error *err);
/* perf's pmu-events JSON form (an array of EventCode/EventName/...). */
int emit_json(const struct pmu_model *m, const struct emit_options *o,
	      FILE *out, struct pmurt_error *err);

/* v in decimal (base 10) or lower-case hex (base 16), as printf's %llu and
 * %llx spell it, without printf: for the emitters' per-event numbers,
 * where fprintf's format parsing cost more than the rest of the line. */
static inline void emit_digits(FILE *out, uint64_t v, unsigned base)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (p < buf + sizeof(buf))
		putc_unlocked(*p++, out); /* each stream is pmugen's own */
}

/* `pmugen import-perf-json DIR`: perf's pmu-events JSON directory to a YAML
 * events file (one entry per event, category = the file it came from). */
int import_perf_json(const char *dir, FILE *out, struct pmurt_error *err);

#endif /* PMUGEN_EMIT_H */

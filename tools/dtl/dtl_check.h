/*
 * dtl_check.h - the plausibility checks of `pmutool dtl report`
 * (dtl_check.c): what they found, and the checks of a header and of an
 * entry against its CPU's previous dispatch.
 */
#ifndef DTL_CHECK_H
#define DTL_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "pmurt.h"

/* What the report found implausible: the bytes decode, but the values
 * cannot be what a hypervisor logged. */
enum dtl_warn_kind {
	DTL_WARN_TB_FREQ,      /* a header's tb_freq outside 1 MHz..10 GHz */
	DTL_WARN_BACKWARDS,    /* an entry's timebase below the CPU's previous one */
	DTL_WARN_BEFORE_BOOT,  /* an entry's timebase below the header's boot_tb */
	DTL_WARN_OFF_EXCEEDS_GAP, /* off the CPU longer than since its previous dispatch */
	DTL_NWARN
};
extern const char *const dtl_warn_names[DTL_NWARN];
#define DTL_WARN_KEPT 20 /* the first ones are kept with their text */

struct dtl_warning {
	enum dtl_warn_kind kind;
	int cpu;            /* -1: not about one CPU */
	uint64_t offset;    /* of the slot in the input file */
	char text[200];
};

struct dtl_warnings {
	uint64_t count[DTL_NWARN];
	uint64_t total;
	struct dtl_warning kept[DTL_WARN_KEPT];
	size_t nkept;
};

/* An entry's CPU before the entry is added: its number, how many
 * dispatches it has had, the timebase of the last one. */
struct dtl_prev_dispatch {
	int cpu;
	uint64_t dispatches, tb;
};

/* A header slot at offset on cpu: its tb_freq. */
void dtl_check_header(struct dtl_warnings *w, int cpu, uint64_t offset,
		      const struct pmurt_dtl_header *h);
/* An entry at offset against the stream's first header (NULL: none yet),
 * read at tb_freq, and its CPU's previous dispatch. */
void dtl_check_entry(struct dtl_warnings *w, const struct pmurt_dtl_header *header,
		     uint64_t tb_freq, struct dtl_prev_dispatch prev, uint64_t offset,
		     const struct pmurt_dtl_entry *e);
/* The kept warnings as text lines, and a count of the others. */
void dtl_warnings_print(const struct dtl_warnings *w, const char *prog, const char *path,
			FILE *out);

#endif /* DTL_CHECK_H */

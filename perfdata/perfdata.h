/*
 * perfdata.h - perf.data, written and read (the contract between the
 * perf.data code and its users: recording, reports, the vpa_dtl side).
 *
 * The layout follows tools/perf/Documentation/perf.data-file-format.txt:
 * the file header, the attrs with their ids, the data section of records
 * (each starting with struct perf_event_header), and the feature sections.
 * Not installed.
 */
#ifndef PMU_PERFDATA_H
#define PMU_PERFDATA_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "pmurt.h"

/* One event of the file: its attr, the sample ids that name it in records,
 * and its name (the event description feature). */
struct pd_event {
	struct perf_event_attr attr;
	const uint64_t *ids;
	int nids;
	const char *name;
};

/* Writing: open, add records in order, finish.  The header is written last
 * (as perf does), so a file whose writer died is recognisably unfinished. */
struct pd_writer;
int pd_writer_open(struct pd_writer **w, const char *path,
		   const struct pd_event *events, int nevents,
		   struct pmurt_error *err);
/* rec starts with a struct perf_event_header whose size covers it. */
int pd_writer_add(struct pd_writer *w, const void *rec, struct pmurt_error *err);
/* Writes the feature sections and the header, closes the file, frees w
 * (also on failure). */
int pd_writer_finish(struct pd_writer *w, struct pmurt_error *err);

#endif /* PMU_PERFDATA_H */

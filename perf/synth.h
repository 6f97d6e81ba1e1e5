/*
 * synth.h - records for what already runs when a recording starts.
 *
 * The kernel reports COMM, MMAP2, FORK and EXIT only for what happens while
 * the events are open; a process that was already running (perf record -p,
 * -a) would have no name and no maps in the file.  As perf's
 * tools/perf/util/synthetic-events.c does, these functions read /proc and
 * write the records the kernel would have written: the kernel's text map
 * (perf_event__synthesize_kernel_mmap), and per process a FORK and a COMM
 * per thread and an MMAP2 per executable mapping
 * (perf_event__synthesize_mmap_events).  Their sample_id_all trailer is
 * zeros, as perf writes it: no time (before every sample), id 0 (the first
 * event).
 */
#ifndef PMU_SYNTH_H
#define PMU_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ring.h"

struct pmu_synth {
	const char *proc;     /* stands for /proc (tests build one) */
	size_t id_hdr_size;   /* the sample_id_all trailer's size */
	pmu_record_fn sink;
	void *arg;
};

/* PERF_RECORD_MMAP of "[kernel.kallsyms]_text" at _text (proc/kallsyms);
 * nothing when kallsyms hides its addresses (kptr_restrict). */
int pmu_synth_kernel_mmap(const struct pmu_synth *y, struct pmurt_error *err);
/* FORK and COMM for each thread of pid, and with maps its executable
 * mappings.  A process that exits meanwhile is skipped (0). */
int pmu_synth_process(const struct pmu_synth *y, pid_t pid, bool maps,
		      struct pmurt_error *err);
/* Every process in proc. */
int pmu_synth_all(const struct pmu_synth *y, struct pmurt_error *err);

#endif /* PMU_SYNTH_H */

/*
 * sim_dtl.h - a model of the vpa_dtl driver (arch/powerpc/perf/vpa-dtl.c,
 * the version with the "buffer full" logic) for the simulated kernel
 * (sys_sim.h): on each hrtimer expiry it copies the hypervisor's new
 * Dispatch Trace Log entries (from the generator, dtl/dtl_gen.h) into the
 * AUX area of every enabled vpa_dtl event as the driver does:
 *   - the 48-byte header (boot_tb, tb_freq, a zero timebase) at AUX offset
 *     0 the first time, in the kernel's byte order;
 *   - entries at the driver's own slot index; when a batch reaches the
 *     threshold, (aux_size - 32) / 48 slots, only what fits is copied, the
 *     rest of the batch dropped, and the output ended so that aux_head lands
 *     on the next multiple of aux_size (the stale tail reported; the model
 *     fills it with 0xa5 so that a reader handing it out is caught);
 *   - more than 85 new entries between two polls: the hypervisor's
 *     4096-byte buffer kept the last 84;
 *   - no look at the free space: unread slots are overwritten; when
 *     aux_head - aux_tail reaches aux_size, perf_aux_output_begin refuses:
 *     that batch is lost and the event disabled (until enabled again);
 *   - a PERF_RECORD_AUX (flags 0, the driver sets none) into the data ring
 *     for each output, with the event's sample_id_all trailer;
 *   - a poll wake-up when aux_head passed the watermark (attr.aux_watermark,
 *     0: half the area).
 * Every entry is counted where it went, so that tests can prove a reader
 * delivered or reported each one.  Not installed.
 */
#ifndef PMU_SIM_DTL_H
#define PMU_SIM_DTL_H

#include <stdbool.h>
#include <stdint.h>

#include "sys_sim.h"

struct pmu_sim_dtl_opts {
	uint64_t seed;           /* each CPU's generator: seed + cpu */
	uint64_t boot_tb;        /* 0: 1000000 */
	uint64_t tb_freq;        /* 0: 512 MHz */
	bool swapped_header;     /* a kernel of the other byte order */
	/* each entry written into an AUX area, at its AUX position */
	void (*on_write)(void *arg, int cpu, uint64_t aux_pos, const uint8_t *slot);
	void *arg;
};

struct pmu_sim_dtl_stats {
	uint64_t generated;      /* entries the hypervisor logged */
	uint64_t hv_dropped;     /* lost in its 85-entry buffer between polls */
	uint64_t batch_dropped;  /* the rest of a batch at the driver's wrap */
	uint64_t core_dropped;   /* the AUX area full, or the event disabled */
	uint64_t written;        /* entries written into AUX areas */
	uint64_t headers;        /* header slots written */
	uint64_t wraps;          /* laps filled */
	uint64_t aux_records;    /* PERF_RECORD_AUX written to the data ring */
	uint64_t refused;        /* outputs perf_aux_output_begin refused */
};

struct pmu_sim_dtl;

int pmu_sim_dtl_new(struct pmu_sim_dtl **d, struct pmu_sim *sim, uint32_t type,
		    const struct pmu_sim_dtl_opts *o);
void pmu_sim_dtl_free(struct pmu_sim_dtl *d);
/* One hrtimer expiry on every vpa_dtl event whose AUX area is mapped: n new
 * hypervisor entries for each. */
void pmu_sim_dtl_tick(struct pmu_sim_dtl *d, unsigned n);
const struct pmu_sim_dtl_stats *pmu_sim_dtl_stats(const struct pmu_sim_dtl *d);

#endif /* PMU_SIM_DTL_H */

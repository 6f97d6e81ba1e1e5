/*
 * sim_dtl.h - the vpa_dtl driver for the simulated kernel (sys_sim.h), as
 * arch/powerpc/perf/vpa-dtl.c does it (the version with the
 * (aux_size - 32) / 48 threshold), on each hrtimer expiry of every enabled
 * vpa_dtl event:
 *   - the hypervisor logs entries (from the generator, tests/support/dtl_gen.h) into
 *     the 85-slot DTL buffer registered at vpa_dtl_event_add, lppaca's
 *     dtl_idx counting them; nothing is logged while no event is enabled;
 *   - vpa_dtl_dump_sample_data: last_idx + 85 <= cur_idx keeps the last 84
 *     (84 when exactly 85 arrived); the header (boot_tb, tb_freq, a zero
 *     timebase) once per AUX area at its base; vpa_dtl_capture_aux copies
 *     at the driver's own slot index (head) and, once head + n reaches the
 *     threshold, copies what fits, sets head to 0 and keeps head_size; the
 *     wrapped-DTL path drops the rest of a full batch; each output's size
 *     as the driver computes it, so that a poll after the threshold reports
 *     only the stale tail (aux_size - head_size bytes: pages never written,
 *     zeros) while its entries went to the next lap's first slots, never
 *     reported;
 *   - kernel/events/ring_buffer.c: perf_aux_output_begin refuses when
 *     aux_head - aux_tail reaches the size (that poll lost, the event
 *     disabled: its DTL buffer freed), perf_aux_output_end writes a
 *     PERF_RECORD_AUX (flags 0) for each output of a non-zero size with the
 *     event's sample_id_all trailer, stores aux_head, and wakes the reader
 *     when aux_head - aux_wakeup reaches the watermark (attr.aux_watermark,
 *     0: half the area), aux_wakeup then rounddown(aux_head, watermark)
 *     (rb_need_aux_wakeup).
 * Every entry is counted where it went, so that tests can prove a reader
 * delivered, or counted or bounded the loss of, each one.  Not installed.
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
	/* each entry the driver reported (an output covering its slot), at its
	 * AUX position */
	void (*on_write)(void *arg, int cpu, uint64_t aux_pos, const uint8_t *slot);
	void *arg;
	/* each output (perf_aux_output_end of a non-zero size) */
	void (*on_output)(void *arg, int cpu, uint64_t aux_offset, uint64_t size);
};

struct pmu_sim_dtl_stats {
	uint64_t generated;      /* entries the hypervisor logged */
	uint64_t unlogged;       /* dispatches while no event was enabled */
	uint64_t hv_dropped;     /* lost in its 85-entry buffer between polls */
	uint64_t batch_dropped;  /* the rest of a batch at the driver's wrap */
	uint64_t core_dropped;   /* perf_aux_output_begin refused (a full area,
	                            no AUX area) */
	uint64_t written;        /* entries copied into AUX areas */
	uint64_t reported;       /* ... that an output reported */
	uint64_t wrap_lost;      /* ... copied past the wrap, never reported */
	uint64_t headers;        /* header slots written */
	uint64_t wraps;          /* laps ended (head_size reset) */
	uint64_t tail_outputs;   /* outputs of the stale tail only */
	uint64_t aux_records;    /* PERF_RECORD_AUX written to the data ring */
	uint64_t refused;        /* outputs perf_aux_output_begin refused */
};

struct pmu_sim_dtl;

int pmu_sim_dtl_new(struct pmu_sim_dtl **d, struct pmu_sim *sim, uint32_t type,
		    const struct pmu_sim_dtl_opts *o);
void pmu_sim_dtl_free(struct pmu_sim_dtl *d);
/* One hrtimer expiry on every open vpa_dtl event: n new dispatches on its
 * CPU, logged if the event is enabled, then the driver's poll. */
void pmu_sim_dtl_tick(struct pmu_sim_dtl *d, unsigned n);
const struct pmu_sim_dtl_stats *pmu_sim_dtl_stats(const struct pmu_sim_dtl *d);

#endif /* PMU_SIM_DTL_H */

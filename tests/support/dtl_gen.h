/*
 * dtl_gen.h - a generator of realistic Dispatch Trace Log streams, for the
 * tests and benchmarks (not installed, not exported from libpmurt.so).
 *
 * Each generator is one virtual processor, deterministic from its seed.  It
 * alternates running and being preempted; each preemption is logged as the
 * hypervisor logs it, one entry at the next dispatch:
 *   - preempt reason: H_CEDE 60% (idle: waiting_to_ready 10 us .. 5 ms),
 *     time_slice 25% (enqueue_to_dispatch 10 us .. 2 ms: the steal),
 *     H_CONFER 10%, any other code 5%;
 *   - dispatch reason following it: after H_CEDE decrementer_interrupt,
 *     external_interrupt or H_PROD; after time_slice time_slice; after
 *     H_CONFER conferred_cycles; otherwise any code;
 *   - the three times are timebase ticks, each log-uniform over its range
 *     (so every log2 bucket between the bounds gets entries); running
 *     stretches 50 us .. 10 ms; processor_id one of 16 physical processors;
 *     srr0 a kernel address, srr1 a kernel MSR, fault_addr set only after a
 *     page-fault preemption.
 * Timebases start at start_tb and only grow; boot_tb and tb_freq go into the
 * header slot in the byte order asked for.
 */
#ifndef PMU_DTL_GEN_H
#define PMU_DTL_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmurt.h"

struct dtl_gen {
	uint64_t rng;      /* xorshift64* state */
	uint64_t boot_tb;
	uint64_t tb_freq;
	uint64_t tb;       /* the timebase of the last entry */
};

/* seed 0 is allowed (it is mixed first). */
void dtl_gen_init(struct dtl_gen *g, uint64_t seed, uint64_t boot_tb, uint64_t tb_freq,
		  uint64_t start_tb);
/* The header slot: boot_tb, tb_freq, 0, then 24 don't-care bytes, in host
 * order, or the other one when swapped. */
void dtl_gen_header(const struct dtl_gen *g, uint8_t slot[PMURT_DTL_SLOT_SIZE], bool swapped);
/* The next entry, in its big-endian slot form; e (may be NULL) gets it
 * decoded, for a test to compare. */
void dtl_gen_entry(struct dtl_gen *g, uint8_t slot[PMURT_DTL_SLOT_SIZE],
		   struct pmurt_dtl_entry *e);
/* Header plus n entries, back to back: (n + 1) * 48 bytes into buf. */
void dtl_gen_buffer(struct dtl_gen *g, uint8_t *buf, size_t n);

/* What a reader draining an AUX area of aux_size bytes (a power of two, at
 * least 128) from its start gets when the driver has written n entries:
 * the header at AUX offset 0, entries in the (aux_size - 32) / 48 slots,
 * then at each wrap the stale tail up to aux_size (old bytes, here 0xa5),
 * as arch/powerpc/perf/vpa-dtl.c reports it.  Returns the byte count;
 * with buf NULL only counts. */
size_t dtl_gen_aux(struct dtl_gen *g, uint64_t aux_size, size_t n, uint8_t *buf);

#endif /* PMU_DTL_GEN_H */

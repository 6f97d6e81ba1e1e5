/*
 * aux_filled.h - where the vpa_dtl driver stops filling each lap of its AUX
 * area (arch/powerpc/perf/vpa-dtl.c vpa_dtl_setup_aux: threshold =
 * (aux_size - 32) / 48 entries), one copy for the drain (perf/aux.c) and the
 * decoder (dtl/dtl.c).  Not installed.
 */
#ifndef PMU_AUX_FILLED_H
#define PMU_AUX_FILLED_H

#include <stdint.h>

#include "pmurt.h"

/* The end of the slots the driver fills in each lap of an area of size
 * bytes: its threshold in bytes (the whole area when it is too small to
 * hold a slot past the 32 bytes). */
static inline uint64_t pmu_aux_filled(uint64_t size)
{
	return size < 32 + PMURT_DTL_SLOT_SIZE
		? size : (size - 32) / PMURT_DTL_SLOT_SIZE * PMURT_DTL_SLOT_SIZE;
}

#endif /* PMU_AUX_FILLED_H */

/*
 * fuzz_aux.c - libFuzzer target for the AUX drain (perf/aux.c): any
 * aux_head and aux_tail (the input's first 16 bytes, tail first) over an
 * area of 128 B .. 64 KiB (byte 16 picks the size) drain without crashing
 * or looping: every chunk handed out lies inside the area, is whole slots
 * below the driver's filled limit of its lap, and the tail ends at the head
 * or less than a slot before it (a slot not whole yet waits), unless the
 * call is refused (head behind tail).  The rest of the input is the
 * area's bytes, which the drain never interprets.  The same two numbers as
 * a PERF_RECORD_AUX (offset, size) go through the wrap-loss count first:
 * its bounds stay ordered and every poll it counts is said once.
 */
#include <stdlib.h>
#include <string.h>

#include "aux.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_chunk(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)err;
	const struct pmu_aux *aux = arg;
	if (rec->type != PMU_RECORD_AUXTRACE)
		return 0;
	const struct pmu_auxtrace *a = (const struct pmu_auxtrace *)rec;
	uint64_t off = a->offset & (aux->size - 1);
	const unsigned char *p = a->data;
	if (a->size == 0 || a->size % PMURT_DTL_SLOT_SIZE || off % PMURT_DTL_SLOT_SIZE ||
	    off + a->size > aux->filled || p != aux->data + off)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct perf_event_mmap_page ctl;
	if (size < 17)
		return 0;
	uint64_t tail, head;
	memcpy(&tail, data, 8);
	memcpy(&head, data + 8, 8);
	uint64_t aux_size = 1ull << (7 + data[16] % 10);
	size_t rest = size - 17 < aux_size ? size - 17 : (size_t)aux_size;
	/* the area in a heap block of its exact size: ASan sees a read past it */
	unsigned char *area = calloc(1, (size_t)aux_size);
	if (!area)
		abort();
	memcpy(area, data + 17, rest);
	ctl.aux_tail = tail;
	ctl.aux_head = head;
	struct pmu_aux aux = {.fd = -1, .ctl = &ctl, .data = area, .size = aux_size,
			      .filled = pmu_aux_filled(aux_size)};
	pmu_aux_note_output(&aux, tail, head);
	if (aux.stats.wrap_lost_min > aux.stats.wrap_lost_max ||
	    aux.stats.wrap_lost_min != aux.stats.wrap_polls || aux.pending_polls != aux.stats.wrap_polls)
		abort();
	struct pmurt_error err;
	long n = pmu_aux_drain(&aux, check_chunk, &aux, &err);
	if (n >= 0 && aux.pending_polls)
		abort();   /* said in this drain's AUXTRACE_ERROR */
	if (n >= 0 ? head - ctl.aux_tail >= PMURT_DTL_SLOT_SIZE || ctl.aux_tail > head
		   : (int64_t)(head - tail) >= 0)
		abort();
	free(area);
	return 0;
}

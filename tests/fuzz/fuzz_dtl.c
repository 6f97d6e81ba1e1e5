/*
 * fuzz_dtl.c - libFuzzer target for the DTL decoder: any bytes, walked as a
 * first chunk and as a chunk at an AUX offset taken from the input in an
 * area of 128 B .. 64 KiB, decode without crashing; every slot lies inside
 * the data, entries and headers are 48 bytes on the grid, the walk always
 * advances and ends, and the time conversions of every entry are called.
 */
#include <stdlib.h>
#include <string.h>

#include "pmurt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const uint8_t *data, size_t size, uint64_t aux_offset, uint64_t aux_size,
		 bool first)
{
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot s;
	struct pmurt_error err;
	pmurt_dtl_cursor_init(&c, data, size, aux_offset, aux_size, first);
	size_t last = 0;
	int rc;
	for (size_t steps = 0; (rc = pmurt_dtl_next(&c, &s, &err)) != 0; steps++) {
		if (c.pos <= last && c.pos != size)
			abort(); /* no progress */
		last = c.pos;
		if (steps > size)
			abort();
		if (rc < 0) {
			if (!err.message[0])
				abort();
			continue;
		}
		if (s.offset + s.len > size || !s.len)
			abort();
		if (s.kind != PMURT_DTL_STALE && s.len != PMURT_DTL_SLOT_SIZE)
			abort();
		if (s.kind == PMURT_DTL_ENTRY || s.kind == PMURT_DTL_SKIPPED) {
			char buf[16];
			pmurt_dtl_time_perf(s.entry.timebase, &c.header);
			pmurt_dtl_time_exact(s.entry.timebase, &c.header);
			if (!pmurt_dtl_reason_text(false, s.entry.dispatch_reason, buf) ||
			    !pmurt_dtl_reason_text(true, s.entry.preempt_reason, buf))
				abort();
			if ((s.kind == PMURT_DTL_SKIPPED) != pmurt_dtl_entry_skipped(&s.entry))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	walk(data, size, 0, 0, true);
	if (size >= 3) {
		uint64_t aux_size = 128ull << (data[0] % 10);
		uint64_t aux_offset = (uint64_t)data[1] << 8 | data[2];
		walk(data + 3, size - 3, aux_offset, aux_size, aux_offset == 0);
	}
	return 0;
}

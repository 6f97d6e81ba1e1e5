/*
 * dtl.c - decoding the vpa_dtl PMU's AUX data: the header slot, the
 * big-endian entries, perf's reason strings, skip rule and time conversion
 * (tools/perf/util/powerpc-vpadtl.c), and the walk over a buffer that splits
 * off the stale tail the driver reports at each wrap
 * (arch/powerpc/perf/vpa-dtl.c).  See "vpa_dtl" in include/pmurt.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "aux_filled.h"
#include "errors.h"
#include "pmurt.h"

/* tools/perf/util/powerpc-vpadtl.c: dispatch_reasons[11], preempt_reasons[10] */
static const char *const dispatch_reasons[] = {
	"external_interrupt", "firmware_internal_event", "H_PROD",
	"decrementer_interrupt", "system_reset", "firmware_internal_event",
	"conferred_cycles", "time_slice", "virtual_memory_page_fault",
	"expropriated_adjunct", "priv_doorbell",
};
static const char *const preempt_reasons[] = {
	"unused", "firmware_internal_event", "H_CEDE", "H_CONFER", "time_slice",
	"migration_hibernation_page_fault", "virtual_memory_page_fault",
	"H_CONFER_ADJUNCT", "hcall_adjunct", "HDEC_adjunct",
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint32_t load_be32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline uint64_t load_host64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* The body of pmurt_dtl_entry_decode, inlined into pmurt_dtl_next (a call
 * to an exported function is not inlined in a shared library). */
static inline void decode_entry(const uint8_t *p, struct pmurt_dtl_entry *e)
{
	e->dispatch_reason = p[0];
	e->preempt_reason = p[1];
	e->processor_id = (uint16_t)(p[2] << 8 | p[3]);
	e->enqueue_to_dispatch_time = load_be32(p + 4);
	e->ready_to_enqueue_time = load_be32(p + 8);
	e->waiting_to_ready_time = load_be32(p + 12);
	e->timebase = load_be64(p + 16);
	e->fault_addr = load_be64(p + 24);
	e->srr0 = load_be64(p + 32);
	e->srr1 = load_be64(p + 40);
}

void pmurt_dtl_entry_decode(const void *slot, struct pmurt_dtl_entry *e)
{
	decode_entry(slot, e);
}

bool pmurt_dtl_header_decode(const void *slot, struct pmurt_dtl_header *h)
{
	const uint8_t *p = slot;
	if (load_host64(p + 16) != 0)
		return false;
	uint64_t freq = load_host64(p + 8);
	uint64_t swapped = __builtin_bswap64(freq);
	/* the order giving the smaller non-zero tb_freq is the kernel's */
	h->byte_swapped = freq == 0 ? swapped != 0 : swapped != 0 && swapped < freq;
	h->tb_freq = h->byte_swapped ? swapped : freq;
	h->boot_tb = load_host64(p);
	if (h->byte_swapped)
		h->boot_tb = __builtin_bswap64(h->boot_tb);
	return true;
}

const char *pmurt_dtl_dispatch_reason(unsigned code)
{
	return code < NELEM(dispatch_reasons) ? dispatch_reasons[code] : NULL;
}

const char *pmurt_dtl_preempt_reason(unsigned code)
{
	return code < NELEM(preempt_reasons) ? preempt_reasons[code] : NULL;
}

const char *pmurt_dtl_reason_text(bool preempt, unsigned code, char buf[16])
{
	const char *s = preempt ? pmurt_dtl_preempt_reason(code) : pmurt_dtl_dispatch_reason(code);
	if (s)
		return s;
	snprintf(buf, 16, "unknown_%u", code);
	return buf;
}

bool pmurt_dtl_entry_skipped(const struct pmurt_dtl_entry *e)
{
	return (int64_t)e->timebase <= 0;
}

uint64_t pmurt_dtl_time_perf(uint64_t timebase, const struct pmurt_dtl_header *h)
{
	if (timebase == 0 || h->tb_freq == 0)
		return 0;
	uint64_t diff = timebase - h->boot_tb;
	double ns = ((double)diff / (double)h->tb_freq) * 1e9;
	/* 18446744073709551616.0 is 2^64, the first value a u64 cannot hold */
	return ns >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)ns;
}

uint64_t pmurt_dtl_time_exact(uint64_t timebase, const struct pmurt_dtl_header *h)
{
	if (timebase == 0 || h->tb_freq == 0)
		return 0;
	unsigned __int128 ns = (unsigned __int128)(timebase - h->boot_tb) * 1000000000u / h->tb_freq;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

void pmurt_dtl_cursor_init(struct pmurt_dtl_cursor *c, const void *data, size_t len,
			   uint64_t aux_offset, uint64_t aux_size, bool first_chunk)
{
	*c = (struct pmurt_dtl_cursor){
		.data = data, .len = len, .aux_offset = aux_offset,
		.aux_size = aux_size, .first_chunk = first_chunk,
	};
}

/* With an AUX size: how many bytes from pos are whole-slot data before the
 * next wrap (or the end); sets a STALE slot and returns 0 when pos is in a
 * stale tail. */
static int slot_room(struct pmurt_dtl_cursor *c, struct pmurt_dtl_slot *slot, size_t *room,
		     struct pmurt_error *err)
{
	size_t left = c->len - c->pos;
	*room = left;
	uint64_t apos = (c->aux_offset + c->pos) % c->aux_size;
	uint64_t limit = pmu_aux_filled(c->aux_size);
	if (apos >= limit) {
		uint64_t stale = c->aux_size - apos;
		*slot = (struct pmurt_dtl_slot){.kind = PMURT_DTL_STALE, .offset = c->pos,
						.len = stale < left ? (size_t)stale : left};
		c->pos += slot->len;
		return 0;
	}
	if (apos % PMURT_DTL_SLOT_SIZE) {
		uint64_t skip = PMURT_DTL_SLOT_SIZE - apos % PMURT_DTL_SLOT_SIZE;
		pmurt_set_error(err, -EINVAL, "offset 0x%zx: AUX position 0x%llx is not on the "
				"48-byte slot grid", c->pos, (unsigned long long)apos);
		c->pos += skip < left ? (size_t)skip : left;
		return -EINVAL;
	}
	if (limit - apos < left)
		*room = (size_t)(limit - apos);
	return 1;
}

int pmurt_dtl_next(struct pmurt_dtl_cursor *c, struct pmurt_dtl_slot *slot,
		   struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (c->pos >= c->len)
		return 0;
	size_t room = c->len - c->pos;
	if (c->aux_size) {
		int rc = slot_room(c, slot, &room, err);
		if (rc <= 0)
			return rc < 0 ? rc : 1;
	}
	if (room < PMURT_DTL_SLOT_SIZE) {
		pmurt_set_error(err, -EINVAL, "offset 0x%zx: truncated DTL slot, %zu of %d bytes",
				c->pos, room, PMURT_DTL_SLOT_SIZE);
		c->pos = c->len;
		return -EINVAL;
	}
	const uint8_t *p = c->data + c->pos;
	slot->offset = c->pos;
	slot->len = PMURT_DTL_SLOT_SIZE;
	if (c->pos == 0 && c->first_chunk && pmurt_dtl_header_decode(p, &c->header)) {
		c->have_header = true;
		slot->kind = PMURT_DTL_HEADER;
		memset(&slot->entry, 0, sizeof(slot->entry));
	} else {
		decode_entry(p, &slot->entry);
		slot->kind = (int64_t)slot->entry.timebase <= 0 ? PMURT_DTL_SKIPPED
								: PMURT_DTL_ENTRY;
	}
	c->pos += PMURT_DTL_SLOT_SIZE;
	return 1;
}

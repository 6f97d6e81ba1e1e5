/*
 * dtl_gen.c - the generator of realistic DTL streams described in
 * dtl_gen.h: per-vCPU run/preempt cycles with the reason mix and time
 * ranges a shared-processor LPAR shows, in the driver's byte layout.
 */
#include <string.h>

#include "dtl_gen.h"

enum { PREEMPT_H_CEDE = 2, PREEMPT_H_CONFER = 3, PREEMPT_TIME_SLICE = 4,
       PREEMPT_VM_PAGE_FAULT = 6, NPREEMPT = 10 };
enum { DISPATCH_EXTERNAL = 0, DISPATCH_H_PROD = 2, DISPATCH_DECREMENTER = 3,
       DISPATCH_CONFERRED = 6, DISPATCH_TIME_SLICE = 7, NDISPATCH = 11 };
#define TICKS_PER_US(g) ((g)->tb_freq / 1000000 ? (g)->tb_freq / 1000000 : 1)

static uint64_t next_random(struct dtl_gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545f4914f6cdd1dull;
}

static unsigned percent(struct dtl_gen *g)
{
	return (unsigned)(next_random(g) >> 32) % 100;
}

/* Log-uniform in [lo, hi): a power of two picked uniformly, then a value
 * uniform inside it, clipped to the range. */
static uint64_t log_uniform(struct dtl_gen *g, uint64_t lo, uint64_t hi)
{
	if (lo < 1)
		lo = 1;
	if (hi <= lo)
		return lo;
	int lo_bit = 63 - __builtin_clzll(lo), hi_bit = 63 - __builtin_clzll(hi);
	int bit = lo_bit + (int)(next_random(g) % (uint64_t)(hi_bit - lo_bit + 1));
	uint64_t v = (1ull << bit) + (next_random(g) & ((1ull << bit) - 1));
	return v < lo ? lo : v >= hi ? hi - 1 : v;
}

void dtl_gen_init(struct dtl_gen *g, uint64_t seed, uint64_t boot_tb, uint64_t tb_freq,
		  uint64_t start_tb)
{
	*g = (struct dtl_gen){.rng = seed * 0x9e3779b97f4a7c15ull ^ 0xd1b54a32d192ed03ull,
			      .boot_tb = boot_tb, .tb_freq = tb_freq, .tb = start_tb};
	if (!g->rng)
		g->rng = 1;
}

static void store_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static void store_order(uint8_t *p, uint64_t v, bool swapped)
{
	if (swapped)
		v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

void dtl_gen_header(const struct dtl_gen *g, uint8_t slot[PMURT_DTL_SLOT_SIZE], bool swapped)
{
	memset(slot, 0, PMURT_DTL_SLOT_SIZE);
	store_order(slot, g->boot_tb, swapped);
	store_order(slot + 8, g->tb_freq, swapped);
	memset(slot + 24, 0x5c, 24); /* the driver leaves stack bytes there */
}

static unsigned pick_dispatch(struct dtl_gen *g, unsigned preempt)
{
	unsigned p = percent(g);
	switch (preempt) {
	case PREEMPT_H_CEDE:
		return p < 50 ? DISPATCH_DECREMENTER : p < 80 ? DISPATCH_EXTERNAL : DISPATCH_H_PROD;
	case PREEMPT_TIME_SLICE: return DISPATCH_TIME_SLICE;
	case PREEMPT_H_CONFER: return DISPATCH_CONFERRED;
	default: return (unsigned)(next_random(g) % NDISPATCH);
	}
}

static unsigned pick_preempt(struct dtl_gen *g)
{
	unsigned p = percent(g);
	return p < 60 ? PREEMPT_H_CEDE : p < 85 ? PREEMPT_TIME_SLICE
		: p < 95 ? PREEMPT_H_CONFER : (unsigned)(next_random(g) % NPREEMPT);
}

void dtl_gen_entry(struct dtl_gen *g, uint8_t slot[PMURT_DTL_SLOT_SIZE],
		   struct pmurt_dtl_entry *out)
{
	uint64_t us = TICKS_PER_US(g);
	struct pmurt_dtl_entry e = {.preempt_reason = (uint8_t)pick_preempt(g)};
	e.dispatch_reason = (uint8_t)pick_dispatch(g, e.preempt_reason);
	e.processor_id = (uint16_t)(next_random(g) % 16);
	bool ceded = e.preempt_reason == PREEMPT_H_CEDE;
	e.waiting_to_ready_time = ceded ? (uint32_t)log_uniform(g, 10 * us, 5000 * us) : 0;
	e.ready_to_enqueue_time = (uint32_t)log_uniform(g, us / 4, 20 * us);
	e.enqueue_to_dispatch_time = (uint32_t)(e.preempt_reason == PREEMPT_TIME_SLICE
		? log_uniform(g, 10 * us, 2000 * us) : log_uniform(g, us / 2, 50 * us));
	uint64_t off = (uint64_t)e.waiting_to_ready_time + e.ready_to_enqueue_time +
		       e.enqueue_to_dispatch_time;
	g->tb += log_uniform(g, 50 * us, 10000 * us) + off;
	e.timebase = g->tb;
	e.fault_addr = e.preempt_reason == PREEMPT_VM_PAGE_FAULT
		? 0x7fff00000000ull + (next_random(g) & 0xffffff000ull) : 0;
	e.srr0 = 0xc000000000000000ull + (next_random(g) & 0x1fffffcull);
	e.srr1 = 0x8000000000001033ull;
	uint8_t *p = slot;
	p[0] = e.dispatch_reason;
	p[1] = e.preempt_reason;
	store_be(p + 2, e.processor_id, 2);
	store_be(p + 4, e.enqueue_to_dispatch_time, 4);
	store_be(p + 8, e.ready_to_enqueue_time, 4);
	store_be(p + 12, e.waiting_to_ready_time, 4);
	store_be(p + 16, e.timebase, 8);
	store_be(p + 24, e.fault_addr, 8);
	store_be(p + 32, e.srr0, 8);
	store_be(p + 40, e.srr1, 8);
	if (out)
		*out = e;
}

void dtl_gen_buffer(struct dtl_gen *g, uint8_t *buf, size_t n)
{
	dtl_gen_header(g, buf, false);
	for (size_t i = 1; i <= n; i++)
		dtl_gen_entry(g, buf + i * PMURT_DTL_SLOT_SIZE, NULL);
}

size_t dtl_gen_aux(struct dtl_gen *g, uint64_t aux_size, size_t n, uint8_t *buf)
{
	const size_t slots = (size_t)((aux_size - 32) / PMURT_DTL_SLOT_SIZE);
	const size_t stale = (size_t)aux_size - slots * PMURT_DTL_SLOT_SIZE;
	size_t len = 0, slot = 1; /* the header takes slot 0 of the first lap */
	if (buf)
		dtl_gen_header(g, buf, false);
	len = PMURT_DTL_SLOT_SIZE;
	for (size_t i = 0; i < n; i++) {
		if (buf)
			dtl_gen_entry(g, buf + len, NULL);
		len += PMURT_DTL_SLOT_SIZE;
		if (++slot == slots) { /* full: the driver wraps, reporting the tail */
			if (buf)
				memset(buf + len, 0xa5, stale);
			len += stale;
			slot = 0;
		}
	}
	return len;
}

/*
 * dtl_test.c - the DTL decoder (pmurt_dtl_*) against payloads built here
 * from the documented layout (shared/reference/vpa-dtl.md, lppaca.h's
 * struct dtl_entry), and against the generator (tests/support/dtl_gen.h):
 *   dtl_test             run the checks
 *   dtl_test sample FILE write the small documented sample the pmutool
 *                        golden tests decode
 *   dtl_test gen FILE N [AUX_SIZE]  write N generated entries (after the
 *                        header; with AUX_SIZE as drained from such an AUX area)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dtl_gen.h"
#include "pmurt.h"

static int failures;

struct raw_entry {
	unsigned dispatch, preempt, processor;
	uint32_t e2d, r2e, w2r;
	uint64_t tb, fault, srr0, srr1;
};

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The 48-byte layout, byte by byte: offsets 0,1,2,4,8,12,16,24,32,40. */
static void build_entry(uint8_t *p, const struct raw_entry *r)
{
	p[0] = (uint8_t)r->dispatch;
	p[1] = (uint8_t)r->preempt;
	put_be(p + 2, r->processor, 2);
	put_be(p + 4, r->e2d, 4);
	put_be(p + 8, r->r2e, 4);
	put_be(p + 12, r->w2r, 4);
	put_be(p + 16, r->tb, 8);
	put_be(p + 24, r->fault, 8);
	put_be(p + 32, r->srr0, 8);
	put_be(p + 40, r->srr1, 8);
}

static void build_header(uint8_t *p, uint64_t boot_tb, uint64_t tb_freq, bool big_endian)
{
	memset(p, 0xee, 48);
	for (int i = 0; i < 8; i++) {
		int shift = big_endian ? 56 - 8 * i : 8 * i;
		p[i] = (uint8_t)(boot_tb >> shift);
		p[8 + i] = (uint8_t)(tb_freq >> shift);
		p[16 + i] = 0;
	}
}

static const char *const dispatch_expect[] = {
	"external_interrupt", "firmware_internal_event", "H_PROD", "decrementer_interrupt",
	"system_reset", "firmware_internal_event", "conferred_cycles", "time_slice",
	"virtual_memory_page_fault", "expropriated_adjunct", "priv_doorbell",
};
static const char *const preempt_expect[] = {
	"unused", "firmware_internal_event", "H_CEDE", "H_CONFER", "time_slice",
	"migration_hibernation_page_fault", "virtual_memory_page_fault", "H_CONFER_ADJUNCT",
	"hcall_adjunct", "HDEC_adjunct",
};

static void test_reasons(void)
{
	char buf[16];
	for (unsigned i = 0; i < 11; i++) {
		const char *s = pmurt_dtl_dispatch_reason(i);
		CHECK(s && strcmp(s, dispatch_expect[i]) == 0, "dispatch %u: %s", i, s ? s : "NULL");
	}
	for (unsigned i = 0; i < 10; i++) {
		const char *s = pmurt_dtl_preempt_reason(i);
		CHECK(s && strcmp(s, preempt_expect[i]) == 0, "preempt %u: %s", i, s ? s : "NULL");
	}
	CHECK(!pmurt_dtl_dispatch_reason(11) && !pmurt_dtl_dispatch_reason(255), "past dispatch");
	CHECK(!pmurt_dtl_preempt_reason(10) && !pmurt_dtl_preempt_reason(255), "past preempt");
	CHECK(strcmp(pmurt_dtl_reason_text(false, 11, buf), "unknown_11") == 0, "%s", buf);
	CHECK(strcmp(pmurt_dtl_reason_text(true, 255, buf), "unknown_255") == 0, "%s", buf);
	CHECK(strcmp(pmurt_dtl_reason_text(true, 9, buf), "HDEC_adjunct") == 0, "in range");
}

static void test_entry_fields(void)
{
	uint8_t slot[48];
	struct raw_entry r = {.dispatch = 200, .preempt = 10, .processor = 0xbeef,
			      .e2d = 0xffffffffu, .r2e = 0x80000000u, .w2r = 0x7fffffffu,
			      .tb = 0x0123456789abcdefull, .fault = 0xfedcba9876543210ull,
			      .srr0 = 0xc000000000abcdefull, .srr1 = 0x8000000000001033ull};
	build_entry(slot, &r);
	struct pmurt_dtl_entry e;
	pmurt_dtl_entry_decode(slot, &e);
	CHECK(e.dispatch_reason == 200 && e.preempt_reason == 10, "reasons");
	CHECK(e.processor_id == 0xbeef, "processor %#x", e.processor_id);
	CHECK(e.enqueue_to_dispatch_time == 4294967295u, "u32 max %u", e.enqueue_to_dispatch_time);
	CHECK(e.ready_to_enqueue_time == 2147483648u, "2^31 %u", e.ready_to_enqueue_time);
	CHECK(e.waiting_to_ready_time == 0x7fffffffu, "2^31-1");
	CHECK(e.timebase == r.tb && e.fault_addr == r.fault && e.srr0 == r.srr0 &&
	      e.srr1 == r.srr1, "u64 fields");
	CHECK(!pmurt_dtl_entry_skipped(&e), "positive timebase used");
	e.timebase = 0;
	CHECK(pmurt_dtl_entry_skipped(&e), "zero timebase skipped");
	e.timebase = 1ull << 63;
	CHECK(pmurt_dtl_entry_skipped(&e), "sign-bit timebase skipped");
	e.timebase = UINT64_MAX;
	CHECK(pmurt_dtl_entry_skipped(&e), "-1 timebase skipped");
	e.timebase = INT64_MAX;
	CHECK(!pmurt_dtl_entry_skipped(&e), "2^63-1 used");
}

static void test_header_orders(void)
{
	uint8_t slot[48];
	struct pmurt_dtl_header h;
	for (int be = 0; be < 2; be++) {
		build_header(slot, 0x1122334455667788ull, 512000000, be);
		CHECK(pmurt_dtl_header_decode(slot, &h), "header %d", be);
		CHECK(h.boot_tb == 0x1122334455667788ull && h.tb_freq == 512000000,
		      "order %d: boot_tb %#llx tb_freq %llu", be, (unsigned long long)h.boot_tb,
		      (unsigned long long)h.tb_freq);
		bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
		CHECK(h.byte_swapped == (be != host_be), "swapped flag %d", be);
	}
	struct raw_entry r = {.tb = 5};
	build_entry(slot, &r);
	CHECK(!pmurt_dtl_header_decode(slot, &h), "an entry is no header");
}

static void test_times(void)
{
	struct pmurt_dtl_header h = {.boot_tb = 1000, .tb_freq = 512000000};
	/* the reference's example: 33280 ticks at 512 MHz is 64999 ns in
	 * perf's double arithmetic, 65000 exactly */
	CHECK(pmurt_dtl_time_perf(1000 + 33280, &h) == 64999, "perf double rounding");
	CHECK(pmurt_dtl_time_exact(1000 + 33280, &h) == 65000, "exact");
	CHECK(pmurt_dtl_time_perf(0, &h) == 0 && pmurt_dtl_time_exact(0, &h) == 0, "zero tb");
	/* below boot_tb: u64 wraparound, as perf computes it */
	struct pmurt_dtl_header fast = {.boot_tb = 1000, .tb_freq = 2000000000};
	uint64_t wrapped = pmurt_dtl_time_exact(999, &fast);
	CHECK(wrapped == UINT64_MAX / 2, "wraparound %llu", (unsigned long long)wrapped);
	CHECK(pmurt_dtl_time_exact(999, &h) == UINT64_MAX, "wrapped past 2^64 saturates");
	struct pmurt_dtl_header slow = {.boot_tb = 0, .tb_freq = 1};
	CHECK(pmurt_dtl_time_perf(UINT64_MAX, &slow) == UINT64_MAX, "saturates");
	CHECK(pmurt_dtl_time_exact(UINT64_MAX, &slow) == UINT64_MAX, "saturates exact");
	struct pmurt_dtl_header none = {.boot_tb = 0, .tb_freq = 0};
	CHECK(pmurt_dtl_time_perf(5, &none) == 0 && pmurt_dtl_time_exact(5, &none) == 0, "freq 0");
	struct pmurt_dtl_header one_ghz = {.boot_tb = 0, .tb_freq = 1000000000};
	CHECK(pmurt_dtl_time_exact(123456789, &one_ghz) == 123456789, "1 GHz identity");
}

/* The small sample: header, every dispatch and preempt code, two codes out
 * of range, the u32 edges, zero and sign-bit timebases. */
static size_t build_sample(uint8_t *buf)
{
	size_t n = 0;
	build_header(buf, 1000, 512000000, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	n += 48;
	for (unsigned i = 0; i < 12; i++) {
		struct raw_entry r = {.dispatch = i, .preempt = (i + 1) % 11, .processor = i,
				      .e2d = 1000 * i, .r2e = 100 + i, .w2r = i ? 33280 : 0,
				      .tb = 1000 + 33280 * (i + 1), .srr0 = 0xc000000000001000ull + i,
				      .srr1 = 0x8000000000001033ull};
		build_entry(buf + n, &r);
		n += 48;
	}
	struct raw_entry edges[] = {
		{.dispatch = 3, .preempt = 2, .e2d = 0xffffffffu, .r2e = 0x80000000u, .w2r = 1,
		 .tb = 1000000},
		{.dispatch = 3, .preempt = 2, .tb = 0},
		{.dispatch = 7, .preempt = 4, .tb = 1ull << 63},
	};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++, n += 48)
		build_entry(buf + n, &edges[i]);
	return n;
}

static void test_cursor_sample(void)
{
	uint8_t buf[48 * 16 + 5];
	size_t len = build_sample(buf);
	memset(buf + len, 0x11, 5);
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot s;
	struct pmurt_error err;
	pmurt_dtl_cursor_init(&c, buf, len + 5, 0, 0, true);
	int kinds[4] = {0}, rc;
	size_t slots = 0;
	while ((rc = pmurt_dtl_next(&c, &s, &err)) == 1) {
		CHECK(s.offset == slots * 48 && s.len == 48, "slot %zu at %zu", slots, s.offset);
		kinds[s.kind]++;
		slots++;
	}
	CHECK(rc == -EINVAL, "truncated end: %d", rc);
	CHECK(strstr(err.message, "offset 0x300") && strstr(err.message, "5 of 48"), "%s",
	      err.message);
	CHECK(pmurt_dtl_next(&c, &s, &err) == 0, "after the error: the end");
	CHECK(kinds[PMURT_DTL_HEADER] == 1 && kinds[PMURT_DTL_ENTRY] == 13 &&
	      kinds[PMURT_DTL_SKIPPED] == 2, "kinds %d %d %d", kinds[0], kinds[1], kinds[2]);
	CHECK(c.have_header && c.header.tb_freq == 512000000 && c.header.boot_tb == 1000, "header");
	/* not the first chunk: the zero-timebase slot at 0 is an entry perf skips */
	pmurt_dtl_cursor_init(&c, buf, 48, 0, 0, false);
	CHECK(pmurt_dtl_next(&c, &s, &err) == 1 && s.kind == PMURT_DTL_SKIPPED, "not first");
}

/* Generated AUX streams: every entry comes back once, in order, aligned,
 * whether the stream is decoded whole or in the chunks the driver commits. */
static void test_generated(uint64_t aux_size, size_t n, size_t chunk_slots)
{
	struct dtl_gen g, ref;
	dtl_gen_init(&g, 42, 777, 512000000, 100000);
	ref = g;
	size_t len = dtl_gen_aux(&g, aux_size, n, NULL);
	uint8_t *buf = malloc(len);
	dtl_gen_aux(&g, aux_size, n, buf);
	size_t limit = (size_t)(aux_size - 32) / 48 * 48, got = 0, stale = 0, headers = 0;
	size_t pos = 0;
	while (pos < len) {
		/* a commit: chunk_slots slots, or up to the wrap (stale tail included) */
		size_t apos = pos % aux_size, end = pos + chunk_slots * 48;
		if (apos + chunk_slots * 48 >= limit)
			end = pos - apos + aux_size;
		if (end > len)
			end = len;
		struct pmurt_dtl_cursor c;
		struct pmurt_dtl_slot s;
		struct pmurt_error err;
		int rc;
		pmurt_dtl_cursor_init(&c, buf + pos, end - pos, pos, aux_size, pos == 0);
		while ((rc = pmurt_dtl_next(&c, &s, &err)) == 1) {
			if (s.kind == PMURT_DTL_STALE) {
				stale += s.len;
				continue;
			}
			if (s.kind == PMURT_DTL_HEADER) {
				headers++;
				continue;
			}
			uint8_t slot[48];
			struct pmurt_dtl_entry want;
			dtl_gen_entry(&ref, slot, &want);
			CHECK(s.kind == PMURT_DTL_ENTRY && memcmp(&want, &s.entry, sizeof(want)) == 0,
			      "entry %zu differs (aux %llu)", got, (unsigned long long)aux_size);
			got++;
		}
		CHECK(rc == 0, "chunk at %zu: %s", pos, err.message);
		pos = end;
	}
	size_t laps = (n + 1) / (limit / 48);
	CHECK(got == n && headers == 1, "%zu of %zu entries, %zu headers", got, n, headers);
	CHECK(stale == laps * (aux_size - limit), "stale %zu for %zu laps", stale, laps);
	free(buf);
}

static void test_misaligned(void)
{
	uint8_t buf[96] = {0};
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot s;
	struct pmurt_error err;
	pmurt_dtl_cursor_init(&c, buf, sizeof(buf), 8, 4096, false);
	CHECK(pmurt_dtl_next(&c, &s, &err) == -EINVAL && strstr(err.message, "not on the 48-byte"),
	      "misaligned: %s", err.message);
	CHECK(c.pos == 40, "resumes on the grid: %zu", c.pos);
}

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "sample") == 0) {
		uint8_t buf[48 * 16];
		return write_file(argv[2], buf, build_sample(buf));
	}
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "gen") == 0) {
		size_t n = strtoull(argv[3], NULL, 0);
		uint64_t aux = argc == 5 ? strtoull(argv[4], NULL, 0) : 0;
		struct dtl_gen g;
		dtl_gen_init(&g, 7, 123456789, 512000000, 200000000);
		size_t len = aux ? dtl_gen_aux(&g, aux, n, NULL) : (n + 1) * 48;
		uint8_t *buf = malloc(len);
		if (!buf)
			return 1;
		if (aux)
			dtl_gen_aux(&g, aux, n, buf);
		else
			dtl_gen_buffer(&g, buf, n);
		int rc = write_file(argv[2], buf, len);
		free(buf);
		return rc;
	}
	test_reasons();
	test_entry_fields();
	test_header_orders();
	test_times();
	test_cursor_sample();
	test_misaligned();
	test_generated(4096, 1000, 7);
	test_generated(4096, 84, 1);   /* exactly one lap: the wrap right after */
	test_generated(131072, 10000, 85);
	test_generated(128, 10, 1);    /* the smallest area: one slot a lap */
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}

/*
 * fuzz_perfdata.c - libFuzzer target for libpmurt's perf.data reader: any
 * bytes open and read to the end, or fail with a negative errno and a
 * message naming the file offset; never a crash or a sanitizer report.
 * Every record's parsed pointers are touched within their stated sizes,
 * a sample's read values (leader sampling) through pmurt_perf_read_value.
 * The input reaches the reader as libFuzzer holds it, a heap block of its
 * exact size (pmurt_perf_open_mem), so that ASan sees any read past its end (a
 * mapped file's last page would hide it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, uint64_t n)
{
	const uint8_t *b = p;
	for (uint64_t i = 0; i < n; i++)
		sink += b[i];
}

static void touch_record(const struct pmurt_perf_record *r)
{
	touch(r->data, r->size);
	touch(r->payload, r->payload_size);
	touch(r->callchain, r->nr_callchain * 8);
	touch(r->raw, r->raw_size);
	touch(r->branches, r->nr_branches * 24);
	touch(r->read, r->read_size);
}

/* A sample's read values (PERF_SAMPLE_READ), as report reads them: each
 * within the area, the event its id names one of the file's or -1. */
static void touch_read(const struct pmurt_perf_file *f, const struct pmurt_perf_record *r,
		       int nevents)
{
	struct pmurt_perf_read_value v = {.sz = sizeof(v)};
	int rc = 0;
	for (uint64_t i = 0; (rc = pmurt_perf_read_value(f, r, i, &v)) == 1; i++) {
		sink += v.value + v.id + v.lost;
		if (v.event < -1 || v.event >= nevents || i > r->read_size / 8)
			abort();
	}
	if (rc < 0 && (r->type == PERF_RECORD_SAMPLE && (r->has & PERF_SAMPLE_READ)))
		abort();   /* the reader checked the area: every value fits */
}

static void failed(int rc, const struct pmurt_error *err)
{
	if (rc >= 0 || err->code != rc || (rc == -EINVAL && !strstr(err->message, "offset 0x")))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmurt_error err = {0};
	struct pmurt_perf_file *f;
	int rc = pmurt_perf_open_mem(&f, "fuzz.data", data, size, &err);
	if (rc == 0) {
		struct pmurt_perf_info info = {.sz = sizeof(info)};
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		pmurt_perf_info(f, &info);
		for (int e = 0; e < info.nevents; e++)
			if (pmurt_perf_event(f, e, &ev) == 0)
				touch(ev.attr, ev.attr_size);
		struct pmurt_perf_record r = {.sz = sizeof(r)};
		while ((rc = pmurt_perf_next(f, &r, &err)) == 1) {
			touch_record(&r);
			touch_read(f, &r, info.nevents);
			if (r.event < -1 || r.event >= info.nevents)
				abort();
		}
		if (rc < 0)
			failed(rc, &err);
		pmurt_perf_close(f);
	} else {
		failed(rc, &err);
		if (f)
			abort();
	}
	return 0;
}

/*
 * reader_test.c - libpmurt's perf.data writer and reader against each
 * other: every sample field the reader parses (a sample with all of them),
 * events found by id in samples and in sample_id_all trailers, AUXTRACE
 * payloads and their index, the feature sections; then every truncation of
 * the file and every single-byte corruption of its header, attrs and
 * records, each an error naming the offset or a clean read, never a crash
 * (ASan in CI); the writer's refusals; and the tracing-data feature written
 * from a tracefs tree the test builds, byte for byte in perf's layout;
 * files of perf 6.1's `perf record -z` (PERF_RECORD_COMPRESSED): their
 * records read in place, found again by seek, every truncation and byte
 * corruption refused naming the offset or read cleanly, and payloads
 * rebuilt with bad records inside.
 *
 * usage: reader_test DIR [PERF_Z_SMALL PERF_Z_SPLIT]   (scratch files go
 * to DIR; perf record -z files: one of two compressed records, one of
 * many whose records span two of them)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "../check.h"
#include "perfdata.h"
#include "record_buf.h"

static int failures;
static char dir[512];

#define ALL_FIELDS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
		    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | \
		    PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
		    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
		    PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | \
		    PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | \
		    PERF_SAMPLE_AUX)

static const uint64_t ids0[] = {11, 12}, ids1[] = {21};

/* Event 0 samples every field; event 1 few, with the id at the same places. */
static void events(struct pd_event ev[2])
{
	memset(ev, 0, 2 * sizeof(*ev));
	ev[0].attr.sample_type = ALL_FIELDS;
	ev[0].attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				 PERF_FORMAT_TOTAL_TIME_ENABLED;
	ev[0].attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	ev[0].attr.sample_regs_user = 0x7;   /* three registers */
	ev[0].attr.sample_regs_intr = 0x1;
	ev[0].attr.sample_id_all = 1;
	ev[0].ids = ids0, ev[0].nids = 2, ev[0].name = "every-field";
	ev[1].attr.type = PERF_TYPE_SOFTWARE;
	ev[1].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME;
	ev[1].attr.sample_id_all = 1;
	ev[1].ids = ids1, ev[1].nids = 1, ev[1].name = "cpu-clock";
}

static const void *full_sample(struct buf *b)
{
	start(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(b, 12);                    /* identifier */
	put64(b, 0x401000);              /* ip */
	put32(b, 100), put32(b, 101);    /* pid, tid */
	put64(b, 5000);                  /* time */
	put64(b, 0xdead);                /* addr */
	put64(b, 12);                    /* id */
	put64(b, 77);                    /* stream id */
	put32(b, 3), put32(b, 0);        /* cpu, res */
	put64(b, 4000);                  /* period */
	put64(b, 2), put64(b, 999);      /* read: nr, time enabled */
	put64(b, 1), put64(b, 12), put64(b, 2), put64(b, 21);
	put64(b, 3);                     /* callchain */
	put64(b, PERF_CONTEXT_USER), put64(b, 0x401000), put64(b, 0x402000);
	put32(b, 12);                    /* raw: size, 12 bytes */
	put(b, "raw-payload", 12);
	put64(b, 1), put64(b, 0);        /* branch stack: nr, hw_idx */
	put64(b, 0x10), put64(b, 0x20), put64(b, 0);
	put64(b, 2), put64(b, 1), put64(b, 2), put64(b, 3);   /* regs user */
	put64(b, 16);                    /* stack user: 16 bytes, dyn size */
	put64(b, 0), put64(b, 0), put64(b, 8);
	put64(b, 55);                    /* weight */
	put64(b, 66);                    /* data src */
	put64(b, 88);                    /* transaction */
	put64(b, 0);                     /* regs intr: abi none */
	put64(b, 0x1000);                /* phys addr */
	put64(b, 9);                     /* cgroup */
	put64(b, 4096), put64(b, 2097152);
	put64(b, 8), put64(b, 0);        /* aux: 8 bytes */
	return done(b, NULL);
}

static void write_file(const char *path)
{
	struct pd_event ev[2];
	struct pmurt_error err = {0};
	struct pd_writer *w;
	struct buf b;
	events(ev);
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == 0, "%s", err.message);
	start(&b, PERF_RECORD_COMM, 0);
	put32(&b, 100), put32(&b, 101);
	struct pd_sample_id id = {100, 101, 4000, 1};
	CHECK(pd_writer_add_synth(w, done(&b, "worker"), &id, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add(w, full_sample(&b), &err) == 0, "%s", err.message);
	start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	put64(&b, 21), put64(&b, 0xffffffff81000000ull), put32(&b, 7), put32(&b, 7), put64(&b, 6000);
	CHECK(pd_writer_add(w, done(&b, NULL), &err) == 0, "%s", err.message);
	start(&b, PERF_RECORD_EXIT, 0);  /* trailer of event 1 */
	put32(&b, 7), put32(&b, 1), put32(&b, 7), put32(&b, 1), put64(&b, 7000);
	put32(&b, 7), put32(&b, 7), put64(&b, 7000), put64(&b, 21);
	CHECK(pd_writer_add(w, done(&b, NULL), &err) == 0, "%s", err.message);
	start(&b, PD_RECORD_AUXTRACE, 0);
	put64(&b, 16), put64(&b, 0), put64(&b, 0), put32(&b, 0), put32(&b, 7), put32(&b, 2),
		put32(&b, 0);
	done(&b, NULL);
	put(&b, "0123456789abcdef", 16);
	CHECK(pd_writer_add(w, b.b, &err) == 0, "%s", err.message);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
}

/* The full sample's read area (GROUP, ID, TOTAL_TIME_ENABLED): nr 2, the
 * time, then {1, id 12} of event 0 and {2, id 21} of event 1; a record
 * whose area is cut short gives no value past it. */
static void check_read_values(const struct pmurt_perf_file *f, const struct pmurt_perf_record *r)
{
	struct pmurt_perf_read_value v = {.sz = sizeof(v)};
	CHECK(pmurt_perf_read_value(f, r, 0, &v) == 1 && v.value == 1 && v.id == 12 &&
	      v.event == 0 && v.lost == 0, "read value 0: %llu id %llu event %d",
	      (unsigned long long)v.value, (unsigned long long)v.id, v.event);
	CHECK(pmurt_perf_read_value(f, r, 1, &v) == 1 && v.value == 2 && v.id == 21 &&
	      v.event == 1, "read value 1: %llu id %llu event %d", (unsigned long long)v.value,
	      (unsigned long long)v.id, v.event);
	CHECK(pmurt_perf_read_value(f, r, 2, &v) == 0, "read value 2");
	struct pmurt_perf_record cut = *r;
	cut.read_size = 5 * 8;
	CHECK(pmurt_perf_read_value(f, &cut, 0, &v) == 1, "cut: value 0");
	CHECK(pmurt_perf_read_value(f, &cut, 1, &v) == -EINVAL, "cut: value 1 past the area");
	cut.read_size = 8;
	CHECK(pmurt_perf_read_value(f, &cut, 0, &v) == -EINVAL, "cut: no room for the time");
	cut.has &= ~(uint64_t)PERF_SAMPLE_READ;
	CHECK(pmurt_perf_read_value(f, &cut, 0, &v) == -EINVAL, "no read area");
}

static void check_full_sample(const struct pmurt_perf_file *f, const struct pmurt_perf_record *r)
{
	CHECK(r->event == 0 && r->has == ALL_FIELDS, "event %d has %#llx", r->event,
	      (unsigned long long)r->has);
	CHECK(r->ip == 0x401000 && r->pid == 100 && r->tid == 101 && r->time == 5000 &&
	      r->addr == 0xdead && r->id == 12 && r->stream_id == 77 && r->cpu == 3 &&
	      r->period == 4000, "head fields");
	CHECK(r->read_size == 6 * 8, "read %llu bytes", (unsigned long long)r->read_size);
	check_read_values(f, r);
	CHECK(r->nr_callchain == 3 && r->callchain[0] == PERF_CONTEXT_USER &&
	      r->callchain[2] == 0x402000, "callchain");
	CHECK(r->raw_size == 12 && !memcmp(r->raw, "raw-payload", 12), "raw");
	CHECK(r->nr_branches == 1, "branches %llu", (unsigned long long)r->nr_branches);
	CHECK(r->regs_user_abi == 2 && r->regs_user_mask == 0x7 && r->regs_user &&
	      r->regs_user[0] == 1 && r->regs_user[2] == 3, "user registers");
	CHECK(r->stack_user && r->stack_user_size == 8, "user stack: its dynamic size, %llu",
	      (unsigned long long)r->stack_user_size);
	CHECK(r->weight == 55 && r->data_src == 66 && r->transaction == 88 &&
	      r->phys_addr == 0x1000 && r->cgroup == 9 && r->data_page_size == 4096 &&
	      r->code_page_size == 2097152, "tail fields");
}

static void read_back(const char *path)
{
	struct pmurt_error err = {0};
	struct pmurt_perf_file *f;
	CHECK(pmurt_perf_open(&f, path, &err) == 0, "%s", err.message);
	if (!f)
		return;
	struct pmurt_perf_info info = {.sz = sizeof(info)};
	struct utsname u;
	uname(&u);
	CHECK(pmurt_perf_info(f, &info) == 0 && info.nevents == 2, "info");
	CHECK(info.hostname && !strcmp(info.hostname, u.nodename), "hostname %s", info.hostname);
	CHECK(info.arch && !strcmp(info.arch, u.machine), "arch");
	CHECK(info.cmdline && strstr(info.cmdline, "reader_test"), "cmdline %s", info.cmdline);
	CHECK(info.nr_cpus_online > 0, "nrcpus");
	struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
	CHECK(pmurt_perf_event(f, 1, &ev) == 0 && ev.name && !strcmp(ev.name, "cpu-clock") &&
	      ev.nids == 1 && ev.ids[0] == 21, "event 1");
	CHECK(pmurt_perf_event(f, 2, &ev) == -ERANGE, "event 2");
	struct pmurt_perf_record r = {.sz = sizeof(r)};
	int n = 0;
	uint64_t second = 0;
	while (pmurt_perf_next(f, &r, &err) == 1) {
		switch (n++) {
		case 0:
			CHECK(r.type == PERF_RECORD_COMM && r.event == 0 && r.pid == 100 &&
			      r.time == 4000 && r.cpu == 1 && r.id == 11, "comm trailer");
			break;
		case 1: check_full_sample(f, &r); second = r.offset; break;
		case 2:
			CHECK(r.event == 1 && r.ip == 0xffffffff81000000ull && r.time == 6000 &&
			      (r.misc & 7) == PERF_RECORD_MISC_KERNEL, "kernel sample");
			break;
		case 3: CHECK(r.type == PERF_RECORD_EXIT && r.event == 1 && r.time == 7000, "exit"); break;
		case 4:
			CHECK(r.type == PD_RECORD_AUXTRACE && r.payload_size == 16 &&
			      !memcmp(r.payload, "0123456789abcdef", 16), "auxtrace");
			break;
		case 5: CHECK(r.type == PD_RECORD_FINISHED_ROUND, "final round"); break;
		}
	}
	CHECK(n == 6 && !err.code, "%d records, %s", n, err.message);
	CHECK(info.features[PD_FEAT_AUXTRACE / 64] >> (PD_FEAT_AUXTRACE % 64) & 1, "aux index");
	CHECK(pmurt_perf_seek(f, second) == 0 && pmurt_perf_next(f, &r, &err) == 1 &&
	      r.ip == 0x401000, "seek");
	CHECK(pmurt_perf_seek(f, second + 4) == -EINVAL, "misaligned seek (no compressed records)");
	pmurt_perf_close(f);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *v = malloc(1 << 20);
	*n = fp && v ? fread(v, 1, 1 << 20, fp) : 0;
	if (fp)
		fclose(fp);
	return v;
}

static void spit(const char *path, const uint8_t *v, size_t n)
{
	FILE *fp = fopen(path, "wb");
	if (fp) {
		fwrite(v, 1, n, fp);
		fclose(fp);
	}
}

/* Read all of a file: 0 when clean, else the error (message checked). */
static int read_all(const char *path, char *msg, size_t len)
{
	struct pmurt_error err = {0};
	struct pmurt_perf_file *f;
	int rc = pmurt_perf_open(&f, path, &err);
	struct pmurt_perf_record r = {.sz = sizeof(r)};
	if (rc == 0)
		while ((rc = pmurt_perf_next(f, &r, &err)) == 1)
			;
	pmurt_perf_close(f);
	snprintf(msg, len, "%s", err.message);
	return rc;
}

/* Bytes changed in place in one scratch file (pwrite), truncations by
 * ftruncate from the longest down: no rewrite of the whole file per case. */
static void damaged(const char *good)
{
	char bad[600], msg[512];
	size_t n;
	uint8_t *v = slurp(good, &n);
	snprintf(bad, sizeof(bad), "%s/bad.data", dir);
	spit(bad, v, n);
	int fd = open(bad, O_RDWR), flips = 0, flip_errors = 0, truncated_ok = 0;
	for (size_t at = 0; fd >= 0 && at < n; at++) {
		for (int k = 0; k < 2; k++) {
			uint8_t b = k ? (uint8_t)(v[at] ^ 0x80) : 0xff;
			CHECK(pwrite(fd, &b, 1, (off_t)at) == 1, "pwrite");
			flips++;
			int rc = read_all(bad, msg, sizeof(msg));
			if (rc < 0) {
				flip_errors++;
				CHECK(strstr(msg, ": offset 0x") || rc == -ENOMEM, "byte %zu: %s", at, msg);
			}
		}
		CHECK(pwrite(fd, &v[at], 1, (off_t)at) == 1, "pwrite");
	}
	for (size_t len = n; fd >= 0 && len-- > 0;) {
		CHECK(ftruncate(fd, (off_t)len) == 0, "ftruncate");
		if (read_all(bad, msg, sizeof(msg)) < 0 && strstr(msg, ": offset 0x"))
			truncated_ok++;
		else
			CHECK(0, "truncated to %zu bytes: no error naming the offset: %s", len, msg);
	}
	if (fd >= 0)
		close(fd);
	CHECK(truncated_ok == (int)n, "%d of %zu truncations refused", truncated_ok, n);
	printf("%d truncations refused; %d of %d corruptions refused naming the offset, "
	       "the others read cleanly\n", truncated_ok, flip_errors, flips);
	free(v);
}

static void expect_error(const char *what, const uint8_t *v, size_t n, const char *needle)
{
	char bad[600], msg[512];
	snprintf(bad, sizeof(bad), "%s/case.data", dir);
	spit(bad, v, n);
	CHECK(read_all(bad, msg, sizeof(msg)) < 0 && strstr(msg, needle), "%s: '%s' lacks '%s'",
	      what, msg, needle);
}

/* The file reads cleanly. */
static void expect_error_free(const uint8_t *v, size_t n)
{
	char path[600], msg[512];
	snprintf(path, sizeof(path), "%s/case.data", dir);
	spit(path, v, n);
	CHECK(read_all(path, msg, sizeof(msg)) == 0, "a clean file refused: %s", msg);
}

static void named_errors(const char *good)
{
	size_t n;
	uint8_t *v = slurp(good, &n);
	uint64_t data_off;
	memcpy(&data_off, v + 40, 8);
	uint8_t *c = malloc(n);
	memcpy(c, v, n);
	memcpy(c, "2ELIFREP", 8);
	expect_error("swapped", c, n, "offset 0x0: written in the other byte order");
	memcpy(c, v, n);
	c[8] = 16;   /* perf's pipe format: records from byte 16, here a file's header */
	expect_error("pipe", c, n, "offset 0x10: record size 0 is smaller than its header");
	memcpy(c, v, n);
	c[data_off + 6] = 4, c[data_off + 7] = 0;
	expect_error("size 4", c, n, "smaller than its header");
	c[data_off + 6] = 12;
	expect_error("size 12", c, n, "not a multiple of 8");
	memcpy(c, v, n);
	c[data_off] = PD_RECORD_COMPRESSED;
	expect_error("compressed", c, n, "perf record -z");
	memcpy(c, v, n);
	/* the second record is the full sample: its identifier */
	uint16_t first;
	memcpy(&first, v + data_off + 6, 2);
	c[data_off + first + 8] = 99;
	char want[64];
	snprintf(want, sizeof(want), "offset 0x%llx: sample id 99 names no event",
		 (unsigned long long)(data_off + first));
	expect_error("unknown id", c, n, want);
	/* its read area's group count (after 9 u64s: identifier ... period) */
	memcpy(c, v, n);
	uint64_t huge = 1ull << 40;
	memcpy(c + data_off + first + 8 + 72, &huge, 8);
	snprintf(want, sizeof(want), "offset 0x%llx: the read area (PERF_SAMPLE_READ) runs past",
		 (unsigned long long)(data_off + first));
	expect_error("read group count", c, n, want);
	/* the user stack's dynamic size past its size (evsel__parse_sample's
	 * "user stack dump failure") */
	memcpy(c, v, n);
	static const uint64_t stack[] = {16, 0, 0, 8};
	for (size_t at = data_off; at + sizeof(stack) <= n; at += 8)
		if (!memcmp(c + at, stack, sizeof(stack))) {
			c[at + 24] = 24;
			break;
		}
	expect_error("dynamic size", c, n, "the user stack's dynamic size (larger than its size)");
	expect_error("empty", v, 0, "too short for a perf.data header");
	free(c);
	free(v);
}

/* The offset of the first record of this type in the data section. */
static uint64_t record_at(const uint8_t *v, uint32_t type)
{
	uint64_t at = pd_get64(v + 40), end = at + pd_get64(v + 48);
	while (at < end && pd_get32(v + at) != type) {
		uint16_t size;
		memcpy(&size, v + at + 6, 2);
		at += size + (pd_get32(v + at) == PD_RECORD_AUXTRACE ? pd_get64(v + at + 8) : 0);
	}
	return at;
}

static void set_type(uint8_t *v, uint64_t at, uint32_t type)
{
	memcpy(v + at, &type, 4);
}

/* Records shorter than their fixed part, refused with their offset: an
 * AUXTRACE record of 16 bytes ending the file (no feature after it, so a
 * reader of its 48 bytes would read past the file); kernel records too
 * short for their fields and trailer; an AUXTRACE_ERROR of 8 bytes.  And
 * an AUXTRACE payload running past the data section into the features
 * (the file itself long enough). */
static void short_records(const char *good)
{
	size_t n;
	uint8_t *v = slurp(good, &n);
	uint8_t *c = malloc(n);
	char want[128];
	uint64_t aux = record_at(v, PD_RECORD_AUXTRACE), data_off = pd_get64(v + 40);
	CHECK(aux < data_off + pd_get64(v + 48), "no AUXTRACE record in the file");
	memcpy(c, v, n);
	uint16_t sixteen = 16;
	uint64_t zero = 0, data_size = aux + 16 - data_off;
	memcpy(c + aux + 6, &sixteen, 2);
	memcpy(c + aux + 8, &zero, 8);
	memcpy(c + 48, &data_size, 8);
	memset(c + 72, 0, 32);   /* no features */
	snprintf(want, sizeof(want), "offset 0x%llx: record type 71 of 16 bytes is shorter "
		 "than its fixed part (48 bytes)", (unsigned long long)aux);
	expect_error("16-byte AUXTRACE at the end", c, aux + 16, want);

	uint64_t exit_at = record_at(v, PERF_RECORD_EXIT);
	memcpy(c, v, n);
	set_type(c, exit_at, PERF_RECORD_MMAP2);   /* 56 bytes: 72 and a 24-byte trailer wanted */
	snprintf(want, sizeof(want), "offset 0x%llx: record type 10 of 56 bytes is shorter than "
		 "its fixed part (72 bytes) and its 24-byte sample_id_all trailer",
		 (unsigned long long)exit_at);
	expect_error("short MMAP2", c, n, want);
	set_type(c, exit_at, PERF_RECORD_AUX);     /* 32 and 24: 56 is enough */
	expect_error_free(c, n);

	uint64_t round = record_at(v, PD_RECORD_FINISHED_ROUND);
	memcpy(c, v, n);
	set_type(c, round, PD_RECORD_AUXTRACE_ERROR);
	snprintf(want, sizeof(want), "offset 0x%llx: record type 72 of 8 bytes is shorter",
		 (unsigned long long)round);
	expect_error("8-byte AUXTRACE_ERROR", c, n, want);

	/* the payload's size raised to end 8 bytes past the data section:
	 * the feature sections follow, so the file is long enough */
	memcpy(c, v, n);
	uint64_t data_end = data_off + pd_get64(v + 48);
	uint64_t past = data_end - (aux + 48) + 8;
	memcpy(c + aux + 8, &past, 8);
	CHECK(aux + 48 + past < n, "the features follow the data");
	snprintf(want, sizeof(want), "offset 0x%llx: AUXTRACE payload of %#llx bytes runs past "
		 "the data section's end", (unsigned long long)aux, (unsigned long long)past);
	expect_error("payload past the data section", c, n, want);
	free(c);
	free(v);
}

static void writer_refusals(void)
{
	struct pd_event ev[2];
	struct pmurt_error err = {0};
	struct pd_writer *w;
	char path[600];
	snprintf(path, sizeof(path), "%s/refuse.data", dir);
	events(ev);
	CHECK(pd_writer_open(&w, path, ev, 0, &err) == -EINVAL, "no events");
	ev[1].nids = 0;
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == -EINVAL && strstr(err.message, "cpu-clock"),
	      "no ids: %s", err.message);
	events(ev);
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == 0, "%s", err.message);
	struct perf_event_header h = {PERF_RECORD_SAMPLE, 0, 12};
	CHECK(pd_writer_add(w, &h, &err) == -EINVAL && strstr(err.message, "multiple of 8"),
	      "size 12: %s", err.message);
	uint64_t aux16[2] = {0, 0};   /* an AUXTRACE record of 16 bytes, no payload */
	struct perf_event_header ah = {PD_RECORD_AUXTRACE, 0, 16};
	memcpy(aux16, &ah, sizeof(ah));
	CHECK(pd_writer_add(w, aux16, &err) == -EINVAL && strstr(err.message, "shorter than its 48"),
	      "16-byte AUXTRACE: %s", err.message);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	snprintf(path, sizeof(path), "%s/no-such-dir/x.data", dir);
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == -ENOENT && strstr(err.message, path),
	      "unwritable: %s", err.message);
}

/* Records given one by one and in spans (one larger than half the
 * writer's buffer, written past it) come back in the order given. */
static void spans_written(void)
{
	enum { N = 4000, SIZE = 40 };   /* 160 KB of samples of event 1 */
	char path[600];
	snprintf(path, sizeof(path), "%s/spans.data", dir);
	struct pd_event ev[2];
	events(ev);
	struct pmurt_error err = {0};
	struct pd_writer *w;
	uint64_t *recs = malloc((size_t)(N + 2) * SIZE);
	for (uint64_t i = 0; i < N + 2; i++) {
		uint64_t *r = recs + i * (SIZE / 8);
		struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, SIZE};
		memcpy(r, &h, 8);
		r[1] = 21, r[2] = 0x400000 + i, r[3] = 7 | 7ull << 32, r[4] = 1000 + i;
	}
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add(w, recs, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add_span(w, recs + SIZE / 8, 2, &err) == -EINVAL &&
	      strstr(err.message, "not a multiple of 8"), "a span of 2 bytes: %s", err.message);
	CHECK(pd_writer_add_span(w, recs + SIZE / 8, (size_t)N * SIZE, &err) == 0, "%s",
	      err.message);
	CHECK(pd_writer_add(w, recs + (N + 1) * (SIZE / 8), &err) == 0, "%s", err.message);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	free(recs);
	struct pmurt_perf_file *f;
	CHECK(pmurt_perf_open(&f, path, &err) == 0, "%s", err.message);
	if (!f)
		return;
	struct pmurt_perf_record r = {.sz = sizeof(r)};
	uint64_t n = 0;
	int rc;
	while ((rc = pmurt_perf_next(f, &r, &err)) == 1) {
		if (r.type != PERF_RECORD_SAMPLE)
			continue;
		CHECK(r.time == 1000 + n && r.ip == 0x400000 + n, "sample %llu: time %llu",
		      (unsigned long long)n, (unsigned long long)r.time);
		n++;
	}
	CHECK(rc == 0 && n == N + 2, "%llu samples read back: %s", (unsigned long long)n,
	      err.message);
	pmurt_perf_close(f);
}

/* An AUXTRACE payload of 20 bytes from elsewhere (a mapped AUX area):
 * written padded to 24 with zeros, its size field saying 24 as perf's
 * record writes it, the next record in its place. */
static void padded_payload(void)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/padded.data", dir);
	struct pd_event ev[2];
	events(ev);
	struct pmurt_error err = {0};
	struct pd_writer *w;
	struct buf b;
	start(&b, PD_RECORD_AUXTRACE, 0);
	put64(&b, 20), put64(&b, 4096), put64(&b, 0), put32(&b, 1), put32(&b, UINT32_MAX),
		put32(&b, 6), put32(&b, 0);
	done(&b, NULL);
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add_auxtrace(w, b.b, "twenty bytes of DTL", &err) == 0, "%s", err.message);
	start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&b, 21), put64(&b, 0x401234), put32(&b, 7), put32(&b, 7), put64(&b, 6000);
	CHECK(pd_writer_add(w, done(&b, NULL), &err) == 0, "%s", err.message);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	struct pmurt_perf_file *f;
	CHECK(pmurt_perf_open(&f, path, &err) == 0, "%s", err.message);
	if (!f)
		return;
	struct pmurt_perf_record r = {.sz = sizeof(r)};
	CHECK(pmurt_perf_next(f, &r, &err) == 1 && r.type == PD_RECORD_AUXTRACE &&
	      r.payload_size == 24 && pd_get64((const uint8_t *)r.data + 8) == 24 &&
	      !memcmp(r.payload, "twenty bytes of DTL\0\0\0\0", 24),
	      "AUXTRACE of %llu bytes: %s", (unsigned long long)r.payload_size, err.message);
	CHECK(pmurt_perf_next(f, &r, &err) == 1 && r.type == PERF_RECORD_SAMPLE &&
	      r.ip == 0x401234, "the sample after it: type %u, %s", r.type, err.message);
	pmurt_perf_close(f);
}

static void make_file(const char *rel, const char *text)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/tracefs/%s", dir, rel);
	for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	spit(path, (const uint8_t *)text, strlen(text));
}

/* A tracefs tree: two recorded tracepoints (one of them twice, one named
 * so that only its id finds it), an unrecorded ftrace event, saved_cmdlines
 * and no printk_formats. */
static void make_tracefs(void)
{
	make_file("events/header_page", "field: u64 timestamp;\n");
	make_file("events/header_event", "type_len : 5 bits\n");
	make_file("events/sched/sched_switch/id", "316\n");
	make_file("events/sched/sched_switch/format", "name: sched_switch\nID: 316\n");
	make_file("events/sched/sched_wakeup/id", "317\n");
	make_file("events/sched/sched_wakeup/format", "name: sched_wakeup\n");
	make_file("events/irq/irq_handler_entry/id", "40\n");
	make_file("events/irq/irq_handler_entry/format", "name: irq_handler_entry\n");
	make_file("events/ftrace/function/id", "1\n");
	make_file("events/ftrace/function/format", "name: function\n");
	make_file("saved_cmdlines", "1 init\n");
}

/* trace-event-read.c's order: preamble, header files, ftrace formats,
 * systems with their formats, kallsyms, printk formats, saved_cmdlines. */
static size_t expected_tracing(struct buf *b)
{
	static const char magic[] = "\027\010\104tracing0.6";
	const uint16_t probe = 1;
	uint8_t endian = *(const uint8_t *)&probe == 0, long_size = sizeof(long);
	b->n = 0;
	put(b, magic, sizeof(magic));   /* the version's NUL too */
	put(b, &endian, 1), put(b, &long_size, 1);
	put32(b, (uint32_t)sysconf(_SC_PAGESIZE));
	put(b, "header_page", 12), put64(b, 22), put(b, "field: u64 timestamp;\n", 22);
	put(b, "header_event", 13), put64(b, 18), put(b, "type_len : 5 bits\n", 18);
	put32(b, 0);                                      /* no ftrace event recorded */
	put32(b, 2);                                      /* systems */
	put(b, "sched", 6), put32(b, 1), put64(b, 27), put(b, "name: sched_switch\nID: 316\n", 27);
	put(b, "irq", 4), put32(b, 1), put64(b, 24), put(b, "name: irq_handler_entry\n", 24);
	put32(b, 0);                                      /* kallsyms */
	put32(b, 0);                                      /* no printk_formats */
	put64(b, 7), put(b, "1 init\n", 7);               /* saved_cmdlines */
	return b->n;
}

static void tracing_feature(void)
{
	char path[600], tracefs[600];
	snprintf(path, sizeof(path), "%s/tracing.data", dir);
	snprintf(tracefs, sizeof(tracefs), "%s/tracefs", dir);
	make_tracefs();
	struct pd_event ev[3];
	uint64_t ids[3] = {1, 2, 3};
	memset(ev, 0, sizeof(ev));
	for (int e = 0; e < 3; e++) {
		ev[e].attr.type = PERF_TYPE_TRACEPOINT;
		ev[e].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_RAW;
		ev[e].ids = &ids[e], ev[e].nids = 1;
	}
	ev[0].attr.config = 316, ev[0].name = "sched:sched_switch";
	ev[1].attr.config = 40, ev[1].name = "irq-entry";
	ev[2].attr.config = 316, ev[2].name = "sched:sched_switch:u";
	struct pmurt_error err = {0};
	struct pd_writer *w;
	CHECK(pd_writer_open(&w, path, ev, 3, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add_tracing(w, tracefs, &err) == 0, "%s", err.message);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	size_t n;
	uint8_t *v = slurp(path, &n);
	uint64_t data_end = pd_get64(v + 40) + pd_get64(v + 48), features = pd_get64(v + 72);
	CHECK(features & 2, "no tracing-data bit in %#llx", (unsigned long long)features);
	/* bit 1 is the lowest set: the first section entry */
	uint64_t at = pd_get64(v + data_end), size = pd_get64(v + data_end + 8);
	static struct buf want;
	size_t want_n = expected_tracing(&want);
	CHECK(size == want_n && at + size <= n && memcmp(v + at, want.b, want_n) == 0,
	      "tracing data differs: %llu bytes, want %zu", (unsigned long long)size, want_n);
	free(v);
	struct pmurt_perf_file *f;
	CHECK(pmurt_perf_open(&f, path, &err) == 0, "our reader: %s", err.message);
	pmurt_perf_close(f);
	/* a format perf must have, missing */
	snprintf(path, sizeof(path), "%s/tracefs/events/irq/irq_handler_entry/format", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tracing2.data", dir);
	CHECK(pd_writer_open(&w, path, ev, 3, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add_tracing(w, tracefs, &err) == -ENOENT &&
	      strstr(err.message, "irq_handler_entry/format"), "missing format: %s", err.message);
	ev[1].attr.config = 99;   /* no such id */
	pd_writer_finish(w, NULL);
	CHECK(pd_writer_open(&w, path, ev, 3, &err) == 0, "%s", err.message);
	CHECK(pd_writer_add_tracing(w, tracefs, &err) == -ENOENT &&
	      strstr(err.message, "no tracepoint of id 99 (event irq-entry)"), "id 99: %s",
	      err.message);
	pd_writer_finish(w, NULL);
}

/* The payload of feature bit in a written file (NULL when absent). */
static const uint8_t *feature_of(const uint8_t *v, int bit, uint64_t *size)
{
	uint64_t table = pd_get64(v + 40) + pd_get64(v + 48);
	for (int b = 0; b < bit; b++)
		table += 16 * (pd_get64(v + 72 + 8 * (b / 64)) >> (b % 64) & 1);
	if (!(pd_get64(v + 72 + 8 * (bit / 64)) >> (bit % 64) & 1))
		return NULL;
	*size = pd_get64(v + table + 8);
	return v + pd_get64(v + table);
}

/* The bytes expected, built as the writer should have. */
static struct pd_bytes want;

static void expect_feature(const uint8_t *v, int bit, const char *what)
{
	uint64_t size = 0;
	const uint8_t *p = feature_of(v, bit, &size);
	CHECK(p && size == want.n && !memcmp(p, want.p, want.n), "%s: %llu bytes, want %zu%s",
	      what, (unsigned long long)size, want.n, p ? "" : " (absent)");
	pd_bytes_free(&want);
}

/* A host tree: 8 CPUs present (0-7), 4 online (0-2,5), one package, cores
 * {0,1} {2,3} {4,5}; two cache levels; one NUMA node with memory blocks 0
 * and 2; a "cpu" PMU with a capability, a "pt" PMU with another. */
static void make_host(void)
{
	make_file("host/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
		  "cpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R)   Gold  6148\n"
		  "stepping\t: 4\ncpu\t\t: POWER10 (architected)\n");
	make_file("host/proc/meminfo", "MemTotal:       16384 kB\nMemFree:  99 kB\n");
	make_file("host/sys/devices/system/cpu/present", "0-7\n");
	make_file("host/sys/devices/system/cpu/possible", "0-7\n");
	make_file("host/sys/devices/system/cpu/online", "0-2,5\n");
	static const int online[] = {0, 1, 2, 5}, core[] = {0, 0, 1, 2};
	static const char *const cores[] = {"0-1", "0-1", "2-3", "4-5"};
	for (int i = 0; i < 4; i++) {
		char rel[128], text[16];
		int c = online[i];
#define TOPO(name, value) \
	(snprintf(rel, sizeof(rel), "host/sys/devices/system/cpu/cpu%d/topology/%s", c, name), \
	 make_file(rel, value))
		TOPO("package_cpus_list", "0-7\n");
		TOPO("die_cpus_list", "0-7\n");
		TOPO("core_cpus_list", cores[i]);
		snprintf(text, sizeof(text), "%d\n", core[i]);
		TOPO("core_id", text);
		TOPO("physical_package_id", "0\n");
		TOPO("die_id", "0\n");
#undef TOPO
		for (int index = 0; index < 2 && c < 3; index++) {
			static const char *const files[] = {"level", "coherency_line_size",
							    "number_of_sets", "ways_of_associativity",
							    "type", "size", "shared_cpu_list"};
			const char *values[] = {index ? "2" : "1", "64", index ? "2048" : "64",
						index ? "16" : "8", index ? "Unified" : "Data",
						index ? "1024K" : "32K", c < 2 ? "0-1" : "2-3"};
			for (int k = 0; k < 7; k++) {
				snprintf(rel, sizeof(rel),
					 "host/sys/devices/system/cpu/cpu%d/cache/index%d/%s", c, index,
					 files[k]);
				make_file(rel, values[k]);
			}
		}
	}
	make_file("host/sys/devices/system/node/online", "0\n");
	make_file("host/sys/devices/system/node/node0/meminfo",
		  "Node 0 MemTotal:       16384 kB\nNode 0 MemFree:        8192 kB\n");
	make_file("host/sys/devices/system/node/node0/cpulist", "0-7\n");
	make_file("host/sys/devices/system/node/node0/memory0/online", "1\n");
	make_file("host/sys/devices/system/node/node0/memory2/online", "1\n");
	make_file("host/sys/devices/system/memory/block_size_bytes", "8000000\n");
	make_file("host/sys/bus/event_source/devices/cpu/type", "4\n");
	make_file("host/sys/bus/event_source/devices/cpu/caps/max_precise", "3\n");
	make_file("host/sys/bus/event_source/devices/pt/type", "9\n");
	make_file("host/sys/bus/event_source/devices/pt/caps/psb_cyc", "1\n");
}

static void expect_topology(const uint8_t *v)
{
	struct utsname u;
	bool die = uname(&u) == 0 && (!strncmp(u.machine, "x86_64", 6) ||
				      !strncmp(u.machine, "s390x", 5));
	static const int core_id[8] = {0, 0, 1, -1, -1, 2, -1, -1};
	pd_bytes_u32(&want, 1), pd_bytes_string(&want, "0-7");
	pd_bytes_u32(&want, 3), pd_bytes_string(&want, "0-1"), pd_bytes_string(&want, "2-3"),
		pd_bytes_string(&want, "4-5");
	for (int c = 0; c < 8; c++) {
		pd_bytes_u32(&want, (uint32_t)core_id[c]);
		pd_bytes_u32(&want, core_id[c] < 0 ? UINT32_MAX : 0);
	}
	if (die) {
		pd_bytes_u32(&want, 1), pd_bytes_string(&want, "0-7");
		for (int c = 0; c < 8; c++)
			pd_bytes_u32(&want, core_id[c] < 0 ? UINT32_MAX : 0);
	}
	expect_feature(v, PD_FEAT_CPU_TOPOLOGY, "CPU_TOPOLOGY");
}

static void expect_caches(const uint8_t *v)
{
	pd_bytes_u32(&want, 1), pd_bytes_u32(&want, 4);   /* version, count */
	for (int level = 1; level <= 2; level++) {
		for (int pair = 0; pair < 2; pair++) {
			pd_bytes_u32(&want, (uint32_t)level), pd_bytes_u32(&want, 64);
			pd_bytes_u32(&want, level == 2 ? 2048 : 64);
			pd_bytes_u32(&want, level == 2 ? 16 : 8);
			pd_bytes_string(&want, level == 2 ? "Unified" : "Data");
			pd_bytes_string(&want, level == 2 ? "1024K" : "32K");
			pd_bytes_string(&want, pair ? "2-3" : "0-1");
		}
	}
	expect_feature(v, PD_FEAT_CACHE, "CACHE (by level, in the order found)");
}

/* The host features from a tree, byte for byte in perf's layouts; NRCPUS
 * read back by the reader. */
static void host_features(void)
{
	char path[600], root[600];
	snprintf(path, sizeof(path), "%s/host.data", dir);
	snprintf(root, sizeof(root), "%s/tracefs/host", dir);
	make_host();
	struct pd_event ev[2];
	events(ev);
	struct pmurt_error err = {0};
	struct pd_writer *w;
	CHECK(pd_writer_open(&w, path, ev, 2, &err) == 0, "%s", err.message);
	pd_writer_host_root(w, root);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	size_t n;
	uint8_t *v = slurp(path, &n);
	pd_bytes_u32(&want, 8), pd_bytes_u32(&want, 4);
	expect_feature(v, PD_FEAT_NRCPUS, "NRCPUS: present 0-7, online 0-2,5");
	pd_bytes_string(&want, "GenuineIntel,6,85,4");
	expect_feature(v, PD_FEAT_CPUID, "CPUID");
	struct utsname u;
	uname(&u);
	pd_bytes_string(&want, strncmp(u.machine, "ppc", 3) ? "Intel(R) Xeon(R) Gold 6148"
							    : "POWER10 (architected)");
	expect_feature(v, PD_FEAT_CPUDESC, "CPUDESC");
	pd_bytes_u64(&want, 16384);
	expect_feature(v, PD_FEAT_TOTAL_MEM, "TOTAL_MEM");
	/* POWER: the PVR's version and revision in decimal, from cpuinfo's
	 * revision line (arch/powerpc/kernel/setup-common.c show_cpuinfo) */
	char ppc[700];
	struct pd_bytes got = {0};
	make_file("host-ppc/proc/cpuinfo", "processor\t: 0\ncpu\t\t: POWER10 (architected), "
		  "altivec supported\nclock\t\t: 2750.000000MHz\nrevision\t: 2.0 (pvr 0080 0200)\n");
	snprintf(ppc, sizeof(ppc), "%s/tracefs/host-ppc", dir);
	pd_bytes_string(&want, "128,512");
	CHECK(pd_host_feature(PD_FEAT_CPUID, ppc, &got) == 1 && got.n == want.n &&
	      !memcmp(got.p, want.p, want.n), "POWER's CPUID");
	pd_bytes_free(&got);
	pd_bytes_free(&want);
	expect_topology(v);
	expect_caches(v);
	pd_bytes_u32(&want, 1), pd_bytes_u32(&want, 0), pd_bytes_u64(&want, 16384),
		pd_bytes_u64(&want, 8192), pd_bytes_string(&want, "0-7");
	expect_feature(v, PD_FEAT_NUMA_TOPOLOGY, "NUMA_TOPOLOGY");
	pd_bytes_u64(&want, 1), pd_bytes_u64(&want, 0x8000000), pd_bytes_u64(&want, 1);
	pd_bytes_u64(&want, 0), pd_bytes_u64(&want, 3), pd_bytes_u64(&want, 3), pd_bytes_u64(&want, 5);
	expect_feature(v, PD_FEAT_MEM_TOPOLOGY, "MEM_TOPOLOGY: blocks 0 and 2");
	pd_bytes_u32(&want, 1), pd_bytes_string(&want, "max_precise"), pd_bytes_string(&want, "3");
	expect_feature(v, PD_FEAT_CPU_PMU_CAPS, "CPU_PMU_CAPS");
	pd_bytes_u32(&want, 1), pd_bytes_u32(&want, 1), pd_bytes_string(&want, "psb_cyc"),
		pd_bytes_string(&want, "1"), pd_bytes_string(&want, "pt");
	expect_feature(v, PD_FEAT_PMU_CAPS, "PMU_CAPS");
	uint64_t size = 0;
	const uint8_t *p = feature_of(v, PD_FEAT_PMU_MAPPINGS, &size);
	CHECK(p && size == 4 + 2 * 72 && pd_get32(p) == 2, "PMU_MAPPINGS: %llu bytes",
	      (unsigned long long)size);
	for (int k = 0; p && size == 4 + 2 * 72 && k < 2; k++) {
		const uint8_t *m = p + 4 + 72 * k;
		const char *name = (const char *)m + 8;
		CHECK(pd_get32(m + 4) == 64 && ((pd_get32(m) == 4 && !strcmp(name, "cpu")) ||
						 (pd_get32(m) == 9 && !strcmp(name, "pt"))),
		      "PMU_MAPPINGS entry %d: %u %s", k, pd_get32(m), name);
	}
	CHECK(!feature_of(v, PD_FEAT_GROUP_DESC, &size) && !feature_of(v, PD_FEAT_CLOCKID, &size),
	      "no group, no clock: no GROUP_DESC, no CLOCKID");
	/* event 0 samples the branch stack: the empty section perf writes */
	CHECK(feature_of(v, PD_FEAT_BRANCH_STACK, &size) && size == 0, "BRANCH_STACK");
	free(v);
	struct pmurt_perf_file *f;
	struct pmurt_perf_info info = {.sz = sizeof(info)};
	CHECK(pmurt_perf_open(&f, path, &err) == 0 && pmurt_perf_info(f, &info) == 0 &&
	      info.nr_cpus_avail == 8 && info.nr_cpus_online == 4, "nrcpus read back %u, %u: %s",
	      info.nr_cpus_avail, info.nr_cpus_online, err.message);
	pmurt_perf_close(f);
}

/* GROUP_DESC: a group of three led by event 1, event 0 alone; SAMPLE_TIME
 * from the samples (the earliest and the latest, not the first and last
 * in the file); CLOCKID's resolution with use_clockid. */
static void group_and_times(void)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/group.data", dir);
	struct pd_event ev[4];
	uint64_t ids[4] = {1, 2, 3, 4};
	memset(ev, 0, sizeof(ev));
	for (int e = 0; e < 4; e++) {
		ev[e].attr.type = PERF_TYPE_SOFTWARE;
		ev[e].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					 PERF_SAMPLE_TIME;
		ev[e].attr.use_clockid = 1;
		ev[e].attr.clockid = CLOCK_MONOTONIC;
		ev[e].ids = &ids[e], ev[e].nids = 1, ev[e].name = "cpu-clock";
	}
	ev[1].group_size = 3;
	struct pmurt_error err = {0};
	struct pd_writer *w;
	CHECK(pd_writer_open(&w, path, ev, 4, &err) == 0, "%s", err.message);
	static const uint64_t times[] = {5000, 3000, 9000, 7000};
	for (int k = 0; k < 4; k++) {
		struct buf b;
		start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&b, 2), put64(&b, 0x401000), put32(&b, 7), put32(&b, 7), put64(&b, times[k]);
		CHECK(pd_writer_add(w, done(&b, NULL), &err) == 0, "%s", err.message);
	}
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	ev[3].group_size = 2;   /* a group past the last event */
	CHECK(pd_writer_open(&w, path, ev, 4, &err) == -EINVAL && strstr(err.message, "group of 2"),
	      "a group past the events: %s", err.message);
	size_t n;
	uint8_t *v = slurp(path, &n);
	pd_bytes_u32(&want, 1), pd_bytes_string(&want, "{anon_group}");
	pd_bytes_u32(&want, 1), pd_bytes_u32(&want, 3);
	expect_feature(v, PD_FEAT_GROUP_DESC, "GROUP_DESC");
	pd_bytes_u64(&want, 3000), pd_bytes_u64(&want, 9000);
	expect_feature(v, PD_FEAT_SAMPLE_TIME, "SAMPLE_TIME");
	uint64_t size;
	CHECK(!feature_of(v, PD_FEAT_BRANCH_STACK, &size), "BRANCH_STACK without branch sampling");
	struct timespec res;
	clock_getres(CLOCK_MONOTONIC, &res);
	pd_bytes_u64(&want, (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec);
	expect_feature(v, PD_FEAT_CLOCKID, "CLOCKID");
	free(v);
}

/* An MMAP2 record (no build id in it) of pid mapping path at addr. */
static const void *mmap2(struct buf *b, uint32_t pid, uint64_t addr, const char *path)
{
	start(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(b, pid), put32(b, pid), put64(b, addr), put64(b, 0x100000), put64(b, 0);
	put64(b, 0), put64(b, 0), put64(b, 0), put32(b, 5), put32(b, 2);
	return done(b, path);
}

static void user_sample(struct pd_writer *w, uint32_t pid, uint64_t ip, uint16_t mode)
{
	struct buf b;
	struct pmurt_error err = {0};
	start(&b, PERF_RECORD_SAMPLE, mode);
	put64(&b, 2), put64(&b, ip), put32(&b, pid), put32(&b, pid), put64(&b, 1000);
	CHECK(pd_writer_add(w, done(&b, NULL), &err) == 0, "%s", err.message);
}

/* BUILD_ID: the files samples hit, a forked child's through its parent's
 * maps; a file mapped and not hit (pd_copy, beside this program) left out;
 * a sample of a process without maps hitting nothing; the vDSO whenever
 * mapped; the
 * kernel's id from the tree's /sys/kernel/notes.  Each record as
 * write_buildid lays it out. */
static void build_ids(const char *self)
{
	char path[600], root[600];
	snprintf(path, sizeof(path), "%s/buildid.data", dir);
	snprintf(root, sizeof(root), "%s/tracefs/host", dir);
	static const uint8_t notes[] = {4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
					1, 2, 3, 4, 5, 6, 7, 8};
	char notes_path[700];
	snprintf(notes_path, sizeof(notes_path), "%s/sys/kernel/notes", root);
	make_file("host/sys/kernel/notes", "");
	spit(notes_path, notes, sizeof(notes));
	struct pd_event ev[2];
	events(ev);
	ev[1].attr.sample_id_all = 0;
	struct pmurt_error err = {0};
	struct pd_writer *w;
	struct buf b;
	CHECK(pd_writer_open(&w, path, &ev[1], 1, &err) == 0, "%s", err.message);
	pd_writer_host_root(w, root);
	CHECK(pd_writer_add(w, mmap2(&b, 100, 0x400000, self), &err) == 0, "%s", err.message);
	char other[700];   /* an ELF file with a build id, mapped, not hit */
	snprintf(other, sizeof(other), "%.*s/pd_copy", (int)(strrchr(self, '/') - self), self);
	CHECK(pd_writer_add(w, mmap2(&b, 100, 0x800000, other), &err) == 0, "%s", err.message);
	CHECK(pd_writer_add(w, mmap2(&b, 100, 0x900000, "[vdso]"), &err) == 0, "%s", err.message);
	start(&b, PERF_RECORD_FORK, 0);
	put32(&b, 200), put32(&b, 100), put32(&b, 200), put32(&b, 100), put64(&b, 900);
	CHECK(pd_writer_add(w, done(&b, NULL), &err) == 0, "%s", err.message);
	user_sample(w, 200, 0x401000, PERF_RECORD_MISC_USER);     /* the child, in self */
	user_sample(w, 300, 0x801000, PERF_RECORD_MISC_USER);     /* no map of pid 300 */
	user_sample(w, 200, 0xffffffff81000000ull, PERF_RECORD_MISC_KERNEL);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	uint8_t id[PD_BUILD_ID_MAX];
	size_t id_len = 0;
	CHECK(pd_elf_build_id(self, id, &id_len) == 0 && id_len == 20, "%s: no build id", self);
	size_t n;
	uint8_t *v = slurp(path, &n);
	uint64_t size = 0;
	const uint8_t *p = feature_of(v, PD_FEAT_BUILD_ID, &size);
	int found = 0;
	for (uint64_t at = 0; p && at + 36 <= size;) {
		uint16_t misc, rsize;
		memcpy(&misc, p + at + 4, 2);
		memcpy(&rsize, p + at + 6, 2);
		const char *name = (const char *)p + at + 36;
		CHECK(pd_get32(p + at) == 0 && pd_get32(p + at + 8) == UINT32_MAX &&
		      rsize == 36 + (strlen(name) + 64) / 64 * 64 && (misc & 0x8000),
		      "record of %s: type %u, pid %d, size %u, misc %#x", name, pd_get32(p + at),
		      (int)pd_get32(p + at + 8), rsize, misc);
		int which = !strcmp(name, self) ? 1 : !strcmp(name, "[kernel.kallsyms]") ? 2
			    : !strcmp(name, "[vdso]") ? 4 : 0;
		found |= which;
		CHECK(which, "a record of %s, which no sample hit", name);
		CHECK(which != 1 || (!memcmp(p + at + 12, id, 20) && p[at + 32] == 20 &&
				     (misc & 7) == PERF_RECORD_MISC_USER), "%s's record", self);
		CHECK(which != 2 || (!memcmp(p + at + 12, notes + 16, 8) && p[at + 32] == 8 &&
				     (misc & 7) == PERF_RECORD_MISC_KERNEL), "the kernel's record");
		at += rsize ? rsize : size;
	}
	CHECK(found == 7, "records found: %#x of 7 (self, kernel, vDSO)", found);
	struct pmurt_perf_file *f;
	uint8_t got[PD_BUILD_ID_MAX];
	size_t got_len = 0;
	CHECK(pmurt_perf_open(&f, path, &err) == 0 &&
	      pd_recorded_build_id(f, self, got, &got_len) == 0 && got_len == 20 &&
	      !memcmp(got, id, 20) && pd_recorded_build_id(f, other, got, &got_len) == -ENOENT,
	      "the reader's look-up: %s", err.message);
	pmurt_perf_close(f);
	free(v);
}

/* Every record of a perf record -z file, then each decompressed one found
 * again by its offset, the same bytes (every 7th, from the last back). */
static void compressed_read(const char *path)
{
	struct pmurt_error err = {0};
	struct pmurt_perf_file *f;
	CHECK(pmurt_perf_open(&f, path, &err) == 0, "%s", err.message);
	if (!f)
		return;
	struct pmurt_perf_record r = {.sz = sizeof(r)};
	uint64_t offsets[4096];
	const void *data[4096];
	int n = 0, samples = 0, inside = 0, rc;
	while ((rc = pmurt_perf_next(f, &r, &err)) == 1 && n < 4096) {
		CHECK(r.type != PD_RECORD_COMPRESSED, "a compressed record handed out");
		inside += !!(r.offset & PMURT_PERF_OFFSET_DECOMPRESSED);
		samples += r.type == PERF_RECORD_SAMPLE;
		CHECK((uintptr_t)r.data % 8 == 0, "record at %#llx not aligned",
		      (unsigned long long)r.offset);
		offsets[n] = r.offset;
		data[n++] = r.data;
	}
	CHECK(rc == 0, "%s", err.message);
	CHECK(samples > 0 && inside > samples, "%d samples, %d records decompressed", samples,
	      inside);
	for (int i = n - 1; i >= 0; i -= 7) {
		CHECK(pmurt_perf_seek(f, offsets[i]) == 0 && pmurt_perf_next(f, &r, &err) == 1 &&
		      r.offset == offsets[i] && (r.data == data[i] ||   /* or copied again, aligned */
		      (!(r.offset & PMURT_PERF_OFFSET_DECOMPRESSED) && !memcmp(r.data, data[i], r.size))),
		      "record %d at %#llx not found again",
		      i, (unsigned long long)offsets[i]);
	}
	CHECK(pmurt_perf_seek(f, PMURT_PERF_OFFSET_DECOMPRESSED | 4) == -EINVAL, "misaligned seek");
	CHECK(pmurt_perf_seek(f, PMURT_PERF_OFFSET_DECOMPRESSED | 99999ull << 32) == -EINVAL,
	      "seek to no chunk");
	pmurt_perf_close(f);
	printf("%s: %d records, %d decompressed, %d samples\n", path, n, inside, samples);
}

/* A zstd skippable frame over n bytes at p (n >= 8), which a stream
 * passes over. */
static void skippable(uint8_t *p, size_t n)
{
	uint32_t skip[2] = {0x184D2A50, (uint32_t)(n - 8)};
	memcpy(p, skip, 8);
	memset(p + 8, 0, n - 8);
}

/* The stream of an n-byte file replaced by one zstd frame of plain in the
 * compressed record at at, padded to its old size with a skippable frame,
 * and skippable frames in the compressed records after it. */
static void recompress(uint8_t *v, size_t n, uint64_t at, const void *plain, size_t len)
{
	uint16_t size;
	memcpy(&size, v + at + 6, 2);
	size_t room = size - 8u;
	size_t z = ZSTD_compress(v + at + 8, room, plain, len, 1);
	CHECK(!ZSTD_isError(z) && room - z >= 8, "payload of %zu bytes", z);
	skippable(v + at + 8 + z, room - z);
	uint64_t end = pd_get64(v + 40) + pd_get64(v + 48);
	for (at += size; at + 8 <= end && at + 8 <= n; at += size) {
		memcpy(&size, v + at + 6, 2);
		if (size < 8)
			break;
		if (pd_get32(v + at) == PD_RECORD_COMPRESSED)
			skippable(v + at + 8, size - 8u);
	}
}

static void compressed_errors(const char *path)
{
	size_t n;
	uint8_t *v = slurp(path, &n), *c = malloc(n);
	uint64_t at = record_at(v, PD_RECORD_COMPRESSED), feat_size = 0;
	const uint8_t *feat = feature_of(v, PD_FEAT_COMPRESSED, &feat_size);
	CHECK(at < n && feat && feat_size == 20, "no compressed record or feature");
	if (at >= n || !feat)
		return;
	size_t feat_at = (size_t)(feat - v);
	char needle[160];
	uint16_t size;
	memcpy(&size, v + at + 6, 2);
	memcpy(c, v, n);
	expect_error_free(c, n);
	c[at + 8 + size / 2] ^= 0x5a;
	c[at + 8 + size / 2 + 1] ^= 0xa5;
	snprintf(needle, sizeof(needle), "offset 0x%llx: compressed record", (unsigned long long)at);
	expect_error("corrupt payload", c, n, needle);
	/* a payload cut short: the rest is taken for the next record */
	memcpy(c, v, n);
	uint16_t shorter = (uint16_t)(size - 5);
	memcpy(c + at + 6, &shorter, 2);
	snprintf(needle, sizeof(needle), "offset 0x%llx: compressed record's %u-byte payload stops "
		 "inside a zstd block", (unsigned long long)at, shorter - 8u);
	expect_error("cut payload", c, n, needle);
	memcpy(c, v, n);
	c[feat_at + 4] = 2;
	expect_error("type 2", c, n, "the COMPRESSED feature's type 2 is not zstd (1)");
	memcpy(c, v, n);
	memset(c + feat_at + 16, 0, 4);
	expect_error("mmap_len 0", c, n, "COMPRESSED feature: mmap_len 0 is 0");
	c[feat_at + 16] = 64;
	expect_error("mmap_len 64", c, n, "decompresses to more than the 64 bytes");
	/* records inside: bad size, cut at the end, a compressed one */
	uint8_t plain[32] = {0};
	uint32_t type = PD_RECORD_FINISHED_ROUND;
	memcpy(plain, &type, 4), plain[6] = 8;
	memcpy(plain + 8, &type, 4), plain[14] = 8;
	memcpy(c, v, n);
	recompress(c, n, at, plain, 16);
	expect_error_free(c, n);
	plain[14] = 12;
	recompress(c, n, at, plain, 16);
	snprintf(needle, sizeof(needle), "offset 0x%llx: compressed record, byte 8 of its "
		 "decompressed data: record size 12 is not a multiple of 8",
		 (unsigned long long)at);
	expect_error("size 12 inside", c, n, needle);
	plain[14] = 24;
	recompress(c, n, at, plain, 16);
	expect_error("cut inside", c, n, "the compressed records end inside a record (8 bytes "
		     "of it): truncated?");
	type = PD_RECORD_COMPRESSED;
	memcpy(plain + 8, &type, 4), plain[14] = 16;
	recompress(c, n, at, plain, 24);
	expect_error("nested", c, n, "a compressed record inside compressed data");
	free(c);
	free(v);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 4)
		return 2;
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	char good[600];
	snprintf(good, sizeof(good), "%s/good.data", dir);
	write_file(good);
	read_back(good);
	named_errors(good);
	short_records(good);
	damaged(good);
	writer_refusals();
	tracing_feature();
	spans_written();
	padded_payload();
	host_features();
	group_and_times();
	char self[600];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[k > 0 ? k : 0] = 0;
	build_ids(self);
	if (argc == 4) {
		compressed_read(argv[2]);
		compressed_read(argv[3]);
		compressed_errors(argv[2]);
		damaged(argv[2]);
	}
	return failures ? 1 : 0;
}

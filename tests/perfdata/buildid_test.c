/*
 * buildid_test.c - the writer's BUILD_ID and SAMPLE_TIME features against
 * the records that made them: the same records written one by one and in
 * one span give the same file byte for byte; their BUILD_ID records and
 * sample times, rendered as text, are those the writer made before it
 * collected them as the records went through (when it read its file back:
 * tests/data/perfdata/buildid-in-order.txt, written by that code); and
 * records out of time order across CPUs (a ring drained after another
 * holding an earlier MMAP2) count as perf's ordered events count them,
 * round by round; a map holds the samples from its first byte to its last.
 * Then perf's build-id cache (buildid_cache.c): a DSO, the kernel's
 * kallsyms and the vDSO kept in perf 6.1's layout, found again by build
 * id; a file replaced since its recording not kept; the directory from
 * perf's config.
 * The DSOs are small ELF files the test writes, with build ids of its own.
 *
 * usage: buildid_test DIR GOLDEN   (scratch files go in DIR)
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../check.h"
#include "perfdata.h"
#include "record_buf.h"

static int failures;
static char dir[512];

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
static const uint64_t ids[] = {7, 8};

/* An ELF64 file of one PT_NOTE segment holding a GNU build id of 20
 * bytes, each `fill`. */
static void make_dso(const char *name, uint8_t fill)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	Elf64_Ehdr eh = {.e_phoff = sizeof(Elf64_Ehdr), .e_phnum = 1,
			 .e_phentsize = sizeof(Elf64_Phdr), .e_ehsize = sizeof(Elf64_Ehdr)};
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	uint8_t note[36] = {4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0};
	memset(note + 16, fill, 20);
	Elf64_Phdr ph = {.p_type = PT_NOTE, .p_offset = sizeof(eh) + sizeof(Elf64_Phdr),
			 .p_filesz = sizeof(note)};
	FILE *fp = fopen(path, "wb");
	CHECK(fp, "cannot create %s", path);
	if (!fp)
		return;
	fwrite(&eh, sizeof(eh), 1, fp);
	fwrite(&ph, sizeof(ph), 1, fp);
	fwrite(note, sizeof(note), 1, fp);
	fclose(fp);
}

/* The records of a test, back to back as a ring holds them. */
struct recs {
	uint8_t b[8192];
	size_t n;
};

static void add(struct recs *r, const void *rec)
{
	uint16_t size;
	memcpy(&size, (const uint8_t *)rec + 6, 2);
	memcpy(r->b + r->n, rec, size);
	r->n += size;
}

/* The sample_id_all trailer of event 0: pid/tid, time, cpu, identifier. */
static void trailer(struct buf *b, uint32_t pid, uint64_t time, uint32_t cpu)
{
	put32(b, pid), put32(b, pid), put64(b, time), put32(b, cpu), put32(b, 0);
	put64(b, ids[cpu & 1]);
}

/* Kernel records carry the name, then the trailer: built by hand. */
static void named(struct recs *r, struct buf *b, const char *name, uint32_t pid,
		  uint64_t time, uint32_t cpu)
{
	put(b, name, strlen(name) + 1);
	while (b->n % 8)
		b->b[b->n++] = 0;
	trailer(b, pid, time, cpu);
	add(r, done(b, NULL));
}

static void mmap2(struct recs *r, uint32_t pid, uint64_t addr, const char *dso, uint64_t time,
		  uint32_t cpu)
{
	char path[600];
	struct buf b;
	snprintf(path, sizeof(path), "%s/%s", dir, dso);
	start(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(&b, pid), put32(&b, pid), put64(&b, addr), put64(&b, 0x10000), put64(&b, 0);
	put64(&b, 0), put64(&b, 0), put64(&b, 0), put32(&b, 5), put32(&b, 2);
	named(r, &b, path, pid, time, cpu);
}

static void old_mmap(struct recs *r, uint32_t pid, uint64_t addr, const char *dso,
		     uint64_t time)
{
	char path[600];
	struct buf b;
	snprintf(path, sizeof(path), "%s/%s", dir, dso);
	start(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	put32(&b, pid), put32(&b, pid), put64(&b, addr), put64(&b, 0x10000), put64(&b, 0);
	named(r, &b, path, pid, time, 0);
}

static void task(struct recs *r, uint32_t type, uint32_t pid, uint32_t ppid, uint64_t time)
{
	struct buf b;
	start(&b, type, 0);
	put32(&b, pid), put32(&b, ppid), put32(&b, pid), put32(&b, ppid), put64(&b, time);
	trailer(&b, pid, time, 0);
	add(r, done(&b, NULL));
}

static void comm(struct recs *r, uint32_t pid, const char *name, uint64_t time)
{
	struct buf b;
	start(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32(&b, pid), put32(&b, pid);
	named(r, &b, name, pid, time, 0);
}

static void sample(struct recs *r, uint32_t pid, uint64_t ip, uint16_t mode, uint64_t time,
		   uint32_t cpu)
{
	struct buf b;
	start(&b, PERF_RECORD_SAMPLE, mode);
	put64(&b, ids[cpu & 1]), put64(&b, ip), put32(&b, pid), put32(&b, pid), put64(&b, time);
	put32(&b, cpu), put32(&b, 0), put64(&b, 100000);
	add(r, done(&b, NULL));
}

static void round_end(struct recs *r)
{
	struct perf_event_header h = {PD_RECORD_FINISHED_ROUND, 0, sizeof(h)};
	add(r, &h);
}

/* Writes recs to path one by one (spans false) or each run between
 * FINISHED_ROUNDs as one span (those records one by one). */
static void write_recs(const char *path, const struct recs *r, bool spans)
{
	struct pd_event ev = {.ids = ids, .nids = 2, .name = "cpu-clock"};
	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.sample_type = SAMPLE_TYPE;
	ev.attr.sample_id_all = 1;
	char root[600];
	snprintf(root, sizeof(root), "%s/host", dir);
	struct pmurt_error err = {0};
	struct pd_writer *w;
	CHECK(pd_writer_open(&w, path, &ev, 1, &err) == 0, "%s", err.message);
	if (!w)
		return;
	pd_writer_host_root(w, root);
	size_t run = 0;
	for (size_t at = 0; at < r->n;) {
		struct perf_event_header h;
		memcpy(&h, r->b + at, sizeof(h));
		bool round = h.type == PD_RECORD_FINISHED_ROUND;
		if (spans && round && at > run)
			CHECK(pd_writer_add_span(w, r->b + run, at - run, &err) == 0, "%s",
			      err.message);
		if (!spans || round)
			CHECK(pd_writer_add(w, r->b + at, &err) == 0, "%s", err.message);
		at += h.size;
		run = round ? at : run;
	}
	if (spans && r->n > run)
		CHECK(pd_writer_add_span(w, r->b + run, r->n - run, &err) == 0, "%s", err.message);
	CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
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

/* The file's BUILD_ID records, one line each (every field of the record;
 * DIR for the scratch directory), then its SAMPLE_TIME. */
static void render(const uint8_t *v, char *out, size_t cap)
{
	size_t n = 0, dlen = strlen(dir);
	uint64_t size = 0;
	const uint8_t *p = feature_of(v, PD_FEAT_BUILD_ID, &size);
	out[0] = 0;
	for (uint64_t at = 0; p && at + 36 <= size && n < cap;) {
		uint16_t misc, rsize;
		memcpy(&misc, p + at + 4, 2);
		memcpy(&rsize, p + at + 6, 2);
		const char *name = (const char *)p + at + 36;
		bool in_dir = !strncmp(name, dir, dlen);
		bool padded = rsize == 36 + (strlen(name) + 64) / 64 * 64;   /* NAME_ALIGN */
		n += (size_t)snprintf(out + n, cap - n, "type %u misc %#x size %s pid %d id ",
				      pd_get32(p + at), misc, padded ? "36+name" : "wrong",
				      (int)pd_get32(p + at + 8));
		for (int i = 0; i < 20 && n < cap; i++)
			n += (size_t)snprintf(out + n, cap - n, "%02x", p[at + 12 + i]);
		if (n < cap)
			n += (size_t)snprintf(out + n, cap - n, " len %u pad %02x%02x%02x %s%s\n",
					      p[at + 32], p[at + 33], p[at + 34], p[at + 35],
					      in_dir ? "DIR" : "", name + (in_dir ? dlen : 0));
		at += rsize ? rsize : size;
	}
	p = feature_of(v, PD_FEAT_SAMPLE_TIME, &size);
	if (n < cap)
		snprintf(out + n, cap - n, "sample times %llu %llu\n",
			 p && size == 16 ? (unsigned long long)pd_get64(p) : 0ull,
			 p && size == 16 ? (unsigned long long)pd_get64(p + 8) : 0ull);
}

/* Writes r both ways: the two files are the same bytes; their features'
 * text goes into text. */
static void both_ways(const char *name, const struct recs *r, char *text, size_t cap)
{
	char one[600], span[600];
	snprintf(one, sizeof(one), "%s/%s-records.data", dir, name);
	snprintf(span, sizeof(span), "%s/%s-spans.data", dir, name);
	write_recs(one, r, false);
	write_recs(span, r, true);
	size_t n1, n2;
	uint8_t *v1 = slurp(one, &n1), *v2 = slurp(span, &n2);
	CHECK(n1 > 104 && n1 == n2 && !memcmp(v1, v2, n1), "%s: %zu bytes one by one, %zu in "
	      "spans, or they differ", name, n1, n2);
	render(v1, text, cap);
	free(v1);
	free(v2);
}

/* Samples in time order, two CPUs: a child through its parent's maps (the
 * only sample in dso-a), an MMAP record, a file mapped and not hit, the
 * kernel, a process without maps, COMM and EXIT records, two rounds. */
static void in_order(const char *golden)
{
	struct recs r = {.n = 0};
	mmap2(&r, 100, 0x400000, "dso-a", 10, 0);
	comm(&r, 100, "work", 11);
	old_mmap(&r, 100, 0x7f0000, "dso-b", 12);
	mmap2(&r, 100, 0x900000, "dso-c", 13, 1);
	task(&r, PERF_RECORD_FORK, 200, 100, 20);
	sample(&r, 200, 0x401000, PERF_RECORD_MISC_USER, 30, 0);
	sample(&r, 100, 0x7f0100, PERF_RECORD_MISC_USER, 31, 1);
	sample(&r, 200, 0xc000000000001000ull, PERF_RECORD_MISC_KERNEL, 32, 1);
	sample(&r, 300, 0x901000, PERF_RECORD_MISC_USER, 33, 0);
	task(&r, PERF_RECORD_EXIT, 200, 100, 40);
	round_end(&r);
	sample(&r, 100, 0x7f0200, PERF_RECORD_MISC_USER, 50, 0);
	char text[4096], want[4096] = "";
	both_ways("in-order", &r, text, sizeof(text));
	FILE *fp = fopen(golden, "r");
	size_t n = fp ? fread(want, 1, sizeof(want) - 1, fp) : 0;
	want[n] = 0;
	if (fp)
		fclose(fp);
	CHECK(!strcmp(text, want), "in order: got\n%s\nwant (%s)\n%s", text, golden, want);
}

/* CPU 0's ring drained before CPU 1's: a sample at 60 in dso-d comes
 * before in the file, after in time, CPU 1's MMAP2 of dso-d at 50 (hit, as
 * perf's ordered events deliver the MMAP2 first); CPU 1's sample at 40 in
 * dso-e is before dso-e's MMAP2 at 45 in time, after it in the file (not
 * hit: nothing was mapped there at 40). */
static void out_of_order(void)
{
	struct recs r = {.n = 0};
	mmap2(&r, 100, 0x500000, "dso-e", 45, 0);
	sample(&r, 100, 0x601000, PERF_RECORD_MISC_USER, 60, 0);
	mmap2(&r, 100, 0x600000, "dso-d", 50, 1);
	sample(&r, 100, 0x501000, PERF_RECORD_MISC_USER, 40, 1);
	round_end(&r);
	char text[4096];
	both_ways("out-of-order", &r, text, sizeof(text));
	CHECK(strstr(text, "DIR/dso-d\n") && !strstr(text, "dso-e") &&
	      strstr(text, "sample times 40 60\n"), "out of order:\n%s", text);
}

/* Rounds as perf's ordered events flush them: at each FINISHED_ROUND the
 * records up to the latest time of the round before.  dso-f's MMAP2 (90)
 * comes a round after a sample in it (100), dso-g's (250) a round after
 * another (300): both in time to count.  Round 4's MMAP2 of dso-h (50) and
 * its sample (60) are older than the flush before them: still delivered in
 * time order, counted.  A sample in dso-i (200) in round 4 is delivered at
 * its end (up to 300), before dso-i's MMAP2 (150) of round 5: not counted,
 * where sorting the whole file by time would count it.  A FORK and an
 * MMAP2 of a header alone change nothing. */
static void rounds(void)
{
	struct recs r = {.n = 0};
	struct perf_event_header bare[2] = {{PERF_RECORD_FORK, 0, 8}, {PERF_RECORD_MMAP2, 0, 8}};
	add(&r, &bare[0]);   /* too short to say anything: no effect */
	add(&r, &bare[1]);
	sample(&r, 100, 0xa01000, PERF_RECORD_MISC_USER, 100, 0);
	round_end(&r);
	mmap2(&r, 100, 0xa00000, "dso-f", 90, 1);
	sample(&r, 100, 0xb01000, PERF_RECORD_MISC_USER, 300, 0);
	round_end(&r);
	mmap2(&r, 100, 0xb00000, "dso-g", 250, 1);
	round_end(&r);
	mmap2(&r, 100, 0xc00000, "dso-h", 50, 1);
	sample(&r, 100, 0xc01000, PERF_RECORD_MISC_USER, 60, 0);
	sample(&r, 100, 0xd01000, PERF_RECORD_MISC_USER, 200, 0);
	round_end(&r);
	mmap2(&r, 100, 0xd00000, "dso-i", 150, 1);
	round_end(&r);
	char text[4096];
	both_ways("rounds", &r, text, sizeof(text));
	CHECK(strstr(text, "DIR/dso-f\n") && strstr(text, "DIR/dso-g\n") &&
	      strstr(text, "DIR/dso-h\n") && !strstr(text, "dso-i") &&
	      strstr(text, "sample times 60 300\n"), "rounds:\n%s", text);
}

/* A round whose samples are partly due at the next flush (the writer keeps
 * the samples of a round together): at its end (up to 400), the late
 * sample at 350 is delivered before dso-k's MMAP2 (360, not hit) and those
 * at 700 (pid 100) and 710 (pid 300) are held to the next, where dso-l's
 * MMAP2 for pid 100 (650) and dso-m's for pid 300 (705) come first: both
 * hit, each by its own process's sample. */
static void late_in_round(void)
{
	struct recs r = {.n = 0};
	mmap2(&r, 100, 0xe00000, "dso-j", 10, 0);
	sample(&r, 100, 0xe01000, PERF_RECORD_MISC_USER, 100, 0);
	sample(&r, 100, 0xe02000, PERF_RECORD_MISC_USER, 400, 0);
	round_end(&r);
	sample(&r, 100, 0xf01000, PERF_RECORD_MISC_USER, 350, 1);
	mmap2(&r, 100, 0xf00000, "dso-k", 360, 1);
	sample(&r, 100, 0x1001000, PERF_RECORD_MISC_USER, 700, 1);
	sample(&r, 300, 0x1201000, PERF_RECORD_MISC_USER, 710, 0);
	round_end(&r);
	mmap2(&r, 100, 0x1000000, "dso-l", 650, 0);
	mmap2(&r, 300, 0x1200000, "dso-m", 705, 1);
	round_end(&r);
	char text[4096];
	both_ways("late-in-round", &r, text, sizeof(text));
	CHECK(strstr(text, "DIR/dso-j\n") && !strstr(text, "dso-k") &&
	      strstr(text, "DIR/dso-l\n") && strstr(text, "DIR/dso-m\n") &&
	      strstr(text, "sample times 100 710\n"), "late in a round:\n%s", text);
}

/* A map holds its first byte and its last, not the bytes around it (perf
 * 6.1 maps__find: start <= ip < end; MMAP2's end is start + len, each map
 * here 0x10000 bytes).  dso-n is hit at its first byte, dso-o at its last;
 * dso-p at its first, then dso-r, mapped right after it, at its first (the
 * byte after dso-p's last: the writer's last-hit map must not take it);
 * dso-q is hit neither by the byte before it nor by the byte after it. */
static void map_bounds(void)
{
	struct recs r = {.n = 0};
	mmap2(&r, 100, 0x2000000, "dso-n", 10, 0);
	mmap2(&r, 100, 0x2100000, "dso-o", 11, 0);
	mmap2(&r, 100, 0x2200000, "dso-p", 12, 0);
	mmap2(&r, 100, 0x2210000, "dso-r", 13, 0);
	mmap2(&r, 100, 0x2300000, "dso-q", 14, 0);
	sample(&r, 100, 0x2000000, PERF_RECORD_MISC_USER, 20, 0);
	sample(&r, 100, 0x210ffff, PERF_RECORD_MISC_USER, 21, 0);
	sample(&r, 100, 0x2200000, PERF_RECORD_MISC_USER, 22, 0);
	sample(&r, 100, 0x2210000, PERF_RECORD_MISC_USER, 23, 0);
	sample(&r, 100, 0x22fffff, PERF_RECORD_MISC_USER, 24, 0);
	sample(&r, 100, 0x2310000, PERF_RECORD_MISC_USER, 25, 0);
	round_end(&r);
	char text[4096];
	both_ways("map-bounds", &r, text, sizeof(text));
	CHECK(strstr(text, "DIR/dso-n\n") && strstr(text, "DIR/dso-o\n") &&
	      strstr(text, "DIR/dso-p\n") && strstr(text, "DIR/dso-r\n") && !strstr(text, "dso-q"),
	      "map bounds:\n%s", text);
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	CHECK(fp, "cannot create %s", path);
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* perf's build-id cache, in the layout perf 6.1 writes and reads. */
static void cache(void)
{
	char cdir[600], path[2000], want[2000], link_to[2000], root[600], dso[600];
	uint8_t id[20];
	snprintf(cdir, sizeof(cdir), "%s/cache.XXXXXX", dir);   /* empty: no earlier run's */
	CHECK(mkdtemp(cdir), "mkdtemp %s", cdir);
	snprintf(root, sizeof(root), "%s/host", dir);
	snprintf(dso, sizeof(dso), "%s/dso-a", dir);
	memset(id, 0xa1, sizeof(id));
	CHECK(pd_build_id_cache_add(cdir, root, dso, id, 20) == 0, "add %s", dso);
	snprintf(want, sizeof(want), "%s%s/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/elf", cdir, dso);
	struct stat st;
	CHECK(stat(want, &st) == 0 && st.st_size > 0, "no %s", want);
	snprintf(path, sizeof(path), "%s/.build-id/a1/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", cdir);
	ssize_t n = readlink(path, link_to, sizeof(link_to) - 1);
	link_to[n > 0 ? n : 0] = 0;
	snprintf(want, sizeof(want), "../..%s/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", dso);
	CHECK(!strcmp(link_to, want), "link '%s', want '%s'", link_to, want);
	CHECK(pd_build_id_cache_find(cdir, dso, id, 20, path, sizeof(path)) == 0 &&
	      strstr(path, "/.build-id/a1/") && strstr(path, "/elf"), "find: '%s'", path);
	/* a second add of the same is no error */
	CHECK(pd_build_id_cache_add(cdir, root, dso, id, 20) == 0, "second add");
	/* replaced since: not kept, not found */
	memset(id, 0x99, sizeof(id));
	CHECK(pd_build_id_cache_add(cdir, root, dso, id, 20) == -ESTALE, "a stale id kept");
	CHECK(pd_build_id_cache_find(cdir, dso, id, 20, path, sizeof(path)) == -ENOENT,
	      "a stale id found");
	/* the kernel: root's /proc/kallsyms under root's build id (1..8) */
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	write_text(path, "ffffffff81000000 T _stext\n");
	static const uint8_t kid[] = {1, 2, 3, 4, 5, 6, 7, 8};
	CHECK(pd_build_id_cache_add(cdir, root, "[kernel.kallsyms]", kid, 8) == 0, "kernel");
	CHECK(pd_build_id_cache_find(cdir, "[kernel.kallsyms]", kid, 8, path, sizeof(path)) == 0 &&
	      strstr(path, "/.build-id/01/02030405060708/kallsyms"), "kallsyms: '%s'", path);
	/* the vDSO: this process's image under its own build id */
	uint8_t vid[20];
	size_t vlen, size;
	if (pd_vdso_build_id(vid, &vlen) == 0 && pd_vdso_image(&size)) {
		CHECK(pd_build_id_cache_add(cdir, root, "[vdso]", vid, vlen) == 0, "vdso");
		CHECK(pd_build_id_cache_find(cdir, "[vdso]", vid, vlen, path, sizeof(path)) == 0 &&
		      stat(path, &st) == 0 && (size_t)st.st_size == size &&
		      st.st_size % getpagesize() == 0, "vdso image: '%s'", path);
	}
	CHECK(pd_build_id_cache_add(cdir, root, "[heap]", id, 20) == -EINVAL, "[heap] kept");
	/* where: perf config's buildid.dir, else $HOME/.debug */
	snprintf(path, sizeof(path), "%s/perfconfig", dir);
	write_text(path, "[core]\n\tproc-map-timeout = 500\n[buildid]\n\tdir = /var/cache/x \n");
	unsetenv("PERF_BUILDID_DIR");
	setenv("PERF_CONFIG", path, 1);
	setenv("HOME", dir, 1);
	CHECK(pd_build_id_cache_dir(want, sizeof(want)) == 0 && !strcmp(want, "/var/cache/x"),
	      "from the config: '%s'", want);
	setenv("PERF_CONFIG", "/dev/null", 1);
	snprintf(path, sizeof(path), "%s/.debug", dir);
	CHECK(pd_build_id_cache_dir(want, sizeof(want)) == 0 && !strcmp(want, path),
	      "from HOME: '%s'", want);
	snprintf(path, sizeof(path), "rm -rf '%s'", cdir);
	CHECK(system(path) == 0, "%s", path);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	char notes[600];
	snprintf(notes, sizeof(notes), "%s/host", dir);
	mkdir(notes, 0755);
	snprintf(notes, sizeof(notes), "%s/host/sys", dir);
	mkdir(notes, 0755);
	snprintf(notes, sizeof(notes), "%s/host/sys/kernel", dir);
	mkdir(notes, 0755);
	snprintf(notes, sizeof(notes), "%s/host/sys/kernel/notes", dir);
	static const uint8_t kernel_note[] = {4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0,
					      'G', 'N', 'U', 0, 1, 2, 3, 4, 5, 6, 7, 8};
	FILE *fp = fopen(notes, "wb");
	if (fp) {
		fwrite(kernel_note, sizeof(kernel_note), 1, fp);
		fclose(fp);
	}
	make_dso("dso-a", 0xa1);
	make_dso("dso-b", 0xb2);
	make_dso("dso-c", 0xc3);
	make_dso("dso-d", 0xd4);
	make_dso("dso-e", 0xe5);
	make_dso("dso-f", 0xf6);
	make_dso("dso-g", 0x07);
	make_dso("dso-h", 0x18);
	make_dso("dso-i", 0x29);
	make_dso("dso-j", 0x3a);
	make_dso("dso-k", 0x4b);
	make_dso("dso-l", 0x5c);
	make_dso("dso-m", 0x6d);
	make_dso("dso-n", 0x7e);
	make_dso("dso-o", 0x8f);
	make_dso("dso-p", 0x90);
	make_dso("dso-q", 0xa2);
	make_dso("dso-r", 0xb3);
	in_order(argv[2]);
	out_of_order();
	rounds();
	late_in_round();
	map_bounds();
	cache();
	return failures ? 1 : 0;
}

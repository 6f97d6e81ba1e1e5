/*
 * synth_test.c - records synthesized from a /proc tree the test builds: a
 * process with two threads (FORK then COMM each, the second forked from
 * the first), its executable maps only as MMAP2 (named, anonymous, shared), the
 * kernel's text map from kallsyms, nothing from hidden kallsyms; then the
 * real /proc for this process, whose binary must be among its maps.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "synth.h"

static int failures;

#define MAX_RECS 4096

struct rec_list {
	int n;
	unsigned char *recs[MAX_RECS];
};

static int keep(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)err;
	struct rec_list *l = arg;
	if (l->n == MAX_RECS)
		return -ENOSPC;
	l->recs[l->n] = malloc(rec->size);
	memcpy(l->recs[l->n++], rec, rec->size);
	return 0;
}

static void free_list(struct rec_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->recs[i]);
	l->n = 0;
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *root, const char *sub)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, sub);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

struct mmap2 {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

static void build_proc(const char *root)
{
	mkdirs(root, "700/task/700");
	mkdirs(root, "700/task/701");
	put(root, "700/task/700/status", "Name:\tworker\nTgid:\t700\nPid:\t700\nPPid:\t1\n");
	put(root, "700/task/700/comm", "worker\n");
	put(root, "700/task/701/status", "Name:\tio\nTgid:\t700\nPid:\t701\nPPid:\t1\n");
	put(root, "700/task/701/comm", "worker-io\n");
	put(root, "700/maps",
	    "00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/worker\n"
	    "00651000-00652000 rw-p 00051000 08:02 173521      /usr/bin/worker\n"
	    "7f0000000000-7f0000021000 r-xp 00000000 00:00 0 \n"
	    "7f1000000000-7f1000001000 r-xs 00002000 00:05 42      /dev/shm/jit (deleted)\n"
	    "7fff00000000-7fff00002000 r-xp 00000000 00:00 0      [vdso]\n");
	put(root, "kallsyms", "ffffffff81000000 T startup_64\nffffffff81000000 T _text\n");
}

static void test_fake_proc(const char *root)
{
	struct rec_list l = {0};
	struct pmurt_error err = {0};
	struct pmu_synth y = {.proc = root, .id_hdr_size = 32, .sink = keep, .arg = &l};
	int rc = pmu_synth_process(&y, 700, true, &err);
	CHECK(rc == 0, "synth: %s", err.message);
	/* FORK+COMM per thread (readdir order), then four executable maps */
	CHECK(l.n == 8, "%d records", l.n);
	if (l.n != 8)
		return free_list(&l);
	int comms = 0, forks = 0;
	for (int i = 0; i < 4; i++) {
		const struct perf_event_header *h = (void *)l.recs[i];
		CHECK(h->type == (i % 2 ? PERF_RECORD_COMM : PERF_RECORD_FORK),
		      "record %d: type %u, FORK must precede COMM", i, h->type);
		const uint32_t *w = (const uint32_t *)(h + 1);
		if (h->type == PERF_RECORD_COMM) {
			const char *name = (const char *)(w + 2);
			CHECK(w[0] == 700 && (w[1] == 700 ? !strcmp(name, "worker")
							  : w[1] == 701 && !strcmp(name, "worker-io")),
			      "COMM %u/%u '%s'", w[0], w[1], name);
			CHECK(h->size == 8 + 8 + ((strlen(name) + 8) & ~7u) + 32, "COMM size %u",
			      h->size);
			comms++;
		} else if (h->type == PERF_RECORD_FORK) {
			/* pid, ppid, tid, ptid */
			CHECK(w[0] == 700 && (w[2] == 700 ? w[1] == 1 && w[3] == 1
							  : w[2] == 701 && w[1] == 700 && w[3] == 700),
			      "FORK %u %u %u %u", w[0], w[1], w[2], w[3]);
			CHECK(h->size == 8 + 24 + 32, "FORK size %u", h->size);
			forks++;
		}
	}
	CHECK(comms == 2 && forks == 2, "%d COMM, %d FORK", comms, forks);
	const char *names[] = {"/usr/bin/worker", "//anon", "/dev/shm/jit (deleted)", "[vdso]"};
	for (int i = 0; i < 4; i++) {
		const struct mmap2 *m = (void *)l.recs[4 + i];
		CHECK(m->h.type == PERF_RECORD_MMAP2 && m->h.misc == PERF_RECORD_MISC_USER,
		      "map %d type %u misc %u", i, m->h.type, m->h.misc);
		CHECK(!strcmp(m->filename, names[i]), "map %d '%s'", i, m->filename);
		CHECK(m->h.size % 8 == 0, "map %d size %u", i, m->h.size);
		/* the trailer is zeros */
		const unsigned char *end = (const unsigned char *)m + m->h.size;
		int zero = 1;
		for (int j = 1; j <= 32; j++)
			zero &= end[-j] == 0;
		CHECK(zero, "map %d trailer not zero", i);
	}
	const struct mmap2 *bin = (void *)l.recs[4], *shm = (void *)l.recs[6];
	CHECK(bin->pid == 700 && bin->tid == 700 && bin->start == 0x400000 &&
	      bin->len == 0x52000 && bin->pgoff == 0 && bin->maj == 8 && bin->min == 2 &&
	      bin->ino == 173521 && bin->prot == (PROT_READ | PROT_EXEC) &&
	      bin->flags == MAP_PRIVATE, "binary map fields");
	CHECK(shm->flags == MAP_SHARED && shm->pgoff == 0x2000 && shm->ino == 42 && shm->min == 5,
	      "shared map fields");
	free_list(&l);

	rc = pmu_synth_kernel_mmap(&y, &err);
	CHECK(rc == 0 && l.n == 1, "kernel map: %d records", l.n);
	if (l.n == 1) {
		const struct perf_event_header *h = (void *)l.recs[0];
		const uint64_t *q = (const uint64_t *)((const uint32_t *)(h + 1) + 2);
		const char *name = (const char *)(q + 3);
		CHECK(h->type == PERF_RECORD_MMAP && h->misc == PERF_RECORD_MISC_KERNEL &&
		      q[0] == 0xffffffff81000000ull && q[2] == 0xffffffff81000000ull &&
		      q[1] == UINT64_MAX - 0xffffffff81000000ull &&
		      !strcmp(name, "[kernel.kallsyms]_text"), "kernel map '%s'", name);
		CHECK(*(const int32_t *)(h + 1) == -1, "kernel map pid");
	}
	free_list(&l);
	put(root, "kallsyms", "0000000000000000 T startup_64\n0000000000000000 T _text\n");
	rc = pmu_synth_kernel_mmap(&y, &err);
	CHECK(rc == 0 && l.n == 0, "hidden kallsyms: %d records", l.n);
	rc = pmu_synth_process(&y, 999, true, &err);
	CHECK(rc == 0 && l.n == 0, "a process gone: rc %d, %d records", rc, l.n);
	free_list(&l);
}

/* This very process, from the real /proc: its own binary among the maps. */
static void test_real_proc(void)
{
	struct rec_list l = {0};
	struct pmurt_error err = {0};
	struct pmu_synth y = {.proc = "/proc", .id_hdr_size = 24, .sink = keep, .arg = &l};
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = '\0';
	int rc = pmu_synth_process(&y, getpid(), true, &err);
	CHECK(rc == 0, "real /proc: %s", err.message);
	int found = 0, comm = 0;
	for (int i = 0; i < l.n; i++) {
		const struct perf_event_header *h = (void *)l.recs[i];
		if (h->type == PERF_RECORD_MMAP2)
			found |= !strcmp(((const struct mmap2 *)h)->filename, self);
		if (h->type == PERF_RECORD_COMM)
			comm |= !strcmp((const char *)(h + 1) + 8, "record_synth_te");
	}
	CHECK(found, "no MMAP2 of %s", self);
	CHECK(comm, "no COMM of this process");
	free_list(&l);
}

int main(void)
{
	char root[] = "/tmp/pmurt-proc.XXXXXX";
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	build_proc(root);
	test_fake_proc(root);
	test_real_proc();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}

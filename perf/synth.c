/*
 * synth.c - COMM, FORK, MMAP and MMAP2 records made from /proc (synth.h),
 * laid out as include/uapi/linux/perf_event.h describes each record type.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "errors.h"
#include "synth.h"

#define NAME_MAX_BYTES 4096

/* One record under construction: the header, the fixed fields, a name,
 * then the zero trailer. */
union synth_buf {
	struct perf_event_header h;
	uint64_t align;
	unsigned char bytes[sizeof(struct perf_event_header) + 64 + NAME_MAX_BYTES + 64];
};

struct mmap2_body {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
};

struct mmap_body {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
};

struct fork_body {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/* Header + body + NUL-terminated name padded to 8 bytes + trailer. */
static int emit(const struct pmu_synth *y, uint32_t type, uint16_t misc, const void *body,
		size_t body_len, const char *name, struct pmurt_error *err)
{
	union synth_buf b;
	size_t name_len = name ? strnlen(name, NAME_MAX_BYTES - 1) + 1 : 0;
	size_t padded = (name_len + 7) & ~(size_t)7;
	size_t size = sizeof(b.h) + body_len + padded + y->id_hdr_size;
	if (size > sizeof(b) || y->id_hdr_size > 64) {
		pmurt_set_error(err, -EINVAL, "synthesized record of type %u: %zu bytes is too "
				"large", type, size);
		return -EINVAL;
	}
	memset(&b, 0, size);
	b.h = (struct perf_event_header){.type = type, .misc = misc, .size = (uint16_t)size};
	memcpy(b.bytes + sizeof(b.h), body, body_len);
	if (name)
		memcpy(b.bytes + sizeof(b.h) + body_len, name, name_len - 1);
	return y->sink(y->arg, &b.h, err);
}

/* Read a small /proc file into buf; -errno when it is gone. */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

int pmu_synth_kernel_mmap(const struct pmu_synth *y, struct pmurt_error *err)
{
	char path[512];
	snprintf(path, sizeof path, "%s/kallsyms", y->proc);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[512];
	uint64_t text = 0;
	while (fgets(line, sizeof line, f)) {
		char type, name[256];
		unsigned long long addr;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    strcmp(name, "_text") == 0) {
			text = addr;
			break;
		}
	}
	fclose(f);
	if (text == 0)
		return 0; /* hidden (kptr_restrict) or absent */
	struct mmap_body m = {.pid = (uint32_t)-1, .tid = 0, .start = text,
			      .len = UINT64_MAX - text, .pgoff = text};
	return emit(y, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &m, sizeof m,
		    "[kernel.kallsyms]_text", err);
}

/* "Tgid:" and "PPid:" of /proc/PID/task/TID/status. */
static int task_ids(const struct pmu_synth *y, pid_t pid, pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[512], buf[4096];
	snprintf(path, sizeof path, "%s/%d/task/%d/status", y->proc, (int)pid, (int)tid);
	int rc = read_small(path, buf, sizeof buf);
	if (rc < 0)
		return rc;
	const char *t = strstr(buf, "\nTgid:");
	const char *p = strstr(buf, "\nPPid:");
	if (!t || !p)
		return -ENOENT;
	*tgid = (pid_t)strtol(t + 6, NULL, 10);
	*ppid = (pid_t)strtol(p + 6, NULL, 10);
	return 0;
}

/* FORK then COMM of one thread, as perf's __event__synthesize_thread: the
 * process's first thread forked from its parent, the others from it (a
 * reader that sees a FORK for a known tid starts that thread afresh, so the
 * COMM must come after it). */
static int synth_thread(const struct pmu_synth *y, pid_t pid, pid_t tid,
			struct pmurt_error *err)
{
	char path[512], comm[64];
	pid_t tgid, ppid;
	if (task_ids(y, pid, tid, &tgid, &ppid) < 0)
		return 0; /* exited meanwhile */
	snprintf(path, sizeof path, "%s/%d/task/%d/comm", y->proc, (int)pid, (int)tid);
	if (read_small(path, comm, sizeof comm) < 0)
		return 0;
	comm[strcspn(comm, "\n")] = '\0';
	pid_t parent = tid == tgid ? ppid : tgid;
	struct fork_body fk = {.pid = (uint32_t)tgid, .ppid = (uint32_t)parent,
			       .tid = (uint32_t)tid, .ptid = (uint32_t)parent};
	int rc = emit(y, PERF_RECORD_FORK, 0, &fk, sizeof fk, NULL, err);
	if (rc < 0)
		return rc;
	struct {
		uint32_t pid, tid;
	} c = {(uint32_t)tgid, (uint32_t)tid};
	return emit(y, PERF_RECORD_COMM, 0, &c, sizeof c, comm, err);
}

/* One line of /proc/PID/maps as an MMAP2 record (executable maps only, as
 * perf synthesizes without --data); 1 when the line is not one. */
static int synth_map_line(const struct pmu_synth *y, pid_t pid, const char *line,
			  struct pmurt_error *err)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perms[8];
	int name_at = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, &name_at) < 7 || strlen(perms) < 4)
		return 1;
	if (perms[2] != 'x')
		return 1;
	char name[NAME_MAX_BYTES];
	snprintf(name, sizeof name, "%s", name_at ? line + name_at : "");
	name[strcspn(name, "\n")] = '\0';
	if (!name[0])
		snprintf(name, sizeof name, "//anon"); /* perf's anonymous map name */
	struct mmap2_body m = {
		.pid = (uint32_t)pid, .tid = (uint32_t)pid, .start = start, .len = end - start,
		.pgoff = pgoff, .maj = maj, .min = min, .ino = ino,
		.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			PROT_EXEC,
		.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE,
	};
	return emit(y, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m, sizeof m, name, err);
}

static int synth_maps(const struct pmu_synth *y, pid_t pid, struct pmurt_error *err)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%d/maps", y->proc, (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0; /* exited, or a kernel thread */
	char line[NAME_MAX_BYTES + 128];
	int rc = 0;
	while (rc >= 0 && fgets(line, sizeof line, f))
		rc = synth_map_line(y, pid, line, err);
	fclose(f);
	return rc < 0 ? rc : 0;
}

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int pmu_synth_process(const struct pmu_synth *y, pid_t pid, bool maps,
		      struct pmurt_error *err)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%d/task", y->proc, (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0; /* exited meanwhile */
	int rc = 0;
	struct dirent *de;
	while (rc >= 0 && (de = readdir(d)))
		if (numeric(de->d_name))
			rc = synth_thread(y, pid, (pid_t)atoi(de->d_name), err);
	closedir(d);
	if (rc >= 0 && maps)
		rc = synth_maps(y, pid, err);
	if (rc < 0 && err && !err->message[0])
		pmurt_set_error(err, rc, "synthesizing records for process %d: %s", (int)pid,
				strerror(-rc));
	return rc < 0 ? rc : 0;
}

int pmu_synth_all(const struct pmu_synth *y, struct pmurt_error *err)
{
	DIR *d = opendir(y->proc);
	if (!d) {
		int rc = -errno;
		pmurt_set_error(err, rc, "%s: %s", y->proc, strerror(-rc));
		return rc;
	}
	int rc = 0;
	struct dirent *de;
	while (rc >= 0 && (de = readdir(d)))
		if (numeric(de->d_name))
			rc = pmu_synth_process(y, (pid_t)atoi(de->d_name), true, err);
	closedir(d);
	return rc;
}

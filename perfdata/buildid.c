/*
 * buildid.c - build ids in perf.data: read from an ELF file's GNU build-id
 * note, and the pass perf record makes over its data once it is written
 * (tools/perf/builtin-record.c process_buildids, with ordered events):
 * the first and last sample times (HEADER_SAMPLE_TIME) and the DSOs the
 * samples hit, found through the MMAP/MMAP2 records of the sample's
 * process or of the process it forked from, written with their build ids
 * as tools/perf/util/build-id.c write_buildid does (HEADER_BUILD_ID).
 * The kernel's build id comes from /sys/kernel/notes, the vDSO's (written
 * whenever it was mapped, hit or not, as perf does) from this process's
 * own vDSO, as perf takes its own; kernel modules are not looked for.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "internal.h"
#include "perfdata.h"

#define NOTE_MAX (1u << 16)
#define NT_GNU_BUILD_ID_TYPE 3
#define KERNEL_DSO "[kernel.kallsyms]"
#define MISC_BUILD_ID_SIZE (1u << 15)   /* PERF_RECORD_MISC_BUILD_ID_SIZE */
#define MISC_MMAP_BUILD_ID (1u << 14)   /* PERF_RECORD_MISC_MMAP_BUILD_ID */

/* --- ELF notes ------------------------------------------------------------- */

/* The GNU build id among len bytes of notes (Elf_Nhdr: namesz, descsz,
 * type, name and desc each padded to 4). */
static int notes_build_id(const uint8_t *p, size_t len, uint8_t id[PD_BUILD_ID_MAX],
			  size_t *id_len)
{
	size_t at = 0;
	while (len - at >= 12) {
		uint32_t namesz = pd_get32(p + at), descsz = pd_get32(p + at + 4);
		uint32_t type = pd_get32(p + at + 8);
		size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
		size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
		at += 12;
		if (name_pad > len - at || desc_pad > len - at - name_pad)
			return -1;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && !memcmp(p + at, "GNU", 4) &&
		    descsz > 0 && descsz <= PD_BUILD_ID_MAX) {
			memcpy(id, p + at + name_pad, descsz);
			*id_len = descsz;
			return 0;
		}
		at += name_pad + desc_pad;
	}
	return -1;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* The notes of one PT_NOTE segment. */
static int segment_build_id(int fd, uint64_t off, uint64_t size, uint8_t *id, size_t *id_len)
{
	if (size == 0 || size > NOTE_MAX)
		return -1;
	uint8_t *notes = malloc((size_t)size);
	int rc = notes && read_at(fd, notes, (size_t)size, off) == 0
		 ? notes_build_id(notes, (size_t)size, id, id_len) : -1;
	free(notes);
	return rc;
}

int pd_elf_build_id(const char *path, uint8_t id[PD_BUILD_ID_MAX], size_t *id_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	Elf64_Ehdr eh;
	int rc = -ENOENT;
	if (read_at(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		close(fd);
		return -ENOEXEC;
	}
	bool is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	uint64_t phoff = is64 ? eh.e_phoff : ((const Elf32_Ehdr *)&eh)->e_phoff;
	unsigned phnum = is64 ? eh.e_phnum : ((const Elf32_Ehdr *)&eh)->e_phnum;
	for (unsigned i = 0; i < phnum && rc < 0; i++) {
		Elf64_Phdr ph;
		Elf32_Phdr ph32;
		if (is64 ? read_at(fd, &ph, sizeof(ph), phoff + (uint64_t)i * sizeof(ph))
			 : read_at(fd, &ph32, sizeof(ph32), phoff + (uint64_t)i * sizeof(ph32)))
			break;
		if (!is64)
			ph = (Elf64_Phdr){.p_type = ph32.p_type, .p_offset = ph32.p_offset,
					  .p_filesz = ph32.p_filesz};
		if (ph.p_type == PT_NOTE &&
		    segment_build_id(fd, ph.p_offset, ph.p_filesz, id, id_len) == 0)
			rc = 0;
	}
	close(fd);
	return rc;
}

/* --- the pass over the data ------------------------------------------------- */

struct dso {
	char *name;
	bool hit, kernel, has_id;
	uint8_t id[PD_BUILD_ID_MAX];
	size_t id_len;
};

struct map {
	uint32_t pid;
	uint64_t start, end;
	size_t dso;
};

struct pass {
	struct dso *dsos;
	size_t ndsos;
	struct map *maps;
	size_t nmaps;
	uint32_t (*forks)[2];   /* child pid, parent pid */
	size_t nforks;
	size_t last_map;        /* the map the last sample hit */
	size_t kernel;          /* the kernel's DSO, SIZE_MAX until met */
	uint64_t first, last;
	bool nomem;
};

/* Room for element n of an array whose capacity is 16, then doubles
 * when n reaches it (a power of two). */
static void *grow(struct pass *p, void *v, size_t n, size_t elem)
{
	if (n != 0 && (n < 16 || (n & (n - 1))))
		return v;
	void *g = realloc(v, (n ? 2 * n : 16) * elem);
	if (!g)
		p->nomem = true;
	return g;
}

static size_t dso_of(struct pass *p, const char *name, bool kernel)
{
	for (size_t i = p->ndsos; i-- > 0;)
		if (!strcmp(p->dsos[i].name, name))
			return i;
	struct dso *v = grow(p, p->dsos, p->ndsos, sizeof(*v));
	if (!v)
		return SIZE_MAX;
	p->dsos = v;
	v[p->ndsos] = (struct dso){.name = strdup(name), .kernel = kernel};
	if (!v[p->ndsos].name) {
		p->nomem = true;
		return SIZE_MAX;
	}
	return p->ndsos++;
}

/* MMAP (pid @8, addr @16, len @24, filename @40) and MMAP2 (filename @72,
 * a build id @40 when the kernel put one there). */
static void track_mmap(struct pass *p, const struct pmurt_perf_record *r)
{
	const uint8_t *d = r->data;
	size_t at = r->type == PERF_RECORD_MMAP ? 40 : 72;
	const char *name = (const char *)d + at;
	if (!memchr(name, 0, r->size - at))
		return;
	size_t dso = dso_of(p, name, pd_get32(d + 8) == UINT32_MAX);
	struct map *m = grow(p, p->maps, p->nmaps, sizeof(*m));
	if (dso == SIZE_MAX || !m)
		return;
	p->maps = m;
	m[p->nmaps++] = (struct map){.pid = pd_get32(d + 8), .start = pd_get64(d + 16),
				     .end = pd_get64(d + 16) + pd_get64(d + 24), .dso = dso};
	if (r->type == PERF_RECORD_MMAP2 && (r->misc & MISC_MMAP_BUILD_ID) && d[40] &&
	    d[40] <= PD_BUILD_ID_MAX) {
		struct dso *s = &p->dsos[dso];
		s->id_len = d[40];
		memcpy(s->id, d + 44, s->id_len);
		s->has_id = true;
	}
}

static void track_fork(struct pass *p, const struct pmurt_perf_record *r)
{
	uint32_t pid = pd_get32((const uint8_t *)r->data + 8);
	uint32_t ppid = pd_get32((const uint8_t *)r->data + 12);
	if (pid == ppid)
		return;   /* a new thread of the same process */
	uint32_t (*f)[2] = grow(p, p->forks, p->nforks, sizeof(*f));
	if (!f)
		return;
	p->forks = f;
	f[p->nforks][0] = pid;
	f[p->nforks++][1] = ppid;
}

static bool covers(const struct map *m, uint32_t pid, uint64_t ip)
{
	return m->pid == pid && ip >= m->start && ip < m->end;
}

/* The newest map of pid, or of the processes it forked from, holding ip. */
static size_t find_map(struct pass *p, uint32_t pid, uint64_t ip)
{
	if (p->last_map < p->nmaps && covers(&p->maps[p->last_map], pid, ip))
		return p->last_map;
	for (int depth = 0; depth < 64; depth++) {
		for (size_t i = p->nmaps; i-- > 0;)
			if (covers(&p->maps[i], pid, ip))
				return p->last_map = i;
		size_t f = p->nforks;
		while (f-- > 0 && p->forks[f][0] != pid)
			;
		if (f == SIZE_MAX)
			break;
		pid = p->forks[f][1];
	}
	return SIZE_MAX;
}

static void track_sample(struct pass *p, const struct pmurt_perf_record *r)
{
	if ((r->has & PERF_SAMPLE_TIME) && r->time) {
		p->first = !p->first || r->time < p->first ? r->time : p->first;
		p->last = r->time > p->last ? r->time : p->last;
	}
	unsigned mode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_KERNEL) {
		if (p->kernel == SIZE_MAX)
			p->kernel = dso_of(p, KERNEL_DSO, true);
		if (p->kernel != SIZE_MAX)
			p->dsos[p->kernel].hit = true;
	} else if (mode == PERF_RECORD_MISC_USER && (r->has & PERF_SAMPLE_IP) &&
		   (r->has & PERF_SAMPLE_TID)) {
		size_t m = find_map(p, r->pid, r->ip);
		if (m != SIZE_MAX)
			p->dsos[p->maps[m].dso].hit = true;
	}
}

/* write_buildid: the record's 36 bytes (header with type 0, as perf leaves
 * it, the cpumode and MISC_BUILD_ID_SIZE, pid -1 for the host machine, 20
 * bytes of id, its size, 3 reserved), then the name padded to NAME_ALIGN;
 * header.size covers both. */
static void put_build_id(struct pd_bytes *b, const struct dso *d)
{
	static const uint8_t zeros[64];
	size_t n = strlen(d->name) + 1, len = (n + 63) / 64 * 64;
	uint8_t rec[36] = {0};
	uint16_t misc = (d->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
			MISC_BUILD_ID_SIZE;
	uint16_t size = (uint16_t)(sizeof(rec) + len);
	int32_t pid = -1;
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &size, 2);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, d->id, d->id_len);
	rec[32] = (uint8_t)d->id_len;
	pd_bytes_put(b, rec, sizeof(rec));
	pd_bytes_put(b, d->name, n);
	pd_bytes_put(b, zeros, len - n);
}

static void kernel_build_id(const char *root, struct dso *d)
{
	char path[1024];
	uint8_t notes[4096];
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", root);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, notes, sizeof(notes));
	close(fd);
	d->has_id = n > 0 && notes_build_id(notes, (size_t)n, d->id, &d->id_len) == 0;
}

/* This process's vDSO image, in memory (AT_SYSINFO_EHDR): its notes. */
static void vdso_build_id(struct dso *d)
{
	const uint8_t *base = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	for (unsigned i = 0; i < eh->e_phnum && !d->has_id; i++) {
		const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff +
							    (size_t)i * eh->e_phentsize);
		if (ph->p_type == PT_NOTE)
			d->has_id = notes_build_id(base + ph->p_offset, ph->p_filesz, d->id,
						   &d->id_len) == 0;
	}
}

static void free_pass(struct pass *p)
{
	for (size_t i = 0; i < p->ndsos; i++)
		free(p->dsos[i].name);
	free(p->dsos);
	free(p->maps);
	free(p->forks);
}

int pd_data_pass(const char *path, const char *root, struct pd_bytes *build_ids,
		 uint64_t times[2], struct pmurt_error *err)
{
	struct pmurt_perf_file *f;
	struct pass p = {.last_map = SIZE_MAX, .kernel = SIZE_MAX};
	int rc = pmurt_perf_open(&f, path, err);
	if (rc < 0)
		return rc;
	struct pmurt_perf_record r = {.sz = sizeof(r)};
	while (!p.nomem && (rc = pmurt_perf_next(f, &r, err)) == 1) {
		if (r.type == PERF_RECORD_MMAP || r.type == PERF_RECORD_MMAP2)
			track_mmap(&p, &r);
		else if (r.type == PERF_RECORD_FORK)
			track_fork(&p, &r);
		else if (r.type == PERF_RECORD_SAMPLE)
			track_sample(&p, &r);
	}
	pmurt_perf_close(f);
	for (size_t i = 0; rc == 0 && i < p.ndsos; i++) {
		struct dso *d = &p.dsos[i];
		bool vdso = !strcmp(d->name, "[vdso]");
		if (!d->hit && !vdso)
			continue;
		if (!d->has_id && vdso)
			vdso_build_id(d);
		else if (!d->has_id && !strcmp(d->name, KERNEL_DSO))
			kernel_build_id(root, d);
		else if (!d->has_id && d->name[0] == '/')
			d->has_id = pd_elf_build_id(d->name, d->id, &d->id_len) == 0;
		if (d->has_id)
			put_build_id(build_ids, d);
	}
	times[0] = p.first;
	times[1] = p.last;
	if (rc == 0 && (p.nomem || build_ids->nomem)) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", path);
		rc = -ENOMEM;
	}
	free_pass(&p);
	return rc;
}

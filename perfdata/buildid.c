/*
 * buildid.c - build ids in perf.data: read from an ELF file's GNU build-id
 * note; and what the pass perf record makes over its data once it is
 * written finds (tools/perf/builtin-record.c process_buildids, with ordered
 * events), noted instead as the records go through the writer: the first
 * and last sample times (HEADER_SAMPLE_TIME) and the DSOs the samples hit,
 * found through the MMAP/MMAP2 records of the sample's process or of the
 * process it forked from, written with their build ids as
 * tools/perf/util/build-id.c write_buildid does (HEADER_BUILD_ID).
 * Records are delivered in the order perf's ordered events deliver them
 * (tools/perf/util/ordered-events.c, session.c process_finished_round):
 * those without a time at once, the others at each FINISHED_ROUND up to
 * the latest time queued by the round before, all at the end.  A sample is
 * kept as 24 bytes (time, ip, pid, how many MMAP/MMAP2/FORK records came
 * before it) until delivered; the maps and forks delivered are kept in that
 * order, so that the first n of them are the state at a time.
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

/* --- what perf record's pass would find, noted as the records go by -------- */

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

/* An MMAP, MMAP2 or FORK record waiting in the queue (seq: its place
 * among them in the file). */
struct task {
	uint32_t type, pid, ppid;
	uint64_t time, seq;
	uint64_t start, end;
	char *name;
	bool has_id;
	uint8_t id_len, id[PD_BUILD_ID_MAX];
};

/* A sample waiting in the queue: a user-mode one, or a kernel-mode one
 * (KERNEL_NOTE) while the kernel's DSO is not yet met: its time and ip;
 * its pid and before (how many tasks the file held before it), which
 * runs of notes share, are kept once for each run, as a key (before in the
 * upper half), with where the run starts.  16 bytes a note rather than 24:
 * storing the notes is most of noting's cost. */
#define KERNEL_NOTE (1u << 31)
struct note {
	uint64_t time, ip;
};

struct note_run {
	uint64_t key;
	size_t start;
};

static uint64_t note_key(uint32_t pid, uint32_t before)
{
	return (uint64_t)before << 32 | pid;
}

/* Notes in queue order, in runs; with how many are kernel notes and the
 * least and greatest of their times (UINT64_MAX and 0 when there is none;
 * for the fresh notes, found at the flush: a loop over them there costs
 * less than two more stores for each as it is noted). */
struct notes {
	struct note *v;
	size_t n, cap, kernel;
	struct note_run *runs;
	size_t nruns, run_cap;
	uint64_t last_key;              /* the last run's (nruns > 0) */
	uint64_t min, max;
};

/* Where a record of an event keeps what is read of it: in a sample, the
 * offsets of ip, pid and time from the record's start (0: not sampled); in
 * a sample_id_all trailer, the time's offset from the record's end. */
struct layout {
	uint16_t ip, pid, time, trailer_time;
};

struct pd_hits {
	struct layout *layouts;         /* per event */
	struct layout user;             /* all events': ip, pid and time sampled */
	uint32_t user_size;             /* (the size they need), above any: no such layout */
	const struct pd_event *events;  /* the writer's, for ids */
	int nevents;
	int id_pos, trailer_id_pos;     /* with several layouts: where ids are */
	struct dso *dsos;
	size_t ndsos;
	struct map *maps;               /* in the order delivered */
	size_t nmaps;
	uint32_t (*forks)[2];           /* child pid, parent pid */
	size_t nforks;
	size_t last_map, last_limit;    /* the map the last sample hit, among last_limit */
	size_t kernel;                  /* the kernel's DSO, SIZE_MAX until met */
	uint64_t first, last;
	/* perf's ordered events (tools/perf/util/ordered-events.c): queued
	 * records, delivered in time order at each FINISHED_ROUND up to the
	 * latest time queued by the round before, and all at the end */
	struct task *tasks;
	size_t ntasks, task_cap;
	uint64_t nseq;
	struct notes held, fresh;       /* held over a round; noted since the last */
	uint64_t other_max;             /* the latest other record queued, 0: none */
	uint64_t max_time, next_flush;
	bool queue_empty;
	bool nomem;
};

/* Room for element n of an array whose capacity is 16, then doubles
 * when n reaches it (a power of two). */
static void *grow(struct pd_hits *h, void *v, size_t n, size_t elem)
{
	if (n != 0 && (n < 16 || (n & (n - 1))))
		return v;
	void *g = realloc(v, (n ? 2 * n : 16) * elem);
	if (!g)
		h->nomem = true;
	return g;
}

static struct layout layout_of(uint64_t st, bool id_all)
{
	struct layout l = {0};
	uint16_t at = 8 + ((st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0);
	if (st & PERF_SAMPLE_IP)
		l.ip = at, at += 8;
	if (st & PERF_SAMPLE_TID)
		l.pid = at, at += 8;
	if (st & PERF_SAMPLE_TIME)
		l.time = at;
	/* the trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
	if (id_all && (st & PERF_SAMPLE_TIME))
		l.trailer_time = (uint16_t)(8 * __builtin_popcountll(st & (PERF_SAMPLE_TIME |
				 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				 PERF_SAMPLE_IDENTIFIER)));
	return l;
}

int pd_hits_new(struct pd_hits **out, const struct pd_event *events, int nevents)
{
	struct pd_hits *h = calloc(1, sizeof(*h));
	*out = NULL;
	if (!h || !(h->layouts = calloc((size_t)nevents, sizeof(*h->layouts)))) {
		free(h);
		return -ENOMEM;
	}
	h->events = events;
	h->nevents = 1;
	h->last_map = h->kernel = SIZE_MAX;
	h->queue_empty = true;
	h->held.min = h->fresh.min = UINT64_MAX;
	h->id_pos = pd_sample_id_pos(events[0].attr.sample_type);
	h->trailer_id_pos = pd_trailer_id_pos(events[0].attr.sample_type);
	for (int e = 0; e < nevents; e++) {
		h->layouts[e] = layout_of(events[e].attr.sample_type, events[0].attr.sample_id_all);
		if (memcmp(&h->layouts[e], &h->layouts[0], sizeof(struct layout)))
			h->nevents = nevents;   /* layouts differ: find each record's */
	}
	h->user = h->layouts[0];
	h->user_size = h->nevents == 1 && h->user.ip && h->user.pid && h->user.time
		       ? h->user.time + 8u : UINT32_MAX;
	*out = h;
	return 0;
}

/* The layout of a record's event, found by its id as the reader finds it
 * (first event: a trailer's id 0; NULL: no such id). */
static const struct layout *layout_at(const struct pd_hits *h, const uint8_t *rec,
				      uint16_t size, bool sample)
{
	if (h->nevents == 1 || (sample ? h->id_pos : h->trailer_id_pos) < 0)
		return h->layouts;
	size_t at = sample ? 8 + 8 * (size_t)h->id_pos : size - 8 * (size_t)h->trailer_id_pos;
	if (at + 8 > size || at < 8)
		return NULL;
	uint64_t id = pd_get64(rec + at);
	if (!sample && id == 0)
		return h->layouts;
	for (int e = 0; e < h->nevents; e++)
		for (int k = 0; k < h->events[e].nids; k++)
			if (h->events[e].ids[k] == id)
				return &h->layouts[e];
	return NULL;
}

static size_t dso_of(struct pd_hits *h, const char *name, bool kernel)
{
	for (size_t i = h->ndsos; i-- > 0;)
		if (!strcmp(h->dsos[i].name, name))
			return i;
	struct dso *v = grow(h, h->dsos, h->ndsos, sizeof(*v));
	if (!v)
		return SIZE_MAX;
	h->dsos = v;
	v[h->ndsos] = (struct dso){.name = strdup(name), .kernel = kernel};
	if (!v[h->ndsos].name) {
		h->nomem = true;
		return SIZE_MAX;
	}
	return h->ndsos++;
}

/* --- delivery: the state perf's machine keeps -------------------------------- */

static void deliver_task(struct pd_hits *h, const struct task *t)
{
	if (t->type == PERF_RECORD_FORK) {
		if (t->pid == t->ppid)
			return;   /* a new thread of the same process */
		uint32_t (*f)[2] = grow(h, h->forks, h->nforks, sizeof(*f));
		if (!f)
			return;
		h->forks = f;
		f[h->nforks][0] = t->pid;
		f[h->nforks++][1] = t->ppid;
		return;
	}
	size_t dso = dso_of(h, t->name, t->pid == UINT32_MAX);
	struct map *m = grow(h, h->maps, h->nmaps, sizeof(*m));
	if (dso == SIZE_MAX || !m)
		return;
	h->maps = m;
	m[h->nmaps++] = (struct map){.pid = t->pid, .start = t->start, .end = t->end, .dso = dso};
	if (t->has_id) {
		struct dso *s = &h->dsos[dso];
		s->id_len = t->id_len;
		memcpy(s->id, t->id, t->id_len);
		s->has_id = true;
	}
}

static bool covers(const struct map *m, uint32_t pid, uint64_t ip)
{
	return m->pid == pid && ip >= m->start && ip < m->end;
}

/* The newest of the first nmaps maps of pid, or of the processes it forked
 * from (among the first nforks forks), holding ip. */
static size_t find_map(struct pd_hits *h, uint32_t pid, uint64_t ip, size_t nmaps,
		       size_t nforks)
{
	if (h->last_limit == nmaps && h->last_map < nmaps &&
	    covers(&h->maps[h->last_map], pid, ip))
		return h->last_map;
	for (int depth = 0; depth < 64; depth++) {
		for (size_t i = nmaps; i-- > 0;)
			if (covers(&h->maps[i], pid, ip)) {
				h->last_limit = nmaps;
				return h->last_map = i;
			}
		size_t f = nforks;
		while (f-- > 0 && h->forks[f][0] != pid)
			;
		if (f == SIZE_MAX)
			break;
		pid = h->forks[f][1];
	}
	return SIZE_MAX;
}

static void deliver_kernel(struct pd_hits *h)
{
	if (h->kernel == SIZE_MAX)
		h->kernel = dso_of(h, KERNEL_DSO, true);
	if (h->kernel != SIZE_MAX)
		h->dsos[h->kernel].hit = true;
}

static void deliver_user(struct pd_hits *h, uint32_t pid, uint64_t ip, size_t nmaps,
			 size_t nforks)
{
	size_t m = find_map(h, pid, ip, nmaps, nforks);
	if (m != SIZE_MAX)
		h->dsos[h->maps[m].dso].hit = true;
}

/* --- the queue ------------------------------------------------------------------ */

/* Whether task t was queued before a note of this time and before (the
 * same time: file order). */
static bool task_first(const struct task *t, uint64_t time, uint32_t before)
{
	return t->time < time || (t->time == time && t->seq < (before & ~KERNEL_NOTE));
}

/* Where run r of a ends. */
static size_t run_end(const struct notes *a, size_t r)
{
	return r + 1 < a->nruns ? a->runs[r + 1].start : a->n;
}

/* Room for one more note in a (and one more run): false without memory. */
static bool note_room(struct notes *a)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 4096;
		struct note *v = realloc(a->v, cap * sizeof(*v));
		if (!v)
			return false;
		a->v = v;
		a->cap = cap;
	}
	if (a->nruns == a->run_cap) {
		size_t cap = a->run_cap ? 2 * a->run_cap : 64;
		struct note_run *v = realloc(a->runs, cap * sizeof(*v));
		if (!v)
			return false;
		a->runs = v;
		a->run_cap = cap;
	}
	return true;
}

/* add_note's other case: room to make, or a run to start. */
static __attribute__((noinline)) bool add_note_run(struct notes *a, uint64_t key,
						   struct note n)
{
	if (!note_room(a))
		return false;
	if (!a->nruns || a->last_key != key) {
		a->runs[a->nruns++] = (struct note_run){.key = key, .start = a->n};
		a->last_key = key;
	}
	a->v[a->n++] = n;
	return true;
}

/* A note added to a (false without memory): a new run when its key is not
 * the last run's.  The common case kept to a few loads and a store. */
static inline bool add_note(struct notes *a, uint64_t key, struct note n)
{
	size_t k = a->n;
	if (k == a->cap || key != a->last_key || !a->nruns)
		return add_note_run(a, key, n);
	a->v[k] = n;
	a->n = k + 1;
	return true;
}

/* The tasks in time order, file order within a time (few, nearly sorted). */
static void sort_tasks(struct pd_hits *h)
{
	for (size_t i = 1; i < h->ntasks; i++) {
		struct task t = h->tasks[i];
		size_t j = i;
		for (; j > 0 && (h->tasks[j - 1].time > t.time ||
				 (h->tasks[j - 1].time == t.time && h->tasks[j - 1].seq > t.seq)); j--)
			h->tasks[j] = h->tasks[j - 1];
		h->tasks[j] = t;
	}
}

/* The first kernel note due by limit, in queue order: its time and
 * before, into *time and *before (found: *time not UINT64_MAX). */
static void first_kernel_note(const struct notes *a, uint64_t limit, uint64_t *time,
			      uint32_t *before)
{
	for (size_t r = 0; a->kernel && r < a->nruns; r++) {
		uint32_t b = (uint32_t)(a->runs[r].key >> 32);
		for (size_t i = a->runs[r].start; (b & KERNEL_NOTE) && i < run_end(a, r); i++)
			if (a->v[i].time <= limit && a->v[i].time < *time) {
				*time = a->v[i].time;
				*before = b;
			}
	}
}

/* The tasks due at a flush: how many, and after each of them how many maps
 * and forks were delivered (before the first: maps0, forks0). */
struct due_tasks {
	size_t n, maps0, forks0;
	size_t (*after)[2];
};

/* A user note due: the map it hits among those delivered before it. */
static void deliver_note(struct pd_hits *h, const struct note *n, uint64_t key,
			 const struct due_tasks *d)
{
	uint32_t pid = (uint32_t)key, before = (uint32_t)(key >> 32);
	size_t lo = 0, hi = d->n;   /* the due tasks before it: a binary search */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (task_first(&h->tasks[mid], n->time, before))
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t nmaps = lo ? d->after[lo - 1][0] : d->maps0;
	const struct map *last = &h->maps[h->last_map < nmaps ? h->last_map : 0];
	if (h->last_limit == nmaps && h->last_map < nmaps && covers(last, pid, n->ip))
		return;   /* the last sample's map, marked hit then (find_map's first test) */
	deliver_user(h, pid, n->ip, nmaps, lo ? d->after[lo - 1][1] : d->forks0);
}

static void find_times(struct notes *a)
{
	uint64_t min = UINT64_MAX, max = 0;
	for (size_t i = 0; i < a->n; i++) {
		min = a->v[i].time < min ? a->v[i].time : min;
		max = a->v[i].time > max ? a->v[i].time : max;
	}
	a->min = min;
	a->max = max;
}

static void empty_notes(struct notes *a)
{
	a->n = a->nruns = a->kernel = a->max = 0;
	a->min = UINT64_MAX;
}

/* The notes of a due by limit delivered (kernel ones were, with the tasks),
 * the others kept at the end of keep (a itself or h->held), in queue
 * order.  The usual rounds take no copy: a note is due when its round's
 * successor is flushed, so held notes go whole, fresh ones stay whole. */
static void flush_notes(struct pd_hits *h, struct notes *a, uint64_t limit,
			const struct due_tasks *d, struct notes *keep)
{
	bool find = h->nmaps != 0;   /* else no note can hit a map */
	if (a->max <= limit) {
		for (size_t r = 0; find && r < a->nruns; r++)
			for (size_t i = a->runs[r].start, end = run_end(a, r);
			     !(a->runs[r].key >> 32 & KERNEL_NOTE) && i < end; i++)
				deliver_note(h, &a->v[i], a->runs[r].key, d);
		empty_notes(a);
		return;
	}
	if (a->min > limit && (a == keep || keep->n == 0)) {
		struct notes t = *keep;   /* none due: kept whole */
		*keep = *a;
		*a = t;
		return;
	}
	if (a != keep && (keep->cap - keep->n < a->n || keep->run_cap - keep->nruns < a->nruns)) {
		struct note *v = realloc(keep->v, (keep->n + a->n) * sizeof(*v));
		keep->v = v ? v : keep->v;
		keep->cap = v ? keep->n + a->n : keep->cap;
		struct note_run *u = v ? realloc(keep->runs, (keep->nruns + a->nruns) * sizeof(*u))
				       : NULL;
		keep->runs = u ? u : keep->runs;
		keep->run_cap = u ? keep->nruns + a->nruns : keep->run_cap;
		if (!v || !u) {
			h->nomem = true;
			return;
		}
	}
	/* in place when a is keep: a run or note is written no later than read */
	size_t n = a->n, nruns = a->nruns;
	if (a == keep)
		empty_notes(a);
	for (size_t r = 0; r < nruns; r++) {
		uint64_t key = a->runs[r].key;
		size_t i = a->runs[r].start, end = r + 1 < nruns ? a->runs[r + 1].start : n;
		bool kernel = key >> 32 & KERNEL_NOTE;
		for (; i < end; i++) {
			struct note t = a->v[i];
			if (t.time > limit) {
				keep->min = t.time < keep->min ? t.time : keep->min;
				keep->max = t.time > keep->max ? t.time : keep->max;
				keep->kernel += kernel;
				add_note(keep, key, t);   /* room made above */
			} else if (find && !kernel)
				deliver_note(h, &t, key, d);
		}
	}
	if (a != keep)
		empty_notes(a);
}

/* perf's __ordered_events__flush: the records queued at times up to limit
 * delivered in time order.  Samples among themselves need no order: each
 * sees the tasks delivered before it (maps and forks are kept in delivery
 * order, a prefix of them is the state at a time). */
static void flush(struct pd_hits *h, uint64_t limit)
{
	sort_tasks(h);
	size_t due = 0, maps0 = h->nmaps, forks0 = h->nforks;
	while (due < h->ntasks && h->tasks[due].time <= limit)
		due++;
	uint64_t kernel_time = UINT64_MAX;   /* the first kernel note's */
	uint32_t kernel_before = 0;
	if (h->kernel == SIZE_MAX) {
		first_kernel_note(&h->held, limit, &kernel_time, &kernel_before);
		first_kernel_note(&h->fresh, limit, &kernel_time, &kernel_before);
	}
	bool kernel = kernel_time != UINT64_MAX;
	/* after each due task: how many maps and forks were delivered */
	size_t (*after)[2] = due ? malloc(due * sizeof(*after)) : NULL;
	if (due && !after) {
		h->nomem = true;
		return;
	}
	for (size_t i = 0; i < due; i++) {
		if (kernel && !task_first(&h->tasks[i], kernel_time, kernel_before)) {
			deliver_kernel(h);
			kernel = false;
		}
		deliver_task(h, &h->tasks[i]);
		free(h->tasks[i].name);
		after[i][0] = h->nmaps;
		after[i][1] = h->nforks;
	}
	if (kernel)
		deliver_kernel(h);
	size_t nnotes = h->held.n + h->fresh.n;
	find_times(&h->fresh);
	uint64_t earliest = h->held.min < h->fresh.min ? h->held.min : h->fresh.min;
	uint64_t latest = h->held.max > h->fresh.max ? h->held.max : h->fresh.max;
	struct due_tasks d = {.n = due, .maps0 = maps0, .forks0 = forks0, .after = after};
	flush_notes(h, &h->held, limit, &d, &h->held);
	flush_notes(h, &h->fresh, limit, &d, &h->held);
	h->first = nnotes && (!h->first || earliest < h->first) ? earliest : h->first;
	h->last = latest > h->last ? latest : h->last;
	if (latest)   /* the notes' part of queued(), left to here */
		h->max_time = h->queue_empty || latest > h->max_time ? latest : h->max_time;
	if (due)
		memmove(h->tasks, h->tasks + due, (h->ntasks - due) * sizeof(*h->tasks));
	h->ntasks -= due;
	h->other_max = h->other_max > limit ? h->other_max : 0;
	h->queue_empty = !h->ntasks && !h->held.n && !h->other_max;
	free(after);
}

/* A record with a time queued (ordered_events__queue's max_timestamp:
 * the latest queued, or this one's after the queue emptied). */
static inline void queued(struct pd_hits *h, uint64_t time)
{
	h->max_time = h->queue_empty || time > h->max_time ? time : h->max_time;
	h->queue_empty = false;
}

/* A sample's note queued (false without memory). */
static inline bool queue_note(struct pd_hits *h, uint32_t pid, uint32_t before, struct note n)
{
	if (add_note(&h->fresh, note_key(pid, before), n))
		return true;
	h->nomem = true;
	return false;
}

static inline void note_sample(struct pd_hits *h, const uint8_t *rec, uint16_t size)
{
	const struct layout *l = h->nevents == 1 ? h->layouts : layout_at(h, rec, size, true);
	if (!l)
		return;
	uint64_t time = l->time && l->time + 8u <= size ? pd_get64(rec + l->time) : 0;
	if (time) {
		h->first = !h->first || time < h->first ? time : h->first;
		h->last = time > h->last ? time : h->last;
	}
	uint16_t misc;
	memcpy(&misc, rec + 4, 2);
	unsigned mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = mode == PERF_RECORD_MISC_KERNEL && h->kernel == SIZE_MAX;
	bool user = mode == PERF_RECORD_MISC_USER && l->ip && l->pid && l->pid + 8u <= size;
	bool timed = time && time != UINT64_MAX;
	if (timed)
		queued(h, time);
	if (!timed && kernel)   /* delivered at once (no time to order it by) */
		deliver_kernel(h);
	else if (!timed && user)
		deliver_user(h, pd_get32(rec + l->pid), pd_get64(rec + l->ip), h->nmaps,
			     h->nforks);
	else if ((kernel || user) &&
		 queue_note(h, user ? pd_get32(rec + l->pid) : 0,
			    (uint32_t)(h->nseq & ~KERNEL_NOTE) | (kernel ? KERNEL_NOTE : 0),
			    (struct note){.time = time, .ip = user ? pd_get64(rec + l->ip) : 0}))
		h->fresh.kernel += kernel;
	else if (timed)
		h->other_max = time > h->other_max ? time : h->other_max;
}

/* MMAP (pid @8, addr @16, len @24, filename @40) and MMAP2 (filename @72,
 * a build id @40 when the kernel put one there); FORK (pid @8, ppid @12):
 * 1, 0 when too short for what is read, -1 without memory. */
static int parse_task(struct task *t, const uint8_t *rec, uint16_t size, uint16_t misc)
{
	/* their fixed parts (reader.c's fixed_size), the file name after them */
	size_t at = t->type == PERF_RECORD_FORK ? 32 : t->type == PERF_RECORD_MMAP ? 40 : 72;
	if (size < at)
		return 0;
	t->pid = pd_get32(rec + 8);
	if (t->type == PERF_RECORD_FORK) {
		t->ppid = pd_get32(rec + 12);
		return 1;
	}
	const char *name = (const char *)rec + at;
	if (size == at || !memchr(name, 0, size - at))
		return 0;
	t->start = pd_get64(rec + 16);
	t->end = t->start + pd_get64(rec + 24);
	t->has_id = t->type == PERF_RECORD_MMAP2 && (misc & MISC_MMAP_BUILD_ID) && rec[40] &&
		    rec[40] <= PD_BUILD_ID_MAX;
	if (t->has_id) {
		t->id_len = rec[40];
		memcpy(t->id, rec + 44, t->id_len);
	}
	t->name = strdup(name);
	return t->name ? 1 : -1;
}

static void note_task(struct pd_hits *h, const uint8_t *rec, uint32_t type, uint16_t size)
{
	const struct layout *l = layout_at(h, rec, size, false);
	uint64_t time = l && l->trailer_time && l->trailer_time <= size - 8u
			? pd_get64(rec + size - l->trailer_time) : 0;
	bool timed = time && time != UINT64_MAX;
	uint16_t misc;
	memcpy(&misc, rec + 4, 2);
	if (timed)
		queued(h, time);
	if (type != PERF_RECORD_MMAP && type != PERF_RECORD_MMAP2 && type != PERF_RECORD_FORK) {
		if (timed)   /* COMM, EXIT and the rest: only their place in the queue */
			h->other_max = time > h->other_max ? time : h->other_max;
		return;
	}
	struct task t = {.type = type, .time = time, .seq = h->nseq++};
	int parsed = parse_task(&t, rec, size, misc);
	h->nomem |= parsed < 0;
	if (parsed <= 0)
		return;
	if (!timed) {
		deliver_task(h, &t);
		free(t.name);
		return;
	}
	if (h->ntasks == h->task_cap) {
		size_t cap = h->task_cap ? 2 * h->task_cap : 16;
		struct task *v = realloc(h->tasks, cap * sizeof(*v));
		if (!v) {
			free(t.name);
			h->nomem = true;
			return;
		}
		h->tasks = v;
		h->task_cap = cap;
	}
	h->tasks[h->ntasks++] = t;
}

/* The common sample, noted inline: user mode, with a time, all events
 * laid out alike.  false: not such a sample (note_sample's). */
static inline bool note_user(struct pd_hits *h, const uint8_t *rec, uint16_t size)
{
	uint16_t misc;
	memcpy(&misc, rec + 4, 2);
	if (size < h->user_size ||
	    (misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return false;
	uint64_t time = pd_get64(rec + h->user.time);
	/* first, last and queued(): flush's, which reads every note */
	return time - 1 < UINT64_MAX - 1 &&
	       queue_note(h, pd_get32(rec + h->user.pid), (uint32_t)(h->nseq & ~KERNEL_NOTE),
			  (struct note){.time = time, .ip = pd_get64(rec + h->user.ip)});
}

/* Any record but the common sample (kept out of pd_hits_add, so that the
 * common case inlined there stays small). */
static __attribute__((noinline)) void note_other(struct pd_hits *h, const uint8_t *rec,
						 uint32_t type, uint16_t size)
{
	if (type == PERF_RECORD_SAMPLE)
		note_sample(h, rec, size);
	else if (type == PD_RECORD_FINISHED_ROUND) {   /* process_finished_round */
		flush(h, h->next_flush);
		h->next_flush = h->max_time;
	} else if (type < PD_RECORD_USER_START)
		note_task(h, rec, type, size);
}

void pd_hits_add(struct pd_hits *h, const void *record)
{
	const uint8_t *rec = record;
	uint32_t type = pd_get32(rec);
	uint16_t size;
	memcpy(&size, rec + 6, 2);
	if (type != PERF_RECORD_SAMPLE || !note_user(h, rec, size))
		note_other(h, rec, type, size);
}

void pd_hits_add_span(struct pd_hits *h, const void *recs, size_t len)
{
	const uint8_t *p = recs;
	for (size_t at = 0; len - at >= 8;) {
		uint16_t size;
		memcpy(&size, p + at + 6, 2);
		if (size < 8 || size > len - at)
			break;
		pd_hits_add(h, p + at);
		at += size;
	}
}

/* --- the feature ---------------------------------------------------------------- */

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

int pd_kernel_build_id(const char *root, uint8_t id[PD_BUILD_ID_MAX], size_t *id_len)
{
	char path[1024];
	uint8_t notes[4096];
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", root ? root : "");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, notes, sizeof(notes));
	close(fd);
	return n > 0 && notes_build_id(notes, (size_t)n, id, id_len) == 0 ? 0 : -ENOENT;
}

const void *pd_vdso_image(size_t *size)
{
	const uint8_t *base = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return NULL;
	/* its section headers come last; the mapping is whole pages, and perf
	 * keeps them all (util/vdso.c find_map) */
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	size_t page = (size_t)getpagesize();
	size_t elf_size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	*size = (elf_size + page - 1) / page * page;
	return base;
}

int pd_vdso_build_id(uint8_t id[PD_BUILD_ID_MAX], size_t *id_len)
{
	size_t size;
	const uint8_t *base = pd_vdso_image(&size);
	if (!base)
		return -ENOENT;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff +
							    (size_t)i * eh->e_phentsize);
		if (ph->p_type == PT_NOTE &&
		    notes_build_id(base + ph->p_offset, ph->p_filesz, id, id_len) == 0)
			return 0;
	}
	return -ENOENT;
}

int pd_hits_finish(struct pd_hits *h, const char *root, struct pd_bytes *build_ids,
		   uint64_t times[2])
{
	flush(h, UINT64_MAX);   /* OE_FLUSH__FINAL */
	for (size_t i = 0; !h->nomem && i < h->ndsos; i++) {
		struct dso *d = &h->dsos[i];
		bool vdso = !strcmp(d->name, "[vdso]");
		if (!d->hit && !vdso)
			continue;
		if (!d->has_id && vdso)
			d->has_id = pd_vdso_build_id(d->id, &d->id_len) == 0;
		else if (!d->has_id && !strcmp(d->name, KERNEL_DSO))
			d->has_id = pd_kernel_build_id(root, d->id, &d->id_len) == 0;
		else if (!d->has_id && d->name[0] == '/')
			d->has_id = pd_elf_build_id(d->name, d->id, &d->id_len) == 0;
		if (d->has_id)
			put_build_id(build_ids, d);
	}
	times[0] = h->first;
	times[1] = h->last;
	return h->nomem || build_ids->nomem ? -ENOMEM : 0;
}

void pd_hits_free(struct pd_hits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->ndsos; i++)
		free(h->dsos[i].name);
	for (size_t i = 0; i < h->ntasks; i++)
		free(h->tasks[i].name);
	free(h->dsos);
	free(h->maps);
	free(h->forks);
	free(h->tasks);
	free(h->held.v);
	free(h->held.runs);
	free(h->fresh.v);
	free(h->fresh.runs);
	free(h->layouts);
	free(h);
}

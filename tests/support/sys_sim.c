/*
 * sys_sim.c - the simulated kernel (sys_sim.h).  Its refusals follow
 * kernel/events/core.c: perf_init_event (-ENOENT for a type no PMU claims),
 * perf_event_open's group rules (-EINVAL for a group on two PMUs, software
 * events excepted), PERF_PMU_CAP_NO_EXCLUDE / NO_INTERRUPT, per-CPU-only
 * PMUs, vpa_dtl's event_init and crashes (arch/powerpc/perf/vpa-dtl.c); reads follow perf_event_open(2)'s read_format layouts; the AUX
 * area is mapped as perf_mmap (kernel/events/core.c) maps it: at the
 * aux_offset written into the control page, aux_size bytes, a power of two
 * pages; a full data ring drops records and reports them in a
 * PERF_RECORD_LOST before the next one (kernel/events/ring_buffer.c
 * perf_output_begin).  A PMU with struct pmu_sim_mux multiplexes as
 * kernel/events/core.c does (ctx_flexible_sched_in, merge_sched_in,
 * group_can_go_on, group_sched_in with power_pmu_commit_txn of
 * arch/powerpc/perf/core-book3s.c, perf_mux_hrtimer_handler,
 * perf_rotate_context, ctx_event_to_rotate, rotate_ctx,
 * __perf_update_times); the others by a proportional share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "evsel.h"
#include "sys_sim.h"

#define SIM_FD_BASE 1000
#define SIM_MAX_FDS 4096
#define SIM_MAX_CTX 64
#define SIM_MUX_INTERVAL_NS 4000000ull /* PERF_CPU_HRTIMER at HZ=250 */

struct sim_event {
	bool open;
	struct perf_event_attr attr;
	const struct pmu_sim_pmu *pmu;
	int leader;           /* index of the leader (itself) */
	bool enabled;
	uint64_t id, value, enabled_ns, running_ns;
	void *ring;           /* mmap: control page + data */
	int output;           /* PERF_EVENT_IOC_SET_OUTPUT: writes go to this
	                         fd's ring (-1: its own) */
	size_t ring_len;
	uint64_t lost;
	uint64_t lost_pending; /* not yet reported in a PERF_RECORD_LOST */
	unsigned char *aux;    /* the AUX area */
	size_t aux_len;
	bool woken;            /* a wake-up pending for poll */
	int cpu;
	bool dtl_freed;        /* vpa_dtl: disabled after it ran, its DTL
	                          buffer freed by vpa_dtl_event_del */
	int ctx;               /* a pmu_sim_mux PMU's context, else -1 */
	bool active;           /* on the PMU (PERF_EVENT_STATE_ACTIVE) */
	uint64_t group_index;  /* a leader's place in the flexible list
	                          (perf_event_groups_insert's group_index) */
};

/* A context of a pmu_sim_mux PMU: its events of one CPU (or per task). */
struct sim_ctx {
	const struct pmu_sim_pmu *pmu;
	int cpu;
	bool rotate_necessary; /* a group could not go on at the last schedule */
	bool timer_on;         /* the mux hrtimer runs, next at timer_at */
	uint64_t timer_at;
};

struct pmu_sim {
	struct pmurt_sys sys;
	struct pmu_sim_pmu *pmus;
	int npmus;
	struct sim_event ev[SIM_MAX_FDS];
	int nev, opens;
	uint32_t inject_type;
	int inject_code;
	uint64_t next_id;
	void (*on_poll)(void *arg);
	void *on_poll_arg;
	bool not_perfmon;      /* the opener lacks CAP_PERFMON/CAP_SYS_ADMIN */
	bool dtl_user;         /* another DTL user holds dtl_access_lock */
	int dtl_refc;          /* vpa-dtl.c dtl_global_refc */
	uint64_t now;          /* simulated ns */
	uint64_t group_seq;    /* the last group_index given */
	struct sim_ctx ctx[SIM_MAX_CTX];
	int nctx;
	int order[SIM_MAX_FDS];                        /* scratch: a list in order */
	const struct perf_event_attr *on[SIM_MAX_FDS]; /* scratch: events on a PMU */
};

static struct sim_event *sim_fd(struct pmu_sim *s, int fd)
{
	int i = fd - SIM_FD_BASE;
	return i >= 0 && i < s->nev && s->ev[i].open ? &s->ev[i] : NULL;
}

static const struct pmu_sim_pmu *find_pmu(const struct pmu_sim *s, uint32_t type)
{
	for (int i = 0; i < s->npmus; i++)
		if (s->pmus[i].type == type)
			return &s->pmus[i];
	return NULL;
}

/* The simulated kernel dies as the real one does: the test fails loudly. */
static _Noreturn void oops(const char *what)
{
	fprintf(stderr, "simulated kernel: %s\nOops: Kernel access of bad area [#1] "
		"(arch/powerpc/perf/vpa-dtl.c)\n", what);
	abort();
}

/* vpa_dtl_event_init (arch/powerpc/perf/vpa-dtl.c), in its order: the
 * capability, a counting event, a branch stack, the config, the
 * dtl_access_lock, then vpa_dtl_mem_alloc(event->cpu), which indexes the
 * per-CPU data with -1 for a per-task open with cpu -1 (UBSAN
 * array-index-out-of-bounds, then an Oops on Linux 7.2). */
static int dtl_event_init(struct pmu_sim *s, const struct perf_event_attr *a, int cpu)
{
	if (s->not_perfmon)
		return -EACCES;
	if (!a->sample_period && !a->freq)
		return -EOPNOTSUPP;
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		return -EOPNOTSUPP;
	if (a->config != 1 && a->config != 2 && a->config != 4 && a->config != 7)
		return -EINVAL;
	if (s->dtl_refc == 0 && s->dtl_user)
		return -EBUSY;
	if (cpu < 0)
		oops("UBSAN: array-index-out-of-bounds in vpa-dtl.c: index -1 "
		     "(vpa_dtl_mem_alloc(event->cpu) of a per-task open, cpu -1)");
	s->dtl_refc++;
	return 0;
}

/* vpa_dtl: event_init, then the core's checks after it (kernel/events/
 * core.c perf_try_init_event: PERF_PMU_CAP_NO_EXCLUDE; perf_event_alloc:
 * no task for a perf_invalid_context PMU; perf_event_open:
 * exclusive_event_installable for PERF_PMU_CAP_EXCLUSIVE), each failure
 * after event_init undoing it (event->destroy, vpa_dtl_reset_global_refc). */
static int dtl_open_checks(struct pmu_sim *s, const struct perf_event_attr *a, pid_t pid,
			   int cpu)
{
	int rc = dtl_event_init(s, a, cpu);
	if (rc)
		return rc;
	if (pmu_attr_excludes_any(a))
		rc = -EINVAL;
	else if (pid != -1)
		rc = -EINVAL;
	for (int i = 0; !rc && i < s->nev; i++)
		if (s->ev[i].open && s->ev[i].pmu->vpa_dtl && s->ev[i].cpu == cpu)
			rc = -EBUSY;
	if (rc)
		s->dtl_refc--;
	return rc;
}

/* The kernel's checks, in perf_event_open's order. */
static int refuse(struct pmu_sim *s, const struct perf_event_attr *a, const struct pmu_sim_pmu *p,
		  pid_t pid, int cpu, int group_fd)
{
	if (s->inject_code && (s->inject_type == PMU_SIM_ANY_TYPE || s->inject_type == a->type)) {
		int code = s->inject_code;
		s->inject_code = 0;
		return code;
	}
	if (!p)
		return -ENOENT;
	if (p->vpa_dtl)
		return dtl_open_checks(s, a, pid, cpu);   /* alone: never in a group here */
	if (p->per_cpu_only && cpu < 0)
		return -EINVAL;
	if (p->no_exclude && pmu_attr_excludes_any(a))
		return -EINVAL;
	if (p->no_sampling && (a->sample_period || a->freq))
		return -EOPNOTSUPP;
	if (p->sampling_only && !a->sample_period && !a->freq)
		return -EOPNOTSUPP;
	if (group_fd >= 0) {
		struct sim_event *l = sim_fd(s, group_fd);
		if (!l)
			return -EBADF;
		if (l->pmu != p && p->type != PERF_TYPE_SOFTWARE && l->pmu->type != PERF_TYPE_SOFTWARE)
			return -EINVAL;
	}
	return 0;
}

static bool counting(const struct pmu_sim *s, const struct sim_event *e)
{
	return e->open && e->enabled && s->ev[e->leader].enabled;
}

/* --- the kernel's multiplexing (pmu_sim_mux) ------------------------------- */

/* The context of an event of a pmu_sim_mux PMU opened on cpu: its leader's,
 * else the PMU's context of that CPU, made when new; -1 for other PMUs and
 * when SIM_MAX_CTX are in use. */
static int mux_ctx_of(struct pmu_sim *s, const struct pmu_sim_pmu *p, int cpu, int leader)
{
	if (!p || !p->mux)
		return -1;
	if (leader >= 0 && s->ev[leader].pmu == p)
		return s->ev[leader].ctx;
	for (int c = 0; c < s->nctx; c++)
		if (s->ctx[c].pmu == p && s->ctx[c].cpu == cpu)
			return c;
	if (s->nctx == SIM_MAX_CTX)
		return -1;
	s->ctx[s->nctx] = (struct sim_ctx){.pmu = p, .cpu = cpu};
	return s->nctx++;
}

/* The leaders of context c in flexible-list order (group_index, an
 * insertion sort: the list changes by one group a rotation) into s->order;
 * how many. */
static int mux_list(struct pmu_sim *s, int c)
{
	int n = 0;
	for (int i = 0; i < s->nev; i++) {
		if (!s->ev[i].open || s->ev[i].ctx != c || s->ev[i].leader != i)
			continue;
		int k = n++;
		for (; k > 0 && s->ev[s->order[k - 1]].group_index > s->ev[i].group_index; k--)
			s->order[k] = s->order[k - 1];
		s->order[k] = i;
	}
	return n;
}

/* perf_event_mux_interval_ms of a pmu_sim_mux PMU, in ns. */
static uint64_t mux_interval(const struct pmu_sim_pmu *p)
{
	return p->mux->interval_ns ? p->mux->interval_ns : SIM_MUX_INTERVAL_NS;
}

/* Whether the PMU takes these n events on together. */
static bool mux_fits(const struct pmu_sim_pmu *p, const struct perf_event_attr *const *on, int n)
{
	if (p->mux->fits)
		return p->mux->fits(p->mux->arg, on, n);
	return !p->counters || n <= p->counters;
}

/* group_sched_in: the group's enabled events (event_sched_in skips those
 * OFF) added to the n on the PMU, kept when the PMU's transaction commits
 * (power_pmu_commit_txn checks all of them); the new count of events on. */
static int mux_group_in(struct pmu_sim *s, const struct sim_ctx *c, int leader, int n, bool *went)
{
	int n0 = n;
	for (int i = 0; i < s->nev; i++) {
		const struct sim_event *e = &s->ev[i];
		if (e->open && e->enabled && e->leader == leader && e->pmu == c->pmu)
			s->on[n++] = &e->attr;
	}
	*went = mux_fits(c->pmu, s->on, n);
	for (int i = 0; *went && i < s->nev; i++) {
		struct sim_event *e = &s->ev[i];
		if (e->open && e->enabled && e->leader == leader && e->pmu == c->pmu)
			e->active = true;
	}
	return *went ? n : n0;
}

/* ctx_flexible_sched_in over merge_sched_in: the groups in list order, those
 * OFF skipped; a group goes on only while every earlier one did
 * (group_can_go_on's can_add_hw); the first that cannot makes rotation
 * necessary and starts the mux timer if it is not running
 * (perf_mux_hrtimer_restart). */
static void mux_sched_in(struct pmu_sim *s, int c, uint64_t now)
{
	struct sim_ctx *x = &s->ctx[c];
	int nl = mux_list(s, c), non = 0;
	bool can_add_hw = true;
	for (int k = 0; k < nl; k++) {
		int l = s->order[k];
		bool went = false;
		if (!s->ev[l].enabled)
			continue; /* state <= PERF_EVENT_STATE_OFF */
		if (can_add_hw)
			non = mux_group_in(s, x, l, non, &went);
		if (went)
			continue;
		can_add_hw = false;
		x->rotate_necessary = true;
		if (!x->timer_on) {
			x->timer_on = true;
			x->timer_at = now + mux_interval(x->pmu);
		}
	}
}

/* ctx_sched_out of the flexible groups: all off, rotate_necessary cleared. */
static void mux_sched_out(struct pmu_sim *s, int c)
{
	for (int i = 0; i < s->nev; i++)
		if (s->ev[i].ctx == c)
			s->ev[i].active = false;
	s->ctx[c].rotate_necessary = false;
}

/* ctx_resched: the context's flexible groups out and in again. */
static void mux_resched(struct pmu_sim *s, int c)
{
	if (c < 0)
		return;
	mux_sched_out(s, c);
	mux_sched_in(s, c, s->now);
}

/* perf_mux_hrtimer_handler at time t: perf_rotate_context when a group
 * could not go on (ctx_event_to_rotate: the first group on, else the first
 * in the list; rotate_ctx moves it to the tail with a new group_index),
 * the timer forwarded by the interval; else the timer stops. */
static void mux_tick(struct pmu_sim *s, int c, uint64_t t)
{
	struct sim_ctx *x = &s->ctx[c];
	if (!x->rotate_necessary) {
		x->timer_on = false;
		return;
	}
	int nl = mux_list(s, c), pick = nl ? s->order[0] : -1;
	for (int k = 0; k < nl; k++)
		if (s->ev[s->order[k]].active) {
			pick = s->order[k];
			break;
		}
	mux_sched_out(s, c);
	if (pick >= 0)
		s->ev[pick].group_index = ++s->group_seq;
	mux_sched_in(s, c, t);
	x->timer_at += mux_interval(x->pmu);
}

/* [from, to) of context c: __perf_update_times (enabled while the event
 * and its leader are enabled, running while on) and the counts of the time
 * on. */
static void mux_account(struct pmu_sim *s, int c, uint64_t from, uint64_t to)
{
	const struct pmu_sim_pmu *p = s->ctx[c].pmu;
	for (int i = 0; i < s->nev && to > from; i++) {
		struct sim_event *e = &s->ev[i];
		if (e->ctx != c || !counting(s, e) || !s->ev[e->leader].open)
			continue;   /* a closed leader's members stop (pmu_sim_mux) */
		e->enabled_ns += to - from;
		if (!e->active)
			continue;
		e->running_ns += to - from;
		e->value += p->mux->counts ? p->mux->counts(p->mux->arg, &e->attr, from, to)
					   : (to - from) * p->per_ms / 1000000;
	}
}

/* Context c from s->now to end, rotating at each tick on the way. */
static void mux_advance(struct pmu_sim *s, int c, uint64_t end)
{
	uint64_t t = s->now;
	while (s->ctx[c].timer_on && s->ctx[c].timer_at <= end) {
		uint64_t tick = s->ctx[c].timer_at;
		mux_account(s, c, t, tick);
		t = tick;
		mux_tick(s, c, tick);
	}
	mux_account(s, c, t, end);
}

static int sim_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	struct pmu_sim *s = ctx;
	(void)flags;
	s->opens++;
	const struct pmu_sim_pmu *p = find_pmu(s, attr->type);
	int rc = refuse(s, attr, p, pid, cpu, group_fd);
	if (rc)
		return rc;
	if (s->nev == SIM_MAX_FDS)
		return -EMFILE;
	int i = s->nev++;
	struct sim_event *e = &s->ev[i];
	*e = (struct sim_event){.open = true, .attr = *attr, .pmu = p, .leader = i,
				.enabled = !attr->disabled, .id = ++s->next_id, .output = -1,
				.cpu = cpu, .group_index = ++s->group_seq};
	if (group_fd >= 0)
		e->leader = group_fd - SIM_FD_BASE;
	e->ctx = mux_ctx_of(s, p, cpu, group_fd >= 0 ? e->leader : -1);
	if (e->ctx < 0 && p && p->mux) {
		e->open = false;
		s->nev--;
		return -EMFILE;
	}
	if (counting(s, e))   /* perf_install_in_context: ctx_resched */
		mux_resched(s, e->ctx);
	return SIM_FD_BASE + i;
}

/* vpa_dtl_event_add writes the buffer size into the DTL buffer that
 * vpa_dtl_event_del freed and set to NULL: "Kernel NULL pointer
 * dereference on write at 0x00000004" on Linux 7.2. */
static void enable(struct sim_event *e)
{
	if (e->pmu && e->pmu->vpa_dtl && !e->enabled && e->dtl_freed)
		oops("BUG: Kernel NULL pointer dereference on write at 0x00000004, "
		     "NIP vpa_dtl_event_add: a vpa_dtl event enabled again after a disable");
	e->enabled = true;
}

/* An event that ran is scheduled out: vpa_dtl_event_del frees its buffer. */
static void disable(struct sim_event *e)
{
	if (e->pmu && e->pmu->vpa_dtl && e->enabled)
		e->dtl_freed = true;
	e->enabled = false;
	e->active = false;   /* __perf_event_disable: group_sched_out */
}

static int sim_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
	struct pmu_sim *s = ctx;
	struct sim_event *e = sim_fd(s, fd);
	if (!e)
		return -EBADF;
	if (request == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = e->id;
		return 0;
	}
	if (request == PERF_EVENT_IOC_SET_OUTPUT) {
		struct sim_event *to = sim_fd(s, (int)arg);
		if (!to || !to->ring || e->ring)
			return -EINVAL;
		e->output = (int)arg;
		return 0;
	}
	int self = fd - SIM_FD_BASE;
	bool group = arg & PERF_IOC_FLAG_GROUP;
	for (int i = 0; i < s->nev; i++) {
		struct sim_event *t = &s->ev[i];
		if (!t->open || (i != self && !(group && e->leader == self && t->leader == self)))
			continue;
		if (request == PERF_EVENT_IOC_ENABLE)
			enable(t);
		else if (request == PERF_EVENT_IOC_DISABLE)
			disable(t);
		else if (request == PERF_EVENT_IOC_RESET)
			t->value = 0;
		else
			return -ENOTTY;
	}
	/* __perf_event_enable: ctx_resched; a disable schedules nothing in */
	if (request == PERF_EVENT_IOC_ENABLE)
		mux_resched(s, e->ctx);
	return 0;
}

/* read_format's layouts (perf_event_open(2), "Reading results"). */
static size_t put_one(const struct sim_event *e, uint64_t *out, bool times)
{
	size_t n = 0;
	uint64_t f = e->attr.read_format;
	out[n++] = e->value;
	if (times && (f & PERF_FORMAT_TOTAL_TIME_ENABLED))
		out[n++] = e->enabled_ns;
	if (times && (f & PERF_FORMAT_TOTAL_TIME_RUNNING))
		out[n++] = e->running_ns;
	if (f & PERF_FORMAT_ID)
		out[n++] = e->id;
	return n;
}

static ssize_t sim_read(void *ctx, int fd, void *buf, size_t len)
{
	struct pmu_sim *s = ctx;
	struct sim_event *e = sim_fd(s, fd);
	uint64_t tmp[3 + 2 * 64];
	size_t n = 0;
	if (!e)
		return -EBADF;
	if (!(e->attr.read_format & PERF_FORMAT_GROUP)) {
		n = put_one(e, tmp, true);
	} else {
		int self = fd - SIM_FD_BASE, nr = 0;
		n = 1;
		if (e->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			tmp[n++] = e->enabled_ns;
		if (e->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			tmp[n++] = e->running_ns;
		for (int i = 0; i < s->nev && nr < 64; i++)
			if (s->ev[i].open && s->ev[i].leader == self) {
				n += put_one(&s->ev[i], tmp + n, false);
				nr++;
			}
		tmp[0] = (uint64_t)nr;
	}
	if (len < n * sizeof(uint64_t))
		return -ENOSPC;
	memcpy(buf, tmp, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

static bool power_of_two(size_t n)
{
	return n && !(n & (n - 1));
}

/* perf_mmap's AUX branch: the ring mapped first, aux_offset and aux_size
 * from its control page, page multiples, a power of two pages. */
static void *map_aux(struct sim_event *e, size_t len, off_t offset, size_t page, int *err)
{
	const struct perf_event_mmap_page *pc = e->ring;
	*err = !pc || e->aux || (uint64_t)offset != pc->aux_offset || len != pc->aux_size ||
			       len % page || (size_t)offset % page || !power_of_two(len / page)
		       ? -EINVAL : 0;
	void *p = NULL;
	if (!*err && posix_memalign(&p, page, len))
		*err = -ENOMEM;
	if (*err)
		return NULL;
	memset(p, 0, len);
	e->aux = p;
	e->aux_len = len;
	return p;
}

static void *sim_mmap(void *ctx, int fd, size_t len, off_t offset, int *err)
{
	struct pmu_sim *s = ctx;
	struct sim_event *e = sim_fd(s, fd);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (e && offset)
		return map_aux(e, len, offset, page, err);
	*err = !e ? -EBADF : e->ring || len % page || !power_of_two(len / page - 1)
			     ? -EINVAL : 0;
	if (*err)
		return NULL;
	void *p = NULL;
	if (posix_memalign(&p, page, len)) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(p, 0, len);
	struct perf_event_mmap_page *pc = p;
	pc->data_offset = page;
	pc->data_size = len - page;
	e->ring = p;
	e->ring_len = len;
	return p;
}

static int sim_munmap(void *ctx, void *addr, size_t len)
{
	struct pmu_sim *s = ctx;
	for (int i = 0; i < s->nev; i++) {
		struct sim_event *e = &s->ev[i];
		if (e->aux == addr && e->aux_len == len) {
			/* perf_mmap_close stops the active events writing to
			 * an AUX area it unmaps (perf_pmu_output_stop ->
			 * __perf_event_stop -> pmu->stop); vpa_dtl has no stop
			 * callback: a call through NULL, an Oops on Linux 7.2 */
			if (e->pmu && e->pmu->vpa_dtl && e->enabled)
				oops("BUG: Unable to handle kernel instruction fetch (NULL pointer?), "
				     "LR __perf_event_stop: a vpa_dtl AUX area unmapped while its "
				     "event is enabled");
			free(addr);
			e->aux = NULL;
			return 0;
		}
		if (e->ring == addr && e->ring_len == len) {
			free(addr);
			e->ring = NULL;
			return 0;
		}
	}
	return -EINVAL;
}

static int sim_close(void *ctx, int fd)
{
	struct pmu_sim *s = ctx;
	struct sim_event *e = sim_fd(s, fd);
	if (!e)
		return -EBADF;
	e->open = false;
	e->active = false;
	if (e->pmu && e->pmu->vpa_dtl)
		s->dtl_refc--;   /* vpa_dtl_reset_global_refc */
	int self = fd - SIM_FD_BASE;
	for (int i = 0; e->ctx >= 0 && i < s->nev; i++)
		if (s->ev[i].leader == self)
			s->ev[i].active = false;   /* see pmu_sim_mux: members stop */
	return 0;
}

/* A ring with unread data, or a wake-up pending (the AUX watermark), is
 * readable; the hook (pmu_sim_on_poll) runs first, as time passing. */
static int sim_poll(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	struct pmu_sim *s = ctx;
	(void)timeout_ms; /* simulated time: nothing to wait for */
	if (s->on_poll)
		s->on_poll(s->on_poll_arg);
	int ready = 0;
	for (nfds_t i = 0; i < nfds; i++) {
		struct sim_event *e = sim_fd(s, fds[i].fd);
		const struct perf_event_mmap_page *pc = e ? e->ring : NULL;
		bool data = pc && pc->data_head != pc->data_tail;
		fds[i].revents = !e ? POLLNVAL : (data || e->woken) ? POLLIN : 0;
		if (e)
			e->woken = false;
		ready += fds[i].revents != 0;
	}
	return ready;
}

int pmu_sim_new(struct pmu_sim **sim, const struct pmu_sim_pmu *pmus, int npmus)
{
	struct pmu_sim *s = calloc(1, sizeof(*s));
	if (!s || !(s->pmus = calloc((size_t)npmus + 1, sizeof(*pmus)))) {
		free(s);
		return -ENOMEM;
	}
	memcpy(s->pmus, pmus, (size_t)npmus * sizeof(*pmus));
	s->npmus = npmus;
	s->sys = (struct pmurt_sys){.event_open = sim_open, .ioctl = sim_ioctl, .read = sim_read,
				  .mmap = sim_mmap, .munmap = sim_munmap, .close = sim_close,
				  .poll = sim_poll, .ctx = s};
	*sim = s;
	return 0;
}

void pmu_sim_free(struct pmu_sim *sim)
{
	if (!sim)
		return;
	for (int i = 0; i < sim->nev; i++) {
		free(sim->ev[i].ring);
		free(sim->ev[i].aux);
	}
	free(sim->pmus);
	free(sim);
}

const struct pmurt_sys *pmu_sim_sys(struct pmu_sim *sim)
{
	return &sim->sys;
}

void pmu_sim_inject(struct pmu_sim *sim, uint32_t type, int code)
{
	sim->inject_type = type;
	sim->inject_code = code;
}

void pmu_sim_advance(struct pmu_sim *sim, uint64_t ns)
{
	for (int c = 0; c < sim->nctx; c++)
		mux_advance(sim, c, sim->now + ns);
	for (int p = 0; p < sim->npmus; p++) {
		const struct pmu_sim_pmu *pmu = &sim->pmus[p];
		uint64_t active = 0;
		if (pmu->mux)
			continue;
		for (int i = 0; i < sim->nev; i++)
			active += counting(sim, &sim->ev[i]) && sim->ev[i].pmu == pmu;
		uint64_t share = !pmu->counters || active <= (uint64_t)pmu->counters
					 ? ns : ns * (uint64_t)pmu->counters / active;
		for (int i = 0; i < sim->nev; i++) {
			struct sim_event *e = &sim->ev[i];
			if (!counting(sim, e) || e->pmu != pmu)
				continue;
			e->enabled_ns += ns;
			e->running_ns += share;
			e->value += share * pmu->per_ms / 1000000;
		}
	}
	sim->now += ns;
}

uint64_t pmu_sim_now(const struct pmu_sim *sim)
{
	return sim->now;
}

bool pmu_sim_active(const struct pmu_sim *sim, int fd)
{
	int i = fd - SIM_FD_BASE;
	return i >= 0 && i < sim->nev && sim->ev[i].open && sim->ev[i].active;
}

int pmu_sim_opens(const struct pmu_sim *sim)
{
	return sim->opens;
}

int pmu_sim_open_fds(const struct pmu_sim *sim)
{
	int n = 0;
	for (int i = 0; i < sim->nev; i++)
		n += sim->ev[i].open;
	return n;
}

const struct perf_event_attr *pmu_sim_attr(const struct pmu_sim *sim, int fd)
{
	int i = fd - SIM_FD_BASE;
	return i >= 0 && i < sim->nev && sim->ev[i].open ? &sim->ev[i].attr : NULL;
}

static void put_ring(struct perf_event_mmap_page *pc, const void *rec, size_t len)
{
	unsigned char *data = (unsigned char *)pc + pc->data_offset;
	uint64_t size = pc->data_size, head = pc->data_head;
	for (size_t k = 0; k < len; k++)
		data[(head + k) % size] = ((const unsigned char *)rec)[k];
	__atomic_store_n(&pc->data_head, head + len, __ATOMIC_RELEASE);
}

size_t pmu_sim_trailer(const struct pmu_sim *sim, int fd, uint32_t pid, uint32_t tid,
		       uint64_t time, void *out)
{
	int i = fd - SIM_FD_BASE;
	const struct sim_event *e = &sim->ev[i];
	uint64_t st = e->attr.sample_id_all ? e->attr.sample_type : 0, v[6];
	size_t n = 0;
	if (st & PERF_SAMPLE_TID)
		v[n++] = pid | (uint64_t)tid << 32;
	if (st & PERF_SAMPLE_TIME)
		v[n++] = time;
	if (st & PERF_SAMPLE_ID)
		v[n++] = e->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		v[n++] = e->id;
	if (st & PERF_SAMPLE_CPU)
		v[n++] = (uint32_t)e->cpu;
	if (st & PERF_SAMPLE_IDENTIFIER)
		v[n++] = e->id;
	memcpy(out, v, n * 8);
	return n * 8;
}

/* PERF_RECORD_LOST {id, lost} and the trailer of the ring's event. */
static size_t lost_record(const struct pmu_sim *sim, int fd, const struct sim_event *e,
			  uint64_t out[10])
{
	size_t len = 24 + pmu_sim_trailer(sim, fd, 0, 0, 0, out + 3);
	struct perf_event_header h = {.type = PERF_RECORD_LOST, .size = (uint16_t)len};
	memcpy(out, &h, sizeof h);
	out[1] = e->id;
	out[2] = e->lost_pending;
	return len;
}

int pmu_sim_ring_write(struct pmu_sim *sim, int fd, const void *rec, size_t len)
{
	struct sim_event *e = sim_fd(sim, fd);
	if (e && !e->ring && e->output >= 0) {
		fd = e->output;
		e = sim_fd(sim, fd); /* redirected (SET_OUTPUT) */
	}
	if (!e || !e->ring)
		return -EINVAL;
	struct perf_event_mmap_page *pc = e->ring;
	uint64_t lost[10];
	size_t lost_len = e->lost_pending ? lost_record(sim, fd, e, lost) : 0;
	uint64_t tail = __atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE);
	if (pc->data_head - tail + lost_len + len > pc->data_size) {
		e->lost++;
		e->lost_pending++;
		return -ENOSPC;
	}
	if (lost_len)
		put_ring(pc, lost, lost_len);
	e->lost_pending = 0;
	put_ring(pc, rec, len);
	return 0;
}

uint64_t pmu_sim_ring_lost(const struct pmu_sim *sim, int fd)
{
	int i = fd - SIM_FD_BASE;
	return i >= 0 && i < sim->nev ? sim->ev[i].lost : 0;
}

int pmu_sim_fds_of(const struct pmu_sim *sim, uint32_t type, int *fds, int max)
{
	int n = 0;
	for (int i = 0; i < sim->nev && n < max; i++)
		if (sim->ev[i].open && sim->ev[i].attr.type == type)
			fds[n++] = SIM_FD_BASE + i;
	return n;
}

int pmu_sim_aux(struct pmu_sim *sim, int fd, struct perf_event_mmap_page **ctl,
		unsigned char **aux, uint64_t *size)
{
	struct sim_event *e = sim_fd(sim, fd);
	if (!e || !e->ring || !e->aux)
		return -EINVAL;
	*ctl = e->ring;
	*aux = e->aux;
	*size = e->aux_len;
	return 0;
}

int pmu_sim_cpu(const struct pmu_sim *sim, int fd)
{
	int i = fd - SIM_FD_BASE;
	return i >= 0 && i < sim->nev ? sim->ev[i].cpu : -1;
}

bool pmu_sim_enabled(const struct pmu_sim *sim, int fd)
{
	int i = fd - SIM_FD_BASE;
	return i >= 0 && i < sim->nev && counting(sim, &sim->ev[i]);
}

void pmu_sim_disable(struct pmu_sim *sim, int fd)
{
	struct sim_event *e = sim_fd(sim, fd);
	if (e)
		disable(e);
}

void pmu_sim_set_perfmon(struct pmu_sim *sim, bool capable)
{
	sim->not_perfmon = !capable;
}

void pmu_sim_set_dtl_user(struct pmu_sim *sim, bool held)
{
	sim->dtl_user = held;
}

void pmu_sim_wake(struct pmu_sim *sim, int fd)
{
	struct sim_event *e = sim_fd(sim, fd);
	if (e)
		e->woken = true;
}

void pmu_sim_on_poll(struct pmu_sim *sim, void (*fn)(void *arg), void *arg)
{
	sim->on_poll = fn;
	sim->on_poll_arg = arg;
}

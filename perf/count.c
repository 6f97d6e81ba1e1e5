/*
 * count.c - counting: an event list opened as perf stat opens it (each
 * group's leader disabled, PERF_FORMAT_GROUP | ID with both times, on a
 * task with inherit or on CPUs), enabled, read and scaled.  A group of core
 * events is checked with pmurt_group_check before any system call.  perf's
 * tool events (duration_time, user_time, system_time) open nothing: they
 * are measured here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>

#include "opts.h"
#include "perf_int.h"
#include "sysfs.h"

static int check_groups(const struct pmu_host *host, const struct pmu_evlist *list,
			bool per_task, struct pmurt_error *err)
{
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = per_task,
						       .lpar = true);
	for (int i = 0; i < list->n; i += list->v[i].group_size) {
		struct pmurt_group_result res = {.sz = sizeof(res)};
		int rc = pmu_evlist_group_check(host, list, i, &opts, &res, err);
		if (rc)
			return rc;
		if (!res.ok && res.reason[0]) { /* checked (it had core events) and refused */
			const char *pmu = host->core->model.name ? host->core->model.name : "the core PMU";
			pmurt_set_error(err, -EINVAL, "group led by '%s' cannot be counted on %s "
					"(nothing was opened): %s: %s", list->v[i].name, pmu,
					res.reason, res.message);
			return -EINVAL;
		}
	}
	return 0;
}

void pmu_count_attr(const struct pmu_evlist *list, int i, bool per_task, bool inherit,
		    bool enable_on_exec, struct perf_event_attr *attr)
{
	const struct pmu_evsel *e = &list->v[i];
	bool leads = e->leader == i;
	*attr = e->attr;
	attr->size = sizeof(*attr);
	attr->read_format = PMU_COUNT_READ_FORMAT;
	attr->disabled = leads;
	attr->enable_on_exec = leads && enable_on_exec;
	attr->inherit = per_task && inherit;
}

static void close_all(struct pmurt_counter *c)
{
	for (int k = 0; c->fds && k < c->ncpus * c->list->n; k++)
		if (c->fds[k] >= 0)
			c->host->sys->close(c->host->sys->ctx, c->fds[k]);
}

static int open_one(struct pmurt_counter *c, int cpu_idx, int i, const struct pmurt_counter_opts *o,
		    struct pmurt_error *err)
{
	const struct pmurt_sys *sys = c->host->sys;
	const struct pmu_evsel *e = &c->list->v[i];
	int cpu = c->cpus[cpu_idx], base = cpu_idx * c->list->n;
	const char *mask = c->list->v[e->leader].cpumask;
	if (cpu >= 0 && mask[0] && !pmu_cpulist_has(mask, cpu))
		return 0; /* not one of its PMU's CPUs: the group stays closed there */
	if (c->skipped[i] || e->kind == PMU_EVSEL_TOOL)
		return 0;
	struct perf_event_attr attr;
	pmu_count_attr(c->list, i, cpu < 0, o->inherit, o->enable_on_exec, &attr);
	int group_fd = e->leader == i ? -1 : c->fds[base + e->leader];
	int fd = sys->event_open(sys->ctx, &attr, cpu < 0 ? c->pid : -1, cpu, group_fd,
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		pmu_explain_open(c->host, c->list, i, cpu < 0 ? c->pid : -1, cpu, fd, err);
		return fd;
	}
	c->fds[base + i] = fd;
	int rc = sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ID, (unsigned long)&c->ids[base + i]);
	if (rc < 0)
		pmurt_set_error(err, rc, "PERF_EVENT_IOC_ID on '%s': %s", e->name, strerror(-rc));
	return rc < 0 ? rc : 0;
}

static int alloc_counter(struct pmurt_counter *c, const struct pmurt_counter_opts *o)
{
	c->ncpus = o->cpus ? o->ncpus : 1;
	size_t nfd = (size_t)c->ncpus * (size_t)c->list->n;
	int biggest = 1;
	for (int i = 0; i < c->list->n; i++)
		if (c->list->v[i].group_size > biggest)
			biggest = c->list->v[i].group_size;
	c->buf_len = (3 + 2 * (size_t)biggest) * sizeof(uint64_t);
	c->cpus = malloc((size_t)c->ncpus * sizeof(int));
	c->fds = malloc(nfd * sizeof(int));
	c->ids = calloc(nfd, sizeof(uint64_t));
	c->buf = malloc(c->buf_len);
	c->sum = calloc((size_t)c->list->n, sizeof(*c->sum));
	c->skipped = calloc((size_t)c->list->n, sizeof(*c->skipped));
	if (!c->cpus || !c->fds || !c->ids || !c->buf || !c->sum || !c->skipped)
		return -ENOMEM;
	for (size_t k = 0; k < nfd; k++)
		c->fds[k] = -1;
	for (int k = 0; k < c->ncpus; k++)
		c->cpus[k] = o->cpus ? o->cpus[k] : -1;
	return 0;
}

/* The size of 0.3.0's struct pmurt_count, which lacked skipped. */
#define COUNT_SIZE_0_3_0 offsetof(struct pmurt_count, skipped)

static int check_opts(const struct pmurt_counter_opts *o, const char *fn, struct pmurt_error *err)
{
	if (o->cpus && o->ncpus < 1) {
		pmurt_set_error(err, -EINVAL, "%s: cpus given with ncpus %d", fn, o->ncpus);
		return -EINVAL;
	}
	if (o->cpus && (o->inherit || o->enable_on_exec || o->pid)) {
		pmurt_set_error(err, -EINVAL, "%s: CPU-wide counting takes no pid, inherit or "
				"enable_on_exec", fn);
		return -EINVAL;
	}
	return 0;
}

/* builtin-stat.c stat_handle_error: the errnos perf stat takes for an
 * event the kernel does not support, counting the others. */
static bool not_supported(int rc)
{
	return rc == -EINVAL || rc == -ENOSYS || rc == -ENOENT || rc == -EOPNOTSUPP ||
	       rc == -ENXIO;
}

/* Leaves event i out (rc its open's error): a leader with its members. */
static void skip_event(struct pmurt_counter *c, int i, int rc)
{
	c->skipped[i] = -rc;
	if (c->list->v[i].leader != i)
		return;
	for (int m = i + 1; m < i + c->list->v[i].group_size; m++)
		c->skipped[m] = ECANCELED;
}

int pmu_refuse_dtl_per_task(const struct pmu_host *host, const struct pmu_evlist *list, pid_t pid,
			    struct pmurt_error *err)
{
	for (int i = 0; i < list->n; i++)
		if (pmu_is_vpa_dtl(list->v[i].pmu)) {
			pmu_explain_open(host, list, i, pid, -1, -EINVAL, err);
			return -EINVAL;
		}
	return 0;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* The caller's reaped children's user and system times, ns (perf 6.1's
 * update_rusage_stats of wait4's rusage). */
static void children_times(uint64_t *user, uint64_t *system)
{
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		*user = timeval_ns(ru.ru_utime);
		*system = timeval_ns(ru.ru_stime);
	}
}

/* Tool event i's value now (its time_enabled and time_running too, as
 * perf 6.1's read_single_counter sets them). */
static uint64_t tool_value(const struct pmurt_counter *c, int i)
{
	uint64_t user = c->tool_user, system = c->tool_system;
	switch (c->list->v[i].tool) {
	case PMURT_TOOL_DURATION_TIME:
		return monotonic_ns() - c->tool_start;
	case PMURT_TOOL_USER_TIME:
		children_times(&user, &system);
		return user - c->tool_user;
	case PMURT_TOOL_SYSTEM_TIME:
		children_times(&user, &system);
		return system - c->tool_system;
	default:
		return 0;
	}
}

/* Opens a parsed list (taken over by c); the library's and the tools' entry. */
static int counter_open_list(struct pmurt_counter *c, const struct pmurt_counter_opts *o,
			     struct pmurt_error *err)
{
	int rc = o->cpus ? 0 : pmu_refuse_dtl_per_task(c->host, c->list, o->pid, err);
	if (rc)
		return rc;
	rc = pmu_refuse_foreign_core(c->host, c->list, err);
	if (rc)
		return rc;
	rc = check_groups(c->host, c->list, o->cpus == NULL, err);
	if (rc)
		return rc;
	if (alloc_counter(c, o)) {
		pmurt_set_error(err, -ENOMEM, "pmurt_counter_open: out of memory");
		return -ENOMEM;
	}
	c->pid = o->cpus ? -1 : o->pid;
	c->tool_start = monotonic_ns();
	children_times(&c->tool_user, &c->tool_system);
	struct pmurt_error first = {0};   /* the first event left out: why */
	int first_rc = 0, left_out = 0;
	for (int k = 0; k < c->ncpus && !rc; k++)
		for (int i = 0; i < c->list->n && !rc; i++) {
			rc = open_one(c, k, i, o, err);
			if (rc < 0 && o->skip_unsupported && not_supported(rc)) {
				if (!first_rc && err)
					first = *err;
				first_rc = first_rc ? first_rc : rc;
				skip_event(c, i, rc);
				rc = 0;
			}
		}
	for (int i = 0; i < c->list->n; i++)
		left_out += c->skipped[i] != 0;
	if (!rc && left_out == c->list->n) {
		if (err)
			*err = first;
		rc = first_rc;
	}
	if (!rc)
		pmurt_clear_error(err);
	return rc;
}

/* The options as the opening functions take them (fn names the caller). */
static int take_opts(struct pmurt_counter_opts *o, const struct pmurt_counter_opts *opts,
		     const char *fn, struct pmurt_error *err)
{
	*o = PMURT_OPTS_INIT(pmurt_counter_opts);
	if (pmu_opts_valid(opts, sizeof(struct pmurt_counter_opts), fn, err))
		return -EINVAL;
	/* a smaller, older struct: the fields it lacks keep their defaults */
	pmu_opts_take(o, sizeof(struct pmurt_counter_opts), opts);
	return check_opts(o, fn, err);
}

/* A counter over list (owned when the string form parsed it), opened. */
static int open_counter(struct pmurt_counter **out, const struct pmurt_evlist *list,
			struct pmurt_evlist *owned, const struct pmurt_counter_opts *o,
			const char *fn, struct pmurt_error *err)
{
	struct pmurt_counter *c = calloc(1, sizeof(*c));
	if (!c) {
		pmurt_evlist_free(owned);
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", fn);
		return -ENOMEM;
	}
	c->host = &list->host->h;
	c->list = &list->l;
	c->owned = owned;
	int rc = 0;
	if (!c->list->n) {
		pmurt_set_error(err, -EINVAL, "%s: no events", fn);
		rc = -EINVAL;
	}
	if (!rc)
		rc = counter_open_list(c, o, err);
	if (rc) {
		pmurt_counter_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

int pmurt_counter_open_list(struct pmurt_counter **out, const struct pmurt_evlist *list,
			    const struct pmurt_counter_opts *opts, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!out || !list) {
		pmurt_set_error(err, -EINVAL, "pmurt_counter_open_list: missing argument");
		return -EINVAL;
	}
	*out = NULL;
	struct pmurt_counter_opts o;
	if (take_opts(&o, opts, "pmurt_counter_open_list", err))
		return -EINVAL;
	return open_counter(out, list, NULL, &o, "pmurt_counter_open_list", err);
}

int pmurt_counter_open(struct pmurt_counter **out, struct pmurt_host *host, const char *events,
		       const struct pmurt_counter_opts *opts, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!out || !host || !events) {
		pmurt_set_error(err, -EINVAL, "pmurt_counter_open: missing argument");
		return -EINVAL;
	}
	*out = NULL;
	struct pmurt_counter_opts o;
	struct pmurt_evlist *list = NULL;
	if (take_opts(&o, opts, "pmurt_counter_open", err))
		return -EINVAL;
	int rc = pmurt_evlist_parse(&list, host, events, NULL, err);
	return rc ? rc : open_counter(out, list, list, &o, "pmurt_counter_open", err);
}

int pmurt_counter_refusal(const struct pmurt_evlist *list, const struct pmurt_counter_opts *opts,
			  struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct pmurt_counter_opts o;
	if (!list) {
		pmurt_set_error(err, -EINVAL, "pmurt_counter_refusal: missing argument");
		return -EINVAL;
	}
	if (take_opts(&o, opts, "pmurt_counter_refusal", err))
		return -EINVAL;
	return o.cpus ? 0 : pmu_refuse_dtl_per_task(&list->host->h, &list->l, o.pid, err);
}

int pmurt_counter_attr(const struct pmurt_evlist *list, int i,
		       const struct pmurt_counter_opts *opts, struct perf_event_attr *attr,
		       size_t attr_size)
{
	struct pmurt_counter_opts o;
	struct perf_event_attr a;
	if (!list || !attr || i < 0 || i >= list->l.n || attr_size < PERF_ATTR_SIZE_VER0 ||
	    take_opts(&o, opts, "pmurt_counter_attr", NULL))
		return -EINVAL;
	pmu_count_attr(&list->l, i, !o.cpus, o.inherit, o.enable_on_exec, &a);
	memcpy(attr, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
	if (attr_size > sizeof(a))
		memset((char *)attr + sizeof(a), 0, attr_size - sizeof(a));
	return list->l.v[i].kind == PMU_EVSEL_TOOL ? -ENOENT : 0;
}

/* One ioctl on every group leader (PERF_IOC_FLAG_GROUP: the whole group). */
static int each_leader(struct pmurt_counter *c, unsigned long request, const char *what,
		       struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!c) {
		pmurt_set_error(err, -EINVAL, "pmurt_counter_%s: missing argument", what);
		return -EINVAL;
	}
	const struct pmurt_sys *sys = c->host->sys;
	for (int k = 0; k < c->ncpus; k++)
		for (int i = 0; i < c->list->n; i += c->list->v[i].group_size) {
			if (c->fds[k * c->list->n + i] < 0)
				continue; /* not on this CPU (its PMU's cpumask) */
			int rc = sys->ioctl(sys->ctx, c->fds[k * c->list->n + i], request,
					    PERF_IOC_FLAG_GROUP);
			if (rc < 0) {
				pmurt_set_error(err, rc, "%s '%s': %s", what, c->list->v[i].name,
						strerror(-rc));
				return rc;
			}
		}
	return 0;
}

/* A vpa_dtl event (a sampling one gets this far) is never enabled again
 * once disabled: vpa_dtl_event_add writes into the buffer
 * vpa_dtl_event_del freed, an Oops on Linux up to at least 7.2 (evsel.h
 * pmu_is_vpa_dtl). */
static int refuse_dtl_again(const struct pmurt_counter *c, struct pmurt_error *err)
{
	for (int i = 0; c && c->dtl_disabled && i < c->list->n; i++)
		if (pmu_is_vpa_dtl(c->list->v[i].pmu)) {
			pmurt_set_error(err, -EOPNOTSUPP, "pmurt_counter_enable: '%s' was disabled: "
					"vpa_dtl is never enabled again (the kernel would crash in "
					"vpa_dtl_event_add); close the counter and open a new one",
					c->list->v[i].name);
			return -EOPNOTSUPP;
		}
	return 0;
}

int pmurt_counter_enable(struct pmurt_counter *c, struct pmurt_error *err)
{
	int rc = refuse_dtl_again(c, err);
	if (!rc && c && !c->tool_enabled) {
		c->tool_start = monotonic_ns();   /* duration_time starts */
		c->tool_enabled = true;
	}
	return rc ? rc : each_leader(c, PERF_EVENT_IOC_ENABLE, "enable", err);
}

int pmurt_counter_disable(struct pmurt_counter *c, struct pmurt_error *err)
{
	if (c)
		c->dtl_disabled = true;
	return each_leader(c, PERF_EVENT_IOC_DISABLE, "disable", err);
}

int pmurt_counter_reset(struct pmurt_counter *c, struct pmurt_error *err)
{
	return each_leader(c, PERF_EVENT_IOC_RESET, "reset", err);
}

uint64_t pmurt_count_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	if (!running)
		return 0;
	if (running >= enabled)
		return value;
	unsigned __int128 v = (unsigned __int128)value * enabled / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* The group's read(): { nr, time_enabled, time_running, { value, id }[nr] }
 * (perf_event_open(2), PERF_FORMAT_GROUP), added to the sums. */
static int read_group(struct pmurt_counter *c, int k, int leader, struct pmurt_error *err)
{
	const struct pmurt_sys *sys = c->host->sys;
	int n = c->list->n, size = c->list->v[leader].group_size, opened = 0;
	for (int m = leader; m < leader + size; m++)
		opened += c->fds[k * n + m] >= 0;   /* members left out are not read */
	ssize_t got = sys->read(sys->ctx, c->fds[k * n + leader], c->buf, c->buf_len);
	const uint64_t *b = c->buf;
	if (got < 0 || got < 3 * 8 || b[0] != (uint64_t)opened ||
	    (size_t)got < (3 + 2 * (size_t)opened) * 8) {
		int rc = got < 0 ? (int)got : -EIO;
		pmurt_set_error(err, rc, "reading the group led by '%s': %s", c->list->v[leader].name,
				got < 0 ? strerror(-rc) : "short or malformed read");
		return rc;
	}
	const uint64_t *ids = &c->ids[k * n + leader];
	for (int j = 0; j < opened; j++) {
		uint64_t value = b[3 + 2 * j], id = b[4 + 2 * j];
		int m = ids[j] == id ? j : -1;
		for (int s = 0; m < 0 && s < size; s++)
			if (ids[s] == id && c->fds[k * n + leader + s] >= 0)
				m = s;
		if (m < 0) {
			pmurt_set_error(err, -EIO, "group led by '%s': unknown event id %llu",
					c->list->v[leader].name, (unsigned long long)id);
			return -EIO;
		}
		c->sum[leader + m].value += value;
		c->sum[leader + m].enabled += b[1];
		c->sum[leader + m].running += b[2];
	}
	return 0;
}

int pmurt_counter_read(struct pmurt_counter *c, struct pmurt_count *counts, int n,
		       size_t count_sz, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!c || (n && !counts) || n < 0 || count_sz < COUNT_SIZE_0_3_0) {
		pmurt_set_error(err, -EINVAL, "pmurt_counter_read: bad argument");
		return -EINVAL;
	}
	memset(c->sum, 0, (size_t)c->list->n * sizeof(*c->sum));
	for (int k = 0; k < c->ncpus; k++)
		for (int i = 0; i < c->list->n; i += c->list->v[i].group_size) {
			if (c->fds[k * c->list->n + i] < 0)
				continue;
			int rc = read_group(c, k, i, err);
			if (rc)
				return rc;
		}
	for (int i = 0; i < c->list->n; i++)
		if (c->list->v[i].kind == PMU_EVSEL_TOOL) {
			uint64_t v = tool_value(c, i);
			c->sum[i].value = c->sum[i].enabled = c->sum[i].running = v;
		}
	for (int i = 0; i < n && i < c->list->n; i++) {
		const struct pmu_evsel *e = &c->list->v[i];
		struct pmurt_count v = {
			.sz = sizeof(v), .name = e->name, .pmu = e->pmu, .unit = e->unit,
			.scale = e->scale, .leader = e->leader, .value = c->sum[i].value,
			.time_enabled = c->sum[i].enabled, .time_running = c->sum[i].running,
			.scaled = pmurt_count_scale(c->sum[i].value, c->sum[i].enabled,
						    c->sum[i].running),
			.skipped = c->skipped[i]};
		/* an older caller's smaller struct gets what it holds */
		size_t sz = count_sz < sizeof(v) ? count_sz : sizeof(v);
		v.sz = sz;
		memcpy((char *)counts + (size_t)i * count_sz, &v, sz);
	}
	return c->list->n;
}

int pmurt_counter_nevents(const struct pmurt_counter *c)
{
	return c ? c->list->n : -EINVAL;
}

void pmurt_counter_close(struct pmurt_counter *c)
{
	if (!c)
		return;
	close_all(c);
	pmurt_evlist_free(c->owned);
	free(c->cpus);
	free(c->fds);
	free(c->ids);
	free(c->buf);
	free(c->sum);
	free(c->skipped);
	free(c);
}

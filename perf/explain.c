/*
 * explain.c - a failed perf_event_open in words a user can act on.  The
 * causes follow kernel/events/core.c (perf_event_open: perf_allow_kernel,
 * perf_allow_cpu, perf_allow_tracepoint, perf_event_paranoid's levels as
 * Documentation/admin-guide/sysctl/kernel.rst lists them, Debian's level 3),
 * perf_init_event (-ENOENT for a type no PMU claims), the group rules of
 * perf_event_open (a group's events on one PMU, software events excepted),
 * PERF_PMU_CAP_NO_INTERRUPT (no sampling), PERF_PMU_CAP_NO_EXCLUDE (exclude
 * bits refused) and perf_invalid_context PMUs (per CPU only), as perf's
 * evsel__open_strerror words them; vpa_dtl's own refusals follow its
 * driver (arch/powerpc/perf/vpa-dtl.c vpa_dtl_event_init, and its
 * registration only on a shared-processor LPAR, not a KVM guest).
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perf_int.h"
#include "sysfs.h"

#define PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

/* The effective capability set of this process (/proc/self/status CapEff). */
static uint64_t effective_caps(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	uint64_t caps = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %" SCNx64, &caps) == 1)
			break;
	if (f)
		fclose(f);
	return caps;
}

static bool perfmon_capable(void)
{
	uint64_t caps = effective_caps();
	return (caps >> CAP_PERFMON_BIT & 1) || (caps >> CAP_SYS_ADMIN_BIT & 1);
}

/* What perf_event_paranoid's level forbids a user without CAP_PERFMON. */
static const char *paranoid_forbids(int level)
{
	if (level >= 3)
		return "every perf_event_open (Debian's level 3)";
	if (level == 2)
		return "kernel profiling, CPU-wide events and raw tracepoints; only user-space "
		       "counting of one's own tasks (:u) is left";
	if (level == 1)
		return "CPU-wide events and raw tracepoints";
	if (level == 0)
		return "raw tracepoint and ftrace function access";
	return "nothing";
}

/* EACCES/EPERM: the paranoid level as read, what the open asked for, or
 * the PMU's own CAP_PERFMON requirement. */
static void explain_access(const struct pmu_evsel *e, int cpu, char *out, size_t len)
{
	char text[32];
	int level = 2;
	bool known = pmu_read_small(PARANOID_PATH, text, sizeof(text)) == 0;
	if (known)
		level = atoi(text);
	bool perfmon = perfmon_capable();
	const char *asked = cpu >= 0 ? "a CPU-wide event (-a/-C)"
			    : !e->attr.exclude_kernel ? "kernel counting (no :u)"
			    : e->attr.type == PERF_TYPE_TRACEPOINT ? "a tracepoint"
								     : "user-space counting";
	bool level_forbids = level >= 3 || (cpu >= 0 && level >= 1) ||
			     (!e->attr.exclude_kernel && level >= 2) ||
			     (e->attr.type == PERF_TYPE_TRACEPOINT && level >= 0);
	if (perfmon) {
		snprintf(out, len, "refused although this process has CAP_PERFMON or CAP_SYS_ADMIN: "
			 "a security module (SELinux, lockdown) or the PMU itself refuses it");
	} else if (known && level_forbids) {
		snprintf(out, len, "kernel.perf_event_paranoid is %d (%s): it forbids %s to users "
			 "without CAP_PERFMON, and this is %s; %s, lower the level (sysctl "
			 "kernel.perf_event_paranoid=%d) or grant CAP_PERFMON", level, PARANOID_PATH, paranoid_forbids(level), asked,
			 level >= 3 ? "run as root" : cpu >= 0 ? "count your own command instead of "
			 "-a/-C" : "add :u to count user space only", level >= 3 ? 2 : cpu >= 0 ? 0 : 1);
	} else {
		snprintf(out, len, "this process lacks CAP_PERFMON (and CAP_SYS_ADMIN), which PMU '%s' "
			 "requires whatever kernel.perf_event_paranoid (%s%s) allows; run as root or "
			 "grant CAP_PERFMON (setcap cap_perfmon+ep)", e->pmu, known ? "level " : "unread",
			 known ? text : "");
	}
}

/* A raw POWER event on a host whose core PMU is something else. */
static void explain_missing_pmu(const struct pmu_host *host, const struct pmu_evsel *e,
				char *out, size_t len)
{
	struct utsname u;
	const char *machine = uname(&u) == 0 ? u.machine : "this machine";
	if (e->kind == PMU_EVSEL_CORE && host->core)
		snprintf(out, len, "this host (%s) has no %s: no PMU takes perf type %u; the "
			 "event is for the description '%s', so nothing here can count it (pmutool "
			 "stat --dry-run shows the attr it would open)", machine,
			 host->core->model.name ? host->core->model.name : "such core PMU", e->attr.type,
			 host->core->model.platform ? host->core->model.platform : "loaded");
	else if (e->kind == PMU_EVSEL_HARDWARE || e->kind == PMU_EVSEL_CACHE ||
		 e->kind == PMU_EVSEL_CORE)
		snprintf(out, len, "this host (%s) has no hardware PMU for perf type %u (a virtual "
			 "machine without PMU passthrough, or a CPU the kernel does not support); "
			 "software events (task-clock, ...) still count; pmutool stat --dry-run shows "
			 "the attr", machine, e->attr.type);
	else
		snprintf(out, len, "no PMU of perf type %u ('%s') on this host", e->attr.type, e->pmu);
}

/* Two events of one group on different PMUs (software events may join any). */
static const struct pmu_evsel *other_pmu(const struct pmu_evlist *list, int i)
{
	const struct pmu_evsel *e = &list->v[i], *lead = &list->v[e->leader];
	for (int k = e->leader; k < e->leader + lead->group_size; k++) {
		const struct pmu_evsel *o = &list->v[k];
		if (o->attr.type != e->attr.type && o->kind != PMU_EVSEL_SOFTWARE &&
		    e->kind != PMU_EVSEL_SOFTWARE &&
		    !(o->attr.type <= PERF_TYPE_RAW && e->attr.type <= PERF_TYPE_RAW &&
		      o->attr.type != PERF_TYPE_TRACEPOINT && e->attr.type != PERF_TYPE_TRACEPOINT))
			return o;
	}
	return NULL;
}

static void explain_invalid(const struct pmu_evlist *list, int i, bool per_task, char *out,
			    size_t len)
{
	const struct pmu_evsel *e = &list->v[i];
	const struct pmu_evsel *o = other_pmu(list, i);
	if (e->per_cpu_only && per_task)
		snprintf(out, len, "PMU '%s' counts per CPU only (no task context), not per task: "
			 "count with -a or -C CPUS", e->pmu);
	else if (o)
		snprintf(out, len, "a group cannot span PMUs: '%.60s' (%s) and '%.60s' (%s); only software "
			 "events join another PMU's group: put them in separate groups", e->name,
			 e->pmu, o->name, o->pmu);
	else if (e->attr.sample_period || e->attr.freq)
		snprintf(out, len, "PMU '%s' cannot sample with this period (some PMUs, such as msr, "
			 "only count): count it without a period", e->pmu);
	else if (pmu_attr_excludes_any(&e->attr))
		snprintf(out, len, "PMU '%s' refuses the exclude bits (:u, :k, :h, :I): it cannot "
			 "tell user from kernel; drop the modifier", e->pmu);
	else
		snprintf(out, len, "the kernel refused the attr (type %u, config 0x%llx, config1 "
			 "0x%llx): a value PMU '%s' does not accept", e->attr.type,
			 (unsigned long long)e->attr.config, (unsigned long long)e->attr.config1, e->pmu);
}

static void explain_unsupported(const struct pmu_evsel *e, char *out, size_t len)
{
	if (e->attr.sample_period || e->attr.freq)
		snprintf(out, len, "PMU '%s' cannot sample (no overflow interrupt): count it instead "
			 "of giving a period", e->pmu);
	else if (e->attr.precise_ip)
		snprintf(out, len, "PMU '%s' has no precise mode (:p); drop the modifier", e->pmu);
	else
		snprintf(out, len, "PMU '%s' cannot count this way (some PMUs, such as vpa_dtl, only "
			 "sample: give a period)", e->pmu);
}

#define DTL_WHERE "vpa_dtl exists only on a shared-processor LPAR under PowerVM " \
	"(FW_FEATURE_SPLPAR, kernel CONFIG_PPC_SPLPAR, Linux 6.18 or later), not on a " \
	"dedicated-processor LPAR, in a KVM guest or off POWER"

void pmu_explain_dtl_missing(const struct pmu_host *host, struct pmurt_error *err)
{
	struct utsname u;
	pmurt_set_error(err, -ENOENT, "no PMU 'vpa_dtl' in %s/bus/event_source/devices (this is "
			"%s): %s", host->sysfs[0] ? host->sysfs : "/sys",
			uname(&u) == 0 ? u.machine : "an unknown machine", DTL_WHERE);
}

int pmurt_host_pmu_present(const struct pmurt_host *host, const char *name,
			   struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!host || !name || !*name || strchr(name, '/')) {
		pmurt_set_error(err, -EINVAL, "pmurt_host_pmu_present: missing or bad argument");
		return -EINVAL;
	}
	const struct pmu_host *h = &host->h;
	char path[512];
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type",
		 h->sysfs[0] ? h->sysfs : "/sys", name);
	if (access(path, R_OK) == 0)
		return 0;
	if (pmu_is_vpa_dtl(name))
		pmu_explain_dtl_missing(h, err);
	else
		pmurt_set_error(err, -ENOENT, "no PMU '%s' in %s/bus/event_source/devices", name,
				h->sysfs[0] ? h->sysfs : "/sys");
	return -ENOENT;
}

/* vpa_dtl_event_init's refusals, in its order, and the core's after it for a
 * perf_invalid_context, PERF_PMU_CAP_NO_EXCLUDE | PERF_PMU_CAP_EXCLUSIVE PMU
 * (kernel/events/core.c perf_try_init_event, perf_event_alloc,
 * exclusive_event_installable). */
static void explain_dtl(const struct pmu_evsel *e, bool per_task, int code, char *out,
			size_t len)
{
	unsigned long long config = (unsigned long long)e->attr.config;
	switch (code) {
	case -ENOENT:
		snprintf(out, len, "the kernel has no PMU of type %u: %s", e->attr.type, DTL_WHERE);
		break;
	case -EACCES:
	case -EPERM: {
		char level[32] = "unread";
		if (pmu_read_small(PARANOID_PATH, level, sizeof(level)) == 0)
			level[strcspn(level, "\n")] = '\0';
		snprintf(out, len, "vpa_dtl needs CAP_PERFMON or CAP_SYS_ADMIN whatever "
			 "kernel.perf_event_paranoid says (perfmon_capable() in vpa_dtl_event_init; "
			 "kernel.perf_event_paranoid is %s); this process %s: run as root or grant "
			 "CAP_PERFMON", level, perfmon_capable()
			 ? "has one, so a security module (SELinux, lockdown) refused"
			 : "lacks CAP_PERFMON and CAP_SYS_ADMIN");
		break;
	}
	case -EOPNOTSUPP:
		snprintf(out, len, "vpa_dtl only samples, without a branch stack (a counting event "
			 "is refused): give a poll interval in ns (-c, at least 1000000), and use "
			 "pmutool dtl record -a or -C CPUS");
		break;
	case -EINVAL:
		if (per_task)
			snprintf(out, len, "vpa_dtl is per CPU only (perf_invalid_context): it "
				 "cannot follow a task; record CPUs (-a or -C CPUS); libpmurt never "
				 "opens it per task (with cpu -1, vpa_dtl_event_init crashes kernels "
				 "up to at least 7.2)");
		else if (!pmu_dtl_config_valid(config))   /* event_init's, before the core's */
			snprintf(out, len, "config 0x%llx: vpa_dtl takes " PMU_DTL_CONFIGS " and no "
				 "other value", config);
		else
			snprintf(out, len, "vpa_dtl refuses every exclude bit, exclude_guest and "
				 "exclude_host too (PERF_PMU_CAP_NO_EXCLUDE): drop the :u/:k/:h/:G/:H "
				 "modifier");
		break;
	case -EBUSY:
		snprintf(out, len, "another user holds the Dispatch Trace Log of this CPU: the "
			 "debugfs DTL files (/sys/kernel/debug/powerpc/dtl/cpu-*), "
			 "/proc/powerpc/vcpudispatch_stats (echo 0 > it to stop) or another vpa_dtl "
			 "session (one event per CPU: PERF_PMU_CAP_EXCLUSIVE); retry when it is free");
		break;
	case -ENOMEM:
		snprintf(out, len, "the kernel could not allocate this CPU's DTL buffer");
		break;
	default:
		snprintf(out, len, "%s", strerror(-code));
	}
}

static void explain(const struct pmu_host *host, const struct pmu_evlist *list, int i,
		    pid_t pid, int cpu, int code, char *out, size_t len)
{
	const struct pmu_evsel *e = &list->v[i];
	bool per_task = pid >= 0 || cpu < 0;
	if (pmu_is_vpa_dtl(e->pmu)) {
		explain_dtl(e, per_task, code, out, len);
		return;
	}
	switch (code) {
	case -EACCES:
	case -EPERM:
		explain_access(e, cpu, out, len);
		break;
	case -ENOENT:
		explain_missing_pmu(host, e, out, len);
		break;
	case -EINVAL:
		explain_invalid(list, i, per_task, out, len);
		break;
	case -EOPNOTSUPP:
		explain_unsupported(e, out, len);
		break;
	case -EBUSY:
		snprintf(out, len, "the counters or PMU '%s' are taken: another perf session, a "
			 "pinned or exclusive event, the NMI watchdog (kernel.nmi_watchdog=0 frees a "
			 "counter) or, for vpa_dtl, another DTL user; retry when it is free", e->pmu);
		break;
	case -ENODEV:
		snprintf(out, len, "PMU '%s' lacks a feature the attr asks for (precise_ip, a branch "
			 "stack, this CPU)", e->pmu);
		break;
	case -EMFILE:
		snprintf(out, len, "too many open files: raise the limit (ulimit -n) or count fewer "
			 "events or CPUs");
		break;
	case -ESRCH:
		snprintf(out, len, "no such process");
		break;
	default:
		snprintf(out, len, "%s", strerror(-code));
	}
}

void pmu_explain_open(const struct pmu_host *host, const struct pmu_evlist *list, int i,
		      pid_t pid, int cpu, int code, struct pmurt_error *err)
{
	char why[400], where[48];
	const struct pmu_evsel *e = &list->v[i];
	explain(host, list, i, pid, cpu, code, why, sizeof(why));
	if (cpu >= 0)
		snprintf(where, sizeof(where), "CPU %d", cpu);
	else if (pid > 0)
		snprintf(where, sizeof(where), "task %d", (int)pid);
	else /* the caller, or a dry run's command not yet forked */
		snprintf(where, sizeof(where), "the task");
	pmurt_set_error(err, code, "cannot open '%s' on %s: %s (%s)", e->name, where, why,
			strerrorname_np(-code) ? strerrorname_np(-code) : strerror(-code));
}

int pmu_refuse_dtl_attr(const struct pmu_evlist *list, struct pmurt_error *err)
{
	for (int i = 0; i < list->n; i++) {
		const struct pmu_evsel *e = &list->v[i];
		if (!pmu_is_vpa_dtl(e->pmu) ||
		    (pmu_dtl_config_valid(e->attr.config) && !pmu_attr_excludes_any(&e->attr)))
			continue;
		char why[400];
		explain_dtl(e, false, -EINVAL, why, sizeof(why));
		pmurt_set_error(err, -EINVAL, "cannot open '%s': %s (EINVAL)", e->name, why);
		return -EINVAL;
	}
	return 0;
}

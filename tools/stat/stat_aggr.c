/*
 * stat_aggr.c - pmutool stat's counts per CPU (-A, --no-aggr), per core
 * (--per-core), per die (--per-die) or per socket (--per-socket), as perf
 * 6.1 aggregates them (tools/perf/util/stat.c, cpumap.c aggr_cpu_id): each
 * CPU counted by a set of its own, the CPUs grouped into units by the
 * topology sysfs gives (devices/system/cpu/cpuN/topology/ under --sysfs, or
 * /sys), the units in perf's order (socket, die, core, CPU), each unit's
 * values, enabled and running times summed, then scaled.  perf's tool
 * events live on the first CPU only (parse-events.c add_event_tool, cpu
 * list "0"): a unit without it has none of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* A CPU's topology number (cpu__get_topology_int), -1 when unreadable. */
static int topology_id(const char *sysfs, int cpu, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", sysfs, cpu, name);
	FILE *f = fopen(path, "r");
	int v = -1;
	if (f && fscanf(f, "%d", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/* CPU cpu's unit id under mode: what the mode does not split is -1. */
static struct stat_unit unit_of_cpu(const char *sysfs, enum stat_aggr_mode mode, int cpu)
{
	struct stat_unit u = {.socket = -1, .die = -1, .core = -1, .cpu = -1};
	if (mode == STAT_AGGR_CPU) {
		u.cpu = cpu;
		return u;
	}
	u.socket = topology_id(sysfs, cpu, "physical_package_id");
	if (mode == STAT_AGGR_DIE || mode == STAT_AGGR_CORE)
		u.die = topology_id(sysfs, cpu, "die_id");
	if (mode == STAT_AGGR_CORE)
		u.core = topology_id(sysfs, cpu, "core_id");
	return u;
}

/* perf's aggr_cpu_id__cmp order: socket, die, core, CPU. */
static int unit_cmp(const struct stat_unit *a, const struct stat_unit *b)
{
	int d = a->socket != b->socket ? a->socket - b->socket
		: a->die != b->die     ? a->die - b->die
		: a->core != b->core   ? a->core - b->core
				       : a->cpu - b->cpu;
	return d;
}

/* The unit of id, added in order when new; its index. */
static int find_unit(struct stat_aggr *a, struct stat_unit id)
{
	int at = 0;
	while (at < a->nunits && unit_cmp(&a->units[at], &id) < 0)
		at++;
	if (at < a->nunits && unit_cmp(&a->units[at], &id) == 0)
		return at;
	memmove(&a->units[at + 1], &a->units[at], (size_t)(a->nunits - at) * sizeof(*a->units));
	a->units[at] = id;
	a->nunits++;
	for (int s = 0; s < a->nsets; s++)   /* the CPUs placed so far move along */
		a->unit_of[s] += a->unit_of[s] >= at;
	return at;
}

/* The units' events: what the report's are (name, unit, scale, type),
 * with counts of their own. */
static int plan_units(struct stat_aggr *a, const char *sysfs, const int *cpus,
		      const struct stat_event *ev)
{
	for (int s = 0; s < a->nsets; s++) {
		a->unit_of[s] = -1;
		int u = find_unit(a, unit_of_cpu(sysfs, a->mode, cpus[s]));
		a->unit_of[s] = u;
		a->units[u].ncpus++;
		a->units[u].first_cpu |= s == 0;
	}
	size_t n = (size_t)a->nunits * (size_t)a->nevents;
	a->now = calloc(n ? n : 1, sizeof(*a->now));
	a->prev = calloc(n ? n : 1, sizeof(*a->prev));
	a->ev = calloc(n ? n : 1, sizeof(*a->ev));
	for (size_t k = 0; a->ev && k < n; k++) {
		a->ev[k] = ev[k % (size_t)a->nevents];
		a->ev[k].values = calloc((size_t)a->runs, sizeof(double));
		if (!a->ev[k].values)
			return -ENOMEM;
	}
	return a->now && a->prev && a->ev ? 0 : -ENOMEM;
}

int stat_aggr_plan(const struct tool *t, enum stat_aggr_mode mode, const int *cpus, int ncpus,
		   struct stat_report *r)
{
	struct stat_aggr *a = calloc(1, sizeof(*a));
	if (!a)
		return EXIT_INTERNAL;
	r->aggr = a;
	*a = (struct stat_aggr){.mode = mode, .nsets = ncpus, .nevents = r->nevents,
				.runs = r->runs};
	a->units = calloc((size_t)ncpus, sizeof(*a->units));
	a->unit_of = calloc((size_t)ncpus, sizeof(*a->unit_of));
	if (!a->units || !a->unit_of || plan_units(a, t->sysfs ? t->sysfs : "/sys", cpus, r->ev)) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

void stat_aggr_begin(struct stat_aggr *a)
{
	memset(a->now, 0, (size_t)a->nunits * (size_t)a->nevents * sizeof(*a->now));
}

/* perf's tool events: the first CPU's only. */
static bool is_tool(const struct pmurt_count *c)
{
	return c->pmu && strcmp(c->pmu, "tool") == 0;
}

void stat_aggr_add(struct stat_aggr *a, int set, const struct pmurt_count *counts)
{
	struct pmurt_count *u = &a->now[(size_t)a->unit_of[set] * (size_t)a->nevents];
	for (int i = 0; i < a->nevents; i++) {
		const struct pmurt_count *c = &counts[i];
		if (!u[i].name) {   /* the unit's first CPU: what the count is */
			u[i] = *c;
			u[i].value = u[i].time_enabled = u[i].time_running = u[i].scaled = 0;
		}
		if (is_tool(c) && set != 0)
			continue;
		u[i].value += c->value;
		u[i].time_enabled += c->time_enabled;
		u[i].time_running += c->time_running;
	}
}

void stat_aggr_end(struct stat_aggr *a)
{
	for (size_t k = 0; k < (size_t)a->nunits * (size_t)a->nevents; k++)
		a->now[k].scaled = pmurt_count_scale(a->now[k].value, a->now[k].time_enabled,
						     a->now[k].time_running);
}

int stat_aggr_cpus(const struct stat_aggr *a, int u, const struct pmurt_count *c)
{
	return is_tool(c) ? a->units[u].first_cpu : a->units[u].ncpus;
}

/* (stat.h) */
void stat_event_keep(struct stat_event *e, const struct pmurt_count *c, int k)
{
	e->values[k] = (double)c->scaled * c->scale;
	e->enabled_sum += (double)c->time_enabled;
	e->running_sum += (double)c->time_running;
	e->enabled = (uint64_t)(e->enabled_sum / (k + 1));
	e->running = (uint64_t)(e->running_sum / (k + 1));
	e->not_counted |= !c->time_running;
	e->not_supported |= c->skipped && c->skipped != ECANCELED;
}

void stat_aggr_keep(struct stat_aggr *a, int k)
{
	for (size_t x = 0; x < (size_t)a->nunits * (size_t)a->nevents; x++)
		stat_event_keep(&a->ev[x], &a->now[x], k);
}

/* perf's aggr_printout (stat-display.c, 6.1): the unit's columns before
 * the count, text (sep NULL), CSV or JSON. */
void stat_aggr_label(const struct stat_aggr *a, int u, int nr, const char *sep, bool json,
		     char *out, size_t len)
{
	const struct stat_unit *x = &a->units[u];
	char id[64];
	static const char *const json_key[] = {[STAT_AGGR_CORE] = "core", [STAT_AGGR_DIE] = "die",
					       [STAT_AGGR_SOCKET] = "socket"};
	if (a->mode == STAT_AGGR_CPU) {
		if (json)
			snprintf(out, len, "\"cpu\" : \"%d\", ", x->cpu);
		else
			snprintf(out, len, "CPU%-*d%s", sep ? 0 : 7, x->cpu, sep ? sep : " ");
		return;
	}
	if (a->mode == STAT_AGGR_CORE)
		snprintf(id, sizeof(id), "S%d-D%d-C%d", x->socket, x->die, x->core);
	else if (a->mode == STAT_AGGR_DIE)
		snprintf(id, sizeof(id), "S%d-D%d", x->socket, x->die);
	else
		snprintf(id, sizeof(id), "S%d", x->socket);
	/* the id's last number left-aligned: -8 wide for core and die, the
	 * socket -5; the CPUs in it 4 wide */
	int pad = (a->mode == STAT_AGGR_SOCKET ? 5 : 8) - (int)strlen(strrchr(id, a->mode ==
		  STAT_AGGR_SOCKET ? 'S' : a->mode == STAT_AGGR_DIE ? 'D' : 'C') + 1);
	if (json)
		snprintf(out, len, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ",
			 json_key[a->mode], id, nr);
	else if (sep)
		snprintf(out, len, "%s%s%d%s", id, sep, nr, sep);
	else
		snprintf(out, len, "%s%*s %4d ", id, pad > 0 ? pad : 0, "", nr);
}

/* perf's -I header (print_interval's aggr_header_std). */
const char *stat_aggr_interval_header(const struct stat_aggr *a)
{
	switch (a ? a->mode : STAT_AGGR_GLOBAL) {
	case STAT_AGGR_CPU: return "#           time CPU                    counts unit events\n";
	case STAT_AGGR_CORE: return "#           time core            cpus             counts unit events\n";
	case STAT_AGGR_DIE: return "#           time die          cpus             counts unit events\n";
	case STAT_AGGR_SOCKET: return "#           time socket cpus             counts unit events\n";
	default: return "#           time             counts unit events\n";
	}
}

void stat_aggr_free(struct stat_aggr *a)
{
	if (!a)
		return;
	for (size_t k = 0; a->ev && k < (size_t)a->nunits * (size_t)a->nevents; k++)
		free(a->ev[k].values);
	free(a->ev);
	free(a->now);
	free(a->prev);
	free(a->units);
	free(a->unit_of);
	free(a);
}

/*
 * stat_shadow.c - the derived figure perf stat prints after an event's
 * count ("#    0.014 CPUs utilized", "#    2.711 K/sec"), computed as perf
 * 6.1 computes it (tools/perf/util/stat-shadow.c
 * perf_stat__print_shadow_stats, util/units.c convert_unit_double):
 *
 *   task-clock, cpu-clock   CPUs utilized: its nanoseconds / the elapsed time
 *   cycles                  GHz: cycles / the clock events' nanoseconds
 *   instructions            insn per cycle, when cycles were counted
 *   branch-misses           % of all branches, when branches were counted
 *   cache-misses            % of all cache refs, when those were counted
 *                           (else as any other event)
 *   any other event         per second of the clock events' nanoseconds
 *                           (K, M, G by thousands), when one was counted
 *
 * The clock events' nanoseconds are the mean of their counts (perf's
 * STAT_NSECS), the others the means of their counts.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "stat.h"

static bool is_hw(const struct stat_shadow_event *e, uint64_t config)
{
	return e->type == PERF_TYPE_HARDWARE && (e->config & 0xffffffffULL) == config;
}

bool stat_shadow_is_clock(uint32_t type, uint64_t config)
{
	return type == PERF_TYPE_SOFTWARE &&
	       (config == PERF_COUNT_SW_TASK_CLOCK || config == PERF_COUNT_SW_CPU_CLOCK);
}

void stat_shadow_collect(struct stat_shadow *sh, const struct stat_shadow_event *ev, int n,
			 double wall_ns)
{
	double clock_sum = 0;
	int clocks = 0;
	*sh = (struct stat_shadow){.wall_ns = wall_ns};
	for (int i = 0; i < n; i++) {
		const struct stat_shadow_event *e = &ev[i];
		if (!e->counted)
			continue;
		if (stat_shadow_is_clock(e->type, e->config)) {
			clock_sum += e->count;
			clocks++;
		} else if (is_hw(e, PERF_COUNT_HW_CPU_CYCLES)) {
			sh->cycles = e->value;
		} else if (is_hw(e, PERF_COUNT_HW_BRANCH_INSTRUCTIONS)) {
			sh->branches = e->value;
		} else if (is_hw(e, PERF_COUNT_HW_CACHE_REFERENCES)) {
			sh->cache_refs = e->value;
		}
	}
	sh->clock_ns = clocks ? clock_sum / clocks : 0;
}

/* convert_unit_double: K, M, G by thousands, the unit then "K/sec". */
static void per_second(double v, struct stat_shadow_figure *m)
{
	const char *prefix = "";
	if (v > 1e9) {
		prefix = "G";
		v /= 1e9;
	} else if (v > 1e6) {
		prefix = "M";
		v /= 1e6;
	} else if (v > 1e3) {
		prefix = "K";
		v /= 1e3;
	}
	m->fmt = "%8.3f";
	m->value = v;
	snprintf(m->unit, sizeof(m->unit), "%s/sec", prefix);
}

/* A ratio when its total is there, else none (perf prints blanks). */
static void ratio(double num, double total, const char *fmt, const char *unit,
		  struct stat_shadow_figure *m)
{
	if (total) {
		m->fmt = fmt;
		m->value = num / total;
		snprintf(m->unit, sizeof(m->unit), "%s", unit);
	}
}

void stat_shadow_metric(const struct stat_shadow *sh, const struct stat_shadow_event *e,
			struct stat_shadow_figure *m)
{
	*m = (struct stat_shadow_figure){0};
	if (is_hw(e, PERF_COUNT_HW_INSTRUCTIONS))
		ratio(e->value, sh->cycles, "%7.2f ", "insn per cycle", m);
	else if (is_hw(e, PERF_COUNT_HW_BRANCH_MISSES))
		ratio(100 * e->value, sh->branches, "%7.2f%%", "of all branches", m);
	else if (is_hw(e, PERF_COUNT_HW_CACHE_MISSES) && sh->cache_refs)
		ratio(100 * e->value, sh->cache_refs, "%8.3f %%", "of all cache refs", m);
	else if (stat_shadow_is_clock(e->type, e->config))
		ratio(e->count, sh->wall_ns, "%8.3f", "CPUs utilized", m);
	else if (is_hw(e, PERF_COUNT_HW_CPU_CYCLES))
		ratio(e->value, sh->clock_ns, "%8.3f", "GHz", m);
	else if (sh->clock_ns)
		per_second(1e9 * e->value / sh->clock_ns, m);
}

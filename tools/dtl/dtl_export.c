/*
 * dtl_export.c - `pmutool dtl report --pprof OUT` and `--openmetrics`:
 * where the hypervisor took the CPUs away, in the formats a fleet's
 * engines take (export/).
 *
 * --pprof: one sample per dispatch (the entries dtl report counts, perf's
 * skipped ones left out), valued "dispatches" (count) and "steal"
 * (nanoseconds: enqueue_to_dispatch + ready_to_enqueue, the steal
 * arch/powerpc/kernel/time.c accounts, at the stream's tb_freq), located
 * at the preempted instruction srr0, resolved as a kernel address as
 * perf's vpa-dtl decoder takes it (powerpc-vpadtl.c: ip = srr0, cpumode
 * kernel; kernel symbols from /proc/kallsyms or PMUTOOL_KALLSYMS), and
 * labelled with the cpu and the dispatch and preempt reasons (perf's
 * strings), so a continuous profiler shows steal by function beside CPU
 * time and filters or groups it by reason.
 *
 * --openmetrics: per CPU the dispatches, the steal (seconds) and its share
 * of the log's span, the dispatch and preempt reason counts (labelled
 * with the code as well: perf names two codes alike), and the three wait
 * times as histograms in seconds, the report's log2 microsecond buckets
 * as OpenMetrics "le" bounds (2^k us, k = 0..32), each bucket counting the
 * entries at or below its bound, exactly, from the entries' ticks.
 * No timestamps: a report of a file, stamped by whoever reads it.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dtl_export.h"
#include "openmetrics.h"
#include "pprof.h"
#include "report/elf_lib.h"
#include "report/tool_symbols.h"

struct dtl_export {
	const struct tool *t;
	FILE *out;
	struct pprof_writer *w;
	struct pmurt_error err;
	struct elf_lib elf;
	bool elf_open;
	struct symbols *syms;
	uint64_t kernel;          /* the kernel mapping, 0: not made yet */
	uint64_t first_ns, last_ns;
	bool timed;
	const char *input;
};

static const char *kallsyms_path(void)
{
	const char *env = getenv("PMUTOOL_KALLSYMS");
	return env && *env ? env : "/proc/kallsyms";
}

int dtl_export_open(struct dtl_export **xp, const struct tool *t, const char *input,
		    const char *path)
{
	struct dtl_export *x = calloc(1, sizeof(*x));
	*xp = x;
	if (!x) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	x->t = t;
	x->input = input;
	char msg[512];
	if (elf_lib_open(&x->elf, msg, sizeof(msg)) < 0) {
		tool_error(t, "%s", msg);
		return EXIT_INTERNAL;
	}
	x->elf_open = true;
	if (!(x->syms = symbols_new(kallsyms_path(), &x->elf))) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	if (!(x->out = fopen(path, "w"))) {
		tool_error(t, "--pprof %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	static const struct pprof_value_type types[] = {{"dispatches", "count"},
							{"steal", "nanoseconds"}};
	if (pprof_writer_open(&x->w, x->out, types, 2, NULL, &x->err) < 0) {
		tool_error(t, "--pprof %s: %s", path, x->err.message);
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

/* srr0's location: its kernel function in the kernel mapping. */
static int entry_location(struct dtl_export *x, uint64_t srr0, uint64_t *id)
{
	struct resolved at;
	uint64_t function = 0;
	int rc = symbols_resolve(x->syms, 0, 0, srr0, PERF_RECORD_MISC_KERNEL, &at);
	if (rc)
		return rc;
	if (!x->kernel) {
		struct pprof_mapping m = {.memory_start = srr0, .memory_limit = srr0 + 1,
					  .filename = "[kernel.kallsyms]", .has_functions = true};
		if ((rc = pprof_mapping_add(x->w, &m, &x->kernel, &x->err)))
			return rc;
	}
	pprof_mapping_cover(x->w, x->kernel, srr0, srr0 + 1);
	if (strcmp(at.sym, "[unknown]")) {
		struct pprof_function f = {.name = at.sym, .system_name = at.sym_raw};
		if ((rc = pprof_function(x->w, &f, &function, &x->err)))
			return rc;
	}
	return pprof_location(x->w, x->kernel, srr0, function, 0, id, &x->err);
}

int dtl_export_entry(struct dtl_export *x, int cpu, const struct pmurt_dtl_cursor *c,
		     const struct pmurt_dtl_slot *s)
{
	if (!x || s->kind != PMURT_DTL_ENTRY)
		return 0;
	const struct pmurt_dtl_entry *e = &s->entry;
	struct pmurt_dtl_header h = c->have_header ? c->header
			: (struct pmurt_dtl_header){.tb_freq = PMURT_DTL_DEFAULT_TB_FREQ};
	if (!h.tb_freq)
		h.tb_freq = PMURT_DTL_DEFAULT_TB_FREQ;
	uint64_t ns = pmurt_dtl_time_exact(e->timebase, &h);
	if (!x->timed || ns < x->first_ns)
		x->first_ns = ns;
	if (!x->timed || ns > x->last_ns)
		x->last_ns = ns;
	x->timed = true;
	uint64_t ticks = (uint64_t)e->enqueue_to_dispatch_time + e->ready_to_enqueue_time;
	int64_t values[2] = {1, (int64_t)((ticks * 1000000000u + h.tb_freq / 2) / h.tb_freq)};
	char db[16], pb[16], cpu_text[16];
	snprintf(cpu_text, sizeof(cpu_text), "%d", cpu);
	struct pprof_label labels[3] = {   /* strings: see report_pprof.c */
		{.key = "cpu", .str = cpu_text},
		{.key = "dispatch_reason", .str = pmurt_dtl_reason_text(false, e->dispatch_reason, db)},
		{.key = "preempt_reason", .str = pmurt_dtl_reason_text(true, e->preempt_reason, pb)}};
	uint64_t loc;
	int rc = entry_location(x, e->srr0, &loc);
	if (!rc)
		rc = pprof_sample(x->w, &loc, 1, values, labels, 3, &x->err);
	if (rc) {
		tool_error(x->t, "--pprof: %s", x->err.message[0] ? x->err.message : strerror(-rc));
		return EXIT_INTERNAL;
	}
	return 0;
}

int dtl_export_finish(struct dtl_export *x)
{
	struct pprof_info info = {.default_sample_type = 1};
	struct stat st;
	info.duration_nanos = x->timed ? (int64_t)(x->last_ns - x->first_ns) : 0;
	if (stat(x->input, &st) == 0)   /* perf report's "captured on": the file's time */
		info.time_nanos = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec -
				  info.duration_nanos;
	char what[512];
	snprintf(what, sizeof(what), "pmutool dtl report --pprof: steal by preempted function, %s",
		 x->input);
	const char *comments[] = {what};
	info.comments = comments;
	info.ncomments = 1;
	int rc = pprof_finish(x->w, &info, &x->err);
	if (!rc && fclose(x->out) != 0)
		rc = -EIO;
	x->out = NULL;
	if (rc) {
		tool_error(x->t, "--pprof: %s", x->err.message[0] ? x->err.message : strerror(-rc));
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

void dtl_export_free(struct dtl_export *x)
{
	if (!x)
		return;
	pprof_writer_free(x->w);
	if (x->out)
		fclose(x->out);
	symbols_free(x->syms);
	if (x->elf_open)
		elf_lib_close(&x->elf);
	free(x);
}

/* --- OpenMetrics -------------------------------------------------------------- */
#define LE_BOUNDS 33   /* 2^0 .. 2^32 us */

/* The entries of times at or below each bound 2^k us: value v ticks is
 * at or below it when v * 1e6 <= 2^k * tb_freq (exact in 128 bits). */
static void cumulative(const uint32_t *times, size_t n, uint64_t tb_freq,
		       uint64_t out[LE_BOUNDS])
{
	memset(out, 0, LE_BOUNDS * sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		unsigned __int128 v = (unsigned __int128)times[i] * 1000000u;
		int k = 0;
		while (k < LE_BOUNDS && v > ((unsigned __int128)tb_freq << k))
			k++;
		if (k < LE_BOUNDS)
			out[k]++;
	}
	for (int k = 1; k < LE_BOUNDS; k++)
		out[k] += out[k - 1];
}

static int reasons(struct om_writer *w, const struct dtl_stats *s, bool preempt,
		   struct pmurt_error *err)
{
	int rc = om_family(w, preempt ? "pmu_dtl_preempt_reasons" : "pmu_dtl_dispatch_reasons",
			   OM_COUNTER, NULL, preempt ? "Dispatches by why the vCPU was preempted"
			   " (perf's vpa-dtl preempt reasons)" : "Dispatches by why the vCPU was "
			   "dispatched (perf's vpa-dtl dispatch reasons)", err);
	for (size_t i = 0; !rc && i < s->ncpus; i++) {
		const struct dtl_cpu *c = &s->cpus[i];
		const uint64_t *mix = preempt ? c->preempt_mix : c->dispatch_mix;
		for (unsigned code = 0; !rc && code < 256; code++) {
			if (!mix[code])
				continue;
			char cpu[16], num[8], buf[16];
			snprintf(cpu, sizeof(cpu), "%d", c->cpu);
			snprintf(num, sizeof(num), "%u", code);
			struct om_label l[3] = {{"cpu", cpu}, {"code", num},
						{"reason", pmurt_dtl_reason_text(preempt, code, buf)}};
			rc = om_sample(w, l, 3, (double)mix[code], NULL, err);
		}
	}
	return rc;
}

static int wait_histograms(struct om_writer *w, const struct dtl_stats *s,
			   struct pmurt_error *err)
{
	double bounds[LE_BOUNDS];
	uint64_t cum[LE_BOUNDS], freq = dtl_tb_freq(s);
	for (int k = 0; k < LE_BOUNDS; k++)
		bounds[k] = ldexp(1e-6, k);
	int rc = 0;
	for (int t = 0; !rc && t < DTL_NTIMES; t++) {
		char name[96], help[160];
		snprintf(name, sizeof(name), "pmu_dtl_%s_seconds", dtl_time_names[t]);
		snprintf(help, sizeof(help), "The DTL entries' %s_time", dtl_time_names[t]);
		rc = om_family(w, name, OM_HISTOGRAM, "seconds", help, err);
		for (size_t i = 0; !rc && i < s->ncpus; i++) {
			const struct dtl_cpu *c = &s->cpus[i];
			char cpu[16];
			snprintf(cpu, sizeof(cpu), "%d", c->cpu);
			struct om_label l = {"cpu", cpu};
			cumulative(c->times[t], c->n, freq, cum);
			rc = om_histogram(w, &l, 1, bounds, cum, LE_BOUNDS, c->dist[t].count,
					  (double)c->dist[t].sum / (double)freq, NULL, err);
		}
	}
	return rc;
}

/* A counter or gauge family with one value per CPU. */
static int per_cpu(struct om_writer *w, const struct dtl_stats *s, const char *name,
		   enum om_type type, const char *unit, const char *help,
		   double (*value)(const struct dtl_stats *, const struct dtl_cpu *),
		   struct pmurt_error *err)
{
	int rc = om_family(w, name, type, unit, help, err);
	for (size_t i = 0; !rc && i < s->ncpus; i++) {
		char cpu[16];
		snprintf(cpu, sizeof(cpu), "%d", s->cpus[i].cpu);
		struct om_label l = {"cpu", cpu};
		double v = value(s, &s->cpus[i]);
		if (!isnan(v))
			rc = om_sample(w, &l, 1, v, NULL, err);
	}
	return rc;
}

static double dispatches(const struct dtl_stats *s, const struct dtl_cpu *c)
{
	(void)s;
	return (double)c->dispatches;
}

static double steal_seconds(const struct dtl_stats *s, const struct dtl_cpu *c)
{
	return (double)c->steal / (double)dtl_tb_freq(s);
}

static double steal_ratio(const struct dtl_stats *s, const struct dtl_cpu *c)
{
	(void)s;
	return c->last_tb > c->first_tb ? (double)c->steal / (double)(c->last_tb - c->first_tb)
					: NAN;
}

int dtl_report_openmetrics(const struct dtl_stats *s, FILE *out, struct pmurt_error *err)
{
	struct om_writer *w;
	int rc = om_writer_open(&w, out, err);
	if (!rc)
		rc = per_cpu(w, s, "pmu_dtl_dispatches", OM_COUNTER, NULL,
			     "Dispatches of the vCPU the Dispatch Trace Log holds", dispatches, err);
	if (!rc)
		rc = per_cpu(w, s, "pmu_dtl_steal_seconds", OM_COUNTER, "seconds",
			     "Steal: enqueue_to_dispatch + ready_to_enqueue (arch/powerpc/kernel/"
			     "time.c)", steal_seconds, err);
	if (!rc)
		rc = per_cpu(w, s, "pmu_dtl_steal_ratio", OM_GAUGE, "ratio",
			     "Steal over the log's span (first to last dispatch)", steal_ratio, err);
	if (!rc)
		rc = reasons(w, s, false, err);
	if (!rc)
		rc = reasons(w, s, true, err);
	if (!rc)
		rc = wait_histograms(w, s, err);
	if (!rc)
		rc = om_finish(w, err);
	om_writer_free(w);
	return rc;
}

/*
 * dtl_check.c - what `pmutool dtl report` finds implausible in decodable
 * DTL bytes, said rather than folded silently into the figures: a header's
 * timebase frequency no POWER system has, an entry whose timebase goes
 * backwards or lies before the header's boot timebase, and an entry whose
 * three wait times (the vCPU off the processor before this dispatch) add up
 * to more than the time since the CPU's previous dispatch -- the hypervisor
 * logs one entry per dispatch (arch/powerpc/include/asm/lppaca.h, struct
 * dtl_entry), so a vCPU cannot have been off longer than that.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "dtl_check.h"

/* The timebase runs at 512 MHz on POWER8 to POWER10 (ppc_tb_freq); a
 * header far outside 1 MHz..10 GHz is not a timebase frequency. */
#define TB_FREQ_MIN 1000000ull
#define TB_FREQ_MAX 10000000000ull

const char *const dtl_warn_names[DTL_NWARN] = {
	[DTL_WARN_TB_FREQ] = "tb_freq",
	[DTL_WARN_BACKWARDS] = "time_backwards",
	[DTL_WARN_BEFORE_BOOT] = "before_boot",
	[DTL_WARN_OFF_EXCEEDS_GAP] = "off_exceeds_gap",
};

__attribute__((format(printf, 5, 6)))
static void warn(struct dtl_warnings *w, enum dtl_warn_kind kind, int cpu, uint64_t offset,
		 const char *fmt, ...)
{
	w->count[kind]++;
	w->total++;
	if (w->nkept == DTL_WARN_KEPT)
		return;
	struct dtl_warning *k = &w->kept[w->nkept++];
	*k = (struct dtl_warning){.kind = kind, .cpu = cpu, .offset = offset};
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->text, sizeof(k->text), fmt, ap);
	va_end(ap);
}

/* ticks in microseconds at tb_freq */
static double us(uint64_t tb_freq, uint64_t ticks)
{
	return (double)ticks * 1e6 / (double)tb_freq;
}

void dtl_check_header(struct dtl_warnings *w, int cpu, uint64_t offset,
		      const struct pmurt_dtl_header *h)
{
	if (h->tb_freq >= TB_FREQ_MIN && h->tb_freq <= TB_FREQ_MAX)
		return;
	warn(w, DTL_WARN_TB_FREQ, cpu, offset,
	     "header tb_freq %" PRIu64 " Hz is not a timebase frequency (1 MHz to 10 GHz)%s",
	     h->tb_freq, h->tb_freq ? "" : ": times use the default 512 MHz");
}

void dtl_check_entry(struct dtl_warnings *w, const struct pmurt_dtl_header *header,
		     uint64_t tb_freq, struct dtl_prev_dispatch prev, uint64_t offset,
		     const struct pmurt_dtl_entry *e)
{
	if (header && e->timebase < header->boot_tb)
		warn(w, DTL_WARN_BEFORE_BOOT, prev.cpu, offset,
		     "timebase %" PRIu64 " is before the header's boot timebase %" PRIu64,
		     e->timebase, header->boot_tb);
	if (!prev.dispatches)
		return;
	if (e->timebase < prev.tb) {
		warn(w, DTL_WARN_BACKWARDS, prev.cpu, offset,
		     "timebase %" PRIu64 " goes back %.3f us from the previous entry's %" PRIu64,
		     e->timebase, us(tb_freq, prev.tb - e->timebase), prev.tb);
		return;
	}
	uint64_t off = (uint64_t)e->enqueue_to_dispatch_time + e->ready_to_enqueue_time +
		       e->waiting_to_ready_time;
	uint64_t gap = e->timebase - prev.tb;
	if (off > gap)
		warn(w, DTL_WARN_OFF_EXCEEDS_GAP, prev.cpu, offset,
		     "off the CPU %.3f us before this dispatch, but the previous one was "
		     "%.3f us earlier", us(tb_freq, off), us(tb_freq, gap));
}

void dtl_warnings_print(const struct dtl_warnings *w, const char *prog, const char *path,
			FILE *out)
{
	for (size_t i = 0; i < w->nkept; i++) {
		const struct dtl_warning *k = &w->kept[i];
		char where[32] = "";
		if (k->cpu >= 0)
			snprintf(where, sizeof(where), "CPU %d, ", k->cpu);
		fprintf(out, "%s: warning: %s: %soffset 0x%" PRIx64 ": %s [%s]\n", prog, path, where,
			k->offset, k->text, dtl_warn_names[k->kind]);
	}
	if (w->total > w->nkept) {
		fprintf(out, "%s: warning: %s: %" PRIu64 " more warnings (", prog, path,
			w->total - w->nkept);
		const char *sep = "";
		for (int k = 0; k < DTL_NWARN; k++)
			if (w->count[k]) {
				fprintf(out, "%s%s %" PRIu64, sep, dtl_warn_names[k], w->count[k]);
				sep = ", ";
			}
		fputs(" in all)\n", out);
	}
}

/*
 * cmd_script.c - pmutool script: the samples in time order, as `perf
 * script` prints them (builtin-script.c, default fields comm, tid, cpu,
 * time, period, event, ip, sym+off, dso): one line each,
 *
 *               sh 22835 [001]  9913.882107:     250000 cpu-clock:  ffffffff8177539a elf_load+0x28a ([kernel.kallsyms])
 *
 * or, with a call graph (-g), the line up to the event, a line per frame
 * and a blank line.  The period is the attr's when samples lack it; CPU and
 * time are left out when sample_type lacks them, as perf does.  A
 * tracepoint's sample has perf's tracepoint fields (comm, tid, cpu, time,
 * event, trace): no period and no IP; its trace fields (the raw data
 * formatted by its print fmt) are not decoded here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tool_session.h"

/* The fields before the IP: comm (right-aligned in 16 columns, or as it is
 * when a call graph follows), tid, cpu, time. */
static int sample_head(const struct session_sample *smp, bool callchain, char *line, size_t len)
{
	const struct pmurt_perf_record *r = smp->rec;
	int n = snprintf(line, len, callchain ? "%s %5d" : "%16s %5d", smp->at.comm, (int)r->tid);
	if (r->has & PERF_SAMPLE_CPU)
		n += snprintf(line + n, len - (size_t)n, " [%03u]", r->cpu);
	if (r->has & PERF_SAMPLE_TIME)
		n += snprintf(line + n, len - (size_t)n, " %5" PRIu64 ".%06" PRIu64 ":",
			      r->time / 1000000000, r->time % 1000000000 / 1000);
	return n;
}

/* "sym+0xOFF (dso)", "[unknown] (dso)" (symbol__fprintf_symname_offs). */
static void print_symbol(const struct resolved *at)
{
	printf(" %s", at->sym);
	if (at->sym != at->dso && at->sym[0] != '[')
		printf("+0x%" PRIx64, at->sym_offset);
	printf(" (%s)\n", at->dso);
}

void script_print_sample(const struct session_sample *smp, int name_width)
{
	char line[1024];
	int n = sample_head(smp, false, line, sizeof(line));
	if (smp->event_type == PERF_TYPE_TRACEPOINT) {
		printf("%s %*s: \n", line, name_width, smp->event);
		return;
	}
	snprintf(line + n, sizeof(line) - (size_t)n, " %10" PRIu64, smp->period);
	printf("%s %*s:  %16" PRIx64, line, name_width, smp->event, smp->rec->ip);
	print_symbol(&smp->at);
}

/* A context marker of the callchain as a record's cpumode
 * (machine.c thread__resolve_callchain_sample); 0 for none. */
static uint16_t context_mode(uint64_t ip)
{
	switch (ip) {
	case PERF_CONTEXT_KERNEL: return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER: return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_HV: return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_GUEST_KERNEL: return PERF_RECORD_MISC_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER: return PERF_RECORD_MISC_GUEST_USER;
	default: return 0;
	}
}

/* A sample with its call graph, as perf script prints it by default
 * (builtin-script.c process_event, evsel_fprintf.c
 * sample__fprintf_callchain): the sample line ends after the event name,
 * then one line per frame, callee first, "\t%16x sym+0xOFF (dso)" (the
 * address of a user frame as an offset of its file, perf's map_ip), and
 * a blank line. */
static int print_callchain(struct session *s, const struct session_sample *smp, int name_width)
{
	const struct pmurt_perf_record *r = smp->rec;
	char line[1024];
	int n = sample_head(smp, true, line, sizeof(line));
	snprintf(line + n, sizeof(line) - (size_t)n, " %10" PRIu64, smp->period);
	printf("%s %*s: \n", line, name_width, smp->event);
	uint16_t mode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	for (uint64_t i = 0; i < r->nr_callchain; i++) {
		uint64_t ip = r->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			mode = context_mode(ip) ? context_mode(ip) : mode;
			continue;
		}
		struct resolved at;
		if (symbols_resolve(s->syms, r->pid, r->tid, ip, mode, &at) < 0) {
			tool_error(s->tool, "out of memory");
			return EXIT_INTERNAL;
		}
		printf("\t%16" PRIx64, at.mode == '.' ? at.map_ip : ip);
		print_symbol(&at);
	}
	printf("\n");
	return 0;
}

static int print_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	int width = *(const int *)ctx;
	if ((smp->rec->has & PERF_SAMPLE_CALLCHAIN) && smp->event_type != PERF_TYPE_TRACEPOINT &&
	    !s->tool->hide_call_graph)
		return print_callchain(s, smp, width);
	script_print_sample(smp, width);
	return 0;
}

int cmd_script(struct tool *t)
{
	if (t->nargs) {
		tool_error(t, "script takes no operand ('%s'): the file is given with -i", t->args[0]);
		return EXIT_USAGE;
	}
	struct session s;
	int rc = session_open(&s, t, t->input), name_width = 0;
	/* event names right-aligned to the longest, as perf script does */
	for (int e = 0; !rc && e < s.info.nevents; e++)
		if ((int)strlen(s.event_names[e]) > name_width)
			name_width = (int)strlen(s.event_names[e]);
	if (!rc)
		rc = session_run(&s, print_sample, &name_width);
	session_close(&s);
	return rc;
}

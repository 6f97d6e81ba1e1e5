/*
 * cmd_script.c - pmutool script: one line per sample, in time order, as
 * `perf script` prints a sample without its call graph (builtin-script.c,
 * default fields comm, tid, cpu, time, period, event, ip, sym+off, dso):
 *
 *               sh 22835 [001]  9913.882107:     250000 cpu-clock:  ffffffff8177539a elf_load+0x28a ([kernel.kallsyms])
 *
 * A field whose sample_type bit is absent is left out, as perf does.  A
 * tracepoint's sample has perf's tracepoint fields (comm, tid, cpu, time,
 * event, trace): no period and no IP; its trace fields (the raw data
 * formatted by its print fmt) are not decoded here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tool_session.h"

void script_print_sample(const struct session_sample *smp, int name_width)
{
	const struct pmurt_perf_record *r = smp->rec;
	char line[1024];
	int n = snprintf(line, sizeof(line), "%16s %5d", smp->at.comm, (int)r->tid);
	if (r->has & PERF_SAMPLE_CPU)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " [%03u]", r->cpu);
	if (r->has & PERF_SAMPLE_TIME)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %5" PRIu64 ".%06" PRIu64 ":",
			      r->time / 1000000000, r->time % 1000000000 / 1000);
	if (smp->event_type == PERF_TYPE_TRACEPOINT) {
		printf("%s %*s: \n", line, name_width, smp->event);
		return;
	}
	if (r->has & PERF_SAMPLE_PERIOD)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %10" PRIu64, r->period);
	printf("%s %*s:  %16" PRIx64 " %s", line, name_width, smp->event, r->ip, smp->at.sym);
	if (smp->at.sym != smp->at.dso && smp->at.sym[0] != '[')
		printf("+0x%" PRIx64, smp->at.sym_offset);
	printf(" (%s)\n", smp->at.dso);
}

static int print_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	(void)s;
	script_print_sample(smp, *(const int *)ctx);
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

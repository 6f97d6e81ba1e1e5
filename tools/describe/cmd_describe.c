/*
 * cmd_describe.c - `pmutool describe EVENT|PRESET`: for a PAPI preset, what
 * it counts (its events, its formula, whether its events fit in one group and
 * whether record can sample it), then, for a preset of one event and for an
 * event, every field of the description
 * decoded for one event, where each lands (register field and bits for the
 * event's counter, under which condition), the privilege filters for that
 * counter, the event's contribution to the kernel's constraint word, and the
 * registers it gets alone in a group.
 *
 * The decoding against the model is the library's (pmurt_event_describe,
 * pmurt_tool.h); this file prints around it what the public API gives.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "describe_opts.h"

struct describe {
	const struct pmurt_pmu *pmu;
	struct pmurt_event_spec ev;
	struct pmurt_group_result alone;
};

/* --- the event and its counter -------------------------------------------- */
static void print_header(const struct describe *d)
{
	struct pmurt_event_info e = {.sz = sizeof(e)};
	int index = d->ev.event_index >= 0 ? d->ev.event_index
					   : pmurt_event_find_code(d->pmu, d->ev.code, NULL);
	if (index >= 0 && pmurt_event_get(d->pmu, index, &e) == 0) {
		printf("%s  0x%" PRIx64 "  [%s, %s%s]\n", e.name, e.code, e.category ? e.category : "",
		       e.event_class ? e.event_class : "", e.firmware ? ", firmware" : "");
		if (e.alias_of)
			printf("  alias of %s\n", e.alias_of);
		if (e.description && e.description[0])
			printf("  %s\n", e.description);
	} else {
		char code[24];
		snprintf(code, sizeof(code), "0x%" PRIx64, d->ev.code);
		if (strcmp(code, d->ev.name) != 0)
			printf("%s  ", d->ev.name);
		printf("%s  [no event of the description has this code]\n", code);
	}
	printf("code 0x%" PRIx64 ", config1 0x%" PRIx64 " (bit numbers: LSB = 0)\n", d->ev.code,
	       d->ev.config1);
}

/* --- alone in a group ------------------------------------------------------- */
static void print_alone(const struct describe *d)
{
	if (!d->alone.ok) {
		printf("\nalone in a group: rejected (%s)\n  %s\n", d->alone.reason,
		       d->alone.message);
		return;
	}
	printf("\nalone in a group: PMC%d\n", d->alone.pmc[0]);
	for (int i = 0; i < d->alone.nregs && i < PMURT_MAX_REGS; i++)
		printf("  %-6s 0x%016" PRIx64 "\n", pmurt_register_name(d->pmu, i), d->alone.regs[i]);
}

/* A PAPI preset: its members, formula, and whether they fit one group (as
 * stat opens them).  Returns true when it is derived (nothing more to show). */
static bool describe_preset(const struct tool *t, const struct describe_opts *opts,
			    const struct pmurt_preset_info *p)
{
	static const char *const kinds[] = {"one event", "derived: add (the sum)",
					    "derived: sub (the first minus the others)",
					    "derived: postfix formula"};
	printf("%s  [PAPI preset, %s]\n", p->name, kinds[p->kind & 3]);
	if (p->description && p->description[0])
		printf("  %s\n", p->description);
	printf("  = %s%s%s%s\n", p->formula, p->postfix ? "  (postfix " : "",
	       p->postfix ? p->postfix : "", p->postfix ? ")" : "");
	struct pmurt_event_spec ev[PMURT_PRESET_MAX_EVENTS];
	for (int k = 0; k < p->nevents; k++) {
		printf("  N%d  %-28s 0x%" PRIx64 "\n", k, p->events[k], p->codes[k]);
		ev[k] = (struct pmurt_event_spec){.sz = sizeof(ev[k]), .type = 4 /* RAW */,
						  .config = p->codes[k],
						  .code = p->codes[k], .event_index = -1};
	}
	if (!p->derived) {
		printf("  record samples it as its event (%s-all-10000)\n\n", p->name);
		return false;
	}
	struct pmurt_group_result res = {.sz = sizeof(res)};
	if (pmurt_group_check(t->pmu, ev, p->nevents, sizeof(ev[0]), &opts->check, &res, NULL) == 0) {
		if (res.ok) {
			printf("  its events in one group:");
			for (int k = 0; k < res.n; k++)
				printf(" PMC%d", res.pmc[k]);
			printf("\n");
		} else {
			printf("  its events do not fit in one group: %s (%s)\n", res.reason,
			       res.message);
		}
	}
	printf("  derived: stat counts its events and computes it; record cannot sample it\n");
	return true;
}

int cmd_describe(const struct tool *t, const struct describe_opts *opts)
{
	if (t->nargs != 1 || opts->batch || opts->json) {
		tool_error(t, "usage: %s describe EVENT (no --json, no --batch)", t->prog);
		return EXIT_USAGE;
	}
	struct pmurt_preset_info preset = {.sz = sizeof(preset)};
	if (pmurt_preset_find(t->pmu, t->args[0], &preset, NULL) >= 0 &&
	    describe_preset(t, opts, &preset))
		return EXIT_OK;
	if (pmurt_event_find(t->pmu, t->args[0], NULL, NULL) < 0 && describe_metric(t, opts, t->args[0]))
		return EXIT_OK;
	struct describe d = {.pmu = t->pmu};
	int rc = tool_parse_event(t, t->args[0], &d.ev);
	if (rc)
		return rc;
	struct pmurt_error err = {0};
	char *decoded = NULL;
	d.alone = (struct pmurt_group_result){.sz = sizeof(d.alone)};
	if (pmurt_group_check(t->pmu, &d.ev, 1, sizeof(d.ev), &opts->check, &d.alone, &err) < 0 ||
	    pmurt_event_describe(t->pmu, &d.ev, &opts->check, &decoded, &err) < 0) {
		tool_error(t, "%s", err.message);
		return EXIT_INTERNAL;
	}
	print_header(&d);
	tool_print_generations(t->pmu, d.ev.event_index >= 0 ? d.ev.name : NULL, d.ev.code);
	fputs(decoded, stdout);
	free(decoded);
	print_alone(&d);
	return EXIT_OK;
}

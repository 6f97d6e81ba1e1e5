/*
 * tool_generations.c - what the other processor generations (the other
 * built-in descriptions, pmurt_generations) make of an event name or a raw
 * code, for describe's section and the notes check and stat print when a
 * raw code counts something else on another generation.  It names no
 * generation itself: every built-in description takes part.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmutool.h"

#define MAX_GENERATIONS 16

/* The perf event of the loaded description with that code, or NULL (a
 * firmware event's name, "cycles-alt", is no perf name to compare). */
static const char *here_by_code(const struct pmurt_pmu *pmu, uint64_t code,
				struct pmurt_event_info *info)
{
	*info = (struct pmurt_event_info){.sz = sizeof(*info)};
	return pmurt_event_find_code(pmu, code, info) >= 0 && !info->firmware ? info->name : NULL;
}

/* A generation's perf event of the code, or NULL. */
static const char *perf_name(const struct pmurt_generation *g)
{
	return g->event && !g->firmware ? g->event : NULL;
}

static const char *own_platform(const struct pmurt_pmu *pmu)
{
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	return pmurt_pmu_info(pmu, &info) == 0 && info.platform ? info.platform : "this one";
}

int tool_generations_note(const struct pmurt_pmu *pmu, uint64_t code, char *buf, size_t len)
{
	struct pmurt_generation g[MAX_GENERATIONS];
	struct pmurt_event_info info;
	const char *here = here_by_code(pmu, code, &info);
	int n = pmurt_generations(pmu, NULL, code, g, MAX_GENERATIONS, sizeof(g[0]));
	bool differs = false;
	for (int i = 0; i < n && i < MAX_GENERATIONS; i++)
		differs |= perf_name(&g[i]) && (!here || strcasecmp(perf_name(&g[i]), here) != 0);
	buf[0] = 0;
	if (!differs)
		return 0;
	size_t used = (size_t)snprintf(buf, len, "raw code 0x%" PRIx64 " counts %s on %s", code,
				       here ? here : "no named event", own_platform(pmu));
	/* one clause per answer, naming every generation that gives it
	 * ("PM_BR_CMPL on power10, power9 and power11"): Power11 answers as
	 * POWER10, whose PMU it is */
	bool told[MAX_GENERATIONS] = {false};
	n = n < MAX_GENERATIONS ? n : MAX_GENERATIONS;
	for (int i = 0; i < n && used < len; i++) {
		if (told[i])
			continue;
		const char *what = perf_name(&g[i]) ? perf_name(&g[i]) : "no named event";
		int same[MAX_GENERATIONS], nsame = 0;
		for (int j = i; j < n; j++) {
			const char *other = perf_name(&g[j]) ? perf_name(&g[j]) : "no named event";
			if (!told[j] && strcmp(other, what) == 0) {
				told[j] = true;
				same[nsame++] = j;
			}
		}
		used += (size_t)snprintf(buf + used, len - used, ", %s on ", what);
		for (int k = 0; k < nsame && used < len; k++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 k == 0 ? "" : k == nsame - 1 ? " and " : ", ",
						 g[same[k]].platform);
	}
	return 1;
}

void tool_note_raw_codes(const struct pmurt_pmu *pmu, const struct pmurt_event_spec *ev, int n)
{
	for (int i = 0; i < n; i++) {
		char note[512];
		if (ev[i].event_index >= 0 || ev[i].type != 4 /* PERF_TYPE_RAW */)
			continue;
		bool seen = false;
		for (int j = 0; j < i; j++)
			seen |= ev[j].event_index < 0 && ev[j].code == ev[i].code;
		if (!seen && tool_generations_note(pmu, ev[i].code, note, sizeof(note)))
			fprintf(stderr, "pmutool: note: %s\n", note);
	}
}

/* One generation's line: its event of the name (if one was given) and of
 * the code. */
static void print_generation(const struct pmurt_generation *by_name,
			     const struct pmurt_generation *by_code, uint64_t code)
{
	char name_part[160] = "", code_part[160];
	if (by_name && by_name->event)
		snprintf(name_part, sizeof(name_part), "%s 0x%" PRIx64 "%s", by_name->event,
			 by_name->code, by_name->code == code ? " (the same code)" : "");
	else if (by_name)
		snprintf(name_part, sizeof(name_part), "no event of this name");
	if (by_name && by_name->event && by_name->code == code) {
		printf("  %-10s %s\n", by_code->platform, name_part);
		return;
	}
	snprintf(code_part, sizeof(code_part), "0x%" PRIx64 " is %s", code,
		 by_code->event ? by_code->event : "no named event");
	printf("  %-10s %s%s%s\n", by_code->platform, name_part, name_part[0] ? "; " : "",
	       code_part);
}

void tool_print_generations(const struct pmurt_pmu *pmu, const char *name, uint64_t code)
{
	struct pmurt_generation by_name[MAX_GENERATIONS], by_code[MAX_GENERATIONS];
	int n = pmurt_generations(pmu, NULL, code, by_code, MAX_GENERATIONS, sizeof(by_code[0]));
	if (name && pmurt_generations(pmu, name, 0, by_name, MAX_GENERATIONS,
				      sizeof(by_name[0])) != n)
		return;
	if (n <= 0)
		return;
	printf("\nother generations:\n");
	for (int i = 0; i < n && i < MAX_GENERATIONS; i++)
		print_generation(name ? &by_name[i] : NULL, &by_code[i], code);
}

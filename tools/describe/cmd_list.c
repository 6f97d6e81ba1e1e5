/*
 * cmd_list.c - `pmutool list [--json] [GLOB]`: the description's events
 * whose names match GLOB (fnmatch, without case), with code, category and
 * description; an alias names the event it aliases.  Then its PAPI presets
 * that match, with their events or formula (JSON objects keyed "preset"),
 * and the host's software events, other PMUs' events and tracepoints, as
 * perf list shows them (objects with a "type").
 */
#include <fnmatch.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "describe_opts.h"
#include "check_answer.h"

static bool matches(const char *glob, const char *name)
{
	return !glob || fnmatch(glob, name, FNM_CASEFOLD) == 0;
}

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

static void print_text(const struct pmurt_event_info *e, int name_width)
{
	char code[24];
	snprintf(code, sizeof(code), "0x%" PRIx64, e->code);
	tool_line("%-*s  %-18s  %-12s  %s%s%s%s", name_width, e->name, code,
		  str_or_empty(e->category), e->alias_of ? "(alias of " : "",
		  e->alias_of ? e->alias_of : "", e->alias_of ? ") " : "",
		  str_or_empty(e->description));
}

static json_t *event_json(const struct pmurt_event_info *e)
{
	char code[24];
	snprintf(code, sizeof(code), "0x%" PRIx64, e->code);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s?}", "name", e->name, "code", code,
			 "category", str_or_empty(e->category), "class",
			 str_or_empty(e->event_class), "description",
			 str_or_empty(e->description), "firmware", e->firmware, "alias_of",
			 e->alias_of);
}


static json_t *preset_json(const struct pmurt_preset_info *p)
{
	static const char *const kinds[] = {"event", "add", "sub", "postfix"};
	json_t *events = json_array(), *codes = json_array();
	for (int k = 0; events && codes && k < p->nevents; k++) {
		char code[24];
		snprintf(code, sizeof(code), "0x%" PRIx64, p->codes[k]);
		json_array_append_new(events, json_string(p->events[k]));
		json_array_append_new(codes, json_string(code));
	}
	return json_pack("{s:s, s:b, s:s, s:o*, s:o*, s:s, s:s?, s:s?}", "preset", p->name,
			 "derived", p->derived, "kind", kinds[p->kind & 3], "events", events,
			 "codes", codes, "formula", p->formula, "postfix", p->postfix,
			 "description", p->description);
}

/* One line of JSON (an event's or a preset's object) in the array. */
static int print_json_object(json_t *o, bool first)
{
	char *s = o ? tool_json_compact(o) : NULL;
	json_decref(o);
	if (!s)
		return -1;
	printf("%s%s", first ? "[\n" : ",\n", s);
	free(s);
	return 0;
}

/* The presets whose names match, after the events; how many were shown. */
static int list_presets(const struct tool *t, const struct describe_opts *opts, const char *glob,
			int npresets, int shown)
{
	bool header = false;
	for (int i = 0; i < npresets; i++) {
		struct pmurt_preset_info p = {.sz = sizeof(p)};
		if (pmurt_preset_get(t->pmu, i, &p) < 0)
			return -1;
		if (!matches(glob, p.name))
			continue;
		if (opts->json) {
			if (print_json_object(preset_json(&p), shown == 0) < 0)
				return -1;
		} else {
			if (!header)
				tool_line("%sPAPI presets (stat counts the derived ones; record takes "
					  "the others):", shown ? "\n" : "");
			header = true;
			tool_line("%-14s %-8s %s", p.name, p.derived ? "derived" : "", p.formula);
		}
		shown++;
	}
	return shown;
}

/* The widest matching name, so the text columns line up. */
static int name_width(const struct tool *t, const char *glob, int nevents)
{
	int width = 4;
	for (int i = 0; i < nevents; i++) {
		struct pmurt_event_info e = {.sz = sizeof(e)};
		if (pmurt_event_get(t->pmu, i, &e) == 0 && matches(glob, e.name) &&
		    (int)strlen(e.name) > width)
			width = (int)strlen(e.name);
	}
	return width;
}

/* The host's other events, perf list's lines (print-events.c: two spaces,
 * the name in 50 columns, its kind in brackets). */
struct host_listing {
	const struct describe_opts *opts;
	const char *glob;
	int shown;
};

static int list_host_event(void *ctx, const struct pmurt_listed_event *e)
{
	static const char *const kinds[] = {"Software event", "Kernel PMU event", "Tracepoint event"};
	static const char *const types[] = {"software", "kernel-pmu", "tracepoint"};
	struct host_listing *l = ctx;
	if (!matches(l->glob, e->name) && !(e->alias && matches(l->glob, e->alias)))
		return 0;
	if (l->opts->json) {
		if (print_json_object(json_pack("{s:s, s:s*, s:s}", "name", e->name, "alias",
						e->alias, "type", types[e->kind]),
				      l->shown == 0) < 0)
			return -ENOMEM;
	} else {
		char name[600];
		snprintf(name, sizeof(name), "%s%s%s", e->name, e->alias ? " OR " : "",
			 e->alias ? e->alias : "");
		tool_line("  %-50s [%s]", name, kinds[e->kind]);
	}
	l->shown++;
	return 0;
}

/* The running system's (or --sysfs/--tracefs's) software events, other
 * PMUs' events and tracepoints after the description's, as perf list. */
static int list_host(const struct tool *t, const struct describe_opts *opts, const char *glob,
		     int shown)
{
	struct pmurt_error err = {0};
	struct pmurt_host *own = NULL;
	/* the host the pick opened, unless --sysfs or --tracefs name others */
	const struct pmurt_host *host = t->sysfs || t->tracefs ? NULL : t->host;
	int rc = 0;
	if (!host)
		rc = pmurt_host_open(&own, &PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = t->sysfs,
							    .tracefs = t->tracefs, .sys = t->sys),
				     &err);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {   /* the description's events are listed: say why no more */
		fprintf(stderr, "%s: warning: the host's own events are not listed: %s\n", t->prog,
			err.message);
		return shown;
	}
	host = host ? host : own;
	struct host_listing l = {.opts = opts, .glob = glob, .shown = shown};
	rc = pmurt_host_events(host, list_host_event, &l, &err);
	pmurt_host_close(own);
	return rc < 0 ? rc : l.shown;
}

int cmd_list(const struct tool *t, const struct describe_opts *opts)
{
	bool metrics = t->nargs && strcmp(t->args[0], "metrics") == 0;
	if (t->nargs > 1 + metrics || opts->batch) {
		tool_error(t, "usage: %s list [--json] [GLOB] | list metrics [GLOB]", t->prog);
		return EXIT_USAGE;
	}
	if (metrics)
		return list_metrics(t, opts, t->nargs > 1 ? t->args[1] : NULL);
	const char *glob = t->nargs ? t->args[0] : NULL;
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	if (pmurt_pmu_info(t->pmu, &info) < 0)
		return EXIT_INTERNAL;
	int width = opts->json ? 0 : name_width(t, glob, info.nevents);
	int shown = 0;
	for (int i = 0; i < info.nevents; i++) {
		struct pmurt_event_info e = {.sz = sizeof(e)};
		if (pmurt_event_get(t->pmu, i, &e) < 0)
			return EXIT_INTERNAL;
		if (!matches(glob, e.name))
			continue;
		if (!opts->json)
			print_text(&e, width);
		else if (print_json_object(event_json(&e), shown == 0) < 0) {
			tool_error(t, "out of memory");
			return EXIT_INTERNAL;
		}
		shown++;
	}
	shown = list_presets(t, opts, glob, info.npresets, shown);
	if (shown >= 0)
		shown = list_host(t, opts, glob, shown);
	if (shown < 0) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	if (opts->json)
		printf(shown ? "\n]\n" : "[]\n");
	return shown ? EXIT_OK : EXIT_REJECTED;
}

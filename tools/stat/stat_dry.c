/*
 * stat_dry.c - `pmutool stat --dry-run`: the perf_event_attr each event
 * would be opened with (exactly what stat opens: pmurt_counter_attr) and, for
 * groups of core events, the group check's counters and control registers
 * or its reason; the derived presets and the events they are computed
 * from.  Opens nothing.
 */
#include <inttypes.h>
#include <jansson.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "pmutool.h"
#include "stat.h"

static const char *kind_name(enum pmurt_evsel_kind k)
{
	static const char *const names[] = {"core", "hardware", "cache", "software", "tracepoint",
					    "sysfs", "breakpoint", "tool"};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static json_t *hex(uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

static json_t *attr_json(const struct perf_event_attr *a, int leader)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_integer(a->type));
	json_object_set_new(o, "config", hex(a->config));
	json_object_set_new(o, "config1", hex(a->config1));
	json_object_set_new(o, "config2", hex(a->config2));
	json_object_set_new(o, "exclude_user", json_boolean(a->exclude_user));
	json_object_set_new(o, "exclude_kernel", json_boolean(a->exclude_kernel));
	json_object_set_new(o, "exclude_hv", json_boolean(a->exclude_hv));
	json_object_set_new(o, "exclude_idle", json_boolean(a->exclude_idle));
	json_object_set_new(o, "precise_ip", json_integer(a->precise_ip));
	json_object_set_new(o, a->freq ? "sample_freq" : "sample_period",
			    json_integer((json_int_t)a->sample_period));
	json_object_set_new(o, "freq", json_boolean(a->freq));
	json_object_set_new(o, "sample_type", hex(a->sample_type));
	json_object_set_new(o, "read_format", hex(a->read_format));
	json_object_set_new(o, "disabled", json_boolean(a->disabled));
	json_object_set_new(o, "inherit", json_boolean(a->inherit));
	json_object_set_new(o, "pinned", json_boolean(a->pinned));
	json_object_set_new(o, "enable_on_exec", json_boolean(a->enable_on_exec));
	json_object_set_new(o, "group_leader", json_integer(leader));
	return o;
}

json_t *stat_check_json(const struct pmurt_pmu *pmu, const struct pmurt_group_result *r)
{
	if (!r->ok)
		return json_pack("{s:b, s:i, s:s, s:s}", "ok", 0, "reject_index", r->reject_index,
				 "reason", r->reason, "message", r->message);
	json_t *o = json_pack("{s:b}", "ok", 1), *pmc = json_array(), *codes = json_array();
	json_t *regs = json_object();
	for (int i = 0; i < r->n; i++) {
		json_array_append_new(pmc, json_integer(r->pmc[i]));
		json_array_append_new(codes, hex(r->final_events[i]));
	}
	for (int i = 0; i < r->nregs; i++) {
		char key[32];
		json_object_set_new(regs, tool_reg_key(pmu, i, key, sizeof(key)), hex(r->regs[i]));
	}
	json_object_set_new(o, "final_events", codes);
	json_object_set_new(o, "pmc", pmc);
	json_object_set_new(o, "registers", regs);
	return o;
}

/* The names of the group's events, leader first. */
static json_t *group_names(const struct pmurt_evlist *list, int leader, int size)
{
	json_t *a = json_array();
	for (int i = leader; i < leader + size; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		pmurt_evlist_event(list, i, &e);
		json_array_append_new(a, json_string(e.name));
	}
	return a;
}

static void print_text(const struct pmurt_evsel_info *e, int i, const struct perf_event_attr *a)
{
	tool_line("%d %s (%s): type=%u config=0x%" PRIx64 " config1=0x%" PRIx64 " config2=0x%" PRIx64
		  " exclude_user=%d exclude_kernel=%d exclude_hv=%d exclude_idle=%d precise_ip=%d"
		  " %s=%" PRIu64 " sample_type=0x%" PRIx64 " read_format=0x%" PRIx64
		  " disabled=%d inherit=%d pinned=%d enable_on_exec=%d leader=%d", i, e->name, e->pmu,
		  a->type, (uint64_t)a->config, (uint64_t)a->config1, (uint64_t)a->config2,
		  a->exclude_user, a->exclude_kernel, a->exclude_hv, a->exclude_idle, a->precise_ip,
		  a->freq ? "sample_freq" : "sample_period", (uint64_t)a->sample_period,
		  (uint64_t)a->sample_type, (uint64_t)a->read_format, a->disabled, a->inherit,
		  a->pinned, a->enable_on_exec, e->leader);
}

static void print_check_text(const struct pmurt_pmu *pmu, int leader,
			     const struct pmurt_group_result *r)
{
	if (!r->ok) {
		tool_line("group %d: does not fit: %s: %s", leader, r->reason, r->message);
		return;
	}
	char line[512], key[32];
	size_t n = (size_t)snprintf(line, sizeof(line), "group %d: fits:", leader);
	for (int i = 0; i < r->n && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " PMC%d", r->pmc[i]);
	for (int i = 0; i < r->nregs && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s=0x%" PRIx64,
				      tool_reg_key(pmu, i, key, sizeof(key)), r->regs[i]);
	tool_line("%s", line);
}

static json_t *derived_json(const struct stat_report *r)
{
	json_t *a = json_array();
	for (int i = 0; i < r->nderived; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i}", "name", r->derived[i].name,
			"formula", r->derived[i].formula, "first_event", r->derived[i].first,
			"nevents", r->derived[i].n));
	return a;
}

/* The counters' options of a run: on the command (per task) or on CPUs;
 * for the attrs, which CPUs does not matter. */
static struct pmurt_counter_opts run_opts(bool per_task)
{
	static const int any_cpu[1] = {0};
	return per_task ? PMURT_OPTS_INIT(pmurt_counter_opts, .inherit = true,
					  .enable_on_exec = true)
			: PMURT_OPTS_INIT(pmurt_counter_opts, .cpus = any_cpu, .ncpus = 1);
}

int stat_dry_run(const struct tool *t, const struct stat_opts *opts,
		 const struct pmurt_evlist *list, const struct stat_report *report)
{
	const struct pmurt_pmu *core = pmurt_host_pmu(t->host);
	bool per_task = !opts->all_cpus && !opts->cpu_list;
	struct pmurt_counter_opts run = run_opts(per_task);
	struct pmurt_check_opts check = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = per_task,
							.lpar = true);
	/* refused as the run refuses it before opening anything: the command
	 * (0) or -p's process */
	struct pmurt_counter_opts task = PMURT_OPTS_INIT(pmurt_counter_opts,
							 .pid = opts->pid > 0 ? opts->pid : 0);
	struct pmurt_error refusal = {0};
	if (per_task && pmurt_counter_refusal(list, &task, &refusal)) {
		tool_error(t, "%s", refusal.message);
		return EXIT_OPEN_FAILED;
	}
	json_t *events = json_array(), *groups = json_array();
	int rc = EXIT_OK, n = pmurt_evlist_nevents(list);
	for (int i = 0; i < n; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		struct perf_event_attr a;
		pmurt_evlist_event(list, i, &e);
		/* a tool event opens nothing: no attr (pmurt_counter_attr -ENOENT) */
		bool opens = pmurt_counter_attr(list, i, &run, &a, sizeof(a)) == 0;
		if (opts->json || opts->json_report)
			json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:o, s:f, s:s, s:b}",
				"name", e.name, "pmu", e.pmu, "kind", kind_name(e.kind), "attr",
				opens ? attr_json(&a, e.leader) : json_null(), "scale", e.scale,
				"unit", e.unit, "per_cpu_only", e.per_cpu_only));
		else if (opens)
			print_text(&e, i, &a);
		else
			tool_line("%d %s (tool): opens no perf_event fd: perf's tool event, measured by "
				  "pmutool in %s", i, e.name, e.unit);
		int leader = e.leader;
		if (i != leader + e.group_size - 1)
			continue; /* the check follows the group's last event */
		struct pmurt_group_result r = {.sz = sizeof(r)};
		struct pmurt_error err = {0};
		if (pmurt_evlist_group_check(list, leader, &check, &r, &err) < 0) {
			tool_error(t, "%s", err.message);
			rc = EXIT_INTERNAL;
			break;
		}
		if (!r.n && !r.reason[0])
			continue;
		if (!r.ok)
			rc = EXIT_REJECTED;
		if (opts->json || opts->json_report)
			json_array_append_new(groups, json_pack("{s:i, s:i, s:o, s:o}", "leader", leader,
				"size", e.group_size, "events", group_names(list, leader, e.group_size),
				"check", stat_check_json(core, &r)));
		else
			print_check_text(core, leader, &r);
	}
	for (int i = 0; !opts->json && !opts->json_report && i < report->nderived; i++)
		tool_line("%s = %s (events %d-%d)", report->derived[i].name, report->derived[i].formula,
			  report->derived[i].first, report->derived[i].first + report->derived[i].n - 1);
	if (!opts->json && !opts->json_report && rc != EXIT_INTERNAL)
		stat_metrics_dry(t, report, NULL);
	if ((opts->json || opts->json_report) && rc != EXIT_INTERNAL) {
		json_t *o = json_pack("{s:i, s:b, s:s, s:o, s:o, s:o}", "version", STAT_JSON_VERSION,
				      "dry_run", 1, "target", per_task ? "task" : "cpus", "events",
				      events, "groups", groups, "derived", derived_json(report));
		stat_metrics_dry(t, report, o);
		stat_print_json(o, stdout);
	} else {
		json_decref(events);
		json_decref(groups);
	}
	return rc;
}

/*
 * cmd_script.c - pmutool script: the samples in time order, as `perf
 * script` prints them (builtin-script.c process_event and
 * perf_sample__fprintf_start; default fields comm, tid, cpu, time, period,
 * event, ip, sym+off, dso): one line each,
 *
 *               sh 22835 [001]  9913.882107:     250000 cpu-clock:  ffffffff8177539a elf_load+0x28a ([kernel.kallsyms])
 *
 * or, with a call graph (-g), the line up to the event, a line per frame
 * and a blank line.  The period is the attr's when samples lack it; CPU and
 * time are left out when sample_type lacks them, as perf does.  A
 * tracepoint's sample has perf's tracepoint fields (comm, tid, cpu, time,
 * event, trace): its raw data decoded by libtraceevent from the file's
 * tracing-data feature (tool_trace.c).  -F chooses the fields as perf's
 * parse_output_fields does: "comm,tid,..." for every type of event,
 * "TYPE:comm,..." for one (hw, sw, trace, raw, break), "+f,-g" changing
 * the defaults.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_opts.h"
#include "tool_session.h"
#include "tool_trace.h"

enum field {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_TIME = 1 << 3, F_CPU = 1 << 4,
	F_EVNAME = 1 << 5, F_TRACE = 1 << 6, F_IP = 1 << 7, F_SYM = 1 << 8, F_DSO = 1 << 9,
	F_SYMOFF = 1 << 10, F_PERIOD = 1 << 11,
};

static const struct {
	const char *name;
	unsigned field;
} field_names[] = {
	{"comm", F_COMM}, {"tid", F_TID}, {"pid", F_PID}, {"time", F_TIME}, {"cpu", F_CPU},
	{"event", F_EVNAME}, {"trace", F_TRACE}, {"ip", F_IP}, {"sym", F_SYM}, {"dso", F_DSO},
	{"symoff", F_SYMOFF}, {"period", F_PERIOD},
};

/* perf's output types: the attr types up to breakpoint, then the rest. */
enum { OUT_TRACE = 2, OUT_OTHER = 6, OUT_TYPES };
static const char *const type_names[OUT_TYPES] = {"hw", "sw", "trace", NULL, "raw", "break",
						  "other"};

#define DEFAULT_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVNAME | F_IP | F_SYM | \
			F_SYMOFF | F_DSO)
#define TRACE_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_TRACE)

struct script {
	int name_width;             /* event names right-aligned to the longest */
	unsigned fields[OUT_TYPES]; /* per output type */
	bool user_set[OUT_TYPES];   /* fields -F chose or changed */
	struct tool_trace *trace;   /* NULL: the file has no tracepoint formats */
	bool hide_call_graph;       /* -G */
	int max_stack;              /* --max-stack: frames printed a chain */
	struct report_filter filter;
};

static int output_type(uint32_t attr_type)
{
	return attr_type < OUT_OTHER ? (int)attr_type : OUT_OTHER;
}

static void default_fields(struct script *sc)
{
	for (int i = 0; i < OUT_TYPES; i++)
		sc->fields[i] = i == OUT_TRACE ? TRACE_FIELDS : DEFAULT_FIELDS;
}

static unsigned field_of(const char *name)
{
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (!strcmp(name, field_names[i].name))
			return field_names[i].field;
	return 0;
}

/* The "TYPE:" before the fields, if any: its output type, -1 for all, or
 * -2 for an unknown one. */
static int fields_type(const char **spec)
{
	const char *colon = strchr(*spec, ':');
	if (!colon)
		return -1;
	for (int i = 0; i < OUT_TYPES; i++)
		if (type_names[i] && strlen(type_names[i]) == (size_t)(colon - *spec) &&
		    !strncmp(*spec, type_names[i], (size_t)(colon - *spec))) {
			*spec = colon + 1;
			return i;
		}
	return -2;
}

/* -F SPEC (perf's parse_output_fields): 0, or an exit code. */
static int parse_fields(const struct tool *t, struct script *sc, const char *spec)
{
	int type = fields_type(&spec);
	if (type == -2) {
		tool_error(t, "-F '%s': invalid event type (hw, sw, trace, raw, break, other)", spec);
		return EXIT_USAGE;
	}
	char *copy = strdup(spec), *save = NULL;
	if (!copy)
		return EXIT_INTERNAL;
	unsigned set = 0, add = 0, del = 0;
	int rc = EXIT_OK;
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char change = *tok == '+' || *tok == '-' ? *tok++ : '=';
		unsigned f = field_of(tok);
		if (!f) {
			tool_error(t, "-F: invalid field '%s' (comm, tid, pid, time, cpu, event, trace, "
				   "ip, sym, symoff, dso, period)", tok);
			rc = EXIT_USAGE;
		} else if ((change == '=' && (add | del)) || (change != '=' && set)) {
			tool_error(t, "-F '%s': cannot mix +-field with overridden fields", spec);
			rc = EXIT_USAGE;
		}
		*(change == '+' ? &add : change == '-' ? &del : &set) |= f;
	}
	free(copy);
	for (int i = 0; !rc && i < OUT_TYPES; i++)
		if (type < 0 || i == type) {
			sc->fields[i] = set ? set : (sc->fields[i] | add) & ~del;
			sc->user_set[i] = true;
		}
	return rc;
}

/* Tracepoints recorded with call graphs print their frames unless -F
 * chose their fields, as perf 6.1 does (builtin-script.c
 * perf_session__check_output_opt: "set default for tracepoints to print
 * symbols only if callchains are present"; perf's -G, no_callchain, turns
 * call graphs off, and with them this). */
static void trace_call_graphs(struct script *sc, const struct session *s)
{
	if (sc->user_set[OUT_TRACE] || sc->hide_call_graph)
		return;
	for (int e = 0; e < s->info.nevents; e++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		if (s->event_types[e] == PERF_TYPE_TRACEPOINT && !pmurt_perf_event(s->file, e, &ev) &&
		    (ev.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			sc->fields[OUT_TRACE] |= F_IP | F_SYM | F_SYMOFF | F_DSO;
			return;
		}
	}
}

/* The fields before the period: comm (right-aligned in 16 columns, or as
 * it is when a call graph follows), pid/tid, cpu, time; each followed by
 * a space, the time by ": " (perf_sample__fprintf_start). */
static void sample_head(const struct session_sample *smp, unsigned f, bool callchain)
{
	const struct pmurt_perf_record *r = smp->rec;
	if (f & F_COMM)
		printf(callchain ? "%s " : "%16s ", smp->at.comm);
	if ((f & F_PID) && (f & F_TID))
		printf("%5d/%-5d ", (int)r->pid, (int)r->tid);
	else if (f & (F_PID | F_TID))
		printf("%5d ", (int)(f & F_PID ? r->pid : r->tid));
	if ((f & F_CPU) && (r->has & PERF_SAMPLE_CPU))
		printf("[%03u] ", r->cpu);
	if ((f & F_TIME) && (r->has & PERF_SAMPLE_TIME)) {
		char stamp[48];
		snprintf(stamp, sizeof(stamp), "%" PRIu64 ".%06" PRIu64, r->time / 1000000000,
			 r->time % 1000000000 / 1000);
		printf("%12s: ", stamp);
	}
}

/* " sym+0xOFF (dso)", " [unknown] (dso)" after the address, as the
 * fields ask (sample__fprintf_sym, symbol__fprintf_symname_offs). */
static void print_symbol(const struct resolved *at, unsigned f)
{
	if (f & F_SYM) {
		printf(" %s", at->sym);
		if ((f & F_SYMOFF) && at->sym != at->dso && at->sym[0] != '[')
			printf("+0x%" PRIx64, at->sym_offset);
	}
	if (f & F_DSO)
		printf(" (%s)", at->dso);
	printf("\n");
}

/* The line up to the IP: head, period, event name, a tracepoint's fields. */
static void sample_start(const struct script *sc, const struct session_sample *smp, unsigned f,
			 bool callchain)
{
	sample_head(smp, f, callchain);
	if (f & F_PERIOD)
		printf("%10" PRIu64 " ", smp->period);
	if (f & F_EVNAME)
		printf("%*s: ", sc->name_width, smp->event);
	if ((f & F_TRACE) && sc->trace && smp->event_type == PERF_TYPE_TRACEPOINT &&
	    (smp->rec->has & PERF_SAMPLE_RAW))
		tool_trace_print(sc->trace, smp->config, smp->rec->cpu, smp->rec->raw,
				 smp->rec->raw_size, stdout);
}

static void print_line(const struct script *sc, const struct session_sample *smp, unsigned f)
{
	sample_start(sc, smp, f, false);
	if (!(f & F_IP) || !(smp->rec->has & PERF_SAMPLE_IP)) {
		printf("\n");
		return;
	}
	printf(" %16" PRIx64, smp->rec->ip);
	print_symbol(&smp->at, f);
}

void script_print_sample(const struct session_sample *smp, int name_width)
{
	struct script sc = {.name_width = name_width};
	default_fields(&sc);
	print_line(&sc, smp, sc.fields[output_type(smp->event_type)]);
}

/* One frame of a call graph: "\t%16x sym+0xOFF (dso)", the address of a
 * user frame as an offset of its file (perf's map_ip). */
static int print_frame(struct session *s, const struct pmurt_perf_record *r, uint64_t ip,
		       uint16_t mode, unsigned f)
{
	struct resolved at;
	if (symbols_resolve(s->syms, r->pid, r->tid, ip, mode, &at) < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	printf("\t%16" PRIx64, at.mode == '.' ? at.map_ip : ip);
	print_symbol(&at, f);
	return 0;
}

/* A sample with its call graph, as perf script prints it by default
 * (builtin-script.c process_event, evsel_fprintf.c
 * sample__fprintf_callchain): the sample line ends after the event name,
 * then one line per frame, callee first: the kernel's chain (none of a
 * chain perf takes for corrupted), then the user frames a DWARF unwinding
 * finds (--call-graph dwarf: machine.c thread__resolve_callchain_unwind);
 * and a blank line. */
static int print_callchain(const struct script *sc, struct session *s,
			   const struct session_sample *smp, unsigned f)
{
	const struct pmurt_perf_record *r = smp->rec;
	uint64_t user[SESSION_MAX_STACK];
	int nuser = session_user_frames(s, r, user);
	if (nuser < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	sample_start(sc, smp, f, true);
	printf("\n");
	uint16_t mode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	/* perf's: none, when a marker it walks to is none of the kernel's */
	uint64_t nr = session_chain_corrupt(r, sc->max_stack) ? 0 : r->nr_callchain;
	int rc = 0, frames = 0;
	for (uint64_t i = 0; i < nr && !rc && frames < sc->max_stack; i++) {
		uint64_t ip = r->callchain[i];
		if (ip >= PERF_CONTEXT_MAX)
			mode = session_context_mode(ip) ? session_context_mode(ip) : mode;
		else {
			rc = print_frame(s, r, ip, mode, f);
			frames++;
		}
	}
	for (int i = 0; i < nuser && !rc; i++)
		rc = print_frame(s, r, user[i], PERF_RECORD_MISC_USER, f);
	printf("\n");
	return rc;
}

static int print_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	const struct script *sc = ctx;
	unsigned f = sc->fields[output_type(smp->event_type)];
	if (!f || report_filter_sample(&sc->filter, smp) != FILTER_KEEP)
		return 0;   /* perf script prints no sample a filter leaves out */
	if ((smp->rec->has & PERF_SAMPLE_CALLCHAIN) && (f & F_IP) && !sc->hide_call_graph)
		return print_callchain(sc, s, smp, f);
	print_line(sc, smp, f);
	return 0;
}

/* A kernel function for libtraceevent's %ps (tool_trace_resolve_fn). */
static const char *kernel_function(void *priv, uint64_t addr, uint64_t *start)
{
	struct resolved at;
	if (symbols_resolve(priv, 0, 0, addr, PERF_RECORD_MISC_KERNEL, &at) < 0 ||
	    at.sym == at.dso || at.sym[0] == '[')
		return NULL;
	*start = addr - at.sym_offset;
	return at.sym;
}

/* libtraceevent and the file's formats, when it has tracepoints. */
static int open_trace(struct session *s, struct script *sc)
{
	bool tracepoints = false;
	for (int e = 0; e < s->info.nevents; e++)
		tracepoints |= s->event_types[e] == PERF_TYPE_TRACEPOINT;
	if (!tracepoints || !s->info.tracing_data)
		return 0;
	char msg[512];
	if (tool_trace_open(&sc->trace, s->info.tracing_data, s->info.tracing_data_size,
			    kernel_function, s->syms, msg, sizeof(msg)) < 0) {
		tool_error(s->tool, "%s: %s", s->path, msg);
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_script(const struct tool *t, const struct report_opts *opts)
{
	if (t->nargs) {
		tool_error(t, "script takes no operand ('%s'): the file is given with -i", t->args[0]);
		return EXIT_USAGE;
	}
	struct script sc = {.hide_call_graph = opts->hide_call_graph, .max_stack = opts->max_stack};
	default_fields(&sc);
	int rc = opts->fields ? parse_fields(t, &sc, opts->fields) : 0;
	if (rc)
		return rc;
	struct session s;
	rc = session_open(&s, t, opts->input, opts->input_bytes, opts->input_size);
	if (!rc)
		rc = report_filter_init(&sc.filter, &opts->filter, &s);
	for (int e = 0; !rc && e < s.info.nevents; e++)
		if ((int)strlen(s.event_names[e]) > sc.name_width)
			sc.name_width = (int)strlen(s.event_names[e]);
	if (!rc) {
		trace_call_graphs(&sc, &s);
		rc = open_trace(&s, &sc);
	}
	if (!rc)
		rc = session_run(&s, print_sample, &sc);
	tool_trace_close(sc.trace);
	report_filter_free(&sc.filter);
	session_close(&s);
	return rc;
}

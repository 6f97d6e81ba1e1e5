/*
 * cmd_dtl.c - `pmutool dtl SUBCOMMAND`: the vpa_dtl Dispatch Trace Log.
 *   record [-a | -C CPUS] [-e EV] [-c NS] [-o FILE] [-- CMD]   (dtl_record.c)
 *   decode RAW [--json] [--aux-size N]   a raw AUX dump, slot by slot
 *   dump [-i FILE]                       perf report -D of its vpa_dtl records
 *   script [-i FILE]                     DTL entries between the samples
 *   report [-i] FILE [--json] [--html F] [--perfetto F] [--aux-size N]
 *                                        FILE: perf.data or a raw AUX dump
 * The subcommand parses its own options (they follow `dtl`); the bytes are
 * decoded by libpmurt (pmurt_dtl_*), the figures made by dtl_stats.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtl_export.h"
#include "dtl_perf.h"
#include "dtl_stats.h"
#include "pmutool.h"

struct dtl_opts {
	const struct tool *t;
	const char *input;
	const char *html;
	const char *perfetto;
	uint64_t aux_size;
	bool json;
	const char *pprof;          /* report --pprof OUT (dtl_export.c) */
	bool openmetrics;           /* report --openmetrics */
	struct dtl_export *export;  /* --pprof's, while the input is read */
};

struct mapped {
	const uint8_t *data;
	size_t len;
};

static int map_file(const struct tool *t, const char *path, struct mapped *m)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		tool_error(t, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode)) { /* mmap of a directory fails with ENODEV */
		tool_error(t, "%s: %s", path,
			   S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
		close(fd);
		return EXIT_USAGE;
	}
	m->len = (size_t)st.st_size;
	m->data = NULL;
	if (m->len) {
		void *p = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p == MAP_FAILED) {
			tool_error(t, "%s: %s", path, strerror(errno));
			close(fd);
			return EXIT_INTERNAL;
		}
		m->data = p;
	}
	close(fd);
	return EXIT_OK;
}

static void unmap_file(struct mapped *m)
{
	if (m->len)
		munmap((void *)m->data, m->len);
}

static bool is_perf_data(const struct mapped *m)
{
	return m->len >= 8 && memcmp(m->data, "PERFILE2", 8) == 0;
}

/* A raw dump starts with the header slot the driver writes (vpa-dtl.c:
 * boot_tb, tb_freq, then a zero timebase); anything else is not one. */
static bool is_raw_dtl(const struct dtl_opts *o, const struct mapped *m)
{
	struct pmurt_dtl_header h;
	if (m->len >= PMURT_DTL_SLOT_SIZE && pmurt_dtl_header_decode(m->data, &h))
		return true;
	tool_error(o->t, "%s: neither a perf.data file nor a raw vpa_dtl AUX dump: %s", o->input,
		   m->len < PMURT_DTL_SLOT_SIZE ? "shorter than the 48-byte header slot"
		   : "no header slot at offset 0 (its bytes 16-23, the timebase, are not zero)");
	return false;
}

/* --- decode -------------------------------------------------------------------- */
static void print_slot_text(const struct pmurt_dtl_cursor *c, const struct pmurt_dtl_slot *s)
{
	const struct pmurt_dtl_header *h = &c->header;
	if (s->kind == PMURT_DTL_HEADER) {
		printf("%08zx header boot_tb %" PRIu64 " tb_freq %" PRIu64 " byte_order %s\n",
		       s->offset, h->boot_tb, h->tb_freq, h->byte_swapped ? "swapped" : "host");
		return;
	}
	if (s->kind == PMURT_DTL_STALE) {
		printf("%08zx stale %zu bytes\n", s->offset, s->len);
		return;
	}
	const struct pmurt_dtl_entry *e = &s->entry;
	char db[16], pb[16];
	printf("%08zx %s timebase %" PRIu64 " ns %" PRIu64 " ns_exact %" PRIu64
	       " dispatch_reason %s preempt_reason %s enqueue_to_dispatch_time %" PRIu32
	       " ready_to_enqueue_time %" PRIu32 " waiting_to_ready_time %" PRIu32
	       " processor_id %u fault_addr %#" PRIx64 " srr0 %#" PRIx64 " srr1 %#" PRIx64 "\n",
	       s->offset, s->kind == PMURT_DTL_SKIPPED ? "skipped" : "entry", e->timebase,
	       c->have_header ? pmurt_dtl_time_perf(e->timebase, h) : 0,
	       c->have_header ? pmurt_dtl_time_exact(e->timebase, h) : 0,
	       pmurt_dtl_reason_text(false, e->dispatch_reason, db),
	       pmurt_dtl_reason_text(true, e->preempt_reason, pb), e->enqueue_to_dispatch_time,
	       e->ready_to_enqueue_time, e->waiting_to_ready_time, e->processor_id, e->fault_addr,
	       e->srr0, e->srr1);
}

static const char *const kind_names[] = {
	[PMURT_DTL_ENTRY] = "entry", [PMURT_DTL_HEADER] = "header",
	[PMURT_DTL_SKIPPED] = "skipped", [PMURT_DTL_STALE] = "stale",
};

static void print_slot_json(const struct pmurt_dtl_cursor *c, const struct pmurt_dtl_slot *s,
			    const char *sep)
{
	printf("%s{\"offset\":%zu,\"kind\":\"%s\",\"length\":%zu", sep, s->offset, kind_names[s->kind],
	       s->len);
	const struct pmurt_dtl_header *h = &c->header;
	if (s->kind == PMURT_DTL_HEADER)
		printf(",\"boot_tb\":%" PRIu64 ",\"tb_freq\":%" PRIu64 ",\"byte_swapped\":%s", h->boot_tb,
		       h->tb_freq, h->byte_swapped ? "true" : "false");
	if (s->kind == PMURT_DTL_ENTRY || s->kind == PMURT_DTL_SKIPPED) {
		const struct pmurt_dtl_entry *e = &s->entry;
		char db[16], pb[16];
		printf(",\"timebase\":%" PRIu64, e->timebase);
		if (c->have_header)
			printf(",\"time_ns\":%" PRIu64 ",\"time_ns_exact\":%" PRIu64,
			       pmurt_dtl_time_perf(e->timebase, h), pmurt_dtl_time_exact(e->timebase, h));
		printf(",\"dispatch_reason\":%u,\"dispatch_reason_name\":\"%s\",\"preempt_reason\":%u,"
		       "\"preempt_reason_name\":\"%s\",\"enqueue_to_dispatch_time\":%" PRIu32
		       ",\"ready_to_enqueue_time\":%" PRIu32 ",\"waiting_to_ready_time\":%" PRIu32
		       ",\"processor_id\":%u,\"fault_addr\":%" PRIu64 ",\"srr0\":%" PRIu64
		       ",\"srr1\":%" PRIu64, e->dispatch_reason,
		       pmurt_dtl_reason_text(false, e->dispatch_reason, db), e->preempt_reason,
		       pmurt_dtl_reason_text(true, e->preempt_reason, pb), e->enqueue_to_dispatch_time,
		       e->ready_to_enqueue_time, e->waiting_to_ready_time, e->processor_id,
		       e->fault_addr, e->srr0, e->srr1);
	}
	fputs("}\n", stdout);
}

/* Calls fn for every slot of a raw buffer; errors (a truncated end, an
 * AUX position off the grid) are reported and decoding goes on. */
static int walk_raw(const struct dtl_opts *o, const struct mapped *m,
		    int (*fn)(void *ctx, const struct pmurt_dtl_cursor *c,
			      const struct pmurt_dtl_slot *s), void *ctx)
{
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot slot;
	struct pmurt_error err = {0};
	int status = EXIT_OK, rc;
	pmurt_dtl_cursor_init(&c, m->data, m->len, 0, o->aux_size, true);
	while ((rc = pmurt_dtl_next(&c, &slot, &err)) != 0) {
		if (rc < 0) {
			tool_error(o->t, "%s: %s", o->input, err.message);
			status = EXIT_USAGE;
			continue;
		}
		if ((rc = fn(ctx, &c, &slot)) != 0)
			return rc;
	}
	return status;
}

struct decode_ctx {
	bool json;
	const char *sep;
};

static int decode_slot(void *ctx, const struct pmurt_dtl_cursor *c, const struct pmurt_dtl_slot *s)
{
	struct decode_ctx *d = ctx;
	if (d->json) {
		print_slot_json(c, s, d->sep);
		d->sep = ",";
	} else {
		print_slot_text(c, s);
	}
	return 0;
}

static int dtl_decode(const struct dtl_opts *o)
{
	struct mapped m;
	int rc = map_file(o->t, o->input, &m);
	if (rc)
		return rc;
	if (is_perf_data(&m)) {
		tool_error(o->t, "%s: a perf.data file; dtl decode reads raw AUX dumps (dtl dump, "
			   "script and report read perf.data files)", o->input);
		rc = EXIT_USAGE;
	} else if (!is_raw_dtl(o, &m)) {
		rc = EXIT_USAGE;
	}
	if (rc) {
		unmap_file(&m);
		return rc;
	}
	struct decode_ctx d = {.json = o->json, .sep = ""};
	if (o->json)
		puts("{\"version\":1,\"slots\":[");
	rc = walk_raw(o, &m, decode_slot, &d);
	if (o->json)
		puts("]}");
	unmap_file(&m);
	return rc;
}

/* --- report -------------------------------------------------------------------- */
struct raw_report {
	struct dtl_stats *st;
	struct dtl_export *export;
};

static int report_slot(void *ctx, const struct pmurt_dtl_cursor *c, const struct pmurt_dtl_slot *s)
{
	struct raw_report *r = ctx;
	if (s->kind == PMURT_DTL_HEADER)
		dtl_stats_header(r->st, 0, s->offset, &c->header);
	if (dtl_stats_add(r->st, 0, s) < 0)
		return EXIT_INTERNAL;
	return dtl_export_entry(r->export, 0, c, s);
}

static int write_output(const struct dtl_opts *o, const char *path,
			int (*fn)(const struct dtl_stats *s, FILE *out), const struct dtl_stats *st)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		tool_error(o->t, "%s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	int rc = fn(st, f);
	if (fclose(f) != 0 || rc < 0) {
		tool_error(o->t, "%s: writing failed", path);
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

/* The CPUs whose first AUXTRACE record was seen (only that one may start
 * with the header, as perf's setup checks it). */
struct seen_cpus {
	int *cpu;
	size_t n;
};

static int first_of_cpu(struct seen_cpus *seen, int cpu, bool *first)
{
	for (size_t i = 0; i < seen->n; i++)
		if (seen->cpu[i] == cpu) {
			*first = false;
			return 0;
		}
	int *grown = realloc(seen->cpu, (seen->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	seen->cpu = grown;
	seen->cpu[seen->n++] = cpu;
	*first = true;
	return 0;
}

/* For the trace output: each timestamped sample of the other events. */
static int add_mark(void *ctx, const struct pmurt_perf_record *rec)
{
	struct dtl_stats *st = ctx;
	if (!(rec->has & PERF_SAMPLE_TIME) || rec->event < 0 || (size_t)rec->event >= st->nnames)
		return 0;
	struct dtl_mark mark = {.time = rec->time, .name = st->names[rec->event],
				.cpu = rec->has & PERF_SAMPLE_CPU ? (int)rec->cpu : -1};
	return dtl_stats_mark(st, &mark);
}

/* The events' names, kept by st for the marks; 0 or -ENOMEM. */
static int keep_names(struct dtl_stats *st, struct pmurt_perf_file *f)
{
	struct pmurt_perf_info info = {.sz = sizeof(info)};
	pmurt_perf_info(f, &info);
	st->names = calloc((size_t)info.nevents + 1, sizeof(*st->names));
	if (!st->names)
		return -ENOMEM;
	for (int e = 0; e < info.nevents; e++, st->nnames++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		char fallback[64] = "?";
		if (pmurt_perf_event(f, e, &ev) == 0 && !ev.name) /* no event description */
			snprintf(fallback, sizeof(fallback), "%u:%#llx", ev.type,
				 (unsigned long long)ev.config);
		st->names[e] = strdup(ev.name ? ev.name : fallback);
		if (!st->names[e])
			return -ENOMEM;
	}
	return 0;
}

/* Every vpa_dtl AUXTRACE payload, on its record's CPU; with --aux-size the
 * record's AUX offset places the wraps. */
static int report_perf_data(const struct dtl_opts *o, struct dtl_stats *st)
{
	struct dtl_perf d;
	struct pmurt_error err = {0};
	struct seen_cpus seen = {0};
	struct dtl_chunk chunk;
	int rc = dtl_perf_open(&d, o->input, &err), status = EXIT_OK;
	if (rc >= 0 && st->keep_timeline) {
		rc = keep_names(st, d.file);
		d.on_sample = add_mark;
		d.ctx = st;
	}
	while (rc >= 0 && status != EXIT_INTERNAL && (rc = dtl_perf_next(&d, &chunk, &err)) > 0) {
		bool first;
		if (first_of_cpu(&seen, chunk.cpu, &first) < 0) {
			rc = -ENOMEM;
			break;
		}
		struct pmurt_dtl_cursor c;
		struct pmurt_dtl_slot slot;
		pmurt_dtl_cursor_init(&c, chunk.data, chunk.size, chunk.aux_offset, o->aux_size, first);
		st->slot_base = chunk.file_offset + chunk.header_size;
		int n;
		while ((n = pmurt_dtl_next(&c, &slot, &err)) != 0) {
			if (n < 0) {
				tool_error(o->t, "%s: AUXTRACE record at %#" PRIx64 ": %s", o->input,
					   chunk.file_offset, err.message);
				status = EXIT_USAGE;
				continue;
			}
			if (slot.kind == PMURT_DTL_HEADER)
				dtl_stats_header(st, chunk.cpu, slot.offset, &c.header);
			if (dtl_stats_add(st, chunk.cpu, &slot) < 0) {
				rc = -ENOMEM;
				break;
			}
			if (dtl_export_entry(o->export, chunk.cpu, &c, &slot)) {
				status = EXIT_INTERNAL;
				break;
			}
		}
	}
	if (rc >= 0 && !d.is_dtl) {
		tool_error(o->t, "%s: no vpa_dtl data (no AUXTRACE_INFO of type 7)", o->input);
		status = EXIT_USAGE;
	}
	if (rc < 0) {
		tool_error(o->t, "%s", err.message[0] ? err.message : strerror(-rc));
		status = rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	free(seen.cpu);
	dtl_perf_close(&d);
	return status;
}

static uint64_t slots_read(const struct dtl_stats *st)
{
	uint64_t n = 0;
	for (size_t i = 0; i < st->ncpus; i++)
		n += st->cpus[i].dispatches + st->cpus[i].skipped;
	return n;
}

/* Reads the input into st: an exit code; *none when an error left nothing
 * to report (it was said; no report is printed).  A DTL recording with no
 * entries is reported as such. */
static int report_input(const struct dtl_opts *o, struct dtl_stats *st, bool *none)
{
	struct mapped m;
	int rc = map_file(o->t, o->input, &m);
	if (rc) {
		*none = true;
		return rc;
	}
	if (is_perf_data(&m))
		rc = report_perf_data(o, st);
	else if (!is_raw_dtl(o, &m))
		rc = EXIT_USAGE;
	else if (dtl_stats_reserve(st, 0, m.len / PMURT_DTL_SLOT_SIZE) < 0)
		rc = EXIT_INTERNAL;
	else
		rc = walk_raw(o, &m, report_slot, &(struct raw_report){st, o->export});
	unmap_file(&m);
	*none = rc == EXIT_USAGE && !slots_read(st);
	return rc;
}

/* --openmetrics instead of the text or JSON report. */
static int report_openmetrics(const struct dtl_opts *o, const struct dtl_stats *st)
{
	struct pmurt_error err = {0};
	int rc = dtl_report_openmetrics(st, stdout, &err);
	if (rc)
		tool_error(o->t, "--openmetrics: %s", err.message);
	return rc ? EXIT_INTERNAL : EXIT_OK;
}

static int dtl_report(struct dtl_opts *o)
{
	struct dtl_stats st = {.keep_timeline = o->html || o->perfetto};
	bool none;
	if (o->pprof) {
		int orc = dtl_export_open(&o->export, o->t, o->input, o->pprof);
		if (orc) {
			dtl_export_free(o->export);
			return orc;
		}
	}
	int rc = report_input(o, &st, &none);
	if (!none && !rc && o->export)
		rc = dtl_export_finish(o->export);
	dtl_export_free(o->export);
	o->export = NULL;
	if (none) {
		dtl_stats_free(&st);
		return rc;
	}
	if (rc == EXIT_INTERNAL || dtl_stats_finish(&st) < 0) {
		tool_error(o->t, "out of memory");
		dtl_stats_free(&st);
		return EXIT_INTERNAL;
	}
	dtl_warnings_print(&st.warn, o->t->prog, o->input, stderr);
	int out_rc = o->openmetrics ? report_openmetrics(o, &st)
		     : o->json ? dtl_report_json(&st, stdout) : dtl_report_text(&st, stdout);
	if (out_rc)
		rc = out_rc < 0 ? EXIT_INTERNAL : out_rc;
	if (o->html && !rc)
		rc = write_output(o, o->html, dtl_report_html, &st);
	if (o->perfetto && !rc)
		rc = write_output(o, o->perfetto, dtl_report_perfetto, &st);
	dtl_stats_free(&st);
	return rc;
}

/* --- dump -------------------------------------------------------------------------- */
static int dtl_dump(const struct dtl_opts *o)
{
	struct dtl_perf d;
	struct pmurt_error err = {0};
	struct dtl_chunk chunk;
	int rc = dtl_perf_open(&d, o->input, &err);
	while (rc >= 0 && (rc = dtl_perf_next(&d, &chunk, &err)) > 0)
		dtl_perf_dump(&d, &chunk, stdout);
	bool is_dtl = d.is_dtl;
	dtl_perf_close(&d);
	if (rc < 0) {
		tool_error(o->t, "%s", err.message[0] ? err.message : strerror(-rc));
		return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	if (!is_dtl) {
		tool_error(o->t, "%s: no vpa_dtl data (no AUXTRACE_INFO of type 7)", o->input);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --- command line ------------------------------------------------------------------ */
enum { OPT_HTML = 256, OPT_PERFETTO, OPT_AUX_SIZE, OPT_PPROF, OPT_OPENMETRICS };

static void dtl_usage(FILE *out)
{
	fputs("Usage: pmutool dtl record [-a | -C CPUS] [-e vpa_dtl/dtl_all/] [-c NS] [-o FILE]\n"
	      "                          [-- CMD] (see pmutool dtl record --help)\n"
	      "       pmutool dtl decode RAW [--json] [--aux-size N]\n"
	      "       pmutool dtl dump [-i FILE]\n"
	      "       pmutool dtl script [-i FILE]\n"
	      "       pmutool dtl report [-i] FILE [--json | --openmetrics] [--html FILE]\n"
	      "                          [--perfetto FILE] [--pprof FILE] [--aux-size N]\n"
	      "The vpa_dtl PMU's Dispatch Trace Log: RAW holds AUX bytes as the driver\n"
	      "wrote them (the header slot first).  --aux-size N: RAW was drained from\n"
	      "an AUX area of N bytes, so each wrap's stale tail is split off.  FILE is\n"
	      "a perf.data file (default for dump and script: perf.data) or, for\n"
	      "report, RAW.  report --pprof FILE: the steal by preempted function (srr0)\n"
	      "and reason as a gzipped pprof profile; --openmetrics: the figures as\n"
	      "OpenMetrics text (steal, reasons, wait-time histograms per CPU).\n"
	      "See pmutool(1).\n", out);
}

static int parse_size(const struct tool *t, const char *s, uint64_t *v)
{
	if (!tool_read_u64(s, v) || *v < 128 || (*v & (*v - 1))) {
		tool_error(t, "--aux-size '%s': not a power of two of at least 128", s);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_dtl_options(struct dtl_opts *o, int argc, char **argv, bool *done)
{
	static const struct option longopts[] = {
		{"input", required_argument, NULL, 'i'},
		{"json", no_argument, NULL, 'j'},
		{"html", required_argument, NULL, OPT_HTML},
		{"perfetto", required_argument, NULL, OPT_PERFETTO},
		{"aux-size", required_argument, NULL, OPT_AUX_SIZE},
		{"pprof", required_argument, NULL, OPT_PPROF},
		{"openmetrics", no_argument, NULL, OPT_OPENMETRICS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 0; /* glibc: re-initialise (pmutool's own pass ran in order mode) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case 'j': o->json = true; break;
		case OPT_HTML: o->html = optarg; break;
		case OPT_PERFETTO: o->perfetto = optarg; break;
		case OPT_PPROF: o->pprof = optarg; break;
		case OPT_OPENMETRICS: o->openmetrics = true; break;
		case OPT_AUX_SIZE:
			if (parse_size(o->t, optarg, &o->aux_size))
				return EXIT_USAGE;
			break;
		case 'h': dtl_usage(stdout); *done = true; return EXIT_OK;
		case ':':
			tool_error(o->t, "option '%s' needs an argument", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			tool_error(o->t, "unknown option '%s' (see %s dtl --help)", argv[optind - 1],
				   o->t->prog);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

int cmd_dtl(const struct tool *t, int argc, char **argv)
{
	struct dtl_opts o = {.t = t};
	bool done = false;
	if (argc > 1 && strcmp(argv[1], "record") == 0) /* options of its own */
		return dtl_record(t, argc - 1, argv + 1);
	int rc = parse_dtl_options(&o, argc, argv, &done);
	if (rc || done)
		return rc;
	char **args = argv + optind;
	int nargs = argc - optind;
	if (nargs < 1) {
		tool_error(t, "dtl: no subcommand (record, decode, dump, script or report; see %s "
			   "dtl --help)", t->prog);
		return EXIT_USAGE;
	}
	const char *sub = args[0];
	if (strcmp(sub, "decode") && strcmp(sub, "dump") && strcmp(sub, "script") &&
	    strcmp(sub, "report")) {
		tool_error(t, "dtl: unknown subcommand '%s' (record, decode, dump, script or report; "
			   "see %s dtl --help)", sub, t->prog);
		return EXIT_USAGE;
	}
	bool on_perf_data = strcmp(sub, "dump") == 0 || strcmp(sub, "script") == 0;
	if (on_perf_data && nargs == 1 && !o.input)
		o.input = "perf.data";
	if (nargs == 2 && !o.input)
		o.input = args[1];
	else if (nargs != 1 || !o.input) {
		tool_error(t, "dtl %s: one input file, as -i FILE or an operand", sub);
		return EXIT_USAGE;
	}
	if (strcmp(sub, "decode") == 0) {
		if (o.html || o.perfetto) {
			tool_error(t, "dtl decode: --html and --perfetto are report options");
			return EXIT_USAGE;
		}
		return dtl_decode(&o);
	}
	if (strcmp(sub, "report") != 0 && (o.pprof || o.openmetrics)) {
		tool_error(t, "dtl %s: --pprof and --openmetrics are report options", sub);
		return EXIT_USAGE;
	}
	if (o.json && o.openmetrics) {
		tool_error(t, "dtl report: --json or --openmetrics, not both");
		return EXIT_USAGE;
	}
	if (strcmp(sub, "report") == 0)
		return dtl_report(&o);
	if (on_perf_data && (o.html || o.perfetto || o.json || o.aux_size)) {
		tool_error(t, "dtl %s: prints what perf %s prints, and takes no option but -i", sub,
			   strcmp(sub, "dump") == 0 ? "report -D" : "script");
		return EXIT_USAGE;
	}
	if (strcmp(sub, "dump") == 0)
		return dtl_dump(&o);
	return dtl_script(t, o.input);
}

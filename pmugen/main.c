/*
 * main.c - the pmugen command line: load and check a YAML PMU description
 * once, then write one or several outputs (DTS by default; -f dts,dtb,c,json
 * writes all four).  Every output goes to a temporary file beside its target;
 * only when all of them are complete are they renamed into place, so a failed
 * run leaves no partial output (see write_outputs).  Options that would
 * change nothing in a run are refused (check_combination).
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "pmu_checks.h"
#include "pmu_load.h"

enum format { FMT_DTS, FMT_DTB, FMT_C, FMT_JSON, FMT_COUNT };

static const char *const format_names[FMT_COUNT] = {"dts", "dtb", "c", "json"};

/* The formats --all-events changes: the device tree holds the firmware set
 * unless it is given; C tables and perf JSON always hold every event. */
#define TREE_FORMATS ((1u << FMT_DTS) | (1u << FMT_DTB))

struct cli {
	unsigned formats;              /* bit per enum format */
	bool format_given;             /* -f was on the command line */
	const char *output;
	const char *out_dir;
	const char *input;
	bool check_only;
	bool all_events;
	bool quiet;
	struct pmu_diag diag;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pmugen [OPTION]... DESCRIPTION.yaml\n"
		"       pmugen import-perf-json DIR [-o FILE]\n"
		"Compile a YAML PMU description into device-tree source, a DTB, C tables\n"
		"and/or perf's pmu-events JSON, loading and checking it once.\n\n"
		"  -f, --format=LIST    one or more of dts (default), dtb, c, json,\n"
		"                       separated by commas: -f dts,dtb,c,json\n"
		"  -o, --output=FILE    write FILE ('-' for standard output; one format\n"
		"                       only); default: the input's base name with the\n"
		"                       format's suffix, in the current directory\n"
		"      --out-dir=DIR    write each output into DIR (an existing directory)\n"
		"                       under the default name\n"
		"      --all-events     dts, dtb: every event, not only the firmware set\n"
		"                       (c and json always hold every event)\n"
		"      --check          only load and check the description (with\n"
		"                       --all-events, check the tree that would hold them)\n"
		"  -W NAME, -W no-NAME  make check NAME a warning, or turn it off\n"
		"  -E NAME, -E no-NAME  make check NAME an error, or turn it off\n"
		"  -q, --quiet          do not print where the outputs went (--check: do\n"
		"                       not print the summary)\n"
		"  -h, --help           show this help\n"
		"  -V, --version        show the version\n\n"
		"Checks: ");
	for (int i = 0; i < PMU_CHK_COUNT; i++)
		fprintf(out, "%s%s", i ? ", " : "", pmu_check_name(i));
	fprintf(out, "\n\nSee pmugen(1) and schema/description-format.md.\n");
}

static int set_check_level(struct cli *c, const char *arg, enum pmu_severity on)
{
	bool off = strncmp(arg, "no-", 3) == 0;
	const char *name = off ? arg + 3 : arg;
	int id = pmu_check_lookup(name);
	if (id < 0) {
		fprintf(stderr, "pmugen: error: unknown check '%s' (see pmugen --help)\n", name);
		return -EINVAL;
	}
	c->diag.level[id] = off ? PMU_SEV_OFF : on;
	return 0;
}

static int format_lookup(const char *name, size_t len)
{
	for (int i = 0; i < FMT_COUNT; i++)
		if (strlen(format_names[i]) == len && strncmp(name, format_names[i], len) == 0)
			return i;
	return -1;
}

/* "dts,dtb,c,json": each format once; a later -f replaces an earlier one. */
static int parse_formats(struct cli *c, const char *arg)
{
	unsigned set = 0;
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");
		int f = format_lookup(p, len);
		if (f < 0) {
			fprintf(stderr, "pmugen: error: unknown format '%.*s' (dts, dtb, c or json)\n",
				(int)len, p);
			return -EINVAL;
		}
		if (set & (1u << f)) {
			fprintf(stderr, "pmugen: error: format '%s' given twice in '%s'\n",
				format_names[f], arg);
			return -EINVAL;
		}
		set |= 1u << f;
		p += len;
		if (!*p)
			break;
	}
	c->formats = set;
	c->format_given = true;
	return 0;
}

static int count_formats(unsigned formats)
{
	int n = 0;
	for (int f = 0; f < FMT_COUNT; f++)
		n += (formats >> f) & 1;
	return n;
}

static int refuse(const char *why)
{
	fprintf(stderr, "pmugen: error: %s\n", why);
	return -EINVAL;
}

/* Options that would change nothing in this run are refused, not ignored. */
static int check_combination(const struct cli *c)
{
	if (c->output && c->out_dir)
		return refuse("-o and --out-dir both name where to write; give one");
	if (c->check_only && (c->format_given || c->output || c->out_dir))
		return refuse("--check writes nothing; drop -f, -o and --out-dir");
	if (c->output && count_formats(c->formats) > 1)
		return refuse("-o names one file but -f gives several formats; "
			      "use --out-dir DIR");
	if (c->all_events && !c->check_only && !(c->formats & TREE_FORMATS))
		return refuse("--all-events selects the device tree's events (dts, dtb); "
			      "c and json always hold every event");
	if (c->out_dir) {
		struct stat st;
		if (stat(c->out_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "pmugen: error: --out-dir %s: not an existing directory\n",
				c->out_dir);
			return -EINVAL;
		}
	}
	return 0;
}

enum { OPT_ALL_EVENTS = 256, OPT_CHECK, OPT_OUT_DIR };

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"out-dir", required_argument, NULL, OPT_OUT_DIR},
		{"all-events", no_argument, NULL, OPT_ALL_EVENTS},
		{"check", no_argument, NULL, OPT_CHECK},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0}};
	int opt;
	while ((opt = getopt_long(argc, argv, "f:o:W:E:qhV", longopts, NULL)) != -1) {
		int rc = 0;
		switch (opt) {
		case 'f': rc = parse_formats(c, optarg); break;
		case 'o': c->output = optarg; break;
		case OPT_OUT_DIR: c->out_dir = optarg; break;
		case 'W': rc = set_check_level(c, optarg, PMU_SEV_WARNING); break;
		case 'E': rc = set_check_level(c, optarg, PMU_SEV_ERROR); break;
		case 'q': c->quiet = true; break;
		case OPT_ALL_EVENTS: c->all_events = true; break;
		case OPT_CHECK: c->check_only = true; break;
		case 'h': usage(stdout); return 1;
		case 'V': printf("pmugen %s\n", PMUGEN_VERSION); return 1;
		default: usage(stderr); return -EINVAL;
		}
		if (rc)
			return rc;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmugen: error: expected one description file\n");
		usage(stderr);
		return -EINVAL;
	}
	c->input = argv[optind];
	return check_combination(c);
}

/* Where format f goes: -o, or DIR/ (--out-dir, else the current directory)
 * and the input's base name with the format's suffix. */
static void output_path(const struct cli *c, enum format f, char *buf, size_t len)
{
	if (c->output) {
		snprintf(buf, len, "%s", c->output);
		return;
	}
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", c->input);
	char *base = basename(copy);
	char *dot = strrchr(base, '.');
	if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
		*dot = '\0';
	if (c->out_dir)
		snprintf(buf, len, "%s/%s.%s", c->out_dir, base, format_names[f]);
	else
		snprintf(buf, len, "%s.%s", base, format_names[f]);
}

typedef int (*emitter)(const struct pmu_model *, const struct emit_options *, FILE *,
		       struct pmurt_error *);

static emitter emitter_for(enum format f)
{
	static const emitter table[FMT_COUNT] = {emit_dts, emit_dtb, emit_c, emit_json};
	return table[f];
}

/* Something that writes one whole output to a stream. */
struct writer {
	int (*write)(const struct writer *w, FILE *out, struct pmurt_error *err);
	emitter emit;                  /* for write_model */
	const struct pmu_model *model;
	const struct emit_options *options;
	const char *dir;               /* for write_import */
};

static int write_model(const struct writer *w, FILE *out, struct pmurt_error *err)
{
	return w->emit(w->model, w->options, out, err);
}

static int write_import(const struct writer *w, FILE *out, struct pmurt_error *err)
{
	return import_perf_json(w->dir, out, err);
}

/* One output on its way: the target and the temporary file beside it. */
struct staged {
	char path[4096];
	char tmp[4200];
};

/* Write the whole output to a new temporary file next to s->path; on failure
 * the temporary file is removed and nothing else is touched. */
static int stage(struct staged *s, const struct writer *w, struct pmurt_error *err)
{
	snprintf(s->tmp, sizeof(s->tmp), "%s.tmpXXXXXX", s->path);
	int fd = mkstemp(s->tmp);
	if (fd < 0) {
		int rc = -errno;
		pmurt_set_error(err, rc, "%s: cannot create temporary file: %s", s->path,
				strerror(-rc));
		return rc;
	}
	/* mkstemp creates the file 0600; give it the mode a plain open would */
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		close(fd);
		unlink(s->tmp);
		pmurt_set_error(err, -EIO, "%s: cannot open temporary file", s->path);
		return -EIO;
	}
	/* outputs are hundreds of KiB: fewer, larger writes, through a buffer
	 * from the heap, whose pages the load freed (static, it was 16 fresh
	 * ones) */
	enum { OUTPUT_BUFFER = 64 * 1024 };
	char *buffer = malloc(OUTPUT_BUFFER);
	if (buffer)
		setvbuf(f, buffer, _IOFBF, OUTPUT_BUFFER);
	int rc = w->write(w, f, err);
	if (fflush(f) || ferror(f))
		rc = rc ? rc : -EIO;
	if (fclose(f))
		rc = rc ? rc : -EIO;
	free(buffer);
	if (rc) {
		unlink(s->tmp);
		if (!err->message[0])
			pmurt_set_error(err, rc, "%s: %s", s->path, strerror(-rc));
	}
	return rc;
}

static int commit(const struct staged *s, struct pmurt_error *err)
{
	if (rename(s->tmp, s->path) == 0)
		return 0;
	int rc = -errno;
	unlink(s->tmp);
	pmurt_set_error(err, rc, "%s: %s", s->path, strerror(-rc));
	return rc;
}

/* One output, atomically ('-': standard output). */
static int write_atomically(const char *path, const struct writer *w,
			    struct pmurt_error *err)
{
	if (strcmp(path, "-") == 0) {
		int rc = w->write(w, stdout, err);
		return rc ? rc : (fflush(stdout) ? -EIO : 0);
	}
	struct staged s;
	snprintf(s.path, sizeof(s.path), "%s", path);
	int rc = stage(&s, w, err);
	return rc ? rc : commit(&s, err);
}

/* Emitter and importer messages may already read "file:line:col: error: ..." */
static void report_write_error(const struct pmurt_error *err, int rc)
{
	const char *msg = err->message[0] ? err->message : strerror(-rc);
	if (strstr(msg, ": error: "))
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "pmugen: error: %s\n", msg);
}

/* How many events format f writes (see the emitters' comments). */
static int events_written(const struct pmu_model *m, enum format f, bool all_events)
{
	if (f == FMT_C || ((1u << f) & TREE_FORMATS && all_events))
		return m->nevents;
	int firmware = 0;
	for (int i = 0; i < m->nevents; i++)
		firmware += m->events[i].firmware;
	return f == FMT_JSON ? m->nevents - firmware : firmware;
}

static void discard(const struct staged *s, int n)
{
	for (int i = 0; i < n; i++)
		unlink(s[i].tmp);
}

/* Every requested format into its temporary file first; only when all are
 * complete, the renames (in format order).  A failed output leaves every
 * target as it was; a failed rename (rare: the target turned into a
 * directory, the disk went read-only) leaves the outputs renamed before it,
 * each complete, and the other targets as they were. */
static int write_outputs(const struct cli *c, const struct pmu_model *m,
			 const struct emit_options *o, struct pmurt_error *err)
{
	struct staged staged[FMT_COUNT];
	enum format which[FMT_COUNT];
	int n = 0, rc = 0;
	for (int f = 0; f < FMT_COUNT && !rc; f++) {
		if (!(c->formats & (1u << f)))
			continue;
		struct writer w = {write_model, emitter_for(f), m, o, NULL};
		output_path(c, f, staged[n].path, sizeof(staged[n].path));
		if (strcmp(staged[n].path, "-") == 0)
			return write_atomically("-", &w, err); /* one format only */
		rc = stage(&staged[n], &w, err);
		if (rc)
			discard(staged, n);
		else
			which[n++] = f;
	}
	for (int i = 0; i < n && !rc; i++) {
		rc = commit(&staged[i], err);
		if (rc)
			discard(staged + i + 1, n - i - 1);
		else if (!c->quiet)
			fprintf(stderr, "pmugen: wrote %s (%s, %d events)\n", staged[i].path,
				format_names[which[i]], events_written(m, which[i], c->all_events));
	}
	return rc;
}

static int run_generate(struct cli *c)
{
	struct pmu_model m;
	int rc = pmu_load_yaml_file(&m, c->input, &c->diag);
	if (rc)
		return 1;
	rc = pmu_check_model(&m, &c->diag, c->all_events);
	if (rc || c->check_only) {
		if (!rc && !c->quiet)
			printf("pmugen: %s: %d events, %d fields, %d constraints: ok\n",
			       c->input, m.nevents, m.nfields, m.nconstraints);
		pmu_model_free(&m);
		return rc ? 1 : 0;
	}
	/* outputs name their input without its directory, so they do not depend
	 * on where pmugen was run from */
	char input_copy[4096];
	snprintf(input_copy, sizeof(input_copy), "%s", c->input);
	struct emit_options o = {c->all_events, basename(input_copy)};
	struct pmurt_error err = {0};
	rc = write_outputs(c, &m, &o, &err);
	if (rc)
		report_write_error(&err, rc);
	pmu_model_free(&m);
	return rc ? 1 : 0;
}

static void import_usage(FILE *out)
{
	fputs("Usage: pmugen import-perf-json DIR [-o FILE]\n"
	      "perf's pmu-events JSON directory (tools/perf/pmu-events/arch/powerpc/CPU/)\n"
	      "as a YAML events file: every event of DIR's *.json files in file-name\n"
	      "order, with its name, code, category (the file's stem) and description;\n"
	      "then the metrics (metrics.json, nest_metrics.json), perf's strings kept.\n"
	      "Written to FILE (replaced only when complete) or, without\n"
	      "-o, to standard output, only once the whole directory is read.\n\n"
	      "  -o FILE              the output file ('-': standard output, the default)\n"
	      "  -h, --help           show this help\n"
	      "See pmugen(1).\n", out);
}

/* Without -o: the YAML into memory first, so that an error (a bad file in
 * DIR) leaves standard output empty rather than holding a partial header. */
static int import_to_stdout(const struct writer *w, struct pmurt_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem) {
		pmurt_set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	int rc = w->write(w, mem, err);
	if (fclose(mem) != 0 && !rc) {
		rc = -ENOMEM;
		pmurt_set_error(err, rc, "out of memory");
	}
	if (!rc && (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)) {
		rc = -EIO;
		pmurt_set_error(err, rc, "writing standard output failed");
	}
	free(buf);
	return rc;
}

static int run_import(int argc, char **argv)
{
	const char *out = "-", *dir = NULL;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			import_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (!dir && argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "pmugen: error: usage: pmugen import-perf-json DIR [-o FILE] "
				"(see pmugen import-perf-json --help)\n");
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "pmugen: error: usage: pmugen import-perf-json DIR [-o FILE] "
			"(see pmugen import-perf-json --help)\n");
		return 2;
	}
	struct pmurt_error err = {0};
	struct writer w = {write_import, NULL, NULL, NULL, dir};
	int rc = strcmp(out, "-") == 0 ? import_to_stdout(&w, &err)
				       : write_atomically(out, &w, &err);
	if (rc)
		report_write_error(&err, rc);
	return rc ? 1 : 0;
}

/*
 * pmugen lives for a few milliseconds and its cost as a process is mostly
 * the memory it touches for the first time (a page fault and a zeroed page
 * each, about 15 us in a KVM guest, against a few us of work on its
 * contents).  glibc serves blocks of 128 KiB and more (the documents, the
 * outputs being built) with mmap of fresh pages and unmaps them when freed;
 * kept in the heap instead, each stage reuses the pages the last one freed.
 * 618 page faults became 519 for POWER10's four outputs (glibc's
 * M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, mallopt(3); blocks over 64 MiB are
 * still mapped and unmapped on their own).
 */
static void keep_freed_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int main(int argc, char **argv)
{
	keep_freed_memory();
	if (argc > 1 && strcmp(argv[1], "import-perf-json") == 0)
		return run_import(argc, argv);
	struct cli c = {.formats = 1u << FMT_DTS};
	pmu_diag_init(&c.diag, stderr);
	c.diag.program = "pmugen";
	int rc = parse_args(&c, argc, argv);
	if (rc)
		return rc > 0 ? 0 : 2;
	return run_generate(&c);
}

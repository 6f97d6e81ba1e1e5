/*
 * main.c - the pmugen command line: load and check a YAML PMU description,
 * then write one output (DTS by default) atomically: into a temporary file
 * beside the target, renamed into place only when complete.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "pmu_checks.h"
#include "pmu_load.h"

#define PMUGEN_VERSION "0.1.0"

enum format { FMT_DTS, FMT_DTB, FMT_C, FMT_JSON };

static const char *const format_names[] = {"dts", "dtb", "c", "json"};

struct cli {
	enum format format;
	const char *output;
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
		"or perf's pmu-events JSON.\n\n"
		"  -f, --format=FMT     dts (default), dtb, c or json\n"
		"  -o, --output=FILE    write FILE ('-' for standard output); default:\n"
		"                       the input's base name with the format's suffix\n"
		"      --all-events     every event, not only the firmware set\n"
		"      --check          only load and check the description\n"
		"  -W NAME, -W no-NAME  make check NAME a warning, or turn it off\n"
		"  -E NAME, -E no-NAME  make check NAME an error, or turn it off\n"
		"  -q, --quiet          do not print where the output went\n"
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

static int parse_format(struct cli *c, const char *arg)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(arg, format_names[i]) == 0) {
			c->format = i;
			return 0;
		}
	fprintf(stderr, "pmugen: error: unknown format '%s' (dts, dtb, c or json)\n", arg);
	return -EINVAL;
}

enum { OPT_ALL_EVENTS = 256, OPT_CHECK };

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
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
		case 'f': rc = parse_format(c, optarg); break;
		case 'o': c->output = optarg; break;
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
	return 0;
}

static void default_output(const struct cli *c, char *buf, size_t len)
{
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", c->input);
	char *base = basename(copy);
	char *dot = strrchr(base, '.');
	if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
		*dot = '\0';
	snprintf(buf, len, "%s.%s", base, format_names[c->format]);
}

typedef int (*emitter)(const struct pmu_model *, const struct emit_options *, FILE *,
		       struct pmu_error *);

static emitter emitter_for(enum format f)
{
	static const emitter table[] = {emit_dts, emit_dtb, emit_c, emit_json};
	return table[f];
}

/* Something that writes one whole output to a stream. */
struct writer {
	int (*write)(const struct writer *w, FILE *out, struct pmu_error *err);
	emitter emit;                  /* for write_model */
	const struct pmu_model *model;
	const struct emit_options *options;
	const char *dir;               /* for write_import */
};

static int write_model(const struct writer *w, FILE *out, struct pmu_error *err)
{
	return w->emit(w->model, w->options, out, err);
}

static int write_import(const struct writer *w, FILE *out, struct pmu_error *err)
{
	return import_perf_json(w->dir, out, err);
}

/* Write the whole output to a temporary file next to path, then rename it,
 * so that a failed run never leaves a partial file ('-': standard output). */
static int write_atomically(const char *path, const struct writer *w,
			    struct pmu_error *err)
{
	if (strcmp(path, "-") == 0) {
		int rc = w->write(w, stdout, err);
		return rc ? rc : (fflush(stdout) ? -EIO : 0);
	}
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int rc = -errno;
		pmu_error_set(err, rc, "%s: cannot create temporary file: %s", path,
			      strerror(-rc));
		return rc;
	}
	/* mkstemp creates the file 0600; give it the mode a plain open would */
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		close(fd);
		unlink(tmp);
		return -EIO;
	}
	int rc = w->write(w, f, err);
	if (fflush(f) || ferror(f))
		rc = rc ? rc : -EIO;
	if (fclose(f))
		rc = rc ? rc : -EIO;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		pmu_error_set(err, rc, "%s: %s", path, strerror(-rc));
	}
	return rc;
}

/* Emitter and importer messages may already read "file:line:col: error: ..." */
static void report_write_error(const struct pmu_error *err, int rc)
{
	const char *msg = err->message[0] ? err->message : strerror(-rc);
	if (strstr(msg, ": error: "))
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "pmugen: error: %s\n", msg);
}

static int count_firmware(const struct pmu_model *m)
{
	int n = 0;
	for (int i = 0; i < m->nevents; i++)
		n += m->events[i].firmware;
	return n;
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
	char path[4096];
	if (c->output)
		snprintf(path, sizeof(path), "%s", c->output);
	else
		default_output(c, path, sizeof(path));
	/* outputs name their input without its directory, so they do not depend
	 * on where pmugen was run from */
	char input_copy[4096];
	snprintf(input_copy, sizeof(input_copy), "%s", c->input);
	struct emit_options o = {c->all_events, basename(input_copy)};
	struct pmu_error err = {0};
	struct writer w = {write_model, emitter_for(c->format), &m, &o, NULL};
	rc = write_atomically(path, &w, &err);
	if (rc)
		report_write_error(&err, rc);
	else if (!c->quiet && strcmp(path, "-") != 0)
		fprintf(stderr, "pmugen: wrote %s (%s, %d events)\n", path,
			format_names[c->format], c->all_events ? m.nevents : count_firmware(&m));
	pmu_model_free(&m);
	return rc ? 1 : 0;
}

static int run_import(int argc, char **argv)
{
	const char *out = "-", *dir = NULL;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (!dir && argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "pmugen: error: usage: pmugen import-perf-json DIR [-o FILE]\n");
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "pmugen: error: usage: pmugen import-perf-json DIR [-o FILE]\n");
		return 2;
	}
	struct pmu_error err = {0};
	struct writer w = {write_import, NULL, NULL, NULL, dir};
	int rc = write_atomically(out, &w, &err);
	if (rc)
		report_write_error(&err, rc);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "import-perf-json") == 0)
		return run_import(argc, argv);
	struct cli c = {.format = FMT_DTS};
	pmu_diag_init(&c.diag, stderr);
	c.diag.program = "pmugen";
	int rc = parse_args(&c, argc, argv);
	if (rc)
		return rc > 0 ? 0 : 2;
	return run_generate(&c);
}

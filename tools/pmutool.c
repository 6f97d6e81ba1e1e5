/*
 * pmutool.c - the pmutool command line: options, loading the description
 * (--pmu), and dispatch to the list, describe and check subcommands.
 * Everything it knows about the PMU comes from libpmurt.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmutool.h"

#ifndef PMUTOOL_VERSION
#define PMUTOOL_VERSION "0.0.0"
#endif

enum { OPT_HV_MODE = 256, OPT_NO_PER_TASK, OPT_PER_TASK, OPT_NO_LPAR };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pmutool [OPTION]... list [GLOB]\n"
		"       pmutool [OPTION]... describe EVENT\n"
		"       pmutool [OPTION]... check EVENT[,EVENT]...\n"
		"       pmutool [OPTION]... check --batch FILE\n"
		"Inspect a PMU description: its events, what an event code means, and\n"
		"whether a group of events fits the PMU (counters and MMCR values).\n\n"
		"  -p, --pmu=SPEC       the description: a built-in name (default power10),\n"
		"                       a .dtb file, a device-tree directory or a YAML file\n"
		"  -j, --json           JSON output (list, check)\n"
		"  -b, --batch=FILE     check: one JSON group per line of FILE ('-': stdin),\n"
		"                       one JSON result per line\n"
		"      --hv-mode        check: the kernel runs in hypervisor mode\n"
		"      --no-per-task    check: events not attached to a task (CPU-wide)\n"
		"      --no-lpar        check: not under a hypervisor (exclude_hv ignored)\n"
		"  -h, --help           show this help\n"
		"  -V, --version        show the version\n\n"
		"Exit status: 0 done (check: the group fits), 1 the group does not fit\n"
		"(list: nothing matches), 2 usage or input error, 3 the description could\n"
		"not be loaded, 4 internal error.  See pmutool(1).\n");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Options may come before or after the subcommand (getopt permutes). */
static int parse_options(struct tool *t, int argc, char **argv, bool *done)
{
	static const struct option longopts[] = {
		{"pmu", required_argument, NULL, 'p'},
		{"json", no_argument, NULL, 'j'},
		{"batch", required_argument, NULL, 'b'},
		{"hv-mode", no_argument, NULL, OPT_HV_MODE},
		{"no-per-task", no_argument, NULL, OPT_NO_PER_TASK},
		{"per-task", no_argument, NULL, OPT_PER_TASK},
		{"no-lpar", no_argument, NULL, OPT_NO_LPAR},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:jb:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': t->pmu_spec = optarg; break;
		case 'j': t->json = true; break;
		case 'b': t->batch = optarg; break;
		case OPT_HV_MODE: t->check.hv_mode = true; break;
		case OPT_NO_PER_TASK: t->check.per_task = false; break;
		case OPT_PER_TASK: t->check.per_task = true; break;
		case OPT_NO_LPAR: t->check.lpar = false; break;
		case 'h': usage(stdout); *done = true; return EXIT_OK;
		case 'V':
			printf("pmutool %s (libpmurt %d.%d.%d)\n", PMUTOOL_VERSION,
			       PMURT_VERSION_MAJOR, PMURT_VERSION_MINOR, PMURT_VERSION_PATCH);
			*done = true;
			return EXIT_OK;
		case ':':
			tool_error(t, "option '%s' needs an argument", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			tool_error(t, "unknown option '%s' (see %s --help)", argv[optind - 1], t->prog);
			return EXIT_USAGE;
		}
	}
	t->args = argv + optind;
	t->nargs = argc - optind;
	return EXIT_OK;
}

static int open_pmu(struct tool *t)
{
	struct pmurt_error err = {0};
	int rc = pmurt_pmu_open(&t->pmu, t->pmu_spec, NULL, &err);
	if (rc < 0) {
		if (err.message[0])
			tool_error(t, "cannot load the PMU description: %s", err.message);
		else
			tool_error(t, "cannot load the PMU description '%s': %s", t->pmu_spec,
				   strerror(-rc));
		return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_NOPMU;
	}
	return EXIT_OK;
}

struct subcommand {
	const char *name;
	int (*run)(struct tool *t);
};

static const struct subcommand subcommands[] = {
	{"list", cmd_list},
	{"describe", cmd_describe},
	{"check", cmd_check},
};

static int dispatch(struct tool *t)
{
	if (t->nargs < 1) {
		tool_error(t, "no subcommand (list, describe or check; see %s --help)", t->prog);
		return EXIT_USAGE;
	}
	const char *name = t->args[0];
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(name, subcommands[i].name) != 0)
			continue;
		t->args++;
		t->nargs--;
		int rc = open_pmu(t);
		return rc ? rc : subcommands[i].run(t);
	}
	tool_error(t, "unknown subcommand '%s' (list, describe or check)", name);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct tool t = {
		.prog = base_name(argc > 0 ? argv[0] : "pmutool"),
		.pmu_spec = "power10",
		.check = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true, .lpar = true),
	};
	bool done = false;
	int rc = parse_options(&t, argc, argv, &done);
	if (rc || done)
		return rc;
	rc = dispatch(&t);
	pmurt_pmu_close(t.pmu);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_error(&t, "writing the output failed");
		return EXIT_INTERNAL;
	}
	return rc;
}

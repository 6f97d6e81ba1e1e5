/*
 * describe_opts.c - the options of pmutool list, describe and check: their
 * getopt table and what each sets in struct describe_opts.
 */
#include "describe_opts.h"

const char describe_shortopts[] = "jb:";

const struct option describe_longopts[] = {
	{"json", no_argument, NULL, 'j'},
	{"batch", required_argument, NULL, 'b'},
	{"hv-mode", no_argument, NULL, DESCRIBE_OPT_HV_MODE},
	{"no-lpar", no_argument, NULL, DESCRIBE_OPT_NO_LPAR},
	{"per-task", no_argument, NULL, DESCRIBE_OPT_PER_TASK},
	{"no-per-task", no_argument, NULL, DESCRIBE_OPT_NO_PER_TASK},
	{NULL, 0, NULL, 0},
};

/* A check option: its value, and the first such option given (for refusing
 * it where it would change nothing). */
static int set_flag(bool *flag, bool value, const char **first, const char *opt)
{
	*flag = value;
	if (!*first)
		*first = opt;
	return EXIT_OK;
}

int describe_option(struct describe_opts *opts, int c, const char *arg)
{
	switch (c) {
	case 'j': opts->json = true; return EXIT_OK;
	case 'b': opts->batch = arg; return EXIT_OK;
	case DESCRIBE_OPT_HV_MODE:
		return set_flag(&opts->check.hv_mode, true, &opts->kernel_opt, "--hv-mode");
	case DESCRIBE_OPT_NO_LPAR:
		return set_flag(&opts->check.lpar, false, &opts->kernel_opt, "--no-lpar");
	case DESCRIBE_OPT_PER_TASK:
		return set_flag(&opts->check.per_task, true, &opts->task_opt, "--per-task");
	case DESCRIBE_OPT_NO_PER_TASK:
		return set_flag(&opts->check.per_task, false, &opts->task_opt, "--no-per-task");
	default: return -1;
	}
}

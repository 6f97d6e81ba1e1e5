/*
 * fuzz_batch.c - libFuzzer target for `pmutool check --batch`: any bytes as
 * a batch file must be answered line by line (a result, or a malformed-line
 * error), never crash, leak or trip a sanitizer.  Each input is written to a
 * file in a private temporary directory; the answers go to /dev/null.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pmutool.h"
#include "describe/tool_batch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char work_template[] = "/tmp/fuzz_batch.XXXXXX";
static char input_path[64];
static struct pmurt_pmu *pmu;

static void clean_up(void)
{
	unlink(input_path);
	rmdir(work_template);
	pmurt_pmu_close(pmu);
}

/* Once: the description, the work file, answers and messages to /dev/null. */
static int set_up(void)
{
	struct pmurt_error err = {0};
	if (!mkdtemp(work_template) || pmurt_pmu_open(&pmu, "power10", NULL, &err))
		return -1;
	snprintf(input_path, sizeof(input_path), "%s/batch.jsonl", work_template);
	atexit(clean_up);
	if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		return -1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready)
		ready = set_up() == 0 ? 1 : -1;
	if (ready < 0)
		return 0;
	FILE *f = fopen(input_path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	struct tool t = {.prog = "pmutool", .pmu_spec = "power10", .pmu = pmu};
	struct describe_opts opts = DESCRIBE_OPTS_INIT;
	opts.json = true;
	opts.batch = input_path;
	tool_check_batch(&t, &opts);
	return 0;
}

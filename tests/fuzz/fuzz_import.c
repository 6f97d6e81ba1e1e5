/*
 * fuzz_import.c - libFuzzer target for `pmugen import-perf-json`: any bytes
 * as a perf pmu-events JSON file must be imported or refused with a
 * message, never crash, leak or trip a sanitizer.  The importer reads a
 * directory, so each input is written to one file in a private temporary
 * directory (made on the first input, kept for the run).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <unistd.h>

#include "emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char work_template[] = "/tmp/fuzz_import.XXXXXX";
static const char *made;

static void remove_work_dir(void)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/input.json", work_template);
	unlink(path);
	rmdir(work_template);
}

static const char *work_dir(void)
{
	if (!made && (made = mkdtemp(work_template)) != NULL)
		atexit(remove_work_dir);
	return made;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = work_dir();
	char path[64];
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/input.json", dir);
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	FILE *out = fopen("/dev/null", "w");
	if (!out)
		return 0;
	struct pmurt_error err = {0};
	import_perf_json(dir, out, &err);
	fclose(out);
	return 0;
}

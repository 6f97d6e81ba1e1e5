/*
 * dt_util.c - helpers shared by the device-tree tests (see dt_util.h).
 */
#include "dt_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"

int dt_load_yaml(struct pmu_model *m, const char *path)
{
	struct pmu_diag d;
	int rc;

	pmu_diag_init(&d, NULL); /* kernel-limits warnings are expected */
	rc = pmu_load_yaml_file(m, path, &d);
	if (rc)
		fprintf(stderr, "cannot load %s: %s\n", path, d.first.message);
	return rc;
}

typedef int (*emitter)(const struct pmu_model *, const struct emit_options *,
		       FILE *, struct pmurt_error *);

static int emit_mem(emitter fn, const struct pmu_model *m, bool all_events,
		    bool quiet, char **buf, size_t *len)
{
	struct emit_options o = { .all_events = all_events, .input_name = "test" };
	struct pmurt_error err = { 0 };
	FILE *f;
	int rc;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f)
		return -errno;
	rc = fn(m, &o, f, &err);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc) {
		if (!quiet)
			fprintf(stderr, "emit failed: %s\n", err.message);
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int dt_emit_dtb(const struct pmu_model *m, bool all_events, char **buf,
		size_t *len)
{
	return emit_mem(emit_dtb, m, all_events, false, buf, len);
}

int dt_emit_dts(const struct pmu_model *m, bool all_events, char **buf,
		size_t *len)
{
	return emit_mem(emit_dts, m, all_events, false, buf, len);
}

int dt_emit_dtb_quiet(const struct pmu_model *m, bool all_events, char **buf,
		      size_t *len)
{
	return emit_mem(emit_dtb, m, all_events, true, buf, len);
}

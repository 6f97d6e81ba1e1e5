/*
 * emit_json.c - perf's pmu-events JSON form of a description's events.
 *
 * One array of objects with perf's keys in perf's order ("EventCode",
 * "EventName", "BriefDescription"), written by jansson with 2-space
 * indentation: for events imported from perf this is byte-for-byte the
 * layout of perf's own files (tools/perf/pmu-events/arch/powerpc/power10/),
 * except that codes are spelled "0x" + at least five upper-case hex digits
 * where perf sometimes pads long codes to 12 or 16 digits (the model keeps
 * the value, not the spelling).
 *
 * Which events: the ones perf knows, i.e. every event that is not a
 * firmware-only name (firmware == true: skiboot's "cycles", "l1-loads", ...).
 * Those names live in the device tree, where the kernel exposes them in sysfs
 * by itself; in perf's JSON they would duplicate perf's own name for the same
 * code (PM_LD_REF_L1 and l1-loads, both 0x100fc).  --all-events therefore
 * has nothing to change here (pmugen refuses it without a tree format): this
 * output is always the complete perf event set, and
 * `pmugen --format json pmus/power10.yaml` gives back exactly the events of
 * perf's power10 directory (tests/json/).
 *
 * PublicDescription is not written: the model carries one description per
 * event (perf's BriefDescription), and perf's power10 files have no
 * PublicDescription to reproduce.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "emit.h"

/* perf's spelling: "0x" and upper-case hex digits, at least five of them. */
static void format_code(uint64_t code, char *buf, size_t len)
{
	snprintf(buf, len, "0x%05" PRIX64, code);
}

static int add_string(json_t *obj, const char *key, const char *value)
{
	json_t *v = json_string(value);

	if (!v)
		return -EINVAL; /* NULL or not valid UTF-8 */
	return json_object_set_new(obj, key, v) ? -ENOMEM : 0;
}

static json_t *event_object(const struct pmu_event *e, int *rc)
{
	json_t *obj = json_object();
	char code[24];

	*rc = -ENOMEM;
	if (!obj)
		return NULL;
	format_code(e->code, code, sizeof(code));
	*rc = add_string(obj, "EventCode", code);
	if (*rc == 0)
		*rc = add_string(obj, "EventName", e->name);
	if (*rc == 0 && e->description)
		*rc = add_string(obj, "BriefDescription", e->description);
	if (*rc) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static int build_array(const struct pmu_model *m, json_t *arr,
		       struct pmu_error *err)
{
	for (int i = 0; i < m->nevents; i++) {
		const struct pmu_event *e = &m->events[i];
		json_t *obj;
		int rc;

		if (e->firmware)
			continue;
		obj = event_object(e, &rc);
		if (!obj || json_array_append_new(arr, obj)) {
			rc = rc ? rc : -ENOMEM;
			pmu_error_set(err, rc, "%s: error: event %s: %s",
				      m->source ? m->source : "json",
				      e->name ? e->name : "(unnamed)",
				      rc == -EINVAL ? "name or description is "
				      "not valid UTF-8" : "out of memory");
			return rc;
		}
	}
	return 0;
}

int emit_json(const struct pmu_model *m, const struct emit_options *o,
	      FILE *out, struct pmu_error *err)
{
	json_t *arr = json_array();
	int rc;

	(void)o; /* see the comment atop: every perf event, always */
	if (!arr) {
		pmu_error_set(err, -ENOMEM, "json: error: out of memory");
		return -ENOMEM;
	}
	rc = build_array(m, arr, err);
	/* dumped to memory and written at once: json_dumpf writes each token
	 * through stdio, which costs more than the dump itself */
	char *text = rc ? NULL : json_dumps(arr, JSON_INDENT(2));
	json_decref(arr);
	if (rc)
		return rc;
	if (!text) {
		pmu_error_set(err, -ENOMEM, "json: error: out of memory");
		return -ENOMEM;
	}
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF || fflush(out) != 0) {
		rc = -EIO;
		pmu_error_set(err, rc, "json: error: write failed");
	}
	free(text);
	return rc;
}

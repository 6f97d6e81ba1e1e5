/*
 * dt_roundtrip.c - YAML -> model -> DTB (emit_dtb) -> model (pmu_load_dtb)
 * gives back an equal model; the reloaded model emits the same DTB and DTS;
 * the default (firmware) tree holds exactly the firmware events; loaded
 * parts carry their node path as position.
 *
 * With an output prefix, also writes PREFIX.dts and PREFIX.dtb for a copy of
 * the model whose strings hold quotes, backslashes, control characters,
 * UTF-8 and a comment end: the caller compiles PREFIX.dts with dtc and
 * compares it with PREFIX.dtb (the DTS escapes must give back the bytes).
 *
 * usage: dt_roundtrip DESCRIPTION.yaml [PREFIX]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_util.h"

static int failures;

static int load_blob(struct pmu_model *m, const char *name, const char *buf,
		     size_t len)
{
	struct pmu_diag d;
	int rc;

	pmu_diag_init(&d, stderr);
	rc = pmu_load_dtb(m, name, buf, len, &d);
	CHECK(rc == 0, "pmu_load_dtb(%s) = %d: %s", name, rc, d.first.message);
	CHECK(d.nerrors == 0 && d.nwarnings == 0, "%d errors, %d warnings",
	      d.nerrors, d.nwarnings);
	return rc;
}

/* all events: equal models, identical re-emission. */
static void test_all_events(const struct pmu_model *yaml)
{
	struct pmu_model back;
	char *dtb = NULL, *dtb2 = NULL, *dts = NULL, *dts2 = NULL, diff[256];
	size_t len = 0, len2 = 0, slen = 0, slen2 = 0;

	if (dt_emit_dtb(yaml, true, &dtb, &len)) {
		failures++;
		return;
	}
	if (load_blob(&back, "test.dtb", dtb, len) == 0) {
		CHECK(pmu_model_equal(yaml, &back, diff, sizeof(diff)),
		      "YAML and DTB models differ: %s", diff);
		CHECK(back.nevents == yaml->nevents, "%d events back, %d in",
		      back.nevents, yaml->nevents);
		CHECK(dt_emit_dtb(&back, true, &dtb2, &len2) == 0, "re-emit DTB");
		CHECK(dtb2 && len2 == len && memcmp(dtb, dtb2, len) == 0,
		      "re-emitted DTB differs (%zu vs %zu bytes)", len2, len);
		CHECK(dt_emit_dts(yaml, true, &dts, &slen) == 0, "emit DTS");
		CHECK(dt_emit_dts(&back, true, &dts2, &slen2) == 0, "re-emit DTS");
		CHECK(dts && dts2 && slen == slen2 && memcmp(dts, dts2, slen) == 0,
		      "re-emitted DTS differs");
		if (back.nevents > 0) {
			char want[512];

			snprintf(want, sizeof(want), "test.dtb:/pmus/pmu_dts@0/events/%s",
				 back.events[0].name);
			CHECK(back.events[0].pos.file &&
			      strcmp(back.events[0].pos.file, want) == 0,
			      "event position '%s', want '%s'",
			      back.events[0].pos.file ? back.events[0].pos.file : "(null)",
			      want);
		}
		pmu_model_free(&back);
	}
	free(dtb);
	free(dtb2);
	free(dts);
	free(dts2);
}

/* default: the firmware set, in model order. */
static void test_firmware_set(const struct pmu_model *yaml)
{
	struct pmu_model back;
	char *dtb = NULL;
	size_t len = 0;
	int j = 0;

	if (dt_emit_dtb(yaml, false, &dtb, &len)) {
		failures++;
		return;
	}
	if (load_blob(&back, "firmware.dtb", dtb, len) == 0) {
		for (int i = 0; i < yaml->nevents; i++) {
			const struct pmu_event *e = &yaml->events[i];

			if (!e->firmware)
				continue;
			CHECK(j < back.nevents && strcmp(back.events[j].name, e->name) == 0 &&
			      back.events[j].code == e->code && back.events[j].firmware,
			      "firmware event %d (%s) not found in order", j, e->name);
			j++;
		}
		CHECK(j == back.nevents, "%d firmware events in the model, %d in the tree",
		      j, back.nevents);
		CHECK(back.nfields == yaml->nfields && back.nconstraints == yaml->nconstraints,
		      "fields or constraints lost");
		pmu_model_free(&back);
	}
	free(dtb);
}

static void replace(char **s, const char *with)
{
	free(*s);
	*s = strdup(with);
}

static int write_file(const char *prefix, const char *ext, const char *buf,
		      size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Odd strings survive DTB -> model, and are written for the dtc check. */
static void test_odd_strings(const char *yaml_path, const char *prefix)
{
	static const char odd[] = "quote \" backslash \\ tab \t newline \n "
				  "bell \a del \x7f e-acute \xc3\xa9 */ hex \x01" "ab end";
	struct pmu_model m, back;
	char *dtb = NULL, *dts = NULL, diff[256];
	size_t len = 0, slen = 0;

	if (dt_load_yaml(&m, yaml_path)) {
		failures++;
		return;
	}
	replace(&m.name, "POWER10 \"PMU\" \\ */");
	if (m.nevents > 0) {
		replace(&m.events[0].description, odd);
		replace(&m.events[0].category, "a\\b");
	}
	if (m.nfields > 0)
		replace(&m.fields[0].description, odd);
	CHECK(dt_emit_dtb(&m, true, &dtb, &len) == 0, "emit DTB");
	CHECK(dt_emit_dts(&m, true, &dts, &slen) == 0, "emit DTS");
	if (dtb && load_blob(&back, "odd.dtb", dtb, len) == 0) {
		CHECK(pmu_model_equal(&m, &back, diff, sizeof(diff)),
		      "odd strings differ: %s", diff);
		pmu_model_free(&back);
	}
	if (dtb && dts) {
		CHECK(write_file(prefix, "dtb", dtb, len) == 0, "write %s.dtb", prefix);
		CHECK(write_file(prefix, "dts", dts, slen) == 0, "write %s.dts", prefix);
	}
	free(dtb);
	free(dts);
	pmu_model_free(&m);
}

int main(int argc, char **argv)
{
	struct pmu_model yaml;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s DESCRIPTION.yaml [PREFIX]\n", argv[0]);
		return 2;
	}
	if (dt_load_yaml(&yaml, argv[1]))
		return 1;
	test_all_events(&yaml);
	test_firmware_set(&yaml);
	pmu_model_free(&yaml);
	if (argc == 3)
		test_odd_strings(argv[1], argv[2]);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("round trip OK\n");
	return failures ? 1 : 0;
}

/*
 * extends_test.c - a description that extends another, in the model and
 * libpmurt's API (issue 24 item 1):
 *  - pmus/power11.yaml is POWER10's PMU but for the identity
 *    (pmu_model_same_pmu) and not POWER10's description (pmu_model_equal
 *    names the identity), with extends "power10", its own processor version
 *    and POWER10's events at their places in POWER10's files;
 *  - the built-in power11 says it extends power10 (pmurt_pmu_info), holds
 *    POWER10's events and finds its processor by the PVR;
 *  - a chain of three loads, each the same PMU as the first, each extending
 *    the one below it.
 *
 *   extends_test SRCDIR WORKDIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"
#include "pmu_load.h"

static int failures;

static int load(struct pmu_model *m, const char *path)
{
	struct pmu_diag d;
	pmu_diag_init(&d, stderr);
	int rc = pmu_load_yaml_file(m, path, &d);
	CHECK(rc == 0, "%s: %d", path, rc);
	return rc;
}

static void test_power11(const char *src)
{
	char p10[4096], p11[4096], diff[512];
	struct pmu_model a, b;
	snprintf(p10, sizeof(p10), "%s/pmus/power10.yaml", src);
	snprintf(p11, sizeof(p11), "%s/pmus/power11.yaml", src);
	if (load(&a, p10) || load(&b, p11))
		exit(1);
	CHECK(pmu_model_same_pmu(&a, &b, diff, sizeof(diff)), "power11 is not POWER10's PMU: %s",
	      diff);
	CHECK(!pmu_model_equal(&a, &b, diff, sizeof(diff)) && strstr(diff, "identity"),
	      "power11 equals power10: %s", diff);
	CHECK(b.extends && strcmp(b.extends, "power10") == 0 && !a.extends, "extends '%s'",
	      b.extends ? b.extends : "(none)");
	CHECK(strcmp(b.platform, "power11") == 0 && strcmp(b.name, "Power11 PMU") == 0 &&
	      strcmp(b.version, "PowerISA 3.1") == 0, "identity %s, %s, %s", b.platform, b.name,
	      b.version);
	CHECK(b.npvr_versions == 1 && b.pvr_versions[0] == 0x82 && b.pvr == 0 &&
	      pmu_model_has_pvr_version(&b, 0x82) && !pmu_model_has_pvr_version(&b, 0x80) &&
	      pmu_model_has_pvr_version(&a, 0x80), "processor versions");
	CHECK(strstr(b.source, "power11.yaml") != NULL, "source %s", b.source);
	int ev = pmu_model_event(&b, "PM_MRK_INST_CMPL");
	CHECK(ev >= 0 && b.events[ev].pos.file && strstr(b.events[ev].pos.file,
							  "power10-events.yaml") &&
	      b.events[ev].pos.line > 0, "PM_MRK_INST_CMPL is at %s:%d",
	      ev >= 0 && b.events[ev].pos.file ? b.events[ev].pos.file : "?",
	      ev >= 0 ? b.events[ev].pos.line : 0);
	pmu_model_free(&a);
	pmu_model_free(&b);
}

static void test_builtin(void)
{
	struct pmurt_pmu *p10 = NULL, *p11 = NULL;
	struct pmurt_error err;
	struct pmurt_pmu_info i10 = {.sz = sizeof(i10)}, i11 = {.sz = sizeof(i11)};
	CHECK(pmurt_pmu_open(&p10, "power10", NULL, &err) == 0 &&
	      pmurt_pmu_open(&p11, "power11", NULL, &err) == 0, "%s", err.message);
	if (!p10 || !p11)
		exit(1);
	CHECK(pmurt_pmu_info(p10, &i10) == 0 && pmurt_pmu_info(p11, &i11) == 0, "info");
	CHECK(i11.extends && strcmp(i11.extends, "power10") == 0 && !i10.extends,
	      "info.extends %s", i11.extends ? i11.extends : "(none)");
	CHECK(i11.nevents == i10.nevents && i11.npresets == i10.npresets &&
	      i11.max_group == i10.max_group && strcmp(i11.platform, "power11") == 0,
	      "power11: %d events, %d presets", i11.nevents, i11.npresets);
	/* an info struct of before 0.6 stops before extends */
	struct pmurt_pmu_info old = {.sz = offsetof(struct pmurt_pmu_info, extends),
				     .extends = "untouched"};
	CHECK(pmurt_pmu_info(p11, &old) == 0 && strcmp(old.extends, "untouched") == 0,
	      "an older caller's info was written past its size");
	CHECK(pmurt_builtin_for_pvr(0x00820200) && !strcmp(pmurt_builtin_for_pvr(0x00820200), "power11") &&
	      !strcmp(pmurt_builtin_for_pvr(0x00801200), "power10") &&
	      !strcmp(pmurt_builtin_for_pvr(0x004e1202), "power9") &&
	      !strcmp(pmurt_builtin_for_pvr(0x004b0201), "power8") && !pmurt_builtin_for_pvr(0x003f0201) &&
	      !pmurt_builtin_for_pvr(0), "the built-in by PVR");
	CHECK(!strcmp(pmurt_builtin_root("Power11"), "power10") &&
	      !strcmp(pmurt_builtin_root("power10"), "power10") &&
	      !strcmp(pmurt_builtin_root("POWER9"), "power9") &&
	      !strcmp(pmurt_builtin_root("skylake"), "skylake"), "the built-ins' bases");
	pmurt_pmu_close(p10);
	pmurt_pmu_close(p11);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "%s", path);
}

/* mini.yaml <- mid.yaml <- top.yaml: top is mini's PMU, extends mid. */
static void test_chain(const char *src, const char *work)
{
	char text[4096], path[4096], diff[512];
	snprintf(text, sizeof(text), "format: pmu-description/1\nextends: %s/tests/checks/mini.yaml\n"
		 "pmu: {name: MID PMU, platform: mid, version: \"2\", pvr-versions: [0x0111]}\n", src);
	put(work, "mid.yaml", text);
	put(work, "top.yaml", "format: pmu-description/1\nextends: mid.yaml\n"
	    "pmu: {name: TOP PMU, platform: top, pvr: 0x01220100}\n");
	struct pmu_model mini, top;
	snprintf(path, sizeof(path), "%s/tests/checks/mini.yaml", src);
	if (load(&mini, path))
		return;
	snprintf(path, sizeof(path), "%s/top.yaml", work);
	if (load(&top, path)) {
		pmu_model_free(&mini);
		return;
	}
	CHECK(pmu_model_same_pmu(&mini, &top, diff, sizeof(diff)), "top is not mini's PMU: %s", diff);
	CHECK(!strcmp(top.extends, "mid") && !strcmp(top.version, "2") && top.npvr_versions == 0 &&
	      pmu_model_has_pvr_version(&top, 0x0122) && !pmu_model_has_pvr_version(&top, 0x0111),
	      "top: extends %s, version %s", top.extends, top.version);
	pmu_model_free(&mini);
	pmu_model_free(&top);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: extends_test SRCDIR WORKDIR\n");
		return 2;
	}
	test_power11(argv[1]);
	test_builtin();
	test_chain(argv[1], argv[2]);
	if (failures)
		fprintf(stderr, "extends_test: %d checks failed\n", failures);
	else
		printf("extends_test: power11 is POWER10's PMU under its own identity; a chain of "
		       "three loads\n");
	return failures ? 1 : 0;
}

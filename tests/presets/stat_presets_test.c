/*
 * stat_presets_test.c - pmutool stat's derived presets (tools/stat_presets.c)
 * on a fake POWER10 LPAR sysfs tree: -e strings with derived presets are
 * expanded into groups of their events (modifiers kept, inside or outside a
 * group), each preset's first event is found in the parsed list, and after
 * the runs its value is computed from the members' counts, hand-computed here.
 *
 * usage: stat_presets_test SYSFS
 */
#include <string.h>

#include "check.h"
#include "perf_int.h"
#include "stat.h"

static int failures;

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s SYSFS\n", argv[0]);
		return 2;
	}
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	struct tool t = {.prog = "stat_presets_test"};
	if (pmurt_host_open(&t.host, &o, &err) < 0) {
		fprintf(stderr, "host: %s\n", err.message);
		return 1;
	}
	struct stat_presets ps;
	char *s = stat_expand_presets(&t, "task-clock,papi_l1_dcm:u,{PM_LD_MISS_L1,PAPI_STL_ICY},"
				      "PAPI_L2_DCM,{PAPI_BR_CN}", &ps);
	const char *want = "task-clock,{PM_LD_DEMAND_MISS_L1_FIN:u,PM_ST_MISS_L1:u},"
			   "{PM_LD_MISS_L1,PM_RUN_CYC,PM_1PLUS_PPC_DISP},PAPI_L2_DCM,"
			   "{PM_BR_CMPL,PM_BR_TKN_UNCOND_FIN}";
	CHECK(s && strcmp(s, want) == 0, "expanded to '%s'", s ? s : "(null)");
	CHECK(ps.n == 3, "%d derived", ps.n);
	CHECK(ps.n == 3 && ps.d[0].first == 1 && ps.d[1].first == 4 && ps.d[2].first == 7,
	      "first events %d %d %d", ps.d[0].first, ps.d[1].first, ps.d[2].first);

	/* 9 counted events, 2 runs; the presets are computed run by run */
	struct stat_event ev[9];
	double values[9][2] = {{5, 5}, {300, 310}, {25, 20}, {7, 7}, {1000, 2000},
			       {600, 500}, {3, 3}, {90, 80}, {10, 90}};
	for (int i = 0; i < 9; i++)
		ev[i] = (struct stat_event){.name = "x", .unit = "", .pmu = "cpu", .scale = 1,
					    .values = values[i], .enabled = 10, .running = 10};
	struct stat_report r = {.nevents = 9, .runs = 2, .presets = &ps,
				.ev = malloc(sizeof(ev))};
	memcpy(r.ev, ev, sizeof(ev));
	CHECK(stat_add_presets(&t, &ps, &r) == 0 && r.nevents == 12, "added: %d", r.nevents);
	const struct stat_event *l1 = &r.ev[9], *stl = &r.ev[10], *br = &r.ev[11];
	CHECK(strcmp(l1->name, "PAPI_L1_DCM") == 0 && strcmp(l1->pmu, "preset") == 0 &&
	      l1->values[0] == 325 && l1->values[1] == 330 && !l1->not_counted,
	      "PAPI_L1_DCM %s %g %g", l1->name, l1->values[0], l1->values[1]);
	CHECK(strcmp(stl->name, "PAPI_STL_ICY") == 0 && stl->values[0] == 400 &&
	      stl->values[1] == 1500, "PAPI_STL_ICY %g %g", stl->values[0], stl->values[1]);
	/* sub may be negative: 80 - 90 */
	CHECK(strcmp(br->name, "PAPI_BR_CN") == 0 && br->values[0] == 80 && br->values[1] == -10,
	      "PAPI_BR_CN %g %g", br->values[0], br->values[1]);
	for (int i = 9; i < r.nevents; i++)
		free(r.ev[i].values);
	free(r.ev);

	/* a member not counted leaves the preset not counted */
	struct stat_report r2 = {.nevents = 9, .runs = 2, .presets = &ps, .ev = malloc(sizeof(ev))};
	memcpy(r2.ev, ev, sizeof(ev));
	r2.ev[5].not_counted = true;
	CHECK(stat_add_presets(&t, &ps, &r2) == 0 && r2.ev[10].not_counted &&
	      !r2.ev[9].not_counted, "not counted member");
	for (int i = 9; i < r2.nevents; i++)
		free(r2.ev[i].values);
	free(r2.ev);
	stat_presets_free(&ps);
	free(s);
	pmurt_host_close(t.host);
	if (failures)
		fprintf(stderr, "stat_presets_test: %d checks failed\n", failures);
	else
		printf("stat_presets_test: ok\n");
	return failures != 0;
}

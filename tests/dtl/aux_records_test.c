/*
 * aux_records_test.c - the records the AUX drain (perf/aux.c) hands to its
 * sink, field by field, on an area whose CPU (5) is not its mmap index
 * (1): each PERF_RECORD_AUXTRACE's size, offset, idx, tid and cpu as
 * tools/lib/perf/include/perf/event.h lays them out; the
 * PERF_RECORD_AUXTRACE_ERROR of a full area with the area's CPU; and the
 * bytes a writer racing the drain overwrote while they were read (a sink
 * that moves aux_head on by more than the area) counted as torn.  Then a
 * recording session on CPU 1 alone (mmap index 0) of the simulated
 * driver (tests/support/sim_dtl.c) on the fake LPAR sysfs: its AUXTRACE records say
 * CPU 1 and index 0.
 *
 * usage: dtl_aux_records_test SYSFS   (the fake LPAR tree)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "perf_int.h"
#include "perfdata.h"
#include "aux.h"
#include "record.h"
#include "sim_dtl.h"
#include "sys_sim.h"

static int failures;

#define AREA 8192

struct seen {
	int auxtrace, errors;
	uint8_t first[48];       /* the first AUXTRACE record's 48 bytes */
	uint8_t error[128];      /* the first AUXTRACE_ERROR */
	struct perf_event_mmap_page *race;   /* moved on by race_by at the first chunk */
	uint64_t race_by;
};

static int keep(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)err;
	struct seen *s = arg;
	if (rec->type == PMU_RECORD_AUXTRACE) {
		if (!s->auxtrace++)
			memcpy(s->first, rec, sizeof(s->first));
		if (s->race && s->auxtrace == 1)
			s->race->aux_head += s->race_by;
	} else if (rec->type == PMU_RECORD_AUXTRACE_ERROR && !s->errors++) {
		memcpy(s->error, rec, rec->size < sizeof(s->error) ? rec->size : sizeof(s->error));
	}
	return 0;
}

static struct pmu_aux area_of(struct perf_event_mmap_page *ctl, unsigned char *data)
{
	return (struct pmu_aux){.fd = -1, .ctl = ctl, .data = data, .size = AREA,
				.filled = pmu_aux_filled(AREA), .idx = 1, .cpu = 5};
}

/* Ten slots after the header: one record, the CPU's number and the
 * mmap index each in its place. */
static void auxtrace_fields(void)
{
	static struct perf_event_mmap_page ctl;
	static unsigned char data[AREA];
	struct pmu_aux aux = area_of(&ctl, data);
	struct seen s = {0};
	struct pmurt_error err = {0};
	ctl.aux_tail = 48;
	ctl.aux_head = 11 * 48;
	CHECK(pmu_aux_drain(&aux, keep, &s, &err) == 1 && s.auxtrace == 1, "%s", err.message);
	const uint8_t *r = s.first;
	uint16_t size;
	memcpy(&size, r + 6, 2);
	CHECK(size == 48 && pd_get64(r + 8) == 10 * 48 && pd_get64(r + 16) == 48,
	      "size %u, payload %llu, offset %llu", size, (unsigned long long)pd_get64(r + 8),
	      (unsigned long long)pd_get64(r + 16));
	CHECK(pd_get32(r + 32) == 1 && pd_get32(r + 40) == 5,
	      "idx %u and cpu %u: want the mmap index 1 and CPU 5", pd_get32(r + 32),
	      pd_get32(r + 40));
	CHECK(pd_get32(r + 36) == UINT32_MAX, "tid %u: want -1 (per CPU)", pd_get32(r + 36));
}

/* A full area: the AUXTRACE_ERROR says which CPU lost entries. */
static void error_cpu(void)
{
	static struct perf_event_mmap_page ctl;
	static unsigned char data[AREA];
	struct pmu_aux aux = area_of(&ctl, data);
	struct seen s = {0};
	struct pmurt_error err = {0};
	ctl.aux_tail = 0;
	ctl.aux_head = AREA + 3 * 48;
	CHECK(pmu_aux_drain(&aux, keep, &s, &err) >= 1 && s.errors == 1, "%d errors: %s",
	      s.errors, err.message);
	/* type, code, cpu, pid, tid, fmt, ip, time, msg */
	CHECK(pd_get32(s.error + 16) == 5, "AUXTRACE_ERROR cpu %u: want 5",
	      pd_get32(s.error + 16));
	CHECK(pd_get32(s.error + 8) == 1 && pd_get32(s.error + 12) == PMU_AUX_LOST_CODE,
	      "type %u code %u", pd_get32(s.error + 8), pd_get32(s.error + 12));
}

/* While the first chunk is read, the writer laps the area and 96 bytes
 * more: the first 96 bytes read may be the new lap's, torn. */
static void torn_bytes(void)
{
	static struct perf_event_mmap_page ctl;
	static unsigned char data[AREA];
	struct pmu_aux aux = area_of(&ctl, data);
	struct seen s = {.race = &ctl, .race_by = AREA - 10 * 48 + 96};
	struct pmurt_error err = {0};
	ctl.aux_tail = 0;
	ctl.aux_head = 10 * 48;
	CHECK(pmu_aux_drain(&aux, keep, &s, &err) == 1, "%s", err.message);
	CHECK(aux.stats.torn_bytes == 96, "%llu torn bytes counted, want 96",
	      (unsigned long long)aux.stats.torn_bytes);
	CHECK(ctl.aux_tail == 10 * 48, "tail %llu", (unsigned long long)ctl.aux_tail);
}

struct cpus_seen {
	int records;
	uint32_t idx, cpu;
};

static int note_cpu(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)err;
	struct cpus_seen *c = arg;
	if (rec->type == PMU_RECORD_AUXTRACE) {
		const struct pmu_auxtrace *a = (const struct pmu_auxtrace *)rec;
		c->records++;
		c->idx = a->idx;
		c->cpu = a->cpu;
	}
	return 0;
}

/* The session maps CPU 1's AUX area as its first (index 0). */
static void session_cpu(struct pmurt_host *host)
{
	static const struct pmu_sim_pmu dtl_pmu = {
		.type = 14, .name = "vpa_dtl", .per_cpu_only = true, .no_exclude = true,
		.sampling_only = true,
	};
	struct pmu_sim *sim = NULL;
	struct pmu_sim_dtl *drv = NULL;
	struct pmu_sim_dtl_opts o = {.seed = 3};
	struct pmurt_error err = {0};
	CHECK(pmu_sim_new(&sim, &dtl_pmu, 1) == 0 && pmu_sim_dtl_new(&drv, sim, 14, &o) == 0,
	      "simulator");
	host->h.sys = pmu_sim_sys(sim);
	struct pmu_evlist list = {0};
	CHECK(pmu_evlist_parse(&list, &host->h, "vpa_dtl/dtl_all/", &err) == 0, "%s", err.message);
	const int cpus[] = {1};
	struct pmu_record_opts ro = {.pid = -1, .cpus = cpus, .ncpus = 1, .aux_pages = 2};
	struct pmu_session *s = NULL;
	struct cpus_seen seen = {0};
	CHECK(list.n && pmu_session_open(&s, &host->h, &list, &ro, &err) == 0 &&
	      pmu_session_enable(s, &err) == 0, "%s", err.message);
	if (s) {
		pmu_sim_dtl_tick(drv, 10);
		CHECK(pmu_session_drain(s, note_cpu, &seen, &err) == 0, "%s", err.message);
	}
	CHECK(seen.records > 0 && seen.cpu == 1 && seen.idx == 0,
	      "%d AUXTRACE records, the last on CPU %u index %u: want CPU 1, index 0",
	      seen.records, seen.cpu, seen.idx);
	pmu_session_close(s);
	pmu_evlist_free(&list);
	pmu_sim_dtl_free(drv);
	pmu_sim_free(sim);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: dtl_aux_records_test SYSFS\n");
		return 2;
	}
	auxtrace_fields();
	error_cpu();
	torn_bytes();
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	CHECK(pmurt_host_open(&host, &o, &err) == 0, "the fake LPAR tree: %s", err.message);
	if (host)
		session_cpu(host);
	pmurt_host_close(host);
	return failures ? 1 : 0;
}

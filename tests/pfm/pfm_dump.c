/*
 * pfm_dump.c - prints what a libpfm.so.4 answers, in lines that diff: the
 * PMUs (pfm_get_pmu_info over every id until PFM_ERR_INVAL, as PAPI walks
 * them), a PMU's events with their attributes under each OS layer, and
 * event strings encoded under each OS layer.  It uses libpfm4's public
 * header only, so the same source runs against Debian's libpfm4 and
 * libpmurt's libpfm.so.4 (LD_LIBRARY_PATH picks): tests/pfm and the QEMU
 * tests diff the two.
 *   pfm_dump pmus
 *   pfm_dump events PMU          every event of PMU (by name)
 *   pfm_dump encode STRING...    each under PFM_OS_NONE, PERF_EVENT, _EXT
 *   pfm_dump kernel STRING...    the kernel's answer: each encoded (PERF_EVENT_EXT,
 *                                user level) and opened alone, counting a loop
 */
#include <errno.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

/* The next PMU from id on (as PAPI walks them, until PFM_ERR_INVAL): its id,
 * or -1 past the last. */
static int next_pmu(int id, pfm_pmu_info_t *p)
{
	for (;; id++) {
		memset(p, 0, sizeof(*p));
		p->size = sizeof(*p);
		int rc = pfm_get_pmu_info((pfm_pmu_t)id, p);
		if (rc == PFM_ERR_INVAL)
			return -1;
		if (rc == PFM_SUCCESS)
			return id;
	}
}

static void pmus(void)
{
	pfm_pmu_info_t p;
	for (int id = next_pmu(0, &p); id >= 0; id = next_pmu(id + 1, &p))
		printf("pmu %d %s \"%s\" type=%d nevents=%d present=%d cntrs=%d fixed=%d "
		       "max_encoding=%d\n", id, p.name, p.desc, p.type, p.nevents, p.is_present,
		       p.num_cntrs, p.num_fixed_cntrs, p.max_encoding);
}

/* The first event of the PMU so named, or -1. */
static int pmu_id(const char *name)
{
	pfm_pmu_info_t p;
	for (int id = next_pmu(0, &p); id >= 0; id = next_pmu(id + 1, &p))
		if (strcmp(p.name, name) == 0)
			return p.first_event;
	return -1;
}

static void attrs(int idx, pfm_os_t os, int n)
{
	for (int a = 0; a < n; a++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		int rc = pfm_get_event_attr_info(idx, a, os, &ai);
		if (rc != PFM_SUCCESS) {
			printf("    attr %d: %s\n", a, pfm_strerror(rc));
			continue;
		}
		printf("    os%d attr %d %s type=%d ctrl=%d code=0x%" PRIx64 " dfl=%d precise=%d \"%s\"\n",
		       (int)os, a, ai.name, ai.type, ai.ctrl, ai.code, ai.is_dfl, ai.is_precise,
		       ai.desc ? ai.desc : "");
	}
}

static int events(const char *pmu)
{
	int idx = pmu_id(pmu);
	if (idx < 0) {
		printf("no pmu %s\n", pmu);
		return 1;
	}
	for (; idx >= 0; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t e;
		int n[PFM_OS_MAX];
		for (int os = 0; os < PFM_OS_MAX; os++) {
			memset(&e, 0, sizeof(e));
			e.size = sizeof(e);
			n[os] = pfm_get_event_info(idx, (pfm_os_t)os, &e) == PFM_SUCCESS ? e.nattrs : -1;
		}
		printf("event %s code=0x%" PRIx64 " equiv=%s precise=%d nattrs=%d/%d/%d\n", e.name,
		       e.code, e.equiv ? e.equiv : "-", e.is_precise, n[0], n[1], n[2]);
		for (int os = 0; os < PFM_OS_MAX; os++)
			attrs(idx, (pfm_os_t)os, n[os]);
	}
	return 0;
}

static void encode(const char *s)
{
	uint64_t *codes = NULL;
	char *fstr = NULL;
	int count = 0, idx = -1;
	int rc = pfm_get_event_encoding(s, PFM_PLM0 | PFM_PLM3, &fstr, &idx, &codes, &count);
	printf("%s\n  none: %s", s, pfm_strerror(rc));
	if (rc == PFM_SUCCESS)
		printf(" codes[0]=0x%" PRIx64 " count=%d fstr=%s", codes[0], count, fstr);
	printf("\n");
	free(codes);
	free(fstr);
	for (int os = PFM_OS_PERF_EVENT; os <= PFM_OS_PERF_EVENT_EXT; os++) {
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		attr.size = sizeof(attr);
		arg.attr = &attr;
		arg.size = sizeof(arg);
		fstr = NULL;
		arg.fstr = &fstr;
		rc = pfm_get_os_event_encoding(s, PFM_PLM3, (pfm_os_t)os, &arg);
		printf("  os%d: %s", os, pfm_strerror(rc));
		if (rc == PFM_SUCCESS)
			printf(" type=%u config=0x%llx config1=0x%llx excl u/k/h/guest/host=%d%d%d%d%d "
			       "period=%llu freq=%d precise=%d excl=%d pinned=%d cpu=%d fstr=%s",
			       attr.type, (unsigned long long)attr.config,
			       (unsigned long long)attr.config1, attr.exclude_user, attr.exclude_kernel,
			       attr.exclude_hv, attr.exclude_guest, attr.exclude_host,
			       (unsigned long long)attr.sample_period, attr.freq, attr.precise_ip,
			       attr.exclusive, attr.pinned, arg.cpu, fstr);
		printf("\n");
		free(fstr);
	}
}

/* Encoded, opened alone for this task and counted around a loop. */
static void kernel(const char *s)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	int rc = pfm_get_perf_event_encoding(s, PFM_PLM3, &attr, NULL, NULL);
	if (rc != PFM_SUCCESS) {
		printf("%s encode=%s\n", s, pfm_strerror(rc));
		return;
	}
	attr.disabled = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		printf("%s config=0x%llx open=%s\n", s, (unsigned long long)attr.config,
		       strerror(errno));
		return;
	}
	volatile unsigned long sink = 0;
	uint64_t count = 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
	(void)sink;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	close(fd);
	printf("%s config=0x%llx open=ok count=%llu\n", s, (unsigned long long)attr.config,
	       (unsigned long long)count);
}

int main(int argc, char **argv)
{
	int rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		printf("pfm_initialize: %s\n", pfm_strerror(rc));
		return 1;
	}
	if (argc >= 2 && strcmp(argv[1], "pmus") == 0)
		pmus();
	else if (argc == 3 && strcmp(argv[1], "events") == 0)
		rc = events(argv[2]);
	else if (argc >= 3 && strcmp(argv[1], "encode") == 0)
		for (int i = 2; i < argc; i++)
			encode(argv[i]);
	else if (argc >= 2 && strcmp(argv[1], "kernel") == 0)
		for (int i = 2; i < argc; i++)
			kernel(argv[i]);
	else {
		fprintf(stderr, "usage: pfm_dump pmus | events PMU | encode STRING... | kernel STRING...\n");
		rc = 2;
	}
	pfm_terminate();
	return rc;
}

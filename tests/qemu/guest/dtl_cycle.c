/*
 * dtl_cycle.c - run in the kernel-7 guest (tests/qemu/guest_test.sh): the
 * vpa_dtl capture API's enable, disable, enable, disable, enable on CPU 0,
 * polled in between.  Enabling a vpa_dtl event again after a disable writes
 * into the buffer vpa_dtl_event_del freed (an Oops up to at least Linux
 * 7.2); libpmurt closes the event and opens a new one instead, so the
 * kernel must stay quiet (run-guest.sh fails the test on an Oops) and the
 * stats count two reopenings.  Prints "cycle ok: ..." or the error; before
 * that, what a second capture of CPU 0 gets while the first holds it (EBUSY,
 * explained).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "pmurt.h"

static int count_chunk(void *arg, int cpu, uint64_t aux_offset, const void *data, size_t len)
{
	(void)cpu;
	(void)aux_offset;
	(void)data;
	*(uint64_t *)arg += len;
	return 0;
}

static int poll_some(struct pmurt_dtl_capture *c, uint64_t *bytes, struct pmurt_error *err)
{
	for (int i = 0; i < 5; i++) {
		int rc = pmurt_dtl_capture_poll(c, 5, count_chunk, bytes, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int main(void)
{
	struct pmurt_error err = {0};
	struct pmurt_host *host = NULL;
	struct pmurt_dtl_capture *c = NULL;
	const int cpu0[] = {0};
	uint64_t bytes = 0;
	int rc = pmurt_host_open(&host, NULL, &err);
	if (rc == 0)
		rc = pmurt_dtl_capture_open(&c, host, &PMURT_OPTS_INIT(pmurt_dtl_capture_opts,
			.cpus = cpu0, .ncpus = 1), &err);
	const char *step = "open";
	if (rc == 0) {
		/* a second user of CPU 0's log while the first holds it */
		struct pmurt_dtl_capture *second = NULL;
		struct pmurt_error busy = {0};
		int rc2 = pmurt_dtl_capture_open(&second, host, &PMURT_OPTS_INIT(
			pmurt_dtl_capture_opts, .cpus = cpu0, .ncpus = 1), &busy);
		printf("second user: %d %s\n", rc2, busy.message);
		pmurt_dtl_capture_close(second);
	}
	for (int round = 0; rc == 0 && round < 3; round++) {
		step = "enable";
		rc = pmurt_dtl_capture_enable(c, &err);
		if (rc == 0) {
			step = "poll";
			rc = poll_some(c, &bytes, &err);
		}
		if (rc == 0 && round < 2) {
			step = "disable";
			rc = pmurt_dtl_capture_disable(c, &err);
		}
	}
	if (rc < 0) {
		printf("cycle failed at %s: %s (%d)\n", step, err.message, rc);
	} else {
		struct pmurt_dtl_capture_stats st = PMURT_OPTS_INIT(pmurt_dtl_capture_stats);
		pmurt_dtl_capture_stats(c, &st);
		printf("cycle ok: reopens=%" PRIu64 " bytes=%" PRIu64 " lost=%" PRIu64 "\n",
		       st.reopens, bytes, st.lost_entries);
	}
	pmurt_dtl_capture_close(c);
	pmurt_host_close(host);
	return rc < 0 ? 1 : 0;
}

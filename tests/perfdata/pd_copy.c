/*
 * pd_copy.c - copies a perf.data file through libpmurt's reader
 * (pmurt_perf_*) into its writer (pd_writer_*): the events with their
 * attrs, ids and names, then every record in order.  The interop tests run
 * perf on the copy and on the original and compare what perf shows.
 *
 * usage: pd_copy IN OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata.h"

static int fail(const char *what, const struct pmurt_error *err)
{
	fprintf(stderr, "pd_copy: %s: %s\n", what, err->message);
	return 1;
}

static int copy_records(struct pmurt_perf_file *in, struct pd_writer *w, long *n)
{
	struct pmurt_error err = {0};
	struct pmurt_perf_record rec = {.sz = sizeof(rec)};
	int rc;
	while ((rc = pmurt_perf_next(in, &rec, &err)) == 1) {
		/* the writer appends its own final FINISHED_ROUND when needed */
		if (pd_writer_add(w, rec.data, &err) < 0)
			return fail("write", &err);
		++*n;
	}
	return rc < 0 ? fail("read", &err) : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: pd_copy IN OUT\n");
		return 2;
	}
	struct pmurt_error err = {0};
	struct pmurt_perf_file *in;
	if (pmurt_perf_open(&in, argv[1], &err) < 0)
		return fail("open", &err);
	struct pmurt_perf_info info = {.sz = sizeof(info)};
	pmurt_perf_info(in, &info);
	struct pd_event *events = calloc((size_t)info.nevents, sizeof(*events));
	for (int e = 0; events && e < info.nevents; e++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		pmurt_perf_event(in, e, &ev);
		memcpy(&events[e].attr, ev.attr,
		       ev.attr_size < sizeof(events[e].attr) ? ev.attr_size : sizeof(events[e].attr));
		events[e].ids = ev.ids;
		events[e].nids = ev.nids;
		events[e].name = ev.name;
	}
	struct pd_writer *w;
	long n = 0;
	int status = 1;
	if (!events)
		fprintf(stderr, "pd_copy: out of memory\n");
	else if (pd_writer_open(&w, argv[2], events, info.nevents, &err) < 0)
		fail("create", &err);
	else if ((status = copy_records(in, w, &n)) != 0)
		pd_writer_finish(w, NULL);
	else if (pd_writer_finish(w, &err) < 0)
		status = fail("finish", &err);
	else
		printf("%ld records copied\n", n);
	free(events);
	pmurt_perf_close(in);
	return status;
}

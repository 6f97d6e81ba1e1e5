/*
 * report_filter.c - the sample filters of pmutool report and script, as
 * perf 6.1 reads and applies them (report_filter.h):
 *
 *   --comms, --dsos, --symbols  comma lists (util/strlist.c); a file
 *                               matches by its short or its whole name, a
 *                               function by its name or its start address
 *                               "0x%x" (event.c machine__resolve);
 *   --pid, --tid                comma lists of numbers (util/intlist.c,
 *                               thread__is_filtered);
 *   --cpu                       the kernel's CPU list format, refused for a
 *                               file whose samples carry no CPU
 *                               (session.c perf_session__cpu_bitmap);
 *   --time                      "start,stop" in seconds with up to nine
 *                               decimals, either side open, several such
 *                               separated by spaces; or shares of the
 *                               recording ("0%-10%,30%-40%", "10%/2",
 *                               "25%") between HEADER_SAMPLE_TIME's first
 *                               and last times (util/time-utils.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmurt_tool.h>

#include "report_filter.h"

static int out_of_memory(const struct session *s)
{
	tool_error(s->tool, "out of memory");
	return EXIT_INTERNAL;
}

/* "a,b,c" into list (empty entries dropped, as strlist's); 0 or -ENOMEM. */
static int split_names(struct name_list *list, const char *text)
{
	if (!text)
		return 0;
	if (!(list->text = strdup(text)) ||
	    !(list->names = calloc(strlen(text) / 2 + 1, sizeof(*list->names))))
		return -ENOMEM;
	for (char *save, *k = strtok_r(list->text, ",", &save); k; k = strtok_r(NULL, ",", &save))
		list->names[list->n++] = k;
	return 0;
}

static bool has_name(const struct name_list *list, const char *name)
{
	for (int i = 0; i < list->n; i++)
		if (!strcmp(list->names[i], name))
			return true;
	return false;
}

/* "1,20,300" into *out; an exit code. */
static int split_numbers(const struct session *s, const char *opt, const char *text, int **out,
			 int *n)
{
	if (!text)
		return EXIT_OK;
	if (!(*out = calloc(strlen(text) / 2 + 1, sizeof(**out))))
		return out_of_memory(s);
	for (const char *p = text; *p;) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || (*end && *end != ',') || errno || v < 0 || v > INT32_MAX) {
			tool_error(s->tool, "%s: '%s' is not a list of numbers (1,20,300)", opt, text);
			return EXIT_USAGE;
		}
		(*out)[(*n)++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return EXIT_OK;
}

static bool has_number(const int *v, int n, uint32_t x)
{
	for (int i = 0; i < n; i++)
		if ((uint32_t)v[i] == x)
			return true;
	return false;
}

/* perf refuses -C for a file with an event whose samples have no CPU. */
static bool samples_carry_cpu(const struct session *s)
{
	for (int e = 0; e < s->info.nevents; e++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		if (pmurt_perf_event(s->file, e, &ev) || !(ev.sample_type & PERF_SAMPLE_CPU))
			return false;
	}
	return true;
}

static int cpu_filter(struct report_filter *f, const struct session *s, const char *text)
{
	if (!text)
		return EXIT_OK;
	if (!samples_carry_cpu(s)) {
		tool_error(s->tool, "--cpu: %s's samples do not say their CPU (record with -a or -C, "
			   "or without --cpu here)", s->path);
		return EXIT_USAGE;
	}
	struct pmurt_error err = {0};
	int *cpus = NULL, n = 0, max = -1;
	if (pmurt_cpulist_parse(text, &cpus, &n, &err) < 0) {
		tool_error(s->tool, "--cpu: %s", err.message);
		free(cpus);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++)
		max = cpus[i] > max ? cpus[i] : max;
	f->ncpu_wanted = max + 1;
	if (!(f->cpu_wanted = calloc((size_t)f->ncpu_wanted + 1, sizeof(bool)))) {
		free(cpus);
		return out_of_memory(s);
	}
	for (int i = 0; i < n; i++)
		f->cpu_wanted[cpus[i]] = true;
	free(cpus);
	return EXIT_OK;
}

/* "SEC[.NSEC]" (nine decimals at most) into *ns: parse_nsec_time. */
static bool parse_seconds(const char *text, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	const char *p = text;
	int digits = 0, decimals = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		sec = sec * 10 + (uint64_t)(*p - '0');
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9' && decimals < 9; p++, decimals++)
			frac = frac * 10 + (uint64_t)(*p - '0');
	if (p != end || !digits || sec > UINT64_MAX / 1000000000u - 1)
		return false;
	for (; decimals < 9; decimals++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return true;
}

/* One "start,stop" piece of --time; false when malformed. */
static bool time_piece(const char *p, const char *end, struct time_range *r)
{
	const char *comma = memchr(p, ',', (size_t)(end - p));
	if (!comma)
		return false;
	*r = (struct time_range){0};
	if ((comma > p && !parse_seconds(p, comma, &r->start)) ||
	    (end > comma + 1 && !parse_seconds(comma + 1, end, &r->end)))
		return false;
	return !r->end || r->end >= r->start;
}

/* Ranges in seconds, separated by spaces (perf_time__parse_strs: each
 * holds a comma, none overlaps the next). */
static bool absolute_times(struct report_filter *f, const char *text)
{
	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		const char *end = p + strcspn(p, " ");
		if (end == p)
			break;
		if (!time_piece(p, end, &f->times[f->ntimes]))
			return false;
		if (f->ntimes && f->times[f->ntimes - 1].end >= f->times[f->ntimes].start)
			return false;
		f->ntimes++;
		p = end;
	}
	return f->ntimes > 0;
}

/* "P%" into *share (0 to 1): parse_percent, checked as set_percent_time. */
static bool parse_percent(const char *p, const char *end, double *share)
{
	char buf[64], *stop;
	if (end - p < 2 || end[-1] != '%' || (size_t)(end - p) >= sizeof(buf))
		return false;
	memcpy(buf, p, (size_t)(end - p - 1));
	buf[end - p - 1] = 0;
	*share = strtod(buf, &stop) / 100.0;
	return stop != buf && !*stop && *share >= 0.0 && *share <= 1.0;
}

/* set_percent_time: from first + a * span to first + b * span, the end
 * one before that unless it is the last time. */
static struct time_range share_range(double a, double b, uint64_t first, uint64_t last)
{
	uint64_t span = last - first;
	struct time_range r = {first + (uint64_t)round(a * (double)span),
			       first + (uint64_t)round(b * (double)span)};
	if (r.end > r.start && r.end != last)
		r.end--;
	return r;
}

/* One "A%-B%", "P%/N" or "P%" piece. */
static bool share_piece(const char *p, const char *end, bool slash, bool dash, uint64_t first,
			uint64_t last, struct time_range *r)
{
	double a, b;
	const char *mid = memchr(p, slash ? '/' : '-', (size_t)(end - p));
	if (slash || dash) {
		if (!mid || !parse_percent(p, mid, &a))
			return false;
		if (dash) {
			if (!parse_percent(mid + 1, end, &b))
				return false;
			*r = share_range(a, b, first, last);
			return true;
		}
		char *stop;
		long n = strtol(mid + 1, &stop, 10);
		if (stop != end || mid + 1 == end || a <= 0.0 || a * (double)n > 1.0 || n < 1)
			return false;
		*r = share_range(a * (double)(n - 1), a * (double)n, first, last);
		return true;
	}
	if (!parse_percent(p, end, &a) || a <= 0.0)
		return false;
	*r = share_range(0, a, first, last);
	return true;
}

/* perf_time__percent_parse_str: '/' anywhere makes every piece a slice,
 * else '-' a range, else one share from the start. */
static bool share_times(struct report_filter *f, const char *text, uint64_t first, uint64_t last)
{
	bool slash = strchr(text, '/'), dash = !slash && strchr(text, '-');
	if (!slash && !dash && strchr(text, ','))
		return false;
	for (const char *p = text;;) {
		const char *end = p + strcspn(p, ",");
		if (!share_piece(p, end, slash, dash, first, last, &f->times[f->ntimes]))
			return false;
		f->ntimes++;
		if (!*end)
			return true;
		p = end + 1;
	}
}

static int time_filter(struct report_filter *f, const struct session *s, const char *text)
{
	if (!text)
		return EXIT_OK;
	size_t pieces = 1;
	for (const char *p = text; *p; p++)
		pieces += *p == ',' || *p == ' ';
	if (!(f->times = calloc(pieces, sizeof(*f->times))))
		return out_of_memory(s);
	bool share = strchr(text, '%');
	uint64_t first = s->info.first_sample_time, last = s->info.last_sample_time;
	if (share && !first && !last) {
		tool_error(s->tool, "--time '%s': %s has no first and last sample times "
			   "(HEADER_SAMPLE_TIME) to take shares of; give times in seconds", text,
			   s->path);
		return EXIT_USAGE;
	}
	if (share ? !share_times(f, text, first, last) : !absolute_times(f, text)) {
		tool_error(s->tool, "--time '%s': not START,STOP in seconds (either may be left out; "
			   "several separated by spaces) nor shares such as 0%%-10%%, 10%%/2 or 25%%",
			   text);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int report_filter_init(struct report_filter *f, const struct filter_spec *spec,
		       const struct session *s)
{
	*f = (struct report_filter){0};
	if (split_names(&f->comms, spec->comms) || split_names(&f->dsos, spec->dsos) ||
	    split_names(&f->symbols, spec->symbols))
		return out_of_memory(s);
	int rc = split_numbers(s, "--pid", spec->pids, &f->pids, &f->npids);
	if (!rc)
		rc = split_numbers(s, "--tid", spec->tids, &f->tids, &f->ntids);
	if (!rc)
		rc = cpu_filter(f, s, spec->cpus);
	if (!rc)
		rc = time_filter(f, s, spec->time);
	return rc;
}

/* perf_time__ranges_skip_sample: a sample without a time is kept. */
static bool outside_times(const struct report_filter *f, const struct pmurt_perf_record *rec)
{
	if (!f->ntimes || !(rec->has & PERF_SAMPLE_TIME) || !rec->time)
		return false;
	for (int i = 0; i < f->ntimes; i++)
		if (rec->time >= f->times[i].start && (!f->times[i].end || rec->time <= f->times[i].end))
			return false;
	return true;
}

static bool dso_wanted(const struct report_filter *f, const char *dso)
{
	char short_name[256];
	if (!strcmp(dso, "[unknown]"))
		return false;
	session_dso_short(dso, short_name, sizeof(short_name));
	return has_name(&f->dsos, short_name) || has_name(&f->dsos, dso);
}

static bool symbol_wanted(const struct report_filter *f, const struct session_sample *smp)
{
	char start[32];
	if (!strcmp(smp->at.sym, "[unknown]"))
		return false;
	snprintf(start, sizeof(start), "0x%" PRIx64, smp->rec->ip - smp->at.sym_offset);
	return has_name(&f->symbols, smp->at.sym) || has_name(&f->symbols, start);
}

enum filter_verdict report_filter_sample(const struct report_filter *f,
					 const struct session_sample *smp)
{
	const struct pmurt_perf_record *rec = smp->rec;
	if (f->cpu_wanted && (rec->cpu >= (uint32_t)f->ncpu_wanted || !f->cpu_wanted[rec->cpu]))
		return FILTER_DROP;
	if (outside_times(f, rec))
		return FILTER_DROP;
	bool hide = (f->comms.n && !has_name(&f->comms, smp->at.comm)) ||
		    (f->pids && !has_number(f->pids, f->npids, rec->pid)) ||
		    (f->tids && !has_number(f->tids, f->ntids, rec->tid)) ||
		    (f->dsos.n && !dso_wanted(f, smp->at.dso)) ||
		    (f->symbols.n && !symbol_wanted(f, smp));
	return hide ? FILTER_HIDE : FILTER_KEEP;
}

static void free_names(struct name_list *list)
{
	free(list->text);
	free(list->names);
}

void report_filter_free(struct report_filter *f)
{
	free_names(&f->comms);
	free_names(&f->dsos);
	free_names(&f->symbols);
	free(f->pids);
	free(f->tids);
	free(f->cpu_wanted);
	free(f->times);
}

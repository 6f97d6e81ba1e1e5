/*
 * diag.c - reporting problems as "file:line:col: error: message [-Wcheck]",
 * with named checks that can be switched off or promoted to errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmu_diag.h"

static const char *const check_names[PMU_CHK_COUNT] = {
	[PMU_CHK_FIELD_OVERLAP] = "overlapping-fields",
	[PMU_CHK_FIELD_RANGE] = "field-range",
	[PMU_CHK_BITS_LENGTH] = "bits-length",
	[PMU_CHK_UNKNOWN_REF] = "unknown-reference",
	[PMU_CHK_DUP_EVENT_NAME] = "duplicate-event-name",
	[PMU_CHK_DUP_EVENT_CODE] = "duplicate-event-code",
	[PMU_CHK_UNCOVERED_BITS] = "uncovered-bits",
	[PMU_CHK_PMC_RANGE] = "pmc-range",
	[PMU_CHK_FIXED_COUNTER] = "fixed-counter-event",
	[PMU_CHK_CONSTRAINT_FIELD] = "constraint-field",
	[PMU_CHK_UNSCHEDULABLE] = "unschedulable-event",
	[PMU_CHK_KERNEL_LIMITS] = "kernel-limits",
	[PMU_CHK_REGISTER_LAYOUT] = "register-layout",
	[PMU_CHK_TRANSFORM_ENCODING] = "transform-encoding",
	[PMU_CHK_PRESET_MEMBERS] = "preset-members",
	[PMU_CHK_RFC] = "rfc",
};

const char *pmu_check_name(enum pmu_check_id id)
{
	return (id >= 0 && id < PMU_CHK_COUNT) ? check_names[id] : "?";
}

int pmu_check_lookup(const char *name)
{
	for (int i = 0; i < PMU_CHK_COUNT; i++)
		if (strcmp(check_names[i], name) == 0)
			return i;
	return -1;
}

void pmu_diag_init(struct pmu_diag *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->max_shown = PMU_DIAG_MAX_SHOWN;
	for (int i = 0; i < PMU_CHK_COUNT; i++)
		d->level[i] = PMU_SEV_ERROR;
	d->level[PMU_CHK_KERNEL_LIMITS] = PMU_SEV_WARNING;
	d->level[PMU_CHK_RFC] = PMU_SEV_OFF;
}

static void format_place(const struct pmu_diag *d, const struct pmu_pos *pos,
			 char *buf, size_t len)
{
	if (pos && pos->file && pos->line > 0)
		snprintf(buf, len, "%s:%d:%d", pos->file, pos->line, pos->col);
	else if (pos && pos->file)
		snprintf(buf, len, "%s", pos->file);
	else
		snprintf(buf, len, "%s", d->program ? d->program : "pmu");
}

bool pmu_diag_shows_errors(const struct pmu_diag *d)
{
	return d->max_shown <= 0 || d->nerrors < d->max_shown;
}

/* Count one report; false when it is past the limit for its severity and
 * so neither printed nor formatted (the note saying so is the limit + 1st). */
static bool count_report(struct pmu_diag *d, enum pmu_severity sev)
{
	int count = sev == PMU_SEV_ERROR ? ++d->nerrors : ++d->nwarnings;
	return d->max_shown <= 0 || count <= d->max_shown + 1 ||
	       (sev == PMU_SEV_ERROR && count == 1);
}

static void print_line(const struct pmu_diag *d, enum pmu_severity sev, const char *line)
{
	int count = sev == PMU_SEV_ERROR ? d->nerrors : d->nwarnings;
	if (!d->out)
		return;
	if (d->max_shown > 0 && count == d->max_shown + 1)
		fprintf(d->out, "%s: note: more than %d %ss; the rest are counted, not shown\n",
			d->program ? d->program : "pmu", d->max_shown,
			sev == PMU_SEV_ERROR ? "error" : "warning");
	else
		fprintf(d->out, "%s\n", line);
}

/* The first error as library callers get it: the line, and its place. */
static void keep_first_error(struct pmu_diag *d, const struct pmu_pos *pos, const char *line)
{
	pmurt_set_error(&d->first, -EINVAL, "%s", line);
	if (pos && pos->file)
		pmurt_error_place(&d->first, pos->file, pos->line, pos->col);
}

static enum pmu_severity vreport(struct pmu_diag *d, int check,
				 enum pmu_severity sev, const struct pmu_pos *pos,
				 const char *fmt, va_list ap)
{
	if (sev == PMU_SEV_OFF || !count_report(d, sev))
		return sev;
	char place[512], msg[1024], line[1700];
	format_place(d, pos, place, sizeof(place));
	vsnprintf(msg, sizeof(msg), fmt, ap);
	char tag[64] = "";
	if (check >= 0)
		snprintf(tag, sizeof(tag), " [%s%s]", sev == PMU_SEV_ERROR ? "-E" : "-W",
			 pmu_check_name(check));
	snprintf(line, sizeof(line), "%s: %s: %s%s", place,
		 sev == PMU_SEV_ERROR ? "error" : "warning", msg, tag);
	if (sev == PMU_SEV_ERROR && d->nerrors == 1)
		keep_first_error(d, pos, line);
	print_line(d, sev, line);
	return sev;
}

enum pmu_severity pmu_report(struct pmu_diag *d, int check,
			     const struct pmu_pos *pos, const char *fmt, ...)
{
	enum pmu_severity sev = check >= 0 && check < PMU_CHK_COUNT
					? d->level[check] : PMU_SEV_ERROR;
	va_list ap;
	va_start(ap, fmt);
	sev = vreport(d, check, sev, pos, fmt, ap);
	va_end(ap);
	return sev;
}

int pmu_report_oom(struct pmu_diag *d, const struct pmu_pos *pos)
{
	d->out_of_memory = true;
	pmu_report(d, -1, pos, "out of memory");
	return -ENOMEM;
}

int pmu_diag_rc(const struct pmu_diag *d, int rc)
{
	return rc && d->out_of_memory ? -ENOMEM : rc;
}

enum pmu_severity pmu_report_warning(struct pmu_diag *d, const struct pmu_pos *pos,
				     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum pmu_severity sev = vreport(d, -1, PMU_SEV_WARNING, pos, fmt, ap);
	va_end(ap);
	return sev;
}

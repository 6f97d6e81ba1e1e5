/*
 * pmu_diag.h - diagnostics: how loaders and semantic checks report problems.
 *
 * Every problem is reported as "file:line:col: error: message [-Wname]" (or
 * "warning:"), like dtc and compilers do.  Semantic checks have names and can
 * be switched off or promoted to errors (pmugen -W no-NAME, -E NAME), as
 * dtc's checks can.
 */
#ifndef PMU_DIAG_H
#define PMU_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "pmu_model.h"

enum pmu_severity { PMU_SEV_OFF, PMU_SEV_WARNING, PMU_SEV_ERROR };

/* The named semantic checks (validate/checks.c); see pmu_check_names[]. */
enum pmu_check_id {
	PMU_CHK_FIELD_OVERLAP,      /* overlapping-fields */
	PMU_CHK_FIELD_RANGE,        /* field-range: outside 64 bits */
	PMU_CHK_BITS_LENGTH,        /* bits-length: range and length disagree */
	PMU_CHK_UNKNOWN_REF,        /* unknown-reference */
	PMU_CHK_DUP_EVENT_NAME,     /* duplicate-event-name */
	PMU_CHK_DUP_EVENT_CODE,     /* duplicate-event-code */
	PMU_CHK_UNCOVERED_BITS,     /* uncovered-bits */
	PMU_CHK_PMC_RANGE,          /* pmc-range */
	PMU_CHK_FIXED_COUNTER,      /* fixed-counter-event */
	PMU_CHK_CONSTRAINT_FIELD,   /* constraint-field */
	PMU_CHK_UNSCHEDULABLE,      /* unschedulable-event */
	PMU_CHK_KERNEL_LIMITS,      /* kernel-limits */
	PMU_CHK_REGISTER_LAYOUT,    /* register-layout: register fields overlap or exceed width */
	PMU_CHK_TRANSFORM_ENCODING, /* transform-encoding: a mantissa-exponent encoding that
	                               does not fit where it goes */
	PMU_CHK_PRESET_MEMBERS,     /* preset-members: a derived preset whose events
	                               cannot be counted together */
	PMU_CHK_RFC,                /* rfc: what the kernel RFC's parser cannot say or
	                               reads differently (off unless asked for) */
	PMU_CHK_COUNT
};

/* At most this many errors and this many warnings are printed (like gcc's
 * -fmax-errors); later ones are still counted.  A note says so once. */
#define PMU_DIAG_MAX_SHOWN 100

struct pmu_diag {
	const char *program;        /* prefix for messages without a position */
	FILE *out;                  /* where reports go (stderr); NULL: nowhere */
	enum pmu_severity level[PMU_CHK_COUNT];
	int nerrors;
	int nwarnings;
	int max_shown;              /* per severity; 0: no limit (default PMU_DIAG_MAX_SHOWN) */
	struct pmurt_error first;   /* the first error, for library callers: the
	                               line printed, and its file, line, column */
	bool out_of_memory;         /* an allocation failed (pmu_report_oom) */
};

/* Default levels: every check is an error except kernel-limits, which is a
 * warning (it only matters for trees handed to the kernel). */
void pmu_diag_init(struct pmu_diag *d, FILE *out);

/* Report a problem at pos.  check < 0: a syntax/structure error that cannot
 * be switched off.  Returns the severity actually used. */
enum pmu_severity pmu_report(struct pmu_diag *d, int check,
			     const struct pmu_pos *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
enum pmu_severity pmu_report_warning(struct pmu_diag *d,
				     const struct pmu_pos *pos,
				     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether the next error would still be printed (or kept as first
 * when nothing is printed): callers skip costly extras
 * ("did you mean" searches) for errors that are only counted. */
bool pmu_diag_shows_errors(const struct pmu_diag *d);
/* Report that an allocation failed and note it in d->out_of_memory, so that
 * a loader returns -ENOMEM however its callers combined their codes (see
 * pmu_diag_rc).  Returns -ENOMEM. */
int pmu_report_oom(struct pmu_diag *d, const struct pmu_pos *pos);
/* A loader's or checker's failing rc as the caller should see it: -ENOMEM
 * when an allocation failed, else rc. */
int pmu_diag_rc(const struct pmu_diag *d, int rc);

const char *pmu_check_name(enum pmu_check_id id);
int pmu_check_lookup(const char *name); /* -1 if unknown */

#endif /* PMU_DIAG_H */

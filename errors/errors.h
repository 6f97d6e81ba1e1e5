/*
 * errors.h - the one error type's helpers: libpmurt, its loaders and pmugen
 * report into the public struct pmurt_error (include/pmurt.h), with the
 * place it is about when there is one, as jansson's json_error_t carries
 * it: bytes of an event string, or a file (or device-tree node) with line
 * and column.  Within one call the first error is the one kept.  Not
 * installed.
 */
#ifndef PMU_ERRORS_H
#define PMU_ERRORS_H

#include <stdarg.h>
#include <stddef.h>

#include "pmurt.h"

/* Internal functions of libpmurt: never exported. */
#define PMURT_HIDDEN __attribute__((visibility("hidden")))

/* Every public function taking a pmurt_error clears it on entry, so a
 * reused struct never reports an earlier call's error.  Inline and three
 * stores, not the whole message: cheap enough for per-record calls
 * (pmurt_dtl_next, pmurt_perf_next). */
static inline void pmurt_clear_error(struct pmurt_error *err)
{
	if (err) {
		err->code = 0;
		err->message[0] = '\0';
		err->where = PMURT_ERROR_NOWHERE;
	}
}

/* Printf into err unless it already holds an error (the first one wins); a
 * message too long ends with "..." (pmu_mark_truncated).  err may be NULL. */
PMURT_HIDDEN void pmurt_set_error(struct pmurt_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
PMURT_HIDDEN void pmurt_set_verror(struct pmurt_error *err, int code, const char *fmt,
				   va_list ap) __attribute__((format(printf, 3, 0)));
/* The same, about the bytes str[offset, offset + length) of an event
 * string (where PMURT_ERROR_STRING). */
PMURT_HIDDEN void pmurt_set_error_at(struct pmurt_error *err, int code, size_t offset,
				     size_t length, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* src's error (message and place) into err under code (the first one
 * wins), as a call hands on what a step below it reported. */
PMURT_HIDDEN void pmurt_set_error_from(struct pmurt_error *err, int code,
				       const struct pmurt_error *src);
/* Set the place of the error err holds: a description's file (or node
 * path) source, line and column, 1-based, 0 when unknown (where
 * PMURT_ERROR_FILE).  A source too long for the struct keeps its end. */
PMURT_HIDDEN void pmurt_error_place(struct pmurt_error *err, const char *source, int line,
				    int column);

/* A NUL-terminated string that snprintf cut to fit buf[size]: end it with
 * "..." before the last whole UTF-8 character that fits, so the text is
 * still valid UTF-8 and visibly shortened. */
PMURT_HIDDEN void pmu_mark_truncated(char *buf, size_t size);

#endif /* PMU_ERRORS_H */

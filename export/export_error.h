/*
 * export_error.h - how the exporters' writers fill the caller's error
 * object (pmurt.h's convention: a negative errno and a message).
 */
#ifndef PMU_EXPORT_ERROR_H
#define PMU_EXPORT_ERROR_H

#include <stdarg.h>

#include "pmurt.h"

/* err (may be NULL) gets code and the message; returns code. */
int export_verror(struct pmurt_error *err, int code, const char *fmt, va_list ap);

#endif /* PMU_EXPORT_ERROR_H */

/*
 * export_error.c - the exporters' error filling (export_error.h).
 */
#include <stdio.h>

#include "export_error.h"

int export_verror(struct pmurt_error *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
	}
	return code;
}

/*
 * errors.c - filling a struct pmurt_error (errors.h): the first error's
 * code and message, the message cut visibly when too long, and the place
 * it is about.
 */
#include <stdio.h>
#include <string.h>

#include "errors.h"

/* 0.4's struct had a 512-byte message; it shrank to give the place room,
 * so that callers built against either header pass the same size. */
_Static_assert(sizeof(struct pmurt_error) == sizeof(int) + 512,
	       "struct pmurt_error keeps its size");

void pmu_mark_truncated(char *buf, size_t size)
{
	static const char mark[] = "...";
	if (size < sizeof(mark))
		return;
	size_t cut = size - sizeof(mark); /* room for "..." and its NUL */
	/* back off UTF-8 continuation bytes (10xxxxxx): the cut falls before
	 * the whole character */
	while (cut > 0 && ((unsigned char)buf[cut] & 0xc0) == 0x80)
		cut--;
	memcpy(buf + cut, mark, sizeof(mark));
}

void pmurt_set_verror(struct pmurt_error *err, int code, const char *fmt, va_list ap)
{
	if (!err || err->code)
		return;
	int n = vsnprintf(err->message, sizeof(err->message), fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof(err->message))
		pmu_mark_truncated(err->message, sizeof(err->message));
	err->code = code;
	err->where = PMURT_ERROR_NOWHERE;
}

void pmurt_set_error(struct pmurt_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pmurt_set_verror(err, code, fmt, ap);
	va_end(ap);
}

/* A size for the struct's int fields, saturating. */
static int clamp(size_t v)
{
	return v > (size_t)__INT_MAX__ ? __INT_MAX__ : (int)v;
}

void pmurt_set_error_at(struct pmurt_error *err, int code, size_t offset, size_t length,
			const char *fmt, ...)
{
	if (!err || err->code)
		return;
	va_list ap;
	va_start(ap, fmt);
	pmurt_set_verror(err, code, fmt, ap);
	va_end(ap);
	err->where = PMURT_ERROR_STRING;
	err->offset = clamp(offset);
	err->length = clamp(length);
}

void pmurt_set_error_from(struct pmurt_error *err, int code, const struct pmurt_error *src)
{
	if (!err || err->code)
		return;
	*err = *src;
	err->code = code;
}

void pmurt_error_place(struct pmurt_error *err, const char *source, int line, int column)
{
	if (!err)
		return;
	size_t n = source ? strlen(source) : 0, room = sizeof(err->source) - 1;
	err->where = PMURT_ERROR_FILE;
	err->line = line > 0 ? line : 0;
	err->column = column > 0 ? column : 0;
	if (n <= room) {
		memcpy(err->source, source ? source : "", n + 1);
		return;
	}
	/* the end names the file: "...pmus/power10.yaml" */
	const char *tail = source + n - (room - 3);
	while (((unsigned char)*tail & 0xc0) == 0x80) /* a whole UTF-8 character */
		tail++;
	snprintf(err->source, sizeof(err->source), "...%s", tail);
}

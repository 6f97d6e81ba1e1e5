/*
 * record_buf.h - building perf records field by field for the perf.data
 * tests: a header, u32/u64 fields, strings, padding to 8 and the size.
 */
#ifndef PD_RECORD_BUF_H
#define PD_RECORD_BUF_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

struct buf {
	uint8_t b[4096];
	size_t n;
};

static inline void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static inline void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }

static inline void put32(struct buf *b, uint32_t v) { put(b, &v, 4); }

/* Starts a record: its header, size set by done(). */
static inline void start(struct buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = {type, misc, 0};
	b->n = 0;
	put(b, &h, sizeof(h));
}

/* Appends str (with its NUL) when not NULL, pads to 8, sets header.size. */
static inline const void *done(struct buf *b, const char *str)
{
	if (str)
		put(b, str, strlen(str) + 1);
	while (b->n % 8)
		b->b[b->n++] = 0;
	uint16_t size = (uint16_t)b->n;
	memcpy(b->b + 6, &size, 2);
	return b->b;
}

#endif /* PD_RECORD_BUF_H */

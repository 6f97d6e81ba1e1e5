/*
 * outbuf.h - a small buffer in front of an output stream, for the emitters
 * that write many short pieces (DTS, JSON): each piece is a memcpy into the
 * buffer, which goes to the stream in one fwrite whenever it is full, so
 * the output never sits whole in memory and no stdio call is made per
 * piece (for POWER10's DTS, stdio per piece cost more than the tree walk).
 */
#ifndef PMUGEN_OUTBUF_H
#define PMUGEN_OUTBUF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct outbuf {
	FILE *out;
	bool failed;    /* a write to out failed */
	size_t len;
	char data[16 * 1024];
};

/* A buffer for out, or NULL when out of memory; ob_close flushes it, frees
 * it and returns 0 or -EIO. */
struct outbuf *ob_open(FILE *out);
int ob_close(struct outbuf *b);
void ob_flush(struct outbuf *b);
void ob_write_long(struct outbuf *b, const char *s, size_t n);

static inline void ob_put(struct outbuf *b, const char *s, size_t n)
{
	if (b->len + n > sizeof(b->data)) {
		ob_write_long(b, s, n);
		return;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

static inline void ob_puts(struct outbuf *b, const char *s)
{
	ob_put(b, s, strlen(s));
}

static inline void ob_putc(struct outbuf *b, char c)
{
	if (b->len == sizeof(b->data))
		ob_flush(b);
	b->data[b->len++] = c;
}

/* v in decimal (base 10) or lower-case hex (base 16), as %llu and %llx. */
static inline void ob_digits(struct outbuf *b, uint64_t v, unsigned base)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	ob_put(b, p, (size_t)(buf + sizeof(buf) - p));
}

#endif /* PMUGEN_OUTBUF_H */

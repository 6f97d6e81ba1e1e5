/*
 * outbuf.c - the buffer in front of an output stream (see outbuf.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "outbuf.h"

struct outbuf *ob_open(FILE *out)
{
	struct outbuf *b = malloc(sizeof(*b));
	if (b) {
		b->out = out;
		b->failed = false;
		b->len = 0;
	}
	return b;
}

void ob_flush(struct outbuf *b)
{
	if (b->len && fwrite(b->data, 1, b->len, b->out) != b->len)
		b->failed = true;
	b->len = 0;
}

/* A piece that does not fit: what is buffered goes first, then the piece,
 * buffered when it fits an empty buffer, else written as it is. */
void ob_write_long(struct outbuf *b, const char *s, size_t n)
{
	ob_flush(b);
	if (n <= sizeof(b->data)) {
		memcpy(b->data, s, n);
		b->len = n;
	} else if (fwrite(s, 1, n, b->out) != n) {
		b->failed = true;
	}
}

int ob_close(struct outbuf *b)
{
	ob_flush(b);
	int rc = b->failed || fflush(b->out) != 0 ? -EIO : 0;
	free(b);
	return rc;
}

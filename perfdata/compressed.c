/*
 * compressed.c - the records of a `perf record -z` file: PERF_RECORD_COMPRESSED
 * payloads decompressed with libzstd, as perf 6.1 reads them
 * (tools/perf/util/zstd.c zstd_decompress_stream, session.c
 * perf_session__process_compressed_event).
 *
 * One zstd stream runs through the file's compressed records in file order.
 * Each record's payload decompresses into a chunk of its own, after a copy
 * of what the chunk before left unread (a record the ring's wrap split over
 * two compressed records: perf's decomp_last_rem); the records in a chunk
 * are then read in order.  Chunks are kept until the file is closed (as
 * perf keeps its decomp buffers), so a record read from one stays valid and
 * a reader can go back to it (pmurt_perf_seek).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perfdata.h"

/* The HEADER_COMPRESSED feature: u32 version, type, level, ratio,
 * mmap_len (header.c write_compressed / process_compressed). */
int pd_decomp_feature(struct pd_decomp *z, const uint8_t *p, uint64_t size, char *why,
		      size_t len)
{
	if (size < 20) {
		snprintf(why, len, "COMPRESSED feature of %llu bytes: shorter than its 20",
			 (unsigned long long)size);
		return -EINVAL;
	}
	z->type = pd_get32(p + 4);
	z->mmap_len = pd_get32(p + 16);
	z->described = true;
	/* perf's ring, what one compressed record holds decompressed: 1 GiB
	 * is far above any ring perf maps */
	if (z->mmap_len == 0 || z->mmap_len > (1u << 30)) {
		snprintf(why, len, "COMPRESSED feature: mmap_len %u is %s", z->mmap_len,
			 z->mmap_len ? "over 1 GiB" : "0");
		return -EINVAL;
	}
	return 0;
}

static int grow_chunks(struct pd_decomp *z)
{
	if (z->n < z->cap)
		return 0;
	size_t cap = z->cap ? 2 * z->cap : 16;
	struct pd_chunk *v = realloc(z->chunks, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	z->chunks = v;
	z->cap = cap;
	return 0;
}

/* zstd's block header (RFC 8878, 3.1.1.2): what the stream asks for next
 * when a payload stopped between blocks */
enum { ZSTD_BLOCK_HEADER = 3 };

/* Runs the payload through the stream into out: 0, or -EINVAL with why.
 * perf flushes the stream at each record's end (zstd.c
 * zstd_compress_stream_to_records: ZSTD_flushStream), one frame running
 * through them all: a payload ends between two blocks, where the stream
 * asks for a block header next (or, at a frame's end, for nothing). */
static int decompress(struct pd_decomp *z, const uint8_t *payload, size_t n, ZSTD_outBuffer *out,
		      char *why, size_t len)
{
	ZSTD_inBuffer in = {payload, n, 0};
	size_t rc = ZSTD_BLOCK_HEADER;
	while (in.pos < in.size) {
		rc = ZSTD_decompressStream(z->zstd, out, &in);
		if (ZSTD_isError(rc)) {
			snprintf(why, len, "compressed record: zstd: %s (payload byte %zu of %zu)",
				 ZSTD_getErrorName(rc), in.pos, n);
			return -EINVAL;
		}
		if (out->pos == out->size) {
			snprintf(why, len, "compressed record decompresses to more than the %u bytes "
				 "of the COMPRESSED feature's mmap_len", z->mmap_len);
			return -EINVAL;
		}
	}
	if (rc != 0 && rc != ZSTD_BLOCK_HEADER) {
		snprintf(why, len, "compressed record's %zu-byte payload stops inside a zstd block "
			 "(%zu bytes more expected): truncated?", n, rc);
		return -EINVAL;
	}
	return 0;
}

int pd_decomp_add(struct pd_decomp *z, uint64_t at, uint64_t next, const uint8_t *payload,
		  size_t n, char *why, size_t len)
{
	if (!z->described || z->type != 1) {   /* PERF_COMP_ZSTD */
		if (z->described)
			snprintf(why, len, "compressed record: the COMPRESSED feature's type %u "
				 "is not zstd (1)", z->type);
		else
			snprintf(why, len, "compressed record (perf record -z) in a file without "
				 "the COMPRESSED feature that describes it");
		return -EINVAL;
	}
	if (!z->zstd && !(z->zstd = ZSTD_createDStream()))
		return -ENOMEM;
	if (grow_chunks(z))
		return -ENOMEM;
	const struct pd_chunk *last = z->n ? &z->chunks[z->cur] : NULL;
	size_t rest = last && z->pos < last->len ? last->len - z->pos : 0;
	/* one byte more than mmap_len: a payload that fills it is too long */
	size_t cap = rest + z->mmap_len + 1;
	uint8_t *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	if (rest)
		memcpy(buf, last->buf + z->pos, rest);
	ZSTD_outBuffer out = {buf, cap, rest};
	int rc = decompress(z, payload, n, &out, why, len);
	uint8_t *fit = rc ? NULL : realloc(buf, out.pos ? out.pos : 1);
	if (!fit) {
		free(buf);
		return rc ? rc : -ENOMEM;
	}
	z->chunks[z->n] = (struct pd_chunk){.record = at, .next = next, .buf = fit, .len = out.pos};
	z->cur = z->n++;
	z->pos = 0;
	return 0;
}

/* The chunk of the compressed record at file offset at: its index, or -1. */
long pd_decomp_find(const struct pd_decomp *z, uint64_t at)
{
	size_t lo = 0, hi = z->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (z->chunks[mid].record < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < z->n && z->chunks[lo].record == at ? (long)lo : -1;
}

void pd_decomp_free(struct pd_decomp *z)
{
	for (size_t i = 0; i < z->n; i++)
		free(z->chunks[i].buf);
	free(z->chunks);
	ZSTD_freeDStream(z->zstd);
	memset(z, 0, sizeof(*z));
}

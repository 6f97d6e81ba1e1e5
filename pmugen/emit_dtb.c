/*
 * emit_dtb.c - DTB output: a dt_tree sink that writes the flattened tree
 * (Devicetree Specification v0.4, ch. 5; libfdt's fdt.h for the tags and
 * header) straight in the layout `dtc -I dts -O dtb` gives emit_dts's
 * output, so the two are byte-identical.
 *
 * The structure block grows in one buffer as the walk goes; each property
 * name is placed in the strings block as dtc places it (dtc flattree.c
 * stringtable_insert: a name already stored, or the tail of one, is shared,
 * else appended), found again through a hash, since a tree has few distinct
 * names but thousands of properties.  libfdt's sequential-write API, used
 * before, zeroes its whole buffer at fdt_create and again at each doubling,
 * and puts names in front of its strings block, so the block had to be
 * rebuilt and every name offset rewritten afterwards; for POWER10's events
 * the buffer alone was 62 of pmugen's ~370 fresh pages.
 */
#include <errno.h>
#include <libfdt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_tree.h"
#include "emit.h"

#define DTB_INITIAL_SIZE (64 * 1024)
/* The structure block's first size: POWER10's takes 20 KiB for the PMU and
 * 264 bytes per event (all 680 written: 199 KB) */
#define DTB_BASE_SIZE (24 * 1024)
#define DTB_EVENT_SIZE 288
#define DTB_MAX_SIZE (256 * 1024 * 1024)
/* dtc's header version and the oldest it stays compatible with */
#define DTB_VERSION 17
#define DTB_LAST_COMP_VERSION 16
/* n rounded up to whole 4-byte cells (libfdt_internal.h FDT_TAGALIGN) */
#define TAG_ALIGN(n) (((n) + FDT_TAGSIZE - 1) & ~(size_t)(FDT_TAGSIZE - 1))

struct bytes {
	char *data;
	size_t len, cap;
};

/* Room for n more bytes; false when out of memory or past DTB_MAX_SIZE. */
static bool bytes_reserve(struct bytes *b, size_t n)
{
	if (b->len + n <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : DTB_INITIAL_SIZE;
	while (cap < b->len + n)
		cap *= 2;
	if (cap > DTB_MAX_SIZE)
		return false;
	char *grown = realloc(b->data, cap);
	if (!grown)
		return false;
	b->data = grown;
	b->cap = cap;
	return true;
}

/* --- dtc's strings block ----------------------------------------------------- */

/* dtc flattree.c stringtable_insert: reuse any stored string that ends with
 * str (tail sharing), else append. Returns the offset or -1 (no memory). */
static long strtab_insert(struct bytes *t, const char *str)
{
	size_t l = strlen(str) + 1;

	for (size_t i = 0; i + l <= t->len; i++)
		if (memcmp(t->data + i, str, l) == 0)
			return (long)i;
	if (!bytes_reserve(t, l))
		return -1;
	memcpy(t->data + t->len, str, l);
	t->len += l;
	return (long)(t->len - l);
}

/* Property name -> dtc name offset, for names already placed.  Open
 * addressing on FNV-1a over the offsets (a slot's name is the string at
 * its offset in the block); when half full, names are placed without it
 * (still correct). */
#define MEMO_SLOTS 1024

struct name_memo {
	int n;
	long to[MEMO_SLOTS]; /* offset + 1; 0: an empty slot */
};

static unsigned memo_slot(const struct name_memo *memo, const struct bytes *t,
			  const char *name)
{
	uint32_t h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	unsigned i = h & (MEMO_SLOTS - 1);
	while (memo->to[i] && strcmp(t->data + memo->to[i] - 1, name) != 0)
		i = (i + 1) & (MEMO_SLOTS - 1);
	return i;
}

static long name_offset(struct name_memo *memo, struct bytes *t, const char *name)
{
	if (memo->n >= MEMO_SLOTS / 2)
		return strtab_insert(t, name);
	unsigned i = memo_slot(memo, t, name);
	if (!memo->to[i]) {
		long at = strtab_insert(t, name);
		if (at < 0)
			return at;
		memo->to[i] = at + 1;
		memo->n++;
	}
	return memo->to[i] - 1;
}

/* --- the structure block ------------------------------------------------------ */

struct dtb_sink {
	struct bytes st;        /* the structure block */
	struct bytes strings;   /* the strings block, in dtc's order */
	struct name_memo memo;
};

static int no_room(struct pmurt_error *err)
{
	pmurt_set_error(err, -ENOMEM, "out of memory for the DTB (or larger than %d bytes)",
			DTB_MAX_SIZE);
	return -ENOMEM;
}

static void put_u32(struct bytes *b, uint32_t v)
{
	fdt32_t be = cpu_to_fdt32(v);
	memcpy(b->data + b->len, &be, sizeof(be));
	b->len += sizeof(be);
}

/* n bytes, then zeros up to the next 4-byte boundary (FDT_TAGALIGN). */
static void put_padded(struct bytes *b, const void *p, size_t n)
{
	size_t padded = TAG_ALIGN(n);
	memcpy(b->data + b->len, p, n);
	memset(b->data + b->len + n, 0, padded - n);
	b->len += padded;
}

static int dtb_begin(void *ctx, const char *name, struct pmurt_error *err)
{
	struct dtb_sink *s = ctx;
	size_t n = strlen(name) + 1;

	if (!bytes_reserve(&s->st, FDT_TAGSIZE + TAG_ALIGN(n)))
		return no_room(err);
	put_u32(&s->st, FDT_BEGIN_NODE);
	put_padded(&s->st, name, n);
	return 0;
}

static int dtb_end(void *ctx, struct pmurt_error *err)
{
	struct dtb_sink *s = ctx;

	if (!bytes_reserve(&s->st, FDT_TAGSIZE))
		return no_room(err);
	put_u32(&s->st, FDT_END_NODE);
	return 0;
}

/* The tag, length and name offset of a property whose len value bytes
 * follow (room for them included). */
static int prop_head(struct dtb_sink *s, const char *name, size_t len,
		     struct pmurt_error *err)
{
	if (len > DTB_MAX_SIZE)
		return no_room(err);
	long nameoff = name_offset(&s->memo, &s->strings, name);
	if (nameoff < 0 || !bytes_reserve(&s->st, sizeof(struct fdt_property) +
					  TAG_ALIGN(len)))
		return no_room(err);
	put_u32(&s->st, FDT_PROP);
	put_u32(&s->st, (uint32_t)len);
	put_u32(&s->st, (uint32_t)nameoff);
	return 0;
}

static int dtb_u32s(void *ctx, const char *name, const uint32_t *cells,
		    int ncells, enum dt_radix radix, struct pmurt_error *err)
{
	struct dtb_sink *s = ctx;

	(void)radix;
	if (ncells < 0 || ncells > 64) {
		pmurt_set_error(err, -EINVAL, "property %s: %d cells", name, ncells);
		return -EINVAL;
	}
	int rc = prop_head(s, name, (size_t)ncells * FDT_TAGSIZE, err);
	for (int i = 0; !rc && i < ncells; i++)
		put_u32(&s->st, cells[i]);
	return rc;
}

static int dtb_strings(void *ctx, const char *name, const char *const *strs,
		       int n, struct pmurt_error *err)
{
	struct dtb_sink *s = ctx;
	size_t len = 0, at = s->st.len + sizeof(struct fdt_property);

	for (int i = 0; i < n; i++)
		len += strlen(strs[i]) + 1;
	int rc = prop_head(s, name, len, err);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(strs[i]) + 1;
		memcpy(s->st.data + at, strs[i], l);
		at += l;
	}
	memset(s->st.data + at, 0, TAG_ALIGN(len) - len);
	s->st.len += TAG_ALIGN(len);
	return 0;
}

static int dtb_flag(void *ctx, const char *name, struct pmurt_error *err)
{
	return prop_head(ctx, name, 0, err);
}

static const struct dt_sink_ops dtb_ops = {
	.begin_node = dtb_begin,
	.end_node = dtb_end,
	.prop_u32s = dtb_u32s,
	.prop_strings = dtb_strings,
	.prop_flag = dtb_flag,
};

/* --- the blob ------------------------------------------------------------------ */

/* dtc flattree.c dt_to_blob: the header, the reserve map (one terminating
 * entry) at the header's size rounded up to 8, the structure block, then
 * the strings block. */
static int write_blob(const struct dtb_sink *s, FILE *out, struct pmurt_error *err)
{
	static const struct fdt_reserve_entry none;
	uint32_t rsv = (sizeof(struct fdt_header) + 7u) & ~7u;
	uint32_t st = rsv + (uint32_t)sizeof(none);
	uint32_t strings = st + (uint32_t)s->st.len;
	struct fdt_header h;

	if (s->st.len + s->strings.len > DTB_MAX_SIZE)
		return no_room(err);
	memset(&h, 0, sizeof(h));
	fdt_set_magic(&h, FDT_MAGIC);
	fdt_set_totalsize(&h, strings + (uint32_t)s->strings.len);
	fdt_set_off_dt_struct(&h, st);
	fdt_set_off_dt_strings(&h, strings);
	fdt_set_off_mem_rsvmap(&h, rsv);
	fdt_set_version(&h, DTB_VERSION);
	fdt_set_last_comp_version(&h, DTB_LAST_COMP_VERSION);
	fdt_set_size_dt_strings(&h, (uint32_t)s->strings.len);
	fdt_set_size_dt_struct(&h, (uint32_t)s->st.len);
	if (fwrite(&h, 1, sizeof(h), out) != sizeof(h) ||
	    fwrite("\0\0\0\0\0\0\0", 1, rsv - sizeof(h), out) != rsv - sizeof(h) ||
	    fwrite(&none, 1, sizeof(none), out) != sizeof(none) ||
	    fwrite(s->st.data, 1, s->st.len, out) != s->st.len ||
	    (s->strings.len &&
	     fwrite(s->strings.data, 1, s->strings.len, out) != s->strings.len) ||
	    fflush(out) != 0) {
		pmurt_set_error(err, -EIO, "cannot write the DTB output");
		return -EIO;
	}
	return 0;
}

int emit_dtb(const struct pmu_model *m, const struct emit_options *o,
	     FILE *out, struct pmurt_error *err)
{
	struct dtb_sink *s = calloc(1, sizeof(*s));
	if (!s)
		return no_room(err);
	struct dt_sink sink = { .ops = &dtb_ops, .ctx = s };
	/* one block of about the final size rather than a chain of copies */
	s->st.cap = DTB_BASE_SIZE + (size_t)m->nevents * DTB_EVENT_SIZE;
	s->st.data = malloc(s->st.cap);
	if (!s->st.data)
		s->st.cap = 0;
	int rc = dt_tree_walk(m, o, &sink, err);
	if (!rc && !bytes_reserve(&s->st, FDT_TAGSIZE))
		rc = no_room(err);
	if (!rc) {
		put_u32(&s->st, FDT_END);
		rc = write_blob(s, out, err);
	}
	free(s->st.data);
	free(s->strings.data);
	free(s);
	return rc;
}

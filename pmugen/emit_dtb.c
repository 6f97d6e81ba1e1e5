/*
 * emit_dtb.c - DTB output: a dt_tree sink that builds the blob with libfdt's
 * sequential-write API, then lays the string block out as dtc does, so the
 * blob is byte-identical to `dtc -I dts -O dtb` of emit_dts's output.
 *
 * The one difference between the two writers is the strings block: dtc
 * appends each new name, sharing it when it is a suffix of one already stored
 * (dtc flattree.c stringtable_insert); libfdt's sequential-write mode puts
 * new names in front and searches the whole block for every property, which
 * for a few thousand properties cost more than the rest of the DTB.  So the
 * tree is built with FDT_CREATE_FLAG_NO_NAME_DEDUP (each property keeps its
 * own copy of its name, no search), and after fdt_finish() the block is
 * rebuilt in dtc's order, each distinct name placed once through a hash, and
 * every property's name offset rewritten.
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
#define DTB_MAX_SIZE (256 * 1024 * 1024)

struct dtb_sink {
	void *buf;
	int size;
};

static int fdt_fail(struct pmu_error *err, const char *what, int rc)
{
	pmu_error_set(err, rc == -FDT_ERR_NOSPACE ? -ENOMEM : -EINVAL,
		      "libfdt %s: %s", what, fdt_strerror(rc));
	return rc == -FDT_ERR_NOSPACE ? -ENOMEM : -EINVAL;
}

/* Double the buffer (fdt_resize moves the partial tree into it). */
static int grow(struct dtb_sink *s, struct pmu_error *err)
{
	void *nbuf;
	int rc;

	if (s->size >= DTB_MAX_SIZE / 2) {
		pmu_error_set(err, -ENOMEM, "device tree larger than %d bytes",
			      DTB_MAX_SIZE);
		return -ENOMEM;
	}
	nbuf = calloc(1, (size_t)s->size * 2);
	if (!nbuf) {
		pmu_error_set(err, -ENOMEM, "out of memory for the DTB");
		return -ENOMEM;
	}
	rc = fdt_resize(s->buf, nbuf, s->size * 2);
	if (rc < 0) {
		free(nbuf);
		return fdt_fail(err, "fdt_resize", rc);
	}
	free(s->buf);
	s->buf = nbuf;
	s->size *= 2;
	return 0;
}

/* Retry a libfdt call after growing the buffer while it reports NOSPACE. */
#define FDT_RETRY(s, err, what, call)                         \
	do {                                                      \
		int r_;                                               \
		while ((r_ = (call)) == -FDT_ERR_NOSPACE) {           \
			int g_ = grow((s), (err));                        \
			if (g_ < 0)                                       \
				return g_;                                    \
		}                                                     \
		if (r_ < 0)                                           \
			return fdt_fail((err), (what), r_);               \
	} while (0)

static int dtb_begin(void *ctx, const char *name, struct pmu_error *err)
{
	struct dtb_sink *s = ctx;

	FDT_RETRY(s, err, "fdt_begin_node", fdt_begin_node(s->buf, name));
	return 0;
}

static int dtb_end(void *ctx, struct pmu_error *err)
{
	struct dtb_sink *s = ctx;

	FDT_RETRY(s, err, "fdt_end_node", fdt_end_node(s->buf));
	return 0;
}

static int dtb_u32s(void *ctx, const char *name, const uint32_t *cells,
		    int ncells, enum dt_radix radix, struct pmu_error *err)
{
	struct dtb_sink *s = ctx;
	fdt32_t be[64];

	(void)radix;
	if (ncells < 0 || ncells > 64) {
		pmu_error_set(err, -EINVAL, "property %s: %d cells", name, ncells);
		return -EINVAL;
	}
	for (int i = 0; i < ncells; i++)
		be[i] = cpu_to_fdt32(cells[i]);
	FDT_RETRY(s, err, "fdt_property",
		  fdt_property(s->buf, name, be, ncells * (int)sizeof(be[0])));
	return 0;
}

static int dtb_strings(void *ctx, const char *name, const char *const *strs,
		       int n, struct pmu_error *err)
{
	struct dtb_sink *s = ctx;
	size_t len = 0, at = 0;
	char *val;

	for (int i = 0; i < n; i++)
		len += strlen(strs[i]) + 1;
	if (len > (size_t)DTB_MAX_SIZE) {
		pmu_error_set(err, -EINVAL, "property %s too long", name);
		return -EINVAL;
	}
	val = malloc(len ? len : 1);
	if (!val) {
		pmu_error_set(err, -ENOMEM, "out of memory for the DTB");
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		size_t l = strlen(strs[i]) + 1;

		memcpy(val + at, strs[i], l);
		at += l;
	}
	{
		int r;

		while ((r = fdt_property(s->buf, name, val, (int)len)) ==
		       -FDT_ERR_NOSPACE) {
			int g = grow(s, err);

			if (g < 0) {
				free(val);
				return g;
			}
		}
		free(val);
		if (r < 0)
			return fdt_fail(err, "fdt_property", r);
	}
	return 0;
}

static int dtb_flag(void *ctx, const char *name, struct pmu_error *err)
{
	struct dtb_sink *s = ctx;

	FDT_RETRY(s, err, "fdt_property", fdt_property(s->buf, name, NULL, 0));
	return 0;
}

static const struct dt_sink_ops dtb_ops = {
	.begin_node = dtb_begin,
	.end_node = dtb_end,
	.prop_u32s = dtb_u32s,
	.prop_strings = dtb_strings,
	.prop_flag = dtb_flag,
};

/* --- dtc's strings block ----------------------------------------------------- */

struct strtab {
	char *data;
	size_t len, cap;
};

/* dtc flattree.c stringtable_insert: reuse any stored string that ends with
 * str (tail sharing), else append. Returns the offset or -1 (no memory). */
static long strtab_insert(struct strtab *t, const char *str)
{
	size_t l = strlen(str) + 1;

	for (size_t i = 0; i + l <= t->len; i++)
		if (memcmp(t->data + i, str, l) == 0)
			return (long)i;
	if (t->len + l > t->cap) {
		size_t ncap = (t->cap ? t->cap * 2 : 1024) + l;
		char *n = realloc(t->data, ncap);

		if (!n)
			return -1;
		t->data = n;
		t->cap = ncap;
	}
	memcpy(t->data + t->len, str, l);
	t->len += l;
	return (long)(t->len - l);
}

/* Property name -> dtc name offset, for names already placed: a tree has few
 * distinct property names but thousands of properties.  Open addressing on
 * FNV-1a; when full, names are placed without it (still correct). */
#define MEMO_SLOTS 1024

struct name_memo {
	int n;
	const char *name[MEMO_SLOTS];
	long to[MEMO_SLOTS];
};

static unsigned memo_slot(const struct name_memo *memo, const char *name)
{
	uint32_t h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	unsigned i = h & (MEMO_SLOTS - 1);
	while (memo->name[i] && strcmp(memo->name[i], name) != 0)
		i = (i + 1) & (MEMO_SLOTS - 1);
	return i;
}

static long name_offset(struct name_memo *memo, struct strtab *t, const char *name)
{
	if (memo->n >= MEMO_SLOTS / 2)
		return strtab_insert(t, name);
	unsigned i = memo_slot(memo, name);
	if (!memo->name[i]) {
		long at = strtab_insert(t, name);
		if (at < 0)
			return at;
		memo->name[i] = name;
		memo->to[i] = at;
		memo->n++;
	}
	return memo->to[i];
}

/* Rewrite every property's name offset for dtc's strings block; the new
 * block goes into t.  (The tree was built without libfdt's name sharing,
 * a linear search per property: every property has its own copy.) */
static int dtc_strings(void *fdt, struct strtab *t, struct pmu_error *err)
{
	int offset = 0, next;
	uint32_t tag;
	struct name_memo *memo = calloc(1, sizeof(*memo));

	if (!memo) {
		pmu_error_set(err, -ENOMEM, "out of memory for the DTB");
		return -ENOMEM;
	}
	int rc = 0;
	while (!rc && (tag = fdt_next_tag(fdt, offset, &next)) != FDT_END) {
		if (next < 0) {
			rc = fdt_fail(err, "fdt_next_tag", next);
			break;
		}
		if (tag == FDT_PROP) {
			struct fdt_property *p =
				fdt_offset_ptr_w(fdt, offset, sizeof(*p));
			const char *name = p ? fdt_string(fdt, (int)fdt32_to_cpu(p->nameoff)) : NULL;
			long at = name ? name_offset(memo, t, name) : 0;

			if (!name)
				rc = fdt_fail(err, "fdt_string", -FDT_ERR_BADSTRUCTURE);
			else if (at < 0) {
				rc = -ENOMEM;
				pmu_error_set(err, rc, "out of memory for the DTB");
			} else
				p->nameoff = cpu_to_fdt32((uint32_t)at);
		}
		offset = next;
	}
	free(memo);
	return rc;
}

/* Write the blob in dtc's layout (dtc flattree.c dt_to_blob): the header,
 * the reserve map at the header's size rounded up to 8 (libfdt rounds to
 * 16), the structure block, then t as the strings block. */
static int write_blob(void *fdt, const struct strtab *t, FILE *out,
		      struct pmu_error *err)
{
	const char *base = fdt;
	uint32_t rsv_off = fdt_off_mem_rsvmap(fdt);
	uint32_t rsv_len = fdt_off_dt_struct(fdt) - rsv_off;
	uint32_t struct_len = fdt_size_dt_struct(fdt);
	uint32_t new_rsv = (sizeof(struct fdt_header) + 7u) & ~7u;
	uint32_t new_struct = new_rsv + rsv_len;
	uint32_t new_strings = new_struct + struct_len;
	struct fdt_header h;

	memcpy(&h, fdt, sizeof(h));
	fdt_set_off_mem_rsvmap(&h, new_rsv);
	fdt_set_off_dt_struct(&h, new_struct);
	fdt_set_off_dt_strings(&h, new_strings);
	fdt_set_size_dt_strings(&h, (uint32_t)t->len);
	fdt_set_totalsize(&h, new_strings + (uint32_t)t->len);
	if (fwrite(&h, 1, sizeof(h), out) != sizeof(h) ||
	    fwrite("\0\0\0\0\0\0\0", 1, new_rsv - sizeof(h), out) !=
		    new_rsv - sizeof(h) ||
	    fwrite(base + rsv_off, 1, rsv_len, out) != rsv_len ||
	    fwrite(base + fdt_off_dt_struct(fdt), 1, struct_len, out) != struct_len ||
	    (t->len && fwrite(t->data, 1, t->len, out) != t->len) ||
	    fflush(out) != 0) {
		pmu_error_set(err, -EIO, "cannot write the DTB output");
		return -EIO;
	}
	return 0;
}

static int build(struct dtb_sink *s, const struct pmu_model *m,
		 const struct emit_options *o, struct pmu_error *err)
{
	struct dt_sink sink = { .ops = &dtb_ops, .ctx = s };
	int rc;

	FDT_RETRY(s, err, "fdt_create",
		  fdt_create_with_flags(s->buf, s->size, FDT_CREATE_FLAG_NO_NAME_DEDUP));
	FDT_RETRY(s, err, "fdt_finish_reservemap", fdt_finish_reservemap(s->buf));
	rc = dt_tree_walk(m, o, &sink, err);
	if (rc < 0)
		return rc;
	FDT_RETRY(s, err, "fdt_finish", fdt_finish(s->buf));
	return 0;
}

int emit_dtb(const struct pmu_model *m, const struct emit_options *o,
	     FILE *out, struct pmu_error *err)
{
	struct dtb_sink s = { .size = DTB_INITIAL_SIZE };
	struct strtab t = { 0 };
	int rc;

	s.buf = calloc(1, (size_t)s.size);
	if (!s.buf) {
		pmu_error_set(err, -ENOMEM, "out of memory for the DTB");
		return -ENOMEM;
	}
	rc = build(&s, m, o, err);
	if (rc == 0)
		rc = dtc_strings(s.buf, &t, err);
	if (rc == 0)
		rc = write_blob(s.buf, &t, out, err);
	free(t.data);
	free(s.buf);
	return rc;
}

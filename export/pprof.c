/*
 * pprof.c - the streaming pprof writer (pprof.h): profile.proto's
 * messages packed by libprotobuf-c from the code protoc-c generates out of
 * the proto file itself, the Profile around them framed here (a tag, the
 * length, the packed message: protobuf's encoding of a length-delimited
 * field, protobuf.dev/programming-guides/encoding), all of it through
 * zlib's deflate in gzip form.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export_error.h"
#include "pprof.h"
#include "profile.pb-c.h"

/* The Profile message's field numbers (profile.proto). */
enum {
	F_SAMPLE_TYPE = 1, F_SAMPLE = 2, F_MAPPING = 3, F_LOCATION = 4, F_FUNCTION = 5,
	F_STRING_TABLE = 6, F_TIME_NANOS = 9, F_DURATION_NANOS = 10, F_PERIOD_TYPE = 11,
	F_PERIOD = 12, F_COMMENT = 13, F_DEFAULT_SAMPLE_TYPE = 14,
};
enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

#define STAGE_SIZE (1u << 16)
#define MAX_LABELS 32

/* An index over elements numbered from 0, by their 64-bit hash (kept by
 * the owner): open addressing, slots hold element + 1. */
struct index {
	uint32_t *slot;
	size_t cap, n;
};

struct string_tab {
	char *arena;
	size_t len, cap;
	size_t *off;            /* per string */
	uint64_t *hash;
	size_t n, ncap, hcap;
	struct index idx;
};

/* Keys of one fixed size (whole 64-bit words, no padding) numbered from 1
 * in the order first met, each once: the functions and the locations. */
struct key_set {
	size_t size;            /* of a key, in bytes */
	uint8_t *keys;
	uint64_t *hash;
	size_t n, cap, hash_cap;
	struct index idx;
};

struct function_key {
	int64_t name, system_name, filename, start_line;
};

struct location_key {
	uint64_t mapping, address;
};
_Static_assert(sizeof(struct function_key) == 4 * sizeof(uint64_t), "whole words");
_Static_assert(sizeof(struct location_key) == 2 * sizeof(uint64_t), "whole words");

struct mapping_rec {
	uint64_t start, limit, offset;
	int64_t filename, build_id;
	bool has_functions, has_filenames, has_line_numbers;
};

/* The samples of the current batch: each key (its words in keys) with
 * its values (ntypes each in values). */
struct sample_tab {
	uint64_t *keys;
	size_t keys_len, keys_cap;
	size_t *key_off;        /* per sample; its length is keys[off] based */
	int64_t *values;
	uint64_t *hash;
	size_t n, cap, hash_cap, values_cap, max;
	struct index idx;
};

struct pprof_writer {
	FILE *out;
	z_stream z;
	bool z_open;
	uint8_t stage[STAGE_SIZE];
	size_t staged;
	int ntypes;
	int64_t *type_names;    /* each sample type's type, a string index */
	int failed;             /* the first error's code, 0: none */
	struct string_tab strings;
	struct key_set functions;   /* of struct function_key */
	struct key_set locations;   /* of struct location_key */
	struct mapping_rec *mappings;
	size_t nmappings, mapping_cap;
	uint64_t main_mapping;
	struct sample_tab samples;
	struct pprof_stats st;
};

static int fail(struct pprof_writer *w, struct pmurt_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct pprof_writer *w, struct pmurt_error *err, int code, const char *fmt, ...)
{
	if (w && !w->failed)
		w->failed = code;
	va_list ap;
	va_start(ap, fmt);
	export_verror(err, code, fmt, ap);
	va_end(ap);
	return code;
}

static int refuse_failed(struct pprof_writer *w, struct pmurt_error *err)
{
	return fail(NULL, err, w->failed, "pprof: the writer failed before (%s)",
		    strerror(-w->failed));
}

/* --- growing arrays and the index -------------------------------------------- */
static int grow(void **v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *n = realloc(*v, c * elem);
	if (!n)
		return -ENOMEM;
	*v = n;
	*cap = c;
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_words(const uint64_t *v, size_t n)
{
	uint64_t h = n;
	for (size_t i = 0; i < n; i++)
		h = mix(h, v[i]);
	return h ^ (h >> 29);
}

/* Element i's slot, or the empty slot where an element of hash h and equal
 * (same(ctx, j) for element j) would go. */
typedef bool (*same_fn)(const void *ctx, size_t j);

static uint32_t *index_slot(const struct index *x, const uint64_t *hashes, uint64_t h,
			    same_fn same, const void *ctx)
{
	size_t i = (size_t)h & (x->cap - 1);
	while (x->slot[i] && !(hashes[x->slot[i] - 1] == h && same(ctx, x->slot[i] - 1)))
		i = (i + 1) & (x->cap - 1);
	return &x->slot[i];
}

/* Room for one more (load at most a half), rehashing from hashes. */
static int index_reserve(struct index *x, const uint64_t *hashes)
{
	if ((x->n + 1) * 2 <= x->cap)
		return 0;
	size_t cap = x->cap ? x->cap * 2 : 1024;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < x->cap; i++) {
		uint32_t e = x->slot[i];
		if (!e)
			continue;
		size_t j = (size_t)hashes[e - 1] & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = e;
	}
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
	return 0;
}

/* --- the output: staged protobuf bytes, deflated ----------------------------- */
static int deflate_out(struct pprof_writer *w, const uint8_t *p, size_t n, int flush,
		       struct pmurt_error *err)
{
	uint8_t buf[STAGE_SIZE];
	w->z.next_in = (Bytef *)p;
	w->z.avail_in = (uInt)n;
	do {
		w->z.next_out = buf;
		w->z.avail_out = sizeof(buf);
		int zr = deflate(&w->z, flush);
		if (zr == Z_STREAM_ERROR)
			return fail(w, err, -EIO, "pprof: zlib deflate failed");
		size_t have = sizeof(buf) - w->z.avail_out;
		if (have && fwrite(buf, 1, have, w->out) != have)
			return fail(w, err, -EIO, "pprof: writing the profile failed");
		w->st.gzip_bytes += have;
	} while (w->z.avail_out == 0 || (flush == Z_FINISH && w->z.avail_in));
	return 0;
}

static int flush_stage(struct pprof_writer *w, struct pmurt_error *err)
{
	int rc = w->staged ? deflate_out(w, w->stage, w->staged, Z_NO_FLUSH, err) : 0;
	w->staged = 0;
	return rc;
}

static int put(struct pprof_writer *w, const void *p, size_t n, struct pmurt_error *err)
{
	w->st.raw_bytes += n;
	if (w->staged + n > STAGE_SIZE) {
		int rc = flush_stage(w, err);
		if (rc)
			return rc;
		if (n > STAGE_SIZE)
			return deflate_out(w, p, n, Z_NO_FLUSH, err);
	}
	memcpy(w->stage + w->staged, p, n);
	w->staged += n;
	return 0;
}

static size_t varint(uint8_t *buf, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		buf[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	buf[n++] = (uint8_t)v;
	return n;
}

static int put_key(struct pprof_writer *w, int field, int wire, uint64_t v,
		   struct pmurt_error *err)
{
	uint8_t buf[24];
	size_t n = varint(buf, (uint64_t)field << 3 | (uint64_t)wire);
	n += varint(buf + n, v);
	return put(w, buf, n, err);
}

/* A Profile field holding a packed message (libprotobuf-c packs it). */
static int put_message(struct pprof_writer *w, int field, const ProtobufCMessage *m,
		       struct pmurt_error *err)
{
	size_t size = protobuf_c_message_get_packed_size(m);
	int rc = put_key(w, field, WIRE_LEN, size, err);
	if (rc)
		return rc;
	w->st.raw_bytes += size;
	if (w->staged + size > STAGE_SIZE && (rc = flush_stage(w, err)))
		return rc;
	if (size <= STAGE_SIZE) {
		w->staged += protobuf_c_message_pack(m, w->stage + w->staged);
		return 0;
	}
	uint8_t *tmp = malloc(size);
	if (!tmp)
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	protobuf_c_message_pack(m, tmp);
	rc = deflate_out(w, tmp, size, Z_NO_FLUSH, err);
	free(tmp);
	return rc;
}

/* --- strings ------------------------------------------------------------------ */
struct string_probe {
	const struct string_tab *t;
	const char *s;
	size_t len;
};

static bool same_string(const void *ctx, size_t j)
{
	const struct string_probe *p = ctx;
	const char *have = p->t->arena + p->t->off[j];
	return strlen(have) == p->len && memcmp(have, p->s, p->len) == 0;
}

int64_t pprof_string(struct pprof_writer *w, const char *s, struct pmurt_error *err)
{
	if (w->failed)
		return refuse_failed(w, err);
	struct string_tab *t = &w->strings;
	size_t len = strlen(s);
	uint64_t h = len;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	h ^= h >> 31;
	if (index_reserve(&t->idx, t->hash))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	struct string_probe probe = {t, s, len};
	uint32_t *slot = index_slot(&t->idx, t->hash, h, same_string, &probe);
	if (*slot)
		return (int64_t)(*slot - 1);
	if (grow((void **)&t->off, &t->ncap, t->n + 1, sizeof(*t->off)) ||
	    grow((void **)&t->hash, &t->hcap, t->n + 1, sizeof(*t->hash)) ||
	    grow((void **)&t->arena, &t->cap, t->len + len + 1, 1))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	memcpy(t->arena + t->len, s, len + 1);
	t->off[t->n] = t->len;
	t->hash[t->n] = h;
	t->len += len + 1;
	*slot = (uint32_t)++t->n;
	t->idx.n++;
	w->st.strings++;
	int rc = put_key(w, F_STRING_TABLE, WIRE_LEN, len, err);
	if (!rc)
		rc = put(w, s, len, err);
	return rc ? rc : (int64_t)(t->n - 1);
}

/* s's index, "" (0) for NULL; a negative errno on failure. */
static int64_t string_or_empty(struct pprof_writer *w, const char *s, struct pmurt_error *err)
{
	return s ? pprof_string(w, s, err) : 0;
}

/* --- functions, locations, mappings ------------------------------------------ */
struct key_probe {
	const struct key_set *s;
	const void *k;
};

static bool same_key(const void *ctx, size_t j)
{
	const struct key_probe *p = ctx;
	return memcmp(p->s->keys + j * p->s->size, p->k, p->s->size) == 0;
}

/* Key k's number in s into *id, added when new (*added); 0 or -ENOMEM. */
static int key_set_intern(struct key_set *s, const void *k, uint64_t *id, bool *added)
{
	uint64_t h = hash_words(k, s->size / sizeof(uint64_t));
	*added = false;
	if (index_reserve(&s->idx, s->hash))
		return -ENOMEM;
	struct key_probe probe = {s, k};
	uint32_t *slot = index_slot(&s->idx, s->hash, h, same_key, &probe);
	if (*slot) {
		*id = *slot;
		return 0;
	}
	if (grow((void **)&s->keys, &s->cap, s->n + 1, s->size) ||
	    grow((void **)&s->hash, &s->hash_cap, s->n + 1, sizeof(*s->hash)))
		return -ENOMEM;
	memcpy(s->keys + s->n * s->size, k, s->size);
	s->hash[s->n] = h;
	*slot = (uint32_t)++s->n;
	s->idx.n++;
	*id = s->n;
	*added = true;
	return 0;
}

static void key_set_free(struct key_set *s)
{
	free(s->keys);
	free(s->hash);
	free(s->idx.slot);
}

int pprof_function(struct pprof_writer *w, const struct pprof_function *f, uint64_t *id,
		   struct pmurt_error *err)
{
	struct function_key k = {.name = string_or_empty(w, f->name, err),
				 .system_name = string_or_empty(w, f->system_name, err),
				 .filename = string_or_empty(w, f->filename, err),
				 .start_line = f->start_line};
	if (w->failed)
		return w->failed;
	bool added;
	if (key_set_intern(&w->functions, &k, id, &added))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	if (!added)
		return 0;
	w->st.functions++;
	Perftools__Profiles__Function m = PERFTOOLS__PROFILES__FUNCTION__INIT;
	m.id = *id;
	m.name = k.name;
	m.system_name = k.system_name;
	m.filename = k.filename;
	m.start_line = k.start_line;
	return put_message(w, F_FUNCTION, &m.base, err);
}

int pprof_location(struct pprof_writer *w, uint64_t mapping_id, uint64_t address,
		   uint64_t function_id, int64_t line, uint64_t *id, struct pmurt_error *err)
{
	if (w->failed)
		return refuse_failed(w, err);
	if (mapping_id > w->nmappings || function_id > w->functions.n)
		return fail(w, err, -EINVAL, "pprof: location at %#llx: no mapping %llu or "
			    "function %llu", (unsigned long long)address,
			    (unsigned long long)mapping_id, (unsigned long long)function_id);
	struct location_key k = {mapping_id, address};
	bool added;
	if (key_set_intern(&w->locations, &k, id, &added))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	if (!added)
		return 0;
	w->st.locations++;
	Perftools__Profiles__Location m = PERFTOOLS__PROFILES__LOCATION__INIT;
	Perftools__Profiles__Line l = PERFTOOLS__PROFILES__LINE__INIT;
	Perftools__Profiles__Line *lines[1] = {&l};
	m.id = *id;
	m.mapping_id = mapping_id;
	m.address = address;
	if (function_id) {
		l.function_id = function_id;
		l.line = line;
		m.n_line = 1;
		m.line = lines;
	}
	return put_message(w, F_LOCATION, &m.base, err);
}

int pprof_mapping_add(struct pprof_writer *w, const struct pprof_mapping *m, uint64_t *id,
		      struct pmurt_error *err)
{
	struct mapping_rec r = {.start = m->memory_start, .limit = m->memory_limit,
				.offset = m->file_offset,
				.filename = string_or_empty(w, m->filename, err),
				.build_id = string_or_empty(w, m->build_id, err),
				.has_functions = m->has_functions,
				.has_filenames = m->has_filenames,
				.has_line_numbers = m->has_line_numbers};
	if (w->failed)
		return w->failed;
	if (grow((void **)&w->mappings, &w->mapping_cap, w->nmappings + 1, sizeof(*w->mappings)))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	w->mappings[w->nmappings++] = r;
	*id = w->nmappings;
	w->st.mappings++;
	if (!w->main_mapping)
		w->main_mapping = *id;
	return 0;
}

void pprof_mapping_cover(struct pprof_writer *w, uint64_t id, uint64_t start, uint64_t limit)
{
	if (!id || id > w->nmappings)
		return;
	struct mapping_rec *r = &w->mappings[id - 1];
	bool empty = r->start >= r->limit;
	if (empty || start < r->start)
		r->start = start;
	if (empty || limit > r->limit)
		r->limit = limit;
}

void pprof_set_main(struct pprof_writer *w, uint64_t id)
{
	if (id && id <= w->nmappings)
		w->main_mapping = id;
}

static int put_mapping(struct pprof_writer *w, uint64_t id, struct pmurt_error *err)
{
	const struct mapping_rec *r = &w->mappings[id - 1];
	Perftools__Profiles__Mapping m = PERFTOOLS__PROFILES__MAPPING__INIT;
	m.id = id;
	m.memory_start = r->start;
	m.memory_limit = r->limit;
	m.file_offset = r->offset;
	m.filename = r->filename;
	m.build_id = r->build_id;
	m.has_functions = r->has_functions;
	m.has_filenames = r->has_filenames;
	m.has_line_numbers = r->has_line_numbers;
	return put_message(w, F_MAPPING, &m.base, err);
}

/* --- samples ------------------------------------------------------------------ */
struct sample_probe {
	const struct sample_tab *t;
	const uint64_t *key;
	size_t len;
};

static size_t key_len(const uint64_t *key)
{
	return 1 + key[0] + 1 + 4 * key[1 + key[0]];
}

static bool same_sample(const void *ctx, size_t j)
{
	const struct sample_probe *p = ctx;
	const uint64_t *have = p->t->keys + p->t->key_off[j];
	return key_len(have) == p->len && memcmp(have, p->key, p->len * sizeof(*have)) == 0;
}

/* Writes the batch's samples and empties the table. */
static int flush_samples(struct pprof_writer *w, struct pmurt_error *err)
{
	struct sample_tab *t = &w->samples;
	Perftools__Profiles__Label labels[MAX_LABELS];
	Perftools__Profiles__Label *label_ptr[MAX_LABELS];
	for (size_t i = 0; i < t->n && !w->failed; i++) {
		const uint64_t *k = t->keys + t->key_off[i];
		const uint64_t *lab = k + 1 + k[0] + 1;
		Perftools__Profiles__Sample m = PERFTOOLS__PROFILES__SAMPLE__INIT;
		m.n_location_id = k[0];
		m.location_id = (uint64_t *)k + 1;
		m.n_value = (size_t)w->ntypes;
		m.value = t->values + i * (size_t)w->ntypes;
		m.n_label = k[1 + k[0]];
		m.label = label_ptr;
		for (size_t j = 0; j < m.n_label; j++) {
			labels[j] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			labels[j].key = (int64_t)lab[4 * j];
			labels[j].str = (int64_t)lab[4 * j + 1];
			labels[j].num = (int64_t)lab[4 * j + 2];
			labels[j].num_unit = (int64_t)lab[4 * j + 3];
			label_ptr[j] = &labels[j];
		}
		put_message(w, F_SAMPLE, &m.base, err);
	}
	w->st.samples_out += t->n;
	w->st.batches += t->n > 0;
	if (t->idx.slot)
		memset(t->idx.slot, 0, t->idx.cap * sizeof(*t->idx.slot));
	t->idx.n = 0;
	t->n = 0;
	t->keys_len = 0;
	return w->failed;
}

/* a + b, held at INT64_MAX or INT64_MIN where the sum does not fit: a
 * profile's values are int64, and a sum past them (periods from a damaged
 * or hostile file) would wrap to the other sign. */
static int64_t add_held(int64_t a, int64_t b)
{
	int64_t sum;
	if (!__builtin_add_overflow(a, b, &sum))
		return sum;
	return b > 0 ? INT64_MAX : INT64_MIN;
}

/* The key's words at the end of the key arena (not yet kept). */
static int build_key(struct pprof_writer *w, const uint64_t *locations, int nlocations,
		     const struct pprof_label *labels, int nlabels, struct pmurt_error *err)
{
	struct sample_tab *t = &w->samples;
	size_t len = 2 + (size_t)nlocations + 4 * (size_t)nlabels;
	if (grow((void **)&t->keys, &t->keys_cap, t->keys_len + len, sizeof(*t->keys)))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	uint64_t *k = t->keys + t->keys_len;
	k[0] = (uint64_t)nlocations;
	for (int i = 0; i < nlocations; i++) {
		if (!locations[i] || locations[i] > w->locations.n)
			return fail(w, err, -EINVAL, "pprof: sample: no location %llu",
				    (unsigned long long)locations[i]);
		k[1 + i] = locations[i];
	}
	uint64_t *lab = k + 1 + nlocations;
	*lab++ = (uint64_t)nlabels;
	for (int i = 0; i < nlabels; i++) {
		/* profile.proto: at most one of str and num; num_unit with num only */
		int64_t key = pprof_string(w, labels[i].key, err);
		int64_t str = labels[i].str ? pprof_string(w, labels[i].str, err) : 0;
		int64_t unit = !labels[i].str ? string_or_empty(w, labels[i].num_unit, err) : 0;
		if (w->failed)
			return w->failed;
		k = t->keys + t->keys_len;   /* interning does not move the keys */
		lab[4 * i] = (uint64_t)key;
		lab[4 * i + 1] = (uint64_t)str;
		lab[4 * i + 2] = labels[i].str ? 0 : (uint64_t)labels[i].num;
		lab[4 * i + 3] = (uint64_t)unit;
	}
	return 0;
}

int pprof_sample(struct pprof_writer *w, const uint64_t *locations, int nlocations,
		 const int64_t *values, const struct pprof_label *labels, int nlabels,
		 struct pmurt_error *err)
{
	if (w->failed)
		return refuse_failed(w, err);
	if (nlocations < 0 || nlabels < 0 || nlabels > MAX_LABELS)
		return fail(w, err, -EINVAL, "pprof: sample: %d locations, %d labels (at most %d)",
			    nlocations, nlabels, MAX_LABELS);
	struct sample_tab *t = &w->samples;
	if (t->n >= t->max && flush_samples(w, err))
		return w->failed;
	int rc = build_key(w, locations, nlocations, labels, nlabels, err);
	if (rc)
		return rc;
	const uint64_t *key = t->keys + t->keys_len;
	size_t len = key_len(key);
	uint64_t h = hash_words(key, len);
	if (index_reserve(&t->idx, t->hash))
		return fail(w, err, -ENOMEM, "pprof: out of memory");
	struct sample_probe probe = {t, key, len};
	uint32_t *slot = index_slot(&t->idx, t->hash, h, same_sample, &probe);
	w->st.samples_in++;
	size_t at = *slot ? *slot - 1 : t->n;
	if (!*slot) {
		if (grow((void **)&t->key_off, &t->cap, t->n + 1, sizeof(*t->key_off)) ||
		    grow((void **)&t->hash, &t->hash_cap, t->n + 1, sizeof(*t->hash)) ||
		    grow((void **)&t->values, &t->values_cap, (t->n + 1) * (size_t)w->ntypes,
			 sizeof(*t->values)))
			return fail(w, err, -ENOMEM, "pprof: out of memory");
		t->key_off[t->n] = t->keys_len;
		t->hash[t->n] = h;
		memset(t->values + t->n * (size_t)w->ntypes, 0,
		       (size_t)w->ntypes * sizeof(*t->values));
		t->keys_len += len;
		*slot = (uint32_t)++t->n;
		t->idx.n++;
	}
	int64_t *v = t->values + at * (size_t)w->ntypes;
	for (int i = 0; i < w->ntypes; i++)
		v[i] = add_held(v[i], values[i]);
	return 0;
}

/* --- the profile -------------------------------------------------------------- */
/* A ValueType field; *type_name its type's string index. */
static int put_value_type(struct pprof_writer *w, int field, const struct pprof_value_type *v,
			  int64_t *type_name, struct pmurt_error *err)
{
	Perftools__Profiles__ValueType m = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	m.type = pprof_string(w, v->type, err);
	m.unit = string_or_empty(w, v->unit, err);
	if (type_name)
		*type_name = m.type;
	return w->failed ? w->failed : put_message(w, field, &m.base, err);
}

int pprof_writer_open(struct pprof_writer **wp, FILE *out, const struct pprof_value_type *types,
		      int ntypes, const struct pprof_writer_opts *opts, struct pmurt_error *err)
{
	*wp = NULL;
	if (ntypes < 1)
		return fail(NULL, err, -EINVAL, "pprof: a profile needs a sample type");
	struct pprof_writer *w = calloc(1, sizeof(*w));
	if (w && !(w->type_names = calloc((size_t)ntypes, sizeof(*w->type_names)))) {
		free(w);
		w = NULL;
	}
	if (!w)
		return fail(NULL, err, -ENOMEM, "pprof: out of memory");
	w->out = out;
	w->ntypes = ntypes;
	w->functions.size = sizeof(struct function_key);
	w->locations.size = sizeof(struct location_key);
	w->samples.max = opts && opts->max_samples ? opts->max_samples : 65536;
	int level = opts && opts->gzip_level ? opts->gzip_level : Z_DEFAULT_COMPRESSION;
	/* windowBits 15 + 16: a gzip header and trailer (zlib.h deflateInit2) */
	if (deflateInit2(&w->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(w);
		return fail(NULL, err, -ENOMEM, "pprof: zlib's deflateInit2 failed");
	}
	w->z_open = true;
	*wp = w;
	/* profile.proto: "string_table[0] must always be """ */
	pprof_string(w, "", err);
	for (int i = 0; i < ntypes && !w->failed; i++)
		put_value_type(w, F_SAMPLE_TYPE, &types[i], &w->type_names[i], err);
	return w->failed;
}

static int put_info(struct pprof_writer *w, const struct pprof_info *info, struct pmurt_error *err)
{
	if (info->time_nanos)
		put_key(w, F_TIME_NANOS, WIRE_VARINT, (uint64_t)info->time_nanos, err);
	if (info->duration_nanos)
		put_key(w, F_DURATION_NANOS, WIRE_VARINT, (uint64_t)info->duration_nanos, err);
	if (info->period_type.type)
		put_value_type(w, F_PERIOD_TYPE, &info->period_type, NULL, err);
	if (info->period)
		put_key(w, F_PERIOD, WIRE_VARINT, (uint64_t)info->period, err);
	for (int i = 0; i < info->ncomments && !w->failed; i++) {
		int64_t s = pprof_string(w, info->comments[i], err);
		if (s >= 0)
			put_key(w, F_COMMENT, WIRE_VARINT, (uint64_t)s, err);
	}
	if (info->default_sample_type >= 0 && info->default_sample_type < w->ntypes)
		put_key(w, F_DEFAULT_SAMPLE_TYPE, WIRE_VARINT,
			(uint64_t)w->type_names[info->default_sample_type], err);
	return w->failed;
}

int pprof_finish(struct pprof_writer *w, const struct pprof_info *info, struct pmurt_error *err)
{
	if (w->failed)
		return refuse_failed(w, err);
	flush_samples(w, err);
	if (w->main_mapping)
		put_mapping(w, w->main_mapping, err);
	for (uint64_t id = 1; id <= w->nmappings && !w->failed; id++)
		if (id != w->main_mapping)
			put_mapping(w, id, err);
	if (info && !w->failed)
		put_info(w, info, err);
	if (!w->failed && flush_stage(w, err) == 0)
		deflate_out(w, NULL, 0, Z_FINISH, err);
	if (!w->failed && fflush(w->out) != 0)
		fail(w, err, -EIO, "pprof: writing the profile failed");
	return w->failed;
}

void pprof_writer_free(struct pprof_writer *w)
{
	if (!w)
		return;
	if (w->z_open)
		deflateEnd(&w->z);
	free(w->type_names);
	free(w->strings.arena);
	free(w->strings.off);
	free(w->strings.hash);
	free(w->strings.idx.slot);
	key_set_free(&w->functions);
	key_set_free(&w->locations);
	free(w->mappings);
	free(w->samples.keys);
	free(w->samples.key_off);
	free(w->samples.values);
	free(w->samples.hash);
	free(w->samples.idx.slot);
	free(w);
}

void pprof_writer_stats(const struct pprof_writer *w, struct pprof_stats *st)
{
	*st = w->st;
}

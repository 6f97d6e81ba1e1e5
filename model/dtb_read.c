/*
 * dtb_read.c - reading an untrusted flattened tree for the DTB loader: the
 * whole blob checked (fdt_check_full), each node's path recorded for
 * positions, sibling names unique, and every property's length and cell count
 * checked before use; problems reported with the node path as the position
 * ("file.dtb:/pmus/pmu_dts@0/events/cycles") and the property named.
 */
#include <errno.h>
#include <libfdt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtb_internal.h"

/* One walk of the tree records each node's path (offsets ascend). */
int dl_build_paths(struct dl *L)
{
	char path[PATH_LEN] = "";
	size_t lens[64] = { 0 };
	int depth = 0, cap = 0;

	for (int off = 0; off >= 0; off = fdt_next_node(L->fdt, off, &depth)) {
		const char *name = fdt_get_name(L->fdt, off, NULL);
		size_t at;

		if (depth < 0 || depth >= 64 || !name)
			break;
		at = depth ? lens[depth - 1] : 0;
		if (depth && at + strlen(name) + 2 < sizeof(path))
			snprintf(path + at, sizeof(path) - at, "/%s", name);
		lens[depth] = strlen(path);
		if (L->npaths == cap) {
			struct node_path *grown;

			cap = cap ? cap * 2 : 256;
			grown = realloc(L->paths, (size_t)cap * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			L->paths = grown;
		}
		L->paths[L->npaths].offset = off;
		L->paths[L->npaths].path = pmu_strdup(depth ? path : "/");
		if (!L->paths[L->npaths++].path)
			return -ENOMEM;
	}
	return 0;
}

void dl_free_paths(struct dl *L)
{
	for (int i = 0; i < L->npaths; i++)
		free(L->paths[i].path);
	free(L->paths);
}

static const char *path_of(struct dl *L, int node)
{
	int lo = 0, hi = L->npaths - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (L->paths[mid].offset == node)
			return L->paths[mid].path;
		if (L->paths[mid].offset < node)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return dl_node_name(L, node);
}

static void node_place(struct dl *L, int node, char *buf, size_t len)
{
	if (node < 0 || !L->fdt)
		snprintf(buf, len, "%s", L->name);
	else
		snprintf(buf, len, "%s:%s", L->name, path_of(L, node));
}

/* A position that lives as long as the model (interned). */
struct pmu_pos dl_node_pos(struct dl *L, int node)
{
	char place[PATH_LEN + 256];
	struct pmu_pos p = { NULL, 0, 0 };

	node_place(L, node, place, sizeof(place));
	p.file = pmu_model_intern(L->m, place);
	return p;
}

/* Report an error at node (and property prop, when not NULL). */
int dl_fail(struct dl *L, int node, const char *prop, const char *fmt, ...)
{
	char place[PATH_LEN + 256], msg[512];
	struct pmu_pos p = { place, 0, 0 };
	va_list ap;

	node_place(L, node, place, sizeof(place));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (prop)
		pmu_report(L->d, -1, &p, "property '%s': %s", prop, msg);
	else
		pmu_report(L->d, -1, &p, "%s", msg);
	L->errors++;
	return -EINVAL;
}

int dl_oom(struct dl *L)
{
	L->errors++;
	return pmu_report_oom(L->d, NULL);
}

static int path_cmp(const void *a, const void *b)
{
	const struct node_path *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->offset > y->offset) - (x->offset < y->offset);
}

/* Sibling nodes must have distinct names (dtc refuses a tree where they do
 * not; libfdt does not check).  Works on a sorted copy of the path table. */
int dl_check_unique_paths(struct dl *L)
{
	struct node_path *sorted;
	int rc = 0;

	if (L->npaths < 2)
		return 0;
	sorted = malloc((size_t)L->npaths * sizeof(*sorted));
	if (!sorted)
		return dl_oom(L);
	memcpy(sorted, L->paths, (size_t)L->npaths * sizeof(*sorted));
	qsort(sorted, (size_t)L->npaths, sizeof(*sorted), path_cmp);
	for (int i = 1; i < L->npaths; i++)
		if (strcmp(sorted[i].path, sorted[i - 1].path) == 0)
			rc = dl_fail(L, sorted[i].offset, NULL, "a sibling node has the same name");
	free(sorted);
	return rc;
}

static int absent(struct dl *L, int node, const char *name, bool required)
{
	if (required)
		return dl_fail(L, node, name, "missing");
	return 1;
}

int dl_get_cells(struct dl *L, int node, const char *name, bool required,
		     uint32_t *out, int min, int max, int *n)
{
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, name, &len);

	if (!v)
		return absent(L, node, name, required);
	if (len % 4 || len / 4 < min || len / 4 > max) {
		if (min == max)
			return dl_fail(L, node, name, "expected %d cell%s, found %d bytes",
				    min, min == 1 ? "" : "s", len);
		return dl_fail(L, node, name, "expected %d to %d cells, found %d bytes",
			    min, max, len);
	}
	*n = len / 4;
	for (int i = 0; i < *n; i++)
		out[i] = fdt32_ld(&v[i]);
	return 0;
}

int dl_get_u32(struct dl *L, int node, const char *name, bool required,
		   uint32_t *out)
{
	int n;

	return dl_get_cells(L, node, name, required, out, 1, 1, &n);
}

/* <lo hi> with lo <= hi <= 63. */
int dl_get_range(struct dl *L, int node, const char *name, bool required,
		     uint32_t *lo, uint32_t *hi)
{
	uint32_t c[2];
	int n, rc = dl_get_cells(L, node, name, required, c, 2, 2, &n);

	if (rc)
		return rc;
	if (c[0] > c[1] || c[1] > 63)
		return dl_fail(L, node, name, "bit range <%u %u> is not lo <= hi <= 63",
			    c[0], c[1]);
	*lo = c[0];
	*hi = c[1];
	return 0;
}

/* A 64-bit value: <hi lo>, skiboot's 4-cell /bits/ 64 <hi lo> (cells
 * <0 hi 0 lo>), or, when one_cell, a single cell (event_code). */
int dl_decode_u64(const fdt32_t *v, int len, bool one_cell, uint64_t *out)
{
	if (len == 4 && one_cell) {
		*out = fdt32_ld(&v[0]);
		return 0;
	}
	if (len == 8) {
		*out = (uint64_t)fdt32_ld(&v[0]) << 32 | fdt32_ld(&v[1]);
		return 0;
	}
	if (len == 16 && fdt32_ld(&v[0]) == 0 && fdt32_ld(&v[2]) == 0) {
		*out = (uint64_t)fdt32_ld(&v[1]) << 32 | fdt32_ld(&v[3]);
		return 0;
	}
	return -EINVAL;
}

int dl_get_u64(struct dl *L, int node, const char *name, bool required,
		   bool one_cell, uint64_t *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, name, &len);

	if (!v)
		return absent(L, node, name, required);
	if (dl_decode_u64(v, len, one_cell, out) == 0)
		return 0;
	if (len == 16)
		return dl_fail(L, node, name, "the 4-cell form must read <0 hi 0 lo>");
	return dl_fail(L, node, name, "expected %s2 or 4 cells, found %d bytes",
		    one_cell ? "1, " : "", len);
}

/* A single NUL-terminated string (pointer into the blob). */
int dl_get_str(struct dl *L, int node, const char *name, bool required,
		   const char **out)
{
	int len;
	const char *v = fdt_getprop(L->fdt, node, name, &len);

	if (!v)
		return absent(L, node, name, required);
	if (len < 1 || v[len - 1] != '\0' || memchr(v, '\0', (size_t)len) != v + len - 1)
		return dl_fail(L, node, name, "expected one string");
	*out = v;
	return 0;
}

/* <lo hi> in the constraint word: `slot`, or the RFC's constraint-mask. */
int dl_constraint_slot(struct dl *L, int node, struct pmu_constraint *c)
{
	uint64_t mask;
	int rc = dl_get_range(L, node, "slot", false, &c->slot_lo, &c->slot_hi);

	if (rc <= 0)
		return rc;
	rc = dl_get_u64(L, node, "constraint-mask", true, false, &mask);
	if (rc < 0)
		return rc;
	if (mask == 0)
		return dl_fail(L, node, "constraint-mask", "is 0");
	c->slot_lo = (uint32_t)__builtin_ctzll(mask);
	c->slot_hi = 63u - (uint32_t)__builtin_clzll(mask);
	if (pmu_bits_mask(c->slot_lo, c->slot_hi) != mask)
		return dl_fail(L, node, "constraint-mask", "0x%llx is not one run of bits",
			    (unsigned long long)mask);
	return 0;
}

/* 64-bit codes as <hi lo> pairs, into an array of the model's. */
int dl_get_code_list(struct dl *L, int node, const char *name, uint64_t **codes, int *n)
{
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, name, &len);

	*n = 0;
	if (!v)
		return 1;
	if (len <= 0 || len % 8)
		return dl_fail(L, node, name, "expected <hi lo> pairs, found %d bytes", len);
	*codes = dl_alloc_array(L, len / 8, sizeof(**codes));
	if (!*codes)
		return -ENOMEM;
	*n = len / 8;
	for (int i = 0; i < *n; i++)
		(*codes)[i] = (uint64_t)fdt32_ld(&v[2 * i]) << 32 | fdt32_ld(&v[2 * i + 1]);
	return 0;
}

/* A string copied into the model (*out stays NULL when absent). */
int dl_get_strdup(struct dl *L, int node, const char *name, bool required,
		      char **out)
{
	const char *s;
	int rc = dl_get_str(L, node, name, required, &s);

	if (rc)
		return rc;
	*out = pmu_strdup(s);
	return *out ? 0 : dl_oom(L);
}

bool dl_has_prop(struct dl *L, int node, const char *name)
{
	int len;

	return fdt_getprop(L->fdt, node, name, &len) != NULL;
}

/* "REGISTER.FIELD" -> a register-field reference. */
int dl_get_ref(struct dl *L, int node, const char *name, bool required,
		   struct pmu_reg_ref *out)
{
	const char *s, *dot;
	char reg[128];
	int rc = dl_get_str(L, node, name, required, &s), r, f;

	if (rc)
		return rc;
	dot = strchr(s, '.');
	if (!dot || (size_t)(dot - s) >= sizeof(reg))
		return dl_fail(L, node, name, "must read REGISTER.FIELD, found '%s'", s);
	memcpy(reg, s, (size_t)(dot - s));
	reg[dot - s] = '\0';
	r = pmu_model_register(L->m, reg);
	f = r >= 0 ? pmu_model_reg_field(&L->m->registers[r], dot + 1) : -1;
	if (r < 0 || f < 0)
		return dl_fail(L, node, name, "'%s': no %s '%s'", s,
			    r < 0 ? "register" : "field", r < 0 ? reg : dot + 1);
	out->reg = r;
	out->field = f;
	return 0;
}

/* A name looked up in a table of enum names (fn(i) for i in 0..n-1). */
int dl_get_enum(struct dl *L, int node, const char *name, bool required,
		    const char *(*fn)(int), int n, int *out)
{
	const char *s;
	int rc = dl_get_str(L, node, name, required, &s);

	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		if (strcmp(s, fn(i)) == 0) {
			*out = i;
			return 0;
		}
	}
	return dl_fail(L, node, name, "unknown value '%s'", s);
}

int dl_get_condition(struct dl *L, int node, const char *name,
			 struct pmu_condition *out)
{
	const char *s;
	char why[256];
	int rc = dl_get_str(L, node, name, false, &s);

	if (rc)
		return rc < 0 ? rc : 0;
	if (pmu_condition_parse(L->m, s, out, why, sizeof(why)) != 0)
		return dl_fail(L, node, name, "%s", why);
	return 0;
}

/* Wrappers with the int signature dl_get_enum wants. */
const char *dl_role_name(int i) { return pmu_role_name((enum pmu_field_role)i); }
const char *dl_source_name(int i) { return pmu_source_name((enum pmu_source)i); }
const char *dl_cons_kind_name(int i) { return pmu_constraint_kind_name((enum pmu_constraint_kind)i); }
const char *dl_check_kind_name(int i) { return pmu_check_kind_name((enum pmu_check_kind)i); }
const char *dl_usage_when_name(int i) { return pmu_usage_when_name((enum pmu_usage_when)i); }

/* mantissa-exponent's encoding-NAME properties, all required, each in its domain
 * (pmu_thresh_encoding_bad). */
static int get_encoding(struct dl *L, int node, struct pmu_thresh_encoding *enc)
{
	char prop[PMU_ENC_NPARAMS][64], why[160];
	int rc = 0;

	for (int p = 0; p < PMU_ENC_NPARAMS; p++) {
		uint64_t v = 0;

		snprintf(prop[p], sizeof(prop[p]), "encoding-%s", pmu_thresh_param_name(p));
		if (p < PMU_ENC_CLAMP) {
			uint32_t count = 0;

			rc |= dl_get_u32(L, node, prop[p], true, &count) < 0;
			v = count;
		} else {
			rc |= dl_get_u64(L, node, prop[p], true, false, &v) < 0;
		}
		pmu_thresh_param_set(enc, (enum pmu_thresh_param)p, v);
	}
	if (rc)
		return -EINVAL;
	enum pmu_thresh_param bad = pmu_thresh_encoding_bad(enc, why, sizeof(why));
	return bad == PMU_ENC_NPARAMS ? 0 : dl_fail(L, node, prop[bad], "%s", why);
}

/* A transform under the name it had before (pmu_transform_old_name): still
 * read, with a warning naming the new one. */
static void warn_old_transform(struct dl *L, int node, const char *old, enum pmu_transform t)
{
	char place[PATH_LEN + 256];
	struct pmu_pos p = { place, 0, 0 };

	node_place(L, node, place, sizeof(place));
	pmu_report_warning(L->d, &p, "property 'transform': '%s' is deprecated: it is named '%s' now",
			   old, pmu_transform_name(t));
}

/* `transform`, with sdar-mode's `transform-arg` or mantissa-exponent's encoding. */
int dl_get_transform(struct dl *L, int node, enum pmu_transform *t, uint64_t *arg,
			 struct pmu_thresh_encoding *enc)
{
	const char *s;
	int rc = dl_get_str(L, node, "transform", false, &s), old;

	*t = PMU_XF_NONE;
	if (rc)
		return rc < 0 ? -EINVAL : 0;
	old = pmu_transform_parse(s, t);
	if (old < 0)
		return dl_fail(L, node, "transform", "unknown value '%s'", s);
	if (old)
		warn_old_transform(L, node, s, *t);
	if (*t == PMU_XF_MANTISSA_EXPONENT) {
		if (dl_has_prop(L, node, "transform-arg"))
			return dl_fail(L, node, "transform-arg",
				    "mantissa-exponent takes its parameters from the encoding-* properties");
		return get_encoding(L, node, enc);
	}
	return dl_get_u64(L, node, "transform-arg", false, false, arg) < 0 ? -EINVAL : 0;
}

const char *dl_node_name(struct dl *L, int node)
{
	const char *n = fdt_get_name(L->fdt, node, NULL);

	return n ? n : "";
}

int dl_child(struct dl *L, int parent, const char *name, bool required)
{
	int off = fdt_subnode_offset(L->fdt, parent, name);

	if (off >= 0)
		return off;
	if (required)
		dl_fail(L, parent, NULL, "missing node '%s'", name);
	return -1;
}

int dl_count_children(struct dl *L, int parent)
{
	int node, n = 0;

	fdt_for_each_subnode(node, L->fdt, parent)
		n++;
	return n;
}

/* Copy of a node name with ASCII letters mapped by upper/lower case. */
char *dl_case_copy(struct dl *L, int node, bool upper)
{
	char *s = pmu_strdup(dl_node_name(L, node));

	for (char *p = s; p && *p; p++) {
		if (upper && *p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
		else if (!upper && *p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	}
	if (!s)
		dl_oom(L);
	return s;
}

/* calloc'd array of n elements (NULL also when n is 0). */
void *dl_alloc_array(struct dl *L, int n, size_t size)
{
	void *p;

	if (n <= 0)
		return NULL;
	p = calloc((size_t)n, size);
	if (!p)
		dl_oom(L);
	return p;
}

int dl_check_blob(struct dl *L, const void *blob, size_t size)
{
	int rc;

	if (size < sizeof(struct fdt_header))
		return dl_fail(L, -1, NULL, "not a DTB: %zu bytes is shorter than the header", size);
	if (size > (size_t)INT_MAX)
		return dl_fail(L, -1, NULL, "DTB too large (%zu bytes)", size);
	rc = fdt_check_full(blob, size);
	if (rc < 0)
		return dl_fail(L, -1, NULL, "not a valid DTB: %s", fdt_strerror(rc));
	return 0;
}

struct named_node {
	const char *name;
	int node;
};

static int by_name_then_node(const void *a, const void *b)
{
	const struct named_node *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->node > y->node) - (x->node < y->node);
}

int dl_unique_names(struct dl *L, const char *what, const char *prop,
		    const char *const *names, const int *nodes, int n)
{
	struct named_node *v;
	int rc = 0;

	if (n < 2)
		return 0;
	v = dl_alloc_array(L, n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		v[i] = (struct named_node){ names[i] ? names[i] : "", nodes[i] };
	qsort(v, (size_t)n, sizeof(*v), by_name_then_node);
	for (int i = 1; i < n; i++)
		if (strcmp(v[i].name, v[i - 1].name) == 0)
			rc = dl_fail(L, v[i].node, prop, "%s name '%s' is already the name of %s",
				     what, v[i].name, path_of(L, v[i - 1].node));
	free(v);
	return rc;
}

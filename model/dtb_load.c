/*
 * dtb_load.c - loads a PMU description from a DTB (schema/dts-layout.md) into
 * a struct pmu_model.
 *
 * The blob is untrusted: it is copied, checked whole with fdt_check_full(),
 * and every property's length and cell count is checked before use.  Problems
 * are reported through pmu_report() with the node path as the position
 * ("file.dtb:/pmus/pmu_dts@0/events/cycles") and the property named in the
 * message.  The loader goes on after an error to report as many as it can,
 * then fails with -EINVAL.
 *
 * Besides pmugen's own trees it reads skiboot-style trees (no
 * `description-format`), as far as they carry the information: names from
 * node names, register fields made up from the target_* properties, the
 * mmcr2 freeze-bit nodes as privilege filters.  See load_legacy_*.
 */
#include <errno.h>
#include <libfdt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_load.h"

#define DTB_MAX_FILE (256L * 1024 * 1024)
#define PATH_LEN 512

/* Loading context: the checked blob and where problems go. */
struct dl {
	const void *fdt;
	const char *name;  /* blob name for messages */
	struct pmu_model *m;
	struct pmu_diag *d;
	int errors;
	bool legacy;       /* no description-format: a skiboot-style tree */
	int pmu;           /* offset of the PMU node */
	int *field_node;   /* node offset of each model field, for pass two */
	int legacy_skipped; /* skiboot constraint nodes that could not be read */
	/* the path of every node, by offset (fdt_get_path walks the whole
	 * tree on each call) */
	struct node_path *paths;
	int npaths;
};

struct node_path {
	int offset;
	char *path;
};

static const char *node_name(struct dl *L, int node);

/* --- positions and reports ------------------------------------------------- */

/* One walk of the tree records each node's path (offsets ascend). */
static int build_paths(struct dl *L)
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

static void free_paths(struct dl *L)
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
	return node_name(L, node);
}

static void node_place(struct dl *L, int node, char *buf, size_t len)
{
	if (node < 0 || !L->fdt)
		snprintf(buf, len, "%s", L->name);
	else
		snprintf(buf, len, "%s:%s", L->name, path_of(L, node));
}

/* A position that lives as long as the model (interned). */
static struct pmu_pos node_pos(struct dl *L, int node)
{
	char place[PATH_LEN + 256];
	struct pmu_pos p = { NULL, 0, 0 };

	node_place(L, node, place, sizeof(place));
	p.file = pmu_model_intern(L->m, place);
	return p;
}

/* Report an error at node (and property prop, when not NULL). */
static int fail(struct dl *L, int node, const char *prop, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct dl *L, int node, const char *prop, const char *fmt, ...)
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

static int oom(struct dl *L)
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
static int check_unique_paths(struct dl *L)
{
	struct node_path *sorted;
	int rc = 0;

	if (L->npaths < 2)
		return 0;
	sorted = malloc((size_t)L->npaths * sizeof(*sorted));
	if (!sorted)
		return oom(L);
	memcpy(sorted, L->paths, (size_t)L->npaths * sizeof(*sorted));
	qsort(sorted, (size_t)L->npaths, sizeof(*sorted), path_cmp);
	for (int i = 1; i < L->npaths; i++)
		if (strcmp(sorted[i].path, sorted[i - 1].path) == 0)
			rc = fail(L, sorted[i].offset, NULL, "a sibling node has the same name");
	free(sorted);
	return rc;
}

/* --- property access ---------------------------------------------------------
 * Each getter returns 0 when the property was read, 1 when it is absent and
 * not required, and -EINVAL (reported) when it is malformed or missing. */

static int absent(struct dl *L, int node, const char *name, bool required)
{
	if (required)
		return fail(L, node, name, "missing");
	return 1;
}

static int get_cells(struct dl *L, int node, const char *name, bool required,
		     uint32_t *out, int min, int max, int *n)
{
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, name, &len);

	if (!v)
		return absent(L, node, name, required);
	if (len % 4 || len / 4 < min || len / 4 > max) {
		if (min == max)
			return fail(L, node, name, "expected %d cell%s, found %d bytes",
				    min, min == 1 ? "" : "s", len);
		return fail(L, node, name, "expected %d to %d cells, found %d bytes",
			    min, max, len);
	}
	*n = len / 4;
	for (int i = 0; i < *n; i++)
		out[i] = fdt32_ld(&v[i]);
	return 0;
}

static int get_u32(struct dl *L, int node, const char *name, bool required,
		   uint32_t *out)
{
	int n;

	return get_cells(L, node, name, required, out, 1, 1, &n);
}

/* <lo hi> with lo <= hi <= 63. */
static int get_range(struct dl *L, int node, const char *name, bool required,
		     uint32_t *lo, uint32_t *hi)
{
	uint32_t c[2];
	int n, rc = get_cells(L, node, name, required, c, 2, 2, &n);

	if (rc)
		return rc;
	if (c[0] > c[1] || c[1] > 63)
		return fail(L, node, name, "bit range <%u %u> is not lo <= hi <= 63",
			    c[0], c[1]);
	*lo = c[0];
	*hi = c[1];
	return 0;
}

/* A 64-bit value: <hi lo>, skiboot's 4-cell /bits/ 64 <hi lo> (cells
 * <0 hi 0 lo>), or, when one_cell, a single cell (event_code). */
static int decode_u64(const fdt32_t *v, int len, bool one_cell, uint64_t *out)
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

static int get_u64(struct dl *L, int node, const char *name, bool required,
		   bool one_cell, uint64_t *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, name, &len);

	if (!v)
		return absent(L, node, name, required);
	if (decode_u64(v, len, one_cell, out) == 0)
		return 0;
	if (len == 16)
		return fail(L, node, name, "the 4-cell form must read <0 hi 0 lo>");
	return fail(L, node, name, "expected %s2 or 4 cells, found %d bytes",
		    one_cell ? "1, " : "", len);
}

/* A single NUL-terminated string (pointer into the blob). */
static int get_str(struct dl *L, int node, const char *name, bool required,
		   const char **out)
{
	int len;
	const char *v = fdt_getprop(L->fdt, node, name, &len);

	if (!v)
		return absent(L, node, name, required);
	if (len < 1 || v[len - 1] != '\0' || memchr(v, '\0', (size_t)len) != v + len - 1)
		return fail(L, node, name, "expected one string");
	*out = v;
	return 0;
}

/* A string copied into the model (*out stays NULL when absent). */
static int get_strdup(struct dl *L, int node, const char *name, bool required,
		      char **out)
{
	const char *s;
	int rc = get_str(L, node, name, required, &s);

	if (rc)
		return rc;
	*out = pmu_strdup(s);
	return *out ? 0 : oom(L);
}

static bool has_prop(struct dl *L, int node, const char *name)
{
	int len;

	return fdt_getprop(L->fdt, node, name, &len) != NULL;
}

/* "REGISTER.FIELD" -> a register-field reference. */
static int get_ref(struct dl *L, int node, const char *name, bool required,
		   struct pmu_reg_ref *out)
{
	const char *s, *dot;
	char reg[128];
	int rc = get_str(L, node, name, required, &s), r, f;

	if (rc)
		return rc;
	dot = strchr(s, '.');
	if (!dot || (size_t)(dot - s) >= sizeof(reg))
		return fail(L, node, name, "must read REGISTER.FIELD, found '%s'", s);
	memcpy(reg, s, (size_t)(dot - s));
	reg[dot - s] = '\0';
	r = pmu_model_register(L->m, reg);
	f = r >= 0 ? pmu_model_reg_field(&L->m->registers[r], dot + 1) : -1;
	if (r < 0 || f < 0)
		return fail(L, node, name, "'%s': no %s '%s'", s,
			    r < 0 ? "register" : "field", r < 0 ? reg : dot + 1);
	out->reg = r;
	out->field = f;
	return 0;
}

/* A name looked up in a table of enum names (fn(i) for i in 0..n-1). */
static int get_enum(struct dl *L, int node, const char *name, bool required,
		    const char *(*fn)(int), int n, int *out)
{
	const char *s;
	int rc = get_str(L, node, name, required, &s);

	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		if (strcmp(s, fn(i)) == 0) {
			*out = i;
			return 0;
		}
	}
	return fail(L, node, name, "unknown value '%s'", s);
}

static int get_condition(struct dl *L, int node, const char *name,
			 struct pmu_condition *out)
{
	const char *s;
	char why[256];
	int rc = get_str(L, node, name, false, &s);

	if (rc)
		return rc < 0 ? rc : 0;
	if (pmu_condition_parse(L->m, s, out, why, sizeof(why)) != 0)
		return fail(L, node, name, "%s", why);
	return 0;
}

/* Wrappers with the int signature get_enum wants. */
static const char *role_name(int i) { return pmu_role_name((enum pmu_field_role)i); }
static const char *source_name(int i) { return pmu_source_name((enum pmu_source)i); }
static const char *transform_name(int i) { return pmu_transform_name((enum pmu_transform)i); }
static const char *cons_kind_name(int i) { return pmu_constraint_kind_name((enum pmu_constraint_kind)i); }
static const char *check_kind_name(int i) { return pmu_check_kind_name((enum pmu_check_kind)i); }
static const char *usage_when_name(int i) { return pmu_usage_when_name((enum pmu_usage_when)i); }

/* thresh-cmp-p10's encoding-NAME properties, all required, each in its domain
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

			rc |= get_u32(L, node, prop[p], true, &count) < 0;
			v = count;
		} else {
			rc |= get_u64(L, node, prop[p], true, false, &v) < 0;
		}
		pmu_thresh_param_set(enc, (enum pmu_thresh_param)p, v);
	}
	if (rc)
		return -EINVAL;
	enum pmu_thresh_param bad = pmu_thresh_encoding_bad(enc, why, sizeof(why));
	return bad == PMU_ENC_NPARAMS ? 0 : fail(L, node, prop[bad], "%s", why);
}

/* `transform`, with sdar-mode's `transform-arg` or thresh-cmp-p10's encoding. */
static int get_transform(struct dl *L, int node, enum pmu_transform *t, uint64_t *arg,
			 struct pmu_thresh_encoding *enc)
{
	int v = PMU_XF_NONE;

	if (get_enum(L, node, "transform", false, transform_name, PMU_XF_THRESH_CMP_P10 + 1, &v) < 0)
		return -EINVAL;
	*t = (enum pmu_transform)v;
	if (*t == PMU_XF_THRESH_CMP_P10) {
		if (has_prop(L, node, "transform-arg"))
			return fail(L, node, "transform-arg",
				    "thresh-cmp-p10 takes its parameters from the encoding-* properties");
		return get_encoding(L, node, enc);
	}
	return get_u64(L, node, "transform-arg", false, false, arg) < 0 ? -EINVAL : 0;
}

/* --- nodes --------------------------------------------------------------------- */

static const char *node_name(struct dl *L, int node)
{
	const char *n = fdt_get_name(L->fdt, node, NULL);

	return n ? n : "";
}

static int child(struct dl *L, int parent, const char *name, bool required)
{
	int off = fdt_subnode_offset(L->fdt, parent, name);

	if (off >= 0)
		return off;
	if (required)
		fail(L, parent, NULL, "missing node '%s'", name);
	return -1;
}

static int count_children(struct dl *L, int parent)
{
	int node, n = 0;

	fdt_for_each_subnode(node, L->fdt, parent)
		n++;
	return n;
}

/* Copy of a node name with ASCII letters mapped by upper/lower case. */
static char *case_copy(struct dl *L, int node, bool upper)
{
	char *s = pmu_strdup(node_name(L, node));

	for (char *p = s; p && *p; p++) {
		if (upper && *p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
		else if (!upper && *p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	}
	if (!s)
		oom(L);
	return s;
}

/* calloc'd array of n elements (NULL also when n is 0). */
static void *alloc_array(struct dl *L, int n, size_t size)
{
	void *p;

	if (n <= 0)
		return NULL;
	p = calloc((size_t)n, size);
	if (!p)
		oom(L);
	return p;
}

/* --- identity --------------------------------------------------------------------- */

static int find_pmu(struct dl *L)
{
	int first = -1;

	for (int off = fdt_node_offset_by_compatible(L->fdt, -1, "ibm,power-pmu");
	     off >= 0;
	     off = fdt_node_offset_by_compatible(L->fdt, off, "ibm,power-pmu")) {
		int parent = fdt_parent_offset(L->fdt, off);

		if (first < 0)
			first = off;
		if (parent > 0 && strcmp(node_name(L, parent), "pmus") == 0 &&
		    fdt_parent_offset(L->fdt, parent) == 0)
			return off;
	}
	if (first < 0)
		return fail(L, 0, NULL, "no node with compatible \"ibm,power-pmu\"");
	return first;
}

static int load_identity(struct dl *L)
{
	struct pmu_model *m = L->m;
	const char *compat;
	uint32_t format = 0;
	int len, rc = 0;

	compat = fdt_stringlist_get(L->fdt, L->pmu, "compatible", 0, &len);
	m->compatible = pmu_strdup(compat ? compat : "ibm,power-pmu");
	if (!m->compatible)
		return oom(L);
	rc = get_u32(L, L->pmu, "description-format", false, &format);
	if (rc == 0 && format != PMU_FORMAT_VERSION)
		rc = fail(L, L->pmu, "description-format",
			  "version %u (this loader reads %d)", format,
			  PMU_FORMAT_VERSION);
	L->legacy = rc == 1;
	if (get_strdup(L, L->pmu, "pmu-name", false, &m->name) < 0 ||
	    get_strdup(L, L->pmu, "pmu-version", false, &m->version) < 0 ||
	    get_strdup(L, L->pmu, "platform", false, &m->platform) < 0 ||
	    get_u32(L, L->pmu, "max-group", !L->legacy, &m->max_group) < 0)
		rc = -EINVAL;
	m->overflow_counter_unknown = has_prop(L, L->pmu, "overflow-counter-unknown");
	if (get_u32(L, L->pmu, "pvr", false, &m->pvr) < 0)
		rc = -EINVAL;
	return rc < 0 ? rc : 0;
}

/* nr_pmc (required, as for the kernel) and nr_mmcr must match the lists. */
static int check_counts(struct dl *L)
{
	uint32_t nr_pmc, nr_mmcr;
	int rc = get_u32(L, L->pmu, "nr_pmc", true, &nr_pmc);

	if (rc == 0 && nr_pmc != (uint32_t)L->m->ncounters)
		rc = fail(L, L->pmu, "nr_pmc", "says %u counters, sprs/pmcs has %d",
			  nr_pmc, L->m->ncounters);
	if (get_u32(L, L->pmu, "nr_mmcr", false, &nr_mmcr) == 0 &&
	    nr_mmcr != (uint32_t)L->m->nregisters)
		rc = fail(L, L->pmu, "nr_mmcr", "says %u registers, sprs/mmcr has %d",
			  nr_mmcr, L->m->nregisters);
	if (L->legacy && L->m->max_group == 0)
		L->m->max_group = (uint32_t)L->m->ncounters;
	return rc < 0 ? rc : 0;
}

/* --- counters and registers ----------------------------------------------------- */

static int load_counter(struct dl *L, int node, struct pmu_counter *c)
{
	uint32_t prog = 0;
	int rc = 0;

	c->pos = node_pos(L, node);
	c->name = case_copy(L, node, true);
	if (!c->name)
		return -ENOMEM;
	rc |= get_u32(L, node, "sprn", true, &c->sprn) < 0;
	rc |= get_u32(L, node, "register-width", true, &c->width) < 0;
	rc |= get_strdup(L, node, "privilege", false, &c->privilege) < 0;
	rc |= get_u32(L, node, "programmable", true, &prog) < 0;
	if (prog > 1)
		rc |= fail(L, node, "programmable", "must be 0 or 1, found %u", prog) < 0;
	c->programmable = prog == 1;
	rc |= get_strdup(L, node, "event", false, &c->event) < 0;
	if (c->event && strcmp(c->event, "any") == 0) {
		free(c->event);
		c->event = NULL;
	}
	rc |= get_u64(L, node, "fixed-code", !L->legacy && !c->programmable,
		      false, &c->fixed_code) < 0;
	return rc ? -EINVAL : 0;
}

static int load_counters(struct dl *L, int pmcs)
{
	int node, i = 0, rc = 0, n = count_children(L, pmcs);

	L->m->counters = alloc_array(L, n, sizeof(*L->m->counters));
	if (n && !L->m->counters)
		return -ENOMEM;
	L->m->ncounters = n;
	fdt_for_each_subnode(node, L->fdt, pmcs) {
		if (i >= n)
			break;
		rc |= load_counter(L, node, &L->m->counters[i++]);
	}
	for (int a = 0; a < n && !rc; a++)
		for (int b = a + 1; b < n; b++)
			if (strcmp(L->m->counters[a].name, L->m->counters[b].name) == 0)
				rc |= fail(L, pmcs, NULL, "counter %s given twice",
					   L->m->counters[a].name);
	return rc ? -EINVAL : 0;
}

static int load_reg_field(struct dl *L, int node, struct pmu_reg_field *f)
{
	int rc = 0;

	f->pos = node_pos(L, node);
	f->name = pmu_strdup(node_name(L, node));
	if (!f->name)
		return oom(L);
	rc |= get_strdup(L, node, "description", false, &f->description) < 0;
	if (has_prop(L, node, "bits")) {
		f->layout = PMU_LAYOUT_FIXED;
		rc |= get_range(L, node, "bits", true, &f->lo, &f->hi) < 0;
	} else {
		f->layout = PMU_LAYOUT_PER_PMC;
		rc |= get_u32(L, node, "target_field_base", true, &f->base) < 0;
		rc |= get_u32(L, node, "target_field_shift", true, &f->stride) < 0;
		rc |= get_u32(L, node, "length", true, &f->width) < 0;
	}
	return rc ? -EINVAL : 0;
}

static int load_register(struct dl *L, int node, int position,
			 struct pmu_register *r)
{
	int sub, i = 0, rc = 0, n = count_children(L, node);

	r->pos = node_pos(L, node);
	r->name = case_copy(L, node, true);
	if (!r->name)
		return -ENOMEM;
	rc |= get_u32(L, node, "sprn", true, &r->sprn) < 0;
	rc |= get_u32(L, node, "register-width", true, &r->width) < 0;
	rc |= get_strdup(L, node, "privilege", false, &r->privilege) < 0;
	/* skiboot trees have no mmcr-index: the RFC's index is the position
	 * (mmcr0 mmcr1 mmcr2 mmcr3 mmcra = 0..4) */
	r->index = (uint32_t)position;
	rc |= get_u32(L, node, "mmcr-index", !L->legacy, &r->index) < 0;
	rc |= get_u64(L, node, "reset-value", false, false, &r->reset) < 0;
	r->fields = alloc_array(L, n, sizeof(*r->fields));
	if (n && !r->fields)
		return -ENOMEM;
	r->nfields = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_reg_field(L, sub, &r->fields[i++]);
	}
	return rc ? -EINVAL : 0;
}

static int load_registers(struct dl *L, int mmcr)
{
	int node, i = 0, rc = 0, n = count_children(L, mmcr);

	L->m->registers = alloc_array(L, n, sizeof(*L->m->registers));
	if (n && !L->m->registers)
		return -ENOMEM;
	L->m->nregisters = n;
	fdt_for_each_subnode(node, L->fdt, mmcr) {
		if (i >= n)
			break;
		rc |= load_register(L, node, i, &L->m->registers[i]);
		i++;
	}
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (L->m->registers[a].name && L->m->registers[b].name &&
			    strcmp(L->m->registers[a].name, L->m->registers[b].name) == 0)
				rc |= fail(L, mmcr, NULL, "register %s given twice",
					   L->m->registers[a].name);
	if (n == 0)
		rc |= fail(L, mmcr, NULL, "no control registers");
	return rc ? -EINVAL : 0;
}

static int load_sprs(struct dl *L)
{
	int sprs = child(L, L->pmu, "sprs", true), pmcs, mmcr, rc = 0;

	if (sprs < 0)
		return -EINVAL;
	pmcs = child(L, sprs, "pmcs", true);
	mmcr = child(L, sprs, "mmcr", true);
	if (pmcs < 0 || mmcr < 0)
		return -EINVAL;
	rc |= load_counters(L, pmcs);
	rc |= load_registers(L, mmcr);
	return rc ? -EINVAL : 0;
}

/* --- skiboot trees: register fields made up from target properties ---------------- */

static int register_by_index(struct dl *L, int node, const char *prop,
			     uint32_t index)
{
	for (int i = 0; i < L->m->nregisters; i++)
		if (L->m->registers[i].index == index)
			return i;
	return fail(L, node, prop, "no register has mmcr index %u", index);
}

/* The register field of register r laid out as want, added (named name)
 * when there is none. Returns its index or -EINVAL. */
static int find_or_add_reg_field(struct dl *L, int node, int r,
				 const struct pmu_reg_field *want,
				 const char *name)
{
	struct pmu_register *reg = &L->m->registers[r];
	struct pmu_reg_field *grown, *f;

	for (int i = 0; i < reg->nfields; i++) {
		f = &reg->fields[i];
		if (f->layout != want->layout)
			continue;
		if (f->layout == PMU_LAYOUT_FIXED ? f->lo == want->lo && f->hi == want->hi
		    : f->base == want->base && f->stride == want->stride &&
		      f->width == want->width)
			return i;
	}
	if (pmu_model_reg_field(reg, name) >= 0)
		return fail(L, node, NULL, "register %s already has a field %s with another layout",
			    reg->name, name);
	grown = realloc(reg->fields, (size_t)(reg->nfields + 1) * sizeof(*grown));
	if (!grown)
		return oom(L);
	reg->fields = grown;
	f = &reg->fields[reg->nfields];
	*f = *want;
	f->name = pmu_strdup(name);
	f->description = NULL;
	f->pos = node_pos(L, node);
	if (!f->name)
		return oom(L);
	return reg->nfields++;
}

/* A skiboot evt_code_format node's target: mmcr + target_fields or
 * target_field_base/target_field_shift. */
static int legacy_field_target(struct dl *L, int node, struct pmu_field *f)
{
	struct pmu_reg_field want = { 0 };
	uint32_t index, base = 0, shift = 0;
	int r, rf;

	if (!has_prop(L, node, "target_fields") &&
	    !has_prop(L, node, "target_field_base"))
		return 0;
	if (get_u32(L, node, "mmcr", true, &index) < 0)
		return -EINVAL;
	r = register_by_index(L, node, "mmcr", index);
	if (r < 0)
		return r;
	if (has_prop(L, node, "target_fields")) {
		want.layout = PMU_LAYOUT_FIXED;
		if (get_range(L, node, "target_fields", true, &want.lo, &want.hi) < 0)
			return -EINVAL;
	} else {
		if (get_u32(L, node, "target_field_base", true, &base) < 0 ||
		    get_u32(L, node, "target_field_shift", false, &shift) < 0)
			return -EINVAL;
		want.layout = PMU_LAYOUT_PER_PMC;
		want.base = base;
		want.stride = shift;
		want.width = f->hi - f->lo + 1;
	}
	rf = find_or_add_reg_field(L, node, r, &want, node_name(L, node));
	if (rf < 0)
		return rf;
	f->target_reg = r;
	f->target_field = rf;
	return 0;
}

/* skiboot names the counter-select field PMCx (the RFC's rule) and has
 * MARK and PMCxUNIT. */
static enum pmu_field_role legacy_role(const char *node)
{
	if (strcmp(node, "PMCx") == 0)
		return PMU_ROLE_PMC;
	if (strcmp(node, "MARK") == 0)
		return PMU_ROLE_MARK;
	if (strcmp(node, "PMCxUNIT") == 0)
		return PMU_ROLE_UNIT;
	return PMU_ROLE_NONE;
}

/* --- event-code fields ----------------------------------------------------------- */

static int field_target(struct dl *L, int node, struct pmu_field *f)
{
	struct pmu_reg_ref ref;
	int rc = get_ref(L, node, "lands-in", false, &ref);

	if (rc == 0) {
		f->target_reg = ref.reg;
		f->target_field = ref.field;
	} else if (rc == 1 && L->legacy) {
		rc = legacy_field_target(L, node, f);
	}
	if (rc < 0)
		return rc;
	rc = get_ref(L, node, "clears", false, &ref);
	if (rc == 0) {
		f->clear_reg = ref.reg;
		f->clear_field = ref.field;
	}
	return rc < 0 ? rc : 0;
}

static int field_props(struct dl *L, int node, struct pmu_field *f)
{
	int rc = 0, v;
	uint32_t length;

	rc |= get_strdup(L, node, "description", false, &f->description) < 0;
	rc |= get_range(L, node, "bits", true, &f->lo, &f->hi) < 0;
	if (get_u32(L, node, "length", false, &length) == 0 && rc == 0 &&
	    length != f->hi - f->lo + 1)
		rc |= fail(L, node, "length", "%u does not match bits <%u %u>",
			   length, f->lo, f->hi) < 0;
	v = PMU_SRC_CONFIG;
	rc |= get_enum(L, node, "source", false, source_name, PMU_SRC_CONFIG1 + 1, &v) < 0;
	f->source = (enum pmu_source)v;
	{
		int role = L->legacy && !has_prop(L, node, "field-name") ?
				   (int)legacy_role(node_name(L, node)) : PMU_ROLE_NONE;

		rc |= get_enum(L, node, "role", false, role_name, PMU_ROLE_UNIT + 1, &role) < 0;
		f->role = (enum pmu_field_role)role;
	}
	f->linux_defined = has_prop(L, node, "linux-defined");
	rc |= get_transform(L, node, &f->transform, &f->transform_arg, &f->encoding) < 0;
	rc |= field_target(L, node, f) < 0;
	return rc ? -EINVAL : 0;
}

/* One field node; in_ecf: under evt_code_format (dts name = node name). */
static int load_field(struct dl *L, int node, bool in_ecf, struct pmu_field *f)
{
	const char *fname = NULL;
	int rc;

	f->pos = node_pos(L, node);
	f->parent = -1;
	f->target_reg = f->clear_reg = -1;
	rc = get_str(L, node, "field-name", false, &fname);
	if (rc < 0)
		return rc;
	f->name = fname ? pmu_strdup(fname) : case_copy(L, node, false);
	if (in_ecf)
		f->dts_name = pmu_strdup(node_name(L, node));
	if (!f->name || (in_ecf && !f->dts_name))
		return oom(L);
	return field_props(L, node, f);
}

static int load_field_list(struct dl *L, int parent, bool in_ecf, int *i)
{
	int node, rc = 0;

	fdt_for_each_subnode(node, L->fdt, parent) {
		if (*i >= L->m->nfields)
			break;
		L->field_node[*i] = node;
		rc |= load_field(L, node, in_ecf, &L->m->fields[*i]);
		(*i)++;
	}
	return rc ? -EINVAL : 0;
}

/* Pass two, once every field exists: parents and conditions. */
static int link_fields(struct dl *L)
{
	int rc = 0;

	for (int i = 0; i < L->m->nfields; i++) {
		struct pmu_field *f = &L->m->fields[i];
		int node = L->field_node[i];
		const char *parent;

		for (int j = 0; j < i; j++)
			if (f->name && L->m->fields[j].name &&
			    strcmp(f->name, L->m->fields[j].name) == 0)
				rc |= fail(L, node, NULL, "field '%s' given twice", f->name);
		if (get_str(L, node, "parent", false, &parent) == 0) {
			f->parent = pmu_model_field(L->m, parent);
			if (f->parent < 0 || f->parent == i)
				rc |= fail(L, node, "parent", "no field '%s'", parent);
		}
		rc |= get_condition(L, node, "when", &f->when);
	}
	return rc ? -EINVAL : 0;
}

static int load_fields(struct dl *L, int constraints)
{
	int ecf = child(L, L->pmu, "evt_code_format", true);
	int extra = constraints >= 0 ? child(L, constraints, "fields", false) : -1;
	int n, i = 0, rc = 0;

	if (ecf < 0)
		return -EINVAL;
	n = count_children(L, ecf) + (extra >= 0 ? count_children(L, extra) : 0);
	L->m->fields = alloc_array(L, n, sizeof(*L->m->fields));
	L->field_node = alloc_array(L, n, sizeof(*L->field_node));
	if (n && (!L->m->fields || !L->field_node))
		return -ENOMEM;
	L->m->nfields = n;
	rc |= load_field_list(L, ecf, true, &i);
	if (extra >= 0)
		rc |= load_field_list(L, extra, false, &i);
	if (rc)
		return -EINVAL;
	return link_fields(L);
}

/* --- compute_mmcr's other inputs ------------------------------------------------- */

static int load_privilege_filters(struct dl *L, int node)
{
	int rc = 0;

	for (int e = 0; e < PMU_EXCL_COUNT; e++)
		rc |= get_ref(L, node, pmu_exclude_name((enum pmu_exclude)e), false,
			      &L->m->exclude[e]) < 0;
	rc |= get_ref(L, node, "branch-stack-clears", false,
		      &L->m->branch_stack_clears) < 0;
	return rc ? -EINVAL : 0;
}

/* skiboot's mmcr2 { fcs fcp fch }: freeze bit for PMC n at
 * pgm_base - (n - 1) * stride, i.e. a per-PMC field with base pgm_base +
 * stride.  The kernel (isa207_compute_mmcr) sets FCP for exclude_user, FCS
 * for exclude_kernel (FCH in HV mode) and FCH for exclude_hv. */
static int load_legacy_freeze(struct dl *L, int mmcr2)
{
	int node, rc = 0;

	fdt_for_each_subnode(node, L->fdt, mmcr2) {
		struct pmu_reg_field want = { 0 };
		uint32_t index, base, stride = 0;
		char *name = case_copy(L, node, true);
		int r, f = -1;

		if (!name)
			return -ENOMEM;
		if (get_u32(L, node, "mmcr", true, &index) < 0 ||
		    get_u32(L, node, "pgm_base", true, &base) < 0 ||
		    get_u32(L, node, "stride", false, &stride) < 0 ||
		    (r = register_by_index(L, node, "mmcr", index)) < 0) {
			free(name);
			rc = -EINVAL;
			continue;
		}
		want.layout = has_prop(L, node, "use_stride") ? PMU_LAYOUT_PER_PMC :
								PMU_LAYOUT_FIXED;
		want.lo = want.hi = base;
		want.base = base + stride;
		want.stride = stride;
		want.width = 1;
		f = find_or_add_reg_field(L, node, r, &want, name);
		if (f >= 0) {
			struct pmu_reg_ref ref = { r, f };

			if (strcmp(name, "FCP") == 0)
				L->m->exclude[PMU_EXCL_USER] = ref;
			if (strcmp(name, "FCS") == 0)
				L->m->exclude[PMU_EXCL_KERNEL] = ref;
			if (strcmp(name, "FCH") == 0)
				L->m->exclude[PMU_EXCL_HV] =
					L->m->exclude[PMU_EXCL_KERNEL_HV] = ref;
		}
		free(name);
		if (f < 0)
			rc = -EINVAL;
	}
	return rc;
}

/* A skiboot mmcr0-setters node: mmcr + bit, named by the node. */
static int legacy_usage_target(struct dl *L, int node, struct pmu_reg_ref *out)
{
	struct pmu_reg_field want = { 0 };
	uint32_t index, bit;
	char *name;
	int r, f;

	if (get_u32(L, node, "mmcr", true, &index) < 0 ||
	    get_u32(L, node, "bit", true, &bit) < 0)
		return -EINVAL;
	if (bit > 63)
		return fail(L, node, "bit", "%u is not a bit of a 64-bit register", bit);
	r = register_by_index(L, node, "mmcr", index);
	if (r < 0)
		return r;
	want.layout = PMU_LAYOUT_FIXED;
	want.lo = want.hi = bit;
	name = case_copy(L, node, true);
	if (!name)
		return -ENOMEM;
	f = find_or_add_reg_field(L, node, r, &want, name);
	free(name);
	if (f < 0)
		return f;
	out->reg = r;
	out->field = f;
	return 0;
}

static int load_usage_bit(struct dl *L, int node, struct pmu_usage_bit *u)
{
	uint32_t pmcs[32];
	int n = 0, rc, when;

	u->pos = node_pos(L, node);
	rc = get_ref(L, node, "lands-in", !L->legacy, &u->target);
	if (rc == 1)
		rc = legacy_usage_target(L, node, &u->target);
	if (rc < 0)
		return rc;
	rc = get_cells(L, node, "trigger-pmc", false, pmcs, 1, 31, &n);
	if (rc < 0)
		return rc;
	for (int i = 0; i < n; i++) {
		if (pmcs[i] < 1 || pmcs[i] > (uint32_t)L->m->ncounters)
			return fail(L, node, "trigger-pmc", "there is no PMC%u (%d counters)",
				    pmcs[i], L->m->ncounters);
		u->counters |= UINT32_C(1) << pmcs[i];
	}
	/* skiboot gives no `when`: a list of PMCs means "when used" */
	when = n ? PMU_WHEN_USED : PMU_WHEN_ALWAYS;
	rc = get_enum(L, node, "when", !L->legacy, usage_when_name, PMU_WHEN_ALWAYS + 1, &when);
	u->when = (enum pmu_usage_when)when;
	return rc < 0 ? rc : 0;
}

static int load_usage(struct dl *L, int setters)
{
	int node, i = 0, rc = 0, n = count_children(L, setters);

	L->m->usage = alloc_array(L, n, sizeof(*L->m->usage));
	if (n && !L->m->usage)
		return -ENOMEM;
	L->m->nusage = n;
	fdt_for_each_subnode(node, L->fdt, setters) {
		if (i >= n)
			break;
		rc |= load_usage_bit(L, node, &L->m->usage[i++]);
	}
	return rc ? -EINVAL : 0;
}

static int load_mmcr_inputs(struct dl *L)
{
	int pf = child(L, L->pmu, "privilege-filters", false);
	int setters = child(L, L->pmu, "mmcr0-setters", false);
	int mmcr2 = child(L, L->pmu, "mmcr2", false);
	int rc = 0;

	if (pf >= 0)
		rc |= load_privilege_filters(L, pf);
	else if (L->legacy && mmcr2 >= 0)
		rc |= load_legacy_freeze(L, mmcr2);
	if (setters >= 0)
		rc |= load_usage(L, setters);
	return rc ? -EINVAL : 0;
}

/* --- constraints ------------------------------------------------------------------ */

/* The constraint's source: a field's bits, a bit range, or (skiboot) the
 * RFC's event-mask and event-shift. */
static int constraint_source(struct dl *L, int node, struct pmu_constraint *c)
{
	const char *fname;
	int src = PMU_SRC_CONFIG, rc;

	if (get_enum(L, node, "source", false, source_name, PMU_SRC_CONFIG1 + 1, &src) < 0)
		return -EINVAL;
	c->source = (enum pmu_source)src;
	rc = get_str(L, node, "field", false, &fname);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		int f = pmu_model_field(L->m, fname);

		if (f < 0)
			return fail(L, node, "field", "no field '%s'", fname);
		c->src_lo = L->m->fields[f].lo;
		c->src_hi = L->m->fields[f].hi;
		return 0;
	}
	rc = get_range(L, node, "bits", false, &c->src_lo, &c->src_hi);
	if (rc <= 0)
		return rc;
	if (c->kind == PMU_CONS_EQUAL && !has_prop(L, node, "flag"))
		return fail(L, node, NULL, "an equal constraint needs 'field', 'bits' or 'flag'");
	return 0;
}

/* <lo hi> in the constraint word: `slot`, or the RFC's constraint-mask. */
static int constraint_slot(struct dl *L, int node, struct pmu_constraint *c)
{
	uint64_t mask;
	int rc = get_range(L, node, "slot", false, &c->slot_lo, &c->slot_hi);

	if (rc <= 0)
		return rc;
	rc = get_u64(L, node, "constraint-mask", true, false, &mask);
	if (rc < 0)
		return rc;
	if (mask == 0)
		return fail(L, node, "constraint-mask", "is 0");
	c->slot_lo = (uint32_t)__builtin_ctzll(mask);
	c->slot_hi = 63u - (uint32_t)__builtin_clzll(mask);
	if (pmu_bits_mask(c->slot_lo, c->slot_hi) != mask)
		return fail(L, node, "constraint-mask", "0x%llx is not one run of bits",
			    (unsigned long long)mask);
	return 0;
}

/* An equal constraint's `flag` condition and its group rule
 * (`group-require` and `group-reason` together). */
static int load_group_rule(struct dl *L, int node, struct pmu_constraint *c)
{
	bool req = has_prop(L, node, "group-require"), why = has_prop(L, node, "group-reason");

	c->has_flag = has_prop(L, node, "flag");
	if ((c->has_flag || req || why) && c->kind != PMU_CONS_EQUAL)
		return fail(L, node, c->has_flag ? "flag" : "group-require",
			    "only an equal constraint takes a flag or a group rule");
	if (c->has_flag && get_condition(L, node, "flag", &c->flag) < 0)
		return -EINVAL;
	if (req != why)
		return fail(L, node, req ? "group-reason" : "group-require",
			    "group-require and group-reason go together");
	if (!req)
		return 0;
	if (get_u64(L, node, "group-require", true, false, &c->group_require) < 0 ||
	    get_strdup(L, node, "group-reason", true, &c->group_reason) < 0)
		return -EINVAL;
	uint32_t width = c->slot_hi - c->slot_lo + 1;
	if (width < 64 && c->group_require >> width)
		return fail(L, node, "group-require", "0x%llx does not fit the %u-bit slot",
			    (unsigned long long)c->group_require, width);
	return 0;
}

static int load_constraint(struct dl *L, int node, struct pmu_constraint *c)
{
	int kind = PMU_CONS_EQUAL, rc = 0;

	c->pos = node_pos(L, node);
	c->name = pmu_strdup(node_name(L, node));
	if (!c->name)
		return oom(L);
	if (get_enum(L, node, "kind", true, cons_kind_name, PMU_CONS_COUNT + 1, &kind) < 0)
		return -EINVAL;
	c->kind = (enum pmu_constraint_kind)kind;
	rc |= constraint_source(L, node, c) < 0;
	rc |= constraint_slot(L, node, c) < 0;
	rc |= get_condition(L, node, "when", &c->when) < 0;
	rc |= get_strdup(L, node, "description", false, &c->description) < 0;
	rc |= get_transform(L, node, &c->transform, &c->transform_arg, &c->encoding) < 0;
	rc |= get_u32(L, node, "limit", c->kind != PMU_CONS_EQUAL, &c->limit) < 0;
	rc |= load_group_rule(L, node, c) < 0;
	return rc ? -EINVAL : 0;
}

/* skiboot's constraint nodes carry the kernel's condition codes; only
 * 0 (always) and 1 (marked) have an equivalent in the description. */
static int load_legacy_constraint(struct dl *L, int node, struct pmu_constraint *c)
{
	uint32_t cond, emask, eshift;
	char why[128];

	if (get_u32(L, node, "condition", true, &cond) < 0 ||
	    get_u32(L, node, "event-mask", true, &emask) < 0 ||
	    get_u32(L, node, "event-shift", true, &eshift) < 0)
		return -EINVAL;
	if ((emask & (emask + 1)) != 0 || emask == 0 ||
	    eshift + (uint32_t)__builtin_popcount(emask) > 64)
		return fail(L, node, "event-mask", "0x%x at shift %u is not a field of the event code",
			    emask, eshift);
	c->pos = node_pos(L, node);
	c->name = pmu_strdup(node_name(L, node));
	if (!c->name)
		return oom(L);
	c->kind = PMU_CONS_EQUAL;
	c->src_lo = eshift;
	c->src_hi = eshift + (uint32_t)__builtin_popcount(emask) - 1;
	if (constraint_slot(L, node, c) < 0)
		return -EINVAL;
	if (cond == 1 &&
	    pmu_condition_parse(L->m, "only for marked events", &c->when, why, sizeof(why)))
		return fail(L, node, "condition", "%s", why);
	return 0;
}

/* Whether a skiboot constraint node is one load_legacy_constraint reads. */
static bool legacy_constraint_usable(struct dl *L, int node)
{
	uint32_t cond;
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, "condition", &len);

	if (!v || len != 4 || !has_prop(L, node, "event-mask"))
		return false;
	cond = fdt32_ld(v);
	return cond == 0 || cond == 1;
}

static bool reserved_constraint_child(struct dl *L, int node)
{
	const char *n = node_name(L, node);

	return !has_prop(L, node, "kind") &&
	       (strcmp(n, "fields") == 0 || strcmp(n, "alternatives") == 0 ||
		strcmp(n, "checks") == 0);
}

/* Constraint nodes: pmugen's (with `kind`) or, in a skiboot tree, the
 * usable ones among its constraint nodes and their children. */
static int collect_constraints(struct dl *L, int parent, int depth, int *nodes,
			       int max)
{
	int node, n = 0;

	fdt_for_each_subnode(node, L->fdt, parent) {
		if (depth == 0 && reserved_constraint_child(L, node))
			continue;
		if (has_prop(L, node, "kind") ||
		    (L->legacy && legacy_constraint_usable(L, node))) {
			if (nodes && n < max)
				nodes[n] = node;
			n++;
		} else if (!L->legacy) {
			continue; /* not ours: ignored, as the kernel does */
		} else if (depth == 0 && fdt_first_subnode(L->fdt, node) >= 0) {
			n += collect_constraints(L, node, 1, nodes ? nodes + n : NULL,
						 max - n);
		} else if (!nodes) {
			L->legacy_skipped++; /* counted on the first pass only */
		}
	}
	return n;
}

static int load_constraint_list(struct dl *L, int constraints)
{
	int n = collect_constraints(L, constraints, 0, NULL, 0), rc = 0;
	int *nodes = alloc_array(L, n, sizeof(int));

	if (n && !nodes)
		return -ENOMEM;
	collect_constraints(L, constraints, 0, nodes, n);
	L->m->constraints = alloc_array(L, n, sizeof(*L->m->constraints));
	if (n && !L->m->constraints) {
		free(nodes);
		return -ENOMEM;
	}
	L->m->nconstraints = n;
	for (int i = 0; i < n; i++)
		rc |= (has_prop(L, nodes[i], "kind") ?
			       load_constraint(L, nodes[i], &L->m->constraints[i]) :
			       load_legacy_constraint(L, nodes[i], &L->m->constraints[i])) < 0;
	free(nodes);
	if (L->legacy_skipped) {
		struct pmu_pos p = node_pos(L, constraints);

		pmu_report_warning(L->d, &p,
				   "%d skiboot constraint node%s with no equivalent in the description (kernel condition codes, counter limits) not loaded",
				   L->legacy_skipped, L->legacy_skipped == 1 ? "" : "s");
	}
	return rc ? -EINVAL : 0;
}

static int load_alternative(struct dl *L, int node, struct pmu_alternative *a)
{
	uint32_t c[8];
	int n = 0;

	a->pos = node_pos(L, node);
	if (get_cells(L, node, "codes", true, c, 2, 8, &n) < 0)
		return -EINVAL;
	if (n % 2)
		return fail(L, node, "codes", "expected <hi lo> pairs, found %d cells", n);
	a->ncodes = n / 2;
	for (int i = 0; i < a->ncodes; i++)
		a->codes[i] = (uint64_t)c[2 * i] << 32 | c[2 * i + 1];
	a->per_task_only = has_prop(L, node, "per-task-only");
	return 0;
}

static int load_alternatives(struct dl *L, int node)
{
	int sub, i = 0, rc = 0, n = count_children(L, node);

	L->m->alternatives = alloc_array(L, n, sizeof(*L->m->alternatives));
	if (n && !L->m->alternatives)
		return -ENOMEM;
	L->m->nalternatives = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_alternative(L, sub, &L->m->alternatives[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* A refused-code check's `codes`, <hi lo> pairs, with that kind only. */
static int load_check_codes(struct dl *L, int node, struct pmu_check *c)
{
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, "codes", &len);

	if (!v != (c->kind != PMU_CHECK_REFUSED_CODE))
		return fail(L, node, "codes", "a refused-code check takes codes, the other kinds do not");
	if (!v)
		return 0;
	if (len <= 0 || len % 8)
		return fail(L, node, "codes", "expected <hi lo> pairs, found %d bytes", len);
	c->codes = alloc_array(L, len / 8, sizeof(*c->codes));
	if (!c->codes)
		return -ENOMEM;
	c->ncodes = len / 8;
	for (int i = 0; i < c->ncodes; i++)
		c->codes[i] = (uint64_t)fdt32_ld(&v[2 * i]) << 32 | fdt32_ld(&v[2 * i + 1]);
	return 0;
}

/* `pvr-mask` and `pvr-value` go together; the value lies in the mask. */
static int load_check_pvr(struct dl *L, int node, struct pmu_check *c)
{
	bool mask = has_prop(L, node, "pvr-mask");

	if (mask != has_prop(L, node, "pvr-value"))
		return fail(L, node, mask ? "pvr-value" : "pvr-mask",
			    "pvr-mask and pvr-value go together");
	if (!mask)
		return 0;
	if (get_u32(L, node, "pvr-mask", true, &c->pvr_mask) < 0 ||
	    get_u32(L, node, "pvr-value", true, &c->pvr_value) < 0)
		return -EINVAL;
	if (c->pvr_value & ~c->pvr_mask)
		return fail(L, node, "pvr-value", "0x%x sets bits outside pvr-mask 0x%x",
			    c->pvr_value, c->pvr_mask);
	return 0;
}

static int load_check(struct dl *L, int node, struct pmu_check *c)
{
	const char *fname;
	int kind = 0, rc = 0;

	c->pos = node_pos(L, node);
	c->field = -1;
	rc |= get_strdup(L, node, "reason", true, &c->name) < 0;
	rc |= get_strdup(L, node, "description", false, &c->description) < 0;
	if (get_enum(L, node, "kind", true, check_kind_name, PMU_CHECK_KIND_COUNT, &kind) < 0)
		return -EINVAL;
	c->kind = (enum pmu_check_kind)kind;
	rc |= get_condition(L, node, "when", &c->when) < 0;
	if (get_str(L, node, "field", false, &fname) == 0) {
		c->field = pmu_model_field(L->m, fname);
		if (c->field < 0)
			rc |= fail(L, node, "field", "no field '%s'", fname) < 0;
	}
	rc |= load_check_codes(L, node, c) < 0;
	rc |= load_check_pvr(L, node, c) < 0;
	return rc ? -EINVAL : 0;
}

static int load_checks(struct dl *L, int node)
{
	int sub, i = 0, rc = 0, n = count_children(L, node);

	L->m->checks = alloc_array(L, n, sizeof(*L->m->checks));
	if (n && !L->m->checks)
		return -ENOMEM;
	L->m->nchecks = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_check(L, sub, &L->m->checks[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

static int load_constraints(struct dl *L, int constraints)
{
	int alt, chk, rc = 0;

	if (constraints < 0)
		return 0;
	rc |= load_constraint_list(L, constraints);
	alt = child(L, constraints, "alternatives", false);
	chk = child(L, constraints, "checks", false);
	if (alt >= 0 && !has_prop(L, alt, "kind"))
		rc |= load_alternatives(L, alt);
	if (chk >= 0 && !has_prop(L, chk, "kind"))
		rc |= load_checks(L, chk);
	return rc ? -EINVAL : 0;
}

/* --- generic and cache events ------------------------------------------------------- */

static int load_generic_event(struct dl *L, int node, struct pmu_generic *g)
{
	g->pos = node_pos(L, node);
	g->name = pmu_strdup(node_name(L, node));
	if (!g->name)
		return oom(L);
	if (has_prop(L, node, "unsupported")) {
		g->state = PMU_MAP_UNSUPPORTED;
		return 0;
	}
	if (has_prop(L, node, "invalid")) {
		g->state = PMU_MAP_INVALID;
		return 0;
	}
	g->state = PMU_MAP_SUPPORTED;
	return get_u64(L, node, "event_code", true, true, &g->code) < 0 ? -EINVAL : 0;
}

static int load_generic(struct dl *L)
{
	int node = child(L, L->pmu, "generic-events", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	n = count_children(L, node);
	L->m->generic = alloc_array(L, n, sizeof(*L->m->generic));
	if (n && !L->m->generic)
		return -ENOMEM;
	L->m->ngeneric = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_generic_event(L, sub, &L->m->generic[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* [ext] branch-filters { lands-in; filter-N { filter; value | unsupported } } */
static int load_branch_filter(struct dl *L, int node, struct pmu_branch_filter *b)
{
	b->pos = node_pos(L, node);
	if (get_strdup(L, node, "filter", true, &b->name) < 0)
		return -EINVAL;
	if (!pmu_branch_filter_bit(b->name))
		return fail(L, node, "filter", "'%s' is not one of perf's branch filters", b->name);
	if (has_prop(L, node, "unsupported")) {
		b->state = PMU_MAP_UNSUPPORTED;
		return 0;
	}
	b->state = PMU_MAP_SUPPORTED;
	return get_u64(L, node, "value", true, false, &b->value) < 0 ? -EINVAL : 0;
}

static int load_branch_filters(struct dl *L)
{
	int node = child(L, L->pmu, "branch-filters", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	if (get_ref(L, node, "lands-in", true, &L->m->branch_filter_target) < 0)
		return -EINVAL;
	n = count_children(L, node);
	L->m->branch_filters = alloc_array(L, n, sizeof(*L->m->branch_filters));
	if (n && !L->m->branch_filters)
		return -ENOMEM;
	L->m->nbranch_filters = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_branch_filter(L, sub, &L->m->branch_filters[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* "read-access" -> op, result; -1 when name is no such word. */
static int cache_word(const char *name, int *op, int *res)
{
	char word[64];

	for (*op = 0; *op < PMU_OP_NTYPES; (*op)++) {
		for (*res = 0; *res < PMU_RESULT_NTYPES; (*res)++) {
			snprintf(word, sizeof(word), "%s-%s", pmu_cache_op_name(*op),
				 pmu_cache_result_name(*res));
			if (strcmp(word, name) == 0)
				return 0;
		}
	}
	return -1;
}

/* Mark one entry of cache c, once. */
static int cache_set(struct dl *L, int node, const char *prop, int c,
		     const char *word, enum pmu_map_state state, uint64_t code,
		     bool seen[PMU_OP_NTYPES][PMU_RESULT_NTYPES])
{
	int op, res;

	if (cache_word(word, &op, &res) < 0)
		return fail(L, node, prop, "'%s' is not an operation-result pair", word);
	if (seen[op][res])
		return fail(L, node, prop, "'%s' given twice", word);
	seen[op][res] = true;
	L->m->cache[c][op][res].state = state;
	L->m->cache[c][op][res].code = code;
	return 0;
}

static int cache_list(struct dl *L, int node, const char *prop, int c,
		      enum pmu_map_state state,
		      bool seen[PMU_OP_NTYPES][PMU_RESULT_NTYPES])
{
	int n = fdt_stringlist_count(L->fdt, node, prop), rc = 0;

	if (n == -FDT_ERR_NOTFOUND)
		return 0;
	if (n < 0)
		return fail(L, node, prop, "expected a list of strings");
	for (int i = 0; i < n; i++) {
		const char *w = fdt_stringlist_get(L->fdt, node, prop, i, NULL);

		if (!w)
			return fail(L, node, prop, "expected a list of strings");
		rc |= cache_set(L, node, prop, c, w, state, 0, seen) < 0;
	}
	return rc ? -EINVAL : 0;
}

static int load_cache(struct dl *L, int node, int c)
{
	bool seen[PMU_OP_NTYPES][PMU_RESULT_NTYPES] = { { false } };
	int prop, rc = 0;

	rc |= cache_list(L, node, "unsupported-ops", c, PMU_MAP_UNSUPPORTED, seen) < 0;
	rc |= cache_list(L, node, "invalid-ops", c, PMU_MAP_INVALID, seen) < 0;
	fdt_for_each_property_offset(prop, L->fdt, node) {
		const char *name;
		int len;
		const fdt32_t *v = fdt_getprop_by_offset(L->fdt, prop, &name, &len);
		uint64_t code;

		if (!v || !name)
			return fail(L, node, NULL, "unreadable property");
		if (strcmp(name, "unsupported-ops") == 0 || strcmp(name, "invalid-ops") == 0 ||
		    strcmp(name, "phandle") == 0)
			continue;
		if (decode_u64(v, len, true, &code) < 0) {
			rc |= fail(L, node, name, "expected 1, 2 or 4 cells, found %d bytes",
				   len) < 0;
			continue;
		}
		rc |= cache_set(L, node, name, c, name, PMU_MAP_SUPPORTED, code, seen) < 0;
	}
	/* entries the tree does not name: the kernel's -1 */
	for (int op = 0; op < PMU_OP_NTYPES; op++)
		for (int r = 0; r < PMU_RESULT_NTYPES; r++)
			if (!seen[op][r])
				L->m->cache[c][op][r].state = PMU_MAP_INVALID;
	return rc ? -EINVAL : 0;
}

static int load_cache_events(struct dl *L)
{
	int node = child(L, L->pmu, "cache-events", false), sub, rc = 0;
	bool seen[PMU_CACHE_NTYPES] = { false };

	if (node < 0)
		return 0;
	L->m->has_cache_map = true;
	fdt_for_each_subnode(sub, L->fdt, node) {
		int c;

		for (c = 0; c < PMU_CACHE_NTYPES; c++)
			if (strcmp(node_name(L, sub), pmu_cache_name(c)) == 0)
				break;
		if (c == PMU_CACHE_NTYPES) {
			rc |= fail(L, sub, NULL, "not one of perf's cache names") < 0;
			continue;
		}
		if (seen[c]) {
			rc |= fail(L, sub, NULL, "cache given twice") < 0;
			continue;
		}
		seen[c] = true;
		rc |= load_cache(L, sub, c) < 0;
	}
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		if (!seen[c])
			for (int op = 0; op < PMU_OP_NTYPES; op++)
				for (int r = 0; r < PMU_RESULT_NTYPES; r++)
					L->m->cache[c][op][r].state = PMU_MAP_INVALID;
	return rc ? -EINVAL : 0;
}

/* --- events ----------------------------------------------------------------------------- */

static int load_event(struct dl *L, int node, struct pmu_event *e)
{
	int rc = 0;

	e->pos = node_pos(L, node);
	e->alias_of = -1;
	e->name = pmu_strdup(node_name(L, node));
	if (!e->name)
		return oom(L);
	rc |= get_u64(L, node, "event_code", true, true, &e->code) < 0;
	rc |= get_strdup(L, node, "event-category", false, &e->category) < 0;
	rc |= get_strdup(L, node, "event-class", false, &e->event_class) < 0;
	rc |= get_strdup(L, node, "description", false, &e->description) < 0;
	rc |= get_strdup(L, node, "status", false, &e->status) < 0;
	/* a skiboot tree is the firmware set */
	e->firmware = L->legacy || has_prop(L, node, "firmware");
	if (!e->event_class)
		e->event_class = pmu_strdup("primary");
	if (!e->status)
		e->status = pmu_strdup("okay");
	if (!e->event_class || !e->status)
		return oom(L);
	return rc ? -EINVAL : 0;
}

static int load_events(struct dl *L)
{
	int node = child(L, L->pmu, "events", true), sub, i = 0, rc = 0, n;

	if (node < 0)
		return -EINVAL;
	n = count_children(L, node);
	L->m->events = alloc_array(L, n, sizeof(*L->m->events));
	if (n && !L->m->events)
		return -ENOMEM;
	L->m->nevents = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_event(L, sub, &L->m->events[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* [ext] presets { NAME { events; event-codes; derived; postfix; description } } */
static int preset_events(struct dl *L, int node, struct pmu_preset *p)
{
	uint32_t cells[2 * PMU_PRESET_MAX_EVENTS];
	int n = fdt_stringlist_count(L->fdt, node, "events"), ncells;

	if (n < 1 || n > PMU_PRESET_MAX_EVENTS)
		return fail(L, node, "events", "expected 1 to %d strings", PMU_PRESET_MAX_EVENTS);
	if (get_cells(L, node, "event-codes", true, cells, 2 * n, 2 * n, &ncells))
		return -EINVAL;
	for (int k = 0; k < n; k++) {
		p->events[k] = pmu_strdup(fdt_stringlist_get(L->fdt, node, "events", k, NULL));
		if (!p->events[k])
			return oom(L);
		p->codes[k] = (uint64_t)cells[2 * k] << 32 | cells[2 * k + 1];
		p->nevents++;
	}
	return 0;
}

/* The members against `derived` and `postfix`, as the YAML loader checks them. */
static int preset_shape(struct dl *L, int node, struct pmu_preset *p)
{
	char why[160];
	size_t at;

	if (p->kind == PMU_PRESET_EVENT && p->nevents != 1)
		return fail(L, node, "events", "%d events but no 'derived'", p->nevents);
	if ((p->kind == PMU_PRESET_ADD || p->kind == PMU_PRESET_SUB) && p->nevents < 2)
		return fail(L, node, "events", "a derived %s preset combines at least 2 events",
			    pmu_preset_kind_name(p->kind));
	if (!!p->postfix != (p->kind == PMU_PRESET_POSTFIX))
		return fail(L, node, "postfix", p->postfix ? "needs derived = \"postfix\""
						       : "missing (derived = \"postfix\")");
	if (p->postfix && pmu_postfix_check(p->postfix, p->nevents, &at, why, sizeof(why)))
		return fail(L, node, "postfix", "%s", why);
	return 0;
}

static int load_preset(struct dl *L, int node, struct pmu_preset *p)
{
	const char *kind = NULL;
	int rc;

	p->pos = node_pos(L, node);
	p->name = pmu_strdup(node_name(L, node));
	if (!p->name)
		return oom(L);
	rc = get_str(L, node, "derived", false, &kind);
	if (rc < 0)
		return rc;
	if (rc == 0 && (pmu_preset_kind_parse(kind, &p->kind) || p->kind == PMU_PRESET_EVENT))
		return fail(L, node, "derived", "must be add, sub or postfix, found '%s'", kind);
	if (preset_events(L, node, p) < 0 ||
	    get_strdup(L, node, "postfix", false, &p->postfix) < 0 ||
	    get_strdup(L, node, "description", false, &p->description) < 0)
		return -EINVAL;
	return preset_shape(L, node, p);
}

static int load_presets(struct dl *L)
{
	int node = child(L, L->pmu, "presets", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	n = count_children(L, node);
	L->m->presets = alloc_array(L, n, sizeof(*L->m->presets));
	if (n && !L->m->presets)
		return -ENOMEM;
	L->m->npresets = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_preset(L, sub, &L->m->presets[i]) < 0;
		for (int j = 0; j < i && !rc; j++)
			if (pmu_name_eq_nocase(L->m->presets[j].name, L->m->presets[i].name))
				rc = fail(L, sub, NULL, "duplicate preset name (ignoring case)") < 0;
		i++;
	}
	return rc ? -EINVAL : 0;
}

/* [ext] metrics { metric-N { metric-name; expr; groups; description; scale-unit;
 * threshold; aggregation; pmus } } */
static int load_metric(struct dl *L, int node, struct pmu_metric *mt)
{
	mt->pos = node_pos(L, node);
	if (get_strdup(L, node, "metric-name", true, &mt->name) < 0 ||
	    get_strdup(L, node, "expr", true, &mt->expr) < 0 ||
	    get_strdup(L, node, "groups", false, &mt->groups) < 0 ||
	    get_strdup(L, node, "description", false, &mt->description) < 0 ||
	    get_strdup(L, node, "scale-unit", false, &mt->scale_unit) < 0 ||
	    get_strdup(L, node, "threshold", false, &mt->threshold) < 0 ||
	    get_strdup(L, node, "aggregation", false, &mt->aggregation) < 0 ||
	    get_strdup(L, node, "pmus", false, &mt->pmus) < 0)
		return -EINVAL;
	return 0;
}

/* Every expression compiles against the events and the other metrics. */
static int check_metric_exprs(struct dl *L, int node)
{
	int sub, i = 0, rc = 0;

	fdt_for_each_subnode(sub, L->fdt, node) {
		struct pmu_metric_prog prog;
		char why[320];
		size_t at;
		int r;

		if (i >= L->m->nmetrics)
			break;
		r = pmu_metric_compile(L->m, i++, &prog, &at, why, sizeof(why));
		if (r == -ENOMEM)
			return oom(L);
		if (r)
			rc = fail(L, sub, "expr", "offset %zu: %s", at, why);
		else
			pmu_metric_prog_free(&prog);
	}
	return rc;
}

static int load_metrics(struct dl *L)
{
	int node = child(L, L->pmu, "metrics", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	n = count_children(L, node);
	L->m->metrics = alloc_array(L, n, sizeof(*L->m->metrics));
	if (n && !L->m->metrics)
		return -ENOMEM;
	L->m->nmetrics = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_metric(L, sub, &L->m->metrics[i++]) < 0;
	}
	if (rc)
		return -EINVAL;
	return check_metric_exprs(L, node) < 0 ? -EINVAL : 0;
}

/* skiboot's fixed counters name their event but give no code: take the
 * code of the event with that name. */
static int legacy_fixed_codes(struct dl *L)
{
	int rc = 0;

	for (int i = 0; i < L->m->ncounters; i++) {
		struct pmu_counter *c = &L->m->counters[i];
		int e;

		if (c->programmable || c->fixed_code)
			continue;
		e = c->event ? pmu_model_event(L->m, c->event) : -1;
		if (e >= 0) {
			c->fixed_code = L->m->events[e].code;
			continue;
		}
		rc = fail(L, -1, NULL, "fixed counter %s counts '%s', which is not among the events and has no fixed-code",
			  c->name, c->event ? c->event : "(nothing)");
	}
	return rc;
}

/* --- driver -------------------------------------------------------------------------------- */

static int load_all(struct dl *L)
{
	int constraints, rc;

	L->pmu = find_pmu(L);
	if (L->pmu < 0)
		return -EINVAL;
	rc = load_identity(L);
	if (load_sprs(L) < 0)
		return -EINVAL; /* everything below refers to these */
	rc |= check_counts(L);
	constraints = child(L, L->pmu, "constraints", false);
	if (load_fields(L, constraints) < 0)
		return -EINVAL;
	rc |= load_mmcr_inputs(L);
	rc |= load_constraints(L, constraints);
	rc |= load_generic(L);
	rc |= load_cache_events(L);
	rc |= load_branch_filters(L);
	rc |= load_events(L);
	rc |= load_presets(L);
	if (rc == 0) /* expressions name the events */
		rc |= load_metrics(L);
	if (L->legacy && rc == 0)
		rc |= legacy_fixed_codes(L);
	return rc ? -EINVAL : 0;
}

static int check_blob(struct dl *L, const void *blob, size_t size)
{
	int rc;

	if (size < sizeof(struct fdt_header))
		return fail(L, -1, NULL, "not a DTB: %zu bytes is shorter than the header", size);
	if (size > (size_t)INT_MAX)
		return fail(L, -1, NULL, "DTB too large (%zu bytes)", size);
	rc = fdt_check_full(blob, size);
	if (rc < 0)
		return fail(L, -1, NULL, "not a valid DTB: %s", fdt_strerror(rc));
	return 0;
}

/* Check, then load the private copy in L->fdt. */
static int load_checked(struct dl *L, size_t size)
{
	int rc = check_blob(L, L->fdt ? L->fdt : "", L->fdt ? size : 0);

	if (rc == 0)
		rc = build_paths(L) ? oom(L) : check_unique_paths(L);
	if (rc == 0)
		rc = load_all(L);
	if (rc == 0 && L->errors)
		rc = -EINVAL;
	return rc;
}

int pmu_load_dtb(struct pmu_model *m, const char *name, const void *blob,
		 size_t size, struct pmu_diag *d)
{
	struct pmu_diag quiet;
	struct dl L = { 0 };
	void *copy = NULL;
	int rc = 0;

	if (!d) {
		pmu_diag_init(&quiet, NULL);
		d = &quiet;
	}
	pmu_model_init(m);
	L.name = name ? name : "(dtb)";
	L.m = m;
	L.d = d;
	m->source = pmu_strdup(L.name);
	/* a private, suitably aligned copy: the caller's buffer may be neither */
	if (blob && size && (copy = malloc(size)) != NULL)
		memcpy(copy, blob, size);
	if (!m->source || (blob && size && !copy))
		rc = oom(&L);
	L.fdt = copy;
	if (rc == 0)
		rc = load_checked(&L, size);
	if (rc == 0)
		rc = pmu_model_finish(m);
	free(L.field_node);
	free_paths(&L);
	free(copy);
	if (rc)
		pmu_model_free(m);
	return pmu_diag_rc(d, rc);
}

/* The whole file, at most DTB_MAX_FILE bytes. */
static int read_whole(const char *path, unsigned char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, got;
	int rc = 0;

	*len = 0;
	if (!f)
		return -errno;
	do {
		if (*len == cap) {
			unsigned char *grown = NULL;

			cap = cap ? cap * 2 : 65536;
			if (cap <= (size_t)DTB_MAX_FILE)
				grown = realloc(buf, cap);
			if (!grown) {
				rc = -EFBIG;
				break;
			}
			buf = grown;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
	} while (got > 0);
	if (rc == 0 && ferror(f))
		rc = -EIO;
	fclose(f);
	if (rc)
		free(buf);
	else
		*out = buf;
	return rc;
}

int pmu_load_dtb_file(struct pmu_model *m, const char *path,
		      struct pmu_diag *d)
{
	struct pmu_diag quiet;
	unsigned char *buf = NULL;
	size_t len;
	int rc;

	if (!d) {
		pmu_diag_init(&quiet, NULL);
		d = &quiet;
	}
	rc = read_whole(path, &buf, &len);
	if (rc) {
		struct pmu_pos p = { path, 0, 0 };

		pmu_model_init(m);
		pmu_report(d, -1, &p, "cannot read: %s", strerror(-rc));
		return rc;
	}
	rc = pmu_load_dtb(m, path, buf, len, d);
	free(buf);
	return rc;
}

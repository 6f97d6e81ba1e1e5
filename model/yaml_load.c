/*
 * yaml_load.c - reads a YAML PMU description (schema/description-format.md)
 * into a struct pmu_model, keeping line:col marks on every part.
 *
 * Files are parsed whole into compact documents by y_compose (bounded depth,
 * no aliases).  `include:` pulls in
 * further files (relative to the including one); their sections are gathered
 * in encounter order, then read in dependency order: identity, counters,
 * registers, fields, then everything that refers to them.  `extends:`
 * names a base description instead, which yaml_extends.c loads and puts
 * the extension's identity over.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmu_load.h"
#include "yaml_doc.h"
#include "yaml_extends.h"
#include "yaml_gather.h"
#include "yaml_sections.h"

#define MAX_FILES 16

static const char *const top_keys[] = {
	"format", "pmu", "counters", "registers", "code-classes", "fields", "privilege-filters",
	"branch-stack-clears", "counter-usage", "checks", "constraints",
	"alternatives", "generic-events", "cache-events", "branch-filters", "firmware-events",
	"events", "presets", "metrics", "include", "extends", NULL};

struct loader {
	struct yctx c;
	struct ysrc *srcs[MAX_FILES];
	int nsrcs;
	/* every top-level (key, value) in encounter order, includes expanded */
	struct ysections sections;
	/* the description's own file: its `extends` value and first `include` */
	struct ynode extends, include;
};

static int parse_buffer(struct loader *L, const char *name,
			const unsigned char *buf, size_t len, struct ysrc **out)
{
	if (L->nsrcs == MAX_FILES) {
		struct pmu_pos p = {name, 0, 0};
		pmu_report(L->c.d, -1, &p, "too many included files (at most %d)", MAX_FILES);
		return -ELOOP;
	}
	struct ysrc *src = calloc(1, sizeof(*src));
	if (src)
		src->file = pmu_model_intern(L->c.m, name);
	yaml_parser_t parser;
	if (!src || !src->file || !yaml_parser_initialize(&parser)) {
		free(src);
		return pmu_report_oom(L->c.d, NULL);
	}
	yaml_parser_set_input_string(&parser, buf, len);
	int rc = y_compose(&parser, len, &src->doc, src->file, L->c.d);
	yaml_parser_delete(&parser);
	if (rc) {
		free(src);
		return rc;
	}
	L->srcs[L->nsrcs++] = src;
	*out = src;
	return 0;
}

/* Read everything from f into *b (capacity *cap, *n bytes so far), growing
 * it when the file turns out longer than it was. */
static int read_rest(FILE *f, unsigned char **b, size_t *cap, size_t *n)
{
	for (;;) {
		*n += fread(*b + *n, 1, *cap - *n, f);
		if (*n < *cap)
			return ferror(f) ? -EIO : 0;
		unsigned char *grown = realloc(*b, *cap * 2);
		if (!grown)
			return -ENOMEM;
		*b = grown;
		*cap *= 2;
	}
}

/* The whole file in one buffer sized from its length (one byte over, so
 * that a read reaching it shows the file grew): no copying of a buffer
 * doubled as it fills, whose fresh pages cost more than the reading. */
static int read_file(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	struct stat st;
	size_t cap = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ?
		     (size_t)st.st_size + 1 : 65536;
	size_t n = 0;
	unsigned char *b = malloc(cap);
	int rc = b ? read_rest(f, &b, &cap, &n) : -ENOMEM;
	fclose(f);
	if (rc) {
		free(b);
		return rc;
	}
	*buf = b;
	*len = n;
	return 0;
}

static int gather(struct loader *L, struct ysrc *src);

static int include_file(struct loader *L, const struct ynode *at, const char *rel)
{
	char dir[4096], path[8192];
	snprintf(dir, sizeof(dir), "%s", at->src->file);
	if (rel[0] == '/')
		snprintf(path, sizeof(path), "%s", rel);
	else
		snprintf(path, sizeof(path), "%s/%s", dirname(dir), rel);
	for (int i = 0; i < L->nsrcs; i++) {
		if (strcmp(L->srcs[i]->file, path) == 0) {
			struct pmu_pos p = y_pos(at);
			pmu_report(L->c.d, -1, &p, "'%s' is included twice", rel);
			return -ELOOP;
		}
	}
	unsigned char *buf;
	size_t len;
	int rc = read_file(path, &buf, &len);
	if (rc) {
		struct pmu_pos p = y_pos(at);
		if (rc == -ENOMEM)
			return pmu_report_oom(L->c.d, &p);
		pmu_report(L->c.d, -1, &p, "cannot read included file '%s': %s", path,
			   strerror(-rc));
		return rc;
	}
	struct ysrc *src;
	rc = parse_buffer(L, path, buf, len, &src);
	free(buf);
	return rc ? rc : gather(L, src);
}

static int gather_include(struct loader *L, const struct ynode *v)
{
	const char *rel = NULL;
	if (y_is_seq(v)) {
		for (int i = 0; i < y_seq_len(v); i++) {
			struct ynode item = y_seq_at(v, i);
			int rc = y_str(&L->c, &item, "include", &rel);
			if (!rc && rel)
				rc = include_file(L, &item, rel);
			if (rc)
				return rc;
		}
		return 0;
	}
	int rc = y_str(&L->c, v, "include", &rel);
	return rc ? rc : include_file(L, v, rel);
}

static int check_format(struct loader *L, const struct ynode *v)
{
	const char *s = NULL;
	char want[64];
	snprintf(want, sizeof(want), "pmu-description/%d", PMU_FORMAT_VERSION);
	if (y_str(&L->c, v, "format", &s))
		return -EINVAL;
	if (strcmp(s, want) != 0) {
		struct pmu_pos p = y_pos(v);
		pmu_report(L->c.d, -1, &p, "unsupported format '%s' (this pmugen reads '%s')",
			   s, want);
		return -EINVAL;
	}
	return 0;
}

static int note_include(struct loader *L, const struct ysrc *src, const struct ynode *key)
{
	if (src == L->srcs[0] && !L->include.node)
		L->include = *key;
	return 0;
}

/* `extends` belongs to the description's own file, once. */
static int note_extends(struct loader *L, const struct ysrc *src, const struct ynode *key,
			const struct ynode *value)
{
	if (src != L->srcs[0]) {
		struct pmu_pos p = y_pos(key);
		pmu_report(L->c.d, -1, &p, "'extends' in an included file: only the description's "
			   "own file may extend another");
		return -EINVAL;
	}
	L->extends = *value;
	return 0;
}

static int gather(struct loader *L, struct ysrc *src)
{
	struct ynode root = y_root(src);
	if (!root.node) {
		struct pmu_pos p = {src->file, 1, 1};
		pmu_report(L->c.d, -1, &p, "empty document: expected a PMU description");
		return -EINVAL;
	}
	if (y_expect_map(&L->c, &root, "the document"))
		return -EINVAL;
	int rc = y_check_keys(&L->c, &root, "the description", top_keys,
			      (const char *const[]){"format", NULL});
	struct ynode k, v;
	for (int i = 0; y_map_at(&root, i, &k, &v); i++) {
		const char *key = NULL;
		if (y_str(&L->c, &k, "key", &key) || !key)
			continue;
		if (strcmp(key, "format") == 0)
			rc |= check_format(L, &v);
		else if (strcmp(key, "include") == 0)
			rc |= note_include(L, src, &k) | gather_include(L, &v);
		else if (strcmp(key, "extends") == 0)
			rc |= note_extends(L, src, &k, &v);
		else
			rc |= ysections_add(&L->sections, &L->c, k, v);
	}
	return rc ? -EINVAL : 0;
}

static void loader_free(struct loader *L)
{
	for (int i = 0; i < L->nsrcs; i++) {
		y_doc_free(&L->srcs[i]->doc);
		free(L->srcs[i]);
	}
	ysections_free(&L->sections);
}

/* An extension holds its identity only: its includes are refused here,
 * its other sections by yext_apply. */
static int read_extension(struct loader *L, struct yext_chain *chain)
{
	struct yloader_view view = {&L->sections, &L->c};
	int rc = 0;
	if (L->include.node) {
		struct pmu_pos p = y_pos(&L->include);
		pmu_report(L->c.d, -1, &p, "'include' in a description that extends another: "
			   "an extension holds only its own identity (its 'pmu' section)");
		rc = -EINVAL;
	}
	return yext_apply(&view, &L->extends, chain) ? -EINVAL : rc;
}

static int load_buffer(struct pmu_model *m, const char *name, const unsigned char *buf,
		       size_t len, struct pmu_diag *d, struct yext_chain *chain)
{
	struct loader L;
	memset(&L, 0, sizeof(L));
	pmu_model_init(m);
	L.c = (struct yctx){m, d};
	m->source = pmu_strdup(name);
	int errors_before = d->nerrors;
	struct ysrc *src;
	int rc = parse_buffer(&L, name, buf, len, &src);
	if (!rc)
		rc = gather(&L, src);
	if (!rc && L.extends.node) {
		rc = read_extension(&L, chain); /* the base model is finished */
	} else if (!rc) {
		struct yloader_view view = {&L.sections, &L.c};
		rc = ysec_read_all(&view);
		if (!rc && d->nerrors == errors_before)
			rc = pmu_model_finish(m);
	}
	if (!rc && d->nerrors > errors_before)
		rc = -EINVAL;
	if (!rc)
		rc = yext_chain_note(chain, m, d);
	loader_free(&L);
	if (rc)
		pmu_model_free(m);
	return pmu_diag_rc(d, rc);
}

/* A base description (yaml_extends.c, through chain->load_file): the file
 * at path, with the chain of the files that extend it. */
static int load_file_in_chain(struct pmu_model *m, const char *path, struct pmu_diag *d,
			      struct yext_chain *chain)
{
	unsigned char *buf;
	size_t len;
	int rc = read_file(path, &buf, &len);
	if (rc) {
		pmu_model_init(m);
		return rc;
	}
	rc = load_buffer(m, path, buf, len, d, chain);
	free(buf);
	return rc;
}

int pmu_load_yaml_buffer(struct pmu_model *m, const char *name,
			 const unsigned char *buf, size_t len, struct pmu_diag *d)
{
	struct yext_chain chain = {0};
	char real[PATH_MAX];
	chain.files[0] = pmu_strdup(realpath(name, real) ? real : name);
	if (!chain.files[0]) {
		pmu_model_init(m);
		return pmu_report_oom(d, NULL);
	}
	chain.depth = 1;
	chain.load_file = load_file_in_chain;
	int rc = load_buffer(m, name, buf, len, d, &chain);
	yext_chain_free(&chain);
	return rc;
}

int pmu_load_yaml_file(struct pmu_model *m, const char *path, struct pmu_diag *d)
{
	unsigned char *buf;
	size_t len;
	int rc = read_file(path, &buf, &len);
	if (rc) {
		struct pmu_pos p = {path, 0, 0};
		pmu_model_init(m);
		if (rc == -ENOMEM)
			return pmu_report_oom(d, &p);
		pmu_report(d, -1, &p, "cannot read: %s", strerror(-rc));
		return rc;
	}
	rc = pmu_load_yaml_buffer(m, path, buf, len, d);
	free(buf);
	return rc;
}

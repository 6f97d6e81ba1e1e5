/*
 * escapes_test.c - odd strings survive perf JSON -> YAML -> model -> JSON/C.
 *
 *   escapes_test PERF_DIR OUT.c
 *
 * PERF_DIR (tests/json/data/escapes) holds events whose names and
 * descriptions carry quotes, backslashes, control characters, non-ASCII
 * text, YAML indicators, "??=" trigraph look-alikes and comment ends.  The
 * test imports it twice (byte-identical), loads the YAML (with a minimal
 * pmu section) and checks every event against the JSON exactly, emits JSON
 * and checks it against the source again, then emits C tables: it decodes the
 * pool's string literals back and finds every name and description there,
 * and writes the C to OUT.c, which the next test compiles with -Werror.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "emit.h"
#include "pmu_load.h"

#define FAIL(...) (fprintf(stderr, __VA_ARGS__), (*fails)++)

struct src_event {
	const char *name, *desc, *category;
	uint64_t code;
};

struct src {
	json_t *keep;          /* owns every string below */
	struct src_event ev[64];
	int n;
};

/* The source events, in file-name then file order, metrics skipped. */
static int load_src(const char *dir, struct src *s)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;

	s->keep = json_array();
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm), k;
		char path[4096];
		json_t *root, *o, *cat;

		if (len > 5 && strcmp(nm + len - 5, ".json") == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, nm);
			root = json_load_file(path, 0, NULL);
			cat = json_stringn(nm, len - 5);
			json_array_append_new(s->keep, root);
			json_array_append_new(s->keep, cat);
			json_array_foreach(root, k, o) {
				struct src_event *e = &s->ev[s->n];
				const char *code = json_string_value(
					json_object_get(o, "EventCode"));

				if (!code || s->n == 64)
					continue;
				e->name = json_string_value(json_object_get(o, "EventName"));
				e->desc = json_string_value(json_object_get(o, "BriefDescription"));
				e->category = json_string_value(cat);
				e->code = strtoull(code + 2, NULL, 16);
				s->n++;
			}
		}
		free(names[i]);
	}
	free(names);
	if (n < 0 || s->n == 0)
		rc = -1;
	return rc;
}

static char *import_text(const char *dir, size_t *len)
{
	struct pmurt_error err = {0};
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int rc;

	if (!f)
		return NULL;
	rc = import_perf_json(dir, f, &err);
	fclose(f);
	if (rc) {
		fprintf(stderr, "import: %s\n", err.message);
		free(buf);
		return NULL;
	}
	return buf;
}

static int load_model(const char *yaml, size_t len, struct pmu_model *m)
{
	static const char pmu[] = "pmu:\n  name: Escapes PMU\n"
		"  platform: escapes\n  compatible: test,escapes\n  max-group: 2\n";
	size_t n = len + sizeof(pmu);
	unsigned char *buf = malloc(n);
	struct pmu_diag d;
	int rc;

	if (!buf)
		return -1;
	memcpy(buf, yaml, len);
	memcpy(buf + len, pmu, sizeof(pmu));
	pmu_diag_init(&d, stderr);
	rc = pmu_load_yaml_buffer(m, "escapes.yaml", buf, n - 1, &d);
	free(buf);
	return rc;
}

static bool same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static void check_model(const struct src *s, const struct pmu_model *m,
			int *fails)
{
	if (m->nevents != s->n) {
		FAIL("model: %d events, source %d\n", m->nevents, s->n);
		return;
	}
	for (int i = 0; i < s->n; i++) {
		const struct pmu_event *e = &m->events[i];
		const struct src_event *x = &s->ev[i];

		if (!same(e->name, x->name) || e->code != x->code ||
		    !same(e->category, x->category) ||
		    !same(e->description, x->desc))
			FAIL("model event %d: [%s] [%s] differs from [%s] [%s]\n",
			     i, e->name, e->description, x->name, x->desc);
	}
}

static void check_json(const struct src *s, const struct pmu_model *m,
		       int *fails)
{
	struct pmurt_error err = {0};
	struct emit_options o = { .all_events = true };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	json_t *root, *obj;

	if (!f || emit_json(m, &o, f, &err)) {
		FAIL("emit_json: %s\n", err.message);
		if (f)
			fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	root = json_loadb(buf, len, 0, NULL);
	/* the events, then the source's one metric (metrics.json) */
	if (json_array_size(root) != (size_t)s->n + 1 || m->nmetrics != 1 ||
	    !same(json_string_value(json_object_get(json_array_get(root, (size_t)s->n),
						    "MetricExpr")), "PM_OTHER * 2"))
		FAIL("json: %zu entries, source %d events and 1 metric\n",
		     json_array_size(root), s->n);
	json_array_foreach(root, i, obj) {
		const struct src_event *x = &s->ev[i];
		const char *code = json_string_value(json_object_get(obj, "EventCode"));

		if (i >= (size_t)s->n)
			break;
		if (!same(json_string_value(json_object_get(obj, "EventName")), x->name) ||
		    !code || strtoull(code + 2, NULL, 16) != x->code ||
		    !same(json_string_value(json_object_get(obj, "BriefDescription")),
			  x->desc))
			FAIL("json event %zu (%s) differs\n", i, x->name);
	}
	/* byte for byte what jansson itself writes for the same array (the
	 * emitter writes jansson's layout and escapes without jansson) */
	char *dumped = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
	if (!dumped || strlen(dumped) + 1 != len || memcmp(dumped, buf, len - 1) != 0 ||
	    buf[len - 1] != '\n')
		FAIL("json: the text differs from jansson's json_dumps of it\n");
	free(dumped);
	json_decref(root);
	free(buf);
}

/* --- reading the emitted C pool back ------------------------------------- */

static int octal(const char **p)
{
	int v = 0;

	for (int k = 0; k < 3 && **p >= '0' && **p <= '7'; k++)
		v = v * 8 + (*(*p)++ - '0');
	return v;
}

/* Decode one string literal at p (on the opening quote) into out. */
static const char *decode_literal(const char *p, char *out, size_t *n)
{
	for (p++; *p && *p != '"'; ) {
		if (*p != '\\') {
			out[(*n)++] = *p++;
			continue;
		}
		p++;
		if (*p >= '0' && *p <= '7') {
			out[(*n)++] = (char)octal(&p);
			continue;
		}
		switch (*p) {
		case 'n': out[(*n)++] = '\n'; break;
		case 't': out[(*n)++] = '\t'; break;
		default: out[(*n)++] = *p; break; /* \\ \" \? \' */
		}
		p++;
	}
	return *p ? p + 1 : p;
}

/* The bytes of `static const char pool[] = ...;`, comments skipped. */
static char *decode_pool(const char *c, size_t *n)
{
	const char *p = strstr(c, "pool[] =");
	char *out = malloc(strlen(c) + 1);

	*n = 0;
	if (!p || !out) {
		free(out);
		return NULL;
	}
	for (p += 8; *p && *p != ';'; ) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			p = end ? end + 2 : p + strlen(p);
		} else if (*p == '"') {
			p = decode_literal(p, out, n);
		} else {
			p++;
		}
	}
	out[(*n)++] = '\0'; /* the literal's own terminator */
	return out;
}

static bool pool_has(const char *pool, size_t n, const char *s)
{
	for (size_t off = 0; off < n; off += strlen(pool + off) + 1)
		if (strcmp(pool + off, s) == 0)
			return true;
	return false;
}

static void check_c(const struct src *s, const struct pmu_model *m,
		    const char *out_path, int *fails)
{
	struct pmurt_error err = {0};
	struct emit_options o = { .all_events = true };
	char *buf = NULL, *pool;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);

	if (!f || emit_c(m, &o, f, &err)) {
		FAIL("emit_c: %s\n", err.message);
		if (f)
			fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	pool = decode_pool(buf, &n);
	for (int i = 0; pool && i < s->n; i++)
		if (!pool_has(pool, n, s->ev[i].name) ||
		    !pool_has(pool, n, s->ev[i].desc))
			FAIL("C pool: event %s or its description missing\n",
			     s->ev[i].name);
	if (!pool)
		FAIL("C: no pool\n");
	if (strstr(buf, "pmu_tables_escapes = {") == NULL)
		FAIL("C: no pmu_tables_escapes\n");
	f = fopen(out_path, "w");
	if (!f || fwrite(buf, 1, len, f) != len)
		FAIL("%s: cannot write\n", out_path);
	if (f)
		fclose(f);
	free(pool);
	free(buf);
}

int main(int argc, char **argv)
{
	struct src s = {0};
	struct pmu_model m;
	char *a, *b;
	size_t alen, blen;
	int failures = 0, *fails = &failures;

	if (argc != 3) {
		fprintf(stderr, "usage: %s PERF_DIR OUT.c\n", argv[0]);
		return 2;
	}
	if (load_src(argv[1], &s)) {
		fprintf(stderr, "%s: no events\n", argv[1]);
		json_decref(s.keep);
		return 1;
	}
	a = import_text(argv[1], &alen);
	b = import_text(argv[1], &blen);
	if (!a || !b || alen != blen || memcmp(a, b, alen) != 0)
		FAIL("import: output differs between two runs\n");
	if (a && load_model(a, alen, &m) == 0) {
		check_model(&s, &m, fails);
		check_json(&s, &m, fails);
		check_c(&s, &m, argv[2], fails);
		pmu_model_free(&m);
	} else {
		FAIL("the imported YAML does not load\n");
	}
	if (!failures)
		printf("%d odd events survive import, JSON and C\n", s.n);
	free(a);
	free(b);
	json_decref(s.keep);
	return failures != 0;
}

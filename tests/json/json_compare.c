/*
 * json_compare.c - checks pmugen's perf JSON against perf's own directory.
 *
 *   json_compare GENERATED.json PERF_DIR
 *
 * Passes when GENERATED (one array, as `pmugen --format json` writes it) holds
 * exactly the events of the *.json files in PERF_DIR (metrics apart): the
 * same names, each with the same code (compared as numbers) and the same
 * BriefDescription byte for byte, nothing missing and nothing extra.  It also
 * checks the form perf uses: keys EventCode, EventName, BriefDescription in
 * that order and codes spelled "0x" + upper-case hex digits.  Metrics
 * (MetricName entries) must be perf's in perf's order (file by file), each
 * object equal key for key and byte for byte.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

struct ev {
	const char *name, *desc, *where;
	uint64_t code;
	bool seen;
};

struct evlist {
	struct ev *v;
	size_t n, cap;
};

static int push(struct evlist *l, struct ev e)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct ev *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = e;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ev *)a)->name, ((const struct ev *)b)->name);
}

/* "0x" + hex digits; upper: perf's spelling (A-F only) required. */
static bool parse_code(const char *s, bool upper, uint64_t *out)
{
	char *end;

	if (!s || s[0] != '0' || s[1] != 'x' || !s[2] || strlen(s) > 18)
		return false;
	for (const char *p = s + 2; *p; p++)
		if (upper && *p >= 'a' && *p <= 'f')
			return false;
	*out = strtoull(s + 2, &end, 16);
	return *end == '\0';
}

/* Append the events of one array; metric entries are skipped. */
static int collect(json_t *arr, const char *where, bool generated,
		   struct evlist *l)
{
	static const char *const order[] = {
		"EventCode", "EventName", "BriefDescription",
	};
	size_t i;
	json_t *o;
	int bad = 0;

	if (!json_is_array(arr)) {
		fprintf(stderr, "%s: top level is not an array\n", where);
		return 1;
	}
	json_array_foreach(arr, i, o) {
		struct ev e = { .where = where };
		const char *code = json_string_value(json_object_get(o, "EventCode"));

		if (json_object_get(o, "MetricName"))
			continue;
		e.name = json_string_value(json_object_get(o, "EventName"));
		e.desc = json_string_value(json_object_get(o, "BriefDescription"));
		if (!e.name || !parse_code(code, generated, &e.code)) {
			fprintf(stderr, "%s: entry %zu: bad EventName/EventCode\n",
				where, i + 1);
			bad = 1;
			continue;
		}
		if (generated) {
			const char *key;
			json_t *v;
			size_t k = 0;

			json_object_foreach(o, key, v) {
				if (k >= 3 || strcmp(key, order[k]) != 0) {
					fprintf(stderr, "%s: %s: key %s out of "
						"perf's order\n", where, e.name, key);
					bad = 1;
				}
				k++;
			}
		}
		if (push(l, e))
			return 1;
	}
	return bad;
}

/* Append the metric objects of arr to metrics, in order. */
static void collect_metrics(json_t *arr, json_t *metrics)
{
	size_t i;
	json_t *o;

	json_array_foreach(arr, i, o)
		if (json_object_get(o, "MetricName"))
			json_array_append(metrics, o);
}

/* The same metrics in the same order, each object equal. */
static int compare_metrics(json_t *perf, json_t *gen)
{
	size_t n = json_array_size(perf), i;

	if (json_array_size(gen) != n) {
		fprintf(stderr, "metrics: perf has %zu, generated %zu\n", n, json_array_size(gen));
		return 1;
	}
	for (i = 0; i < n; i++)
		if (!json_equal(json_array_get(perf, i), json_array_get(gen, i))) {
			char *a = json_dumps(json_array_get(perf, i), JSON_SORT_KEYS);
			char *b = json_dumps(json_array_get(gen, i), JSON_SORT_KEYS);
			fprintf(stderr, "metric %zu differs:\n  perf: %s\n  ours: %s\n", i + 1,
				a ? a : "?", b ? b : "?");
			free(a);
			free(b);
			return 1;
		}
	return 0;
}

static int load_perf_dir(const char *dir, json_t *keep, struct evlist *l,
			 json_t *metrics)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), bad = 0;

	if (n < 0) {
		perror(dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm);
		char path[4096];
		json_error_t jerr;
		json_t *root;

		if (len > 5 && nm[0] != '.' && !strcmp(nm + len - 5, ".json")) {
			snprintf(path, sizeof(path), "%s/%s", dir, nm);
			root = json_load_file(path, 0, &jerr);
			if (!root) {
				fprintf(stderr, "%s:%d:%d: %s\n", path,
					jerr.line, jerr.column, jerr.text);
				bad = 1;
			} else {
				/* the name outlives names[]: keep a copy */
				json_t *where = json_string(nm);

				json_array_append_new(keep, root);
				json_array_append_new(keep, where);
				bad |= collect(root, json_string_value(where),
					       false, l);
				collect_metrics(root, metrics);
			}
		}
		free(names[i]);
	}
	free(names);
	return bad;
}

static bool same_desc(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Every perf event must be in gen with equal code and description. */
static int compare(struct evlist *perf, struct evlist *gen)
{
	int bad = 0;

	qsort(gen->v, gen->n, sizeof(*gen->v), by_name);
	for (size_t i = 1; i < gen->n; i++)
		if (!strcmp(gen->v[i - 1].name, gen->v[i].name)) {
			fprintf(stderr, "generated: %s twice\n", gen->v[i].name);
			bad = 1;
		}
	for (size_t i = 0; i < perf->n; i++) {
		struct ev *p = &perf->v[i];
		struct ev *g = bsearch(p, gen->v, gen->n, sizeof(*gen->v), by_name);

		if (!g) {
			fprintf(stderr, "%s: %s missing from the output\n",
				p->where, p->name);
			bad = 1;
			continue;
		}
		g->seen = true;
		if (g->code != p->code) {
			fprintf(stderr, "%s: %s: code 0x%llx, generated 0x%llx\n",
				p->where, p->name, (unsigned long long)p->code,
				(unsigned long long)g->code);
			bad = 1;
		}
		if (!same_desc(g->desc, p->desc)) {
			fprintf(stderr, "%s: %s: description differs:\n  perf: "
				"%s\n  ours: %s\n", p->where, p->name,
				p->desc ? p->desc : "(none)",
				g->desc ? g->desc : "(none)");
			bad = 1;
		}
	}
	for (size_t i = 0; i < gen->n; i++)
		if (!gen->v[i].seen) {
			fprintf(stderr, "generated: %s is not a perf event\n",
				gen->v[i].name);
			bad = 1;
		}
	return bad;
}

int main(int argc, char **argv)
{
	struct evlist perf = {0}, gen = {0};
	json_t *keep = json_array(), *out;
	json_t *perf_metrics = json_array(), *gen_metrics = json_array();
	json_error_t jerr;
	int bad;

	if (argc != 3) {
		fprintf(stderr, "usage: %s GENERATED.json PERF_DIR\n", argv[0]);
		return 2;
	}
	out = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &jerr);
	if (!out) {
		fprintf(stderr, "%s:%d:%d: %s\n", argv[1], jerr.line,
			jerr.column, jerr.text);
		json_decref(keep);
		return 1;
	}
	bad = collect(out, argv[1], true, &gen);
	collect_metrics(out, gen_metrics);
	bad |= load_perf_dir(argv[2], keep, &perf, perf_metrics);
	if (!bad && perf.n == 0) {
		fprintf(stderr, "%s: no events\n", argv[2]);
		bad = 1;
	}
	if (!bad)
		bad = compare(&perf, &gen);
	if (!bad)
		bad = compare_metrics(perf_metrics, gen_metrics);
	if (!bad)
		printf("%zu events and %zu metrics match %s\n", perf.n,
		       json_array_size(perf_metrics), argv[2]);
	json_decref(perf_metrics);
	json_decref(gen_metrics);
	free(perf.v);
	free(gen.v);
	json_decref(out);
	json_decref(keep);
	return bad;
}

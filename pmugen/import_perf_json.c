/*
 * import_perf_json.c - `pmugen import-perf-json DIR`: perf's pmu-events JSON
 * directory (tools/perf/pmu-events/arch/powerpc/<cpu>/) to a YAML events file.
 *
 * Every *.json in DIR is read in file-name order; each event entry becomes
 * one list item with name, code, category (the file's stem) and description
 * (BriefDescription, which the description format requires), in file order.
 * Codes are written in lower-case hex with at least five digits, perf's
 * shortest spelling; perf's padding of long codes is not kept.  Metric
 * entries (MetricName/MetricExpr, from metrics.json and nest_metrics.json)
 * follow in a `metrics` section, in file order, each of perf's strings kept
 * exactly, with `pmus` naming the other PMUs a nest metric's qualified
 * events belong to ("hv_24x7@PM_X\\,chip\\=?@").  Descriptions are written as YAML
 * double-quoted scalars whose escapes round-trip every byte exactly.  The
 * output depends only on the files' names and contents, never on DIR's path
 * (the header names only its last component).
 *
 * jansson keeps no positions for parsed values, so errors about an entry
 * (missing EventCode, bad hex) scan the text again for the entry's line:col.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "emit.h"

struct name_list {
	char **names;
	size_t n, cap;
};

static void name_list_free(struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->n = l->cap = 0;
}

static int name_list_add(struct name_list *l, const char *name)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **p = realloc(l->names, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->names = p;
		l->cap = cap;
	}
	l->names[l->n] = pmu_strdup(name);
	if (!l->names[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_json_suffix(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && name[0] != '.' && strcmp(name + len - 5, ".json") == 0;
}

static char *join_path(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	return p;
}

/* The regular *.json files of dir, sorted by name (strcmp: byte order). */
static int list_json_files(const char *dir, struct name_list *out,
			   struct pmu_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = -errno;
		pmu_error_set(err, rc, "%s: error: %s", dir, strerror(errno));
		return rc;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;
		char *path;

		if (!has_json_suffix(de->d_name))
			continue;
		path = join_path(dir, de->d_name);
		if (!path) {
			rc = -ENOMEM;
			break;
		}
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			rc = name_list_add(out, de->d_name);
		free(path);
	}
	closedir(d);
	if (rc) {
		pmu_error_set(err, rc, "%s: error: out of memory", dir);
		return rc;
	}
	if (out->n)
		qsort(out->names, out->n, sizeof(*out->names), cmp_names);
	return 0;
}

static int read_whole_file(const char *path, char **buf, size_t *len,
			   struct pmu_error *err)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!f) {
		rc = -errno;
		pmu_error_set(err, rc, "%s: error: %s", path, strerror(errno));
		return rc;
	}
	for (;;) {
		if (cap - n < 4096) {
			char *q = realloc(p, cap ? 2 * cap : 65536);

			if (!q) {
				rc = -ENOMEM;
				pmu_error_set(err, rc, "%s: error: out of memory", path);
				break;
			}
			p = q;
			cap = cap ? 2 * cap : 65536;
		}
		size_t got = fread(p + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	if (rc == 0 && ferror(f)) {
		rc = -EIO;
		pmu_error_set(err, rc, "%s: error: read failed", path);
	}
	fclose(f);
	if (rc) {
		free(p);
		return rc;
	}
	*buf = p;
	*len = n;
	return 0;
}

/*
 * Line and column (1-based, columns in characters as jansson counts them) of
 * the start of element `want` of the top-level array in buf.  jansson keeps
 * no positions for values, so the already-parsed text is scanned again.
 */
static void element_position(const char *buf, size_t len, size_t want,
			     int *line, int *col)
{
	int depth = 0, l = 1, c = 1;
	bool in_str = false, esc = false, at_start = false;
	size_t idx = 0;

	*line = 1;
	*col = 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)buf[i];

		if (in_str) {
			if (esc)
				esc = false;
			else if (ch == '\\')
				esc = true;
			else if (ch == '"')
				in_str = false;
		} else {
			if (depth == 1 && at_start && !isspace(ch) && ch != ']') {
				if (idx == want) {
					*line = l;
					*col = c;
					return;
				}
				idx++;
				at_start = false;
			}
			if (ch == '"')
				in_str = true;
			else if (ch == '[' || ch == '{')
				at_start = ++depth == 1;
			else if (ch == ']' || ch == '}')
				depth--;
			else if (ch == ',' && depth == 1)
				at_start = true;
		}
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xc0) != 0x80) {
			c++;
		}
	}
}

/* "0x" followed by 1..16 significant hex digits (leading zeros allowed). */
static int parse_hex_code(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return -EINVAL;
	for (s += 2; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -EINVAL;
		if (v || d)
			digits++;
		if (digits > 16)
			return -ERANGE;
		v = (v << 4) | (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* A scalar YAML reads back as this same string without quoting. */
static bool plain_safe(const char *s)
{
	static const char *const special[] = {
		"null", "true", "false", "yes", "no", "on", "off", "y", "n",
	};

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return false;
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (strcasecmp(s, special[i]) == 0)
			return false;
	return true;
}

/*
 * Length of the UTF-8 sequence at s and its code point; jansson hands out
 * valid UTF-8 only, so a malformed byte is passed through as a 1-byte unit.
 */
static int utf8_decode(const unsigned char *s, uint32_t *cp)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;

	*cp = n == 1 ? s[0] : s[0] & (0x3f >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	return n;
}

/* Code points YAML may not hold literally or would fold as line breaks. */
static bool yaml_needs_escape(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	       cp == 0xfeff;
}

static void write_double_quoted(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		uint32_t cp;
		int n;

		if (*p == '\\' || *p == '"') {
			fprintf(out, "\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", out);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", out);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\x%02x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, out);
		} else if (n = utf8_decode(p, &cp), yaml_needs_escape(cp)) {
			fprintf(out, "\\u%04" PRIx32, cp);
			p += n;
		} else {
			fwrite(p, 1, (size_t)n, out);
			p += n;
		}
	}
	fputc('"', out);
}

static void write_scalar(FILE *out, const char *s)
{
	if (plain_safe(s))
		fputs(s, out);
	else
		write_double_quoted(out, s);
}

/* A single-quoted YAML scalar reads back as s byte for byte, its columns
 * one past s's offsets (so errors in an expression point into it). */
static bool single_quote_safe(const char *s)
{
	for (const char *p = s; *p; p++)
		if (*p == '\'' || *p < 0x20 || *p == 0x7f || (unsigned char)*p >= 0x80)
			return false;
	return true;
}

static bool is_metric(json_t *entry)
{
	return json_object_get(entry, "MetricName") ||
	       json_object_get(entry, "MetricExpr");
}

/* One entry of a file's top-level array, for messages that name its place. */
struct entry_ctx {
	const char *path, *buf;
	size_t len, index;
};

static int entry_error(const struct entry_ctx *c, struct pmu_error *err,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int entry_error(const struct entry_ctx *c, struct pmu_error *err,
		       const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	int line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	element_position(c->buf, c->len, c->index, &line, &col);
	pmu_error_set(err, -EINVAL, "%s:%d:%d: error: entry %zu: %s", c->path,
		      line, col, c->index + 1, msg);
	return -EINVAL;
}

/* A string member; NULL when absent, or when not a string (*rc set). */
static const char *get_string(const struct entry_ctx *c, json_t *entry,
			      const char *key, bool required, int *rc,
			      struct pmu_error *err)
{
	json_t *v = json_object_get(entry, key);

	if (!v) {
		if (required)
			*rc = entry_error(c, err, "event has no %s", key);
		return NULL;
	}
	if (!json_is_string(v)) {
		*rc = entry_error(c, err, "%s is not a string", key);
		return NULL;
	}
	return json_string_value(v);
}

struct import_event {
	const char *name, *code_text, *description;
	uint64_t code;
};

/* Check one entry of the top-level array; 1 = metric (skip), 0 = event. */
static int check_entry(const struct entry_ctx *c, json_t *entry,
		       struct import_event *ev, struct pmu_error *err)
{
	int rc = 0;

	if (!json_is_object(entry))
		return entry_error(c, err, "not an object");
	if (is_metric(entry))
		return 1;
	ev->name = get_string(c, entry, "EventName", true, &rc, err);
	if (rc == 0)
		ev->code_text = get_string(c, entry, "EventCode", true, &rc,
					   err);
	if (rc == 0)
		ev->description = get_string(c, entry, "BriefDescription",
					     true, &rc, err);
	if (rc)
		return rc;
	if (!ev->name[0])
		return entry_error(c, err, "empty EventName");
	rc = parse_hex_code(ev->code_text, &ev->code);
	if (rc)
		return entry_error(c, err, "%s: EventCode \"%s\" is not %s",
				   ev->name, ev->code_text,
				   rc == -ERANGE ? "a 64-bit value" :
				   "a hex number (0x...)");
	return 0;
}

/* The codes seen so far and the first name perf gives each: a code perf
 * lists again under another name is written as that event's alias-of
 * (POWER8's 0x200301ea and 0xf084). */
struct seen_codes {
	size_t n, cap;
	uint64_t *code;
	char **name;
};

static void seen_free(struct seen_codes *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->code);
	free(s->name);
}

/* The first name of code, or NULL after adding name as its first; -ENOMEM
 * in *rc when that fails. */
static const char *seen_first(struct seen_codes *s, uint64_t code, const char *name, int *rc)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->code[i] == code)
			return s->name[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		uint64_t *c = realloc(s->code, cap * sizeof(*c));
		char **n = c ? realloc(s->name, cap * sizeof(*n)) : NULL;

		if (c)
			s->code = c;
		if (!n) {
			*rc = -ENOMEM;
			return NULL;
		}
		s->name = n;
		s->cap = cap;
	}
	s->name[s->n] = strdup(name);
	if (!s->name[s->n]) {
		*rc = -ENOMEM;
		return NULL;
	}
	s->code[s->n++] = code;
	return NULL;
}

static void write_event(FILE *out, const struct import_event *ev,
			const char *category, const char *alias_of)
{
	fputs("  - name: ", out);
	write_scalar(out, ev->name);
	/* at least 5 digits, as perf spells its shortest codes (0x04080) */
	fprintf(out, "\n    code: 0x%05" PRIx64 "\n    category: ", ev->code);
	write_scalar(out, category);
	fputc('\n', out);
	fputs("    description: ", out);
	write_double_quoted(out, ev->description);
	fputc('\n', out);
	if (alias_of) {
		fputs("    alias-of: ", out);
		write_scalar(out, alias_of);
		fputc('\n', out);
	}
}

/* perf's metric keys and the description's names for them, in the order
 * they are written (the keys of perf's pmu-events/jevents.py that POWER's
 * files use, and MetricThreshold). */
static const char *const metric_keys[][2] = {
	{"MetricName", "name"}, {"MetricExpr", "expr"}, {"MetricGroup", "groups"},
	{"BriefDescription", "description"}, {"ScaleUnit", "scale-unit"},
	{"MetricThreshold", "threshold"}, {"AggregationMode", "aggregation"},
};
#define NMETRIC_KEYS (sizeof(metric_keys) / sizeof(metric_keys[0]))

/* The PMUs of an expression's qualified events ("hv_24x7@PM_X\\,chip\\=?@"),
 * each once, space-separated, as the description's `pmus`; "" for none. */
static void qualified_pmus(const char *expr, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *p = expr; *p;) {
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (n && p[n] == '@' && (p == expr || !strchr("\\@", p[-1]))) {
			bool seen = false;
			for (const char *q = buf; *q; q += strcspn(q, " "), q += *q == ' ')
				seen |= strcspn(q, " ") == n && strncmp(q, p, n) == 0;
			if (!seen && used + n + 2 < len) {
				used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
							 used ? " " : "", (int)n, p);
			}
			p = strchr(p + n + 1, '@'); /* the closing '@' */
			if (!p)
				break;
			p++;
			continue;
		}
		p += n ? n : 1;
	}
}

/* One metric entry as a `metrics` item; every key must be one we keep. */
static int write_metric(const struct entry_ctx *c, json_t *entry, FILE *out,
			struct pmu_error *err)
{
	const char *key, *v[NMETRIC_KEYS] = {0};
	json_t *val;
	int rc = 0;

	json_object_foreach(entry, key, val) {
		size_t k = 0;
		while (k < NMETRIC_KEYS && strcmp(key, metric_keys[k][0]) != 0)
			k++;
		if (k == NMETRIC_KEYS)
			return entry_error(c, err, "metric key %s is not one the description keeps",
					   key);
		v[k] = get_string(c, entry, key, true, &rc, err);
		if (rc)
			return rc;
	}
	if (!v[0] || !v[1])
		return entry_error(c, err, "a metric needs MetricName and MetricExpr");
	fputs("  - name: ", out);
	write_scalar(out, v[0]);
	fputs("\n    expr: ", out);
	if (single_quote_safe(v[1]))
		fprintf(out, "'%s'", v[1]);
	else
		write_double_quoted(out, v[1]);
	fputc('\n', out);
	for (size_t k = 2; k < NMETRIC_KEYS; k++)
		if (v[k]) {
			fprintf(out, "    %s: ", metric_keys[k][1]);
			write_double_quoted(out, v[k]);
			fputc('\n', out);
		}
	char pmus[256];
	qualified_pmus(v[1], pmus, sizeof(pmus));
	if (pmus[0])
		fprintf(out, "    pmus: \"%s\"\n", pmus);
	return 0;
}

/* Parse one JSON file and write its events; *nevents counts them. */
static int import_file(const char *path, const char *category, FILE *out,
		       FILE *metrics, struct seen_codes *seen, size_t *nevents,
		       struct pmu_error *err)
{
	char *buf = NULL;
	size_t len = 0, i;
	json_error_t jerr;
	json_t *root, *entry;
	int rc = read_whole_file(path, &buf, &len, err);

	if (rc)
		return rc;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		pmu_error_set(err, -EINVAL, "%s:%d:%d: error: %s", path,
			      jerr.line > 0 ? jerr.line : 1,
			      jerr.column > 0 ? jerr.column : 1, jerr.text);
		free(buf);
		return -EINVAL;
	}
	if (!json_is_array(root)) {
		pmu_error_set(err, -EINVAL,
			      "%s:1:1: error: top level is not an array", path);
		rc = -EINVAL;
	}
	json_array_foreach(root, i, entry) {
		struct entry_ctx c = { path, buf, len, i };
		struct import_event ev = {0};

		if (rc)
			break;
		rc = check_entry(&c, entry, &ev, err);
		if (rc == 1) {
			rc = write_metric(&c, entry, metrics, err);
			continue;
		}
		if (rc == 0) {
			const char *first = seen_first(seen, ev.code, ev.name, &rc);

			if (rc) {
				pmu_error_set(err, rc, "%s: error: out of memory", path);
				break;
			}
			write_event(out, &ev, category, first);
			(*nevents)++;
		}
	}
	json_decref(root);
	free(buf);
	return rc;
}

static const char *base_name(const char *path)
{
	size_t len = strlen(path);
	const char *p;

	while (len > 1 && path[len - 1] == '/')
		len--;
	for (p = path + len; p > path && p[-1] != '/'; p--)
		;
	return p;
}

static void write_header(FILE *out, const char *dir)
{
	const char *base = base_name(dir);
	size_t len = strcspn(base, "/");

	fputs("# Generated by `pmugen import-perf-json <dir>` from perf's "
	      "pmu-events JSON. Do not edit.\n", out);
	fprintf(out, "# Source: perf's %.*s/*.json; category = the file's name; "
		"metrics last, in file order.\n", (int)len, base);
	fputs("format: pmu-description/1\nevents:\n", out);
}

int import_perf_json(const char *dir, FILE *out, struct pmu_error *err)
{
	struct name_list files = {0};
	struct seen_codes seen = {0};
	size_t nevents = 0, mlen = 0;
	char *mtext = NULL;
	int rc = list_json_files(dir, &files, err);
	FILE *metrics;

	if (rc)
		return rc;
	metrics = open_memstream(&mtext, &mlen);
	if (!metrics) {
		name_list_free(&files);
		pmu_error_set(err, -ENOMEM, "%s: error: out of memory", dir);
		return -ENOMEM;
	}
	if (files.n == 0) {
		fclose(metrics);
		free(mtext);
		pmu_error_set(err, -ENOENT, "%s: error: no *.json files", dir);
		return -ENOENT;
	}
	write_header(out, dir);
	for (size_t i = 0; rc == 0 && i < files.n; i++) {
		char *path = join_path(dir, files.names[i]);

		if (!path) {
			rc = -ENOMEM;
			pmu_error_set(err, rc, "%s: error: out of memory", dir);
			break;
		}
		files.names[i][strlen(files.names[i]) - 5] = '\0'; /* stem */
		rc = import_file(path, files.names[i], out, metrics, &seen, &nevents, err);
		free(path);
	}
	name_list_free(&files);
	seen_free(&seen);
	if (fclose(metrics) != 0 && rc == 0) {
		rc = -ENOMEM;
		pmu_error_set(err, rc, "%s: error: out of memory", dir);
	}
	if (rc == 0 && mlen) {
		fputs("metrics:\n", out);
		fwrite(mtext, 1, mlen, out);
	}
	free(mtext);
	if (rc == 0 && nevents == 0) {
		rc = -ENOENT;
		pmu_error_set(err, rc, "%s: error: no events (only metrics?)",
			      dir);
	}
	if (rc == 0 && (fflush(out) != 0 || ferror(out))) {
		rc = -EIO;
		pmu_error_set(err, rc, "%s: error: write failed", dir);
	}
	return rc;
}

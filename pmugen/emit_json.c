/*
 * emit_json.c - perf's pmu-events JSON form of a description's events.
 *
 * One array of objects with perf's keys in perf's order ("EventCode",
 * "EventName", "BriefDescription"), with jansson's 2-space indentation: for events imported from perf this is byte-for-byte the
 * layout of perf's own files (tools/perf/pmu-events/arch/powerpc/power10/),
 * except that codes are spelled "0x" + at least five upper-case hex digits
 * where perf sometimes pads long codes to 12 or 16 digits (the model keeps
 * the value, not the spelling).
 *
 * Which events: the ones perf knows, i.e. every event that is not a
 * firmware-only name (firmware == true: skiboot's "cycles", "l1-loads", ...).
 * Those names live in the device tree, where the kernel exposes them in sysfs
 * by itself; in perf's JSON they would duplicate perf's own name for the same
 * code (PM_LD_REF_L1 and l1-loads, both 0x100fc).  --all-events therefore
 * has nothing to change here (pmugen refuses it without a tree format): this
 * output is always the complete perf event set, and
 * `pmugen --format json pmus/power10.yaml` gives back exactly the events of
 * perf's power10 directory (tests/json/).
 *
 * Metrics follow the events, in the description's order (perf's files'),
 * every key perf gave and nothing else.
 *
 * PublicDescription is not written: the model carries one description per
 * event (perf's BriefDescription), and perf's power10 files have no
 * PublicDescription to reproduce.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "outbuf.h"

/*
 * The text is what jansson's json_dumps(array, JSON_INDENT(2)) gave for
 * the same array of objects (it did until this writer replaced it: building
 * a jansson object per event and dumping it was a fifth of pmugen's
 * instructions for four outputs), written through a small buffer (outbuf.h):
 * strings escaped as jansson's dump.c dump_string() escapes them without
 * flags ('"' and '\\', \b \f \n \r \t by name, other bytes below 0x20 as
 * \u00XX with upper-case digits, everything else, UTF-8 included, as it
 * is), and refused when they are not valid UTF-8, as json_string() refuses
 * them.
 */

/* The length of the UTF-8 sequence at s (valid as json_string() checks:
 * no overlong forms, surrogates or code points past U+10FFFF), 0 if not. */
static size_t utf8_sequence(const unsigned char *s)
{
	unsigned c = s[0], cp, n;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Bytes that end a run of bytes copied as they are: the NUL, those jansson
 * escapes, and the first bytes of UTF-8 sequences (checked). */
static const bool json_special[256] = {
	[0 ... 0x1f] = true, ['"'] = true, ['\\'] = true, [0x80 ... 0xff] = true,
};

/* s as a JSON string, in one pass; false when it is not valid UTF-8 (the
 * output is then abandoned). */
static bool put_json_string(struct outbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;

	ob_put(b, "\"", 1);
	for (;;) {
		while (!json_special[*p])
			p++;
		if (*p >= 0x80) {
			size_t n = utf8_sequence(p);
			if (!n)
				return false;
			p += n;
			continue;
		}
		ob_put(b, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		const char *esc;
		char hex[8];
		switch (*p) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		default:
			snprintf(hex, sizeof(hex), "\\u%04X", *p);
			esc = hex;
		}
		ob_puts(b, esc);
		run = ++p;
	}
	ob_put(b, "\"", 1);
	return true;
}

/* One event's object, indented as an element of the top-level array. */
static bool put_event(struct outbuf *b, const struct pmu_event *e, bool first)
{
	char code[32];
	/* perf's spelling: "0x" and upper-case hex digits, at least five */
	snprintf(code, sizeof(code), "\"0x%05" PRIX64 "\"", e->code);
	ob_puts(b, first ? "\n  {\n    \"EventCode\": " : ",\n  {\n    \"EventCode\": ");
	ob_puts(b, code);
	ob_puts(b, ",\n    \"EventName\": ");
	if (!e->name || !put_json_string(b, e->name))
		return false;
	if (e->description) {
		ob_puts(b, ",\n    \"BriefDescription\": ");
		if (!put_json_string(b, e->description))
			return false;
	}
	ob_puts(b, "\n  }");
	return true;
}

/* One metric's object: perf's keys in the sorted order of perf's POWER10
 * metrics.json, each string as the description keeps it (perf's). */
static bool put_metric(struct outbuf *b, const struct pmu_metric *mt, bool first)
{
	const struct { const char *key, *value; } keys[] = {
		{"AggregationMode", mt->aggregation}, {"BriefDescription", mt->description},
		{"MetricExpr", mt->expr}, {"MetricGroup", mt->groups},
		{"MetricName", mt->name}, {"MetricThreshold", mt->threshold},
		{"ScaleUnit", mt->scale_unit},
	};
	bool any = false;

	ob_puts(b, first ? "\n  {" : ",\n  {");
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (!keys[k].value)
			continue;
		ob_puts(b, any ? ",\n    \"" : "\n    \"");
		ob_puts(b, keys[k].key);
		ob_puts(b, "\": ");
		if (!put_json_string(b, keys[k].value))
			return false;
		any = true;
	}
	ob_puts(b, "\n  }");
	return true;
}

int emit_json(const struct pmu_model *m, const struct emit_options *o,
	      FILE *out, struct pmurt_error *err)
{
	struct outbuf *b = ob_open(out);
	bool first = true;
	int rc = 0;

	(void)o; /* see the comment atop: every perf event, always */
	if (!b) {
		pmurt_set_error(err, -ENOMEM, "json: error: out of memory");
		return -ENOMEM;
	}
	ob_put(b, "[", 1);
	for (int i = 0; i < m->nevents && !rc; i++) {
		const struct pmu_event *e = &m->events[i];
		if (e->firmware)
			continue;
		if (!put_event(b, e, first)) {
			rc = -EINVAL;
			pmurt_set_error(err, rc, "%s: error: event %s: name or description is "
					"not valid UTF-8", m->source ? m->source : "json",
					e->name ? e->name : "(unnamed)");
		}
		first = false;
	}
	for (int i = 0; i < m->nmetrics && !rc; i++) {
		if (!put_metric(b, &m->metrics[i], first)) {
			rc = -EINVAL;
			pmurt_set_error(err, rc, "%s: error: metric %s: a string is not valid UTF-8",
					m->source ? m->source : "json", m->metrics[i].name);
		}
		first = false;
	}
	ob_puts(b, first ? "]\n" : "\n]\n");
	if (ob_close(b) && !rc) {
		rc = -EIO;
		pmurt_set_error(err, rc, "json: error: write failed");
	}
	return rc;
}

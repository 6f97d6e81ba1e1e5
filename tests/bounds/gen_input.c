/*
 * gen_input.c - writes big hostile inputs for tests/bounds/run.sh, so that no
 * multi-megabyte file is committed.  Usage: gen_input KIND BYTES; the output
 * is about BYTES long (the YAML kinds that extend a description are appended
 * by run.sh to a cut of tests/checks/mini.yaml).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*generator)(long bytes);

static void repeat(const char *s, long times)
{
	for (long i = 0; i < times; i++)
		fputs(s, stdout);
}

static void flow_seq(long bytes)       /* a: [[[[...]]]] */
{
	fputs("a: ", stdout);
	repeat("[", bytes / 2);
	repeat("]", bytes / 2);
	putchar('\n');
}

static void flow_map(long bytes)       /* a: {a: {a: ...}} */
{
	fputs("a: ", stdout);
	repeat("{a: ", bytes / 5);
	putchar('1');
	repeat("}", bytes / 5);
	putchar('\n');
}

static void block_seq(long bytes)      /* a:\n- - - - ... x */
{
	fputs("a:\n", stdout);
	repeat("- ", bytes / 2);
	fputs("x\n", stdout);
}

static void top_keys(long bytes)       /* 100,000 unknown keys is 1.3 MB */
{
	fputs("format: pmu-description/1\n", stdout);
	for (long i = 0, n = 0; n < bytes; i++)
		n += printf("k%ld: 1\n", i);
}

static void event_keys(long bytes)     /* one event with many unknown keys */
{
	fputs("  - {name: X, code: 0x100f2, category: t, description: d", stdout);
	for (long i = 0, n = 0; n < bytes; i++)
		n += printf(", k%ld: 1", i);
	fputs("}\n", stdout);
}

static void long_scalar(long bytes)    /* a valid event, one huge description */
{
	fputs("  - {name: LONG, code: 0x100f2, category: test, description: \"", stdout);
	repeat("x", bytes);
	fputs("\"}\n", stdout);
}

static void events(long bytes)         /* every event with the same code */
{
	for (long i = 0, n = 0; n < bytes; i++)
		n += printf("  - {name: EV_%ld, code: 0x100f0, category: t, description: E}\n", i);
}

/* A legitimate perf-JSON import (pmugen import-perf-json's layout, block
 * mappings with sentence-long descriptions, ~150 bytes an event): every
 * event with its own code valid in tests/checks/mini.yaml (pmc 0..2, unit
 * 0..14, mark and selector free), so 7 MB holds about 45,000 events. */
static void import(long bytes)
{
	enum { SELS = 256, MARKS = 16, UNITS = 15, PMCS = 3 };
	long most = (long)SELS * MARKS * UNITS * PMCS;
	for (long i = 0, n = 0; n < bytes && i < most; i++) {
		long sel = i % SELS, mark = i / SELS % MARKS, unit = i / (SELS * MARKS) % UNITS,
		     pmc = i / (SELS * MARKS * UNITS);
		n += printf("  - name: PM_IMPORTED_EVENT_%ld\n    code: %#lx\n    category: imported\n"
			    "    description: \"Imported event %ld, with a description of a typical "
			    "length.\"\n", i, pmc << 16 | unit << 12 | mark << 8 | sel, i);
	}
}

static void fields(long bytes)         /* fields that all overlap */
{
	for (long i = 0, n = 0; n < bytes; i++)
		n += printf("  - {name: f%ld, bits: [20, 20], description: F}\n", i);
}

static void constraints(long bytes)    /* constraints whose slots all overlap */
{
	for (long i = 0, n = 0; n < bytes; i++)
		n += printf("  - {name: n%ld, kind: count, slot: [12, 15], limit: 2, "
			    "description: T}\n", i);
}

static void anchors(long bytes)        /* libyaml's anchor list is searched per anchor */
{
	fputs("a: [", stdout);
	for (long i = 0, n = 0; n < bytes; i++)
		n += printf("&a%ld 1, ", i);
	fputs("1]\n", stdout);
}

static void lines_of(const char *line, long bytes)
{
	repeat(line, bytes / (long)strlen(line) + 1);
}

static void jsonl_valid(long bytes)
{
	lines_of("{\"events\":[\"0x35340401e0\",\"0x26880\"]}\n", bytes);
}

static void jsonl_bad(long bytes)
{
	lines_of("{\"events\":[1,}\n", bytes);
}

static void jsonl_long(long bytes)     /* one line */
{
	fputs("{\"events\":[\"", stdout);
	repeat("x", bytes);
	fputs("\"]}\n", stdout);
}

static void jsonl_deep(long bytes)     /* lines nested past jansson's 2048 */
{
	char line[6020];
	memset(line, '[', 3000);
	memset(line + 3000, ']', 3000);
	memcpy(line + 6000, "\n", 2);
	lines_of(line, bytes);
}

static const struct {
	const char *name;
	generator fn;
} kinds[] = {
	{"flow-seq", flow_seq},       {"flow-map", flow_map},
	{"block-seq", block_seq},     {"top-keys", top_keys},
	{"event-keys", event_keys},   {"long-scalar", long_scalar},
	{"events", events},           {"import", import},
	{"fields", fields},
	{"constraints", constraints}, {"anchors", anchors},
	{"jsonl-valid", jsonl_valid}, {"jsonl-bad", jsonl_bad},
	{"jsonl-long", jsonl_long},   {"jsonl-deep", jsonl_deep},
};

int main(int argc, char **argv)
{
	long bytes = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
	for (size_t i = 0; bytes > 0 && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(argv[1], kinds[i].name) == 0) {
			kinds[i].fn(bytes);
			return fflush(stdout) ? 1 : 0;
		}
	fprintf(stderr, "usage: gen_input KIND BYTES\n");
	return 2;
}

/*
 * dt_corrupt.c - the DTB loader on broken input: truncated blobs, flipped
 * bytes, random damage and hand-made mistakes (a 3-cell event_code, a
 * one-cell bit range, a string without its NUL, unknown references, missing
 * nodes).  Every load either succeeds or fails with a reported error and a
 * freed model; the hand-made mistakes must fail with a message naming the
 * node path and the property.  Run it in a PMU_SANITIZE build to catch
 * out-of-bounds reads.
 *
 * usage: dt_corrupt DESCRIPTION.yaml
 */
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_util.h"

static int failures;
static long loads;

#define PMU "/pmus/pmu_dts@0"

/* Load buf; returns the loader's result after checking that a failure was
 * reported and left the model freed. */
static int load(const void *buf, size_t len, char *first_error, size_t elen)
{
	struct pmu_model m;
	struct pmu_diag d;
	int rc;

	pmu_diag_init(&d, NULL);
	rc = pmu_load_dtb(&m, "bad.dtb", buf, len, &d);
	loads++;
	if (rc == 0) {
		pmu_model_free(&m);
	} else {
		CHECK(d.nerrors > 0, "load failed (%d) without reporting an error", rc);
		CHECK(m.nevents == 0 && m.events == NULL && m.fields == NULL,
		      "failed load left a model behind");
	}
	if (first_error)
		snprintf(first_error, elen, "%s", d.first.message);
	return rc;
}

/* Cut the blob at many lengths, as is and with the header's totalsize
 * following the cut (so that the structure is actually parsed). */
static void truncations(const char *blob, size_t len)
{
	char *copy = malloc(len);
	size_t step = len > 4096 ? len / 2048 : 1;

	if (!copy) {
		failures++;
		return;
	}
	for (size_t cut = 0; cut < len; cut += (cut < 512 ? 1 : step)) {
		memcpy(copy, blob, cut);
		CHECK(load(copy, cut, NULL, 0) != 0, "truncated at %zu loaded", cut);
		if (cut >= sizeof(struct fdt_header)) {
			fdt_set_totalsize(copy, (uint32_t)cut);
			CHECK(load(copy, cut, NULL, 0) != 0,
			      "truncated at %zu with matching totalsize loaded", cut);
		}
	}
	free(copy);
}

/* Flip bits of single bytes: the header and structure start byte by byte,
 * the rest at a stride. */
static void flips(const char *blob, size_t len)
{
	static const unsigned char masks[] = { 0x01, 0x80, 0xff };
	char *copy = malloc(len);

	if (!copy) {
		failures++;
		return;
	}
	for (size_t i = 0; i < len; i += (i < 1024 ? 1 : 7)) {
		for (size_t k = 0; k < sizeof(masks); k++) {
			memcpy(copy, blob, len);
			copy[i] ^= (char)masks[k];
			load(copy, len, NULL, 0);
		}
	}
	free(copy);
}

/* Several random byte changes per blob (fixed seed: reproducible). */
static void random_damage(const char *blob, size_t len)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char *copy = malloc(len);

	if (!copy) {
		failures++;
		return;
	}
	for (int round = 0; round < 3000; round++) {
		int n = 1 + round % 8;

		memcpy(copy, blob, len);
		for (int j = 0; j < n; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			copy[(x >> 8) % len] = (char)x;
		}
		load(copy, len, NULL, 0);
	}
	free(copy);
}

/* --- hand-made mistakes ----------------------------------------------------- */

enum op { SET_CELLS, SET_BYTES, DEL_PROP, DEL_NODE };

struct mistake {
	const char *what;
	const char *path; /* node to change */
	const char *prop;
	enum op op;
	uint32_t cells[4];
	int ncells;
	const char *bytes; /* SET_BYTES: nbytes of them */
	int nbytes;
	int ok;            /* the loader should accept it */
	const char *want;  /* in the error, besides the path */
	const char *where; /* the node the error names, when not path */
};

/* CELLS(...): set cells; STR("x"): a string with its NUL; RAW("x"): the
 * bytes without one. */
#define CELLS(...) .op = SET_CELLS, .cells = { __VA_ARGS__ }, \
	.ncells = (int)(sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
#define STR(s) .op = SET_BYTES, .bytes = s, .nbytes = (int)sizeof(s)
#define RAW(s) .op = SET_BYTES, .bytes = s, .nbytes = (int)sizeof(s) - 1

static const struct mistake mistakes[] = {
	{ .what = "3-cell event_code", .path = PMU "/events/cycles", .prop = "event_code",
	  CELLS(0, 0, 0x600f4), .want = "event_code" },
	{ .what = "empty event_code", .path = PMU "/events/cycles", .prop = "event_code",
	  .op = SET_CELLS, .want = "event_code" },
	{ .what = "missing event_code", .path = PMU "/events/cycles", .prop = "event_code",
	  .op = DEL_PROP, .want = "event_code': missing" },
	{ .what = "4-cell event_code with a high word", .path = PMU "/events/cycles", .prop = "event_code",
	  CELLS(1, 0, 0, 0x600f4), .want = "<0 hi 0 lo>" },
	{ .what = "2-cell event_code", .path = PMU "/events/cycles", .prop = "event_code",
	  CELLS(0, 0x600f4), .want = NULL, .ok = 1 },
	{ .what = "skiboot 4-cell event_code", .path = PMU "/events/cycles", .prop = "event_code",
	  CELLS(0, 0, 0, 0x600f4), .want = NULL, .ok = 1 },
	{ .what = "string without NUL", .path = PMU "/events/cycles", .prop = "description",
	  RAW("abc"), .want = "description" },
	{ .what = "two strings for one", .path = PMU "/events/cycles", .prop = "event-category",
	  STR("a\0b"), .want = "event-category" },
	{ .what = "one-cell bits", .path = PMU "/evt_code_format/PMCxSEL", .prop = "bits",
	  CELLS(7), .want = "bits" },
	{ .what = "reversed bits", .path = PMU "/evt_code_format/PMCxSEL", .prop = "bits",
	  CELLS(7, 0), .want = "bits" },
	{ .what = "bit 64", .path = PMU "/evt_code_format/PMCxSEL", .prop = "bits",
	  CELLS(0, 64), .want = "bits" },
	{ .what = "length disagrees", .path = PMU "/evt_code_format/PMCxSEL", .prop = "length",
	  CELLS(9), .want = "length" },
	{ .what = "unknown register", .path = PMU "/evt_code_format/PMCxSEL", .prop = "lands-in",
	  STR("MMCR9.PMCxSEL"), .want = "lands-in" },
	{ .what = "no dot in reference", .path = PMU "/evt_code_format/PMCxSEL", .prop = "lands-in",
	  STR("MMCR1"), .want = "lands-in" },
	{ .what = "bad condition", .path = PMU "/evt_code_format/PMCxSEL", .prop = "when",
	  STR("sometimes"), .want = "when" },
	{ .what = "unknown parent", .path = PMU "/constraints/fields/src_sel", .prop = "parent",
	  STR("nothere"), .want = "parent" },
	{ .what = "unknown transform", .path = PMU "/evt_code_format/SDAR_MODE", .prop = "transform",
	  STR("bogus"), .want = "transform" },
	{ .what = "0-bit mantissa", .path = PMU "/constraints/fields/thresh_cmp",
	  .prop = "encoding-mantissa-bits", CELLS(0), .want = "mantissa-bits must be 1 to 63" },
	{ .what = "64-bit exponent step", .path = PMU "/constraints/threshold/thresh-cmp",
	  .prop = "encoding-exponent-step", CELLS(64), .want = "exponent-step must be 1 to 63" },
	{ .what = "mask outside the mantissa", .path = PMU "/constraints/threshold/thresh-cmp",
	  .prop = "encoding-normalized-mask", CELLS(0, 0x100), .want = "outside the 8-bit mantissa" },
	{ .what = "no clamp", .path = PMU "/constraints/fields/thresh_cmp", .prop = "encoding-clamp",
	  .op = DEL_PROP, .want = "encoding-clamp': missing" },
	{ .what = "mantissa-exponent with transform-arg", .path = PMU "/constraints/threshold/thresh-cmp",
	  .prop = "transform-arg", CELLS(0, 261120), .want = "encoding-* properties" },
	{ .what = "unknown role", .path = PMU "/evt_code_format/PMCx", .prop = "role",
	  STR("boss"), .want = "role" },
	{ .what = "no events node", .path = PMU "/events", .prop = NULL,
	  .op = DEL_NODE, .want = "events", .where = PMU },
	{ .what = "no evt_code_format", .path = PMU "/evt_code_format", .prop = NULL,
	  .op = DEL_NODE, .want = "evt_code_format", .where = PMU },
	{ .what = "no sprs", .path = PMU "/sprs", .prop = NULL,
	  .op = DEL_NODE, .want = "sprs", .where = PMU },
	{ .what = "not a PMU", .path = PMU, .prop = "compatible",
	  STR("foo"), .want = "ibm,power-pmu", .where = "/" },
	{ .what = "newer format", .path = PMU, .prop = "description-format",
	  CELLS(2), .want = "description-format" },
	{ .what = "nr_pmc disagrees", .path = PMU, .prop = "nr_pmc",
	  CELLS(7), .want = "nr_pmc" },
	{ .what = "missing sprn", .path = PMU "/sprs/pmcs/pmc1", .prop = "sprn",
	  .op = DEL_PROP, .want = "sprn" },
	{ .what = "2-cell width", .path = PMU "/sprs/mmcr/mmcr0", .prop = "register-width",
	  CELLS(0, 64), .want = "register-width" },
	{ .what = "programmable 2", .path = PMU "/sprs/pmcs/pmc1", .prop = "programmable",
	  CELLS(2), .want = "programmable" },
	{ .what = "3-cell slot", .path = PMU "/constraints/sample", .prop = "slot",
	  CELLS(16, 20, 0), .want = "slot" },
	{ .what = "unknown constraint kind", .path = PMU "/constraints/sample", .prop = "kind",
	  STR("most"), .want = "kind" },
	{ .what = "unknown constraint field", .path = PMU "/constraints/sample", .prop = "field",
	  STR("nothere"), .want = "field" },
	{ .what = "trigger-pmc 99", .path = PMU "/mmcr0-setters/pmc1ce", .prop = "trigger-pmc",
	  CELLS(99), .want = "trigger-pmc" },
	{ .what = "3-cell codes", .path = PMU "/constraints/alternatives/alt-0", .prop = "codes",
	  CELLS(0, 2, 0), .want = "codes" },
	{ .what = "unknown check kind", .path = PMU "/constraints/checks/check-0", .prop = "kind",
	  STR("maybe"), .want = "kind" },
	{ .what = "unknown cache word", .path = PMU "/cache-events/L1-dcache", .prop = "unsupported-ops",
	  STR("read-maybe"), .want = "unsupported-ops" },
	{ .what = "cache entry twice", .path = PMU "/cache-events/L1-dcache", .prop = "invalid-ops",
	  STR("read-access"), .want = "read-access" },
	{ .what = "3-cell cache code", .path = PMU "/cache-events/L1-dcache", .prop = "read-access",
	  CELLS(0, 0, 1), .want = "read-access" },
	{ .what = "3-cell generic code", .path = PMU "/generic-events/cycles", .prop = "event_code",
	  CELLS(0, 0, 1), .want = "event_code" },
	{ .what = "unknown privilege filter target", .path = PMU "/privilege-filters", .prop = "exclude_user",
	  STR("MMCR2.NOPE"), .want = "exclude_user" },
	{ .what = "preset derived by mul", .path = PMU "/presets/PAPI_L1_DCM", .prop = "derived",
	  STR("mul"), .want = "must be add, sub or postfix, found 'mul'" },
	{ .what = "preset codes for 1 of 2 events", .path = PMU "/presets/PAPI_L1_DCM",
	  .prop = "event-codes", CELLS(0, 0x400f0), .want = "'event-codes': expected 4 cells" },
	{ .what = "preset without events", .path = PMU "/presets/PAPI_L2_DCM", .prop = "events",
	  .op = DEL_PROP, .want = "'events': expected 1 to 8 strings" },
	{ .what = "postfix naming N2 of 2", .path = PMU "/presets/PAPI_STL_ICY", .prop = "postfix",
	  STR("N0|N2|-|"), .want = "N2 at offset 3 names event 3, but the preset lists 2" },
	{ .what = "two events, not derived", .path = PMU "/presets/PAPI_L1_DCM",
	  .prop = "derived", .op = DEL_PROP, .want = "2 events but no 'derived'" },
	{ .what = "postfix on an add preset", .path = PMU "/presets/PAPI_L1_DCM", .prop = "postfix",
	  STR("N0|N1|+|"), .want = "needs derived = \"postfix\"" },
	{ .what = "sub of one event", .path = PMU "/presets/PAPI_L2_DCM", .prop = "derived",
	  STR("sub"), .want = "a derived sub preset combines at least 2 events" },
};

static int apply(void *fdt, const struct mistake *c)
{
	int node = fdt_path_offset(fdt, c->path);
	fdt32_t be[4];

	if (node < 0)
		return node;
	switch (c->op) {
	case SET_CELLS:
		for (int i = 0; i < c->ncells; i++)
			be[i] = cpu_to_fdt32(c->cells[i]);
		return fdt_setprop(fdt, node, c->prop, be, c->ncells * 4);
	case SET_BYTES:
		return fdt_setprop(fdt, node, c->prop, c->bytes, c->nbytes);
	case DEL_PROP:
		return fdt_delprop(fdt, node, c->prop);
	case DEL_NODE:
		return fdt_del_node(fdt, node);
	}
	return -1;
}

static void hand_made(const char *blob)
{
	size_t size = fdt_totalsize(blob) + 4096;
	char *buf = malloc(size), err[600], place[256];

	if (!buf) {
		failures++;
		return;
	}
	for (size_t i = 0; i < sizeof(mistakes) / sizeof(mistakes[0]); i++) {
		const struct mistake *c = &mistakes[i];
		int rc = fdt_open_into(blob, buf, (int)size);

		if (rc == 0)
			rc = apply(buf, c);
		if (rc) {
			CHECK(rc == 0, "%s: cannot make the case: %s", c->what, fdt_strerror(rc));
			continue;
		}
		rc = load(buf, size, err, sizeof(err));
		if (c->ok) {
			CHECK(rc == 0, "%s: rejected: %s", c->what, err);
			continue;
		}
		CHECK(rc != 0, "%s: accepted", c->what);
		if (rc == 0)
			continue;
		/* the message starts with the node's place */
		snprintf(place, sizeof(place), "bad.dtb:%s: error: ",
			 c->where ? c->where : c->path);
		CHECK(strncmp(err, place, strlen(place)) == 0,
		      "%s: '%s' does not start with '%s'", c->what, err, place);
		CHECK(strstr(err, c->want), "%s: '%s' not in '%s'", c->what, c->want, err);
	}
	free(buf);
}

static void files(const char *yaml_path)
{
	struct pmu_model m;
	struct pmu_diag d;

	pmu_diag_init(&d, NULL);
	CHECK(pmu_load_dtb_file(&m, "/nonexistent/x.dtb", &d) != 0 && d.nerrors == 1,
	      "missing file");
	pmu_diag_init(&d, NULL);
	CHECK(pmu_load_dtb_file(&m, yaml_path, &d) != 0 &&
	      strstr(d.first.message, "not a valid DTB"),
	      "YAML read as DTB: %s", d.first.message);
	pmu_diag_init(&d, NULL);
	CHECK(pmu_load_dtb(&m, NULL, NULL, 0, &d) != 0 && d.nerrors == 1, "no blob");
	CHECK(pmu_load_dtb(&m, "x", "", 0, NULL) != 0, "no diag object");
}

int main(int argc, char **argv)
{
	struct pmu_model yaml;
	char *dtb = NULL;
	size_t len = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DESCRIPTION.yaml\n", argv[0]);
		return 2;
	}
	if (dt_load_yaml(&yaml, argv[1]))
		return 1;
	if (dt_emit_dtb(&yaml, false, &dtb, &len)) {
		pmu_model_free(&yaml);
		return 1;
	}
	CHECK(load(dtb, len, NULL, 0) == 0, "the undamaged blob does not load");
	hand_made(dtb);
	truncations(dtb, len);
	flips(dtb, len);
	random_damage(dtb, len);
	files(argv[1]);
	free(dtb);
	pmu_model_free(&yaml);
	printf("%ld loads, %d failure(s)\n", loads, failures);
	return failures ? 1 : 0;
}

/*
 * pprof_test.c - the pprof writer (export/pprof.c) read back: the gzip
 * stream inflated by zlib and the Profile unpacked by libprotobuf-c from
 * profile.proto's generated code, a reader independent of the writer's
 * own framing.  Checks the string table (index 0 ""), sample types,
 * samples summed within a batch and repeated across batches, labels,
 * functions and locations made once, mappings with the main one first and
 * their widened ranges, the informational fields, and the refusals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "pprof.h"
#include "profile.pb-c.h"

static int failures;

/* The gzip bytes inflated and unpacked; NULL when either fails. */
static Perftools__Profiles__Profile *read_back(const char *gz, size_t len)
{
	z_stream z = {0};
	size_t cap = 1 << 20, n = 0;
	uint8_t *raw = malloc(cap);
	if (!raw || inflateInit2(&z, 15 + 32) != Z_OK)
		return NULL;
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)len;
	int zr;
	do {
		if (n == cap)
			raw = realloc(raw, cap *= 2);
		z.next_out = raw + n;
		z.avail_out = (uInt)(cap - n);
		zr = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
	} while (zr == Z_OK);
	inflateEnd(&z);
	Perftools__Profiles__Profile *p =
		zr == Z_STREAM_END ? perftools__profiles__profile__unpack(NULL, n, raw) : NULL;
	free(raw);
	return p;
}

static const char *str(const Perftools__Profiles__Profile *p, int64_t i)
{
	return i >= 0 && (size_t)i < p->n_string_table ? p->string_table[i] : "<out of range>";
}

static const char *label_str(const Perftools__Profiles__Profile *p,
			     const Perftools__Profiles__Sample *s, const char *key)
{
	for (size_t i = 0; i < s->n_label; i++)
		if (!strcmp(str(p, s->label[i]->key), key))
			return str(p, s->label[i]->str);
	return NULL;
}

/* Three functions in two mappings, samples repeated so that a batch of
 * max_samples sums some and spreads others over batches. */
static void test_profile(size_t max_samples)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmurt_error err = {0};
	struct pprof_value_type types[] = {{"cycles_samples", "count"}, {"cycles", "events"}};
	struct pprof_writer *w;
	struct pprof_writer_opts o = {.max_samples = max_samples};
	CHECK(pprof_writer_open(&w, f, types, 2, &o, &err) == 0, "%s", err.message);
	uint64_t lib = 0, exe = 0, fa = 0, fb = 0, fk = 0, la = 0, lb = 0, lk = 0, again = 0;
	struct pprof_mapping ml = {0x7f0000000000, 0x7f0000100000, 0x1000, "/lib/libc.so.6",
				   "00ff", true, false, false};
	struct pprof_mapping me = {0x400000, 0x401000, 0, "/bin/app", NULL, true, false, false};
	CHECK(pprof_mapping_add(w, &ml, &lib, &err) == 0 && lib == 1, "lib %llu",
	      (unsigned long long)lib);
	CHECK(pprof_mapping_add(w, &me, &exe, &err) == 0 && exe == 2, "exe");
	pprof_set_main(w, exe);
	pprof_mapping_cover(w, exe, 0x300000, 0x402000);
	struct pprof_function a = {"ns::f()", "_ZN2ns1fEv", "f.cc", 10},
			      b = {.name = "main", .system_name = "main"},
			      k = {.name = "do_syscall_64", .system_name = "do_syscall_64"};
	CHECK(pprof_function(w, &a, &fa, &err) == 0 && pprof_function(w, &b, &fb, &err) == 0 &&
	      pprof_function(w, &k, &fk, &err) == 0, "%s", err.message);
	CHECK(pprof_function(w, &a, &again, &err) == 0 && again == fa, "a function once");
	CHECK(pprof_location(w, lib, 0x7f0000001234, fa, 12, &la, &err) == 0, "%s", err.message);
	CHECK(pprof_location(w, exe, 0x400010, fb, 0, &lb, &err) == 0, "%s", err.message);
	CHECK(pprof_location(w, 0, 0xffffffff81000000, fk, 0, &lk, &err) == 0, "%s", err.message);
	CHECK(pprof_location(w, exe, 0x400010, fa, 0, &again, &err) == 0 && again == lb,
	      "a location once per mapping and address");
	uint64_t stack[] = {la, lb}, kstack[] = {lk, la, lb};
	struct pprof_label lab[] = {{.key = "comm", .str = "app"}, {.key = "pid", .num = 42},
				    {"cpu", NULL, 3, "cpu"}};
	int64_t v[] = {1, 1000};
	for (int i = 0; i < 10; i++)
		CHECK(pprof_sample(w, stack, 2, v, lab, 3, &err) == 0, "%s", err.message);
	for (int i = 0; i < 5; i++)
		CHECK(pprof_sample(w, kstack, 3, v, lab, 2, &err) == 0, "%s", err.message);
	CHECK(pprof_sample(w, NULL, 0, v, NULL, 0, &err) == 0, "no stack: %s", err.message);
	const char *comments[] = {"made by pprof_test"};
	struct pprof_info info = {.time_nanos = 1700000000123456789, .duration_nanos = 2500000000,
				  .period_type = {"cycles", "events"}, .period = 100000,
				  .default_sample_type = 1, .comments = comments, .ncomments = 1};
	CHECK(pprof_finish(w, &info, &err) == 0, "%s", err.message);
	struct pprof_stats st;
	pprof_writer_stats(w, &st);
	pprof_writer_free(w);
	fclose(f);
	CHECK(st.samples_in == 16, "samples in %llu", (unsigned long long)st.samples_in);
	Perftools__Profiles__Profile *p = read_back(buf, len);
	CHECK(p, "the profile does not inflate and unpack (%zu bytes)", len);
	if (!p) {
		free(buf);
		return;
	}
	CHECK(p->n_string_table > 0 && !strcmp(p->string_table[0], ""), "string_table[0]");
	CHECK(p->n_sample_type == 2 && !strcmp(str(p, p->sample_type[1]->type), "cycles") &&
	      !strcmp(str(p, p->sample_type[1]->unit), "events"), "sample types");
	int64_t total[2] = {0, 0};
	size_t with_comm = 0;
	for (size_t i = 0; i < p->n_sample; i++) {
		CHECK(p->sample[i]->n_value == 2, "values per sample");
		total[0] += p->sample[i]->value[0];
		total[1] += p->sample[i]->value[1];
		const char *comm = label_str(p, p->sample[i], "comm");
		with_comm += comm && !strcmp(comm, "app") ? (size_t)p->sample[i]->value[0] : 0;
	}
	CHECK(total[0] == 16 && total[1] == 16000, "totals %lld %lld", (long long)total[0],
	      (long long)total[1]);
	CHECK(with_comm == 15, "comm label on %zu", with_comm);
	/* one batch: three distinct samples; batches of 2: more, never fewer */
	CHECK(max_samples >= 3 ? p->n_sample == 3 : p->n_sample > 3, "%zu samples for batches of %zu",
	      p->n_sample, max_samples);
	CHECK(p->n_mapping == 2 && p->mapping[0]->id == exe && p->mapping[0]->memory_start == 0x300000 &&
	      p->mapping[0]->memory_limit == 0x402000 &&
	      !strcmp(str(p, p->mapping[0]->filename), "/bin/app"), "main mapping first, widened");
	CHECK(!strcmp(str(p, p->mapping[1]->build_id), "00ff") && p->mapping[1]->file_offset == 0x1000,
	      "build id, offset");
	CHECK(p->n_function == 3 && p->n_location == 3, "%zu functions %zu locations", p->n_function,
	      p->n_location);
	for (size_t i = 0; i < p->n_location; i++)
		if (p->location[i]->id == la)
			CHECK(p->location[i]->n_line == 1 && p->location[i]->line[0]->function_id == fa &&
			      p->location[i]->line[0]->line == 12 && p->location[i]->address == 0x7f0000001234,
			      "location a");
	for (size_t i = 0; i < p->n_function; i++)
		if (p->function[i]->id == fa)
			CHECK(!strcmp(str(p, p->function[i]->name), "ns::f()") &&
			      !strcmp(str(p, p->function[i]->system_name), "_ZN2ns1fEv") &&
			      !strcmp(str(p, p->function[i]->filename), "f.cc") &&
			      p->function[i]->start_line == 10, "function a");
	CHECK(p->time_nanos == 1700000000123456789 && p->duration_nanos == 2500000000 &&
	      p->period == 100000 && !strcmp(str(p, p->period_type->type), "cycles"), "info");
	CHECK(!strcmp(str(p, p->default_sample_type), "cycles"), "default sample type");
	CHECK(p->n_comment == 1 && !strcmp(str(p, p->comment[0]), "made by pprof_test"), "comment");
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

static void test_refusals(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmurt_error err = {0};
	struct pprof_writer *w;
	CHECK(pprof_writer_open(&w, f, NULL, 0, NULL, &err) == -EINVAL && !w, "no sample type");
	struct pprof_value_type t = {"samples", "count"};
	CHECK(pprof_writer_open(&w, f, &t, 1, NULL, &err) == 0, "%s", err.message);
	uint64_t id = 0, bad = 7;
	CHECK(pprof_location(w, 3, 0x10, 0, 0, &id, &err) == -EINVAL &&
	      strstr(err.message, "no mapping 3"), "location in no mapping: %s", err.message);
	pprof_writer_free(w);
	/* a failed writer stays failed: a new one for the next refusal */
	CHECK(pprof_writer_open(&w, f, &t, 1, NULL, &err) == 0, "%s", err.message);
	int64_t v = 1;
	CHECK(pprof_sample(w, &bad, 1, &v, NULL, 0, &err) == -EINVAL &&
	      strstr(err.message, "no location 7"), "sample of no location: %s", err.message);
	CHECK(pprof_finish(w, NULL, &err) == -EINVAL, "finish after a failure");
	pprof_writer_free(w);
	fclose(f);
	free(buf);
}

/* Equal samples whose sum passes int64 (periods of a damaged file, as the
 * report fuzzer made them) hold at INT64_MAX; negative ones at INT64_MIN. */
static void test_held_sums(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmurt_error err = {0};
	struct pprof_value_type t[] = {{"up", "count"}, {"down", "count"}};
	struct pprof_writer *w;
	CHECK(pprof_writer_open(&w, f, t, 2, NULL, &err) == 0, "%s", err.message);
	int64_t v[2] = {INT64_MAX - 5, INT64_MIN + 5};
	for (int i = 0; i < 3; i++)
		CHECK(pprof_sample(w, NULL, 0, v, NULL, 0, &err) == 0, "%s", err.message);
	CHECK(pprof_finish(w, NULL, &err) == 0, "%s", err.message);
	pprof_writer_free(w);
	fclose(f);
	Perftools__Profiles__Profile *p = read_back(buf, len);
	CHECK(p && p->n_sample == 1 && p->sample[0]->value[0] == INT64_MAX &&
	      p->sample[0]->value[1] == INT64_MIN, "sums held at the int64 limits");
	if (p)
		perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

int main(void)
{
	test_profile(65536);
	test_profile(2);
	test_refusals();
	test_held_sums();
	return failures ? 1 : 0;
}

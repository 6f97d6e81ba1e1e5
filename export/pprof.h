/*
 * pprof.h - a streaming writer of pprof profiles: the Profile message of
 * profile.proto (github.com/google/pprof/proto/profile.proto, as Debian's
 * golang-github-google-pprof-dev ships it), gzip-compressed as that file
 * asks of a profile on disk.
 *
 * Streaming: protobuf lets a message's fields come in any order and a
 * repeated field's elements be spread among the others (the encoding
 * guide, "Last One Wins" and "Packed Repeated Fields" aside), so each
 * string, function and location is written the moment it is first used,
 * and samples go out in batches: equal samples (the same locations and
 * labels) are summed in a table of bounded size, which is written out and
 * emptied when full.  A reader sums duplicate samples as profile.proto
 * says ("the element-wise sum").  What stays in memory is what a program
 * has (its strings, functions, locations, mappings), never what a
 * recording has, so a 1 GB perf.data file needs no 1 GB of memory.
 *
 * Ids: strings are indices into the string table (0 is ""), functions,
 * locations and mappings are numbered from 1 in the order they are made.
 * Functions are made once per (name, system name, file, line), locations
 * once per (mapping, address); mappings are kept until pprof_finish, which
 * writes them with their final ranges, the main one (pprof_set_main) first:
 * profile.proto's "mapping[0] will be the main binary".
 *
 * Every function returns 0 (or an id) or a negative errno with err's
 * message set; after a failure the writer only fails again.
 */
#ifndef PMU_EXPORT_PPROF_H
#define PMU_EXPORT_PPROF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmurt.h"

struct pprof_writer;

/* A sample value's meaning: profile.proto's ValueType ("cpu",
 * "nanoseconds"), and a label ("pid" 42, "comm" "ls", "cpu" 3). */
struct pprof_value_type {
	const char *type, *unit;
};

struct pprof_label {
	const char *key;
	const char *str;        /* NULL: a numeric label */
	int64_t num;
	const char *num_unit;   /* NULL: none */
};

struct pprof_mapping {
	uint64_t memory_start, memory_limit, file_offset;
	const char *filename;
	const char *build_id;   /* hex digits, NULL: unknown */
	bool has_functions, has_filenames, has_line_numbers;
};

struct pprof_function {
	const char *name;          /* human-readable (demangled) */
	const char *system_name;   /* as the system names it (mangled) */
	const char *filename;      /* NULL: unknown */
	int64_t start_line;
};

/* What the whole profile says beside its samples (profile.proto's
 * informational fields). */
struct pprof_info {
	int64_t time_nanos;        /* collection time, ns since the epoch (UTC) */
	int64_t duration_nanos;
	struct pprof_value_type period_type;   /* type NULL: none */
	int64_t period;
	int default_sample_type;   /* index into the sample types, -1: none
	                              (readers then take the last) */
	const char *const *comments;
	int ncomments;
};

/* The sample table's size: distinct samples held before a batch is
 * written (0: the default, 65536). */
struct pprof_writer_opts {
	size_t max_samples;
	int gzip_level;            /* zlib's 0-9, 0: its default (6) */
};

/* A writer into out (left open), the profile's sample types first. */
int pprof_writer_open(struct pprof_writer **w, FILE *out, const struct pprof_value_type *types,
		      int ntypes, const struct pprof_writer_opts *opts, struct pmurt_error *err);
/* s's index in the string table, added (and written) when new. */
int64_t pprof_string(struct pprof_writer *w, const char *s, struct pmurt_error *err);
/* A new mapping; *id its id. */
int pprof_mapping_add(struct pprof_writer *w, const struct pprof_mapping *m, uint64_t *id,
		      struct pmurt_error *err);
/* Widen mapping id to cover [start, limit). */
void pprof_mapping_cover(struct pprof_writer *w, uint64_t id, uint64_t start, uint64_t limit);
/* The mapping written first (profile.proto's main binary); default the
 * first made. */
void pprof_set_main(struct pprof_writer *w, uint64_t id);
int pprof_function(struct pprof_writer *w, const struct pprof_function *f, uint64_t *id,
		   struct pmurt_error *err);
/* The location of address in mapping mapping_id (0: none); with
 * function_id (0: none) and line its one line.  Made once per mapping and
 * address: the function given the first time stays. */
int pprof_location(struct pprof_writer *w, uint64_t mapping_id, uint64_t address,
		   uint64_t function_id, int64_t line, uint64_t *id, struct pmurt_error *err);
/* A sample: locations leaf first, one value per sample type. */
int pprof_sample(struct pprof_writer *w, const uint64_t *locations, int nlocations,
		 const int64_t *values, const struct pprof_label *labels, int nlabels,
		 struct pmurt_error *err);
/* Writes what is left, the mappings and info, and ends the gzip stream. */
int pprof_finish(struct pprof_writer *w, const struct pprof_info *info, struct pmurt_error *err);
void pprof_writer_free(struct pprof_writer *w);

/* What the writer did: protobuf bytes before and after gzip, samples
 * written (after summing) and batches. */
struct pprof_stats {
	uint64_t raw_bytes, gzip_bytes;
	uint64_t samples_in, samples_out, batches;
	uint64_t strings, functions, locations, mappings;
};
void pprof_writer_stats(const struct pprof_writer *w, struct pprof_stats *st);

#endif /* PMU_EXPORT_PPROF_H */

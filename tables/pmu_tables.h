/*
 * pmu_tables.h - layout of the built-in description tables.
 *
 * `pmugen --format c` compiles a description into data-only C (one
 * `const struct pmu_tables pmu_tables_<platform>` per PMU, built into
 * libpmutables); libpmurt rebuilds a struct pmu_model equal to the YAML's
 * from it.  This header holds only the types, the name hash that pmugen and
 * the runtime share, and the extern declarations.  schema/c-tables.md
 * describes the layout.
 *
 * Conventions:
 * - Strings are offsets into one pool of NUL-terminated strings
 *   (pmu_str_t); PMU_TBL_NOSTR stands for a NULL string.
 * - Indices (field, register, event, ...) are 0-based; -1 means none.
 * - Enumerations hold the numeric values of pmu_model.h's enums.
 * - A condition is a slice [first, first + nterms) of the terms table.
 */
#ifndef PMU_TABLES_H
#define PMU_TABLES_H

#include <stddef.h>
#include <stdint.h>

#define PMU_TABLES_VERSION 9 /* 3: presets, overflow_counter_unknown;
                                4: tagged 64-bit name index slots;
                                5: refused-code checks and PVR selectors,
                                   flag constraints, the group rule, pvr;
                                6: the name hash folds case with one OR and
                                   multiplies four fixed words of a name
                                   independently;
                                7: metrics;
                                8: code classes (terms gain code_class);
                                9: processor versions, extends and base */

typedef uint32_t pmu_str_t;
#define PMU_TBL_NOSTR UINT32_MAX

#define PMU_TBL_EXCL_COUNT 5    /* = PMU_EXCL_COUNT */
#define PMU_TBL_CACHE_TYPES 7   /* = PMU_CACHE_NTYPES */
#define PMU_TBL_CACHE_OPS 3     /* = PMU_OP_NTYPES */
#define PMU_TBL_CACHE_RESULTS 2 /* = PMU_RESULT_NTYPES */

/* struct pmu_term: the term holds when field's value is (not) in [lo, hi];
 * with code_class (version 8), field indexes code_classes and the value is
 * 1 when the event's code belongs to the class, else 0. */
struct pmu_tbl_term {
	int32_t field;   /* index into fields, or code_classes */
	uint8_t negate;
	uint64_t lo, hi;
	uint8_t code_class;
};

/* struct pmu_code_class: codes class_codes[first_code .. + ncodes - 1]. */
struct pmu_tbl_code_class {
	pmu_str_t name;
	pmu_str_t description;
	uint64_t mask;
	uint32_t first_code, ncodes;
};

/* struct pmu_condition: terms[first .. first + nterms - 1]; 0 terms = always */
struct pmu_tbl_cond {
	uint32_t first;
	uint32_t nterms;
};

struct pmu_tbl_ref {
	int32_t reg, field; /* register and its field; -1, -1 when unset */
};

struct pmu_tbl_counter {
	pmu_str_t name;
	uint32_t sprn;
	uint32_t width;
	pmu_str_t privilege;
	uint8_t programmable;
	pmu_str_t event;     /* fixed counters' event, else PMU_TBL_NOSTR */
	uint64_t fixed_code;
};

struct pmu_tbl_reg_field {
	pmu_str_t name;
	pmu_str_t description;
	uint8_t layout;      /* enum pmu_layout */
	uint32_t lo, hi;
	uint32_t base, stride, width;
};

struct pmu_tbl_register {
	pmu_str_t name;
	uint32_t sprn;
	uint32_t width;
	pmu_str_t privilege;
	uint32_t index;
	uint64_t reset;
	uint32_t first_field; /* reg_fields[first_field .. + nfields - 1] */
	uint32_t nfields;
};

/* struct pmu_thresh_encoding: mantissa-exponent's parameters, zero when unused. */
struct pmu_tbl_encoding {
	uint32_t mantissa_bits, exponent_bits, exponent_step;
	uint64_t clamp, normalized_mask;
};

struct pmu_tbl_field {
	pmu_str_t name;
	pmu_str_t dts_name;
	pmu_str_t description;
	uint8_t source;       /* enum pmu_source */
	uint32_t lo, hi;
	int32_t parent;
	uint8_t role;         /* enum pmu_field_role */
	uint8_t linux_defined;
	int32_t target_reg, target_field;
	struct pmu_tbl_cond when;
	uint8_t transform;    /* enum pmu_transform */
	uint64_t transform_arg;
	struct pmu_tbl_encoding encoding;
	int32_t clear_reg, clear_field;
};

struct pmu_tbl_constraint {
	pmu_str_t name;
	pmu_str_t description;
	uint8_t kind;         /* enum pmu_constraint_kind */
	uint8_t source;       /* enum pmu_source */
	uint32_t src_lo, src_hi;
	uint8_t transform;
	uint64_t transform_arg;
	struct pmu_tbl_encoding encoding;
	uint32_t slot_lo, slot_hi;
	uint32_t limit;
	struct pmu_tbl_cond when;
	/* version 5 */
	uint8_t has_flag;
	struct pmu_tbl_cond flag;
	pmu_str_t group_reason;  /* PMU_TBL_NOSTR: no group rule */
	uint64_t group_require;
};

struct pmu_tbl_check {
	pmu_str_t name;
	pmu_str_t description;
	uint8_t kind;         /* enum pmu_check_kind */
	struct pmu_tbl_cond when;
	int32_t field;
	/* version 5: refused codes check_codes[first_code .. + ncodes - 1] */
	uint32_t first_code, ncodes;
	uint32_t pvr_mask, pvr_value;
};

struct pmu_tbl_usage {
	struct pmu_tbl_ref target;
	uint8_t when;         /* enum pmu_usage_when */
	uint32_t counters;    /* bit n = PMCn */
};

struct pmu_tbl_alternative {
	uint32_t ncodes;
	uint64_t codes[4];
	uint8_t per_task_only;
};

struct pmu_tbl_generic {
	pmu_str_t name;
	uint8_t state;        /* enum pmu_map_state */
	uint64_t code;
};

struct pmu_tbl_cache_entry {
	uint8_t state;        /* enum pmu_map_state */
	uint64_t code;
};

struct pmu_tbl_branch_filter {
	pmu_str_t name;       /* perf's filter name */
	uint8_t state;        /* enum pmu_map_state */
	uint64_t value;
};

#define PMU_TBL_PRESET_EVENTS 8 /* = PMU_PRESET_MAX_EVENTS */

/* struct pmu_preset: members events[0 .. nevents - 1] with their codes. */
struct pmu_tbl_preset {
	pmu_str_t name;
	pmu_str_t description;
	uint8_t kind;         /* enum pmu_preset_kind */
	uint32_t nevents;
	pmu_str_t events[PMU_TBL_PRESET_EVENTS];
	uint64_t codes[PMU_TBL_PRESET_EVENTS];
	pmu_str_t postfix;
};

/* struct pmu_metric: perf's strings, each PMU_TBL_NOSTR when absent. */
struct pmu_tbl_metric {
	pmu_str_t name, expr, groups, description, scale_unit, threshold, aggregation, pmus;
};

#define PMU_TBL_EV_FIRMWARE 0x1u /* pmu_event.firmware */

struct pmu_tbl_event {
	pmu_str_t name;
	uint64_t code;
	pmu_str_t category;
	pmu_str_t event_class;
	pmu_str_t description;
	pmu_str_t status;
	uint32_t flags;       /* PMU_TBL_EV_* */
	int32_t alias_of;
};

struct pmu_tables {
	uint32_t tables_version;  /* PMU_TABLES_VERSION */
	uint32_t format_version;  /* PMU_FORMAT_VERSION of the description */
	const char *pool;         /* every string once, NUL-terminated */
	uint32_t pool_size;       /* bytes, including the last NUL */

	pmu_str_t source;         /* the description's file name (no directory) */
	pmu_str_t name, version, platform, compatible;
	uint32_t max_group;

	const struct pmu_tbl_counter *counters;     uint32_t ncounters;
	const struct pmu_tbl_register *registers;   uint32_t nregisters;
	const struct pmu_tbl_reg_field *reg_fields; uint32_t nreg_fields;
	const struct pmu_tbl_field *fields;         uint32_t nfields;
	const struct pmu_tbl_term *terms;           uint32_t nterms;
	const struct pmu_tbl_constraint *constraints; uint32_t nconstraints;
	const struct pmu_tbl_check *checks;         uint32_t nchecks;
	const struct pmu_tbl_usage *usage;          uint32_t nusage;
	struct pmu_tbl_ref exclude[PMU_TBL_EXCL_COUNT]; /* enum pmu_exclude order */
	struct pmu_tbl_ref branch_stack_clears;
	const struct pmu_tbl_alternative *alternatives; uint32_t nalternatives;
	const struct pmu_tbl_generic *generic;      uint32_t ngeneric;
	uint8_t has_cache_map;
	struct pmu_tbl_cache_entry
		cache[PMU_TBL_CACHE_TYPES][PMU_TBL_CACHE_OPS][PMU_TBL_CACHE_RESULTS];
	const struct pmu_tbl_branch_filter *branch_filters; uint32_t nbranch_filters;
	struct pmu_tbl_ref branch_filter_target;
	const struct pmu_tbl_event *events;         uint32_t nevents;

	/*
	 * Event names (every event, aliases included) by pmu_tbl_name_hash(),
	 * which folds case: open addressing with linear probing over
	 * name_index_size slots (a power of two, at least twice nevents).  A
	 * slot holds pmu_tbl_name_slot(): the event index + 1 in its low 31
	 * bits (0 when empty), PMU_TBL_SLOT_PUNCT in bit 31 when the name holds
	 * one of PMU_TBL_PUNCT (a parser reads such a string as terms or a PMU
	 * wrapper, not as a plain name) and, in the high 32 bits,
	 * pmu_tbl_name_tag() of the name, its length and 24 bits of its hash,
	 * so that a probe compares a name only when both agree.  Probe from hash & (size - 1) until an empty
	 * slot, comparing names without case; equal names (ignoring case) are
	 * found in event order.
	 */
	const uint64_t *name_index; uint32_t name_index_size;

	/* version 3 */
	uint8_t overflow_counter_unknown;
	const struct pmu_tbl_preset *presets;       uint32_t npresets;

	/* version 5 */
	uint32_t pvr;
	const uint64_t *check_codes;                uint32_t ncheck_codes;

	/* version 7 */
	const struct pmu_tbl_metric *metrics;       uint32_t nmetrics;

	/* version 8 */
	const struct pmu_tbl_code_class *code_classes; uint32_t ncode_classes;
	const uint64_t *class_codes;                uint32_t nclass_codes;

	/* version 9 */
	const uint32_t *pvr_versions;               uint32_t npvr_versions;
	pmu_str_t extends;        /* the base's platform; PMU_TBL_NOSTR: none */
	/*
	 * A description that extends another: the base's tables.  Then the
	 * members above up to max_group, pvr, pvr_versions and extends are
	 * this description's own and every other member is unused (NULL, 0):
	 * its counters, rules, events and name index are the base's.
	 */
	const struct pmu_tables *base;
};

/*
 * The name hash.  A name of 8 bytes or more is read as 8-byte words, each
 * taken little-endian on every host (so a table generated on one machine
 * indexes the same way on another) and case-folded (pmu_tbl_fold64): the
 * words at bytes 0, 8 and 16 that start before the last eight bytes
 * (pmu_tbl_hash_word) and the last eight bytes, each multiplied by a
 * constant of its own and xor-ed together, so that for a name of up to 32
 * bytes (most event names) the hash is a few independent multiplies deep
 * and takes no branch on the length, not a chain of one multiply per word;
 * the words from byte 24 up to the last eight (longer names) are chained
 * with a multiply each and xor-ed in too.  A byte is in two words at most,
 * at two different places, so a change of one byte always changes the
 * hash.  A shorter name is one word, zero-filled past its end.  Then the
 * length goes in, and a shift, a multiply and a shift spread every bit over
 * the bits the index and the tag read.  The word multipliers fit an
 * instruction's 32-bit immediate.  Names are read eight bytes at a time
 * inside [name, name + len) or a byte at a time, never past their end.
 */
static inline uint64_t pmu_tbl_le64(uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(w);
#else
	return w;
#endif
}

/* 'A'..'Z' to 'a'..'z' in every byte of w; other bytes unchanged. */
static inline uint64_t pmu_tbl_lower64(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;
	uint64_t b = w & low7;                      /* no carry between bytes below */
	uint64_t ge_a = b + 0x3f3f3f3f3f3f3f3full;  /* high bit: byte >= 'A' */
	uint64_t gt_z = b + 0x2525252525252525ull;  /* high bit: byte > 'Z' */
	uint64_t upper = ge_a & ~gt_z & ~w & high;
	return w | (upper >> 2);
}

/* The case fold the hash reads: bit 5 set in every byte.  Words equal
 * without ASCII case fold to the same word (and so do a few others, '_'
 * and DEL, '@' and '`': the look-up compares the names themselves); one OR
 * where lowering (pmu_tbl_lower64) takes eight operations. */
static inline uint64_t pmu_tbl_fold64(uint64_t w)
{
	return w | 0x2020202020202020ull;
}

/* The little-endian word at p. */
static inline uint64_t pmu_tbl_word(const char *p)
{
	uint64_t w;
	__builtin_memcpy(&w, p, 8);
	return pmu_tbl_le64(w);
}

/* The n < 8 bytes at p as a little-endian word, zero-filled. */
static inline uint64_t pmu_tbl_short_word(const char *p, size_t n)
{
	uint64_t w = 0;
	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)(unsigned char)p[i] << (8 * i);
	return w;
}

/* Where a name of len >= 8 bytes has the fixed word meant to start at
 * byte at (0, 8 or 16): there, or at the last eight bytes if it would end
 * past them. */
static inline size_t pmu_tbl_fixed_word(size_t len, size_t at)
{
	return at < len - 8 ? at : len - 8;
}

/* The folded word the hash takes at byte at of a name of len >= 8 bytes:
 * the word there if it starts before the last eight bytes, else 0 (no
 * word is taken twice, so that no two of them can cancel out). */
static inline uint64_t pmu_tbl_hash_word(const char *name, size_t len, size_t at)
{
	uint64_t w = pmu_tbl_fold64(pmu_tbl_word(name + pmu_tbl_fixed_word(len, at)));
	return at < len - 8 ? w : 0;
}

/* The hash of name[0..len). */
static inline uint64_t pmu_tbl_name_hash_len(const char *name, size_t len)
{
	uint64_t h;

	if (len < 8) {
		h = pmu_tbl_fold64(pmu_tbl_short_word(name, len)) * 0x5bd1e995u;
	} else {
		uint64_t middle = 0;
		for (size_t i = 24; __builtin_expect(i + 8 < len, 0); i += 8)
			middle = (middle ^ pmu_tbl_fold64(pmu_tbl_word(name + i))) * 0x27d4eb2fu;
		h = pmu_tbl_hash_word(name, len, 0) * 0x5bd1e995u ^
		    pmu_tbl_hash_word(name, len, 8) * 0x1b873593u ^
		    pmu_tbl_hash_word(name, len, 16) * 0x2c1b3c6du ^
		    pmu_tbl_fold64(pmu_tbl_word(name + len - 8)) * 0x297a2d39u ^ middle;
	}
	h ^= (uint64_t)len;
	h = (h ^ (h >> 29)) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

static inline uint64_t pmu_tbl_name_hash(const char *name)
{
	return pmu_tbl_name_hash_len(name, __builtin_strlen(name));
}

/* A slot's tag: the name's length (255 for 255 or more) in the low 8 bits,
 * the hash's top 24 bits above. */
#define PMU_TBL_TAG_LEN_MAX 255u
static inline uint32_t pmu_tbl_name_tag(uint64_t hash, size_t len)
{
	uint32_t l = len < PMU_TBL_TAG_LEN_MAX ? (uint32_t)len : PMU_TBL_TAG_LEN_MAX;
	return l | (uint32_t)(hash >> 40) << 8;
}

#define PMU_TBL_PUNCT ":/=,"
#define PMU_TBL_SLOT_PUNCT 0x80000000u
#define PMU_TBL_SLOT_INDEX 0x7fffffffu /* event index + 1 */

/* The slot of event index (0-based) whose name has that hash and length. */
static inline uint64_t pmu_tbl_name_slot(uint32_t index, const char *name, uint64_t hash,
					 size_t len)
{
	uint32_t punct = __builtin_strpbrk(name, PMU_TBL_PUNCT) ? PMU_TBL_SLOT_PUNCT : 0;
	return (uint64_t)pmu_tbl_name_tag(hash, len) << 32 | punct | (uint64_t)(index + 1);
}

/* The built-in descriptions (libpmutables). */
extern const struct pmu_tables pmu_tables_power10;
extern const struct pmu_tables pmu_tables_power9;
extern const struct pmu_tables pmu_tables_power8;
extern const struct pmu_tables pmu_tables_power11; /* extends power10 */

#endif /* PMU_TABLES_H */

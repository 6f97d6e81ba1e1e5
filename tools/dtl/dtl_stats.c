/*
 * dtl_stats.c - the figures of `pmutool dtl report` (dtl_stats.h).  The
 * entries' times are kept per CPU so that percentiles are exact, found by
 * a radix selection over 12 bits of the values at a time (fill_dist).  Steal is
 * enqueue_to_dispatch + ready_to_enqueue, the time the kernel counts as
 * stolen from each DTL entry (arch/powerpc/kernel/time.c scan_dispatch_log).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dtl_stats.h"

#define HUGE_PAGE (2u << 20)

const char *const dtl_time_names[DTL_NTIMES] = {
	"enqueue_to_dispatch", "ready_to_enqueue", "waiting_to_ready",
};

uint64_t dtl_tb_freq(const struct dtl_stats *s)
{
	return s->have_header && s->header.tb_freq ? s->header.tb_freq : PMURT_DTL_DEFAULT_TB_FREQ;
}

const char *dtl_tb_freq_from(const struct dtl_stats *s)
{
	return s->have_header && s->header.tb_freq ? "header" : "default";
}

double dtl_us(const struct dtl_stats *s, uint64_t ticks)
{
	return (double)ticks * 1e6 / (double)dtl_tb_freq(s);
}

int dtl_stats_mark(struct dtl_stats *s, const struct dtl_mark *m)
{
	if (s->nmarks == s->capmarks) {
		size_t cap = s->capmarks ? 2 * s->capmarks : 256;
		struct dtl_mark *grown = realloc(s->marks, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		s->marks = grown;
		s->capmarks = cap;
	}
	s->marks[s->nmarks++] = *m;
	return 0;
}

void dtl_stats_header(struct dtl_stats *s, int cpu, uint64_t offset,
		      const struct pmurt_dtl_header *h)
{
	dtl_check_header(&s->warn, cpu, s->slot_base + offset, h);
	if (!s->have_header) {
		s->header = *h;
		s->have_header = true;
	}
}

/* The CPU's figures, added on first sight. */
static struct dtl_cpu *add_cpu(struct dtl_stats *s, int cpu)
{
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[s->last = i];
	struct dtl_cpu *cpus = realloc(s->cpus, (s->ncpus + 1) * sizeof(*cpus));
	if (!cpus)
		return NULL;
	s->cpus = cpus;
	s->last = s->ncpus;
	struct dtl_cpu *c = &cpus[s->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	return c;
}

/* Most entries go to the CPU the last one went to. */
static inline struct dtl_cpu *find_cpu(struct dtl_stats *s, int cpu)
{
	if (s->last < s->ncpus && s->cpus[s->last].cpu == cpu)
		return &s->cpus[s->last];
	return add_cpu(s, cpu);
}

/* The first allocation of an array: on 2 MiB boundaries, asking for
 * transparent huge pages, so that filling millions of entries costs a few
 * page faults rather than one per 4 KiB. */
static void *array_alloc(void *old, size_t bytes)
{
	if (old || bytes < HUGE_PAGE)
		return realloc(old, bytes);
	size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	void *p = aligned_alloc(HUGE_PAGE, rounded);
	if (p)
		madvise(p, rounded, MADV_HUGEPAGE); /* a hint: its failure changes nothing */
	return p;
}

static int grow(struct dtl_cpu *c, size_t cap, bool timeline)
{
	if (timeline) {
		uint64_t *tb = array_alloc(c->tb, cap * sizeof(*tb));
		if (!tb)
			return -ENOMEM;
		c->tb = tb;
		uint8_t *reasons = array_alloc(c->reasons, cap * 2);
		if (!reasons)
			return -ENOMEM;
		c->reasons = reasons;
	}
	for (int k = 0; k < DTL_NTIMES; k++) {
		uint32_t *v = array_alloc(c->times[k], cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->times[k] = v;
	}
	c->cap = cap;
	return 0;
}

int dtl_stats_reserve(struct dtl_stats *s, int cpu, size_t n)
{
	struct dtl_cpu *c = find_cpu(s, cpu);
	if (!c)
		return -ENOMEM;
	return n > c->cap ? grow(c, n, s->keep_timeline) : 0;
}

int dtl_stats_add(struct dtl_stats *s, int cpu, const struct pmurt_dtl_slot *slot)
{
	struct dtl_cpu *c = find_cpu(s, cpu);
	if (!c)
		return -ENOMEM;
	switch (slot->kind) {
	case PMURT_DTL_HEADER: return 0;
	case PMURT_DTL_SKIPPED: c->skipped++; return 0;
	case PMURT_DTL_STALE: c->stale_bytes += slot->len; return 0;
	case PMURT_DTL_ENTRY: break;
	}
	if (c->n == c->cap && grow(c, c->cap ? c->cap * 2 : 1024, s->keep_timeline) < 0)
		return -ENOMEM;
	const struct pmurt_dtl_entry *e = &slot->entry;
	dtl_check_entry(&s->warn, s->have_header ? &s->header : NULL, dtl_tb_freq(s),
			(struct dtl_prev_dispatch){c->cpu, c->dispatches, c->last_tb},
			s->slot_base + slot->offset, e);
	if (!c->dispatches)
		c->first_tb = e->timebase;
	c->last_tb = e->timebase;
	c->dispatches++;
	c->dispatch_mix[e->dispatch_reason]++;
	c->preempt_mix[e->preempt_reason]++;
	c->steal += (uint64_t)e->enqueue_to_dispatch_time + e->ready_to_enqueue_time;
	const uint32_t times[DTL_NTIMES] = {
		[DTL_ENQUEUE_TO_DISPATCH] = e->enqueue_to_dispatch_time,
		[DTL_READY_TO_ENQUEUE] = e->ready_to_enqueue_time,
		[DTL_WAITING_TO_READY] = e->waiting_to_ready_time,
	};
	for (int k = 0; k < DTL_NTIMES; k++) {
		c->times[k][c->n] = times[k];
		c->max[k] = times[k] > c->max[k] ? times[k] : c->max[k];
	}
	if (s->keep_timeline) {
		c->tb[c->n] = e->timebase;
		c->reasons[2 * c->n] = e->dispatch_reason;
		c->reasons[2 * c->n + 1] = e->preempt_reason;
	}
	c->n++;
	return 0;
}

/* The nearest-rank percentile p (of 100) among n values: rank ceil(p*n/100). */
static uint64_t rank_of(unsigned p, uint64_t n)
{
	uint64_t r = (p * n + 99) / 100;
	return r ? r - 1 : 0;
}

/* Rank selection looks at SELECT_BITS bits of the values per pass. */
#define SELECT_BITS 12
#define SELECT_BUCKETS (1u << SELECT_BITS)

/* Where rank falls in hist: the bucket, and the rank inside it. */
static uint32_t find_rank(const uint64_t *hist, uint64_t rank, uint64_t *inside)
{
	uint32_t b = 0;
	while (rank >= hist[b])
		rank -= hist[b++];
	*inside = rank;
	return b;
}

/* 0 for [0,1) us, k for [2^(k-1), 2^k) us */
static int us_bucket(double us)
{
	if (us < 1)
		return 0;
	int b = 64 - __builtin_clzll((uint64_t)us);
	return b < DTL_HIST_BUCKETS ? b : DTL_HIST_BUCKETS - 1;
}

/* The microsecond bucket of every tick value, fast: within the ticks'
 * own log2 bucket b, [2^(b-1), 2^b), the microsecond bucket is base[b],
 * or base[b] + 1 from first[b] on, as long as a tick is below a
 * microsecond (fast is false otherwise, and us_bucket is used). */
struct us_buckets {
	double us_per_tick;
	bool fast;
	uint8_t base[33];
	uint64_t first[33];
};

static int bucket_of(const struct us_buckets *u, uint32_t v)
{
	return us_bucket(v * u->us_per_tick);
}

static void us_buckets_init(struct us_buckets *u, uint64_t tb_freq)
{
	u->us_per_tick = 1e6 / (double)tb_freq;
	u->fast = tb_freq >= 1000000;
	for (int b = 0; b < 33 && u->fast; b++) {
		uint64_t lo = b ? 1ull << (b - 1) : 0, hi = b ? (1ull << b) - 1 : 0;
		u->base[b] = (uint8_t)bucket_of(u, (uint32_t)lo);
		int top = bucket_of(u, (uint32_t)hi);
		u->first[b] = hi + 1;
		if (top == u->base[b])
			continue;
		if (top > u->base[b] + 1) {
			u->fast = false;
			break;
		}
		while (lo < hi) { /* the first value in the higher bucket */
			uint64_t mid = lo + (hi - lo) / 2;
			if (bucket_of(u, (uint32_t)mid) > u->base[b])
				hi = mid;
			else
				lo = mid + 1;
		}
		u->first[b] = lo;
	}
}

static inline int us_bucket_fast(const struct us_buckets *u, uint32_t v)
{
	int b = v ? 32 - __builtin_clz(v) : 0;
	return u->base[b] + (v >= u->first[b]);
}

/* The microsecond bucket of a tick value; it never decreases as v grows. */
static inline int us_of(const struct us_buckets *u, uint32_t v)
{
	return u->fast ? us_bucket_fast(u, v) : bucket_of(u, v);
}

/* One refining pass over the values: for each rank, the next SELECT_BITS
 * bits (below shift) of its value, given the bits above shift (prefix[r])
 * and its rank among the values that have them (inside[r]).  The pass
 * histograms, for each distinct prefix, the next bits of the values that
 * have it; low holds 3 * SELECT_BUCKETS counters.  On the first pass, mark
 * (indexed by the prefix) tells the values to look at, and also those of
 * buckets that straddle a microsecond boundary, which go into us_hist;
 * later passes (mark NULL) compare prefixes. */
struct refine {
	uint64_t *low;
	uint8_t *mark;
	const struct us_buckets *u;
	uint64_t *us_hist;
};

#define MARK_KEY 3      /* 1 + the histogram of the bucket's values, or 0 */
#define MARK_STRADDLE 4 /* the bucket's values fall in two microsecond buckets */

static int refine_ranks(const struct refine *f, int shift, uint32_t *const *arrays,
			const size_t *lens, size_t narrays, uint32_t prefix[3], uint64_t inside[3])
{
	int next = shift > SELECT_BITS ? shift - SELECT_BITS : 0;
	uint32_t mask = (1u << (shift - next)) - 1;
	int of[3], n = 0; /* the histogram of each rank; n distinct prefixes */
	uint32_t key[3];
	for (int r = 0; r < 3; r++) {
		of[r] = r && prefix[r] == prefix[r - 1] ? of[r - 1] : n++;
		key[of[r]] = prefix[r];
		if (f->mark)
			f->mark[prefix[r]] |= (uint8_t)(of[r] + 1);
	}
	memset(f->low, 0, (size_t)n * SELECT_BUCKETS * sizeof(*f->low));
	for (size_t a = 0; a < narrays; a++)
		for (size_t i = 0, len = lens[a]; i < len; i++) {
			uint32_t v = arrays[a][i], p = v >> shift;
			if (f->mark) {
				uint8_t m = f->mark[p];
				if (m & MARK_KEY)
					f->low[((m & MARK_KEY) - 1) * SELECT_BUCKETS + (v >> next & mask)]++;
				if (m & MARK_STRADDLE)
					f->us_hist[us_of(f->u, v)]++;
				continue;
			}
			for (int k = 0; k < n; k++)
				if (p == key[k])
					f->low[k * SELECT_BUCKETS + (v >> next & mask)]++;
		}
	for (int r = 0; r < 3; r++)
		prefix[r] = prefix[r] << (shift - next) |
			    find_rank(f->low + of[r] * SELECT_BUCKETS, inside[r], &inside[r]);
	return next;
}

/* The first pass: sum and top, the histogram of the values shifted right
 * by shift bits.  len is a local: the counters' stores could alias lens[]. */
static void count_top(struct dtl_dist *d, uint64_t *top, int shift, uint32_t *const *arrays,
		      const size_t *lens, size_t narrays)
{
	for (size_t a = 0; a < narrays; a++) {
		const uint32_t *vals = arrays[a];
		uint64_t sum = 0;
		for (size_t i = 0, len = lens[a]; i < len; i++) {
			sum += vals[i];
			top[vals[i] >> shift]++;
		}
		d->sum += sum;
		d->count += lens[a];
	}
}

/* The microsecond histogram from top's buckets: a bucket whose values all
 * fall in one microsecond bucket adds its count there; one that straddles
 * a boundary is marked, for refine_ranks's first pass to sort its values. */
static void spread_us(const struct us_buckets *u, const uint64_t *top, size_t nbuckets, int shift,
		      uint64_t *us_hist, uint8_t *mark)
{
	for (size_t t = 0; t < nbuckets; t++) {
		uint32_t lo = (uint32_t)t << shift, hi = lo | ((1u << shift) - 1);
		int b = us_of(u, lo);
		mark[t] = 0;
		if (b == us_of(u, hi))
			us_hist[b] += top[t];
		else if (top[t])
			mark[t] = MARK_STRADDLE;
	}
}

/* d from arrays[0..narrays) of one time (none above max): counts,
 * histogram, ranks.  Knowing the maximum, the first pass's histogram covers
 * 0..max in at most SELECT_BUCKETS buckets (each an exact value when max <
 * SELECT_BUCKETS).  That histogram gives the microsecond histogram
 * (spread_us) and each rank's top bits; further passes, over the few values
 * whose bucket needs them, the rest (refine_ranks). */
static void fill_dist(struct dtl_stats *s, struct dtl_dist *d, uint32_t *const *arrays,
		      const size_t *lens, size_t narrays, uint32_t max)
{
	struct us_buckets u;
	uint64_t *top = s->radix + 3 * SELECT_BUCKETS;
	uint8_t *mark = (uint8_t *)(s->radix + 4 * SELECT_BUCKETS);
	us_buckets_init(&u, dtl_tb_freq(s));
	memset(d, 0, sizeof(*d));
	d->max = max;
	int bits = max ? 32 - __builtin_clz(max) : 0;
	int shift = bits > SELECT_BITS ? bits - SELECT_BITS : 0;
	size_t nbuckets = ((size_t)max >> shift) + 1;
	memset(top, 0, nbuckets * sizeof(*top));
	count_top(d, top, shift, arrays, lens, narrays);
	if (!d->count)
		return;
	spread_us(&u, top, nbuckets, shift, d->hist, mark);
	uint64_t ranks[3] = {rank_of(50, d->count), rank_of(90, d->count), rank_of(99, d->count)};
	uint64_t inside[3];
	uint32_t out[3];
	for (int r = 0; r < 3; r++)
		out[r] = find_rank(top, ranks[r], &inside[r]);
	struct refine f = {.low = s->radix, .mark = mark, .u = &u, .us_hist = d->hist};
	for (; shift > 0; f.mark = NULL)
		shift = refine_ranks(&f, shift, arrays, lens, narrays, out, inside);
	d->p50 = out[0];
	d->p90 = out[1];
	d->p99 = out[2];
}

static void add_counts(struct dtl_cpu *all, const struct dtl_cpu *c)
{
	if (c->dispatches && (!all->dispatches || c->first_tb < all->first_tb))
		all->first_tb = c->first_tb;
	if (c->dispatches && c->last_tb > all->last_tb)
		all->last_tb = c->last_tb;
	all->dispatches += c->dispatches;
	all->skipped += c->skipped;
	all->stale_bytes += c->stale_bytes;
	all->steal += c->steal;
	for (int k = 0; k < DTL_NTIMES; k++)
		all->max[k] = c->max[k] > all->max[k] ? c->max[k] : all->max[k];
	for (int r = 0; r < 256; r++) {
		all->dispatch_mix[r] += c->dispatch_mix[r];
		all->preempt_mix[r] += c->preempt_mix[r];
	}
}

static int compare_cpu(const void *a, const void *b)
{
	const struct dtl_cpu *x = a, *y = b;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int dtl_stats_finish(struct dtl_stats *s)
{
	if (s->ncpus > 1) /* none seen: no array, and qsort's may not be NULL */
		qsort(s->cpus, s->ncpus, sizeof(*s->cpus), compare_cpu);
	memset(&s->overall, 0, sizeof(s->overall));
	s->overall.cpu = -1;
	size_t *lens = calloc(s->ncpus + 1, sizeof(*lens));
	uint32_t **arrays = calloc(s->ncpus + 1, sizeof(*arrays));
	/* refine_ranks's three histograms, fill_dist's first one, its marks */
	s->radix = malloc(4 * SELECT_BUCKETS * sizeof(*s->radix) + SELECT_BUCKETS);
	int rc = lens && arrays && s->radix ? 0 : -ENOMEM;
	for (size_t i = 0; i < s->ncpus; i++)
		add_counts(&s->overall, &s->cpus[i]);
	for (int k = 0; k < DTL_NTIMES && !rc; k++) {
		for (size_t i = 0; i < s->ncpus; i++) {
			struct dtl_cpu *c = &s->cpus[i];
			fill_dist(s, &c->dist[k], &c->times[k], &c->n, 1, c->max[k]);
			arrays[i] = c->times[k];
			lens[i] = c->n;
		}
		if (s->ncpus == 1) /* the same values: the same figures */
			s->overall.dist[k] = s->cpus[0].dist[k];
		else
			fill_dist(s, &s->overall.dist[k], arrays, lens, s->ncpus,
				  s->overall.max[k]);
	}
	free(lens);
	free(arrays);
	return rc;
}

void dtl_stats_free(struct dtl_stats *s)
{
	for (size_t i = 0; i < s->ncpus; i++) {
		free(s->cpus[i].tb);
		free(s->cpus[i].reasons);
		for (int k = 0; k < DTL_NTIMES; k++)
			free(s->cpus[i].times[k]);
	}
	free(s->cpus);
	free(s->radix);
	free(s->marks);
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

/*
 * dtl_stats.c - the figures of `pmutool dtl report` (dtl_stats.h).  The
 * entries' times are kept per CPU so that percentiles are exact, found by
 * a two-pass radix selection (select_ranks).  Steal is
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

void dtl_stats_header(struct dtl_stats *s, const struct pmurt_dtl_header *h)
{
	if (!s->have_header) {
		s->header = *h;
		s->have_header = true;
	}
}

static struct dtl_cpu *find_cpu(struct dtl_stats *s, int cpu)
{
	if (s->last < s->ncpus && s->cpus[s->last].cpu == cpu)
		return &s->cpus[s->last];
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
	if (!c->dispatches)
		c->first_tb = e->timebase;
	c->last_tb = e->timebase;
	c->dispatches++;
	c->dispatch_mix[e->dispatch_reason]++;
	c->preempt_mix[e->preempt_reason]++;
	c->steal += (uint64_t)e->enqueue_to_dispatch_time + e->ready_to_enqueue_time;
	c->times[DTL_ENQUEUE_TO_DISPATCH][c->n] = e->enqueue_to_dispatch_time;
	c->times[DTL_READY_TO_ENQUEUE][c->n] = e->ready_to_enqueue_time;
	c->times[DTL_WAITING_TO_READY][c->n] = e->waiting_to_ready_time;
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

#define RADIX 65536

/* Where rank falls in hist[RADIX]: the bucket, and the rank inside it. */
static uint32_t find_rank(const uint64_t *hist, uint64_t rank, uint64_t *inside)
{
	uint32_t b = 0;
	while (rank >= hist[b])
		rank -= hist[b++];
	*inside = rank;
	return b;
}

/* Values of arrays[0..narrays) (lengths lens, none above max) at three
 * ranks, exactly, in two passes: a histogram of the high 16 bits finds each
 * rank's bucket, a histogram of the low 16 bits of that bucket's values the
 * value.  radix holds 4 * RADIX counters, reused from call to call. */
static void select_ranks(uint64_t *radix, uint32_t *const *arrays, const size_t *lens,
			 size_t narrays, uint32_t max, const uint64_t ranks[3], uint32_t out[3])
{
	uint64_t *hist = radix, *low[3] = {radix + RADIX, radix + 2 * RADIX, radix + 3 * RADIX};
	memset(hist, 0, ((max >> 16) + 1) * sizeof(*hist));
	for (size_t a = 0; a < narrays; a++)
		for (size_t i = 0; i < lens[a]; i++)
			hist[arrays[a][i] >> 16]++;
	uint32_t high[3];
	uint64_t inside[3];
	for (int r = 0; r < 3; r++) {
		high[r] = find_rank(hist, ranks[r], &inside[r]);
		memset(low[r], 0, RADIX * sizeof(*low[r]));
	}
	for (size_t a = 0; a < narrays; a++)
		for (size_t i = 0; i < lens[a]; i++) {
			uint32_t v = arrays[a][i], h = v >> 16;
			low[0][v & 0xffff] += h == high[0];
			low[1][v & 0xffff] += h == high[1];
			low[2][v & 0xffff] += h == high[2];
		}
	for (int r = 0; r < 3; r++) {
		uint64_t unused;
		out[r] = high[r] << 16 | find_rank(low[r], inside[r], &unused);
	}
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

/* d from arrays[0..narrays) of one time: counts, max, histogram, ranks. */
static void fill_dist(struct dtl_stats *s, struct dtl_dist *d, uint32_t *const *arrays,
		      const size_t *lens, size_t narrays)
{
	struct us_buckets u;
	us_buckets_init(&u, dtl_tb_freq(s));
	memset(d, 0, sizeof(*d));
	for (size_t a = 0; a < narrays; a++) {
		const uint32_t *vals = arrays[a];
		uint64_t sum = 0;
		uint32_t max = d->max;
		for (size_t i = 0; i < lens[a]; i++) {
			uint32_t v = vals[i];
			sum += v;
			max = v > max ? v : max;
			d->hist[u.fast ? us_bucket_fast(&u, v) : bucket_of(&u, v)]++;
		}
		d->sum += sum;
		d->max = max;
		d->count += lens[a];
	}
	if (!d->count)
		return;
	uint64_t ranks[3] = {rank_of(50, d->count), rank_of(90, d->count), rank_of(99, d->count)};
	uint32_t out[3];
	select_ranks(s->radix, arrays, lens, narrays, d->max, ranks, out);
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
	qsort(s->cpus, s->ncpus, sizeof(*s->cpus), compare_cpu);
	memset(&s->overall, 0, sizeof(s->overall));
	s->overall.cpu = -1;
	size_t *lens = calloc(s->ncpus + 1, sizeof(*lens));
	uint32_t **arrays = calloc(s->ncpus + 1, sizeof(*arrays));
	s->radix = array_alloc(NULL, 4 * RADIX * sizeof(*s->radix));
	int rc = lens && arrays && s->radix ? 0 : -ENOMEM;
	for (size_t i = 0; i < s->ncpus; i++)
		add_counts(&s->overall, &s->cpus[i]);
	for (int k = 0; k < DTL_NTIMES && !rc; k++) {
		for (size_t i = 0; i < s->ncpus; i++) {
			struct dtl_cpu *c = &s->cpus[i];
			fill_dist(s, &c->dist[k], &c->times[k], &c->n, 1);
			arrays[i] = c->times[k];
			lens[i] = c->n;
		}
		if (s->ncpus == 1) /* the same values: the same figures */
			s->overall.dist[k] = s->cpus[0].dist[k];
		else
			fill_dist(s, &s->overall.dist[k], arrays, lens, s->ncpus);
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

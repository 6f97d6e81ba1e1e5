/*
 * dtl_stats.c - the figures of `pmutool dtl report` (dtl_stats.h).  The
 * entries' times are kept per CPU so that percentiles are exact: the
 * log2 histogram of ticks finds the bucket holding each wanted rank, and
 * only that bucket's values are copied and selected.  Steal is
 * enqueue_to_dispatch + ready_to_enqueue, the time the kernel counts as
 * stolen from each DTL entry (arch/powerpc/kernel/time.c scan_dispatch_log).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dtl_stats.h"

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

static int grow(struct dtl_cpu *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024;
	uint64_t *tb = realloc(c->tb, cap * sizeof(*tb));
	if (!tb)
		return -ENOMEM;
	c->tb = tb;
	uint8_t *reasons = realloc(c->reasons, cap * 2);
	if (!reasons)
		return -ENOMEM;
	c->reasons = reasons;
	for (int k = 0; k < DTL_NTIMES; k++) {
		uint32_t *v = realloc(c->times[k], cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->times[k] = v;
	}
	c->cap = cap;
	return 0;
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
	if (c->n == c->cap && grow(c) < 0)
		return -ENOMEM;
	const struct pmurt_dtl_entry *e = &slot->entry;
	if (!c->dispatches)
		c->first_tb = e->timebase;
	c->last_tb = e->timebase;
	c->dispatches++;
	c->dispatch_mix[e->dispatch_reason]++;
	c->preempt_mix[e->preempt_reason]++;
	c->steal += (uint64_t)e->enqueue_to_dispatch_time + e->ready_to_enqueue_time;
	c->tb[c->n] = e->timebase;
	c->times[DTL_ENQUEUE_TO_DISPATCH][c->n] = e->enqueue_to_dispatch_time;
	c->times[DTL_READY_TO_ENQUEUE][c->n] = e->ready_to_enqueue_time;
	c->times[DTL_WAITING_TO_READY][c->n] = e->waiting_to_ready_time;
	c->reasons[2 * c->n] = e->dispatch_reason;
	c->reasons[2 * c->n + 1] = e->preempt_reason;
	c->n++;
	return 0;
}

static int tick_bucket(uint32_t v)
{
	return v ? 32 - __builtin_clz(v) : 0;
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The nearest-rank percentile p (of 100) among n values: rank ceil(p*n/100). */
static uint64_t rank_of(unsigned p, uint64_t n)
{
	uint64_t r = (p * n + 99) / 100;
	return r ? r - 1 : 0;
}

/* Values of arrays[0..narrays) (lengths lens) at the three ranks, exactly:
 * find each rank's tick bucket, copy that bucket's values, sort them. */
static int select_ranks(uint32_t *const *arrays, const size_t *lens, size_t narrays,
			const uint64_t *bucket_count, const uint64_t ranks[3], uint32_t out[3])
{
	for (int r = 0; r < 3; r++) {
		uint64_t below = 0;
		int b = 0;
		while (below + bucket_count[b] <= ranks[r])
			below += bucket_count[b++];
		uint32_t *vals = malloc(bucket_count[b] * sizeof(*vals));
		if (!vals)
			return -ENOMEM;
		size_t m = 0;
		for (size_t a = 0; a < narrays; a++)
			for (size_t i = 0; i < lens[a]; i++)
				if (tick_bucket(arrays[a][i]) == b)
					vals[m++] = arrays[a][i];
		qsort(vals, m, sizeof(*vals), compare_u32);
		out[r] = vals[ranks[r] - below];
		free(vals);
	}
	return 0;
}

/* 0 for [0,1) us, k for [2^(k-1), 2^k) us */
static int us_bucket(double us)
{
	if (us < 1)
		return 0;
	int b = 64 - __builtin_clzll((uint64_t)us);
	return b < DTL_HIST_BUCKETS ? b : DTL_HIST_BUCKETS - 1;
}

/* d from arrays[0..narrays) of time k: counts, max, histograms, ranks. */
static int fill_dist(const struct dtl_stats *s, struct dtl_dist *d, uint32_t *const *arrays,
		     const size_t *lens, size_t narrays)
{
	uint64_t ticks_hist[33] = {0};
	double us_per_tick = 1e6 / (double)dtl_tb_freq(s);
	memset(d, 0, sizeof(*d));
	for (size_t a = 0; a < narrays; a++)
		for (size_t i = 0; i < lens[a]; i++) {
			uint32_t v = arrays[a][i];
			d->count++;
			d->sum += v;
			if (v > d->max)
				d->max = v;
			ticks_hist[tick_bucket(v)]++;
			d->hist[us_bucket(v * us_per_tick)]++;
		}
	if (!d->count)
		return 0;
	uint64_t ranks[3] = {rank_of(50, d->count), rank_of(90, d->count), rank_of(99, d->count)};
	uint32_t out[3];
	int rc = select_ranks(arrays, lens, narrays, ticks_hist, ranks, out);
	d->p50 = out[0];
	d->p90 = out[1];
	d->p99 = out[2];
	return rc;
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
	int rc = lens && arrays ? 0 : -ENOMEM;
	for (size_t i = 0; i < s->ncpus; i++)
		add_counts(&s->overall, &s->cpus[i]);
	for (int k = 0; k < DTL_NTIMES && !rc; k++) {
		for (size_t i = 0; i < s->ncpus && !rc; i++) {
			struct dtl_cpu *c = &s->cpus[i];
			rc = fill_dist(s, &c->dist[k], &c->times[k], &c->n, 1);
			arrays[i] = c->times[k];
			lens[i] = c->n;
		}
		if (!rc)
			rc = fill_dist(s, &s->overall.dist[k], arrays, lens, s->ncpus);
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
	memset(s, 0, sizeof(*s));
}

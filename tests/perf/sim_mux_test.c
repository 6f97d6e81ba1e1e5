/*
 * sim_mux_test.c - the simulated kernel's multiplexing for a PMU with
 * struct pmu_sim_mux (tests/support/sys_sim.c), on small hand-made cases whose
 * times are derived by hand from kernel/events/core.c's rules: groups
 * scheduled in list order, none after the first that cannot go on
 * (merge_sched_in, group_can_go_on), a group accepted by the PMU together
 * with those already on (power_pmu_commit_txn), the first group on rotated
 * to the tail at each 4 ms tick (perf_rotate_context, ctx_event_to_rotate,
 * rotate_ctx), the timer started by the first failure and stopped when no
 * rotation is needed, time_enabled and time_running as __perf_update_times
 * keeps them, and counts from the PMU's counts callback.
 *
 * usage: sim_mux_test
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "check.h"
#include "sys_sim.h"

static int failures;

#define MS 1000000ull

/* The toy PMU: an event's config is the counter it needs; events fit
 * together when no two need the same counter and at most `max` are on.
 * Every call's size is recorded. */
struct toy {
	int max;
	int calls, largest;
	uint64_t last[16];
	int nlast;
};

static bool toy_fits(void *arg, const struct perf_event_attr *const *attrs, int n)
{
	struct toy *t = arg;
	t->calls++;
	t->largest = n > t->largest ? n : t->largest;
	t->nlast = n < 16 ? n : 16;
	for (int i = 0; i < t->nlast; i++)
		t->last[i] = attrs[i]->config;
	if (n > t->max)
		return false;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (attrs[i]->config == attrs[j]->config)
				return false;
	return true;
}

/* config1 counts a microsecond before 6 ms of simulated time, 3 after:
 * a workload with two phases. */
static uint64_t phased(void *arg, const struct perf_event_attr *a, uint64_t from, uint64_t to)
{
	(void)arg;
	uint64_t edge = 6 * MS, before = 0, after = 0;
	if (from < edge)
		before = (to < edge ? to : edge) - from;
	if (to > edge)
		after = to - (from > edge ? from : edge);
	return (before + 3 * after) * a->config1 / 1000;
}

struct bed {
	struct toy toy;
	struct pmu_sim_mux mux;
	struct pmu_sim *sim;
	const struct pmurt_sys *sys;
};

static void bed_open(struct bed *b, int max)
{
	memset(b, 0, sizeof(*b));
	b->toy.max = max;
	b->mux = (struct pmu_sim_mux){.fits = toy_fits, .counts = phased, .arg = &b->toy};
	const struct pmu_sim_pmu pmus[] = {{.type = PERF_TYPE_RAW, .name = "cpu", .mux = &b->mux}};
	if (pmu_sim_new(&b->sim, pmus, 1)) {
		fprintf(stderr, "sim_mux_test: out of memory\n");
		failures++;
		return;
	}
	b->sys = pmu_sim_sys(b->sim);
}

/* An event needing counter `counter` counting `per_us` a microsecond
 * (3 times that after 6 ms), in group_fd's group (-1: a leader, opened
 * disabled when `disabled`). */
static int ev(struct bed *b, uint64_t counter, uint64_t per_us, int group_fd, bool disabled)
{
	struct perf_event_attr a = {.size = sizeof(a), .type = PERF_TYPE_RAW, .config = counter,
				    .config1 = per_us, .disabled = disabled && group_fd < 0,
				    .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
						   PERF_FORMAT_TOTAL_TIME_RUNNING};
	int fd = b->sys->event_open(b->sys->ctx, &a, 0, -1, group_fd, 0);
	CHECK(fd >= 0, "open counter %llu: %d", (unsigned long long)counter, fd);
	return fd;
}

/* value, time_enabled, time_running of one event */
static void times(struct bed *b, int fd, uint64_t v[3])
{
	ssize_t n = b->sys->read(b->sys->ctx, fd, v, 3 * sizeof(uint64_t));
	CHECK(n == 3 * sizeof(uint64_t), "read fd %d: %zd", fd, n);
}

#define EXPECT(b, fd, value, enabled, running)                                               \
	do {                                                                                 \
		uint64_t v_[3];                                                              \
		times((b), (fd), v_);                                                        \
		CHECK(v_[0] == (value) && v_[1] == (enabled) && v_[2] == (running),          \
		      "fd %d: value %llu enabled %llu running %llu, expected %llu %llu %llu", \
		      (fd), (unsigned long long)v_[0], (unsigned long long)v_[1],            \
		      (unsigned long long)v_[2], (unsigned long long)(value),                \
		      (unsigned long long)(enabled), (unsigned long long)(running));         \
	} while (0)

/*
 * G1 {c1,c2}, G2 {c3}, G3 {c2} on a PMU of distinct counters.
 *   0 ms  [G1 G2 G3]: G1 on, G2 on (c1 c2 c3), G3 cannot (c2 twice)
 *   4 ms  G1 (first on) to the tail: [G2 G3 G1]: G2, G3 on, G1 cannot
 *   8 ms  G2 to the tail: [G3 G1 G2]: G3 on, G1 cannot, so G2 is not
 *         tried although c3 is free (no group after a failure)
 *  12 ms  G3 to the tail: [G1 G2 G3], as at 0 ms
 * Running over 12 ms: G1 4, G2 8, G3 8.  Counts: c3 at 1/us runs 0-8 ms,
 * 6 ms at 1 and 2 ms at 3: 12000.
 */
static void test_rotation(void)
{
	struct bed b;
	bed_open(&b, 6);
	int g1 = ev(&b, 1, 2, -1, false), g1b = ev(&b, 2, 1, g1, false);
	int g2 = ev(&b, 3, 1, -1, false), g3 = ev(&b, 2, 5, -1, false);
	CHECK(pmu_sim_active(b.sim, g1) && pmu_sim_active(b.sim, g1b) &&
	      pmu_sim_active(b.sim, g2) && !pmu_sim_active(b.sim, g3), "at 0 ms: G1, G2 on");
	CHECK(b.toy.largest == 4 && b.toy.nlast == 4 && b.toy.last[0] == 1 && b.toy.last[1] == 2 &&
	      b.toy.last[2] == 3 && b.toy.last[3] == 2,
	      "the PMU is asked about the events on and the new group together, in list order "
	      "(largest %d, last %d)", b.toy.largest, b.toy.nlast);
	pmu_sim_advance(b.sim, 5 * MS);
	CHECK(!pmu_sim_active(b.sim, g1) && pmu_sim_active(b.sim, g2) && pmu_sim_active(b.sim, g3),
	      "at 5 ms: G2, G3 on");
	pmu_sim_advance(b.sim, 4 * MS);
	CHECK(!pmu_sim_active(b.sim, g1) && !pmu_sim_active(b.sim, g2) && pmu_sim_active(b.sim, g3),
	      "at 9 ms: G3 alone (G2 not tried after G1 failed)");
	pmu_sim_advance(b.sim, 3 * MS);
	CHECK(pmu_sim_now(b.sim) == 12 * MS, "now %llu", (unsigned long long)pmu_sim_now(b.sim));
	/* G1: c1 at 2/us and c2 at 1/us, on 0-4 ms: 8000 and 4000 */
	EXPECT(&b, g1, 8000, 12 * MS, 4 * MS);
	EXPECT(&b, g1b, 4000, 12 * MS, 4 * MS);
	EXPECT(&b, g2, 12000, 12 * MS, 8 * MS);
	/* G3 at 5/us, on 4-12 ms: 2 ms at 5, 6 ms at 15: 100000 */
	EXPECT(&b, g3, 100000, 12 * MS, 8 * MS);
	pmu_sim_free(b.sim);
}

/*
 * The rotated group is the first one on, not the list's head:
 * [G0 (disabled) G1 G2], one counter.  0 ms: G1 on, G2 cannot.  4 ms: G1
 * to the tail, [G0 G2 G1]: G2 on.  8 ms: G2 to the tail: G1 on.  Over
 * 10 ms G1 runs 0-4 and 8-10 (6 ms), G2 4-8 (4 ms); moving the head (G0)
 * instead would have left G1 on throughout.  G0, disabled, gains no time.
 */
static void test_first_active_rotates(void)
{
	struct bed b;
	bed_open(&b, 1);
	int g0 = ev(&b, 1, 1, -1, true), g1 = ev(&b, 2, 1, -1, false), g2 = ev(&b, 3, 1, -1, false);
	pmu_sim_advance(b.sim, 10 * MS);
	EXPECT(&b, g0, 0, 0, 0);
	/* G1 at 1/us: 0-4 ms 4000, 8-10 ms 2 ms at 3: 6000 */
	EXPECT(&b, g1, 10000, 10 * MS, 6 * MS);
	/* G2: 4-6 ms at 1, 6-8 ms at 3: 8000 */
	EXPECT(&b, g2, 8000, 10 * MS, 4 * MS);
	pmu_sim_free(b.sim);
}

/*
 * The timer starts when a group first cannot go on and stops at the first
 * tick that finds no rotation needed.  Two groups on one counter, opened
 * disabled; both enabled at 1 ms:
 *   1 ms  [G1 G2]: G1 on, G2 cannot: the timer is due at 5 ms
 *   5 ms  G1 to the tail, [G2 G1]: G2 on, G1 cannot
 *   6 ms  G2 disabled: it goes off; G1 stays off (a disable schedules
 *         nothing in)
 *   9 ms  nothing on: the first group, G2, to the tail: [G1 G2]: G1 on,
 *         G2 (off) skipped; nothing failed
 *  13 ms  no rotation needed: the timer stops; G1 stays on
 * Over 0-20 ms: G1 enabled 19 ms, running 1-5 and 9-20 (15 ms); G2
 * enabled 1-6 (5 ms), running 5-6 (1 ms).  Then:
 *  20 ms  G2 enabled: [G1 G2]: G2 cannot go on: the timer, due at 24 ms
 *  24 ms  G1 to the tail: G2 on
 */
static void test_timer(void)
{
	struct bed b;
	bed_open(&b, 1);
	int g1 = ev(&b, 1, 1, -1, true), g2 = ev(&b, 2, 1, -1, true);
	pmu_sim_advance(b.sim, 1 * MS);
	EXPECT(&b, g1, 0, 0, 0);
	CHECK(b.sys->ioctl(b.sys->ctx, g1, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0 &&
	      b.sys->ioctl(b.sys->ctx, g2, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0,
	      "enable");
	CHECK(pmu_sim_active(b.sim, g1) && !pmu_sim_active(b.sim, g2), "at 1 ms: G1 on");
	pmu_sim_advance(b.sim, 4 * MS);
	CHECK(!pmu_sim_active(b.sim, g1) && pmu_sim_active(b.sim, g2),
	      "at 5 ms: G2 on (the tick 4 ms after the failure at 1 ms)");
	pmu_sim_advance(b.sim, 1 * MS);
	CHECK(b.sys->ioctl(b.sys->ctx, g2, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) == 0,
	      "disable");
	CHECK(!pmu_sim_active(b.sim, g1), "at 6 ms: a disable schedules nothing in");
	pmu_sim_advance(b.sim, 14 * MS);
	CHECK(pmu_sim_active(b.sim, g1), "at 20 ms: G1 on");
	/* G1 at 1/us: 1-5 ms 4000; 9-20 ms at 3: 33000 */
	EXPECT(&b, g1, 37000, 19 * MS, 15 * MS);
	/* G2 at 1/us on 5-6 ms */
	EXPECT(&b, g2, 1000, 5 * MS, 1 * MS);
	/* G2 enabled again at 20 ms: it cannot go on, the stopped timer
	 * starts again, due at 24 ms (a timer left running would be due at
	 * 21 ms) */
	CHECK(b.sys->ioctl(b.sys->ctx, g2, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0,
	      "enable again");
	pmu_sim_advance(b.sim, 3 * MS);
	CHECK(pmu_sim_active(b.sim, g1) && !pmu_sim_active(b.sim, g2), "at 23 ms: G1 still on");
	pmu_sim_advance(b.sim, 2 * MS);
	CHECK(!pmu_sim_active(b.sim, g1) && pmu_sim_active(b.sim, g2), "at 25 ms: G2 on");
	pmu_sim_free(b.sim);
}

/* Everything fits: no rotation, running equals enabled; a member of a
 * group whose leader is disabled gains no time. */
static void test_no_mux(void)
{
	struct bed b;
	bed_open(&b, 6);
	int g1 = ev(&b, 1, 1, -1, false), g2 = ev(&b, 2, 1, -1, true), m = ev(&b, 3, 1, g2, false);
	pmu_sim_advance(b.sim, 7 * MS);
	/* 6 ms at 1, 1 ms at 3 */
	EXPECT(&b, g1, 9000, 7 * MS, 7 * MS);
	EXPECT(&b, m, 0, 0, 0);
	CHECK(!pmu_sim_active(b.sim, m), "a member of a disabled leader is off");
	pmu_sim_free(b.sim);
}

int main(void)
{
	test_rotation();
	test_first_active_rotates();
	test_timer();
	test_no_mux();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}

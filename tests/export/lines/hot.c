/* hot.c - the program pprof_lines.sh profiles: a hot loop of its own, with
 * debug info, and one in a stripped library (cold.c, libcold.so). */
#include <stdlib.h>

unsigned long cold_spin(unsigned long n);

static volatile unsigned long sink;

__attribute__((noinline)) static void hot_loop(unsigned long n) /* HOT-DECL */
{
	unsigned long x = 0;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + i; /* HOT-LINE */
	sink += x;
} /* HOT-END */

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	for (int r = 0; r < rounds; r++) {
		/* the call returns to the next line's first instruction */
		hot_loop(1000000); /* HOT-CALL */
		sink += cold_spin(1000000);
	}
	return 0;
}

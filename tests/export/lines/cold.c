/* cold.c - libcold.so of pprof_lines.sh, built with -g and then stripped
 * of its debug info: its frames must have no source lines. */
unsigned long cold_spin(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 2862933555777941757ul + i;
	return x;
}

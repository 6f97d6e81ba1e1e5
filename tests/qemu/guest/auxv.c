/*
 * auxv.c - the platform strings the kernel hands a process in its auxiliary
 * vector: `auxv` prints "AT_PLATFORM=..." and "AT_BASE_PLATFORM=...".  In
 * the QEMU guests booted as Power11 (tests/qemu/guest_test.sh), they show
 * why libpmurt's description pick reads the cpu PMU's pmu_name before
 * AT_PLATFORM: the partition runs in POWER10 compatibility mode.
 */
#include <stdio.h>
#include <sys/auxv.h>

int main(void)
{
	const char *platform = (const char *)getauxval(AT_PLATFORM);
	const char *base = (const char *)getauxval(AT_BASE_PLATFORM);
	printf("AT_PLATFORM=%s\nAT_BASE_PLATFORM=%s\n", platform ? platform : "",
	       base ? base : "");
	return 0;
}

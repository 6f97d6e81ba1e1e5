/*
 * version.c - pmurt_version(): the version libpmurt was built as
 * (include/pmurt.h, the CMake project's version).
 */
#include "pmurt.h"

uint32_t pmurt_version(void)
{
	return PMURT_VERSION;
}

/*
 * main.c - the installed pmutool: pmutool_main (pmutool.c) on the real
 * kernel.  Test programs link the same sources with a main of their own
 * (tests/dtl/pmutool_sim.c: the simulated vpa_dtl driver).
 */
#include <stddef.h>

#include "pmutool.h"

int main(int argc, char **argv)
{
	return pmutool_main(argc, argv, NULL);
}

status 0
--pmu
power9
check
{cycles,instructions,L1-dcache-load-misses}

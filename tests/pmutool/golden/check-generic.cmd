status 0
check
{cycles,instructions,L1-dcache-load-misses}

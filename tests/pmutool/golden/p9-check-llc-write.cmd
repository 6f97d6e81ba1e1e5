status 1
--pmu
power9
check
LLC-stores

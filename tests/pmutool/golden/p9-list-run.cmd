status 0
--pmu
power9
list
pm_run_*

status 0
list
--json
pm_run_cyc*

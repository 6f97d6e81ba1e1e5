status 2
--pmu
power8
stat
--dry-run
-e
PM_ICT_NOSLOT_CYC

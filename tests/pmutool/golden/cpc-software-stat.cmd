status 0
stat
--dry-run
-e
cpu-clock-user-20000,task-clock-kernel-5000,page-faults-all-7000

status 2
stat
--dry-run
-e
cpu-clock-user-0xff-20000

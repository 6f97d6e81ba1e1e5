status 2
record
--dry-run
-e
cpu-clock-user-100
--
true

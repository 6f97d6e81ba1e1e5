status 0
record
--dry-run
-e
cpu-clock-all-250000
-e
context-switches-user-5000
--
true

status 2
stat
--dry-run
-e
cs-kernel-0

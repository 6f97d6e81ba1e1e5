status 2
--show-pick
-e
cycles
stat
true

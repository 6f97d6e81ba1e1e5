status 2
list
--per-task

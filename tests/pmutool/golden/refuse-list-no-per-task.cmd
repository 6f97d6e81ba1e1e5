status 2
--no-per-task
list

status 0
--help

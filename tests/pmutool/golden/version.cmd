status 0
--version

status 2

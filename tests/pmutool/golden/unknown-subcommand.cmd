status 2
frobnicate

status 2
dtl
frob

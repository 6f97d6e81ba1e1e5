status 2
--json
dtl
report
x.bin

status 2
--sysfs
/sys
dtl
report
x.bin
